"""Event stores: the event recorder and the indexes kept beside each stream
(:mod:`server.store.contract`), met by the memory, SQLite and Redis adapters."""
