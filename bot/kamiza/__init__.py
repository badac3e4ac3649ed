"""KAMIZA in Discord: its commands, table messages and private menus (found through `spec`)."""
