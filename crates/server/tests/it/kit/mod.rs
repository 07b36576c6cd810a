//! The test kit of the server's integration tests: what the feature modules share, outside the
//! server's public API.
//!
//! - `online`: the main test server (port 0, manual clock, a database of its own), browsers,
//!   WebSocket clients and the waits on a socket's messages;
//! - `http`: a server driven by cookie-keeping `reqwest` clients (the plain API tests);
//! - `accounts`: sign-up and sign-in, requests that keep the session cookie;
//! - `games`: moves on a game's sockets (a move each, resigning);
//! - `rated`: two accounts, a rated game between them, ratings and records as profiles show them;
//! - `arena`: an arena with N players, its socket and the waits on its standings;
//! - `rows`: what a server stored, read with plain SQL on either database.

pub mod accounts;
pub mod arena;
pub mod games;
pub mod http;
pub mod online;
pub mod rated;
pub mod rows;
