"""One module per CLI command; `queens.cli` registers them."""
