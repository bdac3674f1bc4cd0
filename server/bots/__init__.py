"""Bots at the table: bot seats, the driver that plays them, and hints.

See docs/bots-at-the-table.md.
"""
