"""Comparisons of backends: the main job, benchmarks, and (later) specs, runner and reports."""
