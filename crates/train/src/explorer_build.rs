//! Builds the opening explorer (`virada_engine::explorer`) from the WTHOR database:
//! `virada openings explorer build` (docs/EXPLORER.md).
//!
//! 1. Every game that replays to its end counts, with Black's final disc difference as replayed
//!    (empties to the winner). A record that stops before the end (a few games were adjourned or
//!    lost on time and recorded so) or does not replay is left out and counted.
//! 2. **Ratings:** one Elo rating a player, computed over those games in the database's order
//!    (the files year by year, the games in file order): everyone starts at 1500, K = 20, a win
//!    scores 1 and a draw 1/2. A player is listed among a move's strongest once they have at
//!    least [`LISTED_MIN_GAMES`] games; the unknown player (`???`) never is. The final rating is
//!    used: the strongest players are those strongest at the end of their records.
//! 3. **Positions:** each position with at most 24 discs where a game's side to move played is
//!    keyed by its canonical form and side ([`virada_engine::explorer::key_of`]); the move goes
//!    to its representative square. A node is kept when at least `min_games` games played a move
//!    there (the shipped file's value and why: docs/EXPLORER.md); every move of a kept node is
//!    kept, however rarely played.

use crate::wthor;
use std::collections::HashMap;
use std::path::Path;
use virada_engine::explorer::{
    key_of, representative, Edge, Explorer, Node, Player, Stats, MAX_DISCS, TOP_PLAYERS,
};
use virada_rules::formats::wthor::read_players;
use virada_rules::symmetry::canonical;
use virada_rules::{Board, Color, Move, Position};

/// Games a player needs to be listed among a move's strongest.
pub const LISTED_MIN_GAMES: u32 = 20;

/// The Elo constants (see the module documentation).
pub const ELO_START: f64 = 1500.0;
pub const ELO_K: f64 = 20.0;

/// One usable game: its moves from the start, players, Black's final disc difference.
#[derive(Clone, Debug)]
pub struct ExplorerGame {
    pub moves: Vec<Move>,
    pub positions: Vec<Position>,
    pub black_player: u16,
    pub white_player: u16,
    pub black_diff: i32,
}

/// What a build read and kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildReport {
    pub files: usize,
    pub games_read: usize,
    pub games_used: usize,
    /// Records that do not replay legally.
    pub games_illegal: usize,
    /// Records that replay but stop before the end.
    pub games_unfinished: usize,
    pub nodes_seen: usize,
    pub nodes_kept: usize,
    pub moves_kept: usize,
    pub players_listed: usize,
}

/// The usable games of a WTHOR folder, in database order, and the counts of what was left out.
pub fn usable_games(dir: &Path) -> Result<(Vec<ExplorerGame>, BuildReport), String> {
    let db = wthor::load(dir)?;
    let mut report = BuildReport {
        files: db.files.len(),
        games_read: db.games.len(),
        ..BuildReport::default()
    };
    let mut games = Vec::with_capacity(db.games.len());
    for (g, _) in &db.games {
        let Ok(played) = g.replay() else {
            report.games_illegal += 1;
            continue;
        };
        let Some(result) = played.position().result() else {
            report.games_unfinished += 1;
            continue;
        };
        // Only the opening is kept: the positions the explorer stores and the move from each.
        let opening = played
            .positions()
            .iter()
            .take_while(|p| p.black().count() + p.white().count() <= MAX_DISCS)
            .count()
            .min(played.moves().len());
        games.push(ExplorerGame {
            moves: played.moves()[..opening].to_vec(),
            positions: played.positions()[..opening].to_vec(),
            black_player: g.black_player,
            white_player: g.white_player,
            black_diff: result.difference_for(Color::Black),
        });
    }
    report.games_used = games.len();
    Ok((games, report))
}

/// Each player's final Elo and rated games, over `games` in order.
pub fn elo_ratings(games: &[ExplorerGame]) -> HashMap<u16, (f64, u32)> {
    let mut r: HashMap<u16, (f64, u32)> = HashMap::new();
    for g in games {
        let b = r.get(&g.black_player).map_or(ELO_START, |v| v.0);
        let w = r.get(&g.white_player).map_or(ELO_START, |v| v.0);
        let expected_black = 1.0 / (1.0 + 10f64.powf((w - b) / 400.0));
        let scored_black = match g.black_diff.cmp(&0) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        };
        let delta = ELO_K * (scored_black - expected_black);
        let eb = r.entry(g.black_player).or_insert((ELO_START, 0));
        eb.0 += delta;
        eb.1 += 1;
        let ew = r.entry(g.white_player).or_insert((ELO_START, 0));
        ew.0 -= delta;
        ew.1 += 1;
    }
    r
}

struct EdgeAcc {
    square: u8,
    stats: Stats,
    /// (rating, player), strongest first, distinct players.
    top: Vec<(f64, u16)>,
}

struct NodeAcc {
    /// The canonical board and side: two positions with one key would be a hash collision.
    board: (Board, Color),
    edges: Vec<EdgeAcc>,
}

/// The explorer of `games` (database order) with the player names `names` (`WTH.JOU`); nodes
/// played from fewer than `min_games` times are dropped.
pub fn build(
    games: &[ExplorerGame],
    names: &[String],
    min_games: u32,
    mut report: BuildReport,
    source: &str,
) -> Result<(Explorer, BuildReport), String> {
    let ratings = elo_ratings(games);
    let listed = |p: u16| -> Option<f64> {
        let (elo, n) = *ratings.get(&p)?;
        let known = names.get(usize::from(p)).is_some_and(|n| n != "???");
        (n >= LISTED_MIN_GAMES && known).then_some(elo)
    };
    let mut nodes: HashMap<u64, NodeAcc> = HashMap::new();
    for g in games {
        for (pos, mv) in g.positions.iter().zip(&g.moves) {
            let Move::Play(sq) = *mv else { continue };
            let (key, _) = key_of(pos);
            let (c, _) = canonical(Board::new(pos.black().0, pos.white().0));
            let node = nodes.entry(key).or_insert_with(|| NodeAcc {
                board: (c, pos.side_to_move()),
                edges: Vec::new(),
            });
            if node.board != (c, pos.side_to_move()) {
                return Err(format!("two positions share the key {key:016x}"));
            }
            let rep = representative(pos, sq).index() as u8;
            let i = match node.edges.iter().position(|e| e.square == rep) {
                Some(i) => i,
                None => {
                    node.edges.push(EdgeAcc {
                        square: rep,
                        stats: Stats::default(),
                        top: Vec::new(),
                    });
                    node.edges.len() - 1
                }
            };
            let edge = &mut node.edges[i];
            edge.stats.add(g.black_diff);
            let mover = match pos.side_to_move() {
                Color::Black => g.black_player,
                Color::White => g.white_player,
            };
            if let Some(elo) = listed(mover) {
                if !edge.top.iter().any(|&(_, p)| p == mover) {
                    edge.top.push((elo, mover));
                    edge.top
                        .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    edge.top.truncate(TOP_PLAYERS);
                }
            }
        }
    }
    report.nodes_seen = nodes.len();
    let mut kept: Vec<(u64, NodeAcc)> = nodes
        .into_iter()
        .filter(|(_, n)| n.edges.iter().map(|e| e.stats.games).sum::<u32>() >= min_games)
        .collect();
    kept.sort_by_key(|(k, _)| *k);
    // The players named by kept moves, strongest first, numbered in that order.
    let mut used: Vec<(f64, u16)> = kept
        .iter()
        .flat_map(|(_, n)| n.edges.iter().flat_map(|e| e.top.iter().copied()))
        .collect();
    used.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    used.dedup_by_key(|x| x.1);
    let index: HashMap<u16, u16> = used
        .iter()
        .enumerate()
        .map(|(i, &(_, p))| (p, i as u16))
        .collect();
    let players: Vec<Player> = used
        .iter()
        .map(|&(elo, p)| Player {
            name: names.get(usize::from(p)).cloned().unwrap_or_default(),
            elo: elo.round().clamp(0.0, f64::from(u16::MAX)) as u16,
            games: ratings.get(&p).map_or(0, |r| r.1),
        })
        .collect();
    let nodes: Vec<Node> = kept
        .into_iter()
        .map(|(key, n)| {
            let mut edges: Vec<Edge> = n
                .edges
                .into_iter()
                .map(|e| Edge {
                    square: virada_rules::Square::from_index_unchecked(e.square),
                    stats: e.stats,
                    players: e.top.iter().map(|&(_, p)| index[&p]).collect(),
                })
                .collect();
            edges.sort_by_key(|e| e.square.index());
            Node { key, edges }
        })
        .collect();
    report.nodes_kept = nodes.len();
    report.moves_kept = nodes.iter().map(|n| n.edges.len()).sum();
    report.players_listed = players.len();
    let meta = format!(
        "source={source}\nfiles={}\ngames_read={}\ngames_used={}\nmin_games={min_games}\n\
         max_plies={}\nelo=start {ELO_START}, K {ELO_K}, listed from {LISTED_MIN_GAMES} games\n",
        report.files,
        report.games_read,
        report.games_used,
        virada_engine::explorer::MAX_PLIES,
    );
    Ok((
        Explorer {
            meta,
            players,
            nodes,
        },
        report,
    ))
}

/// Builds from a WTHOR folder (`WTH_*.wtb` and `WTH.JOU`).
pub fn build_from_dir(dir: &Path, min_games: u32) -> Result<(Explorer, BuildReport), String> {
    let (games, report) = usable_games(dir)?;
    let jou = dir.join("WTH.JOU");
    let bytes = std::fs::read(&jou).map_err(|e| format!("{}: {e}", jou.display()))?;
    let names = read_players(&bytes).map_err(|e| format!("{}: {e}", jou.display()))?;
    build(&games, &names, min_games, report, "WTHOR")
}
