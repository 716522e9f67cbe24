/*
 * The board of the one search engine (issue 18): what moves leave a cell and
 * what decides whether each may be taken. Not public. Layer 3 (board).
 *
 * Moves are the eight directions 0-7 (E W S N SE SW NE NW: orthogonal ones
 * first, so a diagonal's two sides are looked at before it); a board kind
 * says which of them a cell has:
 * - BOARD_SQUARE4: the four orthogonal ones;
 * - BOARD_SQUARE8: all eight, a diagonal one subject to the corner rule of
 *   the query's AstarDiagonal mode;
 * - BOARD_HEX: six, astar_hex_neighbours' order for the layout, each priced
 *   as an orthogonal step (no sqrt 2), no corner rule;
 * - BOARD_LARGE: a k x k unit's top-left position, four or eight directions
 *   (diagonal NEVER: four), the corner rule over the positions beside a
 *   diagonal step; a step covers the cells clearance.h astar_new_cells lists.
 * Kinds are compile-time constants at every call (dijkstra.h), so each
 * query's loop is compiled for its board and pays for no other.
 *
 * Cells are bordered indices (grid_layout.h): a neighbour is cell + off[d].
 */
#ifndef ASTAR_BOARD_H
#define ASTAR_BOARD_H

#include "astar_hex.h"
#include "clearance.h"
#include "moves.h"

#define BOARD_SQRT2 1.41421356237309504880   /* as search_internal.h: findPath's step */

typedef enum { BOARD_SQUARE4, BOARD_SQUARE8, BOARD_HEX, BOARD_LARGE } BoardKind;

static const int BOARD_DX[8] = {1, -1, 0, 0, 1, -1, 1, -1};
static const int BOARD_DY[8] = {0, 0, 1, -1, 1, 1, -1, -1};
/* The orthogonal directions a diagonal one passes between (the corner rule),
 * and the direction back. */
static const int BOARD_CORNER_X[8] = {0, 0, 0, 0, 0, 1, 0, 1};
static const int BOARD_CORNER_Y[8] = {0, 0, 0, 0, 2, 2, 3, 3};
static const uint8_t BOARD_OPPOSITE[8] = {1, 0, 3, 2, 7, 6, 5, 4};

typedef struct {
    long off[8];               /* cell + off[d]: the neighbour in direction d */
    uint32_t stride;
    AstarDiagonal diagonal;    /* SQUARE8 and LARGE */
    AstarHexLayout layout;     /* HEX */
    uint32_t size;             /* LARGE: k */
    unsigned hex[2][6];        /* HEX: the directions out of an even and an odd row (column) */
} Board;

/* The direction code (0-7) of a unit offset. */
static inline unsigned board_dir(int dx, int dy)
{
    return dy == 0 ? (dx > 0 ? 0u : 1u)
           : dx == 0 ? (dy > 0 ? 2u : 3u)
           : dy > 0 ? (dx > 0 ? 4u : 5u) : (dx > 0 ? 6u : 7u);
}

/* The six hex neighbours of bordered cell c as directions, ascending. */
static inline void board_hex_dirs(AstarHexLayout layout, uint32_t stride, size_t c,
                                  unsigned dirs[6])
{
    int dx[6], dy[6], k;
    astar_hex_neighbours(layout, (uint32_t)(c % stride - 1), (uint32_t)(c / stride - 1), dx, dy);
    for (k = 0; k < 6; k++)
        dirs[k] = board_dir(dx[k], dy[k]);
}

#if defined(__GNUC__)
#define BOARD_INLINE static inline __attribute__((always_inline))
#else
#define BOARD_INLINE static inline
#endif

/* board_init without the hex move tables (the kernels of astar_kernel.h
 * use board_hex_diagonals): a caller's Board then stays in registers, and
 * its constant diagonal mode or layout is known to the compiler. */
BOARD_INLINE void board_init_moves(Board *b, uint32_t stride, AstarDiagonal diagonal,
                                   AstarHexLayout layout, uint32_t size)
{
    int d;
    for (d = 0; d < 8; d++)
        b->off[d] = BOARD_DY[d] * (long)stride + BOARD_DX[d];
    b->stride = stride;
    b->diagonal = diagonal;
    b->layout = layout;
    b->size = size;
}

static inline void board_init(Board *b, uint32_t stride, AstarDiagonal diagonal,
                              AstarHexLayout layout, uint32_t size)
{
    board_init_moves(b, stride, diagonal, layout, size);
    /* a hex cell's neighbours depend only on the parity of its row (r
     * layouts) or column (q layouts): those of (0, 0) and (1, 1) */
    board_hex_dirs(layout, stride, (size_t)stride + 1, b->hex[0]);
    board_hex_dirs(layout, stride, 2 * (size_t)stride + 2, b->hex[1]);
}

/* The neighbour offset of direction d, computed rather than read from off[]:
 * a constant times the stride when d is a constant, so that a kernel's
 * Board stays in registers. */
static inline long board_offset(const Board *b, unsigned d)
{
    return BOARD_DY[d] * (long)b->stride + BOARD_DX[d];
}

/* HEX: the two diagonal moves out of bordered cell (x, y), in
 * astar_hex_neighbours' order: on the side its row (r layouts) or column (q
 * layouts) is shoved to, which its parity decides. */
static inline void board_hex_diagonals(const Board *b, size_t x, size_t y, unsigned *first,
                                       unsigned *second)
{
    const int rows = b->layout <= ASTAR_HEX_EVEN_R;
    const int odd = b->layout == ASTAR_HEX_ODD_R || b->layout == ASTAR_HEX_ODD_Q;
    const int ahead = (int)(((rows ? y : x) - 1) & 1) == odd;   /* east (south) */
    *first = ahead ? 4u : rows ? 5u : 6u;
    *second = ahead ? (rows ? 6u : 5u) : 7u;
}

/* How many moves leave cell c; for HEX, their directions in *dirs (square
 * kinds: move k is direction k). */
static inline int board_moves(const Board *b, const BoardKind kind, size_t c,
                              const unsigned **dirs)
{
    switch (kind) {
    case BOARD_SQUARE4:
        return 4;
    case BOARD_HEX:
        *dirs = b->hex[(b->layout <= ASTAR_HEX_EVEN_R ? c / b->stride - 1 : c % b->stride - 1) & 1];
        return 6;
    default:
        return kind == BOARD_LARGE && b->diagonal == ASTAR_DIAGONAL_NEVER ? 4 : 8;
    }
}

/* Does the board have a corner rule to apply (diagonal moves, a mode other
 * than ALWAYS)? */
static inline int board_has_corners(const Board *b, const BoardKind kind)
{
    return (kind == BOARD_SQUARE8 || kind == BOARD_LARGE)
           && b->diagonal != ASTAR_DIAGONAL_ALWAYS && b->diagonal != ASTAR_DIAGONAL_NEVER;
}

/* The corner rule: may diagonal direction d be taken, given whether the
 * cells (positions) on its two orthogonal sides are passable? */
static inline int board_corner_ok(const Board *b, int d, const int side[4])
{
    int x = side[BOARD_CORNER_X[d]], y = side[BOARD_CORNER_Y[d]];
    return b->diagonal == ASTAR_DIAGONAL_NO_OBSTACLES ? x && y
           : b->diagonal == ASTAR_DIAGONAL_ONE_OBSTACLE ? x || y : 1;
}

/* What a move in direction d costs when the cost it is priced by is c. */
static inline double board_step(const BoardKind kind, unsigned d, double c)
{
    return kind == BOARD_HEX || d < 4 ? c : BOARD_SQRT2 * c;
}

/* The say of the grid's moves m (NULL: none) on the move out of cell
 * (position) u in direction d, whose default price is *step: 0 when the move
 * is overridden as impossible (for a large unit: for any cell its footprint
 * covers at u), else 1 with *step the override's price if the cell (the
 * top-left one) has one. Moves that are not overridden cost one load of the
 * flags. (The moves are not a field of Board: a kernel's Board stays in
 * registers only while it is small.) */
static inline int board_move_price(const Board *b, const BoardKind kind,
                                   const struct AstarMoves *m, size_t u, unsigned d, double *step)
{
    const unsigned bit = 1u << d;

    if (!m)
        return 1;
    if (kind == BOARD_LARGE) {
        size_t row, i, k = b->size;
        for (row = u; row < u + k * b->stride; row += b->stride)
            for (i = row; i < row + k; i++)
                if (i != u && (m->flags[i] & bit) && moves_value(m, i, d) == INFINITY)
                    return 0;
    }
    if (m->flags[u] & bit) {
        double v = moves_value(m, u, d);
        if (v == INFINITY)
            return 0;
        *step = v;
    }
    return 1;
}

/* LARGE: the cells a step in direction d onto position q newly covers. */
static inline void board_new_cells(const Board *b, AstarNewCells *it, size_t q, unsigned d)
{
    astar_new_cells(it, q, BOARD_DX[d], BOARD_DY[d], b->size, b->stride);
}

#endif
