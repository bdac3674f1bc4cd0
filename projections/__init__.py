"""Read models over a campaign's events: views, redacted logs, timeline, catalog, statistics.

Every projection here is a pure function of the events (and the game that reads them), so any of
them can be thrown away and rebuilt from the streams.
"""
