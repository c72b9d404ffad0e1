# upsweep-sort end to end (included from CMakeLists.txt). Every error the tool reports before its
# first CUDA call runs everywhere; "no CUDA device" runs only where there is none; the sorts
# themselves (label gpu) skip without a GPU and byte-compare the output with the CPU reference
# (upsweep_sort_reference: std::stable_sort over the host key order) or with a file.
set(sort_tool $<TARGET_FILE:upsweep-sort>)
set(sort_reference $<TARGET_FILE:upsweep_sort_reference>)
set(here ${CMAKE_CURRENT_SOURCE_DIR})
set(data ${CMAKE_CURRENT_SOURCE_DIR}/data)

# upsweep_sort_cli_test(NAME RC REGEX ARGS...): exit code and message, no GPU needed.
function(upsweep_sort_cli_test name rc regex)
  add_test(NAME upsweep-sort.${name} COMMAND ${here}/expect.sh ${rc} ${regex} ${sort_tool} ${ARGN})
  set_tests_properties(upsweep-sort.${name} PROPERTIES TIMEOUT 60)
endfunction()

# upsweep_sort_matches(NAME EXPECTED OUTNAME ARGS...): every output file byte-identical to the
# reference's (EXPECTED = the reference program) or to a file; without a GPU when GPU is NO_GPU.
function(upsweep_sort_matches name expected outname)
  add_test(NAME upsweep-sort.${name}
           COMMAND ${here}/skip_without_gpu.sh ${here}/sort_matches.sh ${sort_tool} ${expected} ${outname} ${ARGN})
  set_tests_properties(upsweep-sort.${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
endfunction()

# ---- errors and usage, no GPU ------------------------------------------------------------------
upsweep_sort_cli_test(help 0 "--algo TEXT:.upsweep,cub,thrust." --help)
upsweep_sort_cli_test(missing_file 1 "^upsweep-sort: /nonexistent/keys.txt: No such file or directory$"
                      /nonexistent/keys.txt)
upsweep_sort_cli_test(unreadable_file 1 "^upsweep-sort: .*/data: Is a directory$" ${data})
upsweep_sort_cli_test(malformed_number 1 "^upsweep-sort: .*/malformed.txt:5:1: invalid number '3x'$"
                      ${data}/malformed.txt)
upsweep_sort_cli_test(malformed_csv_field 1 "^upsweep-sort: .*/malformed.csv:3:3: invalid number '4x'$"
                      ${data}/malformed.csv --column b --type i32)
upsweep_sort_cli_test(out_of_range 1 "^upsweep-sort: .*/out_of_range.txt:2:1: value 300 out of range for u8$"
                      ${data}/out_of_range.txt --type u8)
upsweep_sort_cli_test(negative_unsigned 1 "^upsweep-sort: .*/values.txt:2:1: value -4 out of range for u16$"
                      ${data}/values.txt --type u16)
upsweep_sort_cli_test(binary_size 1 "^upsweep-sort: .*/ten_bytes.bin: size 10 bytes is not a multiple of 4 \\(u32\\)$"
                      ${data}/ten_bytes.bin --type u32)
upsweep_sort_cli_test(binary_needs_type 2 "^upsweep-sort: .*/ten_bytes.bin: raw binary input needs --type"
                      ${data}/ten_bytes.bin)
upsweep_sort_cli_test(no_such_column 1 "^upsweep-sort: .*/people.csv:1: no column 'height' \\(columns: name, age, city\\)$"
                      ${data}/people.csv --column height)
upsweep_sort_cli_test(empty_input 0 "^upsweep-sort: empty input \\(.*/empty.txt\\): nothing to sort, the result is empty$"
                      ${data}/empty.txt --type u32 --verify)
upsweep_sort_cli_test(empty_input_json 0 "\"items\": 0, \"empty\": true" ${data}/empty.txt --json)
upsweep_sort_cli_test(unwritable_output 1 "^upsweep-sort: /nonexistent/dir/sorted.txt: No such file or directory$"
                      ${data}/empty.txt -o /nonexistent/dir/sorted.txt)
upsweep_sort_cli_test(bad_bits 2 "^upsweep-sort: --bits '3-9': expected B:E" --generate 10 --bits 3-9)
upsweep_sort_cli_test(bits_beyond_key 2 "^upsweep-sort: --bits 0:40: a u32 key has 32 bits$" --generate 10 --bits 0:40)
upsweep_sort_cli_test(bits_reversed 2 "^upsweep-sort: --bits 9:3: B must not exceed E$" --generate 10 --bits 9:3)
upsweep_sort_cli_test(bits_with_thrust 2 "^upsweep-sort: --bits is not available with --algo thrust$"
                      --generate 10 --bits 0:8 --algo thrust)
upsweep_sort_cli_test(pairs_binary_to_stdout 2 "^upsweep-sort: --pairs writes binary and .npy output as two files"
                      --generate 10 --pairs --output-format npy -o -)
upsweep_sort_cli_test(bad_algo 2 "--algo: cub2 not in .upsweep,cub,thrust." --generate 10 --algo cub2)
upsweep_sort_cli_test(bad_count 2 "^upsweep-sort: --generate: bad count '12q'" --generate 12q)
upsweep_sort_cli_test(bad_repeat 2 "--repeat: Value 0 not in range" --generate 10 --repeat 0)
upsweep_sort_cli_test(input_and_generate 2 "excludes --generate" ${data}/values.txt --generate 10)

# Empty inputs give empty outputs in the input's format (a header for CSV), with no GPU.
foreach(case IN ITEMS "empty_text;empty.txt;out.txt;--type;i16" "empty_npy;empty.txt;out.npy;--type;f64"
                      "empty_csv_rows;empty.csv;out.csv;--column;age;--pairs")
  list(POP_FRONT case name input outname)
  add_test(NAME upsweep-sort.${name}
           COMMAND ${here}/sort_matches.sh ${sort_tool} ${sort_reference} ${outname} ${data}/${input} ${case})
  set_tests_properties(upsweep-sort.${name} PROPERTIES TIMEOUT 60)
endforeach()

# What the tool says without a device (skipped where there is one).
add_test(NAME upsweep-sort.no_cuda_device
  COMMAND ${here}/skip_with_gpu.sh ${here}/expect.sh 1
          "^upsweep-sort: no CUDA device available \\(cuda[A-Za-z]+: .+\\)$" ${sort_tool} ${data}/values.txt --type i64)
set_tests_properties(upsweep-sort.no_cuda_device PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
# The file-to-file path: the same message, and no output file left behind.
add_test(NAME upsweep-sort.no_cuda_device_file_to_file
  COMMAND ${here}/skip_with_gpu.sh ${here}/expect_no_output.sh 1 ${sort_tool} ${data}/ten_bytes.bin --type u16)
set_tests_properties(upsweep-sort.no_cuda_device_file_to_file PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)

# ---- on a GPU ----------------------------------------------------------------------------------
# The main job: no arguments (100M u32, verified against CUB).
add_test(NAME upsweep-sort.gpu_demo COMMAND ${here}/skip_without_gpu.sh ${sort_tool})
set_tests_properties(upsweep-sort.gpu_demo PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300
  PASS_REGULAR_EXPRESSION "sorted 100000000 u32 keys .*verify +sorted, permutation checksum equal, identical to cub::DeviceRadixSort")

# Every key type, both directions, generated, byte-compared with the CPU reference.
foreach(type u8 u16 u32 u64 i8 i16 i32 i64 f32 f64)
  upsweep_sort_matches(gpu_${type} ${sort_reference} out.bin --generate 300k --type ${type} --dist normal --seed 7 --verify)
  upsweep_sort_matches(gpu_${type}_descending ${sort_reference} out.npy
                       --generate 100k --type ${type} --dist few-unique --descending --verify)
endforeach()
upsweep_sort_matches(gpu_text ${sort_reference} out.txt ${data}/values.txt --type i64 --verify)
upsweep_sort_matches(gpu_float_specials ${data}/specials_sorted.txt out.txt ${data}/specials.txt --type f32 --verify)
upsweep_sort_matches(gpu_float_specials_f64 ${sort_reference} out.txt ${data}/specials.txt --type f64 --descending)
upsweep_sort_matches(gpu_csv_rows ${data}/people_by_age.csv out.csv ${data}/people.csv --column age --pairs --verify)
upsweep_sort_matches(gpu_csv_rows_reference ${sort_reference} out.csv ${data}/people.csv --column 1 --pairs --descending)
upsweep_sort_matches(gpu_csv_column ${sort_reference} out.csv ${data}/people.csv --column age --type u8)
upsweep_sort_matches(gpu_pairs_npy ${sort_reference} out.npy --generate 1M --type i16 --dist zipf --pairs --verify)
upsweep_sort_matches(gpu_pairs_text ${sort_reference} out.txt --generate 50k --type f32 --dist few-unique --pairs --descending)
upsweep_sort_matches(gpu_bits ${sort_reference} out.csv --generate 1M --type u32 --bits 4:12 --pairs --verify)
upsweep_sort_matches(gpu_bits_signed ${sort_reference} out.bin --generate 1M --type i64 --bits 40:64 --descending --verify)
upsweep_sort_matches(gpu_bits_empty_window ${sort_reference} out.bin --generate 10k --type u16 --bits 5:5 --pairs)
upsweep_sort_matches(gpu_large_pass_count ${sort_reference} out.npy --generate 5M --type f64 --dist uniform --seed 3)
upsweep_sort_matches(gpu_sorted_input ${sort_reference} out.npy --generate 2M --type u32 --dist sorted --descending)
upsweep_sort_matches(gpu_all_equal ${sort_reference} out.npy --generate 2M --type u64 --dist all-equal --pairs)
upsweep_sort_matches(gpu_cub ${sort_reference} out.npy --generate 1M --type f32 --algo cub --pairs --verify)
upsweep_sort_matches(gpu_thrust ${sort_reference} out.npy --generate 1M --type i32 --algo thrust --descending --pairs --verify)
upsweep_sort_matches(gpu_one_item ${sort_reference} out.txt --generate 1 --type u8)

add_test(NAME upsweep-sort.gpu_stdin
  COMMAND ${here}/skip_without_gpu.sh sh -c "printf '3\\n# c\\n1\\n2\\n' | \"$0\" - --type u8 -o - --verify" ${sort_tool})
set_tests_properties(upsweep-sort.gpu_stdin PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 120
  PASS_REGULAR_EXPRESSION "^1\n2\n3\n")
# Past --memory-limit Upsweep sorts out of core (keys 8 times the budget here); CUB cannot.
upsweep_sort_matches(gpu_out_of_core ${sort_reference} out.bin --generate 20M --type u32 --memory-limit 0.01 --verify)
upsweep_sort_matches(gpu_out_of_core_pairs ${sort_reference} out.npy --generate 3M --type i64 --dist zipf --pairs
                     --descending --memory-limit 0.02)
upsweep_sort_matches(gpu_out_of_core_all_equal ${sort_reference} out.npy --generate 4M --type f32 --dist all-equal
                     --pairs --memory-limit 0.005)
# A binary file to a binary file, streamed through the host sort (in core, out of core).
foreach(case "u32;12000000" "f32;4000004;--descending" "i64;40000000;--memory-limit;0.01" "u16;2000002;--bits;3:11")
  list(POP_FRONT case type bytes)
  string(REPLACE ";" "_" suffix "${type}${case}")
  string(REGEX REPLACE "[^A-Za-z0-9_]" "" suffix "${suffix}")
  add_test(NAME upsweep-sort.gpu_file_to_file_${suffix}
           COMMAND ${here}/skip_without_gpu.sh ${here}/file_sort_matches.sh ${sort_tool} ${sort_reference} ${bytes}
                   --type ${type} ${case})
  set_tests_properties(upsweep-sort.gpu_file_to_file_${suffix} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
add_test(NAME upsweep-sort.gpu_too_little_memory
  COMMAND ${here}/skip_without_gpu.sh ${here}/expect.sh 1
          "^upsweep-sort: not enough GPU memory: need 0\\.[0-9]+ GiB \\(keys 2 x 0\\.07 \\+ temporary 0\\.[0-9]+\\), 0\\.01 GiB free \\(--memory-limit\\)$"
          ${sort_tool} --generate 20M --algo cub --memory-limit 0.01)
set_tests_properties(upsweep-sort.gpu_too_little_memory PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME upsweep-sort.gpu_budget_too_small
  COMMAND ${here}/skip_without_gpu.sh ${here}/expect.sh 1
          "^upsweep-sort: --memory-limit 0\\.000100 GiB is below the smallest device budget the host sort works in for these keys$"
          ${sort_tool} --generate 20M --memory-limit 0.0001 -o out.bin)
set_tests_properties(upsweep-sort.gpu_budget_too_small PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 120)
add_test(NAME upsweep-sort.gpu_json
  COMMAND ${here}/skip_without_gpu.sh ${sort_tool} --generate 1M --repeat 3 --json --verify)
set_tests_properties(upsweep-sort.gpu_json PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 120
  PASS_REGULAR_EXPRESSION "\"tool\": \"upsweep-sort\".*\"repeat\": 3.*\"compared_with_cub\": true")

# ---- across ranks: --gpus N and --distributed ----------------------------------------------------
# What the binary was built with (its --version) decides which of these run, so that prebuilt
# binaries meet the right tests: --gpus with NCCL, --distributed with NCCL and MPI.
set(built ${here}/skip_unless_built.sh ${sort_tool})
upsweep_sort_cli_test(gpus_zero 2 "--gpus: Value 0 not in range" --generate 10 --gpus 0)
upsweep_sort_cli_test(gpus_and_distributed 2 "^upsweep-sort: --gpus and --distributed exclude each other"
                      --generate 10 --gpus 2 --distributed)
upsweep_sort_cli_test(gpus_with_cub 2 "^upsweep-sort: --algo cub sorts on one GPU: not available with --gpus"
                      --generate 10 --gpus 2 --algo cub)
upsweep_sort_cli_test(gpus_with_memory_limit 2 "^upsweep-sort: --memory-limit is not available with --gpus"
                      --generate 10 --gpus 2 --memory-limit 1)
upsweep_sort_cli_test(gpus_empty_input 0 "^upsweep-sort: empty input \\(.*/empty.txt\\): nothing to sort"
                      ${data}/empty.txt --type u32 --gpus 1 --verify)
# upsweep_sort_built_test(NAME PHRASE COMMAND...): runs where --version says PHRASE, else skips.
function(upsweep_sort_built_test name phrase)
  add_test(NAME upsweep-sort.${name} COMMAND ${built} ${phrase} ${ARGN})
  set_tests_properties(upsweep-sort.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endfunction()
upsweep_sort_built_test(gpus_without_nccl "--gpus: without NCCL" ${here}/expect.sh 2
  "^upsweep-sort: --gpus 2: this upsweep-sort was built without NCCL" ${sort_tool} --generate 10 --gpus 2)
upsweep_sort_built_test(distributed_without_mpi "--distributed: without" ${here}/expect.sh 2
  "^upsweep-sort: --distributed: this upsweep-sort was built without (NCCL|MPI)"
  ${sort_tool} --generate 10 --distributed)
upsweep_sort_built_test(gpus_no_cuda_device "--gpus: with NCCL" ${here}/skip_with_gpu.sh ${here}/expect.sh 1
  "^upsweep-sort: no CUDA device available" ${sort_tool} --generate 10 --gpus 2)
upsweep_sort_built_test(gpu_gpus_beyond_devices "--gpus: with NCCL" ${here}/skip_without_gpu.sh ${here}/expect.sh 2
  "^upsweep-sort: --gpus 1024: this machine has [0-9]+ CUDA devices?$" ${sort_tool} --generate 10 --gpus 1024)
# '.' stands for the '[' of per_rank: an unbalanced '[' would join the list items after it (CMake).
upsweep_sort_built_test(gpu_gpus_json "--gpus: with NCCL" ${here}/skip_without_gpu.sh ${here}/expect.sh 0
  "\"across_ranks\": true, \"ranks\": 1,.*\"verified\": true, \"per_rank\": .\\{\"rank\": 0,"
  ${sort_tool} --generate 1M --gpus 1 --repeat 3 --json --verify)

# One rank through NCCL (every GPU machine has one GPU), then two where there are two: the outputs
# byte-compared with the CPU reference, --verify comparing with the single-GPU sort too.
foreach(gpus 1 2)
  set(skip ${built} "--gpus: with NCCL" ${here}/skip_below_gpus.sh ${gpus})
  foreach(case "keys;out.bin;--generate;300k;--type;u32;--dist;normal;--verify"
               "descending;out.npy;--generate;100k;--type;f64;--dist;few-unique;--descending;--verify"
               "pairs;out.npy;--generate;200k;--type;i16;--dist;zipf;--pairs;--verify"
               "bits;out.csv;--generate;1M;--type;u64;--bits;8:40;--pairs;--descending;--verify"
               "csv_rows;out.csv;${data}/people.csv;--column;age;--pairs;--verify")
    list(POP_FRONT case name outname)
    add_test(NAME upsweep-sort.gpu_gpus${gpus}_${name}
             COMMAND ${skip} ${here}/sort_matches.sh ${sort_tool} ${sort_reference} ${outname} --gpus ${gpus} ${case})
  endforeach()
  add_test(NAME upsweep-sort.gpu_gpus${gpus}_binary_file
           COMMAND ${skip} ${here}/file_sort_matches.sh ${sort_tool} ${sort_reference} 4000004 --type i32 --gpus ${gpus}
                   --verify)
endforeach()

# mpirun -np N upsweep-sort --distributed: skipped without mpirun (with_mpirun.sh) and without N
# GPUs (NCCL runs one rank of a communicator per GPU).
foreach(ranks 1 2)
  set(mpi ${built} "--distributed: with NCCL and MPI" ${here}/skip_below_gpus.sh ${ranks}
          ${here}/with_mpirun.sh ${ranks} ${sort_tool})
  add_test(NAME upsweep-sort.gpu_distributed${ranks}_keys
           COMMAND ${mpi} ${here}/sort_matches.sh ${sort_reference} out.bin --generate 300k --type f32 --dist normal
                   --verify)
  add_test(NAME upsweep-sort.gpu_distributed${ranks}_pairs
           COMMAND ${mpi} ${here}/sort_matches.sh ${sort_reference} out.txt --generate 50k --type i64
                   --dist few-unique --pairs --descending --bits 0:40 --verify)
  add_test(NAME upsweep-sort.gpu_distributed${ranks}_binary_file  # each rank reads its part at its offset
           COMMAND ${mpi} ${here}/file_sort_matches.sh ${sort_reference} 2000006 --type u16 --verify)
endforeach()
foreach(name gpus1_keys gpus1_descending gpus1_pairs gpus1_bits gpus1_csv_rows gpus1_binary_file gpus2_keys
             gpus2_descending gpus2_pairs gpus2_bits gpus2_csv_rows gpus2_binary_file distributed1_keys
             distributed1_pairs distributed1_binary_file distributed2_keys distributed2_pairs distributed2_binary_file)
  set_tests_properties(upsweep-sort.gpu_${name} PROPERTIES LABELS gpu SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
set_tests_properties(upsweep-sort.gpu_gpus_beyond_devices upsweep-sort.gpu_gpus_json PROPERTIES LABELS gpu)
