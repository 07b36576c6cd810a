//! `virada book ...` end to end through the real binary: a tiny build, its info, show, check,
//! add, fix, the Edax export read back, and a damaged file refused with a clear error.

use crate::common::virada;
use std::path::{Path, PathBuf};
use std::process::Output;

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ok(args: &[&str]) -> String {
    let o = virada(args);
    assert_eq!(o.status.code(), Some(0), "virada {args:?}: {}", text(&o));
    text(&o)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("virada-cli-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn build_inspect_convert_and_refuse_damage() {
    let dir = scratch("all");
    let book = dir.join("b.vbk");
    let build = [
        "book",
        "build",
        "--out",
        s(&book),
        "--depth",
        "2",
        "--max-ply",
        "4",
        "--threads",
        "2",
    ];
    let out = ok(&build);
    assert!(out.contains("Complete after"), "{out}");
    assert!(dir.join("b.vbk.journal").exists());
    // Running it again resumes from the journal: nothing is searched.
    let again = ok(&build);
    assert!(again.contains(" 0 searches ("), "{again}");

    let info = ok(&["book", "info", s(&book)]);
    assert!(info.contains("start value"), "{info}");
    assert!(info.contains("depth=2"), "{info}");

    let show = ok(&["book", "show", "--book", s(&book), "f5d6"]);
    assert!(show.contains("1. f5"), "{show}");
    assert!(show.contains("book value"), "{show}");
    assert!(show.contains("(book line)"), "{show}");

    let check = ok(&[
        "book",
        "check",
        s(&book),
        "--sample",
        "3",
        "--depth",
        "3",
        "--threads",
        "2",
    ]);
    assert!(check.contains("negamax: consistent"), "{check}");
    assert!(check.contains("3 positions searched to depth 3"), "{check}");

    // A game line added: its positions become book positions.
    let games = dir.join("games.txt");
    std::fs::write(&games, "# one game\nf5f6e6f4g6c5\n").unwrap();
    let before = info_positions(&book);
    let add = ok(&[
        "book",
        "add",
        s(&book),
        s(&games),
        "--depth",
        "2",
        "--max-ply",
        "6",
        "--threads",
        "1",
    ]);
    assert!(add.contains("1 games"), "{add}");
    assert!(info_positions(&book) > before);
    let show = ok(&["book", "show", "--book", s(&book), "f5f6e6f4g6c5"]);
    assert!(!show.contains("out of book"), "{show}");
    assert!(ok(&["book", "fix", s(&book)]).contains("0 were inconsistent"));

    // Edax's format out and back in.
    let edax = dir.join("book.dat");
    ok(&[
        "book",
        "export",
        s(&book),
        "--out",
        s(&edax),
        "--format",
        "edax",
    ]);
    let back = dir.join("back.vbk");
    let import = ok(&["book", "import", s(&edax), "--out", s(&back)]);
    assert!(
        import.contains(&format!("{} positions", info_positions(&book))),
        "{import}"
    );

    // A damaged file: refused, saying what and where.
    let mut bytes = std::fs::read(&book).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    let bad = dir.join("bad.vbk");
    std::fs::write(&bad, &bytes).unwrap();
    let o = virada(&["book", "info", s(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o);
    assert!(err.contains("bad.vbk") && err.contains("corrupt"), "{err}");
    let o = virada(&["book", "info", s(&games)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not a book file"), "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn info_positions(book: &Path) -> usize {
    let info = ok(&["book", "info", s(book)]);
    let line = info.lines().find(|l| l.starts_with("positions ")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}
