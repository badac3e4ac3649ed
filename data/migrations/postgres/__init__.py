"""PostgreSQL's text of the numbered migrations: the same steps as `data/migrations`, in its SQL.

The version is the one row of `ledger_schema`; applied by `data.pgdb.migrate`.
"""
