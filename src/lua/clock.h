/*
 * A monotonic clock for the binding's time budgets (search:step(n, seconds)):
 * the one platform-specific piece of the binding. The core keeps no clock.
 */
#ifndef ASTAR_LUA_CLOCK_H
#define ASTAR_LUA_CLOCK_H

/* Seconds since an arbitrary point, never going back: only differences mean
 * anything. QueryPerformanceCounter on Windows, clock_gettime(CLOCK_MONOTONIC)
 * elsewhere (clock(), processor time, where a system has no monotonic clock). */
double monotonic_seconds(void);

#endif
