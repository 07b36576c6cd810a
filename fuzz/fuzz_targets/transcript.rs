//! Transcripts: parse any text; what parses must print and re-parse to itself and replay
//! without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virada_rules::formats::transcript::Transcript;
use virada_rules::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = text.parse::<Transcript>() {
        let again: Transcript = t.to_string().parse().expect("printed transcripts parse");
        assert_eq!(again, t);
        let _ = t.replay(Position::start());
    }
});
