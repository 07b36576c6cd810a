//! The `show`, `replay` and `bench perft` subcommands: output and exit codes (a closed output pipe too).

use crate::common::{stdout, virada};

#[test]
fn show_a_transcript_and_a_board() {
    let o = virada(&["show", "1.", "f5", "2.", "d6", "3.", "c3"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("White to move; legal moves (*): d3 f3 f4 g5"),
        "{out}"
    );
    assert!(
        out.contains("Black (X) 5 discs, White (O) 2 discs"),
        "{out}"
    );
    let start = "---------------------------OX------XO--------------------------- X";
    let o = virada(&["show", start]);
    assert!(stdout(&o).contains("legal moves (*): d3 c4 f5 e6"));
    // A wipe-out: game over with the WOF score.
    let wiped = format!("{}{} O", "X".repeat(13), "-".repeat(51));
    let o = virada(&["show", &wiped]);
    let out = stdout(&o);
    assert!(
        out.contains("Game over: Black wins 64-0 (WOF score; discs 13-0)"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_and_says_where() {
    let o = virada(&["show", "f5d6x3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("column 5"));
    let o = virada(&["replay", "/no/such/file.ggf"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn replay_reports_the_first_illegal_move() {
    let o = virada(&["replay", "f5d6c3d3c4"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("5 plies: f5d6c3d3c4"));
    let dir = std::env::temp_dir().join(format!("virada-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("two.ggf");
    std::fs::write(
        &path,
        "(;GM[Othello]B[f5]W[d6];)\n(;GM[Othello]B[f5]W[f5];)\n",
    )
    .unwrap();
    let o = virada(&["replay", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("2 games, 1 legal"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("game 2, ply 2"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_perft_checks_counts() {
    let o = virada(&["bench", "perft", "--depth", "5,6", "--backend", "all"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("perft 6 (Portable, 1 thread): 8200 leaves [ok]"),
        "{out}"
    );
    let o = virada(&["bench", "perft", "--depth", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A reader that stops early (`virada ... | head`) ends the command quietly with 141, the
/// status a shell gives a process killed by SIGPIPE, both for `println!` output and for output
/// written with `writeln!`; no panic report.
#[test]
fn closed_stdout_ends_quietly() {
    for args in [
        &["puzzles", "stats"][..],
        &["puzzles", "export", "--format", "obf"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = std::process::Command::new(crate::common::VIRADA)
            .args(args)
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("the virada binary runs");
        let err = crate::common::stderr(&out);
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}
