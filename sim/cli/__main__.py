"""``python -m sim.cli``."""

from sim.cli import main

main()
