"""The Würfel Dungeon's options (imported by the game and, without the game, by the command line)."""

from sim.games.options import Option

# the game's policy names for --help without importing the game (tests/test_answers_cli.py: the game's own)
POLICY_NAMES = ('vorschlag', 'greedy', 'expectimax', 'random', 'rollout')
DIFFICULTIES = ("leicht", "normal", "schwer")  # layout.DIFFICULTIES, in its order (checked by the game at import)
OPTIONS = (Option("difficulty", "leicht", str, "Würfel Dungeon: leicht | normal | schwer", DIFFICULTIES,
                  words={"leicht": "Leicht", "normal": "Normal", "schwer": "Schwer"}),)  # as the rules write them
