//! Builds `crates/web/assets/learn/lessons.json`, the positions of the strategy lessons (the learning
//! page, web/lessons.js): for each idea of the rule sheets, positions from WTHOR games where the
//! move the idea calls for is the engine's best or within 1 disc of it, at the depth the test
//! `tests/lessons.rs` checks and at a deeper one, and the moves that go against the idea lose
//! clearly. The games are read, never copied: only the chosen positions are written.
//!
//! ```text
//! cargo run --release -p virada-server --example lessons -- /work/shared/data/wthor 2008 2014 > crates/web/assets/learn/lessons.json
//! ```
//!
//! Per position every legal move gets its value and the counts the lesson's feedback quotes
//! (the opponent's moves after it, discs flipped, new frontier discs, stable discs gained, the
//! size of its empty region) and, for the moves that are not answers, the coach's reasons.

use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use virada_engine::coach::{self, Lang, Mistake};
use virada_engine::endgame::stability::stable_discs;
use virada_engine::{Analysis, Engine, EngineConfig, Limits};
use virada_rules::formats::wthor::read_wtb;
use virada_rules::masks::{CORNERS, C_SQUARES, X_SQUARES};
use virada_rules::movegen::{neighbours, region_of, regions};
use virada_rules::{Board, Color, Move, Position, Square};

/// The depth the test checks every answer at (exact below `EXACT` empties).
const CHECK_DEPTH: u32 = 8;
/// A deeper look: the answers must be the same set at both depths.
const DEEP_DEPTH: u32 = 12;
const EXACT: u32 = 14;
/// Positions per lesson.
const WANTED: usize = 7;
/// A move that goes against the idea must lose at least this much (discs).
const CLEAR_LOSS: f32 = 3.0;

const LESSONS: [&str; 7] = [
    "corners", "xc", "mobility", "quiet", "stable", "parity", "tempo",
];

/// What a move does, counted with the rules.
#[derive(Clone, Debug)]
struct Feat {
    sq: Square,
    corner: bool,
    /// An X- or C-square next to an empty corner.
    xc: bool,
    opp_moves: u32,
    flips: u32,
    /// Discs of the mover next to an empty square among the placed and flipped ones.
    frontier: u32,
    /// The mover's stable discs after the move minus before.
    stable: i32,
    /// The size of the empty region the move is played in (before the move).
    region: u32,
}

/// The empty corner an X- or C-square touches, if any.
fn next_to_empty_corner(b: &Board, sq: Square) -> bool {
    let bit = sq.bit();
    if bit & (X_SQUARES | C_SQUARES) == 0 {
        return false;
    }
    let corners = neighbours(bit) & CORNERS;
    corners & b.empties() != 0
}

fn features(b: &Board) -> Vec<Feat> {
    let empties = b.empties();
    let stable_before = stable_discs(b.player, b.opponent).count_ones() as i32;
    b.legal_moves()
        .iter()
        .map(|sq| {
            let f = b.flips(sq).0;
            let after = b.play_unchecked(sq);
            let mine = f | sq.bit();
            let exposed = mine & neighbours(after.empties());
            let stable_after = stable_discs(after.opponent, after.player).count_ones() as i32;
            Feat {
                sq,
                corner: sq.bit() & CORNERS != 0,
                xc: next_to_empty_corner(b, sq),
                opp_moves: after.legal_moves().count(),
                flips: f.count_ones(),
                frontier: exposed.count_ones(),
                stable: stable_after - stable_before,
                region: region_of(empties, sq).count_ones(),
            }
        })
        .collect()
}

fn limits(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        exact_empties: Some(EXACT),
        ..Limits::default()
    }
}

/// Every legal move's value at `depth`, from a cleared table (as the test does).
fn analyze(engine: &mut Engine, b: Board, depth: u32) -> Analysis {
    engine.clear();
    engine.analyze(b, &limits(depth), None)
}

fn value(a: &Analysis, sq: Square) -> f32 {
    a.value_of(Move::Play(sq)).map_or(-99.0, |m| m.value)
}

fn best_value(a: &Analysis) -> f32 {
    a.moves.iter().map(|m| m.value).fold(f32::MIN, f32::max)
}

/// Moves within 1 disc of the best.
fn answers(a: &Analysis) -> BTreeSet<Square> {
    let best = best_value(a);
    a.moves
        .iter()
        .filter(|m| m.value >= best - 1.0)
        .filter_map(|m| m.mv.square())
        .collect()
}

/// A cheap look at whether the position may suit `lesson` (no search).
fn prefilter(lesson: &str, b: &Board, f: &[Feat]) -> bool {
    let e = b.empty_count();
    let any = |p: &dyn Fn(&Feat) -> bool| f.iter().any(p);
    let spread = |k: &dyn Fn(&Feat) -> u32| {
        let max = f.iter().map(k).max().unwrap_or(0);
        let min = f.iter().map(k).min().unwrap_or(0);
        max - min
    };
    if f.len() < 3 {
        return false;
    }
    match lesson {
        "corners" => any(&|x| x.corner) && e >= 12,
        "xc" => !any(&|x| x.corner) && any(&|x| x.xc) && (16..=50).contains(&e),
        "mobility" => e >= 40 && !any(&|x| x.corner || x.xc) && spread(&|x| x.opp_moves) >= 4,
        "quiet" => {
            (24..=44).contains(&e) && !any(&|x| x.corner || x.xc) && spread(&|x| x.frontier) >= 3
        }
        "stable" => (14..=40).contains(&e) && any(&|x| !x.corner && x.stable >= 3),
        "parity" => {
            (6..=14).contains(&e)
                && regions(b.empties()).count() >= 2
                && any(&|x| x.region % 2 == 1)
                && any(&|x| x.region % 2 == 0)
        }
        "tempo" => e >= 10 && any(&|x| x.opp_moves <= 1) && any(&|x| x.opp_moves >= 3),
        _ => false,
    }
}

/// Whether the searched position teaches `lesson`: every answer follows the idea and a move
/// against it loses clearly.
fn teaches(
    lesson: &str,
    f: &[Feat],
    ans: &BTreeSet<Square>,
    a: &Analysis,
    deep: &Analysis,
) -> bool {
    let best = best_value(a);
    let best_deep = best_value(deep);
    let feat = |sq: Square| f.iter().find(|x| x.sq == sq).expect("legal");
    let loss = |sq: Square| (best - value(a, sq)).min(best_deep - value(deep, sq));
    let losers: Vec<&Feat> = f.iter().filter(|x| loss(x.sq) >= CLEAR_LOSS).collect();
    let al: Vec<&Feat> = ans.iter().map(|&s| feat(s)).collect();
    let all = |p: &dyn Fn(&Feat) -> bool| al.iter().all(|x| p(x));
    match lesson {
        "corners" => all(&|x| x.corner) && losers.iter().any(|x| !x.corner),
        "xc" => all(&|x| !x.xc) && losers.iter().any(|x| x.xc),
        "mobility" => {
            let min = f.iter().map(|x| x.opp_moves).min().unwrap_or(0);
            let worst = al.iter().map(|x| x.opp_moves).max().unwrap_or(0);
            all(&|x| x.opp_moves <= min + 1) && losers.iter().any(|x| x.opp_moves >= worst + 3)
        }
        "quiet" => {
            let min = f.iter().map(|x| x.frontier).min().unwrap_or(0);
            let worst = al.iter().map(|x| x.frontier).max().unwrap_or(0);
            all(&|x| x.frontier <= min + 1 && x.flips <= 4)
                && losers.iter().any(|x| x.frontier >= worst + 3)
        }
        "stable" => all(&|x| !x.corner && x.stable >= 3) && losers.iter().any(|x| x.stable <= 1),
        "parity" => {
            all(&|x| x.region % 2 == 1) && f.iter().any(|x| x.region % 2 == 0 && loss(x.sq) >= 2.0)
        }
        "tempo" => all(&|x| x.opp_moves <= 1) && losers.iter().any(|x| x.opp_moves >= 3),
        _ => false,
    }
}

/// The coach's reasons for playing `sq` instead of the best move.
fn reasons(engine: &mut Engine, b: Board, mover: Color, sq: Square, a: &Analysis) -> Value {
    let best = a.best().expect("moves").mv.square().expect("a square");
    let after = b.play_unchecked(sq);
    let reply = analyze(engine, after, CHECK_DEPTH - 1);
    let mut played_line = vec![Move::Play(sq)];
    played_line.extend(reply.pv.iter().copied());
    let mut best_line = a.pv.clone();
    if best_line.first() != Some(&Move::Play(best)) {
        best_line = vec![Move::Play(best)];
    }
    let m = Mistake {
        before: b,
        mover,
        played: sq,
        best,
        played_value: value(a, sq),
        best_value: best_value(a),
        exact: b.empty_count() <= EXACT,
        best_line: &best_line,
        played_line: &played_line,
    };
    let out: Vec<Value> = coach::explain(&m)
        .iter()
        .filter(|e| e.kind.as_str() != "exact_loss")
        .take(2)
        .map(|e| json!({"kind": e.kind.as_str(), "en": e.text(Lang::En), "pt": e.text(Lang::Pt)}))
        .collect();
    Value::Array(out)
}

fn board_text(b: &Board, mover: Color) -> String {
    let pos = Position::from_board(*b, mover);
    let mut s = pos.to_string();
    s.truncate(64);
    s
}

fn round1(v: f32) -> f64 {
    (v as f64 * 10.0).round() / 10.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .map_or("/work/shared/data/wthor", String::as_str);
    let from: u16 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2008);
    let to: u16 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2014);
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 16,
        threads: 1,
        ..EngineConfig::default()
    });
    let mut found: Vec<Vec<Value>> = vec![Vec::new(); LESSONS.len()];
    let mut searched = 0u32;
    // A position (the same opening reached in many games) is used once.
    let mut seen: BTreeSet<(u64, u64)> = BTreeSet::new();
    'years: for year in from..=to {
        let path = format!("{dir}/WTH_{year}.wtb");
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{path}: not read");
            continue;
        };
        let file = match read_wtb(&bytes) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        // Every 7th game: the lessons' positions come from many tournaments.
        for (gi, g) in file.games.iter().enumerate().step_by(7) {
            if found.iter().all(|v| v.len() >= WANTED) {
                break 'years;
            }
            let Ok(game) = g.replay() else { continue };
            let positions = game.positions();
            // One position a game at most; lessons still short are served first.
            let mut order: Vec<usize> = (0..LESSONS.len()).collect();
            order.sort_by_key(|&i| found[i].len());
            'game: for &li in &order {
                if found[li].len() >= WANTED {
                    continue;
                }
                let lesson = LESSONS[li];
                for (pi, pos) in positions.iter().enumerate().skip(6) {
                    let b = pos.board();
                    if seen.contains(&(b.player, b.opponent)) {
                        continue;
                    }
                    let f = features(&b);
                    if !prefilter(lesson, &b, &f) {
                        continue;
                    }
                    searched += 1;
                    let a = analyze(&mut engine, b, CHECK_DEPTH);
                    let ans = answers(&a);
                    let deep = analyze(&mut engine, b, DEEP_DEPTH);
                    if ans != answers(&deep) || !teaches(lesson, &f, &ans, &a, &deep) {
                        continue;
                    }
                    let mover = pos.side_to_move();
                    let best = a.best().expect("moves").mv.square().expect("a square");
                    let mut moves = Map::new();
                    for x in &f {
                        let mut m = json!({
                            "value": round1(value(&a, x.sq)),
                            "opp_moves": x.opp_moves,
                            "flips": x.flips,
                            "frontier": x.frontier,
                            "stable": x.stable,
                            "region": x.region,
                        });
                        if !ans.contains(&x.sq) {
                            m["why"] = reasons(&mut engine, b, mover, x.sq, &a);
                        }
                        moves.insert(x.sq.to_string(), m);
                    }
                    seen.insert((b.player, b.opponent));
                    let n = found[li].len() + 1;
                    eprintln!("{lesson} {n}: {year} game {gi} ply {pi} ({searched} searched)");
                    found[li].push(json!({
                        "id": format!("{lesson}-{n}"),
                        "board": board_text(&b, mover),
                        "to_move": if mover == Color::Black { "black" } else { "white" },
                        "empties": b.empty_count(),
                        "source": format!("WTHOR {year}, game {}, before move {}", gi + 1, pi + 1),
                        "answers": ans.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                        "best": best.to_string(),
                        "moves": moves,
                    }));
                    break 'game;
                }
            }
        }
    }
    let lessons: Vec<Value> = LESSONS
        .iter()
        .zip(found)
        .map(|(id, positions)| json!({"id": id, "positions": positions}))
        .collect();
    let out = json!({
        "check": {"depth": CHECK_DEPTH, "exact_empties": EXACT, "tolerance": 1.0},
        "lessons": lessons,
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("json"));
}
