"""The DuckDB warehouse: tables written whole, the write lock, the read-only SQL door, settings."""
