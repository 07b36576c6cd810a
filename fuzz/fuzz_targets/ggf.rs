//! GGF files: what parses must be written and read back unchanged, and replay without panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::formats::ggf::{read_ggf, write_ggf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(games) = read_ggf(&text) {
        assert_eq!(read_ggf(&write_ggf(&games)).expect("written GGF reads"), games);
        for g in &games {
            let _ = g.replay();
        }
    }
});
