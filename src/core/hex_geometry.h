/*
 * Hex geometry shared inline (not public): axial coordinates and hex
 * distance, which the hex kernel's estimate and the search record's
 * partial results compute per cell, so they stay inline there.
 * Layer 3 (board); hex_geometry.c holds the out-of-line functions.
 */
#ifndef ASTAR_HEX_GEOMETRY_H
#define ASTAR_HEX_GEOMETRY_H

#include "astar_hex.h"

/* Axial (cube q, r) coordinates of 0-based offset cell (x, y), x, y >= 0
 * (Red Blob Games, "Offset coordinates"). */
static inline void hex_to_axial(AstarHexLayout layout, long x, long y, long *q, long *r)
{
    switch (layout) {
    case ASTAR_HEX_ODD_R: *q = x - (y - (y & 1)) / 2; *r = y; return;
    case ASTAR_HEX_EVEN_R: *q = x - (y + (y & 1)) / 2; *r = y; return;
    case ASTAR_HEX_ODD_Q: *q = x; *r = y - (x - (x & 1)) / 2; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *q = x;
    *r = y - (x + (x & 1)) / 2;
}

static inline long hex_axial_distance(long dq, long dr)
{
    long ds = dq + dr;
    dq = dq < 0 ? -dq : dq;
    dr = dr < 0 ? -dr : dr;
    ds = ds < 0 ? -ds : ds;
    return (dq + dr + ds) / 2;
}

/* astar_hex_distance, inline. */
static inline uint32_t hex_distance(AstarHexLayout layout, uint32_t x0, uint32_t y0, uint32_t x1,
                                    uint32_t y1)
{
    long q0, r0, q1, r1;
    hex_to_axial(layout, (long)x0, (long)y0, &q0, &r0);
    hex_to_axial(layout, (long)x1, (long)y1, &q1, &r1);
    return (uint32_t)hex_axial_distance(q1 - q0, r1 - r0);
}

#endif
