//! Every subcommand that takes a position reads it with the one position reader: board strings
//! that start with `-` work as option and argument values, OBF lines are checked, transcripts
//! give the position after them, and bad boards are board errors. Runs the real binary.

use crate::common::{stdout as out, virada};
use std::io::Write;
use std::process::{Command, Output, Stdio};

const START: &str = "---------------------------OX------XO--------------------------- X";
/// FFO #1 (14 empties) with its published scores.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; \
                    G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The start with `a1` dropped: 63 squares and the side.
fn short_board() -> String {
    START[1..].to_string()
}

fn board_with_bad_b2() -> String {
    let mut b = START.to_string();
    b.replace_range(9..10, "Z");
    b
}

#[test]
fn perft_takes_a_board_starting_with_a_hyphen() {
    let o = virada(&["perft", "5", "--position", START]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("perft 5 = 1396"), "{}", out(&o));
    let o = virada(&["perft", "3", "--position", "f5d6"]);
    assert!(out(&o).contains("perft 3 = 122"), "{}", out(&o));
    let o = virada(&["perft", "3", "--position", &short_board()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("found 63"), "{}", err(&o));
}

#[test]
fn perft_warns_before_a_long_run() {
    // Depth 20 from a board with a single legal line is quick but passes the depth check.
    let almost_full = format!("{}{} X", "X".repeat(62), "-O");
    let o = virada(&["perft", "20", "--position", &almost_full]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(!err(&o).contains("warning"), "few empties: no warning");
    // An open position at a large depth is warned about before it starts; the run itself is
    // not waited for (the child is killed).
    let mut child = Command::new(env!("CARGO_BIN_EXE_virada"))
        .args(["perft", "16", "--position", START])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // One whole line (a single read may return only part of it).
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(line.starts_with("warning: perft 16"), "{line}");
}

#[test]
fn show_reads_every_kind() {
    let o = virada(&["show", START]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("legal moves (*): d3 c4 f5 e6"));
    let o = virada(&["show", "1. f5 d6 2. c3"]);
    assert!(
        out(&o).starts_with("numbered transcript (from the start), 3 moves: f5d6c3"),
        "{}",
        out(&o)
    );
    let o = virada(&["show", &format!("{START}; F5:+0;")]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = virada(&["show", "--start", START, "f5"]);
    assert!(out(&o).contains("White to move"), "{}", out(&o));
    let o = virada(&["show", &short_board()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("board string"), "{}", err(&o));
    let o = virada(&["show", &board_with_bad_b2()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("square b2: 'Z' is not X, O or -"),
        "{}",
        err(&o)
    );
}

#[test]
fn solve_checks_a_pasted_obf_line_and_sums_up() {
    let o = virada(&["solve", "--threads", "1", FFO1]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("best: g8  score: +18"), "{text}");
    assert!(text.contains("expected +18 (g8): OK"), "{text}");
    assert!(text.contains("(to the end of the game)"), "{text}");
    assert!(
        text.contains(
            "1 position solved, 1 complete, 1 checked against expected scores: all match"
        ),
        "{text}"
    );
    let wrong = FFO1.replace("G8:+18", "G8:+16");
    let o = virada(&["solve", "--threads", "1", &wrong]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("MISMATCH"), "{}", out(&o));
    // A bare board string starting with '-' and a transcript.
    let board = &FFO1[..66];
    let o = virada(&["solve", board, "--threads", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("board string: 14 empties"), "{}", out(&o));
    let o = virada(&["solve", &short_board()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("found 63"), "{}", err(&o));
}

#[test]
fn solve_numbers_file_positions_by_line() {
    let dir = std::env::temp_dir().join(format!("virada-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("one.obf");
    std::fs::write(&path, format!("% FFO #1\n\n{FFO1}\n")).unwrap();
    let o = virada(&["solve", "--threads", "1", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("one.obf line 3: 14 empties"), "{text}");
    assert!(text.contains("1 position solved"), "{text}");
    std::fs::write(&path, format!("{FFO1}\n{}\n", board_with_bad_b2())).unwrap();
    let o = virada(&["solve", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("line 2"), "{}", err(&o));
    assert!(err(&o).contains("square b2"), "{}", err(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn analyze_gives_the_moves_after_a_transcript_and_reviews_with_game() {
    let o = virada(&["analyze", "--depth", "2", "f5d6c3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("After 3 moves (transcript):"), "{text}");
    assert!(text.contains("White to move."), "{text}");
    for mv in ["d3", "f3", "f4", "g5"] {
        assert!(text.lines().any(|l| l.starts_with(mv)), "{mv}: {text}");
    }
    let o = virada(&["analyze", "--depth", "2", START, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("\"move\":\"d3\""), "{}", out(&o));
    let o = virada(&[
        "analyze", "--game", "--depth", "2", "--exact", "4", "f5d6c3",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.starts_with("ply  side   played"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.contains("Black  ")).count(),
        2,
        "{text}"
    );
    let o = virada(&["analyze", "--game", START]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--game reviews a game"), "{}", err(&o));
    let o = virada(&["analyze", &board_with_bad_b2()]);
    assert!(err(&o).contains("square b2"), "{}", err(&o));
}

#[test]
fn play_starts_from_a_position() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_virada"))
        .args(["play", "--two-players", "--position", START])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"f5\nundo\nundo\nquit\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("White to move>"), "{text}");
    assert!(text.contains("Nothing to undo."), "{text}");
    let o = virada(&["play", "--position", &short_board()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--position: board string"), "{}", err(&o));
    let o = virada(&["play", "--level", "0"]);
    assert_eq!(o.status.code(), Some(2));
}
