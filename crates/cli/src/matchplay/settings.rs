//! What plays one side of a match: our engine with some settings, a reference player without
//! search, or an external engine behind a protocol; and their text forms.

use super::control::TimeControl;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use virada_engine::levels::MAX_LEVEL;
use virada_engine::{default_evaluator, Book, BookUse, Gen3Eval, Level, Limits, Selectivity};
use virada_rules::{Board, Move, Square};

/// One side of a match, as given to `--a` / `--b`.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// Our engine in this process.
    Internal(PlayerSettings),
    /// Another program, started as a child process.
    External(ExternalSpec),
}

impl PlayerSpec {
    /// Parses `gtp:<command line>`, `nboard:<command line>`, or our own settings (see
    /// [`PlayerSettings`]). `dir` and `control` apply to external engines only.
    pub fn parse(
        text: &str,
        dir: Option<PathBuf>,
        control: Option<TimeControl>,
    ) -> Result<PlayerSpec, String> {
        let external = |protocol: Protocol, rest: &str| -> Result<PlayerSpec, String> {
            let argv = split_command_line(rest)?;
            if argv.is_empty() {
                return Err(format!("{protocol}: needs a command line after the colon"));
            }
            let control = control.clone().unwrap_or_default();
            if protocol == Protocol::Gtp && control.depth.is_some() {
                return Err("gtp: engines take no depth (use a time control, or the \
                            engine's own option on its command line)"
                    .into());
            }
            Ok(PlayerSpec::External(ExternalSpec {
                protocol,
                argv,
                dir: dir.clone(),
                control,
                label: text.to_string(),
            }))
        };
        if let Some(rest) = text.strip_prefix("gtp:") {
            return external(Protocol::Gtp, rest);
        }
        if let Some(rest) = text.strip_prefix("nboard:") {
            return external(Protocol::Nboard, rest);
        }
        if dir.is_some() || control.is_some() {
            return Err(
                "a working directory or time control is for external engines \
                        (gtp:... or nboard:...); our own engine takes time=, depth=, level="
                    .into(),
            );
        }
        text.parse().map(PlayerSpec::Internal)
    }

    /// The text it was given as (for reports and GGF player names).
    pub fn label(&self) -> &str {
        match self {
            PlayerSpec::Internal(s) => &s.label,
            PlayerSpec::External(e) => &e.label,
        }
    }
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Gtp,
    Nboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Gtp => "gtp",
            Protocol::Nboard => "nboard",
        })
    }
}

/// An external engine: how to start it and how long it may think.
#[derive(Clone, Debug)]
pub struct ExternalSpec {
    pub protocol: Protocol,
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Working directory of the child process (default: ours).
    pub dir: Option<PathBuf>,
    pub control: TimeControl,
    pub label: String,
}

/// Splits a command line into words: blanks separate words, `'...'` and `"..."` quote
/// (blanks kept), `\` escapes the next character outside single quotes.
///
/// ```text
/// assert_eq!(split_command_line("edax -q 'my dir/x'").unwrap(), ["edax", "-q", "my dir/x"]);
/// ```
pub fn split_command_line(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in command line {s:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(format!("unclosed \" in command line {s:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in command line {s:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Our engine's side of a match: a level, or explicit search limits, and an evaluation; or one
/// of two reference players without search.
///
/// Text form (comma-separated `key=value`): `level=N`, `depth=N`, `exact=N` (exact-solve
/// empties), `time=S` (seconds per move), `nodes=N`, `sel=P` (selectivity percent; by default
/// 73 for `time` or `nodes` without a depth, else 95), `eval=default` (the default
/// evaluation: the shipped gen3 weights, or the file `VIRADA_WEIGHTS` names), `eval=gen3` (the
/// shipped gen3 weights) or `eval=<file>.vpw` (a gen3 weights file, e.g. a new fit),
/// `book=on|off|T` (the opening book: `on` as the level uses it, which for settings without a
/// level is the book's best move; `off`; or a tolerance of `T` discs). Examples: `level=5`,
/// `depth=8,exact=14`, `time=0.2`, `eval=new-fit.vpw`.
/// `greedy` plays the move that flips the most discs (what someone who just learnt the rules
/// tends to do); `random` plays a uniformly random legal move. Both are seeded.
#[derive(Clone)]
pub struct PlayerSettings {
    /// Plays as this level (its mistakes included) when set; `limits` then override nothing.
    pub level: Option<Level>,
    pub limits: Limits,
    pub evaluator: Arc<Gen3Eval>,
    /// The text it was parsed from (for reports).
    pub label: String,
    /// A reference player without search, instead of the engine.
    pub reference: Option<Reference>,
    /// `book=off` or `book=T`: `None` for the level's own use of the book (without a level:
    /// none, or the book's best moves with `book=on`).
    pub book_use: Option<BookUse>,
    /// `book=on` was given.
    pub book_on: bool,
    /// The book the engine plays from (`virada match --book`; `None`: no book).
    pub book: Option<&'static Book>,
}

impl PlayerSettings {
    /// How this player uses the book: `book=` if given, else its level's, else not at all.
    pub fn effective_book_use(&self) -> BookUse {
        let default = if self.book_on {
            BookUse::BEST
        } else {
            BookUse::Ignore
        };
        self.book_use
            .or(self.level.map(|l| l.spec().book))
            .unwrap_or(default)
    }
}

/// Players without search, to anchor the level ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// The move flipping the most discs (ties broken at random).
    Greedy,
    /// A uniformly random legal move.
    Random,
}

/// A 64-bit mixer used as a seeded random number (deterministic across platforms).
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Reference {
    /// The move this player chooses on `board` (which has legal moves).
    pub fn choose(self, board: &Board, seed: u64) -> Move {
        let moves: Vec<Square> = board.legal_moves().iter().collect();
        let r = splitmix64(seed ^ board.hash());
        let pick = match self {
            Reference::Random => moves[(r % moves.len() as u64) as usize],
            Reference::Greedy => {
                let most = moves
                    .iter()
                    .map(|&m| board.flips(m).count())
                    .max()
                    .unwrap_or(0);
                let best: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|&m| board.flips(m).count() == most)
                    .collect();
                best[(r % best.len() as u64) as usize]
            }
        };
        Move::Play(pick)
    }
}

impl fmt::Debug for PlayerSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

impl FromStr for PlayerSettings {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerSettings, String> {
        let mut p = PlayerSettings {
            level: None,
            limits: Limits::default(),
            evaluator: default_evaluator(),
            label: s.to_string(),
            reference: None,
            book_use: None,
            book_on: false,
            book: Book::shipped(),
        };
        match s.trim() {
            "greedy" => p.reference = Some(Reference::Greedy),
            "random" => p.reference = Some(Reference::Random),
            _ => {}
        }
        if p.reference.is_some() {
            return Ok(p);
        }
        let (mut eval_file, mut mpc_file) = (None, None);
        for part in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{part}' is not key=value"))?;
            let num = |what: &str| -> Result<f64, String> {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("engine setting {key}: '{value}' is not a {what}"))
            };
            match key {
                "level" => {
                    let n = num("level 1-21")? as u8;
                    if !(1..=MAX_LEVEL).contains(&n) {
                        return Err(format!("engine setting level: {value} is not in 1-21"));
                    }
                    p.level = Some(Level(n));
                    p.limits = Level(n).limits();
                }
                "depth" => p.limits.depth = Some(num("depth")? as u32),
                "exact" => p.limits.exact_empties = Some(num("number of empties")? as u32),
                "time" => p.limits.time = Some(Duration::from_secs_f64(num("time in seconds")?)),
                "nodes" => p.limits.nodes = Some(num("node count")? as u64),
                "sel" => {
                    p.limits.selectivity = Some(Selectivity::from_percent(num("percent")? as u8))
                }
                "last" => {
                    let share = num("share of the move's time, 0 to 1")?;
                    if share > 1.0 {
                        return Err(format!("engine setting last: {value} is not in 0-1"));
                    }
                    p.limits.last_iteration_start = Some(share as f32);
                }
                "eval" => {
                    p.evaluator = parse_evaluator(value)?;
                    eval_file = value.ends_with(".vpw").then(|| value.to_string());
                }
                "mpc" => mpc_file = Some(value.to_string()),
                "book" => match value {
                    "on" => p.book_on = true,
                    "off" => p.book_use = Some(BookUse::Ignore),
                    _ => {
                        p.book_use = Some(BookUse::Within {
                            tolerance: num("tolerance in discs, on or off")? as f32,
                        })
                    }
                },
                _ => {
                    return Err(format!(
                        "unknown engine setting '{key}' (level, depth, exact, time, last, nodes, \
                         sel, eval, mpc, book; or gtp:<command> / nboard:<command> for another \
                         engine)"
                    ))
                }
            }
        }
        if let Some(mpc) = mpc_file {
            // A Multi-ProbCut table belongs to the weights it was fitted for: name them.
            let Some(weights) = eval_file else {
                return Err(format!(
                    "engine setting mpc={mpc} needs eval=FILE.vpw (the weights it was fitted for)"
                ));
            };
            let mut e = Gen3Eval::from_file(std::path::Path::new(&weights))
                .map_err(|e| format!("engine setting eval={weights}: {e}"))?;
            e.load_mpc_table(std::path::Path::new(&mpc))
                .map_err(|e| format!("engine setting mpc: {e}"))?;
            p.evaluator = Arc::new(e);
        }
        Ok(p)
    }
}

fn parse_evaluator(value: &str) -> Result<Arc<Gen3Eval>, String> {
    let evaluator = match value {
        "default" => default_evaluator(),
        "gen3" => virada_engine::eval::gen3::shipped(),
        path if path.ends_with(".vpw") => Gen3Eval::from_file(std::path::Path::new(path))
            .map(Arc::new)
            .map_err(|e| format!("engine setting eval={path}: {e}"))?,
        _ => {
            return Err(format!(
                "engine setting eval: unknown evaluation '{value}' (default, gen3, or a gen3 \
                 weights file ending in .vpw)"
            ))
        }
    };
    Ok(evaluator)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_reject_bad_input() {
        let p: PlayerSettings = "level=3".parse().unwrap();
        assert_eq!(p.level, Some(Level(3)));
        assert_eq!(p.effective_book_use(), BookUse::Ignore);
        let p: PlayerSettings = "level=8,book=off".parse().unwrap();
        assert_eq!(p.effective_book_use(), BookUse::Ignore);
        let p: PlayerSettings = "level=8".parse().unwrap();
        assert_eq!(p.effective_book_use(), Level(8).spec().book);
        let p: PlayerSettings = "depth=6,book=1.5".parse().unwrap();
        assert_eq!(p.effective_book_use(), BookUse::Within { tolerance: 1.5 });
        let p: PlayerSettings = "depth=6,book=on".parse().unwrap();
        assert_eq!(p.effective_book_use(), BookUse::BEST);
        assert!("level=8,book=maybe".parse::<PlayerSettings>().is_err());
        let p: PlayerSettings = "depth=6,exact=12".parse().unwrap();
        assert_eq!(p.limits.depth, Some(6));
        let p: PlayerSettings = "time=0.5, sel=87, eval=default".parse().unwrap();
        assert_eq!(p.limits.time, Some(Duration::from_millis(500)));
        assert!(Arc::ptr_eq(&p.evaluator, &default_evaluator()));
        let p: PlayerSettings = "depth=8,eval=gen3".parse().unwrap();
        assert!(
            p.evaluator.name().starts_with("gen3"),
            "{}",
            p.evaluator.name()
        );
        for bad in [
            "level=0",
            "level=30",
            "depth",
            "depth=x",
            "foo=1",
            "eval=zzz",
            // The retired evaluations.
            "eval=v1",
            "eval=gen2",
            "eval=trained",
            "time=-1",
            "eval=/nonexistent.vpw",
        ] {
            assert!(bad.parse::<PlayerSettings>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_multi_probcut_table_file_replaces_the_evaluations_table() {
        let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/weights/gen3.vpw");
        let table = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/data/mpc-gen3-G06.txt"
        );
        let want = virada_engine::eval::mpc::parse_table(&std::fs::read_to_string(table).unwrap())
            .unwrap();
        let p: PlayerSettings = format!("nodes=1000,mpc={table},eval={weights}")
            .parse()
            .unwrap();
        assert_eq!(p.evaluator.mpc_table(), &want[..]);
        let plain: PlayerSettings = format!("eval={weights}").parse().unwrap();
        assert_ne!(plain.evaluator.mpc_table(), &want[..]);
        // A table needs the weights it was fitted for; a missing or unreadable file is refused.
        let err = format!("mpc={table}")
            .parse::<PlayerSettings>()
            .unwrap_err();
        assert!(err.contains("needs eval="), "{err}");
        for bad in ["/nonexistent.txt", weights] {
            let err = format!("eval={weights},mpc={bad}")
                .parse::<PlayerSettings>()
                .unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn external_specs() {
        let s = PlayerSpec::parse("gtp:edax --gtp -l 'a b'", Some("/tmp".into()), None).unwrap();
        let PlayerSpec::External(e) = s else {
            panic!("external")
        };
        assert_eq!(e.protocol, Protocol::Gtp);
        assert_eq!(e.argv, ["edax", "--gtp", "-l", "a b"]);
        assert_eq!(e.dir, Some(PathBuf::from("/tmp")));
        let depth: TimeControl = "depth=8".parse().unwrap();
        assert!(PlayerSpec::parse("nboard:ntest x", None, Some(depth.clone())).is_ok());
        assert!(PlayerSpec::parse("gtp:edax", None, Some(depth)).is_err());
        assert!(PlayerSpec::parse("gtp:", None, None).is_err());
        assert!(PlayerSpec::parse("gtp:'unclosed", None, None).is_err());
        assert!(PlayerSpec::parse("depth=4", Some("/tmp".into()), None).is_err());
        assert!(matches!(
            PlayerSpec::parse("depth=4", None, None),
            Ok(PlayerSpec::Internal(_))
        ));
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let w = split_command_line(r#"  a "b c" d\ e 'f "g"' "h\"i" "#).unwrap();
        assert_eq!(w, ["a", "b c", "d e", "f \"g\"", "h\"i"]);
        assert_eq!(split_command_line("x ''").unwrap(), ["x", ""]);
        assert!(split_command_line("\"").is_err());
    }
}
