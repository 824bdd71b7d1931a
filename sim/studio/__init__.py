"""``dicesim studio``: a local web app to change config numbers and watch the balance move.

Modules, one job each: ``form`` (inputs generated from the config model), ``engine`` (the one
adapter to the engine), ``jobs`` (background runs with progress), ``saving`` (TOML and ``--set``
lines), ``form_view``/``results_view``/``app`` (the NiceGUI page). Only ``dicesim studio`` imports
the web library, so the other commands start as fast as before.
"""
