"""The ``tabletale`` command line and its tools: serve, play, simulate, replay, bench, content.

It sits above everything else: it may use the server, the clients, the projections and the
domain, and nothing imports it.
"""
