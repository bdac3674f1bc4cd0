"""Campaigns leaving and entering stores: the export file (:mod:`.export_file`), importing one
(:mod:`.importing`) and copying every campaign from one store to another (:mod:`.migration`)."""
