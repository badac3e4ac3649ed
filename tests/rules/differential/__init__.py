"""Differential fixture of the rules engine: seeded logs and today's judgement of each."""
