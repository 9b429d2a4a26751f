/* The DRUP trimmer's plain C core: given a formula and a DRUP proof (its added clauses only),
 * which formula clauses and which lemmas the refutation needs (Heule, Hunt & Wetzler 2013,
 * drat-trim's backward check). No Python, so it builds alone; trim.c is its thin binding and
 * trimcore.c explains the method. Nothing it says is trusted: drup re-checks every lemma it keeps.
 *   1. tr_alloc(t, nvars, nclauses, nlits): every array zeroed;
 *   2. fill start[] and lits[]: clause c is lits[start[c] .. start[c+1]), formula clauses first
 *      (nformula of them), then the lemmas in proof order; literals are DIMACS integers;
 *   3. tr_run(t, nformula): marks the clauses needed (t->used[c]) and returns TR_OK, or the
 *      index (among the lemmas) of a lemma that does not follow, or TR_NO_CONFLICT; with TR_OK,
 *      t->hints holds the hints of each kept lemma, of the empty clause and of the top-level
 *      units they use (see below);
 *   4. tr_free(t). */
#ifndef QUEENS_TRIMCORE_H
#define QUEENS_TRIMCORE_H

#include "common.h"

#define TR_OK (-1)                     /* the proof refutes the formula: t->used says what it needs */
#define TR_NO_CONFLICT (-2)            /* the proof ends before propagation finds a conflict */
#define TR_NO_MEMORY (-3)
#define TR_STOPPED (-4)                /* the caller's stop check said stop (Ctrl-C): nothing to use */

typedef struct { int *items, size, cap; } TrList;

typedef struct {
    int nvars, nclauses, nlits;
    int *start, *lits;                 /* the clauses as given (tr_run reorders each: watched literals first) */
    int *length;                       /* clause c's literals left once repeated ones are dropped */
    unsigned char *used;               /* used[c]: the refutation needs clause c (the result) */
    /* the checker's state: value per literal (2v + sign), reason and flags per variable */
    signed char *value;                /* 1 true, -1 false, 0 unassigned */
    int *reason;                       /* the clause that set the variable, or -1 (an assumption) */
    unsigned char *justified;          /* the reasons behind the variable are already marked used */
    unsigned char *tautology;          /* per clause: holds a literal and its negation (never watched) */
    int *trail, ntrail, head, limit;   /* clauses below `limit` are active */
    int *stack;                        /* the conflict analysis' work list */
    TrList *watches;                   /* per literal: the clauses watching it */
    /* hints, as LRAT gives them, per step: a lemma checked (the empty clause's first, as lemma
     * number nlemmas, then the lemmas last to first): its index among the lemmas, how many hints,
     * then the hints; then the units it uses (last to first in the forward trail): -1 - their
     * position in it, how many hints, the unit literal, the number of lemmas added before it was
     * implied, then the hints. A hint is a clause c (< nclauses), or the unit that sets variable v
     * at the top level (nclauses + v) */
    TrList hints;
    int *clause_seen, *var_seen, seen; /* stamps: already in the hints of check number `seen` */
    int *position;                     /* per variable: its place on the trail while assigned */
    unsigned char *unit_needed;        /* per variable: a hint names its top-level unit */
    const StopCheck *stop;             /* asked once per lemma, forwards and backwards (NULL: never stop) */
} TrProof;

/* Allocate every array, zeroed; variables are 1..nvars. Returns 0, or -1 when memory ran out
 * (then nothing is left allocated and t is zeroed). */
int tr_alloc(TrProof *t, int nvars, int nclauses, int nlits);

/* Trim: see the header comment for what it returns; TR_STOPPED when t->stop said stop (the
 * walk over a long proof takes seconds to minutes, and Ctrl-C must not wait for it). */
int tr_run(TrProof *t, int nformula);

/* Free every array and zero t (which may be zeroed and never allocated). */
void tr_free(TrProof *t);

#endif
