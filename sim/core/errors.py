"""The user error every part of dicesim raises: one ``error:`` line on the command line, exit code 2.

Its own module, with nothing imported, so that the command line's first checks (the game registry, the options,
the limits of ``sim.core.limits``) refuse a bad input without importing pydantic (``sim.core.config`` re-exports it).
"""

from contextvars import ContextVar


class DicesimError(Exception):
    """A user error: reported as one ``error:`` line with exit code 2."""

    exit_code = 2


class Unreached(DicesimError):
    """A search that played and found no answer (a target its field cannot reach): the input was good, so the
    ``error:`` line exits with 1, as ``tune`` does when it ends outside a target's tolerance."""

    exit_code = 1


# Set by the command line (``sim.cli.main``): its refusals name its flags (``--players``); a notebook's call of
# ``sim.api`` names the keyword arguments instead (``players``), see ``sim.api``.
COMMAND_LINE: ContextVar[bool] = ContextVar("dicesim_command_line", default=False)
