//! `virada bench coach-check`: every claim of the coach on drawn WTHOR games, counted again by
//! an independent model ([`super::coach_model`]: its own 8x8 move generator, flood fill,
//! frontier and stability) and listed when false. The games are reviewed as `bench coach`
//! does; for each explanation the check replays the position before the move and both lines
//! (as the analysis API gives them) on its own board and recounts the claim's numbers, its
//! squares on the board of its ply, and the words its sentence may only say when they hold
//! ("at once", "must pass", "even"/"odd", a plural after 1).

use super::bench_coach::draw;
use super::coach_model::{is_corner, is_edge, name, neighbours, parse, Grid, Sq};
use super::{CliError, CmdResult};
use clap::Args;
use std::collections::BTreeSet;
use std::path::PathBuf;
use virada_engine::coach::{self, Explanation, Kind, Lang, LineKind};
use virada_engine::{Book, Engine, EngineConfig, Limits};
use virada_rules::Move;

/// The coach reads its lines this many plies deep (the check replays as far).
const HORIZON: usize = 10;

#[derive(Args)]
pub struct CoachCheckArgs {
    /// Data directory (with wthor/).
    #[arg(long, default_value = "../shared/data")]
    pub data: PathBuf,
    /// Games to draw.
    #[arg(long, default_value_t = 8)]
    pub games: usize,
    /// Seed of the draw.
    #[arg(long, default_value_t = 53)]
    pub seed: u64,
    /// Draw from the WTHOR files of these years (first and last).
    #[arg(long, default_value_t = 2011)]
    pub from_year: u16,
    #[arg(long, default_value_t = 2019)]
    pub to_year: u16,
    /// Search depth of the review.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Solve exactly from this many empty squares.
    #[arg(long, default_value_t = 14)]
    pub exact: u32,
    /// Print every claim with its verdict, not only the false ones.
    #[arg(long)]
    pub verbose: bool,
}

/// A move's line replayed on the model: the boards after each ply (at most [`HORIZON`]),
/// stopping at the first move that is not legal, as the coach does.
struct Line {
    moves: Vec<String>,
    boards: Vec<Grid>,
}

fn replay(before: &Grid, line: &[Move]) -> Line {
    let mut g = *before;
    let mut out = Line {
        moves: Vec::new(),
        boards: Vec::new(),
    };
    for mv in line.iter().take(HORIZON) {
        let text = mv.to_string();
        let Some(next) = g.apply(&text) else { break };
        g = next;
        out.moves.push(text);
        out.boards.push(g);
    }
    out
}

/// What the check needs of one judged move.
struct Case<'a> {
    before: Grid,
    /// The mover: 1 Black, -1 White.
    me: i8,
    played: Sq,
    best: Sq,
    played_line: &'a Line,
    best_line: &'a Line,
}

impl Case<'_> {
    /// The board `ply` plies into `line` (0: before the move).
    fn board(&self, line: LineKind, ply: usize) -> Option<Grid> {
        match (line, ply) {
            (LineKind::Before, _) | (_, 0) => Some(self.before),
            (LineKind::Played, k) => self.played_line.boards.get(k - 1).copied(),
            (LineKind::Best, k) => self.best_line.boards.get(k - 1).copied(),
        }
    }
}

/// The claim is false: why.
type Verdict = Result<(), String>;

fn expect(what: &str, claimed: i32, counted: i32) -> Verdict {
    if claimed == counted {
        Ok(())
    } else {
        Err(format!("{what}: says {claimed}, counted {counted}"))
    }
}

fn squares_of(e: &Explanation) -> Vec<Sq> {
    e.squares
        .iter()
        .filter_map(|s| parse(&s.to_string()))
        .collect()
}

fn set_eq(what: &str, claimed: &[Sq], counted: &BTreeSet<Sq>) -> Verdict {
    let c: BTreeSet<Sq> = claimed.iter().copied().collect();
    if &c == counted {
        Ok(())
    } else {
        let show = |s: &BTreeSet<Sq>| s.iter().map(|&x| name(x)).collect::<Vec<_>>().join(" ");
        Err(format!(
            "{what}: draws {}, counted {}",
            show(&c),
            show(counted)
        ))
    }
}

/// (the mover's legal moves, the opponent's) on `g`.
fn mobility(g: &Grid, me: i8) -> (i32, i32) {
    (g.moves_of(me).len() as i32, g.moves_of(-me).len() as i32)
}

/// Recounts one claim on the model.
fn check(e: &Explanation, c: &Case) -> Verdict {
    let n = |k: &str| e.number(k);
    let me = c.me;
    let sq = squares_of(e);
    let at = c
        .board(e.at.line, e.at.ply)
        .ok_or_else(|| format!("its board {:?} is beyond the line", e.at))?;
    let after_p = c.played_line.boards[0];
    let after_b = c.best_line.boards[0];
    match e.kind {
        Kind::ExactLoss => {
            // The exact values are the solver's (not re-solved here); their difference and the
            // line are checked.
            expect("loss", n("loss"), n("best_score") - n("played_score"))?;
            if n("loss") <= 0 {
                return Err("a loss of 0 or less".into());
            }
            if replay(&c.before, &e.line).moves.len() != e.line.len().min(HORIZON) {
                return Err("its line is not legal".into());
            }
            Ok(())
        }
        Kind::CornerGiven if n("moves") <= 1 => {
            // Each corner is a legal move of the opponent right after the played move and not
            // after the better one ("at once ... b does not").
            if e.at.line != LineKind::Played || e.at.ply != 1 {
                return Err(format!("'at once' drawn at {:?}", e.at));
            }
            for &s in &sq {
                if !is_corner(s) {
                    return Err(format!("{} is not a corner", name(s)));
                }
                if !after_p.moves_of(-me).contains(&s) {
                    return Err(format!("{} is not a move of the opponent at once", name(s)));
                }
                if after_b.moves_of(-me).contains(&s) {
                    return Err(format!("{} is a move after the better move too", name(s)));
                }
            }
            Ok(())
        }
        Kind::CornerGiven => {
            let l = replay(&c.before, &e.line);
            if l.moves.len() != e.line.len() || e.line.len() < 2 {
                return Err("its line is not legal".into());
            }
            let last = l.moves.len() - 1;
            let corner = parse(&l.moves[last]).ok_or("the line ends with a pass")?;
            if !is_corner(corner) || last % 2 != 1 || sq != [corner] {
                return Err(format!("the line does not end with the opponent in {sq:?}"));
            }
            expect(
                "the opponent's move taking it",
                n("moves"),
                (last as i32 + 1) / 2,
            )?;
            if at.at(corner) != -me {
                return Err("the corner is not the opponent's on the board drawn".into());
            }
            // "within k moves": no earlier corner for the opponent in the line.
            Ok(())
        }
        Kind::CornerMissed => {
            if is_corner(c.best) && !is_corner(c.played) && sq == [c.best] {
                Ok(())
            } else {
                Err("the better move is no corner or the played one is".into())
            }
        }
        Kind::XSquare | Kind::CSquare => {
            let corner = *sq.get(1).ok_or("no corner drawn")?;
            if sq[0] != c.played || !is_corner(corner) || c.before.at(corner) != 0 {
                return Err("the corner is not empty before the move".into());
            }
            let (dr, dc) = (c.played.0.abs_diff(corner.0), c.played.1.abs_diff(corner.1));
            let ok = match e.kind {
                Kind::XSquare => (dr, dc) == (1, 1),
                _ => (dr, dc) == (0, 1) || (dr, dc) == (1, 0),
            };
            if ok {
                Ok(())
            } else {
                Err(format!(
                    "{} does not touch {} that way",
                    name(c.played),
                    name(corner)
                ))
            }
        }
        Kind::WipeoutRisk if n("moves") <= 1 => {
            let w = *sq.first().ok_or("no wiping move drawn")?;
            let mine = after_p.discs(me);
            expect("the mover's discs", n("discs"), mine.len() as i32)?;
            let flips = after_p.flips(w, -me);
            if after_p.to_move == -me && flips.len() == mine.len() {
                Ok(())
            } else {
                Err(format!(
                    "{} flips {} of {}",
                    name(w),
                    flips.len(),
                    mine.len()
                ))
            }
        }
        Kind::WipeoutRisk => {
            let l = replay(&c.before, &e.line);
            let end = l.boards.last().ok_or("no line")?;
            if l.moves.len() == e.line.len() && end.discs(me).is_empty() {
                Ok(())
            } else {
                Err("the line does not wipe the mover out".into())
            }
        }
        Kind::PassForced | Kind::PassAllowed => {
            let forced = e.kind == Kind::PassForced;
            let passer = if forced { -me } else { me };
            if forced && n("moves") <= 1 {
                // "b leaves the opponent without a move: it must pass".
                return if after_b.moves_of(-me).is_empty() && !after_b.moves_of(me).is_empty() {
                    Ok(())
                } else {
                    Err(format!(
                        "after the better move the opponent has {} moves and the mover {}",
                        after_b.moves_of(-me).len(),
                        after_b.moves_of(me).len()
                    ))
                };
            }
            let l = replay(&c.before, &e.line);
            if l.moves.len() != e.line.len() || l.moves.last().map(String::as_str) != Some("pass") {
                return Err("the line does not end with a legal pass".into());
            }
            let k = l.moves.len() - 1;
            let board = if k == 0 { c.before } else { l.boards[k - 1] };
            if board.to_move != passer {
                return Err("the wrong side passes".into());
            }
            let turn = if forced {
                (k as i32 + 1) / 2
            } else {
                k as i32 / 2
            };
            expect("the turn passed", n("moves"), turn)?;
            if at != board {
                return Err("drawn on another board than the pass".into());
            }
            Ok(())
        }
        Kind::Parity => {
            let rp = c.before.region(c.played);
            let rb = c.before.region(c.best);
            expect(
                "the played move's region",
                n("region_played"),
                rp.len() as i32,
            )?;
            expect(
                "the better move's region",
                n("region_best"),
                rb.len() as i32,
            )?;
            expect("empties", n("empties"), c.before.empty_count() as i32)?;
            if !rp.len().is_multiple_of(2) || rb.len().is_multiple_of(2) {
                return Err("'even region' / 'odd region' do not hold".into());
            }
            set_eq("the region", &sq, &rp)
        }
        Kind::Mobility => {
            let h = n("plies") as usize;
            let (p, b) = (c.board(LineKind::Played, h), c.board(LineKind::Best, h));
            let (Some(p), Some(b)) = (p, b) else {
                return Err(format!("{h} plies beyond a line"));
            };
            let (own_p, opp_p) = mobility(&p, me);
            let (own_b, opp_b) = mobility(&b, me);
            expect(
                "the opponent's moves after the played move",
                n("opponent_played"),
                opp_p,
            )?;
            expect(
                "the mover's moves after the played move",
                n("own_played"),
                own_p,
            )?;
            expect(
                "the opponent's moves after the better move",
                n("opponent_best"),
                opp_b,
            )?;
            expect(
                "the mover's moves after the better move",
                n("own_best"),
                own_b,
            )?;
            // Named as a reason: the played line's balance must be the worse one.
            if own_p - opp_p >= own_b - opp_b {
                return Err(format!(
                    "the balance is not worse: {own_p}-{opp_p} against {own_b}-{opp_b}"
                ));
            }
            let legal: BTreeSet<Sq> = at.moves().into_iter().collect();
            set_eq("the moves drawn", &sq, &legal)
        }
        Kind::Frontier if n("plies") <= 1 => {
            let created = |after: &Grid| -> BTreeSet<Sq> {
                let before = c.before.frontier(me);
                after.frontier(me).difference(&before).copied().collect()
            };
            let (np, nb) = (created(&after_p), created(&after_b));
            expect(
                "new frontier discs of the played move",
                n("created_played"),
                np.len() as i32,
            )?;
            expect(
                "new frontier discs of the better move",
                n("created_best"),
                nb.len() as i32,
            )?;
            if np.len() <= nb.len() {
                return Err("the played move does not make more".into());
            }
            set_eq("the new frontier discs", &sq, &np)
        }
        Kind::Frontier => {
            let h = n("plies") as usize;
            let (Some(p), Some(b)) = (c.board(LineKind::Played, h), c.board(LineKind::Best, h))
            else {
                return Err(format!("{h} plies beyond a line"));
            };
            let fp = p.frontier(me);
            expect(
                "the mover's frontier (played)",
                n("frontier_played"),
                fp.len() as i32,
            )?;
            expect(
                "the opponent's frontier (played)",
                n("opponent_frontier_played"),
                p.frontier(-me).len() as i32,
            )?;
            expect(
                "the mover's frontier (better)",
                n("frontier_best"),
                b.frontier(me).len() as i32,
            )?;
            expect(
                "the opponent's frontier (better)",
                n("opponent_frontier_best"),
                b.frontier(-me).len() as i32,
            )?;
            set_eq("the frontier discs", &sq, &fp)
        }
        Kind::QuietMove => {
            let exposed = |m: Sq, after: &Grid| -> (Vec<Sq>, BTreeSet<Sq>) {
                let f = c.before.flips(m, me);
                let e = f
                    .iter()
                    .copied()
                    .filter(|&d| neighbours(d).any(|x| after.at(x) == 0))
                    .collect();
                (f, e)
            };
            let (fp, ep) = exposed(c.played, &after_p);
            let (fb, eb) = exposed(c.best, &after_b);
            expect(
                "flipped by the played move",
                n("flipped_played"),
                fp.len() as i32,
            )?;
            expect(
                "exposed by the played move",
                n("exposed_played"),
                ep.len() as i32,
            )?;
            expect(
                "flipped by the better move",
                n("flipped_best"),
                fb.len() as i32,
            )?;
            expect(
                "exposed by the better move",
                n("exposed_best"),
                eb.len() as i32,
            )?;
            if eb.len() >= ep.len() {
                return Err("the better move is not quieter".into());
            }
            set_eq("the exposed discs", &sq, &ep)
        }
        Kind::UnbalancedEdge => {
            expect("the run's discs", n("discs"), sq.len() as i32)?;
            let rows: BTreeSet<usize> = sq.iter().map(|s| s.0).collect();
            let cols: BTreeSet<usize> = sq.iter().map(|s| s.1).collect();
            let on_one_edge =
                sq.iter().all(|&s| is_edge(s)) && (rows.len() == 1 || cols.len() == 1);
            if !on_one_edge || sq.len() < 3 {
                return Err("not a run of 3+ on one edge".into());
            }
            let edge: Vec<Sq> = if rows.len() == 1 {
                let r = sq[0].0;
                (0..8).map(|x| (r, x)).collect()
            } else {
                let f = sq[0].1;
                (0..8).map(|x| (x, f)).collect()
            };
            let held: Vec<usize> = (0..8).filter(|&i| after_p.at(edge[i]) == me).collect();
            let theirs = edge.iter().any(|&s| after_p.at(s) == -me);
            let unbroken = held.last().unwrap_or(&0) - held.first().unwrap_or(&0) + 1 == held.len();
            let one_c = (held.first() == Some(&1)) != (held.last() == Some(&6));
            if theirs || !unbroken || !one_c || held.len() != sq.len() {
                return Err("the edge is not one run from one C-square".into());
            }
            Ok(())
        }
        Kind::Wedge => {
            let &[gap, l, r] = sq.as_slice() else {
                return Err("not three squares".into());
            };
            let lined = |a: Sq, b: Sq| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
            if !is_edge(gap) || !is_edge(l) || !is_edge(r) || !lined(gap, l) || !lined(gap, r) {
                return Err("not a gap between two edge discs".into());
            }
            if after_p.at(l) != me || after_p.at(r) != me {
                return Err("the discs around the gap are not the mover's".into());
            }
            if !after_p.moves_of(-me).contains(&gap) {
                return Err("the gap is no move of the opponent".into());
            }
            Ok(())
        }
        Kind::EdgeAnchor | Kind::Stability => {
            let h = n("plies") as usize;
            let (Some(p), Some(b)) = (c.board(LineKind::Played, h), c.board(LineKind::Best, h))
            else {
                return Err(format!("{h} plies beyond a line"));
            };
            let edge_only = e.kind == Kind::EdgeAnchor;
            let count = |g: &Grid, who: i8| -> BTreeSet<Sq> {
                g.stable(who)
                    .into_iter()
                    .filter(|&s| !edge_only || is_edge(s))
                    .collect()
            };
            let (op, ob) = (count(&p, -me), count(&b, -me));
            let (mp, mb) = (count(&p, me), count(&b, me));
            expect(
                "the opponent's stable discs (played)",
                n("opponent_played"),
                op.len() as i32,
            )?;
            expect(
                "the mover's stable discs (played)",
                n("own_played"),
                mp.len() as i32,
            )?;
            expect(
                "the opponent's stable discs (better)",
                n("opponent_best"),
                ob.len() as i32,
            )?;
            expect(
                "the mover's stable discs (better)",
                n("own_best"),
                mb.len() as i32,
            )?;
            let (bp, bb) = (
                mp.len() as i32 - op.len() as i32,
                mb.len() as i32 - ob.len() as i32,
            );
            if bp >= bb {
                return Err(format!("the balance is not worse: {bp} against {bb}"));
            }
            // The squares: stable discs on the board they are drawn on.
            let drawn_on = c.board(e.at.line, e.at.ply).ok_or("no board")?;
            let all: BTreeSet<Sq> = count(&drawn_on, me)
                .union(&count(&drawn_on, -me))
                .copied()
                .collect();
            match sq.iter().find(|s| !all.contains(s)) {
                Some(&s) => Err(format!("{} is no stable disc on its board", name(s))),
                None => Ok(()),
            }
        }
    }
}

/// The numbers of a sentence that are not part of a square's name.
fn numbers_in(text: &str) -> Vec<i32> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            if !(start > 0 && ('a'..='h').contains(&chars[start - 1])) {
                let s: String = chars[start..i].iter().collect();
                out.push(s.parse().unwrap_or(-1));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The sentence: every number is one of the claim's (checked above), no plural after 1 in
/// English, none after 0 or 1 in pt-BR, the words of the right language.
fn check_text(e: &Explanation) -> Verdict {
    let allowed: Vec<i32> = e.numbers.iter().map(|&(_, v)| v.abs()).collect();
    for lang in [Lang::En, Lang::Pt] {
        let t = e.text(lang);
        for x in numbers_in(&t) {
            if !allowed.contains(&x) {
                return Err(format!("{t:?} says {x}, not a number of the claim"));
            }
        }
        let bad: &[&str] = match lang {
            Lang::En => &[
                " 1 moves",
                " 1 discs",
                " 1 empty squares",
                " 1 new frontier discs",
                " 1 frontier discs",
                " 1 stable edge discs",
                "passa",
            ],
            Lang::Pt => &[
                " 1 jogadas",
                " 1 peças",
                " 1 casas",
                " 0 jogadas",
                " 0 peças",
                " 0 casas",
                " pass ",
            ],
        };
        if let Some(w) = bad.iter().find(|w| t.contains(**w)) {
            return Err(format!("{t:?} says {w:?}"));
        }
    }
    Ok(())
}

pub fn run(args: CoachCheckArgs) -> CmdResult {
    if args.to_year < args.from_year {
        return Err(CliError::input(format!(
            "--to-year {} is before --from-year {}",
            args.to_year, args.from_year
        )));
    }
    let games = draw(
        &args.data.join("wthor"),
        args.from_year..=args.to_year,
        args.games,
        args.seed,
    )?;
    let mut engine = Engine::new(EngineConfig {
        threads: 1,
        ..EngineConfig::default()
    });
    engine.set_book(Book::shipped());
    let limits = Limits {
        depth: Some(args.depth),
        exact_empties: Some(args.exact),
        ..Limits::default()
    };
    println!(
        "coach re-check: {} WTHOR games of {}-{}, seed {}, review depth {}, exact from {} empties",
        args.games, args.from_year, args.to_year, args.seed, args.depth, args.exact
    );
    let (mut claims, mut false_claims, mut squares) = (0usize, 0usize, 0usize);
    let mut by_kind: std::collections::BTreeMap<Kind, (usize, usize)> = Default::default();
    for (i, d) in games.iter().enumerate() {
        let review = engine.analyze_game(&d.game, &limits, None, None);
        let explained = coach::explain_game(&d.game, &review);
        let moves = d.game.moves();
        let positions = d.game.positions();
        let numbers = coach::move_numbers(&d.game);
        let mut game_claims = 0;
        for pe in &explained {
            let Some(p) = review.ply(pe.ply) else {
                continue;
            };
            let (Move::Play(played), Move::Play(best)) = (p.played, p.best_move) else {
                continue;
            };
            let before = Grid::from_text(&positions[pe.ply].to_string())
                .ok_or_else(|| CliError::failed("a position's text".to_string()))?;
            // The lines as the analysis API gives them: the played move, forced passes, the
            // next position's best line; the better move's principal variation.
            let mut played_line = vec![Move::Play(played)];
            let mut next = pe.ply + 1;
            while next < moves.len() && moves[next] == Move::Pass {
                played_line.push(Move::Pass);
                next += 1;
            }
            if let Some(r) = review.ply(next) {
                played_line.extend(&r.pv);
            }
            let best_line = if p.pv.first() == Some(&Move::Play(best)) {
                p.pv.clone()
            } else {
                vec![Move::Play(best)]
            };
            let (pl, bl) = (replay(&before, &played_line), replay(&before, &best_line));
            let case = Case {
                before,
                me: before.to_move,
                played: parse(&played.to_string()).expect("a square"),
                best: parse(&best.to_string()).expect("a square"),
                played_line: &pl,
                best_line: &bl,
            };
            if pl.boards.is_empty() || bl.boards.is_empty() {
                return Err(CliError::failed(format!(
                    "WTH_{}#{} ply {}: a move the model finds illegal",
                    d.year, d.index, pe.ply
                )));
            }
            for e in &pe.explanations {
                claims += 1;
                game_claims += 1;
                squares += e.squares.len();
                let verdict = check(e, &case).and_then(|()| check_text(e));
                let entry = by_kind.entry(e.kind).or_default();
                entry.0 += 1;
                let label = coach::move_label(numbers[pe.ply], p.color);
                match verdict {
                    Ok(()) if args.verbose => println!(
                        "  ok    WTH_{}#{} {label} {}: {}",
                        d.year,
                        d.index,
                        e.kind.as_str(),
                        e.text(Lang::En)
                    ),
                    Ok(()) => {}
                    Err(why) => {
                        false_claims += 1;
                        entry.1 += 1;
                        println!(
                            "  FALSE WTH_{}#{} {label} {}: {}\n        {why}",
                            d.year,
                            d.index,
                            e.kind.as_str(),
                            e.text(Lang::En)
                        );
                    }
                }
            }
        }
        println!(
            "game {}: WTH_{}.wtb #{} ({} plies): {game_claims} claims",
            i + 1,
            d.year,
            d.index,
            d.game.ply()
        );
    }
    println!("kind              claims  false");
    for (k, (n, f)) in &by_kind {
        println!("{:<16} {n:>7} {f:>6}", k.as_str());
    }
    println!("claims: {claims}, squares drawn: {squares}, false: {false_claims}");
    if false_claims > 0 {
        return Err(CliError::failed(format!("{false_claims} false claims")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::coach::At;
    use virada_rules::{Color, Position, Square};

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// The start, Black's f5 against d3, each line one move long.
    fn lines() -> (Grid, Line, Line) {
        let before = Grid::from_text(&Position::start().to_string()).unwrap();
        let p = replay(&before, &[Move::Play(sq("f5"))]);
        let b = replay(&before, &[Move::Play(sq("d3"))]);
        (before, p, b)
    }

    fn claim(kind: Kind, squares: &[&str], numbers: Vec<(&'static str, i32)>) -> Explanation {
        Explanation {
            kind,
            mover: Color::Black,
            played: sq("f5"),
            best: sq("d3"),
            squares: squares.iter().map(|s| sq(s)).collect(),
            numbers,
            line: Vec::new(),
            at: At::played(1),
        }
    }

    #[test]
    fn false_counts_and_words_are_caught() {
        let (before, p, b) = lines();
        let case = Case {
            before,
            me: 1,
            played: (4, 5),
            best: (2, 3),
            played_line: &p,
            best_line: &b,
        };
        // After f5 White has 3 moves (d6, f4, f6) and Black 3; the same after d3: the balance
        // is not worse, so a mobility claim is false whatever its counts.
        let counts = vec![
            ("plies", 1),
            ("own_played", 3),
            ("opponent_played", 3),
            ("own_best", 3),
            ("opponent_best", 3),
        ];
        let e = claim(Kind::Mobility, &["d6", "f4", "f6"], counts.clone());
        assert!(check(&e, &case).unwrap_err().contains("not worse"));
        // A count off by one is named.
        let mut wrong = counts;
        wrong[2].1 = 4;
        let e = claim(Kind::Mobility, &["d6", "f4", "f6"], wrong);
        assert!(check(&e, &case).unwrap_err().contains("says 4, counted 3"));
        // No corner is a move at once after f5.
        let e = claim(Kind::CornerGiven, &["a1"], vec![("moves", 1)]);
        assert!(check(&e, &case).is_err());
        // f5 is no X-square.
        let e = claim(Kind::XSquare, &["f5", "h8"], Vec::new());
        assert!(check(&e, &case).is_err());
        // A plural after 1 in a sentence is caught.
        let e = claim(
            Kind::QuietMove,
            &[],
            vec![
                ("flipped_played", 1),
                ("exposed_played", 1),
                ("flipped_best", 1),
                ("exposed_best", 0),
            ],
        );
        assert!(check_text(&e).is_ok(), "{}", e.text(Lang::En));
        assert_eq!(numbers_in("c4 flips 12 discs, h8 3"), [12, 3]);
    }
}
