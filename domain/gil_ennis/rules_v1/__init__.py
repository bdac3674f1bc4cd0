"""Gil & Ennis's rules 1, frozen: the rules package as it stood at the last commit of
``gil-ennis/1`` (05bae9d), kept so that campaigns of that ruleset play on exactly as they did.

Rules 2 changed the set-up, the PITCH order and the draws, and the state and events with them,
and the engine moved to keyed chance at the same time: so this copy stands apart, imports only
``domain.core`` and itself, and draws from the generator of its time
(:mod:`domain.core.rng_unkeyed`: the import of ``Chance`` and ``Rng`` is its one edit besides the
import paths). Its content is ``packs/1``, the same files as ``gil-ennis/2+content.1``.
"""

FROZEN = "05bae9d"
"""The commit this copy was taken from: checks of house style that came later pass it by."""
