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
//! Per position every legal move gets its value and the lesson's feedback on it in English and
//! pt-BR, written by `virada_engine::teach::lesson` from the move's facts (the same facts layer
//! the coach quotes). `--refresh FILE` rewrites the feedback of the positions already in FILE
//! (values and answers kept, no search), after a change of the sentences:
//!
//! ```text
//! cargo run -p virada-server --example lessons -- --refresh crates/web/assets/learn/lessons.json > /tmp/l.json
//! ```

use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use virada_engine::teach::lesson::{feedback, Lesson, Played};
use virada_engine::teach::{Lang, MoveFacts};
use virada_engine::{Analysis, Engine, EngineConfig, Limits};
use virada_rules::formats::wthor::read_wtb;
use virada_rules::movegen::regions;
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

/// What a move does, counted with the rules (the teaching facts).
type Feat = MoveFacts;

fn features(b: &Board) -> Vec<Feat> {
    MoveFacts::all(b)
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
        "xc" => {
            !any(&|x| x.corner) && any(&|x| x.near_empty_corner.is_some()) && (16..=50).contains(&e)
        }
        "mobility" => {
            e >= 40
                && !any(&|x| x.corner || x.near_empty_corner.is_some())
                && spread(&|x| x.opponent_count()) >= 4
        }
        "quiet" => {
            (24..=44).contains(&e)
                && !any(&|x| x.corner || x.near_empty_corner.is_some())
                && spread(&|x| x.frontier) >= 3
        }
        "stable" => (14..=40).contains(&e) && any(&|x| !x.corner && x.stable_gain() >= 3),
        "parity" => {
            (6..=14).contains(&e)
                && regions(b.empties()).count() >= 2
                && any(&|x| x.region % 2 == 1)
                && any(&|x| x.region % 2 == 0)
        }
        "tempo" => {
            e >= 10 && any(&|x| x.opponent_count() <= 1) && any(&|x| x.opponent_count() >= 3)
        }
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
    let feat = |sq: Square| f.iter().find(|x| x.square == sq).expect("legal");
    let loss = |sq: Square| (best - value(a, sq)).min(best_deep - value(deep, sq));
    let losers: Vec<&Feat> = f.iter().filter(|x| loss(x.square) >= CLEAR_LOSS).collect();
    let al: Vec<&Feat> = ans.iter().map(|&s| feat(s)).collect();
    let all = |p: &dyn Fn(&Feat) -> bool| al.iter().all(|x| p(x));
    match lesson {
        "corners" => all(&|x| x.corner) && losers.iter().any(|x| !x.corner),
        "xc" => {
            all(&|x| x.near_empty_corner.is_none())
                && losers.iter().any(|x| x.near_empty_corner.is_some())
        }
        "mobility" => {
            let min = f.iter().map(|x| x.opponent_count()).min().unwrap_or(0);
            let worst = al.iter().map(|x| x.opponent_count()).max().unwrap_or(0);
            all(&|x| x.opponent_count() <= min + 1)
                && losers.iter().any(|x| x.opponent_count() >= worst + 3)
        }
        "quiet" => {
            let min = f.iter().map(|x| x.frontier).min().unwrap_or(0);
            let worst = al.iter().map(|x| x.frontier).max().unwrap_or(0);
            all(&|x| x.frontier <= min + 1 && x.flips <= 4)
                && losers.iter().any(|x| x.frontier >= worst + 3)
        }
        "stable" => {
            all(&|x| !x.corner && x.stable_gain() >= 3)
                && losers.iter().any(|x| x.stable_gain() <= 1)
        }
        "parity" => {
            all(&|x| x.region % 2 == 1)
                && f.iter().any(|x| x.region % 2 == 0 && loss(x.square) >= 2.0)
        }
        "tempo" => {
            all(&|x| x.opponent_count() <= 1) && losers.iter().any(|x| x.opponent_count() >= 3)
        }
        _ => false,
    }
}

/// Where a position comes from: a WTHOR year, the game's number in its file (from 1) and the
/// move it is before (from 1).
#[derive(Clone, Copy)]
struct Source {
    year: u16,
    game: usize,
    before_move: usize,
}

/// A lesson position: its board and side to move, its moves' values and its answers.
struct LessonPosition<'a> {
    lesson: &'a str,
    id: String,
    board: Board,
    mover: Color,
    values: Vec<(Square, f32)>,
    answers: BTreeSet<Square>,
    best: Square,
    source: Source,
}

/// A lesson position as `lessons.json` holds it: every legal move's value and the feedback on
/// it in both languages.
fn position_json(p: &LessonPosition) -> Value {
    let lesson = Lesson::from_id(p.lesson).expect("a lesson id");
    let all = MoveFacts::all(&p.board);
    let value = |sq: Square| {
        p.values
            .iter()
            .find(|(s, _)| *s == sq)
            .map_or(-99.0, |&(_, v)| round1(v))
    };
    let accepted: Vec<&MoveFacts> = all
        .iter()
        .filter(|f| p.answers.contains(&f.square))
        .collect();
    let compared = lesson.compared_answer(&accepted, p.best);
    let mut moves = Map::new();
    for f in &all {
        let ok = p.answers.contains(&f.square);
        let answer = if ok { f } else { compared };
        let played = Played {
            lesson,
            mover: p.mover,
            played: f,
            accepted: ok,
            answer,
            all: &all,
            played_value: value(f.square),
            answer_value: value(answer.square),
        };
        let mut text = Map::new();
        for lang in Lang::ALL {
            text.insert(lang.code().to_string(), json!(feedback(&played, lang)));
        }
        moves.insert(
            f.square.to_string(),
            json!({"value": value(f.square), "text": text}),
        );
    }
    let s = p.source;
    json!({
        "id": p.id,
        "board": board_text(&p.board, p.mover),
        "to_move": if p.mover == Color::Black { "black" } else { "white" },
        "empties": p.board.empty_count(),
        "source": {"year": s.year, "game": s.game, "before_move": s.before_move},
        "answers": p.answers.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "best": p.best.to_string(),
        "moves": moves,
    })
}

fn square(v: &Value) -> Square {
    v.as_str().and_then(|s| s.parse().ok()).expect("a square")
}

/// `--refresh FILE`: the positions of FILE with their feedback written again.
fn refresh(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut data: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    for l in data["lessons"].as_array_mut().expect("lessons") {
        let lesson = l["id"].as_str().expect("id").to_string();
        for p in l["positions"].as_array_mut().expect("positions") {
            let id = p["id"].as_str().expect("id").to_string();
            let side = if p["to_move"] == "black" { "X" } else { "O" };
            let pos: Position = format!("{} {side}", p["board"].as_str().expect("board"))
                .parse()
                .unwrap_or_else(|e| panic!("{id}: {e:?}"));
            let values: Vec<(Square, f32)> = p["moves"]
                .as_object()
                .expect("moves")
                .iter()
                .map(|(k, m)| {
                    let v = m["value"].as_f64().expect("value") as f32;
                    (k.parse().expect("a square"), v)
                })
                .collect();
            let answers = p["answers"]
                .as_array()
                .expect("answers")
                .iter()
                .map(square)
                .collect();
            let source = match &p["source"] {
                Value::String(s) => parse_source(s).unwrap_or_else(|| panic!("{id}: source {s}")),
                v => Source {
                    year: v["year"].as_u64().expect("year") as u16,
                    game: v["game"].as_u64().expect("game") as usize,
                    before_move: v["before_move"].as_u64().expect("before_move") as usize,
                },
            };
            *p = position_json(&LessonPosition {
                lesson: &lesson,
                best: square(&p["best"]),
                id,
                board: pos.board(),
                mover: pos.side_to_move(),
                values,
                answers,
                source,
            });
        }
    }
    data
}

/// "WTHOR 2008, game 8, before move 29" (the first files' wording).
fn parse_source(s: &str) -> Option<Source> {
    let numbers: Vec<usize> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    match numbers[..] {
        [year, game, before_move] => Some(Source {
            year: year as u16,
            game,
            before_move,
        }),
        _ => None,
    }
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
    if args.first().map(String::as_str) == Some("--refresh") {
        let path = args.get(1).expect("--refresh FILE");
        println!(
            "{}",
            serde_json::to_string_pretty(&refresh(path)).expect("json")
        );
        return;
    }
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
                    let values = f.iter().map(|x| (x.square, value(&a, x.square))).collect();
                    seen.insert((b.player, b.opponent));
                    let n = found[li].len() + 1;
                    eprintln!("{lesson} {n}: {year} game {gi} ply {pi} ({searched} searched)");
                    found[li].push(position_json(&LessonPosition {
                        lesson,
                        id: format!("{lesson}-{n}"),
                        board: b,
                        mover,
                        values,
                        answers: ans,
                        best,
                        source: Source {
                            year,
                            game: gi + 1,
                            before_move: pi + 1,
                        },
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
