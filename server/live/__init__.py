"""The one delivery to sockets: the hub (:mod:`.hub`) sends every change, live or behind the
table, through the spectator delay's view (:mod:`.spectators`); who is connected
(:mod:`.presence`); frames built once per format, outboxes and the drain, and the wire's framing."""
