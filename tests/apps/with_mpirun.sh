#!/bin/sh
# with_mpirun.sh RANKS TOOL SCRIPT ARGS...: runs SCRIPT PROGRAM ARGS, where PROGRAM runs
# `mpirun -np RANKS TOOL --distributed` with the arguments it is given (for sort_matches.sh and
# file_sort_matches.sh, which take one program). Skipped (77) without mpirun on the PATH. The ranks
# load the libmpi of that mpirun (its library directory first), not the copy the tool was built
# against, so launcher and ranks are one Open MPI. NVLink multicast stays off in every rank
# (the shared multi-GPU machines' rule).
ranks=$1 tool=$2 script=$3
shift 3
mpirun=$(command -v mpirun) || { echo "no mpirun on the PATH: skipped"; exit 77; }
libdir=$(ldd "$mpirun" 2>/dev/null | sed -n 's|.*libopen-rte\.so[^ ]* => \(.*\)/libopen-rte.*|\1|p' | head -1)
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat >"$dir/upsweep-sort-mpi" <<WRAPPER
#!/bin/sh
export LD_LIBRARY_PATH="${libdir:+$libdir:}\${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
exec "$mpirun" --allow-run-as-root --oversubscribe --mca btl_vader_single_copy_mechanism none \\
  -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS \\
  -np $ranks "$tool" --distributed "\$@"
WRAPPER
chmod +x "$dir/upsweep-sort-mpi"
echo "with_mpirun.sh: $mpirun, -np $ranks, libmpi from ${libdir:-the tool's run path}"
"$script" "$dir/upsweep-sort-mpi" "$@"
