"""Bot policies, one module per game. Importing ``sim`` first sets up the compiled-kernel cache."""

import sim  # noqa: F401
