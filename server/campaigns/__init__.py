"""Campaigns: the command path every edge calls (:mod:`.service`), the one owner of cached heads
(:mod:`.repository`) and what a head derives (:mod:`.head`), rebuilding past states
(:mod:`.history`), decision points (:mod:`.points`), how events are stored (:mod:`.codec`), seat
tokens, new ids and seeds, the spectator delay's rule and the timelines kept per campaign."""
