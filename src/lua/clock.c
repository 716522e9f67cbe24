/* The monotonic clock of clock.h, per platform. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L   /* clock_gettime under -std=c99 */
#endif

#include "clock.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

double monotonic_seconds(void)
{
    LARGE_INTEGER now, frequency;
    QueryPerformanceCounter(&now);
    QueryPerformanceFrequency(&frequency);   /* fixed at boot: no need to keep it */
    return (double)now.QuadPart / (double)frequency.QuadPart;
}
#else
#include <time.h>

double monotonic_seconds(void)
{
#if defined(CLOCK_MONOTONIC)
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) == 0)
        return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
#endif
    return (double)clock() / CLOCKS_PER_SEC;
}
#endif
