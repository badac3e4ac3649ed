"""Shared test configuration.

pytest imports this file in its default "prepend" mode, which puts `tests/` on `sys.path`: test
modules anywhere below import the fake Discord server as `fakediscord`.
"""
