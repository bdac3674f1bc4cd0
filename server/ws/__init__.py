"""WebSocket endpoints: the play session and the replay stream."""
