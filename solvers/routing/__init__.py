"""Choosing how to answer: the strategies (one way of answering each: a backend's search, split
counting, the native counters, the construction, ...), their registry, and the router that asks
them in the measured order. A strategy reads a puzzle's structure, never its name."""
