/*
 * Board geometry (astar_geometry.h): pixel centres and the cell under a
 * pixel for square boards and the four hex layouts, the moves that leave a
 * cell (board.h's moves, priced as a findPath step pays them) and the
 * board's step distance. Layer 3 (board).
 */
#include <math.h>

#include "astar_geometry.h"
#include "board.h"
#include "hex_geometry.h"

#define SQRT3 1.73205080756887729353

/* 0 or 1: the parity of n, negative numbers too. */
static long parity(long n)
{
    return ((n % 2) + 2) % 2;
}

static int hex_rows(AstarHexLayout layout)
{
    return layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R;
}

/* The centre of hex (col, row) (0-based offset numbers, any sign). */
static void hex_centre(AstarHexLayout layout, long col, long row, double size, double *px,
                       double *py)
{
    const double w = SQRT3 * size;   /* across a hex, from side to side */
    switch (layout) {
    case ASTAR_HEX_ODD_R:
        *px = w * ((double)col + 0.5 * (double)parity(row));
        *py = 1.5 * size * (double)row;
        return;
    case ASTAR_HEX_EVEN_R:
        *px = w * ((double)col + 0.5 * (double)(1 - parity(row)));
        *py = 1.5 * size * (double)row;
        return;
    case ASTAR_HEX_ODD_Q:
        *px = 1.5 * size * (double)col;
        *py = w * ((double)row + 0.5 * (double)parity(col));
        return;
    case ASTAR_HEX_EVEN_Q:
        break;
    }
    *px = 1.5 * size * (double)col;
    *py = w * ((double)row + 0.5 * (double)(1 - parity(col)));
}

/* Offset (col, row) of axial (q, r): hex_to_axial's inverse. */
static void hex_from_axial(AstarHexLayout layout, long q, long r, long *col, long *row)
{
    switch (layout) {
    case ASTAR_HEX_ODD_R: *col = q + (r - parity(r)) / 2; *row = r; return;
    case ASTAR_HEX_EVEN_R: *col = q + (r + parity(r)) / 2; *row = r; return;
    case ASTAR_HEX_ODD_Q: *col = q; *row = r + (q - parity(q)) / 2; return;
    case ASTAR_HEX_EVEN_Q: break;
    }
    *col = q;
    *row = r + (q + parity(q)) / 2;
}

void astar_cell_centre(const AstarGrid *grid, uint32_t x, uint32_t y, double size, double *px,
                       double *py)
{
    AstarHexLayout layout;
    if (astar_grid_hex(grid, &layout)) {
        hex_centre(layout, (long)x, (long)y, size, px, py);
        return;
    }
    *px = ((double)x + 0.5) * size;
    *py = ((double)y + 0.5) * size;
}

/* Is centre (ax, ay), at squared distance da from the point, a better
 * answer than (bx, by) at db: nearer, or as near and further right, then
 * lower? */
static int nearer(double da, double ax, double ay, double db, double bx, double by)
{
    return da < db || (da == db && (ax > bx || (ax == bx && ay > by)));
}

/* The hex of 0-based offset numbers nearest (px, py), ties as documented. */
static void hex_at(AstarHexLayout layout, double px, double py, double size, long *col,
                   long *row)
{
    static const int DQ[6] = {1, -1, 0, 0, 1, -1}, DR[6] = {0, 0, 1, -1, -1, 1};
    double fq, fr, fs, rq, rr, rs, best, bx, by;
    long q, r, c0, r0;
    int k;

    /* fractional axial coordinates, the origin at axial (0, 0)'s centre */
    hex_centre(layout, 0, 0, size, &bx, &by);
    if (hex_rows(layout)) {
        fr = (py - by) * (2.0 / 3.0) / size;
        fq = (px - bx) * (SQRT3 / 3.0) / size - fr / 2.0;
    } else {
        fq = (px - bx) * (2.0 / 3.0) / size;
        fr = (py - by) * (SQRT3 / 3.0) / size - fq / 2.0;
    }
    fs = -fq - fr;
    rq = floor(fq + 0.5);
    rr = floor(fr + 0.5);
    rs = floor(fs + 0.5);
    /* cube rounding: the coordinate rounded furthest is rebuilt from the others */
    if (fabs(rq - fq) > fabs(rr - fr) && fabs(rq - fq) > fabs(rs - fs))
        rq = -rr - rs;
    else if (fabs(rr - fr) > fabs(rs - fs))
        rr = -rq - rs;
    q = (long)rq;
    r = (long)rr;
    /* the nearest of that hex and its neighbours: exact ties and rounding
     * near an edge follow the documented rule */
    hex_from_axial(layout, q, r, &c0, &r0);
    hex_centre(layout, c0, r0, size, &bx, &by);
    best = (px - bx) * (px - bx) + (py - by) * (py - by);
    *col = c0;
    *row = r0;
    for (k = 0; k < 6; k++) {
        long c, w;
        double cx, cy, d;
        hex_from_axial(layout, q + DQ[k], r + DR[k], &c, &w);
        hex_centre(layout, c, w, size, &cx, &cy);
        d = (px - cx) * (px - cx) + (py - cy) * (py - cy);
        if (nearer(d, cx, cy, best, bx, by)) {
            best = d;
            bx = cx;
            by = cy;
            *col = c;
            *row = w;
        }
    }
}

int astar_cell_at(const AstarGrid *grid, double px, double py, double size, uint32_t *x,
                  uint32_t *y)
{
    AstarHexLayout layout;
    double fx, fy;
    long col, row;

    if (!astar_grid_hex(grid, &layout)) {
        fx = floor(px / size);
        fy = floor(py / size);
        if (!(fx >= 0 && fx < grid->width && fy >= 0 && fy < grid->height))
            return 0;
        *x = (uint32_t)fx;
        *y = (uint32_t)fy;
        return 1;
    }
    /* far off the board: no rounding of numbers a long cannot hold */
    fx = px / size;
    fy = py / size;
    if (!(fabs(fx) < 4.0 * ASTAR_MAX_SIDE && fabs(fy) < 4.0 * ASTAR_MAX_SIDE))
        return 0;
    hex_at(layout, px, py, size, &col, &row);
    if (col < 0 || row < 0 || col >= (long)grid->width || row >= (long)grid->height)
        return 0;
    *x = (uint32_t)col;
    *y = (uint32_t)row;
    return 1;
}

double astar_cell_distance(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x0,
                           uint32_t y0, uint32_t x1, uint32_t y1)
{
    AstarHexLayout layout;
    uint32_t dx = x0 > x1 ? x0 - x1 : x1 - x0, dy = y0 > y1 ? y0 - y1 : y1 - y0;
    uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;

    if (astar_grid_hex(grid, &layout))
        return (double)astar_hex_distance(layout, x0, y0, x1, y1);
    if (diagonal == ASTAR_DIAGONAL_NEVER)
        return (double)dx + (double)dy;
    return (double)(hi - lo) + BOARD_SQRT2 * (double)lo;
}

/* Appends the move into bordered cell v at cost to out (room for cap). */
static size_t put_move(const AstarGrid *grid, AstarCellMove *out, size_t cap, size_t n, size_t v,
                       double cost)
{
    if (n < cap) {
        out[n].x = (uint32_t)(v % grid->stride - 1);
        out[n].y = (uint32_t)(v / grid->stride - 1);
        out[n].cost = cost;
    }
    return n + 1;
}

/* The board of grid in mode diagonal (NEVER on hex boards), its kind, and
 * whether the four orthogonal neighbours of bordered cell c are open. */
static BoardKind cell_board(const AstarGrid *grid, AstarDiagonal diagonal, size_t c, Board *b,
                            int side[4])
{
    AstarHexLayout layout = ASTAR_HEX_ODD_R;
    BoardKind kind;
    int k;
    if (astar_grid_hex(grid, &layout)) {
        kind = BOARD_HEX;
        diagonal = ASTAR_DIAGONAL_NEVER;
    } else {
        kind = diagonal == ASTAR_DIAGONAL_NEVER ? BOARD_SQUARE4 : BOARD_SQUARE8;
    }
    board_init(b, grid->stride, diagonal, layout, 1);
    for (k = 0; k < 4; k++)
        side[k] = grid->open[(size_t)((long)c + b->off[k])];
    return kind;
}

/* Whether the board move out of bordered cell c in direction d is one the
 * grid allows (the entered cell walkable, the corner rule, an override not
 * false), and in *step what a findPath step pays for it. */
static int board_move_open(const AstarGrid *grid, const Board *b, BoardKind kind, size_t c,
                           unsigned d, const int side[4], double *step)
{
    const size_t v = (size_t)((long)c + b->off[d]);
    if (!grid->open[v])
        return 0;
    if (d >= 4 && board_has_corners(b, kind) && !board_corner_ok(b, (int)d, side))
        return 0;
    *step = board_step(kind, d, grid->cost ? grid->cost[v] : 1.0);
    return board_move_price(b, kind, grid->moves, c, d, step);
}

size_t astar_cell_moves(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x, uint32_t y,
                        AstarCellMove *out, size_t cap)
{
    static const unsigned SQUARE[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const struct AstarMoves *m = grid->moves;
    const size_t c = (size_t)(y + 1) * grid->stride + x + 1;
    const unsigned *dirs = SQUARE;
    Board b;
    int side[4], moves, k;
    BoardKind kind = cell_board(grid, diagonal, c, &b, side);
    size_t n = 0;

    moves = board_moves(&b, kind, c, &dirs);
    for (k = 0; k < moves; k++) {
        double step;
        if (board_move_open(grid, &b, kind, c, dirs[k], side, &step))
            n = put_move(grid, out, cap, n, (size_t)((long)c + b.off[dirs[k]]), step);
    }
    if (m && (m->flags[c] & MOVES_OUT)) {
        const MovesLink *link;
        size_t links = astar_moves_links(m, c, 0, &link), i;
        for (i = 0; i < links; i++)
            if (grid->open[link[i].to])
                n = put_move(grid, out, cap, n, link[i].to, link[i].cost);
    }
    return n;
}

/* Whether a link leaves bordered cell c for v. */
static int has_link(const struct AstarMoves *m, size_t c, size_t v)
{
    const MovesLink *link;
    size_t links, i;
    if (!m || !(m->flags[c] & MOVES_OUT))
        return 0;
    links = astar_moves_links(m, c, 0, &link);
    for (i = 0; i < links; i++)
        if (link[i].to == v)
            return 1;
    return 0;
}

int astar_cell_enterable(const AstarGrid *grid, AstarDiagonal diagonal, uint32_t x0, uint32_t y0,
                         uint32_t x1, uint32_t y1)
{
    static const unsigned SQUARE[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const size_t c = (size_t)(y0 + 1) * grid->stride + x0 + 1;
    const size_t v = (size_t)(y1 + 1) * grid->stride + x1 + 1;
    const unsigned *dirs = SQUARE;
    Board b;
    int side[4], k, moves;
    BoardKind kind = cell_board(grid, diagonal, c, &b, side);

    if (!grid->open[v])
        return 0;
    /* a neighbour in any of the eight directions of a square board */
    moves = board_moves(&b, kind == BOARD_HEX ? BOARD_HEX : BOARD_SQUARE8, c, &dirs);
    for (k = 0; k < moves; k++) {
        const unsigned d = dirs[k];
        double step;
        if ((size_t)((long)c + b.off[d]) != v)
            continue;
        if ((kind == BOARD_SQUARE4 && d >= 4)
            || !board_move_open(grid, &b, kind, c, d, side, &step))
            return has_link(grid->moves, c, v);
        return 1;
    }
    return 1;   /* not a board move (a link, a smoothed leg): the cell alone */
}
