"""The SQLite store: schema, migrations, and the queries that move model data in and out."""

from codecairn.store.store import Store, database_path

__all__ = ["Store", "database_path"]
