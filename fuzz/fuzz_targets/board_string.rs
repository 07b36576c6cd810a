//! Board strings: what parses must print and re-parse to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = text.parse::<Position>() {
        assert_eq!(p.to_string().parse::<Position>().expect("printed boards parse"), p);
    }
});
