"""Event stores behind one narrow contract (:mod:`server.store.base`)."""
