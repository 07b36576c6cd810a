//! WTHOR bytes: game files and name files; records replay without panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::formats::wthor::{read_players, read_tournaments, read_wtb, write_wtb};

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = read_wtb(data) {
        assert_eq!(write_wtb(&file), data);
        for g in &file.games {
            let _ = g.replay();
        }
    }
    let _ = read_players(data);
    let _ = read_tournaments(data);
});
