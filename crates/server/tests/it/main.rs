//! The server's integration tests, one binary: each module was its own test binary, and each
//! linked the whole server (28 links of the same library); one binary links it once.
//! The test kit first (`kit/`: servers, browsers, accounts, games, arenas, stored rows), then one
//! module per feature.

mod kit;

mod accounts;
mod api;
mod arena;
mod book_and_names;
mod bots;
mod clock_stall;
mod computer_clock;
mod db_copy_api;
mod deploy_proxies;
mod engine_queue;
mod explorer;
mod fair_engine;
mod findings;
mod first_move;
mod instances;
mod layers;
mod lessons;
mod live;
mod live_streams;
mod lobby;
mod online;
mod online_clock;
mod online_idle;
mod ownership_limits;
mod practice;
mod probes;
mod profiles;
mod puzzles;
mod rated;
mod rated_integrity;
mod records;
mod retention;
mod safety;
mod social;
mod store_errors;
mod wthor;
