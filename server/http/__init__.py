"""The HTTP API under ``/api`` and the operational endpoints (health, metrics, schema)."""
