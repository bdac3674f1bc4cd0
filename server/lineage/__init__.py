"""A campaign's family: the tree of its forks and rewound stretches (:mod:`.tree`), who may see
which branches (:mod:`.family`), pages of it, and what a delayed campaign's spectators may see of
it (:mod:`.delayed`)."""
