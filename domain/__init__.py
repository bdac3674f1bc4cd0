"""Pure game rules for tabletale: no I/O, no clock, no ``random``.

``domain.core`` holds what every game shares (seeded chance, the campaign-level events,
errors, the game contract and the replay fold); each game is a package beside it.
"""
