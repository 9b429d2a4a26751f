"""Imported by the explorer's fork server before it forks a solver process (multiprocessing's
forkserver preload names modules, and runs nothing else): importing this module warms the
server up (`queens.web.api.warm_up`: every backend's library loaded, each backend made once),
so that each solver process forked from it starts warm (`queens.web.workers._fork_server`)."""

from queens.web.api import warm_up

warm_up()
