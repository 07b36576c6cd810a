//! Every statement of both stores, written once (PostgreSQL's spelling, `$n` parameters) and
//! run through [`super::exec::Db`] on either database, one module a feature.

pub mod accounts;
pub mod arenas;
pub mod feeding;
pub mod games;
pub mod online;
pub mod practice;
pub mod profiles;
pub mod puzzles;
pub mod safety;
pub mod watch;
