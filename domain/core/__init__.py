"""The engine core shared by every game."""
