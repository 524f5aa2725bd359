#pragma once

#include <malloc.h>

namespace conclave::app {

// A run allocates and frees tens of megabytes in bursts (10,000 agents are
// about 90 MB). By default glibc hands freed memory back to the kernel at once
// and the next run faults every page in again; keeping it for the next run
// halves the page faults and cuts a quarter of the CPU time of
// `conclave bench fanout`. Process-wide, so it belongs to the programs, not core.
inline void tuneAllocator()
{
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
}

} // namespace conclave::app
