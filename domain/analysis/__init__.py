"""Where did it turn: the chance of winning at every decision point of a campaign, the moves that
cost the most and the luck that did, estimated by the search bot from what each acting seat knew.

Pure like the rest of the domain: it reads a recorded stream (:mod:`.decisions`), plays sampled
worlds through the game contract (:mod:`.estimate`) and returns plain msgspec Structs
(:mod:`.report`) a caller may keep as a projection. No game imports it.
"""
