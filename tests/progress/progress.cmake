# Adding a progress policy touches only mpi_model/progress/ (docs/design/
# progress.md): the toy policy's patch applied to a copy of the tree, which is
# built and run. It builds progsim once more: quick with the compiler cache
# of the main build (the copy's build folder has the same layout and the
# cache keys are relative to the source tree, CMakeLists.txt), long without
# one, hence alone (RUN_SERIAL) and with a long time-out. The copy chooses
# its own ccache launcher as this tree did; a launcher the user chose
# (-DCMAKE_CXX_COMPILER_LAUNCHER, a cache entry) is passed on.
add_test(NAME progress.toy_policy
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/progress/toy_policy.sh ${CMAKE_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/toy-policy "$CACHE{CMAKE_CXX_COMPILER_LAUNCHER}")
set_tests_properties(progress.toy_policy PROPERTIES LABELS "progress;slow" TIMEOUT 1800 RUN_SERIAL TRUE
                     SKIP_RETURN_CODE 77)
