//! The integration tests of `tavern`: one binary, one module per area.

// Databases and temporary directories shared by the modules.
mod support;

// The storage suite on SQLite and PostgreSQL.
mod storage;
