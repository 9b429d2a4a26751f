"""Answers you can check: DRUP proofs of "no" and of optima (`unsat_proof`, `proof_steps`), the
certificates that carry them (`certificate`), and "why not?" (`why`: a smallest set of givens
with no solution)."""
