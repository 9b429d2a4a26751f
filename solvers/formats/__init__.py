"""Models written out for other solvers and tools: the CNF every SAT path reads (`cnf`), and the
exports (DIMACS, MiniZinc, OPB, ...) of `queens export`, and the cell numbering
the solvers search in (`cell_order`). Pure translations: no search here."""
