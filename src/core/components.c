/*
 * Connected components of the walkable cells under 4-connectivity, a cache
 * of the grid. Layer 2 (caches on the grid): a query hands it what it needs
 * (search.c), so it knows no search.
 *
 * In the modes NEVER, ONE_OBSTACLE and NO_OBSTACLES a diagonal step is only
 * allowed when one of the two orthogonal cells it passes is walkable, so the
 * same two cells are also joined by two orthogonal steps: all three modes
 * connect exactly the 4-connected regions. ALWAYS can squeeze between walls,
 * so its regions are larger and these labels say nothing about it.
 *
 * Labels are 16 bits to keep memory per cell low; a component found after the
 * 65534th gets LABEL_UNKNOWN, which answers "maybe" (search). Labels are
 * joined by a small union-find over labels, so opening a wall is O(1).
 */
#include <stdlib.h>
#include <string.h>

#include "components.h"
#include "moves.h"

#define LABEL_UNKNOWN 0xFFFFu
#define LABEL_MAX 0xFFFEu

struct AstarComponents {
    uint16_t *label;        /* per cell: 0 wall, 1..LABEL_MAX, or LABEL_UNKNOWN */
    uint16_t *parent;       /* union-find over labels: parent[l] == l at a root */
    uint32_t count;         /* labels in use: 1..count */
    uint32_t capacity;      /* entries in parent */
    int valid;              /* 0: unusable until rebuilt */
    int stale;              /* a wall was added since the last build */
    size_t wasted;          /* expansions of failed searches since the last build */
    size_t cells;           /* entries in label (0 while none) */
};

static void components_free(AstarGrid *grid)
{
    struct AstarComponents *c = grid->components;
    if (!c)
        return;
    free(c->label);
    free(c->parent);
    free(c);
    grid->components = NULL;
}

static size_t components_memory(const AstarGrid *grid)
{
    const struct AstarComponents *c = grid->components;
    return c ? sizeof *c + c->cells * sizeof *c->label + c->capacity * sizeof *c->parent : 0;
}

static uint32_t root(const uint16_t *parent, uint32_t l)
{
    while (parent[l] != l)
        l = parent[l];
    return l;
}

/* root() that also shortens the path it walked. */
static uint32_t root_compress(uint16_t *parent, uint32_t l)
{
    uint32_t r = root(parent, l);
    while (parent[l] != r) {
        uint32_t next = parent[l];
        parent[l] = (uint16_t)r;
        l = next;
    }
    return r;
}

static int grow_parent(struct AstarComponents *c, uint32_t need)
{
    uint16_t *p;
    uint32_t capacity = c->capacity ? c->capacity : 64;

    if (need <= c->capacity)
        return 1;
    while (capacity < need)
        capacity *= 2;
    if (capacity > LABEL_MAX + 1)
        capacity = LABEL_MAX + 1;
    p = realloc(c->parent, capacity * sizeof *p);
    if (!p)
        return 0;
    c->parent = p;
    c->capacity = capacity;
    return 1;
}

/* A new label for a component, LABEL_UNKNOWN when none is left (or no memory). */
static uint16_t new_label(struct AstarComponents *c)
{
    if (c->count >= LABEL_MAX || !grow_parent(c, c->count + 2))
        return LABEL_UNKNOWN;
    c->count++;
    c->parent[c->count] = (uint16_t)c->count;
    return (uint16_t)c->count;
}

/* Joins the regions of bordered cells a and b (a link joins them) when both
 * are labelled; a wall's label is 0 (its opening joins it). */
static void join(struct AstarComponents *c, size_t a, size_t b)
{
    uint32_t la = c->label[a], lb = c->label[b], ra, rb;
    if (!la || !lb)
        return;
    if (la == LABEL_UNKNOWN || lb == LABEL_UNKNOWN) {
        c->valid = 0;               /* would join an unknown region: give up */
        return;
    }
    ra = root_compress(c->parent, la);
    rb = root_compress(c->parent, lb);
    if (ra < rb)
        c->parent[rb] = (uint16_t)ra;
    else
        c->parent[ra] = (uint16_t)rb;
}

/* Joins bordered cell i with the cells its links lead to or come from. */
static void join_links(const AstarGrid *grid, struct AstarComponents *c, size_t i)
{
    const struct AstarMoves *m = grid->moves;
    const MovesLink *l;
    size_t n, k;
    if (!m || !(m->flags[i] & (MOVES_OUT | MOVES_IN)))
        return;
    for (n = astar_moves_links(m, i, 0, &l), k = 0; k < n; k++)
        join(c, i, l[k].to);
    for (n = astar_moves_links(m, i, 1, &l), k = 0; k < n; k++)
        join(c, i, l[k].from);
}

static void components_opened(AstarGrid *grid, size_t i)
{
    struct AstarComponents *c = grid->components;
    long step[4];
    uint32_t best = 0, roots[4];
    int n = 0, k;

    if (!c->valid)
        return;
    step[0] = 1;
    step[1] = -1;
    step[2] = (long)grid->stride;
    step[3] = -(long)grid->stride;
    for (k = 0; k < 4; k++) {
        size_t j = (size_t)((long)i + step[k]);
        uint32_t l;
        if (!grid->open[j])
            continue;
        l = c->label[j];
        if (l == LABEL_UNKNOWN || l == 0) {
            c->valid = 0;           /* would join an unknown region: give up */
            return;
        }
        roots[n] = root_compress(c->parent, l);
        if (!best || roots[n] < best)
            best = roots[n];
        n++;
    }
    if (!n) {
        c->label[i] = new_label(c);
        if (c->label[i] == LABEL_UNKNOWN)
            c->valid = 0;
    } else {
        for (k = 0; k < n; k++)
            c->parent[roots[k]] = (uint16_t)best;
        c->label[i] = (uint16_t)best;
    }
    if (c->valid)
        join_links(grid, c, i);
}

static void components_closed(AstarGrid *grid, size_t i)
{
    struct AstarComponents *c = grid->components;
    if (!c->label)
        return;     /* labels never built (no memory yet): nothing to keep right */
    c->label[i] = 0;
    c->stale = 1;
}

/* Cell i changed: the labels follow a wall added or removed, and a link made
 * (a cost or a move's price does not connect or cut anything; a link
 * removed leaves regions joined, which only says "maybe" too often). */
static void components_changed(AstarGrid *grid, size_t i, int walkable)
{
    struct AstarComponents *c = grid->components;
    if (walkable == 1)
        components_opened(grid, i);
    else if (walkable == 0)
        components_closed(grid, i);
    else if (walkable == ASTAR_CHANGE_LINKED && c->valid)
        join_links(grid, c, i);
    else if (walkable == ASTAR_CHANGE_UNLINKED && c->label)
        c->stale = 1;
}

static const struct AstarCacheHooks COMPONENT_HOOKS = {components_changed, components_memory,
                                                      components_free};

/* Stack of seeds for the span fill, grown as needed. */
typedef struct {
    uint32_t *items;
    size_t size, capacity;
} Seeds;

static int push_seed(Seeds *s, uint32_t cell)
{
    if (s->size == s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 1024;
        uint32_t *items = realloc(s->items, capacity * sizeof *items);
        if (!items)
            return 0;
        s->items = items;
        s->capacity = capacity;
    }
    s->items[s->size++] = cell;
    return 1;
}

/* Pushes one seed per run of unlabelled walkable cells in [from, to]. */
static int seed_runs(const AstarGrid *grid, const uint16_t *label, Seeds *s,
                     size_t from, size_t to)
{
    int in_run = 0;
    size_t j;
    for (j = from; j <= to; j++) {
        if (grid->open[j] && !label[j]) {
            if (!in_run && !push_seed(s, (uint32_t)j))
                return 0;
            in_run = 1;
        } else {
            in_run = 0;
        }
    }
    return 1;
}

/* Scanline flood fill: labels a whole row span at a time, so the stack holds
 * spans, not cells. */
static int fill(const AstarGrid *grid, uint16_t *label, Seeds *s, size_t seed, uint16_t l)
{
    size_t stride = grid->stride;

    s->size = 0;
    if (!push_seed(s, (uint32_t)seed))
        return 0;
    while (s->size) {
        size_t c = s->items[--s->size], lo = c, hi = c, j;
        if (label[c])
            continue;
        while (grid->open[lo - 1] && !label[lo - 1])
            lo--;
        while (grid->open[hi + 1] && !label[hi + 1])
            hi++;
        for (j = lo; j <= hi; j++)
            label[j] = l;
        if (!seed_runs(grid, label, s, lo - stride, hi - stride)
            || !seed_runs(grid, label, s, lo + stride, hi + stride))
            return 0;
    }
    return 1;
}

AstarError astar_grid_label_components(AstarGrid *grid)
{
    struct AstarComponents *c = grid->components;
    Seeds seeds = {NULL, 0, 0};
    uint32_t x, y;

    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return ASTAR_ENOMEM;
        grid->components = c;
        grid->cache[ASTAR_CACHE_COMPONENTS] = &COMPONENT_HOOKS;
    }
    c->valid = 0;
    if (!c->label) {
        c->label = malloc(grid->cells * sizeof *c->label);
        if (!c->label)
            return ASTAR_ENOMEM;
        c->cells = grid->cells;
    }
    memset(c->label, 0, grid->cells * sizeof *c->label);
    c->count = 0;
    for (y = 0; y < grid->height; y++) {
        size_t i = astar_index(grid, 0, y);
        for (x = 0; x < grid->width; x++, i++) {
            if (grid->open[i] && !c->label[i] && !fill(grid, c->label, &seeds, i, new_label(c))) {
                free(seeds.items);
                return ASTAR_ENOMEM;
            }
        }
    }
    free(seeds.items);
    c->valid = 1;
    if (grid->moves)
        for (x = 0; x < grid->moves->nlinks && c->valid; x++)
            join(c, grid->moves->out[x].from, grid->moves->out[x].to);
    if (!c->valid)
        return ASTAR_OK;            /* an unknown region is linked: no labels */
    c->stale = 0;
    c->wasted = 0;
    return ASTAR_OK;
}

void astar_grid_prepare(AstarGrid *grid)
{
    astar_grid_refresh_min_cost(grid);       /* an exact heuristic scale, JPS where it applies */
    if (!grid->components || !grid->components->label)
        astar_grid_label_components(grid);   /* on ENOMEM queries just search */
}

int astar_grid_components_fresh(const AstarGrid *grid)
{
    const struct AstarComponents *c = grid->components;
    return c && c->valid && !c->stale;
}

void astar_components_note_waste(AstarGrid *grid, size_t work)
{
    struct AstarComponents *c = grid->components;

    if (astar_grid_components_fresh(grid))
        return;
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return;
        grid->components = c;
        grid->cache[ASTAR_CACHE_COMPONENTS] = &COMPONENT_HOOKS;
    }
    c->wasted += work;
    if (c->wasted >= grid->cells / 16)
        astar_grid_label_components(grid);   /* on ENOMEM the search just runs */
}

size_t astar_components_work(const AstarGrid *grid, AstarAlgorithm ran, size_t expanded)
{
    /* A jump point expansion scans whole lines, an A* one a cell. */
    if (ran == ASTAR_ALGORITHM_JPS)
        expanded *= ((size_t)grid->width + grid->height) / 2;
    return expanded;
}

int astar_components_maybe_reachable(const AstarGrid *grid, size_t start, size_t goal,
                                     AstarDiagonal diagonal)
{
    const struct AstarComponents *c = grid->components;
    uint32_t target;
    long step[4];
    int k;

    if (!c || !c->valid || diagonal == ASTAR_DIAGONAL_ALWAYS)
        return 1;
    if (c->label[goal] == LABEL_UNKNOWN || c->label[goal] == 0)
        return 1;
    target = root(c->parent, c->label[goal]);
    if (grid->open[start])
        return c->label[start] == LABEL_UNKNOWN || root(c->parent, c->label[start]) == target;
    if (grid->moves && (grid->moves->flags[start] & MOVES_OUT))
        return 1;   /* a wall start may leave by a link */
    /* A wall start (allowed: a unit stands on it) leaves through its walkable
     * orthogonal neighbours; any diagonal exit lands in one of their regions. */
    step[0] = 1;
    step[1] = -1;
    step[2] = (long)grid->stride;
    step[3] = -(long)grid->stride;
    for (k = 0; k < 4; k++) {
        size_t j = (size_t)((long)start + step[k]);
        if (grid->open[j]
            && (c->label[j] == LABEL_UNKNOWN || root(c->parent, c->label[j]) == target))
            return 1;
    }
    return 0;
}
