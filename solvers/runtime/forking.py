"""Whether this process may start processes of its own: the one question every part that forks asks.

A daemonic process (a `multiprocessing.Pool`'s worker, the explorer's solver processes) is
ended by multiprocessing when its parent ends, so multiprocessing refuses it children that
would then be left orphaned: `Process.start` raises "daemonic processes are not allowed to
have children". The explorer's *complete* of peaceable queens n >= 8 answered HTTP 500 with
it, and `queens.optimise` called in a `multiprocessing.Pool` worker crashed the same way (the
sat backend's cube and conquer starts a pool). So whatever starts processes asks `may_fork`
first, and when the answer is no it does the same work in this process:

- `queens.solvers.runtime.process_pool.run_in_processes` runs the jobs one after another here;
- `queens.solvers.backends.cube_and_conquer.conquer` solves the cubes on one solver here;
- `queens.solvers.proofs.proof_steps.check_steps` checks every step here;
- `queens.solvers.routing.race` starts no racers (the router's measured order answers);
- `queens.solvers.runtime.deadline_child.call_until` still forks where the kernel kills its
  child with it (Linux: `dies_with_parent`), the one guarantee multiprocessing asks of a
  daemonic process's children; elsewhere it calls in this process.

>>> may_fork()
True
"""

from __future__ import annotations

import multiprocessing


def may_fork(*, dies_with_parent: bool = False) -> bool:
    """Whether this process may start a child: always, unless it is daemonic; a daemonic one
    only a child that dies with it (`dies_with_parent`), which cannot be left orphaned."""
    return dies_with_parent or not multiprocessing.current_process().daemon
