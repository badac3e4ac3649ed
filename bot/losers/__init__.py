"""Rights of Losers in Discord: `/losers`, the table message with the field picture, the private
menus (cards, chip spots, builds, the winner's choice), and the names of cells and spots; the
game registry finds them through `spec`."""
