"""Pure game rules for tabletale: no I/O, no clock, no ``random``.

``domain.core`` holds what every game shares (seeded chance, the campaign-level events,
errors, the game contract and the replay fold); each game is a package beside it.

The domain's values (states, actions, events, views, legal actions) are frozen structs that hold
no list, dict or set, so none can be part of a reference cycle; each is declared ``gc=False``,
out of Python's cycle collector. A server keeps thousands of them alive for a moment (every
campaign's latest state and legal actions), and a collector that walked them all at each young
collection stalled the event loop for tens of milliseconds (docs/performance.md). Content and
options that hold dicts stay tracked. ``tests/domain/test_values.py`` keeps the rule.
"""
