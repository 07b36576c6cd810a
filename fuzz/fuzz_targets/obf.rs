//! OBF files: what parses must be written and read back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::formats::obf::{read_obf, write_obf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(entries) = read_obf(&text) {
        assert_eq!(read_obf(&write_obf(&entries)).expect("written OBF reads"), entries);
    }
});
