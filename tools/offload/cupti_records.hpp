// The CUPTI activity records roofline-offload.so reads, as versioned in the CUPTI headers it is
// built against (CUDA 13: Memcpy6 and Kernel10; CUDA 12: 5 and 9). Their first fields (kind,
// copy kind, bytes, start, end) sit where they sat in older versions; newer fields are read
// only where the CUPTI at run time has them (offload_inject.cpp). Shared with the stand-in
// libcupti of tests/offload, which writes such records.
#pragma once

#include <cupti.h>

namespace roofline_offload {

#if CUPTI_API_VERSION >= 130000
using MemcpyRecord = CUpti_ActivityMemcpy6;
using KernelRecord = CUpti_ActivityKernel10;
#else
using MemcpyRecord = CUpti_ActivityMemcpy5;
using KernelRecord = CUpti_ActivityKernel9;
#endif
using PeerCopyRecord = CUpti_ActivityMemcpyPtoP4;
using MigrationRecord = CUpti_ActivityUnifiedMemoryCounter3;

} // namespace roofline_offload
