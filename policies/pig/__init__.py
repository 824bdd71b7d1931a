"""Pig's policies (``bots.py``)."""
