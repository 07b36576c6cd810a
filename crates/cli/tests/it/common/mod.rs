//! What the CLI's integration tests share: running the real `virada` binary once, talking to it
//! line by line as a protocol child process, and scratch directories.
//!
//! Each test file is its own crate and uses only part of this module, hence the `dead_code`
//! allowance.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The binary under test.
pub const VIRADA: &str = env!("CARGO_BIN_EXE_virada");

/// Generous: only there so a broken engine fails the test instead of hanging it.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `virada args` to its end.
pub fn virada(args: &[&str]) -> Output {
    Command::new(VIRADA)
        .args(args)
        .output()
        .expect("the virada binary runs")
}

/// A run's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A run's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty directory under the system temp dir, unique to this process and call.
pub fn scratch_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("virada-{name}-{}-{nanos}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `virada <args>` as a child process spoken to line by line (GTP, NBoard). Its output is read
/// by a thread into a channel, so a reply can be awaited with a timeout.
pub struct Session {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    pub fn start(args: &[&str]) -> Session {
        let mut child = Command::new(VIRADA)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("virada {args:?} starts: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    /// Writes one line to the child.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The child's next output line (panics after the timeout).
    pub fn line(&mut self) -> String {
        self.lines
            .recv_timeout(REPLY_TIMEOUT)
            .expect("a reply line within the timeout")
    }

    /// Closes the child's input (end of file) and hands back the process to wait for.
    pub fn end_input(self) -> Child {
        drop(self.stdin);
        self.child
    }
}

/// A deterministic playout from the start that contains a forced pass, and the ply of the
/// first pass (after ply 20, with moves after it).
pub fn game_with_a_pass() -> (virada_rules::Game, usize) {
    for seed in 1u64.. {
        let mut g = virada_rules::Game::new();
        let mut x = seed;
        while !g.is_over() {
            if g.pass_if_forced() {
                continue;
            }
            let moves: Vec<_> = g.position().legal_moves().iter().collect();
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.play(virada_rules::Move::Play(
                moves[(x >> 33) as usize % moves.len()],
            ))
            .unwrap();
        }
        if let Some(p) = g
            .moves()
            .iter()
            .position(|m| *m == virada_rules::Move::Pass)
        {
            if p > 20 && p + 3 < g.ply() {
                return (g, p);
            }
        }
    }
    unreachable!()
}

/// Starts `virada serve --addr 127.0.0.1:0 --workers 1 <args>` with `RUST_LOG=info` and its
/// standard error written to `log`; returns the child and the URL from its first line
/// (`listening on http://host:port`). A child that says anything else fails the test with its log.
pub fn serve(args: &[&str], log: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(VIRADA)
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .args(args)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("virada starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| {
            panic!(
                "virada serve said {first:?}: {}",
                std::fs::read_to_string(log).unwrap_or_default()
            )
        })
        .to_string();
    (child, url)
}
