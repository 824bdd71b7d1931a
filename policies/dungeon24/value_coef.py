"""Coefficients of ``expectimax``'s Dungeon24 value (``policies.dungeon24.search``): written by
``benchmarks/fit_dungeon24_value.py``, do not edit by hand (rerun it after changing the features).

Fitted on 305,761 positions (every 3rd turn) of 2,000 games per pairing of peoples
and policy pair (heuristic vs heuristic, exact-exchange vs heuristic, heuristic vs exact-exchange),
default rules, seed 2427, ridge 1.0. Held out (seed 2428, 75,324 positions): log-loss 0.5885
(a constant: 0.6927), the winner called right 67.2 % of the time.
"""

COEF = (
    1.10337,  # intercept
    0.181216,  # mover lp
    0.375416,  # mover log_lp
    0.267306,  # mover cards
    0.321734,  # mover cards_av
    -0.0652188,  # mover wins
    2.01144,  # mover ability
    0.665412,  # mover charges_blut
    -0.0847235,  # mover charges_auf
    0.446312,  # mover charge_progress
    0.310887,  # mover blut_dice
    0.139425,  # mover auf_fallen
    0.307031,  # other lp
    -0.673225,  # other log_lp
    0.0819201,  # other cards
    -1.02892,  # other cards_av
    0.0570744,  # other wins
    -1.8005,  # other ability
    -1.07043,  # other charges_blut
    -0.183507,  # other charges_auf
    -0.566496,  # other charge_progress
    0.159062,  # other blut_dice
    -0.30625,  # other auf_fallen
)
