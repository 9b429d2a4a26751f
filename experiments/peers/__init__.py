"""Peers: the same puzzles written the way their own users write them (CPMpy, MiniZinc,
OR-Tools' example), run side by side with the suite's backends by experiments/bench_peers.py."""
