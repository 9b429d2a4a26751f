"""The local web explorer: `queens serve`, a board in the browser over a small JSON API."""
