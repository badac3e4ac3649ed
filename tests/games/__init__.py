"""Games that exist only in the tests (`highcard`): they prove the game registry's plug-in path."""
