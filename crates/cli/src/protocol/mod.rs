//! Virada as an engine for other programs: the NBoard protocol (`virada nboard`) and the Go
//! Text Protocol subset Othello tools use (`virada gtp`), on standard input and output.
//! See docs/PROTOCOLS.md.

pub mod gtp;
pub mod nboard;
pub mod nboard_depth;
mod nboard_worker;

use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where replies go: one writer shared by the command loop and the search thread, each line
/// written whole and flushed at once (GUIs read pipes line by line and wait for each).
#[derive(Clone)]
pub struct Output {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            out: Arc::new(Mutex::new(out)),
        }
    }

    /// Standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes `text` and a newline, and flushes. A closed pipe is ignored: the GUI has gone,
    /// and the end of standard input will end the session.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|()| out.flush());
    }

    /// Writes `text` as it is (several lines at once, e.g. a GTP reply and its blank line).
    pub fn raw(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }
}

/// A disc value for a protocol: two decimals, never NaN or infinite.
pub fn disc_value(v: f32) -> String {
    let v = if v.is_finite() {
        v.clamp(-64.0, 64.0)
    } else {
        0.0
    };
    // Avoid "-0.00".
    let s = format!("{v:.2}");
    if s == "-0.00" {
        "0.00".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_always_numbers() {
        assert_eq!(disc_value(1.234), "1.23");
        assert_eq!(disc_value(-0.001), "0.00");
        assert_eq!(disc_value(f32::NAN), "0.00");
        assert_eq!(disc_value(f32::INFINITY), "0.00");
        assert_eq!(disc_value(-99.0), "-64.00");
    }
}
