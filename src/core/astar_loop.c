/*
 * A* on square boards: astar_kernel.h's loop compiled once per diagonal mode
 * and per query kind (plain with all costs 1, plain with a cost layer, or
 * general: rules, goal lists, near, a bound), so the inner loop has no mode
 * switches, no function calls and no divisions. Hex boards (hex.c) and
 * large units with costs or rules (large.c) run the same loop.
 * Layer 5 (kernels).
 */
#include "kernels.h"

#define AK_QUERY AkQuery   /* the default hooks: square estimates, one-cell looks */
#include "astar_kernel.h"

ASTAR_INLINE AstarStatus square(AstarSearch *s, size_t max, AstarError *error,
                                const AstarDiagonal mode, const unsigned traits)
{
    AkQuery q;
    return astar_kernel(s, &q, mode == ASTAR_DIAGONAL_NEVER ? BOARD_SQUARE4 : BOARD_SQUARE8, mode,
                        ASTAR_HEX_ODD_R, traits, max, error);
}

AK_VARIANTS(never, square, ASTAR_DIAGONAL_NEVER)
AK_VARIANTS(always, square, ASTAR_DIAGONAL_ALWAYS)
AK_VARIANTS(one, square, ASTAR_DIAGONAL_ONE_OBSTACLE)
AK_VARIANTS(no, square, ASTAR_DIAGONAL_NO_OBSTACLES)

AstarStatus astar_run_astar(AstarSearch *s, size_t max_expansions, AstarError *error)
{
    static const AkRun RUNS[4][6] = {AK_RUNS(never), AK_RUNS(always), AK_RUNS(one), AK_RUNS(no)};
    unsigned mode = (unsigned)s->options.diagonal;
    if (s->grid->hex)
        return astar_run_hex(s, max_expansions, error);
    if (mode > ASTAR_DIAGONAL_NO_OBSTACLES)
        mode = ASTAR_DIAGONAL_NO_OBSTACLES;   /* as every switch on it reads it */
    return RUNS[mode][ak_variant(s, !s->general)](s, max_expansions, error);
}
