"""Models written out for other solvers and tools: the CNF every SAT path reads (`cnf`), and the
exports (DIMACS, MiniZinc, OPB, ...) of `queens export`. Pure translations: no search here."""
