//! `virada bench coach`: how many mistakes of real games the coach explains. Draws WTHOR games
//! from a year on with a fixed seed, reviews each (book positions by the shipped book, the rest
//! searched), and counts the moves outside the book that lost 2 and 4 discs or more with at
//! least one explanation, and how often each kind fires.

use super::args::ThreadsArg;
use super::{CliError, CmdResult};
use clap::Args;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use virada_engine::coach::{self, Kind, Lang};
use virada_engine::random::SplitMix;
use virada_engine::{Book, Engine, EngineConfig, Limits};
use virada_rules::formats::transcript::Transcript;
use virada_rules::formats::wthor;
use virada_rules::moves::spaced;
use virada_rules::Game;

#[derive(Args)]
pub struct CoachArgs {
    /// Data directory (with wthor/).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Games to draw.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw from the WTHOR files of this year and later.
    #[arg(long, default_value_t = 2020)]
    pub from_year: u16,
    /// Search depth of the review (kept modest: the figures are about explanations).
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Solve exactly from this many empty squares.
    #[arg(long, default_value_t = 14)]
    pub exact: u32,
    /// Print every explained mistake (English) as well as the summary.
    #[arg(long)]
    pub verbose: bool,
    #[command(flatten)]
    pub threads: ThreadsArg,
}

/// One drawn game: where it comes from and its moves.
pub(super) struct Drawn {
    pub year: u16,
    pub index: usize,
    pub game: Game,
}

/// Every game of the WTHOR files of `years`, in file order, then `n` of them drawn without
/// repetition.
pub(super) fn draw(
    dir: &Path,
    years: RangeInclusive<u16>,
    n: usize,
    seed: u64,
) -> Result<Vec<Drawn>, CliError> {
    let (from_year, to_year) = (*years.start(), (*years.end()).min(2100));
    let mut all: Vec<(u16, usize, wthor::WthorGame)> = Vec::new();
    for year in years {
        let path = dir.join(format!("WTH_{year}.wtb"));
        if !path.exists() {
            continue;
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        let file = wthor::read_wtb(&bytes)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        all.extend(
            file.games
                .into_iter()
                .enumerate()
                .map(|(i, g)| (year, i, g)),
        );
    }
    if all.len() < n {
        return Err(CliError::input(format!(
            "{}: {} games in {from_year}-{to_year}, fewer than the {n} asked",
            dir.display(),
            all.len()
        )));
    }
    let mut rng = SplitMix(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let k = rng.below(all.len());
        let (year, index, record) = all.swap_remove(k);
        let game = record.replay().map_err(|e| {
            CliError::failed(format!("WTH_{year}.wtb game {index} does not replay: {e}"))
        })?;
        out.push(Drawn { year, index, game });
    }
    Ok(out)
}

/// Mistakes counted at one threshold.
#[derive(Default)]
struct Tally {
    mistakes: usize,
    explained: usize,
    /// Explained by a kind other than the exact endgame's scores.
    explained_by_strategy: usize,
    kinds: BTreeMap<Kind, usize>,
}

impl Tally {
    fn add(&mut self, kinds: &[Kind]) {
        self.mistakes += 1;
        self.explained += usize::from(!kinds.is_empty());
        self.explained_by_strategy += usize::from(kinds.iter().any(|k| *k != Kind::ExactLoss));
        for k in kinds {
            *self.kinds.entry(*k).or_default() += 1;
        }
    }

    fn share(&self, n: usize) -> String {
        if self.mistakes == 0 {
            return "-".to_string();
        }
        format!("{:.1}%", 100.0 * n as f64 / self.mistakes as f64)
    }
}

pub fn run(args: CoachArgs) -> CmdResult {
    let games = draw(
        &args.data.join("wthor"),
        args.from_year..=2100,
        args.games,
        args.seed,
    )?;
    let mut cfg = EngineConfig::default();
    if let Some(t) = args.threads.given() {
        cfg.threads = t;
    }
    let mut engine = Engine::new(cfg);
    engine.set_book(Book::shipped());
    let limits = Limits {
        depth: Some(args.depth),
        exact_empties: Some(args.exact),
        ..Limits::default()
    };
    println!(
        "coach coverage: {} WTHOR games from {} on, seed {}, review depth {}, exact from {} empties",
        args.games, args.from_year, args.seed, args.depth, args.exact
    );
    let (mut two, mut four) = (Tally::default(), Tally::default());
    let mut judged_outside_book = 0usize;
    for (i, d) in games.iter().enumerate() {
        let review = engine.analyze_game(&d.game, &limits, None, None);
        let explained = coach::explain_game(&d.game, &review);
        let numbers = coach::move_numbers(&d.game);
        judged_outside_book += review.plies.iter().filter(|p| !p.book).count();
        let mut lost = 0;
        for p in review
            .plies
            .iter()
            .filter(|p| !p.book && p.loss >= coach::EXPLAIN_LOSS)
        {
            lost += 1;
            let found = explained.iter().find(|e| e.ply == p.ply);
            let list = found.map_or(&[][..], |e| &e.explanations);
            let kinds: Vec<Kind> = list.iter().map(|e| e.kind).collect();
            two.add(&kinds);
            if p.loss >= 4.0 {
                four.add(&kinds);
            }
            if args.verbose {
                let label = coach::move_label(numbers[p.ply], p.color);
                println!(
                    "  WTH_{}#{} {label} {} (best {}, -{:.1}{})",
                    d.year,
                    d.index,
                    p.played,
                    p.best_move,
                    p.loss,
                    if p.exact { ", exact" } else { "" }
                );
                if list.is_empty() {
                    let next = review.ply(p.ply + 1).map_or(&[][..], |r| &r.pv[..]);
                    println!(
                        "      (no explanation) better line: {}; after the move: {}",
                        spaced(&p.pv),
                        spaced(next)
                    );
                }
                for e in list {
                    println!("      {}: {}", e.kind.as_str(), e.text(Lang::En));
                }
            }
        }
        println!(
            "game {:>2}: WTH_{}.wtb #{:<5} {} plies, {lost} mistakes of 2+ outside the book  {}",
            i + 1,
            d.year,
            d.index,
            d.game.ply(),
            Transcript::from_game(&d.game)
        );
    }
    println!("moves judged outside the book: {judged_outside_book}");
    println!("loss      mistakes  explained  share   (without exact_loss)");
    for (name, t) in [("2+ discs", &two), ("4+ discs", &four)] {
        println!(
            "{name:<9} {:>8}  {:>9}  {:>6}  ({} = {})",
            t.mistakes,
            t.explained,
            t.share(t.explained),
            t.explained_by_strategy,
            t.share(t.explained_by_strategy)
        );
    }
    println!("kind              2+ discs   4+ discs");
    for kind in Kind::ALL {
        let a = two.kinds.get(&kind).copied().unwrap_or(0);
        let b = four.kinds.get(&kind).copied().unwrap_or(0);
        println!(
            "{:<16} {:>4} {:>5}  {:>4} {:>5}",
            kind.as_str(),
            a,
            two.share(a),
            b,
            four.share(b)
        );
    }
    Ok(())
}
