"""Running long work safely: deadlines (a forked child killed on time), worker processes,
signals (`interrupts`), progress reports, the ledger of finished subproblems, and the cores
this process may use. Imports nothing of the package but the models: every other room uses it."""
