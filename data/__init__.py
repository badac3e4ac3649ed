"""The ledger: every game as its log, with seasons, results and ratings."""
