"""Tools for learners: the search replayed as data (`trace`), how often each cell is used
(`heat_map`). Written to be read; never on a fast path, never picked by the router unasked."""
