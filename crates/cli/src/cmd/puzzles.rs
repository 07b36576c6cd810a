//! `virada puzzles`: generate the puzzle file from WTHOR games and self-play (resumable),
//! export it as OBF, re-verify it with the solver, and count it by theme and empties.

use super::{CliError, CmdResult};
use clap::{Args, Subcommand, ValueEnum};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use virada_engine::puzzles::selfplay::{self_play_game, SplitMix};
use virada_engine::puzzles::{
    parse_puzzle_file, verify, Finder, FinderConfig, MidgameConfig, MidgameFinder, Puzzle,
    PuzzleKind, Theme,
};
use virada_engine::{Engine, EngineConfig};
use virada_rules::formats::obf::{ObfEntry, ObfMove};
use virada_rules::formats::wthor::WthorGame;
use virada_rules::{Game, Move, Position};

#[derive(Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub what: PuzzlesWhat,
}

#[derive(Subcommand)]
pub enum PuzzlesWhat {
    /// Find puzzles in WTHOR games and self-play (resumable: run the same command again).
    Generate(GenerateArgs),
    /// Print every puzzle as an OBF line after a `%` comment with its id, themes and rating.
    Export(ExportArgs),
    /// Re-prove puzzles with the exact solver.
    Verify(FileArgs),
    /// Counts by kind, theme, empties, line length and rating.
    Stats(FileArgs),
}

#[derive(Args)]
pub struct GenerateArgs {
    /// The shared data directory (its wthor/ folder is read).
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Also draw positions from this many self-played games (one every 10 jobs).
    #[arg(long, default_value_t = 0)]
    pub self_play: usize,
    /// The puzzle file to write (rewritten at every checkpoint).
    #[arg(long)]
    pub out: PathBuf,
    /// Checkpoint folder (default: ~/.cache/virada/puzzles).
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Stop after this many puzzles.
    #[arg(long, default_value_t = 1200)]
    pub target: usize,
    /// Endgame puzzles (proven by the exact solver) or midgame ones (a deep search with a
    /// margin, the same move at each of the last depths).
    #[arg(long, value_enum, default_value_t = KindArg::Endgame)]
    pub kind: KindArg,
    /// Empties of the start (default: 8 for endgame, 24 for midgame puzzles).
    #[arg(long)]
    pub min_empties: Option<u32>,
    /// Default: 20 for endgame, 40 for midgame puzzles.
    #[arg(long)]
    pub max_empties: Option<u32>,
    /// Depth of the midgame search whose values are stated.
    #[arg(long, default_value_t = 16)]
    pub depth: u32,
    /// Positions tried per game.
    #[arg(long, default_value_t = 2)]
    pub per_game: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Endgame,
    Midgame,
}

/// The finder of the chosen kind.
enum AnyFinder {
    Endgame(Finder),
    Midgame(MidgameFinder),
}

impl AnyFinder {
    fn find(&mut self, pos: Position) -> Option<Puzzle> {
        match self {
            AnyFinder::Endgame(f) => f.endgame(pos),
            AnyFinder::Midgame(f) => f.midgame(pos),
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            AnyFinder::Endgame(f) => f.nodes,
            AnyFinder::Midgame(f) => f.nodes,
        }
    }
}

#[derive(Args)]
pub struct ExportArgs {
    /// Only `obf`.
    #[arg(long, default_value = "obf")]
    pub format: String,
    /// Puzzle file (default: the shipped one).
    #[arg(long)]
    pub file: Option<PathBuf>,
}

#[derive(Args)]
pub struct FileArgs {
    /// Puzzle file (default: the shipped one).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Only every N-th puzzle (verify).
    #[arg(long, default_value_t = 1)]
    pub every: usize,
}

pub fn run(args: PuzzlesArgs) -> CmdResult {
    match args.what {
        PuzzlesWhat::Generate(a) => generate(a),
        PuzzlesWhat::Export(a) => export(a),
        PuzzlesWhat::Verify(a) => verify_cmd(a),
        PuzzlesWhat::Stats(a) => stats(a),
    }
}

fn load(file: &Option<PathBuf>) -> Result<Vec<Puzzle>, CliError> {
    match file {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", f.display())))?;
            parse_puzzle_file(&text).map_err(|e| CliError::input(format!("{}: {e}", f.display())))
        }
        None => Ok(virada_engine::puzzles::shipped().to_vec()),
    }
}

fn write_file(path: &Path, puzzles: &[Puzzle]) -> Result<(), CliError> {
    let mut sorted: Vec<&Puzzle> = puzzles.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let mut text = String::from(
        "# Virada puzzles (docs/PUZZLES.md), made by `virada puzzles generate`.\n\
         # id position side kind line scores themes rating/rd/volatility\n",
    );
    for p in sorted {
        text.push_str(&p.to_string());
        text.push('\n');
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))
}

fn cache_dir(arg: &Option<PathBuf>) -> PathBuf {
    arg.clone().unwrap_or_else(|| {
        let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
        home.join(".cache/virada/puzzles")
    })
}

/// One source of positions: a WTHOR game or a self-played one.
enum Job<'a> {
    Wthor(&'a WthorGame),
    SelfPlay(u64),
}

/// The job list: the WTHOR games in a seeded order, with a self-play game every 10th job
/// while `self_play` lasts.
fn jobs(games: &[WthorGame], self_play: usize, seed: u64) -> Vec<Job<'_>> {
    let mut order: Vec<usize> = (0..games.len()).collect();
    let mut rng = SplitMix(seed);
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut out = Vec::with_capacity(games.len() + self_play);
    let mut left = self_play;
    let mut next = order.into_iter();
    loop {
        if left > 0 && out.len() % 10 == 9 {
            out.push(Job::SelfPlay(seed.wrapping_mul(1_000_003) + left as u64));
            left -= 1;
            continue;
        }
        match next.next() {
            Some(i) => out.push(Job::Wthor(&games[i])),
            None if left > 0 => {
                out.push(Job::SelfPlay(seed.wrapping_mul(1_000_003) + left as u64));
                left -= 1;
            }
            None => break,
        }
    }
    out
}

/// Up to `n` positions of `game` with `empties` empty squares where the side to move can choose.
fn candidates(
    game: &Game,
    empties: std::ops::RangeInclusive<u32>,
    n: usize,
    rng: &mut SplitMix,
) -> Vec<Position> {
    let mut pool: Vec<Position> = game
        .positions()
        .iter()
        .filter(|p| {
            let b = p.board();
            let e = 64 - (b.player | b.opponent).count_ones();
            empties.contains(&e) && b.legal_moves().count() >= 2
        })
        .copied()
        .collect();
    let mut out = Vec::new();
    while out.len() < n && !pool.is_empty() {
        out.push(pool.swap_remove(rng.below(pool.len())));
    }
    out
}

fn generate(a: GenerateArgs) -> CmdResult {
    let data = a.data.clone().unwrap_or_else(super::data_dir);
    let db = virada_train::wthor::load(&data.join("wthor")).map_err(CliError::input)?;
    let games: Vec<WthorGame> = db.games.into_iter().map(|(g, _)| g).collect();
    let cache = cache_dir(&a.cache);
    std::fs::create_dir_all(&cache)
        .map_err(|e| CliError::failed(format!("cannot create {}: {e}", cache.display())))?;
    let found_path = cache.join("found.txt");
    let progress_path = cache.join("progress.txt");
    // Resume: puzzles found so far (a torn last line is dropped) and the next job.
    let mut found: Vec<Puzzle> = std::fs::read_to_string(&found_path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.parse().ok())
        .collect();
    let mut seen: HashSet<String> = found.iter().map(|p| p.id.clone()).collect();
    let start_job: usize = std::fs::read_to_string(&progress_path)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0);
    let mut finder = match a.kind {
        KindArg::Endgame => {
            let d = FinderConfig::default();
            AnyFinder::Endgame(Finder::new(FinderConfig {
                min_empties: a.min_empties.unwrap_or(d.min_empties),
                max_empties: a.max_empties.unwrap_or(d.max_empties),
                ..d
            }))
        }
        KindArg::Midgame => {
            let d = MidgameConfig::default();
            AnyFinder::Midgame(MidgameFinder::new(MidgameConfig {
                min_empties: a.min_empties.unwrap_or(d.min_empties),
                max_empties: a.max_empties.unwrap_or(d.max_empties),
                depth: a.depth,
                ..d
            }))
        }
    };
    let empties = match &finder {
        AnyFinder::Endgame(f) => f.config.min_empties..=f.config.max_empties,
        AnyFinder::Midgame(f) => f.config.min_empties..=f.config.max_empties,
    };
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    });
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&found_path)
        .map_err(|e| CliError::failed(format!("{}: {e}", found_path.display())))?;
    let jobs = jobs(&games, a.self_play, a.seed);
    println!(
        "{} jobs ({} WTHOR games, {} self-play), resuming at job {start_job} with {} puzzles",
        jobs.len(),
        games.len(),
        a.self_play,
        found.len()
    );
    let t0 = Instant::now();
    let mut since_write = 0;
    for (j, job) in jobs.iter().enumerate().skip(start_job) {
        if found.len() >= a.target {
            break;
        }
        let game = match job {
            Job::Wthor(g) => match g.replay() {
                Ok(g) => g,
                Err(_) => continue,
            },
            Job::SelfPlay(seed) => self_play_game(&mut engine, *seed, 10, 6),
        };
        let mut rng = SplitMix(a.seed ^ (j as u64).wrapping_mul(0x9E37_79B9));
        for pos in candidates(&game, empties.clone(), a.per_game, &mut rng) {
            if let Some(p) = finder.find(pos) {
                if seen.insert(p.id.clone()) {
                    writeln!(log, "{p}")
                        .and_then(|_| log.flush())
                        .map_err(|e| CliError::failed(format!("{}: {e}", found_path.display())))?;
                    found.push(p);
                    since_write += 1;
                }
            }
        }
        std::fs::write(&progress_path, format!("{}\n", j + 1))
            .map_err(|e| CliError::failed(format!("{}: {e}", progress_path.display())))?;
        if since_write >= 20 {
            write_file(&a.out, &found)?;
            since_write = 0;
            println!(
                "job {} puzzles {} nodes {} ({:.0} s)",
                j + 1,
                found.len(),
                finder.nodes(),
                t0.elapsed().as_secs_f64()
            );
        }
    }
    write_file(&a.out, &found)?;
    println!(
        "done: {} puzzles in {} ({:.0} s this run, {} nodes)",
        found.len(),
        a.out.display(),
        t0.elapsed().as_secs_f64(),
        finder.nodes()
    );
    Ok(())
}

fn export(a: ExportArgs) -> CmdResult {
    if a.format != "obf" {
        return Err(CliError::input(format!(
            "format {:?} is not supported (obf)",
            a.format
        )));
    }
    let puzzles = load(&a.file)?;
    let mut out = std::io::stdout().lock();
    for p in &puzzles {
        let themes: Vec<&str> = p.themes.iter().map(|t| t.as_str()).collect();
        let entry = ObfEntry {
            position: p.start,
            moves: p
                .scores
                .iter()
                .map(|&(sq, s)| ObfMove {
                    mv: Move::Play(sq),
                    score: Some(s),
                })
                .collect(),
        };
        writeln!(
            out,
            "% {} {} themes={} rating={:.0}\n{entry}",
            p.id,
            p.kind.as_str(),
            if themes.is_empty() {
                "-".to_string()
            } else {
                themes.join(",")
            },
            p.rating.rating
        )
        .map_err(CliError::stdout)?;
    }
    Ok(())
}

fn verify_cmd(a: FileArgs) -> CmdResult {
    let puzzles = load(&a.file)?;
    let mut finder = Finder::new(FinderConfig::default());
    let mut midgame = MidgameFinder::new(MidgameConfig::default());
    let t0 = Instant::now();
    let (mut ok, mut bad) = (0, 0);
    for p in puzzles.iter().step_by(a.every.max(1)) {
        let checked = match p.kind {
            PuzzleKind::Endgame => verify(p, &mut finder).map_err(|e| e.to_string()),
            PuzzleKind::Midgame => midgame.verify(p).map_err(|e| e.to_string()),
        };
        match checked {
            Ok(()) => ok += 1,
            Err(e) => {
                bad += 1;
                println!("{}: {e}", p.id);
            }
        }
    }
    println!(
        "{ok} puzzles verified, {bad} failed ({} solver nodes, {} search nodes, {:.0} s)",
        finder.nodes,
        midgame.nodes,
        t0.elapsed().as_secs_f64()
    );
    if bad > 0 {
        return Err(CliError::failed(format!(
            "{bad} puzzles failed verification"
        )));
    }
    Ok(())
}

fn stats(a: FileArgs) -> CmdResult {
    let puzzles = load(&a.file)?;
    println!("{} puzzles", puzzles.len());
    let mut kinds = BTreeMap::new();
    let mut empties = BTreeMap::new();
    let mut lines = BTreeMap::new();
    let mut ratings = BTreeMap::new();
    for p in &puzzles {
        *kinds.entry(p.kind.as_str()).or_insert(0) += 1;
        *empties.entry(p.empties()).or_insert(0) += 1;
        *lines.entry(p.solver_moves()).or_insert(0) += 1;
        *ratings
            .entry((p.rating.rating as i32) / 200 * 200)
            .or_insert(0) += 1;
    }
    println!("by kind: {kinds:?}");
    println!("by theme:");
    for t in Theme::ALL {
        let n = puzzles.iter().filter(|p| p.themes.contains(&t)).count();
        println!("  {:<11} {n}", t.as_str());
    }
    let none = puzzles.iter().filter(|p| p.themes.is_empty()).count();
    println!("  (none)      {none}");
    println!("by empties: {empties:?}");
    println!("by solver moves in the line: {lines:?}");
    println!("by initial rating (200-point bins): {ratings:?}");
    Ok(())
}
