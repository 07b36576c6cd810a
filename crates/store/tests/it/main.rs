//! The store's integration tests, one binary: one conformance suite run on both stores (SQLite
//! always; PostgreSQL when `VIRADA_TEST_PG` names one, and failing under CI when it does not),
//! the accounts' part of it, and the copy between the two stores (`virada db copy`).

#[macro_use]
mod store_common;

mod cluster;
mod db_copy;
mod store;
mod store_accounts;
