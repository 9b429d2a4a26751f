"""The explorer in headless Chromium: its page and its search pane, one explorer and one browser for both."""
