"""``dicesim studio``: a local web app to change config numbers and watch the balance move.

Modules, one job each: ``form`` (inputs generated from the config model), ``engine`` (the one
adapter to the engine), ``jobs`` (each page's queue of background runs, a server-wide cap),
``saving`` (TOML and ``--set`` lines, kept inside ``--out``), ``access`` (the token off loopback),
``form_view``/``results_view``/``app`` (the NiceGUI page). Only ``dicesim studio`` imports the web
library, so the other commands start as fast as before.
"""
