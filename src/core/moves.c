/*
 * Moves and links (issue 19): the storage of moves.h and the public
 * functions of astar.h that edit and read it. Layer 1 (grid storage).
 *
 * Every edit that changes something counts as a change of the move's source
 * cell (a link: of both its ends) in the grid's version and change log, so
 * a running search that has expanded the cell starts again; the caches hear
 * of it as ASTAR_CHANGE_COST (an override moves no connectivity) or as a
 * link made or removed (the component labels join the ends).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "moves.h"

#define SQRT2 1.41421356237309504880

/* The step length of direction d on this grid: what an override's ratio is
 * taken against (a hex step is 1 whatever its direction). */
static double step_length(const AstarGrid *grid, unsigned d)
{
    return grid->hex || d < 4 ? 1.0 : SQRT2;
}

static struct AstarMoves *moves_of(AstarGrid *grid)
{
    struct AstarMoves *m = grid->moves;
    if (m)
        return m;
    m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->flags = calloc(grid->cells, sizeof *m->flags);
    if (!m->flags) {
        free(m);
        return NULL;
    }
    m->cells = grid->cells;
    m->min_ratio = INFINITY;
    grid->moves = m;
    return m;
}

void astar_moves_free(struct AstarMoves *m)
{
    if (!m)
        return;
    free(m->flags);
    free(m->keys);
    free(m->values);
    free(m->out);
    free(m->in);
    free(m);
}

size_t astar_moves_memory(const struct AstarMoves *m)
{
    return m ? sizeof *m + m->cells * sizeof *m->flags + m->capacity * (sizeof *m->keys + sizeof *m->values)
                   + 2 * m->links_capacity * sizeof *m->out
             : 0;
}

/* ---- overrides: the hash table ------------------------------------------------ */

static int rehash(struct AstarMoves *m, size_t capacity)
{
    uint32_t *keys = malloc(capacity * sizeof *keys), *old_keys = m->keys;
    double *values = malloc(capacity * sizeof *values), *old_values = m->values;
    size_t old = m->capacity, k;

    if (!keys || !values) {
        free(keys);
        free(values);
        return 0;
    }
    memset(keys, 0xFF, capacity * sizeof *keys);
    m->keys = keys;
    m->values = values;
    m->capacity = capacity;
    for (k = 0; k < old; k++)
        if (old_keys[k] != MOVES_EMPTY_KEY) {
            uint32_t i = moves_slot(m, old_keys[k]);
            while (keys[i] != MOVES_EMPTY_KEY)
                i = (i + 1) & (uint32_t)(capacity - 1);
            keys[i] = old_keys[k];
            values[i] = old_values[k];
        }
    free(old_keys);
    free(old_values);
    return 1;
}

/* Removes the entry in slot i, shifting back the entries of its run whose
 * home lies at or before the hole (linear probing's deletion). */
static void remove_slot(struct AstarMoves *m, uint32_t i)
{
    const uint32_t mask = (uint32_t)(m->capacity - 1);
    uint32_t j = i;

    m->keys[i] = MOVES_EMPTY_KEY;
    for (;;) {
        uint32_t home;
        j = (j + 1) & mask;
        if (m->keys[j] == MOVES_EMPTY_KEY)
            break;
        home = moves_slot(m, m->keys[j]);
        /* j's entry may fill the hole when its home is not in (i, j] */
        if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
            m->keys[i] = m->keys[j];
            m->values[i] = m->values[j];
            m->keys[j] = MOVES_EMPTY_KEY;
            i = j;
        }
    }
    m->count--;
}

static void recount_ratio(const AstarGrid *grid, struct AstarMoves *m)
{
    size_t k;
    m->min_ratio = INFINITY;
    for (k = 0; k < m->capacity; k++)
        if (m->keys[k] != MOVES_EMPTY_KEY && m->values[k] != INFINITY) {
            double r = m->values[k] / step_length(grid, m->keys[k] & 7u);
            if (r < m->min_ratio)
                m->min_ratio = r;
        }
}

/* Tells the caches built over the grid that bordered cell i changed. */
static void changed(AstarGrid *grid, size_t i, int what)
{
    int k;
    astar_grid_changed(grid, i);
    for (k = 0; k < ASTAR_CACHES; k++)
        if (grid->cache[k])
            grid->cache[k]->changed(grid, i, what);
}

AstarError astar_grid_set_move(AstarGrid *grid, uint32_t x, uint32_t y, unsigned d, double cost)
{
    const size_t c = astar_index(grid, x, y);
    const uint32_t key = (uint32_t)(c * 8 + d);
    struct AstarMoves *m = grid->moves;
    uint32_t i;
    double old;

    if (cost == 0) {                            /* back to the default */
        if (!m || !(m->flags[c] & (1u << d)))
            return ASTAR_OK;
        i = moves_slot(m, key);
        while (m->keys[i] != key)
            i = (i + 1) & (uint32_t)(m->capacity - 1);
        old = m->values[i];
        remove_slot(m, i);
        m->flags[c] &= (uint16_t)~(1u << d);
        if (old != INFINITY && old / step_length(grid, d) <= m->min_ratio)
            recount_ratio(grid, m);
        changed(grid, c, ASTAR_CHANGE_COST);
        return ASTAR_OK;
    }
    if (!m && !(m = moves_of(grid)))
        return ASTAR_ENOMEM;
    if (m->flags[c] & (1u << d)) {
        i = moves_slot(m, key);
        while (m->keys[i] != key)
            i = (i + 1) & (uint32_t)(m->capacity - 1);
        old = m->values[i];
        if (old == cost)
            return ASTAR_OK;                    /* no change: the version stays */
        m->values[i] = cost;
        if (old != INFINITY && old / step_length(grid, d) <= m->min_ratio)
            recount_ratio(grid, m);
    } else {
        if (2 * (m->count + 1) > m->capacity && !rehash(m, m->capacity ? 2 * m->capacity : 64))
            return ASTAR_ENOMEM;
        astar_moves_flat_set(m, c, d, cost);   /* the insert: room was made above */
    }
    if (cost != INFINITY && cost / step_length(grid, d) < m->min_ratio)
        m->min_ratio = cost / step_length(grid, d);
    changed(grid, c, ASTAR_CHANGE_COST);
    return ASTAR_OK;
}

double astar_grid_get_move(const AstarGrid *grid, uint32_t x, uint32_t y, unsigned d)
{
    const size_t c = astar_index(grid, x, y);
    const struct AstarMoves *m = grid->moves;
    return m && (m->flags[c] & (1u << d)) ? moves_value(m, c, d) : 0.0;
}

unsigned astar_grid_moves_set(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    const struct AstarMoves *m = grid->moves;
    return m ? m->flags[astar_index(grid, x, y)] & 0xFFu : 0u;
}

/* ---- links: two sorted arrays ------------------------------------------------ */

/* Where (a, b) is or would go in an array ordered by (first, second) end:
 * by_target orders by (to, from). */
static size_t link_position(const MovesLink *list, size_t n, int by_target, uint32_t a,
                            uint32_t b)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t ma = by_target ? list[mid].to : list[mid].from;
        uint32_t mb = by_target ? list[mid].from : list[mid].to;
        if (ma < a || (ma == a && mb < b))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t astar_moves_links(const struct AstarMoves *m, size_t c, int by_target,
                         const MovesLink **first)
{
    const MovesLink *list = by_target ? m->in : m->out;
    size_t lo, hi;

    if (!m->nlinks) {                  /* no arrays yet: no arithmetic on NULL */
        *first = list;
        return 0;
    }
    lo = hi = link_position(list, m->nlinks, by_target, (uint32_t)c, 0);
    while (hi < m->nlinks && (by_target ? list[hi].to : list[hi].from) == c)
        hi++;
    *first = list + lo;
    return hi - lo;
}

static void insert_at(MovesLink *list, size_t n, size_t at, MovesLink link)
{
    memmove(list + at + 1, list + at, (n - at) * sizeof *list);
    list[at] = link;
}

static void remove_at(MovesLink *list, size_t n, size_t at)
{
    memmove(list + at, list + at + 1, (n - at - 1) * sizeof *list);
}

/* Keeps the flags of bordered cell c's links right after an edit. */
static void refresh_link_flags(struct AstarMoves *m, size_t c)
{
    const MovesLink *first;
    uint16_t f = (uint16_t)(m->flags[c] & ~(MOVES_OUT | MOVES_IN));
    if (astar_moves_links(m, c, 0, &first))
        f |= MOVES_OUT;
    if (astar_moves_links(m, c, 1, &first))
        f |= MOVES_IN;
    m->flags[c] = f;
}

AstarError astar_grid_link(AstarGrid *grid, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2,
                           double cost)
{
    const uint32_t a = (uint32_t)astar_index(grid, x1, y1), b = (uint32_t)astar_index(grid, x2, y2);
    struct AstarMoves *m = grid->moves;
    MovesLink link;
    size_t at;

    if (!m && !(m = moves_of(grid)))
        return ASTAR_ENOMEM;
    at = link_position(m->out, m->nlinks, 0, a, b);
    if (at < m->nlinks && m->out[at].from == a && m->out[at].to == b) {
        size_t back = link_position(m->in, m->nlinks, 1, b, a);
        if (m->out[at].cost == cost)
            return ASTAR_OK;
        m->out[at].cost = m->in[back].cost = cost;
        m->link_edits++;
        changed(grid, a, ASTAR_CHANGE_COST);
        return ASTAR_OK;
    }
    if (m->nlinks == m->links_capacity) {
        size_t capacity = m->links_capacity ? 2 * m->links_capacity : 16;
        MovesLink *out = realloc(m->out, capacity * sizeof *out), *in;
        if (!out)
            return ASTAR_ENOMEM;
        m->out = out;
        in = realloc(m->in, capacity * sizeof *in);
        if (!in)
            return ASTAR_ENOMEM;
        m->in = in;
        m->links_capacity = capacity;
    }
    link.from = a;
    link.to = b;
    link.cost = cost;
    insert_at(m->out, m->nlinks, at, link);
    insert_at(m->in, m->nlinks, link_position(m->in, m->nlinks, 1, b, a), link);
    m->nlinks++;
    m->link_edits++;
    refresh_link_flags(m, a);
    refresh_link_flags(m, b);
    changed(grid, a, ASTAR_CHANGE_LINKED);
    changed(grid, b, ASTAR_CHANGE_LINKED);
    return ASTAR_OK;
}

int astar_grid_unlink(AstarGrid *grid, uint32_t x1, uint32_t y1, uint32_t x2, uint32_t y2)
{
    const uint32_t a = (uint32_t)astar_index(grid, x1, y1), b = (uint32_t)astar_index(grid, x2, y2);
    struct AstarMoves *m = grid->moves;
    size_t at;

    if (!m)
        return 0;
    at = link_position(m->out, m->nlinks, 0, a, b);
    if (at == m->nlinks || m->out[at].from != a || m->out[at].to != b)
        return 0;
    remove_at(m->out, m->nlinks, at);
    remove_at(m->in, m->nlinks, link_position(m->in, m->nlinks, 1, b, a));
    m->nlinks--;
    m->link_edits++;
    refresh_link_flags(m, a);
    refresh_link_flags(m, b);
    changed(grid, a, ASTAR_CHANGE_UNLINKED);
    changed(grid, b, ASTAR_CHANGE_UNLINKED);
    return 1;
}

size_t astar_grid_links(const AstarGrid *grid, uint32_t x, uint32_t y)
{
    const MovesLink *first;
    return grid->moves ? astar_moves_links(grid->moves, astar_index(grid, x, y), 0, &first) : 0;
}

void astar_grid_link_at(const AstarGrid *grid, uint32_t x, uint32_t y, size_t k, uint32_t *tx,
                        uint32_t *ty, double *cost)
{
    const MovesLink *first;
    astar_moves_links(grid->moves, astar_index(grid, x, y), 0, &first);
    *tx = first[k].to % grid->stride - 1;
    *ty = first[k].to / grid->stride - 1;
    *cost = first[k].cost;
}

size_t astar_grid_move_count(const AstarGrid *grid)
{
    return grid->moves ? grid->moves->count : 0;
}

size_t astar_grid_link_count(const AstarGrid *grid)
{
    return grid->moves ? grid->moves->nlinks : 0;
}

/* ---- flat copies ------------------------------------------------------------ */

/* The least power of two at least twice count (0 for none). */
static size_t flat_capacity(size_t count)
{
    size_t capacity = 1;
    if (count == 0)
        return 0;
    while (capacity < 2 * count)
        capacity *= 2;
    return capacity;
}

/* The struct, then values and the links (8-byte items), keys, flags. */
size_t astar_moves_flat_bytes(size_t cells, size_t count, size_t nlinks)
{
    const size_t head = (sizeof(struct AstarMoves) + 7) / 8 * 8;
    const size_t item[3] = {sizeof(double) + sizeof(uint32_t), 2 * sizeof(MovesLink),
                            sizeof(uint16_t)};
    size_t n[3], total = head, k;

    if (count > SIZE_MAX / 4)
        return 0;
    n[0] = flat_capacity(count);
    n[1] = nlinks;
    n[2] = cells;
    for (k = 0; k < 3; k++) {
        if (n[k] > SIZE_MAX / item[k] || n[k] * item[k] > SIZE_MAX - total)
            return 0;
        total += n[k] * item[k];
    }
    return total;
}

struct AstarMoves *astar_moves_flat(void *memory, size_t cells, size_t count, size_t nlinks)
{
    const size_t head = (sizeof(struct AstarMoves) + 7) / 8 * 8;
    struct AstarMoves *m = (struct AstarMoves *)memory;
    char *p = (char *)memory + head;

    memset(m, 0, sizeof *m);
    m->capacity = flat_capacity(count);
    m->values = (double *)(void *)p;
    p += m->capacity * sizeof *m->values;
    m->out = (MovesLink *)(void *)p;
    p += nlinks * sizeof *m->out;
    m->in = (MovesLink *)(void *)p;
    p += nlinks * sizeof *m->in;
    m->keys = (uint32_t *)(void *)p;
    p += m->capacity * sizeof *m->keys;
    m->flags = (uint16_t *)(void *)p;
    m->cells = cells;
    m->links_capacity = nlinks;
    m->min_ratio = INFINITY;
    if (m->capacity)
        memset(m->keys, 0xFF, m->capacity * sizeof *m->keys);
    memset(m->flags, 0, cells * sizeof *m->flags);
    return m;
}

void astar_moves_flat_set(struct AstarMoves *m, size_t c, unsigned d, double cost)
{
    const uint32_t key = (uint32_t)(c * 8 + d);
    uint32_t i = moves_slot(m, key);

    while (m->keys[i] != MOVES_EMPTY_KEY)
        i = (i + 1) & (uint32_t)(m->capacity - 1);
    m->keys[i] = key;
    m->values[i] = cost;
    m->count++;
    m->flags[c] |= (uint16_t)(1u << d);
}

void astar_moves_flat_link(struct AstarMoves *m, uint32_t from, uint32_t to, double cost)
{
    MovesLink *link = &m->out[m->nlinks++];
    link->from = from;
    link->to = to;
    link->cost = cost;
}

static int by_target(const void *a, const void *b)
{
    const MovesLink *x = (const MovesLink *)a, *y = (const MovesLink *)b;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->from < y->from ? -1 : x->from > y->from;
}

void astar_moves_flat_finish(struct AstarMoves *m)
{
    size_t k;

    if (m->nlinks == 0)
        return;
    memcpy(m->in, m->out, m->nlinks * sizeof *m->in);
    qsort(m->in, m->nlinks, sizeof *m->in, by_target);
    for (k = 0; k < m->nlinks; k++) {
        m->flags[m->out[k].from] |= MOVES_OUT;
        m->flags[m->out[k].to] |= MOVES_IN;
    }
}

size_t astar_moves_copy_bytes(const struct AstarMoves *m)
{
    return astar_moves_flat_bytes(m->cells, m->count, m->nlinks);
}

struct AstarMoves *astar_moves_copy(const struct AstarMoves *m, void *memory)
{
    struct AstarMoves *copy = astar_moves_flat(memory, m->cells, m->count, m->nlinks);
    size_t k;

    for (k = 0; k < m->capacity; k++)
        if (m->keys[k] != MOVES_EMPTY_KEY)
            astar_moves_flat_set(copy, m->keys[k] / 8, m->keys[k] % 8, m->values[k]);
    if (m->nlinks) {
        memcpy(copy->out, m->out, m->nlinks * sizeof *m->out);
        memcpy(copy->in, m->in, m->nlinks * sizeof *m->in);
        copy->nlinks = m->nlinks;
        for (k = 0; k < m->cells; k++)
            copy->flags[k] |= (uint16_t)(m->flags[k] & (MOVES_OUT | MOVES_IN));
    }
    return copy;
}
