"""Eila's rules 2, frozen: the rules package as it stood at the last commit of ``eila/2+content.1``
(1e8a292), kept so that campaigns of that ruleset play on exactly as they did.

Between rules 2 and 3 the rules grew an effect stack, combat, quizzes and markets, and the state
its fields for them: too wide a change for version switches in today's rules (1,800 lines of
rules and a state of another shape). So this copy stands apart, imports only ``domain.core`` and
itself, and is never edited but for a fix that must reach its campaigns too (docs/releases.md).
Its content is ``packs/1``.
"""

FROZEN = "1e8a292"
"""The commit this copy was taken from: checks of house style that came later pass it by."""
