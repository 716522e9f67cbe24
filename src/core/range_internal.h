/*
 * What distance.c borrows from range.c (not public): an AstarRange's open
 * lists' storage (scratch.h), since the public API gives a distance map an
 * AstarRange as its scratch. Layer 6 (queries).
 */
#ifndef ASTAR_RANGE_INTERNAL_H
#define ASTAR_RANGE_INTERNAL_H

#include "scratch.h"

AstarOpenScratch *astar_range_open(AstarRange *range);

#endif
