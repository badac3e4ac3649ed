"""What every game's pictures share: the bundled font, colours checked for contrast, and the
final standings card."""
