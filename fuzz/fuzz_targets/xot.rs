//! XOT lists: what parses must be written and read back unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::formats::xot::{read_xot, write_xot};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(list) = read_xot(&text) {
        assert_eq!(read_xot(&write_xot(&list)).expect("written XOT reads"), list);
    }
});
