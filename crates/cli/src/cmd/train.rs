//! `virada train`: the gen3 training pipeline (data sets in the cache folder, then the fit) that
//! regenerates the evaluation's weights. See docs/TRAINING.md.

use super::{CliError, CmdResult};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::sync::Arc;
use virada_engine::Gen3Eval;
use virada_train::datagen::{self, GenConfig, StopAt};
use virada_train::dataset;

#[derive(Args)]
pub struct TrainArgs {
    /// A step of the pipeline.
    #[command(subcommand)]
    pub step: Box<TrainStep>,
}

/// The gen3 pipeline (docs/TRAINING.md): data in the cache folder, then the fit.
#[derive(Subcommand)]
pub enum TrainStep {
    /// Generate labelled self-play positions (resumable: run it again to continue).
    Gen(GenArgs),
    /// Import the WTHOR theoretical scores as a data set in the cache folder.
    ImportWthor(ImportArgs),
    /// Relabel a data set's positions by searches of a gen3 evaluation (resumable).
    Relabel(RelabelArgs),
    /// Exact labels of walks near the end of WTHOR games (resumable: run it again to continue).
    Endgame(EndgameArgs),
    /// Fit gen3 weights on data sets (streaming minibatch Adam, held-out games, early stop).
    Fit(FitArgs),
}

#[derive(Args)]
pub struct FitArgs {
    /// Data set directories (default: <cache>/gen3/selfplay-s1 and <cache>/gen3/wthor-theoretical).
    #[arg(long, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Output weights file (gen3 format; default <cache>/gen3/gen3.vpw).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Generation name stored in the file (at most 24 bytes).
    #[arg(long, default_value = "gen3")]
    pub name: String,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam step size.
    #[arg(long, default_value_t = 0.01)]
    pub lr: f64,
    /// Factor applied to the step size after every epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr_decay: f64,
    /// L2 penalty per weight.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Stop after this many epochs without a better held-out error.
    #[arg(long, default_value_t = 2)]
    pub patience: usize,
    /// One game in this many is held out.
    #[arg(long, default_value_t = 20)]
    pub held_out_one_in: u64,
    /// Neighbouring phases (each side) a sample also trains.
    #[arg(long, default_value_t = 1)]
    pub phase_overlap: usize,
    /// Weight of a sample in a neighbouring phase.
    #[arg(long, default_value_t = 0.5)]
    pub overlap_weight: f64,
    /// Phases per shared coarse table added to each phase's own table (0 = none).
    #[arg(long, default_value_t = 0)]
    pub group_size: usize,
    /// L2 penalty of the per-phase tables when `--group-size` is set.
    #[arg(long, default_value_t = 1e-4)]
    pub fine_l2: f64,
    /// Weights per label source, e.g. `exact=1,search=1,wthor=0.5`.
    #[arg(long, default_value = "")]
    pub source_weights: String,
    /// Units per disc of the written weights (the declared i16 scale).
    #[arg(long, default_value_t = 100)]
    pub units_per_disc: u32,
    /// Chunks shuffled together (memory grows with it: a chunk holds up to 200,000 records of
    /// 24 bytes; a window as large as the data shuffles it whole).
    #[arg(long, default_value_t = 4)]
    pub window: usize,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Start from these gen3 weights instead of zero; the per-phase tables' L2 penalty then
    /// pulls toward them (fine-tuning a previous fit on new data).
    #[arg(long)]
    pub init: Option<PathBuf>,
}

/// The weights of a gen3 file in discs, phase after phase, as the fitter's parameters.
fn start_weights(path: &std::path::Path) -> Result<std::sync::Arc<[f32]>, CliError> {
    use virada_engine::eval::gen3::weights::{self, Gen3Weights};
    let bytes =
        std::fs::read(path).map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    if weights::header_version(&bytes) != Some(weights::FORMAT_VERSION) {
        return Err(CliError::input(format!(
            "{}: not a gen3 weights file (--init takes gen3 weights)",
            path.display()
        )));
    }
    let w = Gen3Weights::from_bytes(&bytes)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let units = w.units_per_disc as f32;
    Ok(w.weights.iter().map(|&x| x as f32 / units).collect())
}

fn fit3(a: FitArgs) -> CmdResult {
    use virada_engine::eval::gen3::patterns::NUM_PHASES;
    use virada_train::fit3::{self, model::Gen3Model};
    let gen3 = dataset::default_cache_dir().join("gen3");
    let data = if a.data.is_empty() {
        vec![gen3.join("selfplay-s1"), gen3.join("wthor-theoretical")]
    } else {
        a.data
    };
    if a.units_per_disc == 0 || a.units_per_disc > 1000 {
        return Err(CliError::input("--units-per-disc must be 1-1000"));
    }
    let cfg = fit3::FitConfig {
        seed: a.seed,
        batch: a.batch.max(1),
        learning_rate: a.lr,
        lr_decay: a.lr_decay,
        l2: a.l2,
        max_epochs: a.epochs.max(1),
        patience: a.patience.max(1),
        held_out_one_in: a.held_out_one_in.max(2),
        phase_overlap: a.phase_overlap.min(NUM_PHASES),
        overlap_weight: a.overlap_weight,
        source_weights: fit3::parse_source_weights(&a.source_weights).map_err(CliError::input)?,
        threads: a.threads.max(1),
        group_size: a.group_size.min(NUM_PHASES),
        fine_l2: a.fine_l2,
        window: a.window.max(1),
        start: match &a.init {
            Some(path) => fit3::Start::From(start_weights(path)?),
            None => fit3::Start::Zero,
        },
    };
    let out = a.out.unwrap_or_else(|| gen3.join("gen3.vpw"));
    let started = std::time::Instant::now();
    let chunks = fit3::chunk_list(&data).map_err(CliError::failed)?;
    let fitted = fit3::fit_chunks(&Gen3Model, &chunks, &cfg).map_err(CliError::failed)?;
    let wall = started.elapsed().as_secs_f64();
    let w = Gen3Model::to_weights(&fitted.params, &a.name, a.units_per_disc);
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
    }
    // The compact payload when the ties hold (always, for fitted weights), else raw.
    let bytes = w.to_bytes_compact().unwrap_or_else(|| w.to_bytes());
    dataset::write_atomic(&out, &bytes)
        .map_err(|e| CliError::failed(format!("{}: {e}", out.display())))?;
    println!("{}: {} bytes", out.display(), bytes.len());
    let empties = |p: usize| format!("{}-{}", 2 * p + 1, 2 * p + 2);
    println!(
        "{}: best epoch {} of {} ({wall:.0} s); held-out errors{}:\n{}",
        out.display(),
        fitted.best_epoch,
        fitted.epochs_run,
        fitted.validation.source_summary(),
        fitted.validation.table(empties)
    );
    // The default evaluation (the shipped weights) on the same held-out positions, by phase.
    let base = virada_engine::default_evaluator();
    let phase = virada_engine::eval::gen3::patterns::phase_of_empties;
    let old = fit3::validate_by(NUM_PHASES, &chunks, &cfg, |b| {
        (phase(b.empty_count()), base.evaluate(b) as f64 / 100.0)
    })
    .map_err(CliError::failed)?;
    println!(
        "{} on the same positions{}\n{}",
        base.name(),
        old.source_summary(),
        fit3::side_by_side((&a.name, &fitted.validation), (base.name(), &old), empties)
    );
    Ok(())
}

#[derive(Args)]
pub struct GenArgs {
    /// Data set directory (default: <cache>/gen3/selfplay-s<seed>, cache = $VIRADA_CACHE/train
    /// or ~/.cache/virada/train).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games per chunk file.
    #[arg(long, default_value_t = 64)]
    pub games_per_chunk: u64,
    /// Exact labels up to this many empties.
    #[arg(long, default_value_t = 22)]
    pub exact_empties: u32,
    /// Depth of the search labels (positions with more empties).
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Random moves after a balanced opening, `lo-hi`.
    #[arg(long, default_value = "0-10")]
    pub opening_random: String,
    /// Random moves of the games that start from the standard position, `lo-hi`.
    #[arg(long, default_value = "1-20")]
    pub start_random: String,
    /// One game in this many starts from the standard position.
    #[arg(long, default_value_t = 4)]
    pub from_start_one_in: u64,
    /// Chance (percent) of a random move instead of the searched one before the exact phase.
    #[arg(long, default_value_t = 2)]
    pub midgame_random: u32,
    /// Stop when the data set has this many chunks (default: run until killed).
    #[arg(long)]
    pub chunks: Option<u64>,
    /// Weights file (gen3) of the labelling evaluation (default: the engine's default
    /// evaluation).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

#[derive(Args)]
pub struct ImportArgs {
    /// Directory with the WTHOR `WTH_*.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: PathBuf,
    /// Data set directory (default: <cache>/gen3/wthor-theoretical).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Args)]
pub struct RelabelArgs {
    /// Data set to relabel (default: <cache>/gen3/wthor-theoretical).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Output data set directory (default: <cache>/gen3/wthor-search-d<depth>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Depth of the searches.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Positions with fewer empties are left out.
    #[arg(long, default_value_t = 21)]
    pub min_empties: u32,
    /// Records per output chunk (the unit of resumption).
    #[arg(long, default_value_t = 20_000)]
    pub part_records: usize,
    /// Weights file (gen3) of the labelling evaluation (default: the engine's default
    /// evaluation).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// Stop after labelling this many parts (default: until the data set is complete).
    #[arg(long)]
    pub parts: Option<u64>,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

#[derive(Args)]
pub struct EndgameArgs {
    /// Directory with the WTHOR `WTH_*.wtb` files.
    #[arg(long, default_value = "../shared/data/wthor")]
    pub wthor: PathBuf,
    /// Data set directory (default: <cache>/gen3/wthor-endgame-s<seed>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Empties of the game position where a walk starts, `lo-hi`.
    #[arg(long, default_value = "12-22")]
    pub start: String,
    /// Random moves from it before the first label, `lo-hi`.
    #[arg(long, default_value = "0-4")]
    pub random: String,
    /// The walk labels positions down to this many empties.
    #[arg(long, default_value_t = 10)]
    pub min_empties: u32,
    /// Chance (percent) that the walk goes on with a random move instead of the best one.
    #[arg(long, default_value_t = 30)]
    pub wander: u32,
    /// Games per output chunk (the unit of resumption).
    #[arg(long, default_value_t = 500)]
    pub games_per_part: usize,
    /// Weights file (gen3) that orders the solver's moves (default: the engine's default
    /// evaluation; the labels are exact whatever it is, the time and ties are not).
    #[arg(long)]
    pub eval: Option<PathBuf>,
    /// Stop after labelling this many parts (default: until every game is walked).
    #[arg(long)]
    pub parts: Option<u64>,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
}

fn endgame(a: EndgameArgs) -> CmdResult {
    use virada_train::datagen::wthor_endgame::{self, EndgameConfig};
    let cfg = EndgameConfig {
        seed: a.seed,
        start_empties: range(&a.start, "--start")?,
        random_plies: range(&a.random, "--random")?,
        min_empties: a.min_empties,
        wander_percent: a.wander.min(100),
        games_per_part: a.games_per_part.max(1),
        threads: a.threads.max(1),
        ..EndgameConfig::default()
    };
    if cfg.start_empties.1 > 30 {
        return Err(CliError::input(
            "--start: at most 30 empties (exact solves)",
        ));
    }
    let out = a.out.unwrap_or_else(|| {
        dataset::default_cache_dir()
            .join("gen3")
            .join(format!("wthor-endgame-s{}", a.seed))
    });
    let eval = labelling_eval(a.eval.as_deref())?;
    let t =
        wthor_endgame::run(&cfg, &a.wthor, &out, eval, a.parts, None).map_err(CliError::failed)?;
    println!(
        "{}: {} of {} parts labelled by this run, {} positions in all; {:.0} solves per \
         thread-hour",
        out.display(),
        t.labelled_parts,
        t.parts,
        t.records,
        t.solves as f64 * 3600.0 / t.solve_time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

fn relabel(a: RelabelArgs) -> CmdResult {
    use virada_train::datagen::relabel::{self, RelabelConfig};
    let cache = dataset::default_cache_dir().join("gen3");
    let from = a.from.unwrap_or_else(|| cache.join("wthor-theoretical"));
    let out = a
        .out
        .unwrap_or_else(|| cache.join(format!("wthor-search-d{}", a.depth)));
    let eval = labelling_eval(a.eval.as_deref())?;
    let cfg = RelabelConfig {
        depth: a.depth,
        min_empties: a.min_empties,
        part_records: a.part_records,
        threads: a.threads.max(1),
    };
    let t = relabel::run(&cfg, &from, &out, eval, a.parts).map_err(CliError::failed)?;
    println!(
        "{}: {} of {} parts labelled by this run, {} positions in all; {:.0} searches/h on {} \
         thread(s)",
        out.display(),
        t.labelled_parts,
        t.parts,
        t.records,
        t.stats.search as f64 / t.stats.search_time.as_secs_f64().max(1e-9)
            * 3600.0
            * cfg.threads as f64,
        cfg.threads
    );
    Ok(())
}

/// The labelling evaluation: a gen3 weights file, else the default one.
fn labelling_eval(path: Option<&std::path::Path>) -> Result<Arc<Gen3Eval>, CliError> {
    match path {
        Some(p) => Gen3Eval::from_file(p)
            .map(Arc::new)
            .map_err(CliError::input),
        None => Ok(virada_engine::default_evaluator()),
    }
}

fn range(s: &str, what: &str) -> Result<(u32, u32), CliError> {
    let bad = || CliError::input(format!("{what}: expected lo-hi (e.g. 0-10), got {s:?}"));
    let (a, b) = s.split_once('-').ok_or_else(bad)?;
    let (a, b) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b || b > 59 {
        return Err(bad());
    }
    Ok((a, b))
}

fn gen(a: GenArgs) -> CmdResult {
    if a.exact_empties > 30 || a.depth == 0 || a.depth > 30 {
        return Err(CliError::input(
            "--exact-empties must be at most 30 and --depth 1-30",
        ));
    }
    let cfg = GenConfig {
        seed: a.seed,
        games_per_chunk: a.games_per_chunk.max(1),
        exact_empties: a.exact_empties,
        search_depth: a.depth,
        opening_random: range(&a.opening_random, "--opening-random")?,
        start_random: range(&a.start_random, "--start-random")?,
        from_start_one_in: a.from_start_one_in.max(1),
        midgame_random_percent: a.midgame_random.min(100),
        threads: a.threads.max(1),
        ..GenConfig::default()
    };
    let eval = labelling_eval(a.eval.as_deref())?;
    let out = a.out.unwrap_or_else(|| {
        dataset::default_cache_dir()
            .join("gen3")
            .join(format!("selfplay-s{}", a.seed))
    });
    let stop = StopAt {
        chunks: a.chunks,
        flag: None,
    };
    let t = datagen::run(&cfg, &out, eval, stop).map_err(CliError::failed)?;
    let (exact_h, search_h) = t.rates(cfg.threads);
    println!(
        "{}: {} positions in {} chunks (exact {}, search {}); exact {exact_h:.0}/h, search \
         {search_h:.0}/h",
        out.display(),
        t.records,
        t.chunks,
        t.labels.exact,
        t.labels.search
    );
    Ok(())
}

fn import_wthor(a: ImportArgs) -> CmdResult {
    let out = a
        .out
        .unwrap_or_else(|| dataset::default_cache_dir().join("gen3/wthor-theoretical"));
    let n = datagen::wthor_import::import(&a.wthor, &out).map_err(CliError::failed)?;
    println!("{}: {n} positions", out.display());
    Ok(())
}

pub fn run(args: TrainArgs) -> CmdResult {
    match *args.step {
        TrainStep::Gen(a) => gen(a),
        TrainStep::ImportWthor(a) => import_wthor(a),
        TrainStep::Relabel(a) => relabel(a),
        TrainStep::Endgame(a) => endgame(a),
        TrainStep::Fit(a) => fit3(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        train: TrainArgs,
    }

    #[test]
    fn the_steps_parse_and_a_step_is_required() {
        Cli::command().debug_assert();
        let gen = Cli::try_parse_from(["t", "gen", "--chunks", "3", "--exact-empties", "18"])
            .expect("gen parses");
        match *gen.train.step {
            TrainStep::Gen(a) => assert_eq!((a.chunks, a.exact_empties), (Some(3), 18)),
            _ => panic!("not gen"),
        }
        let eg = Cli::try_parse_from(["t", "endgame", "--start", "14-20", "--parts", "2"])
            .expect("endgame parses");
        match *eg.train.step {
            TrainStep::Endgame(a) => {
                assert_eq!((range(&a.start, "").unwrap(), a.parts), ((14, 20), Some(2)))
            }
            _ => panic!("not endgame"),
        }
        // The retired gen2 pipeline's form (options without a step) is refused.
        assert!(Cli::try_parse_from(["t", "--exact-empties", "8"]).is_err());
        assert!(Cli::try_parse_from(["t"]).is_err());
    }

    #[test]
    fn ranges() {
        assert_eq!(range("0-10", "x").unwrap(), (0, 10));
        assert!(range("5-2", "x").is_err());
        assert!(range("7", "x").is_err());
        assert!(range("0-70", "x").is_err());
    }
}
