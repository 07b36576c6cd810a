//! `virada nboard`: the NBoard engine protocol (version 2; version 1 accepted).
//!
//! The command loop reads standard input and keeps the game; searches run on the worker
//! thread ([`super::nboard_worker`]). `ping n` stops a running search, waits until its output
//! is written, then answers `pong n`, so a GUI never takes an old search's lines for the new
//! position. A command that changes the position (or the depth) first stops the running
//! search the same way; `go`, `hint`, `analyze` and `learn` wait for it to finish. Unknown or
//! malformed lines get a `status` line and change nothing.

use super::nboard_depth;
use super::nboard_worker::{self, Job, Task};
use super::Output;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use virada_engine::{Book, Engine, EngineConfig};
use virada_rules::formats::ggf::GgfGame;
use virada_rules::{Game, Move};

/// The name GUIs show.
pub const ENGINE_NAME: &str = "Virada";

struct Session {
    out: Output,
    game: Game,
    depth: u32,
    config: EngineConfig,
    book: Option<&'static Book>,
    tasks: Sender<Task>,
    /// The running job's stop flag and its completion signal.
    running: Option<(Arc<AtomicBool>, Receiver<()>)>,
}

/// Runs a session on `input` until `quit` or the end of input. In positions of `book`, `go`
/// plays the book's best move without searching and `hint` answers with `book` lines.
pub fn serve(input: impl BufRead, out: Output, config: EngineConfig, book: Option<&'static Book>) {
    let tasks = spawn_worker(&config, book, &out);
    let mut s = Session {
        out,
        game: Game::new(),
        depth: nboard_depth::DEFAULT_DEPTH,
        config,
        book,
        tasks,
        running: None,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !s.command(line.trim()) {
            break;
        }
    }
    s.stop_and_wait();
}

fn spawn_worker(config: &EngineConfig, book: Option<&'static Book>, out: &Output) -> Sender<Task> {
    let (tx, rx) = mpsc::channel();
    let mut engine = Engine::new(config.clone());
    engine.set_book(book);
    let out = out.clone();
    std::thread::spawn(move || nboard_worker::run(engine, rx, out));
    tx
}

impl Session {
    /// Stops the running job (if any) and waits until it has written its output.
    fn stop_and_wait(&mut self) {
        if let Some((stop, _)) = &self.running {
            stop.store(true, Ordering::Relaxed);
        }
        self.wait_idle();
    }

    /// Waits until the running job (if any) has finished and written its output.
    fn wait_idle(&mut self) {
        if let Some((_, done)) = self.running.take() {
            // An error means the worker is gone; there is nothing left to wait for.
            let _ = done.recv();
        }
    }

    fn status(&self, text: &str) {
        self.out.line(&format!("status {text}"));
    }

    /// Handles one line; `false` ends the session.
    fn command(&mut self, line: &str) -> bool {
        if line.is_empty() {
            return true;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "ping" => {
                self.stop_and_wait();
                self.out.line(&format!("pong {rest}"));
            }
            "quit" => return false,
            "nboard" => {
                self.stop_and_wait();
                match rest {
                    "1" | "2" => {}
                    v => self.status(&format!(
                        "NBoard protocol version {v:?} is not known; speaking version 2"
                    )),
                }
                self.out.line(&format!("set myname {ENGINE_NAME}"));
            }
            "set" => self.set(rest),
            "move" => {
                self.stop_and_wait();
                self.play(rest);
            }
            "go" => self.start(Job::Go),
            "hint" => match rest
                .split_whitespace()
                .next()
                .unwrap_or("1")
                .parse::<usize>()
            {
                Ok(n) if n >= 1 => self.start(Job::Hint(n)),
                _ => self.status(&format!("hint needs a number of moves, not {rest:?}")),
            },
            "analyze" => self.start(Job::Analyze),
            "learn" => {
                self.wait_idle();
                self.status(
                    "Virada does not learn from NBoard: its book grows with virada book add; the game was not stored",
                );
                self.out.line("learned");
            }
            // Protocol version 1 GUIs send a move on its own ("F5").
            _ if cmd.len() == 2 && rest.is_empty() && cmd.parse::<Move>().is_ok() => {
                self.stop_and_wait();
                self.play(cmd);
            }
            _ => self.status(&format!("unknown command ignored: {line}")),
        }
        true
    }

    fn set(&mut self, rest: &str) {
        let (what, value) = match rest.split_once(char::is_whitespace) {
            Some((w, v)) => (w, v.trim()),
            None => (rest, ""),
        };
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(d) if d >= 1 => {
                    self.stop_and_wait();
                    self.depth = d.min(nboard_depth::MAX_DEPTH);
                    self.out
                        .line(&format!("set myname {ENGINE_NAME} d{}", self.depth));
                }
                _ => self.status(&format!(
                    "set depth needs a depth of 1 or more, not {value:?}"
                )),
            },
            "game" => match value
                .parse::<GgfGame>()
                .map_err(|e| e.to_string())
                .and_then(|g| g.replay().map_err(|e| e.to_string()))
            {
                Ok(game) => {
                    self.stop_and_wait();
                    self.game = game;
                }
                Err(e) => self.status(&format!("set game ignored, the position is unchanged: {e}")),
            },
            // Accepted and not used: Virada plays for the disc count, a draw is worth 0.
            "contempt" => match value.parse::<f64>() {
                Ok(c) if c.is_finite() => {}
                _ => self.status(&format!("set contempt needs a number, not {value:?}")),
            },
            _ => self.status(&format!("unknown setting ignored: set {rest}")),
        }
    }

    /// `move <mv>[/eval[/time]]`: plays it, or says why not and changes nothing.
    fn play(&mut self, text: &str) {
        let mv_text = text.split('/').next().unwrap_or("").trim();
        let mv = match mv_text.parse::<Move>() {
            Ok(mv) => mv,
            Err(e) => return self.status(&format!("move ignored: {e}")),
        };
        let mut next = self.game.clone();
        // A GUI may leave out a forced pass: the rules imply it.
        if mv != Move::Pass {
            next.pass_if_forced();
        }
        match next.play(mv) {
            Ok(()) => self.game = next,
            Err(e) => self.status(&format!(
                "move {mv_text} ignored, the position is unchanged: {}",
                e.reason
            )),
        }
    }

    /// Starts `job` on the current position once the running one (if any) has finished: a
    /// search is only cut short by `ping` or by a change of position.
    fn start(&mut self, job: Job) {
        self.wait_idle();
        let stop = Arc::new(AtomicBool::new(false));
        let (done_tx, done_rx) = mpsc::channel();
        let mut task = Task {
            job,
            game: self.game.clone(),
            limits: nboard_depth::limits(self.depth),
            stop: stop.clone(),
            done: done_tx,
        };
        if let Err(mpsc::SendError(t)) = self.tasks.send(task) {
            // The search thread died (it should not): start a new one and retry once.
            self.status("the search thread had stopped; restarted it");
            self.tasks = spawn_worker(&self.config, self.book, &self.out);
            task = t;
            if self.tasks.send(task).is_err() {
                return;
            }
        }
        self.running = Some((stop, done_rx));
    }
}
