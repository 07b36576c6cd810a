//! An engine running as a child process: lines to its standard input, lines from its standard
//! output read by a thread of their own (so a silent engine can be waited for with a
//! deadline), the last lines of its standard error kept for error messages.

use super::settings::ExternalSpec;
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to start and to answer a set-up command.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// Why an external engine lost a game (or could not start).
#[derive(Clone, Debug, PartialEq)]
pub enum EngineFailure {
    /// The process could not be started.
    Spawn(String),
    /// The process ended (or closed its output).
    Exited(String),
    /// No answer within the allowed time.
    TimedOut {
        waited: Duration,
        waiting_for: String,
    },
    /// An answer that breaks the protocol.
    Protocol(String),
    /// A move that is not legal in the position.
    IllegalMove(String),
}

impl fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFailure::Spawn(m) => write!(f, "could not start: {m}"),
            EngineFailure::Exited(m) => write!(f, "exited: {m}"),
            EngineFailure::TimedOut {
                waited,
                waiting_for,
            } => write!(
                f,
                "no {waiting_for} within {:.1} s (lost on time)",
                waited.as_secs_f64()
            ),
            EngineFailure::Protocol(m) => write!(f, "protocol error: {m}"),
            EngineFailure::IllegalMove(m) => write!(f, "illegal move: {m}"),
        }
    }
}

/// Lines of standard error kept for messages.
const STDERR_LINES: usize = 4;

/// Longest line accepted from an engine (a runaway engine must not exhaust memory).
const MAX_LINE: usize = 64 * 1024;

/// A running engine. Dropping it kills the process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Disconnects when the standard error reader has seen the end of the pipe.
    stderr_done: Receiver<()>,
}

impl EngineProcess {
    /// Starts `spec`'s command line in its working directory.
    pub fn start(spec: &ExternalSpec) -> Result<EngineProcess, EngineFailure> {
        let (program, args) = spec
            .argv
            .split_first()
            .ok_or_else(|| EngineFailure::Spawn("empty command line".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineFailure::Spawn(match &spec.dir {
                Some(d) => format!("{program} (in {}): {e}", d.display()),
                None => format!("{program}: {e}"),
            })
        })?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        if tx
                            .send(line.trim_end_matches(['\r', '\n']).to_string())
                            .is_err()
                        {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = stderr.clone();
        let (stderr_tx, stderr_done) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _done = stderr_tx;
            for line in BufReader::new(stderr_pipe).lines() {
                let Ok(line) = line else { break };
                let mut q = kept.lock().unwrap_or_else(|e| e.into_inner());
                if q.len() == STDERR_LINES {
                    q.pop_front();
                }
                q.push_back(line);
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            stderr,
            stderr_done,
        })
    }

    /// Sends one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let r = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        r.map_err(|e| self.exited(&format!("cannot write to it ({e})")))
    }

    /// The next line of output, waiting at most until `deadline`.
    pub fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        started: Instant,
    ) -> Result<String, EngineFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineFailure::TimedOut {
                waited: started.elapsed(),
                waiting_for: waiting_for.to_string(),
            }),
            Err(RecvTimeoutError::Disconnected) => {
                Err(self.exited(&format!("while {waiting_for} was awaited")))
            }
        }
    }

    /// A failure saying how the process ended, with the last lines of its standard error.
    fn exited(&mut self, context: &str) -> EngineFailure {
        // The output closing usually means the process is ending: give it a moment.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let how = match status {
            Some(s) => match s.code() {
                Some(c) => format!("exit code {c}"),
                None => format!("{s}"),
            },
            None => "closed its output".to_string(),
        };
        if status.is_some() {
            // Let the reader catch the last words of a process that has just ended.
            let _ = self.stderr_done.recv_timeout(Duration::from_millis(200));
        }
        let err: Vec<String> = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect();
        if err.is_empty() {
            EngineFailure::Exited(format!("{how} {context}"))
        } else {
            EngineFailure::Exited(format!("{how} {context}; stderr: {}", err.join(" | ")))
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Closing stdin lets a well-behaved engine quit; the kill covers the others.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
