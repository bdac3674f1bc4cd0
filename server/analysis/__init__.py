"""Where did it turn: a campaign's analysis (:mod:`domain.analysis`) served. Each decision point
is estimated in the bot workers from what its seat knew, kept in the store as it is computed,
and read back by whoever may see it; a turning point can be tried out in a fork."""
