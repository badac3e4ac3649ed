"""Numbered SQL migrations: NNNN_name.sql, applied in order; the version is PRAGMA user_version."""
