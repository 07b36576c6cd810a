//! Every line of the XOT lists replays to 12 discs with Black to move and prints back unchanged.

use virada_rules::formats::xot::{read_xot, write_xot};
use virada_rules::Color;

#[test]
fn xot_lists_replay() {
    let Some(dir) = virada_testdata::dir("xot") else {
        return;
    };
    for (name, want) in [("xot-large.txt", 10_784), ("xot-small.txt", 3_623)] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let list = read_xot(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(list.len(), want, "{name}");
        for o in &list {
            let p = o.position();
            assert_eq!(p.black().count() + p.white().count(), 12, "{o}");
            assert_eq!(p.side_to_move(), Color::Black, "{o}");
            assert!(!p.legal_moves().is_empty(), "{o}");
        }
        let normalised: String = text.lines().map(|l| format!("{}\n", l.trim())).collect();
        assert_eq!(write_xot(&list), normalised, "{name}");
    }
}
