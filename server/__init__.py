"""The tabletale server in layers (``docs/architecture.md``): the edges over the rooms they share,
the live delivery, the campaigns and the store."""
