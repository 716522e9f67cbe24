/*
 * Hex boards' geometry: the layout a grid is marked with, hex distance,
 * the six neighbours of a cell and line of sight, in offset coordinates
 * (astar_hex.h). Layer 3 (board): the board (board.h), range.c and
 * distance.c read it; it knows nothing of searches.
 */
#include <math.h>

#include "grid_layout.h"
#include "hex_geometry.h"

void astar_grid_make_hex(AstarGrid *grid, AstarHexLayout layout)
{
    grid->hex = (uint8_t)(1 + (unsigned)layout);
}

AstarError astar_grid_new_hex(AstarGrid **out, uint32_t width, uint32_t height,
                              AstarHexLayout layout)
{
    AstarError e = astar_grid_new(out, width, height);
    if (e == ASTAR_OK)
        astar_grid_make_hex(*out, layout);
    return e;
}

int astar_grid_hex(const AstarGrid *grid, AstarHexLayout *layout)
{
    if (grid->hex && layout)
        *layout = (AstarHexLayout)(grid->hex - 1);
    return grid->hex != 0;
}

uint32_t astar_hex_distance(AstarHexLayout layout, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1)
{
    return hex_distance(layout, x0, y0, x1, y1);
}

/* The side the diagonals of 0-based row (r layouts) or column (q layouts)
 * number k lie on: +1 (east / south) or -1. */
static int shove(AstarHexLayout layout, uint32_t k)
{
    int odd = (int)(k & 1u);
    return (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_ODD_Q) == odd ? 1 : -1;
}

void astar_hex_neighbours(AstarHexLayout layout, uint32_t x, uint32_t y, int dx[6], int dy[6])
{
    static const int SX[4] = {1, -1, 0, 0}, SY[4] = {0, 0, 1, -1};
    int i;
    for (i = 0; i < 4; i++) {
        dx[i] = SX[i];
        dy[i] = SY[i];
    }
    if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
        int side = shove(layout, y);
        dx[4] = side, dy[4] = 1;
        dx[5] = side, dy[5] = -1;
    } else {
        int side = shove(layout, x);
        dx[4] = 1, dy[4] = side;
        dx[5] = -1, dy[5] = side;
    }
}

/* 0-based offset cell of axial (q, r): the inverse of hex_to_axial. */
static void from_axial(AstarHexLayout layout, long q, long r, long *x, long *y)
{
    switch (layout) {
    case ASTAR_HEX_ODD_R: *x = q + (r - (r & 1)) / 2; *y = r; return;
    case ASTAR_HEX_EVEN_R: *x = q + (r + (r & 1)) / 2; *y = r; return;
    case ASTAR_HEX_ODD_Q: *x = q; *y = r + (q - (q & 1)) / 2; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *x = q;
    *y = r + (q + (q & 1)) / 2;
}

#define NUDGE_Q 1e-6
#define NUDGE_R 2e-6

int astar_hex_line_of_sight(const AstarGrid *grid, uint32_t x0, uint32_t y0, uint32_t x1,
                            uint32_t y1)
{
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    long q0, r0, q1, r1, n, i;
    double aq, ar, bq, br;

    astar_grid_hex(grid, &layout);
    hex_to_axial(layout, (long)x0, (long)y0, &q0, &r0);
    hex_to_axial(layout, (long)x1, (long)y1, &q1, &r1);
    n = hex_axial_distance(q1 - q0, r1 - r0);
    aq = (double)q0 + NUDGE_Q;
    ar = (double)r0 + NUDGE_R;
    bq = (double)q1 + NUDGE_Q;
    br = (double)r1 + NUDGE_R;
    for (i = 1; i < n; i++) {
        double t = (double)i / (double)n;
        double q = aq + (bq - aq) * t, r = ar + (br - ar) * t, s = -q - r;
        double rq = floor(q + 0.5), rr = floor(r + 0.5), rs = floor(s + 0.5);
        double dq = fabs(rq - q), dr = fabs(rr - r), ds = fabs(rs - s);
        long x, y;
        if (dq > dr && dq > ds)
            rq = -rr - rs;
        else if (dr > ds)
            rr = -rq - rs;
        from_axial(layout, (long)rq, (long)rr, &x, &y);
        if (x < 0 || y < 0 || x >= (long)grid->width || y >= (long)grid->height)
            continue;                 /* off the board's jagged edge: no wall */
        if (!grid->open[astar_index(grid, (uint32_t)x, (uint32_t)y)])
            return 0;
    }
    return 1;
}
