//! `virada bench depths`: nodes and time to each depth on fixed positions (the diagnosis of
//! docs/STRENGTH.md: how far the search sees for its work, side by side with another engine's
//! counts on the same positions).

use super::solve_input::read_obf_file;
use super::{CliError, CmdResult};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use virada_engine::search::Selectivity;
use virada_engine::{Engine, EngineConfig, Iteration, Limits};

#[derive(Args)]
pub struct DepthsArgs {
    /// OBF file of positions (default: the diagnosis bench file).
    #[arg(long, default_value = "crates/train/bench/diag50.obf")]
    pub obf: PathBuf,
    /// Deepest midgame depth (never an exact solve: the midgame search alone is measured).
    #[arg(long, default_value_t = 16)]
    pub depth: u32,
    /// Selectivity in percent (73 is a move search's, 95 an analysis's).
    #[arg(long, default_value_t = 73)]
    pub sel: u8,
    /// Also write one line per position and depth: `index empties depth nodes micros value`.
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Instead: one move search a position limited by this many nodes (as `nodes=N` in a
    /// match: 73%, exact or win/loss/draw solves when they fit), and, where the OBF line scores
    /// every move, the discs the chosen move loses against the best one.
    #[arg(long)]
    pub nodes: Option<u64>,
}

pub fn run(args: DepthsArgs) -> CmdResult {
    if !(1..=40).contains(&args.depth) {
        return Err(CliError::input("--depth must be between 1 and 40"));
    }
    let inputs = read_obf_file(&args.obf)?;
    if let Some(n) = args.nodes {
        return moves_at_nodes(&inputs, n);
    }
    let mut journal = match &args.journal {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| CliError::failed(format!("cannot write {}: {e}", p.display())))?,
        ),
        None => None,
    };
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 64,
        threads: 1,
        ..EngineConfig::default()
    });
    engine.evaluator().build_all_phases();
    let sel = Selectivity::from_percent(args.sel);
    let max = args.depth as usize;
    // Per depth: the nodes and seconds of every position that reached it.
    let mut per_depth: Vec<Vec<(u64, f64)>> = vec![Vec::new(); max + 1];
    for (i, input) in inputs.iter().enumerate() {
        engine.clear();
        let board = input.position.board();
        let empties = board.empty_count();
        let limits = Limits::midgame(args.depth.min(empties - 1), sel);
        let mut rows = Vec::new();
        engine.search_observed(board, &limits, None, &mut |it: &Iteration| {
            rows.push((it.depth, it.nodes, it.elapsed.as_secs_f64(), it.value));
        });
        for &(d, nodes, secs, value) in &rows {
            if let Some(v) = per_depth.get_mut(d as usize) {
                v.push((nodes, secs));
            }
            if let Some(j) = journal.as_mut() {
                writeln!(j, "{i} {empties} {d} {nodes} {:.0} {value:.2}", secs * 1e6)
                    .map_err(|e| CliError::failed(format!("journal: {e}")))?;
            }
        }
    }
    println!(
        "{} positions of {}, selectivity {sel}, one thread",
        inputs.len(),
        args.obf.display()
    );
    println!("| depth | positions | median nodes | mean nodes | mean time (ms) | ns a node |");
    println!("|---|---|---|---|---|---|");
    for (d, v) in per_depth.iter().enumerate().skip(1) {
        if v.is_empty() {
            continue;
        }
        let mut nodes: Vec<u64> = v.iter().map(|x| x.0).collect();
        nodes.sort_unstable();
        let total: u64 = nodes.iter().sum();
        let secs: f64 = v.iter().map(|x| x.1).sum();
        println!(
            "| {d} | {} | {} | {} | {:.1} | {:.0} |",
            v.len(),
            nodes[nodes.len() / 2],
            total / v.len() as u64,
            secs * 1e3 / v.len() as f64,
            secs * 1e9 / total.max(1) as f64
        );
    }
    Ok(())
}

/// `--nodes`: the move each position gets from a node-limited search, and what it loses.
fn moves_at_nodes(inputs: &[super::solve_input::SolveInput], nodes: u64) -> CmdResult {
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 64,
        threads: 1,
        ..EngineConfig::default()
    });
    engine.evaluator().build_all_phases();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let (mut scored, mut lost, mut wrong_outcome, mut exact, mut total_nodes) = (0, 0, 0, 0, 0u64);
    println!("pos  empties  move  score   exact  nodes  loses");
    for (i, input) in inputs.iter().enumerate() {
        engine.clear();
        let r = engine.search(input.position.board(), &limits, None);
        total_nodes += r.nodes;
        exact += usize::from(r.exact);
        let best = input.expected_moves.iter().map(|m| m.1).max();
        let got = input
            .expected_moves
            .iter()
            .find(|m| m.0 == r.best_move)
            .map(|m| m.1);
        let loss = match (best, got) {
            (Some(b), Some(g)) => {
                scored += 1;
                lost += b - g;
                wrong_outcome += usize::from(b.signum() != g.signum());
                format!("{}", b - g)
            }
            _ => "-".to_string(),
        };
        println!(
            "{:>3}  {:>7}  {:<4}  {:>+6.2}  {:<5}  {:>7}  {loss}",
            i + 1,
            input.position.board().empty_count(),
            r.best_move.to_string(),
            r.score,
            r.exact,
            r.nodes
        );
    }
    println!(
        "{} positions, nodes={nodes}: {exact} solved exactly, {} nodes a position",
        inputs.len(),
        total_nodes / inputs.len().max(1) as u64
    );
    if scored > 0 {
        println!(
            "{scored} scored: {:.2} discs lost a position, {wrong_outcome} with a worse outcome \
             (win/draw/loss) than the best move",
            lost as f64 / scored as f64
        );
    }
    Ok(())
}
