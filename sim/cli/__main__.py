"""``python -m sim.cli``."""

from sim.cli import run

run()
