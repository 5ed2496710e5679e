/* Preloaded before libcudatrace.so by secure-mode.sh: getauxval(AT_SECURE) answers 1, as in a set-user-ID
 * program, which a test cannot be.  It gives an attacker nothing: in a real secure-execution process the
 * loader preloads no library outside the system's directories and without the set-user-ID bit, and whoever
 * can preload a library of their choice runs code of their choice anyway. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/auxv.h>

unsigned long getauxval(unsigned long type)
{
    static unsigned long (*real)(unsigned long);

    if (type == AT_SECURE)
        return 1;
    if (!real)
        real = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    return real ? real(type) : 0;
}
