/* Driver and device records, written once after the program's first successful cuInit.  The queries use
 * the real functions under the guard; none of them needs or changes the current context. */
#include "config.h"

#include "preload/hooks.h"
#include "preload/interpose.h"

#include <string.h>

static void record_devices(void)
{
    int version = 0, count = 0;
    CT_PFN_cuDriverGetVersion get_version = CT_DRIVER(cuDriverGetVersion);
    CT_PFN_cuDeviceGetCount get_count = CT_DRIVER(cuDeviceGetCount);
    CT_PFN_cuDeviceGet get = CT_DRIVER(cuDeviceGet);
    CT_PFN_cuDeviceGetName get_name = CT_DRIVER(cuDeviceGetName);
    CT_PFN_cuDeviceGetUuid_v2 get_uuid = CT_DRIVER(cuDeviceGetUuid_v2);
    CT_PFN_cuDeviceTotalMem_v2 get_mem = CT_DRIVER(cuDeviceTotalMem_v2);

    if (!get_version || get_version(&version) != CUDA_SUCCESS)
        version = 0;
    if (!get_count || get_count(&count) != CUDA_SUCCESS)
        count = 0;
    ct_rec_driver(version, count);
    for (int i = 0; i < count && get; i++) {
        CUdevice dev;
        char name[64] = "";
        CUuuid uuid;
        size_t mem = 0;
        if (get(&dev, i) != CUDA_SUCCESS)
            continue;
        if (!get_name || get_name(name, (int)sizeof name, dev) != CUDA_SUCCESS)
            name[0] = '\0';
        memset(&uuid, 0, sizeof uuid);
        if (get_uuid)
            get_uuid(&uuid, dev);
        if (!get_mem || get_mem(&mem, dev) != CUDA_SUCCESS)
            mem = 0;
        ct_rec_device(i, name, (const uint8_t *)uuid.bytes, mem);
    }
}

void ct_hook_cuInit(CUresult r, unsigned int Flags)
{
    static int done;
    if (r != CUDA_SUCCESS || __atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL))
        return;
    ct_guard++;
    record_devices();
    ct_guard--;
}
