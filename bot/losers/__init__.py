"""Rights of Losers in Discord: the field picture and the names of cells and spots."""
