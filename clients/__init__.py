"""Thin clients of the tabletale wire protocol (see ``docs/protocol.md``).

They never know the rules: they show a view and the legal actions the server sends, and send back
the id of the action the player picked.
"""
