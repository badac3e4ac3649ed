"""Discord side of the table runtime, shared by every game: buttons, replies, messages."""
