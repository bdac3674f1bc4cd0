"""Eila's rules: ``evolve`` applies an event, ``flow`` runs the automatic steps between choices,
``legal`` lists the choices and ``decide`` turns one into events."""
