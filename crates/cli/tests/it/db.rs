//! `virada db migrate` and `virada db copy` as real processes on SQLite files, and
//! `virada serve` with its standard output closed (`virada serve | head -1`).

use crate::common::{scratch_dir, stderr, stdout, virada, VIRADA};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
fn migrate_says_from_which_version_to_which_and_refuses_a_newer_file() {
    let dir = scratch_dir("db_migrate");
    let db = dir.join("games.sqlite");
    let db_text = db.to_str().unwrap();
    let first = virada(&["db", "migrate", "--db", db_text]);
    assert!(first.status.success(), "{}", stderr(&first));
    let said = stdout(&first);
    let version: i64 = said
        .trim()
        .strip_prefix(&format!("{db_text}: schema version 0 -> "))
        .unwrap_or_else(|| panic!("{said}"))
        .parse()
        .unwrap();
    assert!(version >= 6, "{said}");
    assert!(db.is_file());
    let again = virada(&["db", "migrate", "--db", db_text]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(
        stdout(&again).trim(),
        format!("{db_text}: schema version {version}, already this build's")
    );
    // A file from a newer virada: exit code 1, and the reason in words.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "INSERT INTO schema_migrations VALUES (?1, 0)",
            [version + 1],
        )
        .unwrap();
    let newer = virada(&["db", "migrate", "--db", db_text]);
    assert_eq!(newer.status.code(), Some(1));
    let e = stderr(&newer);
    assert!(e.contains("newer than this program"), "{e}");
    assert!(!e.contains("panicked"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn copy_moves_every_table_and_refuses_a_full_target() {
    let dir = scratch_dir("db_copy");
    let (a, b) = (dir.join("a.sqlite"), dir.join("b.sqlite"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    assert!(virada(&["db", "migrate", "--db", a]).status.success());
    let done = virada(&["db", "copy", "--from", a, "--to", b]);
    assert!(done.status.success(), "{}", stderr(&done));
    let said = stdout(&done);
    assert!(said.contains(&format!("copied {a} to {b}")), "{said}");
    for table in [
        "games",
        "online_games",
        "online_chat",
        "puzzle_results",
        "rows",
    ] {
        assert!(
            said.lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == [table, "0"]),
            "{table} in {said}"
        );
    }
    // b holds no rows yet, so a second copy goes through; a missing source does not.
    let missing = dir.join("missing.sqlite");
    let e = virada(&["db", "copy", "--from", missing.to_str().unwrap(), "--to", b]);
    assert_eq!(e.status.code(), Some(1));
    assert!(stderr(&e).contains("no such file"), "{}", stderr(&e));
    let same = virada(&["db", "copy", "--from", a, "--to", a]);
    assert_eq!(same.status.code(), Some(1));
    assert!(stderr(&same).contains("same database"), "{}", stderr(&same));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_with_its_output_closed_runs_and_stops_without_a_panic() {
    let dir = scratch_dir("serve_closed_stdout");
    let db = dir.join("games.sqlite");
    // The read end is closed before the server writes a line: every write to stdout fails
    // with a broken pipe, as in `virada serve | head -0`.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(VIRADA)
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1", "--db"])
        .arg(&db)
        .env("RUST_LOG", "info")
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The log (standard error) says when it listens.
    let mut log = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if log.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen.push_str(&line);
        if line.contains("listening") {
            break;
        }
    }
    assert!(seen.contains("listening"), "{seen}");
    // Still running: it did not die on the closed pipe.
    assert!(child.try_wait().unwrap().is_none(), "{seen}");
    let stopped = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut log, &mut rest).unwrap();
    seen.push_str(&rest);
    assert!(!seen.contains("panicked"), "{seen}");
    assert!(status.success(), "{status:?}: {seen}");
    let _ = std::fs::remove_dir_all(&dir);
}
