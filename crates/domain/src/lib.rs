//! # virada-domain
//!
//! What a game of Virada is beyond the board (the rules crate) and the engine: the game record
//! and its mode, seats, clocks and offers of an online game (`model`), Glicko-2 categories and
//! what a finished rated game means (`rating`), the computer levels' ratings (`bots`), which characters a name or chat line may hold
//! (`user_text`), the levels' names (`level_text`), and the JSON shapes the API answers with and
//! `virada analyze` prints (`view`, `analysis`, `export`).
//!
//! Pure values and functions: no async runtime, no HTTP, no SQL. The server (its actors,
//! routes and stores) and the command line build on it; it knows neither.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod arena;
pub mod bots;
pub mod dates;
pub mod export;
pub mod identity;
pub mod level_text;
pub mod model;
pub mod practice;
pub mod rating;
pub mod user_text;
pub mod view;

pub use identity::BrowserId;
