"""Balance findings: detectors that read the simulator's tables and a game's config and say, in one sentence each,
what a designer should look at (a seat advantage, a dominant or trap option, an economy loop, unused content, a
degenerate strategy, a difficulty cliff, runaway stacking), with the measured value, its interval, the evidence and
a ``dicesim replay`` line that shows a run where it happens.

One module per detector family; ``runner`` runs them; ``config`` holds the thresholds (``[findings]``); ``page``
renders the dashboard's section. Nothing here names a finding of a game: every one comes from tables and configs.
"""
