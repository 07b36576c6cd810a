//! `virada match` against external engines: Virada through NBoard against Virada through GTP
//! (both protocols end to end), and small broken engines (shell scripts) that play an illegal
//! move, exit, or hang, and lose by forfeit while the match goes on.

use crate::common::{scratch_dir, VIRADA};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use virada_rules::formats::ggf::read_ggf;

/// A fresh directory for one match test.
fn temp_dir(name: &str) -> PathBuf {
    scratch_dir(&format!("match-{name}"))
}

fn run(args: &[&str]) -> (Output, String) {
    let o = Command::new(VIRADA).args(args).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    (o, out)
}

/// The three numbers of the report's "A wins W  draws D  losses L" line.
fn wdl(report: &str) -> (usize, usize, usize) {
    let line = report
        .lines()
        .find(|l| l.starts_with("A wins "))
        .unwrap_or_else(|| panic!("{report}"));
    let n: Vec<usize> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

fn games(path: &Path) -> Vec<virada_rules::formats::ggf::GgfGame> {
    read_ggf(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn virada_over_nboard_against_virada_over_gtp() {
    let dir = temp_dir("protocols");
    let ggf = dir.join("games.ggf");
    let nboard = format!("nboard:{VIRADA} nboard --threads 1 --tt-mb 4");
    let gtp = format!("gtp:{VIRADA} gtp --level 6 --threads 1 --tt-mb 4");
    let (o, report) = run(&[
        "match",
        "--a",
        &nboard,
        "--a-tc",
        "depth=3,game=300",
        "--b",
        &gtp,
        // A game clock: time_settings, then time_left before each genmove.
        "--b-tc",
        "game=300,inc=1",
        "--games",
        "2",
        "--threads",
        "2",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (w, d, l) = wdl(&report);
    assert_eq!(w + d + l, 2, "{report}");
    assert!(!report.contains("forfeits"), "{report}");
    assert!(report.contains("time used: A "), "{report}");
    let records = games(&ggf);
    assert_eq!(records.len(), 2);
    for (i, r) in records.iter().enumerate() {
        let game = r.replay().unwrap();
        assert!(game.is_over(), "game {i} was played to the end");
        // Colours swap between the two games of the opening.
        let (black, white) = if i == 0 {
            (&nboard, &gtp)
        } else {
            (&gtp, &nboard)
        };
        assert_eq!(r.tag("PB"), Some(black.as_str()));
        assert_eq!(r.tag("PW"), Some(white.as_str()));
        let d = game
            .result()
            .unwrap()
            .difference_for(virada_rules::Color::Black);
        assert_eq!(r.tag("RE"), Some(format!("{d:+}").as_str()));
        assert_eq!(r.tag("C"), None);
    }
    assert_eq!(records[0].moves[..8], records[1].moves[..8], "same opening");
}

/// Runs a two-game match of the script `name` (`protocol`) as A against a one-ply Virada, in
/// the script's directory; returns the report and the GGF records.
fn forfeit_match(
    protocol: &str,
    name: &str,
    script: &str,
    tc: &str,
) -> (String, Vec<virada_rules::formats::ggf::GgfGame>) {
    let dir = temp_dir(name);
    std::fs::write(dir.join(name), script).unwrap();
    let ggf = dir.join("games.ggf");
    let a = format!("{protocol}:sh {name}");
    let (o, report) = run(&[
        "match",
        "--a",
        &a,
        "--a-dir",
        dir.to_str().unwrap(),
        "--a-tc",
        tc,
        "--b",
        "depth=1,exact=0",
        "--games",
        "2",
        "--threads",
        "1",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(wdl(&report), (0, 0, 2), "{report}");
    (report, games(&ggf))
}

/// Both games are lost by A with `reason` recorded in the report and the GGF file.
fn check_forfeits(report: &str, records: &[virada_rules::formats::ggf::GgfGame], reason: &str) {
    let lines: Vec<&str> = report.lines().filter(|l| l.contains("forfeits:")).collect();
    assert_eq!(lines.len(), 2, "{report}");
    assert!(
        lines[0].starts_with("game 1 (opening 1): A (Black) forfeits: "),
        "{report}"
    );
    assert!(
        lines[1].starts_with("game 2 (opening 1): A (White) forfeits: "),
        "{report}"
    );
    assert!(
        lines.iter().all(|l| l.contains(reason)),
        "{reason:?} in {report}"
    );
    assert_eq!(records.len(), 2);
    assert_eq!(
        records[0].tag("RE"),
        Some("-64"),
        "A had Black and forfeited"
    );
    assert_eq!(
        records[1].tag("RE"),
        Some("+64"),
        "A had White and forfeited"
    );
    for r in records {
        assert!(r.tag("C").unwrap().contains(reason), "{:?}", r.tag("C"));
        // The record holds the moves up to the forfeit, all legal.
        let g = r.replay().unwrap();
        assert!(!g.is_over());
    }
}

#[test]
fn an_engine_playing_an_illegal_move_forfeits() {
    // Answers every GTP command with success, and every genmove with a1 (never legal early).
    let script = r#"
while read -r cmd rest; do
  case "$cmd" in
    genmove) printf '= A1\n\n' ;;
    quit) printf '= \n\n'; exit 0 ;;
    *) printf '= \n\n' ;;
  esac
done
"#;
    let (report, records) = forfeit_match("gtp", "illegal.sh", script, "move=1");
    check_forfeits(&report, &records, "illegal move: a1");
}

#[test]
fn an_engine_that_exits_forfeits() {
    // Speaks enough NBoard for the handshake, then exits when asked to move.
    let script = r#"
while read -r cmd arg rest; do
  case "$cmd" in
    ping) echo "pong $arg" ;;
    go) echo "out of memory" >&2; exit 3 ;;
  esac
done
"#;
    let (report, records) = forfeit_match("nboard", "exits.sh", script, "depth=2");
    check_forfeits(&report, &records, "exited: exit code 3");
    assert!(
        report.contains("out of memory"),
        "stderr is quoted: {report}"
    );
}

#[test]
fn an_engine_that_hangs_forfeits_on_time() {
    let script = r#"
while read -r cmd arg rest; do
  case "$cmd" in
    ping) echo "pong $arg" ;;
    go) exec sleep 600 ;;
  esac
done
"#;
    let (report, records) = forfeit_match("nboard", "hangs.sh", script, "move=0.2,timeout=0.5");
    check_forfeits(&report, &records, "lost on time");
}

#[test]
fn an_engine_that_cannot_start_is_an_error() {
    let (o, _) = run(&[
        "match",
        "--a",
        "gtp:/no/such/engine --gtp",
        "--b",
        "depth=1",
        "--games",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("could not start: /no/such/engine"), "{err}");
    let (o, _) = run(&[
        "match", "--a", "depth=1", "--a-tc", "move=1", "--b", "depth=1",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
