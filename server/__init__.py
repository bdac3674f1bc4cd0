"""The tabletale server: campaign service, event stores, HTTP and WebSocket API, CLI."""
