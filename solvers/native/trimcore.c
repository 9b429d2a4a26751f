/* Backward trimming of a DRUP refutation: which formula clauses and which lemmas it needs.
 *
 * A DRUP proof is a list of lemmas, each following from the formula and the lemmas before it by
 * unit propagation (reverse unit propagation, RUP), the last the empty clause. Many lemmas are
 * never used. drat-trim's idea (Heule, Hunt & Wetzler 2013; Wetzler, Heule & Hunt 2014):
 *   forward:  add the formula, then the lemmas one by one, propagating units at the top level,
 *             until propagation finds a conflict (the empty clause follows); the lemmas after that
 *             are not needed. The trail's length before each lemma is recorded;
 *   backward: mark the clauses of that conflict's implication graph; then for every lemma, last
 *             to first, drop it (cut the trail back to its length before the lemma, so the trail
 *             is again the fixpoint of the clauses before it) and, only when it is marked, check
 *             it: assign its literals false, propagate to a conflict, mark the clauses of that
 *             conflict's implication graph (the reasons of the top-level literals it reaches too).
 * A marked formula clause is in the core; a marked lemma is kept. Every kept lemma then follows
 * by RUP from the core and the kept lemmas before it, so drup can check that smaller proof.
 * Each check also gives its hints (`hint`): the clauses of its conflict's implication graph,
 * so that the lemma follows by RUP from those clauses alone, and drup can check each lemma by
 * itself against a few clauses instead of the proof against all of them. A top-level literal
 * in that graph is named as a unit of its own (`units`), not by the clauses behind it: a
 * new step whose hints are its reason and the units of the reason's other literals. drup's
 * time on a step grows with the square of its clauses, and without units the empty clause of
 * a completion that propagation alone refutes named every clause propagation used (hundreds);
 * with them it is one short step per literal set. (Queen domination n = 7: 42 hints a step on
 * average, 45 without units.)
 *
 * Deletions are ignored, as drup ignores them: a lemma is checked against every clause before
 * it. Propagation prefers marked clauses (drat-trim's "core first"): it runs every marked clause
 * to a fixpoint before it lets one unmarked clause imply a literal, so conflicts reuse what is
 * already needed. Measured against drat-trim, which applies the deletions: 1 to 4 % more lemmas
 * (queen domination n = 11: 10,095 of 13,631 kept against drat-trim's 9,682).
 *
 * The watched-literal invariant after cutting the trail back: the trail at each cut was a
 * fixpoint of the clauses then active, and a watch only ever moves to a literal that is not
 * false, so no active clause is unit or falsified under the shorter trail. Every step here is
 * mirrored by the plain-Python twin in tests/plain_reference.py (trim_proof), step for step.
 *
 * The asserts state the checker's invariants (a literal is assigned once, the trail and the
 * work stack stay within the variables, a watched clause has two literals, the trail is cut only
 * back); they run in the sanitiser builds (make test-asan) and are compiled out of the normal
 * one (setup.py passes -DNDEBUG). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "trimcore.h"

#define LIT(l) (2 * abs(l) + ((l) < 0))          /* a DIMACS literal's index into value[] and watches[] */
#define VALUE(t, l) ((t)->value[LIT(l)])
#define VAR(l) abs(l)

int tr_alloc(TrProof *t, int nvars, int nclauses, int nlits) {
    memset(t, 0, sizeof *t);
    t->nvars = nvars;
    t->nclauses = nclauses;
    t->nlits = nlits;
    size_t lits = 2 * (size_t)nvars + 2, vars = (size_t)nvars + 1, clauses = (size_t)nclauses + 1;
    t->start = calloc(clauses, sizeof *t->start);
    t->length = calloc(clauses, sizeof *t->length);
    t->lits = calloc((size_t)nlits + 1, sizeof *t->lits);
    t->used = calloc(clauses, 1);
    t->tautology = calloc(clauses, 1);
    t->value = calloc(lits, 1);
    t->reason = calloc(vars, sizeof *t->reason);
    t->justified = calloc(vars, 1);
    t->trail = calloc(vars, sizeof *t->trail);
    t->stack = calloc(vars, sizeof *t->stack);
    t->watches = calloc(lits, sizeof *t->watches);
    t->clause_seen = calloc(clauses, sizeof *t->clause_seen);
    t->var_seen = calloc(vars, sizeof *t->var_seen);
    t->position = calloc(vars, sizeof *t->position);
    t->unit_needed = calloc(vars, 1);
    if (!t->start || !t->length || !t->lits || !t->used || !t->tautology || !t->value || !t->reason
        || !t->justified || !t->trail || !t->stack || !t->watches || !t->clause_seen || !t->var_seen
        || !t->position || !t->unit_needed) {
        tr_free(t);
        return -1;
    }
    return 0;
}

void tr_free(TrProof *t) {
    if (t->watches)
        for (int i = 0; i < 2 * t->nvars + 2; i++) free(t->watches[i].items);
    free(t->start); free(t->length); free(t->lits); free(t->used); free(t->tautology); free(t->value);
    free(t->reason); free(t->justified); free(t->trail); free(t->stack); free(t->watches);
    free(t->hints.items); free(t->clause_seen); free(t->var_seen); free(t->position); free(t->unit_needed);
    memset(t, 0, sizeof *t);
}

static int append(TrList *w, int c) {
    if (w->size == w->cap) {
        int cap = w->cap ? 2 * w->cap : 4;
        int *items = realloc(w->items, (size_t)cap * sizeof *items);
        if (!items) return -1;
        w->items = items;
        w->cap = cap;
    }
    w->items[w->size++] = c;
    return 0;
}

static int watch(TrProof *t, int lit, int c) {
    return append(&t->watches[LIT(lit)], c);
}

static void assign(TrProof *t, int lit, int why) {
    assert(lit != 0 && VAR(lit) <= t->nvars && VALUE(t, lit) == 0 && t->ntrail < t->nvars);
    assert(why >= -1 && why < t->nclauses);
    t->value[LIT(lit)] = 1;
    t->value[LIT(-lit)] = -1;
    t->reason[VAR(lit)] = why;
    t->position[VAR(lit)] = t->ntrail;
    t->trail[t->ntrail++] = lit;
}

/* Unassign the trail from position `length` on (its literals' flags with them). */
static void cut(TrProof *t, int length) {
    assert(length >= 0 && length <= t->ntrail);
    for (int p = length; p < t->ntrail; p++) {
        int lit = t->trail[p];
        t->value[LIT(lit)] = t->value[LIT(-lit)] = 0;
        t->reason[VAR(lit)] = -1;
        t->justified[VAR(lit)] = 0;
    }
    t->ntrail = t->head = length;
}

/* Drop repeated literals (the first of each stays, in order) and note the tautologies. */
static void tidy(TrProof *t, int *stamp) {
    for (int c = 0; c < t->nclauses; c++) {
        int *lits = t->lits + t->start[c], n = t->start[c + 1] - t->start[c], kept = 0;
        for (int k = 0; k < n; k++) {
            if (stamp[LIT(lits[k])] == c + 1) continue;
            stamp[LIT(lits[k])] = c + 1;
            lits[kept++] = lits[k];
        }
        for (int k = 0; k < kept; k++)
            if (stamp[LIT(-lits[k])] == c + 1) t->tautology[c] = 1;
        t->length[c] = kept;
    }
}

/* The literal `false` has become false: visit the active clauses watching it, the marked ones
 * only (core = 1) or the unmarked ones only (core = 0). A clause moves its watch to another
 * literal that is not false, or implies its other watched literal, or is the conflict (its
 * index is returned; -1 when there is none). Inactive clauses (at or past `limit`, dropped by the
 * backward pass) leave the list as they are met. Returns -2 when memory ran out. */
static int visit(TrProof *t, int false_lit, int core) {
    TrList *w = &t->watches[LIT(false_lit)];
    int i = 0, j = 0, n = w->size, conflict = -1;
    while (i < n) {
        int c = w->items[i++];
        assert(c >= 0 && c < t->nclauses && t->length[c] >= 2 && !t->tautology[c]);
        if (c >= t->limit) continue;
        if (t->used[c] != core) { w->items[j++] = c; continue; }
        int *lits = t->lits + t->start[c], len = t->length[c];
        if (lits[0] == false_lit) { lits[0] = lits[1]; lits[1] = false_lit; }
        int first = lits[0];
        if (VALUE(t, first) == 1) { w->items[j++] = c; continue; }
        int moved = 0;
        for (int k = 2; k < len; k++)
            if (VALUE(t, lits[k]) != -1) {
                lits[1] = lits[k];
                lits[k] = false_lit;
                if (watch(t, lits[1], c) < 0) return -2;
                moved = 1;
                break;
            }
        if (moved) continue;
        w->items[j++] = c;
        if (VALUE(t, first) == -1) {
            conflict = c;
            while (i < n) w->items[j++] = w->items[i++];
            break;
        }
        assign(t, first, c);
    }
    w->size = j;
    return conflict;
}

/* Propagate from `head` to a fixpoint or a conflict, marked clauses first: every pending literal
 * over the marked clauses, then one pending literal over the others, and again. Returns the
 * conflict's clause, -1 at a fixpoint, -2 when memory ran out. */
static int propagate(TrProof *t) {
    int core_head = t->head;
    for (;;) {
        while (core_head < t->ntrail) {
            int found = visit(t, -t->trail[core_head++], 1);
            if (found != -1) { t->head = t->ntrail; return found; }
        }
        if (t->head == t->ntrail) return -1;
        int found = visit(t, -t->trail[t->head++], 0);
        if (found != -1) { t->head = t->ntrail; return found; }
    }
}

/* Add lemma c in the forward pass: its literals that are not false first (in their order), then
 * the false ones; watch the first two. Returns c when every literal is false (a conflict), -1
 * otherwise (after assigning its one literal left, when it is unit), -2 when memory ran out. */
static int add(TrProof *t, int c) {
    if (t->tautology[c]) return -1;
    int *lits = t->lits + t->start[c], len = t->length[c], free_ = 0;
    assert(len <= t->nvars);                  /* distinct literals, no variable twice: the stack holds them */
    for (int k = 0; k < len; k++)             /* a stable partition, with the stack as scratch */
        if (VALUE(t, lits[k]) != -1) lits[free_++] = lits[k];
        else t->stack[k - free_] = lits[k];
    memcpy(lits + free_, t->stack, (size_t)(len - free_) * sizeof *lits);
    if (len >= 2 && (watch(t, lits[0], c) < 0 || watch(t, lits[1], c) < 0)) return -2;
    if (free_ == 0) return c;
    if (free_ == 1 && VALUE(t, lits[0]) == 0) assign(t, lits[0], c);
    return -1;
}

static void push(TrProof *t, int lit, int *depth) {
    int v = VAR(lit);
    if (t->justified[v]) return;
    t->justified[v] = 1;
    assert(*depth < t->nvars);           /* each variable is pushed once: justified */
    t->stack[(*depth)++] = v;
}

/* Mark the reasons of the literals `lits` (all false), and of theirs, back to the assumptions;
 * then forget the flags of the literals assigned after `top` (the check's own). */
static void analyse(TrProof *t, const int *lits, int n, int top) {
    int depth = 0;
    for (int k = 0; k < n; k++) push(t, lits[k], &depth);
    while (depth > 0) {
        int why = t->reason[t->stack[--depth]];
        if (why < 0) continue;
        t->used[why] = 1;
        for (int k = 0; k < t->length[why]; k++) push(t, t->lits[t->start[why] + k], &depth);
    }
    for (int p = top; p < t->ntrail; p++) t->justified[VAR(t->trail[p])] = 0;
}

/* Open a step's hints: its header (`extra` more fields for a unit), a fresh stamp. Returns the
 * header's place, or -2 when memory ran out. */
static int open_step(TrProof *t, int step, int extra) {
    int at = t->hints.size;
    ++t->seen;
    if (append(&t->hints, step) < 0 || append(&t->hints, 0) < 0) return -2;
    for (int k = 0; k < extra; k++)
        if (append(&t->hints, 0) < 0) return -2;
    return at;
}

/* Name clause c in the open step (once). */
static int hint_clause(TrProof *t, int c) {
    if (t->clause_seen[c] == t->seen) return 0;
    t->clause_seen[c] = t->seen;
    return append(&t->hints, c);
}

/* Name the top-level literal of variable v, set by clause `why`, in the open step: that clause
 * when it is a unit clause, else the literal's unit (needed from now on). */
static int name_unit(TrProof *t, int v, int why) {
    if (why >= 0 && t->length[why] == 1) return hint_clause(t, why);
    t->unit_needed[v] = 1;
    return append(&t->hints, t->nclauses + v);
}

/* The hints of lemma `step`'s check: clause `first` (the conflict, or -1) and the reasons of the
 * literals `lits` and of theirs, down to the literals set before the check (trail places below
 * `top`), each named as its unit (and marked needed). Returns 0, or -2 when memory ran out. */
static int hint(TrProof *t, int step, int first, const int *lits, int n, int top) {
    int at = open_step(t, step, 0), seen = t->seen, depth = 0;
    if (at < 0 || (first >= 0 && hint_clause(t, first) < 0)) return -2;
    for (int k = 0; k < n; k++)
        if (t->var_seen[VAR(lits[k])] != seen) {
            t->var_seen[VAR(lits[k])] = seen;
            assert(depth < t->nvars);         /* each variable once per check: var_seen */
            t->stack[depth++] = VAR(lits[k]);
        }
    while (depth > 0) {
        int v = t->stack[--depth], why = t->reason[v];
        if (t->position[v] < top) {
            if (name_unit(t, v, why) < 0) return -2;
            continue;
        }
        if (why < 0 || t->clause_seen[why] == seen) continue;
        if (hint_clause(t, why) < 0) return -2;
        for (int k = 0; k < t->length[why]; k++) {
            int u = VAR(t->lits[t->start[why] + k]);
            if (t->var_seen[u] != seen) {
                t->var_seen[u] = seen;
                assert(depth < t->nvars);
                t->stack[depth++] = u;
            }
        }
    }
    t->hints.items[at + 1] = t->hints.size - at - 2;
    return 0;
}

/* The hints of the units named, last to first on the forward trail (`trail`, `reason`: as the
 * forward pass left them; `before`: the trail's length before each of the `added` lemmas): a
 * unit's hints are its reason and the units of the reason's other literals, which are set
 * before it and so come after it here. Returns 0, or -2 when memory ran out. */
static int units(TrProof *t, const int *trail, const int *reason, int length, const int *before, int added) {
    int j = added;                                /* lemmas added before trail[p] was set */
    for (int p = length - 1; p >= 0; p--) {
        while (j > 0 && before[j - 1] > p) j--;
        int lit = trail[p], why = reason[VAR(lit)];
        if (!t->unit_needed[VAR(lit)]) continue;
        int at = open_step(t, -1 - p, 2);
        if (at < 0 || hint_clause(t, why) < 0) return -2;
        t->hints.items[at + 2] = lit;
        t->hints.items[at + 3] = j;
        for (int k = 0; k < t->length[why]; k++) {
            int u = VAR(t->lits[t->start[why] + k]);
            if (u != VAR(lit) && name_unit(t, u, reason[u]) < 0) return -2;
        }
        t->hints.items[at + 1] = t->hints.size - at - 4;
    }
    return 0;
}

/* The forward pass: the formula, then the lemmas until propagation finds a conflict, the
 * trail's length before each lemma in before[]. Returns the conflict's clause (-1 if none, -2
 * when memory ran out, -3 when the stop check said stop); *added is the number of lemmas added,
 * or, with no conflict, the index of the empty clause that propagation did not justify (the
 * number of lemmas when there is none). */
static int forward(TrProof *t, int nformula, int *before, int *added) {
    int conflict = -1;
    t->limit = nformula;
    for (int c = 0; c < nformula && conflict < 0; c++) {
        if (t->tautology[c]) continue;
        if (t->length[c] == 0) conflict = c;
        else if (t->length[c] >= 2 && (watch(t, t->lits[t->start[c]], c) < 0
                                      || watch(t, t->lits[t->start[c] + 1], c) < 0)) return -2;
    }
    for (int c = 0; c < nformula && conflict < 0; c++) {
        if (t->length[c] != 1) continue;
        int lit = t->lits[t->start[c]];
        if (VALUE(t, lit) == -1) conflict = c;
        else if (VALUE(t, lit) == 0) assign(t, lit, c);
    }
    if (conflict < 0) conflict = propagate(t);
    int j = 0;
    for (; conflict == -1 && nformula + j < t->nclauses; j++) {
        int c = nformula + j;
        if (stop_asked(t->stop)) return -3;
        before[j] = t->ntrail;
        if (t->length[c] == 0) break;         /* the empty clause, and propagation has no conflict */
        t->limit = c + 1;
        conflict = add(t, c);
        if (conflict == -1) conflict = propagate(t);
    }
    *added = j;
    return conflict;
}

/* Check lemma c (number `step` among the lemmas) by reverse unit propagation against the active
 * clauses (the trail is their fixpoint): assign its literals false, propagate, and mark what
 * the conflict uses, giving it as the lemma's hints. Returns 1
 * when it follows, 0 when it does not, -2 when memory ran out. */
static int check(TrProof *t, int c, int step) {
    int top = t->ntrail, n = t->length[c], k = 0, follows = 1;
    const int *lits = t->lits + t->start[c];
    for (; k < n && VALUE(t, lits[k]) != 1; k++)
        if (VALUE(t, lits[k]) == 0) assign(t, -lits[k], -1);
    if (k < n) {                                  /* a literal already true: its reasons suffice */
        analyse(t, lits + k, 1, top);
        if (hint(t, step, -1, lits + k, 1, top) < 0) follows = -2;
    } else {
        int found = propagate(t);
        if (found < 0) follows = found == -1 ? 0 : -2;
        else {
            t->used[found] = 1;
            analyse(t, t->lits + t->start[found], t->length[found], top);
            if (hint(t, step, found, t->lits + t->start[found], t->length[found], top) < 0) follows = -2;
        }
    }
    cut(t, top);
    return follows;
}

int tr_run(TrProof *t, int nformula) {
    int nlemmas = t->nclauses - nformula, added = 0, result = TR_OK;
    assert(nformula >= 0 && nformula <= t->nclauses && t->start[t->nclauses] == t->nlits);
    for (int c = 0; c < t->nclauses; c++) assert(t->start[c] <= t->start[c + 1]);
    int *stamp = calloc(2 * (size_t)t->nvars + 2, sizeof *stamp);
    int *before = calloc((size_t)nlemmas + 1, sizeof *before);
    if (!stamp || !before) { free(stamp); free(before); return TR_NO_MEMORY; }
    tidy(t, stamp);
    for (int v = 0; v <= t->nvars; v++) t->reason[v] = -1;
    int conflict = forward(t, nformula, before, &added), length = t->ntrail;
    int *trail = malloc(((size_t)length + 1) * sizeof *trail), *reason = malloc(((size_t)t->nvars + 1) * sizeof *reason);
    if ((!trail || !reason) && conflict != -3) conflict = -2;
    else {                                        /* the forward trail, for the units' hints */
        memcpy(trail, t->trail, (size_t)length * sizeof *trail);
        memcpy(reason, t->reason, ((size_t)t->nvars + 1) * sizeof *reason);
    }
    if (conflict == -2) result = TR_NO_MEMORY;
    else if (conflict == -3) result = TR_STOPPED;
    else if (conflict == -1) result = added < nlemmas ? added : TR_NO_CONFLICT;
    else {
        t->used[conflict] = 1;
        analyse(t, t->lits + t->start[conflict], t->length[conflict], t->ntrail);
        if (hint(t, nlemmas, conflict, t->lits + t->start[conflict], t->length[conflict], t->ntrail) < 0)
            result = TR_NO_MEMORY;
    }
    for (int j = added - 1; j >= 0 && result == TR_OK; j--) {   /* the backward pass */
        assert(before[j] <= t->ntrail);     /* the trail only grew after lemma j was added */
        cut(t, before[j]);
        t->limit = nformula + j;
        if (!t->used[nformula + j]) continue;
        if (stop_asked(t->stop)) { result = TR_STOPPED; break; }
        int follows = check(t, nformula + j, j);
        if (follows <= 0) result = follows == 0 ? j : TR_NO_MEMORY;
    }
    if (result == TR_OK && units(t, trail, reason, length, before, added) < 0) result = TR_NO_MEMORY;
    free(trail);
    free(reason);
    free(stamp);
    free(before);
    return result;
}
