# Unit tests of the pure topology logic (mpi_model/topology): MPI_Dims_create's
# factorisation and the Cartesian, graph and distributed graph kinds.
add_executable(topology_unit_tests ${CMAKE_CURRENT_LIST_DIR}/TopologyTest.cpp)
target_link_libraries(topology_unit_tests PRIVATE progsim GTest::gtest_main)
gtest_discover_tests(topology_unit_tests PROPERTIES LABELS unit)
