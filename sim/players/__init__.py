"""Real players in the loop (issue 32): decision logs, the skill fit of a player population, regret.

- ``schema``: what a log's columns are and which games are fitted how (light: the command line checks a log's
  header before the game loads; ``<game>_columns``: each game's columns);
- ``logs``: reading and writing logs (parquet or CSV), the column checks shared by games, errors naming the row;
- ``kniffel``, ``dadox``: each game's decision log (the recorder over its replay kernel, the checks of each row's
  state and choice) and the exact value of every alternative of every decision (``kniffel_values``,
  ``dadox_values``: their jitted halves, kept apart from the play kernels);
- ``dungeon``: the Würfel Dungeon's outcome log and its fit by the rooms cleared (no action values there);
- ``dungeon24``: Dungeon24's decision log (the board rebuilt from each run's events) and its fit by the result and
  the exchanges won; ``outcomes``: the fit by outcome histograms both share; ``dungeon_rows``, ``dungeon24_rows``:
  their outcome rows checked against the rules (light: ``dicesim fit`` refuses a bad row before the game loads);
- ``fit``: the lapse + softmax model's likelihood of each choice, per player and per population, mixtures by BIC;
- ``regret``: the points each decision cost against the optimum, by kind;
- ``page``: ``fit.html``; ``run``: the work of ``dicesim fit`` and ``play --log`` (files written atomically).
"""
