# Program tests of the datatype bindings (MPI-4.1 chapter 5): each program
# counts its failed checks and prints "rank R: NAME ok (N checks)" on every
# rank when none failed (it aborts otherwise).

foreach(p datatype_vector_send datatype_struct_send datatype_pack datatype_decode datatype_free_in_use)
  progsim_test_program(${p} ${p}.c)
endforeach()

# A vector sent and received as contiguous ints and back, resized types in
# sends of count 3, MPI_Get_count/MPI_Get_elements on partial messages,
# MPI_Status_set_elements with mixed element sizes.
progsim_program_test(datatype.vector_send PROGRAM datatype_vector_send
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: datatype_vector_send ok" --stdout-regex "rank 1: datatype_vector_send ok"
  RUN -n 2)
# A struct built with MPI_Get_address displacements, sent between ranks;
# absolute addresses from MPI_BOTTOM.
progsim_program_test(datatype.struct_send PROGRAM datatype_struct_send
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: datatype_struct_send ok" --stdout-regex "rank 1: datatype_struct_send ok"
  RUN -n 2)
# MPI_Pack/MPI_Unpack round trips, packed messages, external32, pack errors.
progsim_program_test(datatype.pack PROGRAM datatype_pack
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: datatype_pack ok" --stdout-regex "rank 1: datatype_pack ok"
  RUN -n 2)
# get_envelope/get_contents round trips of every combiner, dup/commit/free
# rules, names, attributes and keyvals, match_size, the _x queries.
progsim_program_test(datatype.decode PROGRAM datatype_decode
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: datatype_decode ok" --stdout-regex "rank 1: datatype_decode ok"
  RUN -n 2)
# MPI_Type_free while a type built from it, a nonblocking operation or a
# persistent request still uses it.
progsim_program_test(datatype.free_in_use PROGRAM datatype_free_in_use
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: datatype_free_in_use ok" --stdout-regex "rank 1: datatype_free_in_use ok"
  RUN -n 2)
# The same programs under the other progress policies (the datatype path of
# the protocols: eager, rendezvous, packed staging).
foreach(policy thread offload ideal)
  progsim_program_test(datatype.vector_send.${policy} PROGRAM datatype_vector_send
    EXPECT --expect-outcome completed --stdout-regex "rank 1: datatype_vector_send ok"
    RUN -n 2 --progress ${policy})
  progsim_program_test(datatype.free_in_use.${policy} PROGRAM datatype_free_in_use
    EXPECT --expect-outcome completed --stdout-regex "rank 1: datatype_free_in_use ok"
    RUN -n 2 --progress ${policy})
endforeach()
# Rendezvous for every message: the typed data moves after the match.
progsim_program_test(datatype.free_in_use.rendezvous PROGRAM datatype_free_in_use
  EXPECT --expect-outcome completed --stdout-regex "rank 1: datatype_free_in_use ok"
  RUN -n 2 --cfg eager-threshold=0)

# The large-count "_c" bindings (MPI-4.1 §19.2): MPI_Send_c/Recv_c in every
# mode, Isendrecv_c, Mrecv_c, Buffer_attach_c/detach_c, statuses and types
# beyond INT_MAX (Get_count_c, Type_size_c, true extents of 5 GiB types),
# decoding with large counts, Pack_c/Unpack_c and external32.
progsim_test_program(large_count large_count.c)
progsim_program_test(datatype.large_count PROGRAM large_count
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 0: large_count ok" --stdout-regex "rank 1: large_count ok"
  RUN -n 2)
