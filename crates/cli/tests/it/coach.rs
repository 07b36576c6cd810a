//! The coach through the binary: `analyze --game` numbers moves as a move list and prints the
//! explanations (its `--json` is the API's analysis object), and `bench coach` reports its
//! coverage table on WTHOR games.

use crate::common::{stdout as out, virada};
use std::process::Output;

/// From the start, Black's 8th move b7 is an X-square next to the empty a8, which White can
/// then take at once (found by a seeded random playout).
const GAME: &str = "d3c3b3f4f3e3f6c6f5c5b5e6d6a3b7";

fn review(extra: &[&str]) -> Output {
    let mut args = vec![
        "analyze",
        "--game",
        "--depth",
        "6",
        "--exact",
        "10",
        "--threads",
        "1",
        "--book",
        "off",
    ];
    args.extend_from_slice(extra);
    args.push(GAME);
    virada(&args)
}

#[test]
fn analyze_game_explains_the_x_square_in_both_languages() {
    let o = review(&[]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    let row = text
        .lines()
        .find(|l| l.contains("8. b7"))
        .unwrap_or_else(|| panic!("Black's 8th move is labelled 8.: {text}"));
    assert!(row.contains("blunder"), "{row}");
    assert!(
        text.contains("1... c3"),
        "White's first move is 1...: {text}"
    );
    assert!(
        text.contains("b7 is an X-square next to the empty corner a8"),
        "{text}"
    );
    assert!(
        text.contains("b7 lets White take the corner a8 at once"),
        "{text}"
    );
    let pt = out(&review(&["--lang", "pt"]));
    assert!(
        pt.contains("b7 é uma casa X ao lado do canto vazio a8"),
        "{pt}"
    );
}

#[test]
fn analyze_game_json_is_the_api_object() {
    let o = review(&["--json"]);
    assert_eq!(o.status.code(), Some(0));
    let json = out(&o);
    assert!(json.starts_with("{\"complete\":"), "{json}");
    // The last ply: number 8, Black, with the x_square explanation and its squares.
    let last = json
        .rsplit("{\"ply\":15,")
        .next()
        .expect("ply 15 is judged");
    assert!(
        last.starts_with("\"number\":8,\"color\":\"black\",\"move\":\"b7\""),
        "{last}"
    );
    assert!(
        last.contains(
            "{\"kind\":\"x_square\",\"squares\":[\"b7\",\"a8\"],\"numbers\":{},\"line\":[]"
        ),
        "{last}"
    );
    assert!(last.contains("\"pt\":\"b7 é uma casa X"), "{last}");
}

#[test]
fn bench_coach_reports_coverage_and_kinds() {
    let Some(dir) = virada_testdata::dir("wthor") else {
        return;
    };
    let data = dir
        .parent()
        .expect("wthor/ has a parent")
        .to_string_lossy()
        .into_owned();
    let o = virada(&[
        "bench",
        "coach",
        "--data",
        &data,
        "--games",
        "2",
        "--seed",
        "3",
        "--depth",
        "4",
        "--exact",
        "8",
        "--threads",
        "1",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = out(&o);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    for threshold in ["2+ discs", "4+ discs"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(threshold))
            .unwrap_or_else(|| panic!("{threshold}: {text}"));
        let n: Vec<usize> = row
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        // mistakes, explained: never more explained than mistakes.
        assert!(n.len() >= 2 && n[1] <= n[0], "{row}");
    }
    for kind in ["mobility", "corner_given", "exact_loss", "wipeout_risk"] {
        assert!(text.lines().any(|l| l.starts_with(kind)), "{kind}: {text}");
    }
    let o = virada(&["bench", "coach", "--data", "/nonexistent", "--games", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fewer than the 2 asked"));
}
