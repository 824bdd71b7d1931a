"""The game-agnostic engine: batches of runs, backends, random streams, dice multisets, statistics, configs, event
logs, per-run schemas, the skill model, the compare loop, cache folders.
"""
