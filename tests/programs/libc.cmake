# C-library state that programs rely on per process behaves per rank
# (sim/LibcState.hpp): one program per piece of state, under every policy.

foreach(name getopt rand strtok errno environment atexit stdout)
  progsim_test_program(libc_${name} libc_${name}.c)
endforeach()

foreach(policy weak thread offload ideal)
  # Every rank parses the same argv and sees every option (OSU's
  # `osu_latency -m 1:1024` deadlocked: only rank 0 saw them).
  progsim_program_test(libc.getopt.${policy} PROGRAM libc_getopt
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 3: getopt ok \\(7 checks\\)"
           --stdout-regex "rank 0: getopt ok"
    RUN -n 4 --progress ${policy}
    PROGRAM_ARGS -m 1:1024 -v --size 7 file1 file2)
  foreach(name rand strtok errno environment)
    progsim_program_test(libc.${name}.${policy} PROGRAM libc_${name}
      EXPECT --expect-outcome completed --twice
             --stdout-regex "rank 0: ${name} ok" --stdout-regex "rank 3: ${name} ok"
      RUN -n 4 --progress ${policy})
  endforeach()
  # Each rank's handlers run right after its main ends, newest first.
  progsim_program_test(libc.atexit.${policy} PROGRAM libc_atexit
    EXPECT --expect-outcome completed --twice --stdout-lines 16
           --stdout-regex "rank 0: returns from main\nrank 0: exit handler 2\nrank 0: on_exit handler, status 0, argument kept\nrank 0: exit handler 1\n"
           --stdout-regex "rank 2: calls exit\\(0\\)\nrank 2: exit handler 2\nrank 2: on_exit handler, status 0, argument kept\nrank 2: exit handler 1\n"
           --stdout-regex "rank 3: returns from main\nrank 3: exit handler 2\n"
    RUN -n 4 --progress ${policy})
  # _exit and quick_exit end the rank without its handlers (POSIX _exit, C11 7.22.4.7).
  foreach(how _exit quick_exit)
    progsim_program_test(libc.no_exit_handlers.${how}.${policy} PROGRAM libc_atexit PROGRAM_ARGS ${how}
      EXPECT --expect-outcome completed --twice --stdout-lines 13
             --stdout-regex "rank 2: calls ${how}\\(0\\)\n"
             --stdout-regex "rank 3: returns from main\nrank 3: exit handler 2\n"
      RUN -n 4 --progress ${policy})
  endforeach()
  # A line written in parts around MPI calls stays one line of its rank.
  progsim_program_test(libc.stdout.${policy} PROGRAM libc_stdout
    EXPECT --expect-outcome completed --twice --stdout-lines 4
           --stdout-regex "(^|\n)rank 0: part one, part two, part three \\(sum 6\\)\n"
           --stdout-regex "(^|\n)rank 3: part one, part two, part three \\(sum 6\\)\n"
    RUN -n 4 --progress ${policy})
  progsim_program_test(libc.stdout_tagged.${policy} PROGRAM libc_stdout
    EXPECT --expect-outcome completed --twice --stdout-lines 4
           --stdout-regex "(^|\n)\\[1\\] rank 1: part one, part two, part three \\(sum 6\\)\n"
    RUN -n 4 --progress ${policy} --tag-output)
endforeach()
