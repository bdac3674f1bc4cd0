"""Campaigns leaving and entering stores: the export file written (:mod:`.writing`) and read
(:mod:`.reading`), importing one (:mod:`.importing`) and copying every campaign from one store to
another (:mod:`.migration`, :mod:`.verification`)."""
