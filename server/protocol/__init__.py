"""The wire protocol's shapes: every HTTP and WebSocket message (:mod:`.messages`) and the OpenAPI
document built from the routes (:mod:`.openapi`); ``docs/protocol.md`` tells it in words."""
