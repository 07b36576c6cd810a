//! Progress bars with an ETA on stderr, for every long training step.
//!
//! On a terminal the bar redraws in place at most 4 times a second; when stderr is a file or a
//! pipe it prints one line every 10 seconds instead, so logs stay readable.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A shareable progress counter (`&self` methods, safe to use from worker threads).
pub struct Progress {
    label: String,
    total: u64,
    done: AtomicU64,
    start: Instant,
    last_draw: Mutex<Instant>,
    tty: bool,
    quiet: bool,
}

/// `1h02m`, `3m05s` or `12s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

impl Progress {
    /// A bar for `total` units of work.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        let now = Instant::now();
        Progress {
            label: label.into(),
            total: total.max(1),
            done: AtomicU64::new(0),
            start: now,
            last_draw: Mutex::new(now - Duration::from_secs(60)),
            tty: std::io::stderr().is_terminal(),
            quiet: std::env::var_os("VIRADA_QUIET").is_some(),
        }
    }

    /// Adds `n` finished units and redraws if it is time.
    pub fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        let interval = if self.tty {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(10)
        };
        if let Ok(mut last) = self.last_draw.try_lock() {
            if last.elapsed() >= interval {
                *last = Instant::now();
                self.draw(done, false);
            }
        }
    }

    /// Units done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Time since the bar was created.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Draws the final state and ends the line.
    pub fn finish(&self) {
        self.draw(self.done(), true);
    }

    fn draw(&self, done: u64, last: bool) {
        if self.quiet {
            return;
        }
        let frac = (done as f64 / self.total as f64).min(1.0);
        let elapsed = self.start.elapsed();
        let eta = if frac > 0.0 && !last {
            let rest = elapsed.as_secs_f64() * (1.0 - frac) / frac;
            format!(" ETA {}", format_duration(Duration::from_secs_f64(rest)))
        } else {
            String::new()
        };
        let width = 30;
        let filled = (frac * width as f64) as usize;
        let bar: String = (0..width)
            .map(|i| if i < filled { '#' } else { '-' })
            .collect();
        let line = format!(
            "{} [{bar}] {:5.1}% {done}/{} elapsed {}{eta}",
            self.label,
            frac * 100.0,
            self.total,
            format_duration(elapsed)
        );
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
            if last {
                let _ = writeln!(err);
            }
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(format_duration(Duration::from_secs(5)), "5s");
        assert_eq!(format_duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(format_duration(Duration::from_secs(3720)), "1h02m");
    }

    #[test]
    fn counts_from_threads() {
        let p = Progress::new("test", 1000);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..250 {
                        p.inc(1);
                    }
                });
            }
        });
        assert_eq!(p.done(), 1000);
    }
}
