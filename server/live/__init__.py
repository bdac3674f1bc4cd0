"""The one delivery to sockets: the hub (:mod:`.hub`) keeps a table per watched campaign
(:mod:`.table`) and sends every change, live or behind the table (:mod:`.audience`), through the
fan-out (:mod:`.fanout`), with the messages built in :mod:`.builders`; the spectator delay's view
(:mod:`.spectators`); who is connected (:mod:`.presence`); frames built once per format, outboxes
and the drain, and the wire's framing."""
