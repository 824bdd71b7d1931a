"""Real players in the loop (issue 32): decision logs, the skill fit of a player population, regret.

- ``logs``: reading and writing decision logs and outcome tables (parquet or CSV), the checks shared by games;
- ``kniffel``: Kniffel's log (the recorder over the replay kernel, the checks of each row's state and choice) and
  the exact value of every alternative of every logged decision (``kniffel_values``: its jitted half);
- ``fit``: the lapse + softmax model's likelihood of each choice, per player and per population, mixtures by BIC;
- ``regret``: the points each decision cost against the optimum, by kind;
- ``page``: ``fit.html``; ``run``: the ``dicesim fit`` work (files written atomically).
"""
