# Integration tests of the compiler wrappers and of the install tree, as MPI
# users meet them: Makefiles, CMake (FindMPI or CMAKE_C_COMPILER), C++,
# `cmake --install`, and programs not built with the wrappers. Each test is a
# bash script taking the build directory and a scratch directory of its own
# (wiped when the test starts, kept afterwards), so they run in parallel.
# They use the built tree (bin/, lib/, include/, share/): build first.
set(PROGSIM_WRAPPER_TESTS show make cmake_mpi_c_compiler cxx install not_built_with_progsim_cc run_directly
    man_pages completion)
foreach(name ${PROGSIM_WRAPPER_TESTS})
  add_test(NAME wrappers.${name}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/${name}.sh ${CMAKE_BINARY_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/wrappers/${name})
  set_tests_properties(wrappers.${name} PROPERTIES
    LABELS wrappers
    TIMEOUT 120
    ENVIRONMENT "CMAKE=${CMAKE_COMMAND}")
endforeach()
