/* The allocations the tracer saw, by address range: how a copy's ends are classified without asking the
 * driver (decode_copy.c).  Filled and emptied by hooks (hooks.h), which run on every call, recorded, counted
 * or outside a capture range, so the map never misses a free the program made through a route it knows.
 *
 * What it holds: device (cuMemAlloc, cuMemAllocPitch, stream-ordered), managed and pinned host memory
 * (cuMemAllocHost, cuMemHostAlloc, cuMemHostRegister).  An address outside every range is one the tracer
 * never saw allocated (pageable host memory, a mapped alias, graph or virtual-memory allocations, IPC,
 * interop): its kind comes from the driver, never from a guess.  A free removes the range holding its
 * address; a new range replaces any it overlaps (an address reused after a free the tracer could not see);
 * destroying, resetting or releasing a context empties the map (its memory went with it).
 *
 * Device and managed memory keep the device that was current when it was allocated (one cuCtxGetDevice
 * per allocation, which the allocation's record then reuses: decode_alloc.c), so that a copy between two
 * devices is told from one within a device without asking the driver.
 *
 * Known limits: a stream-ordered allocation keeps the current device, not its stream's or pool's; a pool
 * located in host memory (CUDA 12.2) is taken for device memory, and host memory mapped through the
 * virtual-memory API is not seen, so a copy from either as a host end reads as pageable.
 *
 * Lookups take no lock (a sequence lock: a reader that sees a writer retries, a few times, then answers
 * "not known" and the caller asks the driver); changes take a mutex.  Async-signal-safe to look up. */
#ifndef CT_PRELOAD_MEM_MAP_H
#define CT_PRELOAD_MEM_MAP_H

#include <stdint.h>

#include "cudatrace/format.h"

/* The allocation holding address p: 1 with its kind (CT_MEM_DEVICE, CT_MEM_MANAGED or CT_MEM_PINNED) and
 * device ordinal (-1 for pinned memory); 0 when the tracer saw none allocated there (*kind CT_MEM_UNKNOWN,
 * *device -1); -1 when the map cannot tell (its table could not be made, it was emptied since, or writers
 * kept changing it): then the driver must be asked. */
int ct_mem_map_lookup(uint64_t p, enum ct_mem_kind *kind, int32_t *device);
/* [start, start + bytes) is memory of `kind` on `device` (-1: none) now. */
void ct_mem_map_add(uint64_t start, uint64_t bytes, enum ct_mem_kind kind, int32_t device);
/* The allocation holding p was freed. */
void ct_mem_map_remove(uint64_t p);
/* Forget every range (a context was destroyed or reset: its memory went with it); from then on a lookup
 * that finds nothing cannot tell. */
void ct_mem_map_clear(void);

#endif
