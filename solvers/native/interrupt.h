/* Ctrl-C and SIGTERM during a native search.
 *
 * The searches run without the GIL, so Python's signal handler can only note a signal: the
 * KeyboardInterrupt it stands for waits until the search returns, which may be hours (a
 * `timeout 30 queens solve ...` still ran ten minutes later). A Poll lets a search take the GIL
 * back at most every POLL_SECONDS, at the points where it already looks at the clock, and run
 * Python's handlers (PyErr_CheckSignals): when one raises, the search unwinds as at a
 * deadline, and the binding returns NULL with the exception set, so `queens` exits 130.
 *
 * Only the main thread runs handlers; in any other thread the check costs a clock read and
 * the caller's own stop flag (classcount.c's `stop` buffer) is what ends the search.
 *
 *   Poll poll;
 *   poll_begin(&poll);                      instead of Py_BEGIN_ALLOW_THREADS
 *   ... if (poll_interrupted(&poll)) unwind; ...   at the search's clock points
 *   if (poll_end(&poll) < 0) return NULL;   instead of Py_END_ALLOW_THREADS
 */
#ifndef QUEENS_NATIVE_INTERRUPT_H
#define QUEENS_NATIVE_INTERRUPT_H

#include <Python.h>

#include "common.h"

#define POLL_SECONDS 0.05              /* the handlers run within this, plus one clock interval */

typedef struct {
    PyThreadState *saved;              /* this thread's state while the GIL is released */
    double next;                       /* when to look again */
    int interrupted;                   /* a handler raised: the exception is set */
} Poll;

static inline void poll_begin(Poll *p) {
    p->interrupted = 0;
    p->next = now_seconds() + POLL_SECONDS;
    p->saved = PyEval_SaveThread();
}

/* Called without the GIL; a NULL poll never stops (the fuzz drivers call the cores bare). */
static inline int poll_interrupted(Poll *p) {
    if (!p || p->interrupted) return p ? p->interrupted : 0;
    double now = now_seconds();
    if (now < p->next) return 0;
    p->next = now + POLL_SECONDS;
    PyEval_RestoreThread(p->saved);
    p->interrupted = PyErr_CheckSignals() < 0;
    p->saved = PyEval_SaveThread();
    return p->interrupted;
}

/* Takes the GIL back: -1 when the search was interrupted (the exception is set), else 0. */
static inline int poll_end(Poll *p) {
    PyEval_RestoreThread(p->saved);
    return p->interrupted ? -1 : 0;
}

#endif
