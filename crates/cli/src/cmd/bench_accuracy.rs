//! `virada bench accuracy`: fixed-depth search value and move against exact results, for the
//! evaluation (and optionally a baseline weights file side by side).

use super::{CliError, CmdResult};
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use virada_engine::Gen3Eval;
use virada_train::accuracy::{self, Case};

/// Our benchmark files (written once by `--write-benchmark`), relative to the workspace root.
const STORED_BENCHMARKS: [&str; 2] = [
    "crates/train/bench/wthor-heldout-20.obf",
    "crates/train/bench/wthor-heldout-30.obf",
];

#[derive(Args)]
pub struct AccuracyArgs {
    /// Data directory (with wthor/ and ffo/).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Search depths, comma-separated.
    #[arg(long, default_value = "4,8,12")]
    pub depths: String,
    /// Number of held-out WTHOR games whose 24-empty position is searched (0 = none).
    #[arg(long, default_value_t = 200)]
    pub wthor: usize,
    /// Seed of the held-out split (as in `virada train`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// OBF files with scored moves (default: the four FFO files of the data directory and our
    /// stored benchmarks `crates/train/bench/wthor-heldout-{20,30}.obf`).
    #[arg(long)]
    pub obf: Vec<PathBuf>,
    /// Also solve this many of the WTHOR positions with our exact solver and compare with the
    /// theoretical scores of the records (0 = skip).
    #[arg(long, default_value_t = 0)]
    pub solver_check: usize,
    /// Instead of benchmarking, write a benchmark OBF file: the position with
    /// `--benchmark-empties` empties of the first `--wthor` held-out games, every move solved.
    #[arg(long)]
    pub write_benchmark: Option<PathBuf>,
    /// See `--write-benchmark`.
    #[arg(long, default_value_t = 20)]
    pub benchmark_empties: u32,
    /// With `--write-benchmark`: solve only the best move exactly, plus the moves a depth-10
    /// search ranks within 4 discs of the best (at most 3, 10 minutes each), instead of every
    /// move (for positions with 26 or more empties, where solving every move is too slow).
    #[arg(long)]
    pub best_only: bool,
    /// With `--write-benchmark --best-only`: skip the first this many positions (to split the
    /// work between processes).
    #[arg(long, default_value_t = 0)]
    pub benchmark_skip: usize,
    /// Weights file (gen3) of the evaluation (default: the shipped weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Also measure the evaluation with this weights file (gen3, e.g. the previous fit), as
    /// `baseline`.
    #[arg(long)]
    pub baseline_weights: Option<PathBuf>,
}

fn parse_depths(s: &str) -> Result<Vec<u32>, CliError> {
    s.split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=30).contains(d))
                .ok_or_else(|| CliError::input(format!("--depths: '{d}' is not a depth 1-30")))
        })
        .collect()
}

pub fn run(args: AccuracyArgs) -> CmdResult {
    let depths = parse_depths(&args.depths)?;
    if let Some(path) = &args.write_benchmark {
        let dir = args.data.join("wthor");
        let io_err = |e: std::io::Error| format!("{}: {e}", path.display());
        if args.best_only {
            use std::io::Write as _;
            let mut file = std::fs::File::create(path).map_err(|e| CliError::input(io_err(e)))?;
            write!(
                file,
                "% The {n}-empty position of the first {c} held-out WTHOR games (seed {s}), \
                 written by\n% `virada bench accuracy --write-benchmark <file> --wthor {c} \
                 --benchmark-empties {n} --best-only`:\n% exact score and best move from one \
                 exact solve of the position; the other moves a depth-10 search ranks\n% within \
                 4 discs of the best (at most 3) solved exactly too. Unlisted moves were not \
                 solved.\n",
                n = args.benchmark_empties,
                c = args.wthor,
                s = args.seed,
            )
            .map_err(|e| CliError::input(io_err(e)))?;
            let rivals = accuracy::RivalCheck {
                depth: 10,
                margin: 4.0,
                max_rivals: 3,
                time_limit: std::time::Duration::from_secs(600),
            };
            let mut sink = |text: &str| {
                file.write_all(text.as_bytes())
                    .and_then(|_| file.flush())
                    .map_err(io_err)
            };
            accuracy::make_best_move_benchmark(
                &dir,
                args.seed,
                20,
                args.benchmark_empties,
                args.benchmark_skip..args.wthor,
                &rivals,
                &mut sink,
            )
            .map_err(CliError::input)?;
        } else {
            let text =
                accuracy::make_benchmark(&dir, args.seed, 20, args.benchmark_empties, args.wthor)
                    .map_err(CliError::input)?;
            std::fs::write(path, text).map_err(|e| CliError::input(io_err(e)))?;
        }
        println!("wrote {}", path.display());
        return Ok(());
    }
    let load = |p: &PathBuf| {
        Gen3Eval::from_file(p)
            .map(Arc::new)
            .map_err(CliError::input)
    };
    let trained = match &args.weights {
        Some(p) => load(p)?,
        None => virada_engine::default_evaluator(),
    };
    let mut evals: Vec<(&str, Arc<Gen3Eval>)> = Vec::new();
    if let Some(p) = &args.baseline_weights {
        evals.push(("baseline", load(p)?));
    }
    evals.push(("trained", trained.clone()));
    let mut sets: Vec<(String, Vec<Case>)> = Vec::new();
    if args.wthor > 0 {
        let cases = accuracy::wthor_cases(&args.data.join("wthor"), args.seed, 20, args.wthor)
            .map_err(CliError::input)?;
        sets.push(("WTHOR held-out, 24 empties".into(), cases));
    }
    let obf = if args.obf.is_empty() {
        let mut list: Vec<PathBuf> = [
            "fforum-1-19",
            "fforum-20-39",
            "fforum-40-59",
            "fforum-60-79",
        ]
        .iter()
        .map(|n| args.data.join("ffo").join(format!("{n}.obf")))
        .collect();
        for ours in STORED_BENCHMARKS.map(PathBuf::from) {
            if ours.exists() {
                list.push(ours);
            }
        }
        list
    } else {
        args.obf.clone()
    };
    for path in obf {
        let cases = accuracy::obf_cases(&path).map_err(CliError::input)?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let (lo, hi) = cases.iter().fold((64, 0), |(lo, hi), c| {
            let e = c.board.empty_count();
            (e.min(lo), e.max(hi))
        });
        sets.push((format!("{name}, {lo}-{hi} empties"), cases));
    }
    if args.solver_check > 0 {
        if let Some((_, cases)) = sets.first().filter(|_| args.wthor > 0) {
            let n = args.solver_check.min(cases.len());
            let r = accuracy::solver_check(&cases[..n]);
            let agree = r.iter().filter(|(got, want, _, _)| got == want).count();
            let nodes: u64 = r.iter().map(|x| x.2).sum();
            let secs: f64 = r.iter().map(|x| x.3).sum();
            println!(
                "Exact solver vs WTHOR theoretical scores at 24 empties: {agree}/{n} agree, \
                 {nodes} nodes, {secs:.1} s"
            );
            for (i, (got, want, _, _)) in r.iter().enumerate() {
                if got != want {
                    let b = cases[i].board;
                    println!(
                        "  mismatch: position {i} (player {:016x}, opponent {:016x}): solver \
                         {got:+}, record {want:+}",
                        b.player, b.opponent
                    );
                }
            }
            println!();
        }
    }
    if let Some((_, cases)) = sets.first() {
        let roots: Vec<_> = cases.iter().take(20).map(|c| c.board).collect();
        let (ns, leaves) = accuracy::eval_speed(&roots, 4, &trained);
        println!(
            "Evaluation cost in a 4-ply tree walk from {} positions ({leaves} leaves), ns per leaf:",
            roots.len()
        );
        println!("| walk only | from scratch | incremental |");
        println!("|---|---|---|");
        println!("| {:.1} | {:.1} | {:.1} |\n", ns[2], ns[0], ns[1]);
    }
    println!(
        "| set | positions | depth | evaluation | MAE (discs) | bias (discs) | best move | nodes | time (s) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (name, cases) in &sets {
        for &d in &depths {
            for (ename, e) in &evals {
                let s = accuracy::measure(cases, e.clone(), d, &format!("{name} d{d} {ename}"));
                let bm = s
                    .best_move_rate
                    .map_or("n/a".to_string(), |r| format!("{:.1}%", 100.0 * r));
                println!(
                    "| {name} | {} | {d} | {ename} | {:.2} | {:+.2} | {bm} | {} | {:.1} |",
                    s.positions, s.mae, s.bias, s.nodes, s.seconds
                );
            }
        }
    }
    Ok(())
}
