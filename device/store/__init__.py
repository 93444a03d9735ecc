"""The store: the journal (the truth), its head record, the ledger that replays it into a game, the
past games told from it, salvage of a damaged one, and the registered cards."""
