// Sort across ranks over NCCL, one rank per MPI process (mpirun, srun): the communicator over
// MPI's ranks, NCCL's unique id made by rank 0 and broadcast over MPI. Include it where <mpi.h>
// is on the include path; the caller owns MPI (MPI_Init, MPI_Finalize) and destroys the
// communicator with ncclCommDestroy.
#pragma once

#include <upsweep/sort/nccl_exchange.hpp>

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace upsweep {

namespace detail {
inline void throw_if_mpi_failed(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char message[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, message, &length);
  throw std::runtime_error(std::string(call) + " failed: " + message);
}
}  // namespace detail

// Every process of `mpi` calls it with the device its rank uses (made current here); throws
// nccl_error, std::runtime_error for MPI, or cuda_error.
inline ncclComm_t nccl_comm_from_mpi(MPI_Comm mpi, int device) {
  int rank = 0, size = 0;
  detail::throw_if_mpi_failed(MPI_Comm_rank(mpi, &rank), "MPI_Comm_rank");
  detail::throw_if_mpi_failed(MPI_Comm_size(mpi, &size), "MPI_Comm_size");
  ncclUniqueId id{};
  if (rank == 0) detail::throw_if_nccl_failed(ncclGetUniqueId(&id), "ncclGetUniqueId");
  detail::throw_if_mpi_failed(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, mpi), "MPI_Bcast");
  const cudaError_t set = cudaSetDevice(device);
  if (set != cudaSuccess)
    throw std::runtime_error(std::string("cudaSetDevice failed: ") + cudaGetErrorString(set));
  ncclComm_t comm = nullptr;
  detail::throw_if_nccl_failed(ncclCommInitRank(&comm, size, id, rank), "ncclCommInitRank");
  return comm;
}

}  // namespace upsweep
