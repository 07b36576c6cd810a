//! The lesson walk: every position of web/lessons.json, every legal move, both languages. Each
//! feedback sentence the page shows is read back claim by claim (a square, a count, a parity
//! word, "only", "no move", "at once", the side named) and every claim is checked against counts
//! made here, with this test's own move generator, region counter, frontier and stability count
//! on a plain 8x8 array: not the rules crate's bitboards and not the engine's teaching facts
//! that wrote the sentences. Every number and every comparative word of a sentence must belong
//! to a claim that was checked, and a move the feedback calls better must be one the lesson
//! accepts.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const LESSONS: &str = include_str!("../../assets/learn/lessons.json");

/// `[rank][file]`: 1 the side to move's disc, -1 the opponent's, 0 empty.
type Grid = [[i8; 8]; 8];
type Sq = (usize, usize);

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.1 as u8) as char, s.0 + 1)
}

fn parse_sq(t: &str) -> Sq {
    let b = t.as_bytes();
    ((b[1] - b'1') as usize, (b[0] - b'a') as usize)
}

fn on(r: i32, c: i32) -> bool {
    (0..8).contains(&r) && (0..8).contains(&c)
}

/// The discs `who` flips by playing on the empty `s`.
fn flips(g: &Grid, s: Sq, who: i8) -> Vec<Sq> {
    if g[s.0][s.1] != 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (dr, dc) in DIRS {
        let mut run = Vec::new();
        let (mut r, mut c) = (s.0 as i32 + dr, s.1 as i32 + dc);
        while on(r, c) && g[r as usize][c as usize] == -who {
            run.push((r as usize, c as usize));
            r += dr;
            c += dc;
        }
        if !run.is_empty() && on(r, c) && g[r as usize][c as usize] == who {
            out.extend(run);
        }
    }
    out
}

fn legal(g: &Grid, who: i8) -> Vec<Sq> {
    let mut out = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            if !flips(g, (r, c), who).is_empty() {
                out.push((r, c));
            }
        }
    }
    out
}

fn play(g: &Grid, s: Sq, who: i8) -> Grid {
    let mut n = *g;
    for f in flips(g, s, who) {
        n[f.0][f.1] = who;
    }
    n[s.0][s.1] = who;
    n
}

fn neighbours(s: Sq) -> impl Iterator<Item = Sq> {
    DIRS.iter().filter_map(move |&(dr, dc)| {
        let (r, c) = (s.0 as i32 + dr, s.1 as i32 + dc);
        on(r, c).then_some((r as usize, c as usize))
    })
}

/// The size of the empty region holding `s` (8-connected), by flood fill.
fn region(g: &Grid, s: Sq) -> u32 {
    let mut seen = BTreeSet::from([s]);
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        for n in neighbours(x) {
            if g[n.0][n.1] == 0 && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    seen.len() as u32
}

const CORNERS: [Sq; 4] = [(0, 0), (0, 7), (7, 0), (7, 7)];

fn is_corner(s: Sq) -> bool {
    CORNERS.contains(&s)
}

/// The empty corner `s` touches, and whether it touches it diagonally (an X-square) or along
/// the edge (a C-square, which lies on an edge).
fn touched_empty_corner(g: &Grid, s: Sq) -> Option<(Sq, char)> {
    if is_corner(s) {
        return None;
    }
    let c = neighbours(s).find(|n| is_corner(*n) && g[n.0][n.1] == 0)?;
    let on_edge = s.0 == 0 || s.0 == 7 || s.1 == 0 || s.1 == 7;
    let diagonal = s.0 != c.0 && s.1 != c.1;
    match (diagonal, on_edge) {
        (true, false) => Some((c, 'X')),
        (false, true) => Some((c, 'C')),
        _ => None,
    }
}

/// Stability as the lessons define it (see the stable lesson's text): edge discs that no play on
/// their edge can flip, discs whose four lines are full, and, repeated until nothing changes,
/// discs that along each axis have a full line or a neighbour off the board or stable and of
/// their colour. The edge part is an exhaustive game on the 8 squares of the edge.
fn stable_count(g: &Grid, who: i8) -> u32 {
    let mut stable = [[false; 8]; 8];
    let edges: [Vec<Sq>; 4] = [
        (0..8).map(|c| (0, c)).collect(),
        (0..8).map(|c| (7, c)).collect(),
        (0..8).map(|r| (r, 0)).collect(),
        (0..8).map(|r| (r, 7)).collect(),
    ];
    let mut memo = BTreeMap::new();
    for edge in &edges {
        let line: [i8; 8] = std::array::from_fn(|i| g[edge[i].0][edge[i].1]);
        let keep = edge_keeps(line, &mut memo);
        for i in 0..8 {
            if keep[i] && line[i] == who {
                stable[edge[i].0][edge[i].1] = true;
            }
        }
    }
    let axes = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let full = |s: Sq, (dr, dc): (i32, i32)| {
        [1, -1].iter().all(|k| {
            let (mut r, mut c) = (s.0 as i32 + dr * k, s.1 as i32 + dc * k);
            while on(r, c) {
                if g[r as usize][c as usize] == 0 {
                    return false;
                }
                r += dr * k;
                c += dc * k;
            }
            true
        })
    };
    for r in 0..8 {
        for c in 0..8 {
            if g[r][c] == who && axes.iter().all(|&a| full((r, c), a)) {
                stable[r][c] = true;
            }
        }
    }
    loop {
        let mut grew = false;
        for r in 0..8 {
            for c in 0..8 {
                if g[r][c] != who || stable[r][c] {
                    continue;
                }
                let held = axes.iter().all(|&(dr, dc)| {
                    full((r, c), (dr, dc))
                        || [1, -1].iter().any(|k| {
                            let (nr, nc) = (r as i32 + dr * k, c as i32 + dc * k);
                            !on(nr, nc) || stable[nr as usize][nc as usize]
                        })
                });
                if held {
                    stable[r][c] = true;
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    stable.iter().flatten().filter(|s| **s).count() as u32
}

/// Which squares of an edge line keep their disc's colour whatever either side plays on the
/// line's empty squares (moves may come from other directions, so any empty square may be
/// played by either side).
fn edge_keeps(line: [i8; 8], memo: &mut BTreeMap<[i8; 8], [bool; 8]>) -> [bool; 8] {
    if let Some(k) = memo.get(&line) {
        return *k;
    }
    let mut keep: [bool; 8] = std::array::from_fn(|i| line[i] != 0);
    for x in 0..8 {
        if line[x] != 0 {
            continue;
        }
        for who in [1i8, -1] {
            let mut next = line;
            next[x] = who;
            for d in [-1i32, 1] {
                let mut i = x as i32 + d;
                let mut run = Vec::new();
                while (0..8).contains(&i) && line[i as usize] == -who {
                    run.push(i as usize);
                    i += d;
                }
                if !run.is_empty() && (0..8).contains(&i) && line[i as usize] == who {
                    for j in run {
                        next[j] = who;
                    }
                }
            }
            let child = edge_keeps(next, memo);
            for i in 0..8 {
                keep[i] = keep[i] && next[i] == line[i] && child[i];
            }
        }
    }
    memo.insert(line, keep);
    keep
}

/// What the test counted for one legal move.
struct Counted {
    flips: u32,
    opponent_moves: Vec<Sq>,
    own_moves_after: u32,
    frontier: u32,
    stable_gain: i64,
    region: u32,
}

fn count(g: &Grid, s: Sq) -> Counted {
    let flipped = flips(g, s, 1);
    let after = play(g, s, 1);
    let frontier = flipped
        .iter()
        .chain(std::iter::once(&s))
        .filter(|d| neighbours(**d).any(|n| after[n.0][n.1] == 0))
        .count() as u32;
    Counted {
        flips: flipped.len() as u32,
        opponent_moves: legal(&after, -1),
        own_moves_after: legal(&after, 1).len() as u32,
        frontier,
        stable_gain: i64::from(stable_count(&after, 1)) - i64::from(stable_count(g, 1)),
        region: region(g, s),
    }
}

// ------------------------------------------------------------------ reading the sentences

#[derive(Clone, Debug)]
enum Cap {
    Sq(Sq),
    N(i64),
    Dec(f64),
    W(String),
    Side(String),
}

/// Matches `pat` at `text[at..]`: literal characters, and `{sq}` (a square), `{n}` (digits),
/// `{dec}` (digits with an optional decimal point or comma), `{w}` (a word), `{side}` (a side's
/// name in either language). Returns the end and the captures.
fn match_at(text: &[char], at: usize, pat: &str) -> Option<(usize, Vec<Cap>)> {
    let mut i = at;
    let mut caps = Vec::new();
    let mut rest = pat;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("{sq}") {
            let (f, r) = (*text.get(i)?, *text.get(i + 1)?);
            if !('a'..='h').contains(&f) || !('1'..='8').contains(&r) {
                return None;
            }
            if i > 0 && text[i - 1].is_alphanumeric() {
                return None;
            }
            if text.get(i + 2).is_some_and(|c| c.is_alphanumeric()) {
                return None;
            }
            caps.push(Cap::Sq((
                (r as u8 - b'1') as usize,
                (f as u8 - b'a') as usize,
            )));
            i += 2;
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{n}") {
            let start = i;
            while text.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
            if i == start || text.get(i).is_some_and(|c| c.is_alphanumeric()) {
                return None;
            }
            let s: String = text[start..i].iter().collect();
            caps.push(Cap::N(s.parse().ok()?));
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{dec}") {
            let start = i;
            while text.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
            if i == start {
                return None;
            }
            if matches!(text.get(i), Some('.') | Some(','))
                && text.get(i + 1).is_some_and(|c| c.is_ascii_digit())
            {
                i += 2;
            }
            let s: String = text[start..i].iter().collect();
            caps.push(Cap::Dec(s.replace(',', ".").parse().ok()?));
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{w}") {
            let start = i;
            while text.get(i).is_some_and(|c| c.is_alphabetic()) {
                i += 1;
            }
            if i == start {
                return None;
            }
            caps.push(Cap::W(text[start..i].iter().collect()));
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{side}") {
            let here: String = text[i..].iter().collect();
            let side = ["Black", "White", "o Preto", "o Branco"]
                .into_iter()
                .find(|s| here.starts_with(s))?;
            i += side.chars().count();
            caps.push(Cap::Side(side.to_string()));
            rest = after;
        } else {
            let c = rest.chars().next().expect("not empty");
            if text.get(i) != Some(&c) {
                return None;
            }
            i += 1;
            rest = &rest[c.len_utf8()..];
        }
    }
    Some((i, caps))
}

/// The position and move a sentence speaks about.
struct Ctx<'a> {
    lang: &'a str,
    grid: Grid,
    /// "Black" or "White": the side to move's name in English.
    mover: &'static str,
    played: Sq,
    accepted: &'a BTreeSet<Sq>,
    moves: &'a BTreeMap<Sq, Counted>,
    values: &'a BTreeMap<Sq, f64>,
}

impl Ctx<'_> {
    fn c(&self, s: Sq) -> Result<&Counted, String> {
        self.moves
            .get(&s)
            .ok_or_else(|| format!("{} is not a legal move", name(s)))
    }

    fn opponent(&self, side: &str) -> Result<(), String> {
        let want = match (self.mover, self.lang) {
            ("Black", "en") => "White",
            ("White", "en") => "Black",
            ("Black", _) => "o Branco",
            _ => "o Preto",
        };
        if side == want {
            Ok(())
        } else {
            Err(format!("names {side}, the opponent is {want}"))
        }
    }

    fn accepted(&self, s: Sq) -> Result<(), String> {
        if self.accepted.contains(&s) {
            Ok(())
        } else {
            Err(format!(
                "names {} as better, the lesson does not accept it",
                name(s)
            ))
        }
    }

    fn is_played(&self, s: Sq) -> Result<(), String> {
        if s == self.played {
            Ok(())
        } else {
            Err(format!(
                "speaks of {} as the move played ({})",
                name(s),
                name(self.played)
            ))
        }
    }
}

/// CLDR's singular, as the page's `Intl.PluralRules`: English 1, pt-BR 0 and 1.
fn one(n: f64, lang: &str) -> bool {
    if lang == "en" {
        n == 1.0
    } else {
        (0.0..2.0).contains(&n)
    }
}

/// The noun's form agrees with its number.
fn agrees(n: f64, noun: &str, lang: &str) -> Result<(), String> {
    const SINGULAR: [&str; 7] = [
        "move", "disc", "square", "jogada", "peça", "casa", "estável",
    ];
    const PLURAL: [&str; 7] = [
        "moves",
        "discs",
        "squares",
        "jogadas",
        "peças",
        "casas",
        "estáveis",
    ];
    let singular = SINGULAR.contains(&noun);
    if !singular && !PLURAL.contains(&noun) {
        return Err(format!("unknown noun {noun}"));
    }
    if singular == one(n, lang) {
        Ok(())
    } else {
        Err(format!("{n} {noun}: the plural rule says otherwise"))
    }
}

fn parity_word(n: i64, word: &str) -> Result<(), String> {
    let odd = matches!(word, "odd" | "ímpar");
    let even = matches!(word, "even" | "par");
    if (odd && n % 2 == 1) || (even && n % 2 == 0) {
        Ok(())
    } else {
        Err(format!("{n} called {word}"))
    }
}

fn eq<T: PartialEq + std::fmt::Debug>(what: &str, said: T, counted: T) -> Result<(), String> {
    if said == counted {
        Ok(())
    } else {
        Err(format!("{what}: says {said:?}, counted {counted:?}"))
    }
}

fn sq(c: &Cap) -> Sq {
    match c {
        Cap::Sq(s) => *s,
        other => panic!("a square expected, got {other:?}"),
    }
}

fn n(c: &Cap) -> i64 {
    match c {
        Cap::N(n) => *n,
        other => panic!("a number expected, got {other:?}"),
    }
}

fn w(c: &Cap) -> &str {
    match c {
        Cap::W(w) | Cap::Side(w) => w,
        other => panic!("a word expected, got {other:?}"),
    }
}

type Check = fn(&Ctx, &[Cap]) -> Result<(), String>;

/// A claim the lessons make, in each language, and how it is checked.
struct Claim {
    en: &'static str,
    pt: &'static str,
    check: Check,
}

fn not_corner(cx: &Ctx, s: Sq) -> Result<(), String> {
    let _ = cx;
    if is_corner(s) {
        Err(format!("{} is a corner", name(s)))
    } else {
        Ok(())
    }
}

fn corner(s: Sq) -> Result<(), String> {
    if is_corner(s) {
        Ok(())
    } else {
        Err(format!("{} is not a corner", name(s)))
    }
}

fn no_empty_corner_touched(cx: &Ctx, s: Sq) -> Result<(), String> {
    match touched_empty_corner(&cx.grid, s) {
        None => Ok(()),
        Some((c, k)) => Err(format!(
            "{} is a {k}-square of the empty {}",
            name(s),
            name(c)
        )),
    }
}

fn next_to(cx: &Ctx, s: Sq, kind: char, c: Sq) -> Result<(), String> {
    eq(
        "X/C-square and its empty corner",
        touched_empty_corner(&cx.grid, s),
        Some((c, kind)),
    )
}

fn opponent_can_take(cx: &Ctx, after: Sq, c: Sq) -> Result<(), String> {
    corner(c)?;
    if cx.c(after)?.opponent_moves.contains(&c) {
        Ok(())
    } else {
        Err(format!(
            "after {} the corner {} is not a move at once",
            name(after),
            name(c)
        ))
    }
}

fn no_corner_for_opponent(cx: &Ctx, after: Sq) -> Result<(), String> {
    match cx.c(after)?.opponent_moves.iter().find(|m| is_corner(**m)) {
        None => Ok(()),
        Some(c) => Err(format!(
            "after {} the opponent can take {}",
            name(after),
            name(*c)
        )),
    }
}

fn opp_count(cx: &Ctx, s: Sq) -> Result<i64, String> {
    Ok(cx.c(s)?.opponent_moves.len() as i64)
}

fn claims() -> Vec<Claim> {
    vec![
        // The engine's figure: the loss against an accepted answer, from the file's values.
        Claim {
            en: "The engine: {sq} loses {dec} {w} against {sq}.",
            pt: "O motor: {sq} perde {dec} {w} em relação a {sq}.",
            check: |cx, c| {
                let (m, a) = (sq(&c[0]), sq(&c[3]));
                cx.is_played(m)?;
                cx.accepted(a)?;
                let Cap::Dec(loss) = c[1] else { unreachable!() };
                let want = ((cx.values[&a] - cx.values[&m]) * 10.0).round() / 10.0;
                eq("loss", (loss * 10.0).round() as i64, (want * 10.0).round() as i64)?;
                agrees(loss, w(&c[2]), cx.lang)
            },
        },
        // Corners.
        Claim {
            en: "{sq} takes the corner: no line can bracket that disc",
            pt: "{sq} toma o canto: nenhuma linha consegue cercar essa peça",
            check: |cx, c| {
                cx.is_played(sq(&c[0]))?;
                cx.accepted(sq(&c[0]))?;
                corner(sq(&c[0]))
            },
        },
        Claim {
            en: "{sq} is not a corner. The corner {sq} is yours to take now",
            pt: "{sq} não é um canto. O canto {sq} está livre para você agora",
            check: |cx, c| {
                not_corner(cx, sq(&c[0]))?;
                corner(sq(&c[1]))?;
                cx.c(sq(&c[1]))?;
                cx.accepted(sq(&c[1]))
            },
        },
        Claim {
            en: "{sq} takes a corner too, but the corner {sq} is the better one here.",
            pt: "{sq} também toma um canto, mas o canto {sq} é o melhor aqui.",
            check: |cx, c| {
                corner(sq(&c[0]))?;
                corner(sq(&c[1]))?;
                cx.accepted(sq(&c[1]))
            },
        },
        Claim {
            en: "{sq} is the better move here.",
            pt: "{sq} é a jogada melhor aqui.",
            check: |cx, c| cx.accepted(sq(&c[0])),
        },
        Claim {
            en: "{sq} is one of the best moves here.",
            pt: "{sq} é uma das melhores jogadas aqui.",
            check: |cx, c| {
                cx.is_played(sq(&c[0]))?;
                cx.accepted(sq(&c[0]))
            },
        },
        // X- and C-squares.
        Claim {
            en: "{sq} is not an X- or C-square next to an empty corner",
            pt: "{sq} não é casa X nem C ao lado de um canto vazio",
            check: |cx, c| no_empty_corner_touched(cx, sq(&c[0])),
        },
        Claim {
            en: ", and after it {side} cannot take a corner.",
            pt: ", e depois dela {side} não pode tomar canto nenhum.",
            check: |cx, c| {
                cx.opponent(w(&c[0]))?;
                no_corner_for_opponent(cx, cx.played)
            },
        },
        Claim {
            en: "{sq} is an X-square next to the empty corner {sq}",
            pt: "{sq} é uma casa X ao lado do canto vazio {sq}",
            check: |cx, c| next_to(cx, sq(&c[0]), 'X', sq(&c[1])),
        },
        Claim {
            en: "{sq} is a C-square next to the empty corner {sq}",
            pt: "{sq} é uma casa C ao lado do canto vazio {sq}",
            check: |cx, c| next_to(cx, sq(&c[0]), 'C', sq(&c[1])),
        },
        Claim {
            en: ": after it {side} can take {sq} at once.",
            pt: ": depois dela, {side} pode tomar {sq} na hora.",
            check: |cx, c| {
                cx.opponent(w(&c[0]))?;
                opponent_can_take(cx, cx.played, sq(&c[1]))
            },
        },
        Claim {
            en: "{sq} is not next to an empty corner",
            pt: "{sq} não fica ao lado de um canto vazio",
            check: |cx, c| no_empty_corner_touched(cx, sq(&c[0])),
        },
        Claim {
            en: "{sq} is not next to an empty corner either, but {sq} is better here.",
            pt: "{sq} também não fica ao lado de um canto vazio, mas {sq} é melhor aqui.",
            check: |cx, c| {
                no_empty_corner_touched(cx, sq(&c[0]))?;
                no_empty_corner_touched(cx, sq(&c[1]))?;
                cx.accepted(sq(&c[1]))
            },
        },
        Claim {
            en: "{sq} is not next to an empty corner, yet after it {side} can take the corner {sq} at once.",
            pt: "{sq} não fica ao lado de um canto vazio, mas depois dela {side} pode tomar o canto {sq} na hora.",
            check: |cx, c| {
                cx.opponent(w(&c[1]))?;
                opponent_can_take(cx, sq(&c[0]), sq(&c[2]))
            },
        },
        // Mobility and tempo: the opponent's moves after a move.
        Claim {
            en: "After {sq}, {side} has {n} {w}",
            pt: "Depois de {sq}, {side} tem {n} {w}",
            check: |cx, c| {
                cx.opponent(w(&c[1]))?;
                eq("opponent's moves", n(&c[2]), opp_count(cx, sq(&c[0]))?)?;
                agrees(n(&c[2]) as f64, w(&c[3]), cx.lang)
            },
        },
        Claim {
            en: "; after {sq}, {side} would have {n} (",
            pt: "; depois de {sq}, teria {n} (",
            check: |cx, c| {
                let (s, k) = if cx.lang == "en" {
                    cx.opponent(w(&c[1]))?;
                    (sq(&c[0]), n(&c[2]))
                } else {
                    (sq(&c[0]), n(&c[1]))
                };
                eq("opponent's moves", k, opp_count(cx, s)?)?;
                let most = cx.moves.keys().map(|m| opp_count(cx, *m)).collect::<Result<Vec<_>, _>>()?;
                eq("the most any move leaves", k, most.into_iter().max().unwrap_or(0))?;
                if k > opp_count(cx, cx.played)? { Ok(()) } else { Err("no more than the move".into()) }
            },
        },
        Claim {
            en: "you flipped {n} {w})",
            pt: "você virou {n} {w})",
            check: |cx, c| {
                eq("flipped", n(&c[0]), i64::from(cx.c(cx.played)?.flips))?;
                agrees(n(&c[0]) as f64, w(&c[1]), cx.lang)
            },
        },
        Claim {
            en: "After {sq}, {side} has {n} {w}; after {sq}, only {n}.",
            pt: "Depois de {sq}, {side} tem {n} {w}; depois de {sq}, só {n}.",
            check: |cx, c| {
                let (m, k, a, ka) = (sq(&c[0]), n(&c[2]), sq(&c[4]), n(&c[5]));
                cx.accepted(a)?;
                eq("answer's count", ka, opp_count(cx, a)?)?;
                if ka < k { Ok(()) } else { Err(format!("only {ka} after {k}: {}", name(m))) }
            },
        },
        Claim {
            en: "After {sq}, {side} has {n} {w}, as many as after {sq}:",
            pt: "Depois de {sq}, {side} tem {n} {w}, tantas quanto depois de {sq}:",
            check: |cx, c| {
                cx.accepted(sq(&c[4]))?;
                eq("as many as", n(&c[2]), opp_count(cx, sq(&c[4]))?)
            },
        },
        Claim {
            en: "After {sq}, {side} has {n} {w}, fewer than after {sq} ({n}),",
            pt: "Depois de {sq}, {side} tem {n} {w}, menos do que depois de {sq} ({n}),",
            check: |cx, c| {
                cx.accepted(sq(&c[4]))?;
                eq("answer's count", n(&c[5]), opp_count(cx, sq(&c[4]))?)?;
                if n(&c[2]) < n(&c[5]) { Ok(()) } else { Err("not fewer".into()) }
            },
        },
        Claim {
            en: "After {sq}, {side} has {n} {w}, no more than after {sq} ({n}),",
            pt: "Depois de {sq}, {side} tem {n} {w}, não mais do que depois de {sq} ({n}),",
            check: |cx, c| {
                cx.accepted(sq(&c[4]))?;
                eq("answer's count", n(&c[5]), opp_count(cx, sq(&c[4]))?)?;
                if n(&c[2]) <= n(&c[5]) { Ok(()) } else { Err("more".into()) }
            },
        },
        Claim {
            en: "After {sq}, {side} has no move and must pass",
            pt: "Depois de {sq}, {side} não tem jogada e passa a vez",
            check: |cx, c| {
                cx.opponent(w(&c[1]))?;
                let k = cx.c(sq(&c[0]))?;
                eq("opponent's moves", k.opponent_moves.len(), 0)?;
                if k.own_moves_after > 0 { Ok(()) } else { Err("the game is over, no pass".into()) }
            },
        },
        Claim {
            en: "After {sq}, neither side can move",
            pt: "Depois de {sq}, nenhum lado pode jogar",
            check: |cx, c| {
                let k = cx.c(sq(&c[0]))?;
                eq("moves of both", (k.opponent_moves.len(), k.own_moves_after), (0, 0))
            },
        },
        Claim {
            en: "After {sq}, {side} has a single move, {sq}",
            pt: "Depois de {sq}, {side} tem uma única jogada, {sq}",
            check: |cx, c| {
                cx.opponent(w(&c[1]))?;
                eq("the only reply", cx.c(sq(&c[0]))?.opponent_moves.clone(), vec![sq(&c[2])])
            },
        },
        Claim {
            en: "; after {sq}, none: {side} must pass.",
            pt: "; depois de {sq}, nenhuma: {side} passa a vez.",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                cx.opponent(w(&c[1]))?;
                let k = cx.c(sq(&c[0]))?;
                eq("opponent's moves", k.opponent_moves.len(), 0)?;
                if k.own_moves_after > 0 { Ok(()) } else { Err("no pass: the game ends".into()) }
            },
        },
        Claim {
            en: "; after {sq}, the game is over.",
            pt: "; depois de {sq}, a partida acaba.",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                let k = cx.c(sq(&c[0]))?;
                eq("moves of both", (k.opponent_moves.len(), k.own_moves_after), (0, 0))
            },
        },
        Claim {
            en: "; after {sq}, a single one, {sq}.",
            pt: "; depois de {sq}, uma só, {sq}.",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                eq("the only reply", cx.c(sq(&c[0]))?.opponent_moves.clone(), vec![sq(&c[1])])
            },
        },
        Claim {
            en: "{n} {w} to choose from; after {sq}, only {n}.",
            pt: "{n} {w} para escolher; depois de {sq}, só {n}.",
            check: |cx, c| {
                cx.accepted(sq(&c[2]))?;
                eq("answer's count", n(&c[3]), opp_count(cx, sq(&c[2]))?)?;
                if n(&c[3]) < n(&c[0]) { Ok(()) } else { Err("not fewer".into()) }
            },
        },
        Claim {
            en: "{n} {w} to choose from; after {sq}, a single",
            pt: "{n} {w} para escolher; depois de {sq}, uma só",
            check: |_, c| if n(&c[0]) > 1 { Ok(()) } else { Err("not more than one".into()) },
        },
        Claim {
            en: "{n} {w} to choose from; after {sq}, none",
            pt: "{n} {w} para escolher; depois de {sq}, nenhuma",
            check: |_, c| if n(&c[0]) > 0 { Ok(()) } else { Err("none either".into()) },
        },
        Claim {
            en: "After {sq}, {side} has no move and must pass, but {sq} is better here.",
            pt: "Depois de {sq}, {side} não tem jogada e passa a vez, mas {sq} é melhor aqui.",
            check: |cx, c| {
                cx.opponent(w(&c[1]))?;
                cx.accepted(sq(&c[2]))?;
                let k = cx.c(sq(&c[0]))?;
                eq("opponent's moves", k.opponent_moves.len(), 0)?;
                if k.own_moves_after > 0 { Ok(()) } else { Err("the game is over, no pass".into()) }
            },
        },
        Claim {
            en: "the game is over; {sq} is better here.",
            pt: "a partida acaba; {sq} é melhor aqui.",
            check: |cx, c| cx.accepted(sq(&c[0])),
        },
        // Quiet moves: the frontier the move makes.
        Claim {
            en: "{sq} is quiet: it flips {n} {w} and leaves {n} of the discs it placed or flipped next to empty squares.",
            pt: "{sq} é silenciosa: vira {n} {w} e deixa {n} das peças que colocou ou virou ao lado de casas vazias.",
            check: |cx, c| {
                let k = cx.c(sq(&c[0]))?;
                eq("flipped", n(&c[1]), i64::from(k.flips))?;
                agrees(n(&c[1]) as f64, w(&c[2]), cx.lang)?;
                eq("frontier", n(&c[3]), i64::from(k.frontier))?;
                let least = cx.moves.values().map(|m| m.frontier).min().unwrap_or(0);
                if k.frontier <= least + 1 && k.flips <= 4 { Ok(()) } else { Err("not quiet".into()) }
            },
        },
        Claim {
            en: "{sq} leaves {n} of the discs it placed or flipped next to empty squares",
            pt: "{sq} deixa {n} das peças que colocou ou virou ao lado de casas vazias",
            check: |cx, c| eq("frontier", n(&c[1]), i64::from(cx.c(sq(&c[0]))?.frontier)),
        },
        Claim {
            en: "{n} of the discs it placed or flipped next to empty squares; {sq} only {n}.",
            pt: "{n} das peças que colocou ou virou ao lado de casas vazias; {sq}, só {n}.",
            check: |cx, c| {
                cx.accepted(sq(&c[1]))?;
                eq("answer's frontier", n(&c[2]), i64::from(cx.c(sq(&c[1]))?.frontier))?;
                if n(&c[2]) < n(&c[0]) { Ok(()) } else { Err("not fewer".into()) }
            },
        },
        Claim {
            en: "{n} of the discs it placed or flipped next to empty squares, as many as {sq}:",
            pt: "{n} das peças que colocou ou virou ao lado de casas vazias, tantas quanto {sq}:",
            check: |cx, c| {
                cx.accepted(sq(&c[1]))?;
                eq("as many as", n(&c[0]), i64::from(cx.c(sq(&c[1]))?.frontier))
            },
        },
        Claim {
            en: "{n} of the discs it placed or flipped next to empty squares, fewer than {sq} ({n}),",
            pt: "{n} das peças que colocou ou virou ao lado de casas vazias, menos do que {sq} ({n}),",
            check: |cx, c| {
                cx.accepted(sq(&c[1]))?;
                eq("answer's frontier", n(&c[2]), i64::from(cx.c(sq(&c[1]))?.frontier))?;
                if n(&c[0]) < n(&c[2]) { Ok(()) } else { Err("not fewer".into()) }
            },
        },
        // Stable discs.
        Claim {
            en: "{sq} adds {n} stable {w}",
            pt: "{sq} soma {n} {w} {w}",
            check: |cx, c| {
                eq("stable discs gained", n(&c[1]), cx.c(sq(&c[0]))?.stable_gain)?;
                let noun = w(&c[c.len() - 1]);
                agrees(n(&c[1]) as f64, noun, cx.lang)
            },
        },
        Claim {
            en: "{sq} adds no stable disc",
            pt: "{sq} não soma nenhuma peça estável",
            check: |cx, c| eq("stable discs gained", cx.c(sq(&c[0]))?.stable_gain, 0),
        },
        Claim {
            en: "stable {w}, as many as {sq}:",
            pt: "{w}, tantas quanto {sq}:",
            check: |cx, c| {
                cx.accepted(sq(&c[1]))?;
                eq("as many as", cx.c(cx.played)?.stable_gain, cx.c(sq(&c[1]))?.stable_gain)
            },
        },
        Claim {
            en: "stable disc, as many as {sq}:",
            pt: "peça estável, tantas quanto {sq}:",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                eq("as many as", cx.c(cx.played)?.stable_gain, cx.c(sq(&c[0]))?.stable_gain)
            },
        },
        Claim {
            en: ", more than {sq} ({n}),",
            pt: ", mais do que {sq} ({n}),",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                let k = cx.c(sq(&c[0]))?.stable_gain;
                eq("answer's stable discs", n(&c[1]), k)?;
                if cx.c(cx.played)?.stable_gain > k { Ok(()) } else { Err("not more".into()) }
            },
        },
        // Parity.
        Claim {
            en: "{sq} goes into a region of {n} empty {w} ({w})",
            pt: "{sq} entra numa região de {n} {w} {w} ({w})",
            check: |cx, c| {
                let k = n(&c[1]);
                eq("region", k, i64::from(cx.c(sq(&c[0]))?.region))?;
                agrees(k as f64, w(&c[2]), cx.lang)?;
                parity_word(k, w(&c[c.len() - 1]))
            },
        },
        Claim {
            en: "; {sq} into one of {n} ({w})",
            pt: "; {sq}, numa de {n} ({w})",
            check: |cx, c| {
                cx.accepted(sq(&c[0]))?;
                eq("region", n(&c[1]), i64::from(cx.c(sq(&c[0]))?.region))?;
                parity_word(n(&c[1]), w(&c[2]))
            },
        },
        Claim {
            en: "(even); {sq} into one of {n} (odd), keeping the last move there.",
            pt: "(par); {sq}, numa de {n} (ímpar), e guarda a última jogada ali.",
            check: |_, _| Ok(()),
        },
        Claim {
            en: "(odd): if both sides play there in turn, the last move there is yours.",
            pt: "(ímpar): se os dois lados jogarem ali alternadamente, a última jogada ali é sua.",
            check: |cx, _| {
                cx.accepted(cx.played)?;
                if cx.c(cx.played)?.region % 2 == 1 { Ok(()) } else { Err("even".into()) }
            },
        },
        Claim {
            en: ": here parity alone does not decide.",
            pt: ": aqui a paridade sozinha não decide.",
            check: |cx, _| {
                // Said when the played move's region is odd or the answer's is even.
                if cx.c(cx.played)?.region % 2 == 1 { Ok(()) } else { Err("the parity would decide".into()) }
            },
        },
    ]
}

/// Words that are claims: each must fall inside a checked claim.
const CLAIM_WORDS: [&str; 24] = [
    " too",
    "either",
    "também",
    "passa a vez",
    "only",
    "odd",
    "even",
    "no move",
    "at once",
    "single",
    "none",
    "as many",
    "fewer",
    "more than",
    "must pass",
    " só ",
    "ímpar",
    "(par)",
    "sem jogada",
    "na hora",
    "única",
    "nenhuma",
    "tantas",
    "menos",
];

struct Walked {
    positions: usize,
    moves: usize,
    texts: usize,
    sentences: usize,
    claims: usize,
}

fn walk() -> Result<Walked, Vec<String>> {
    let data: Value = serde_json::from_str(LESSONS).expect("lessons.json is JSON");
    let claims = claims();
    let mut errors = Vec::new();
    let mut out = Walked {
        positions: 0,
        moves: 0,
        texts: 0,
        sentences: 0,
        claims: 0,
    };
    for l in data["lessons"].as_array().expect("lessons") {
        for p in l["positions"].as_array().expect("positions") {
            out.positions += 1;
            let id = p["id"].as_str().expect("id");
            let board: Vec<char> = p["board"].as_str().expect("board").chars().collect();
            assert_eq!(board.len(), 64, "{id}");
            let (me, mover) = if p["to_move"] == "black" {
                ('X', "Black")
            } else {
                ('O', "White")
            };
            let mut grid: Grid = [[0; 8]; 8];
            for (i, ch) in board.iter().enumerate() {
                grid[i / 8][i % 8] = match *ch {
                    '-' => 0,
                    c if c == me => 1,
                    _ => -1,
                };
            }
            let legal_here = legal(&grid, 1);
            let listed: BTreeSet<Sq> = p["moves"]
                .as_object()
                .expect("moves")
                .keys()
                .map(|k| parse_sq(k))
                .collect();
            assert_eq!(
                listed,
                legal_here.iter().copied().collect(),
                "{id}: the file's moves are the legal moves"
            );
            let moves: BTreeMap<Sq, Counted> =
                legal_here.iter().map(|&s| (s, count(&grid, s))).collect();
            let values: BTreeMap<Sq, f64> = p["moves"]
                .as_object()
                .expect("moves")
                .iter()
                .map(|(k, m)| (parse_sq(k), m["value"].as_f64().expect("value")))
                .collect();
            let accepted: BTreeSet<Sq> = p["answers"]
                .as_array()
                .expect("answers")
                .iter()
                .map(|a| parse_sq(a.as_str().expect("square")))
                .collect();
            for &played in &legal_here {
                out.moves += 1;
                for lang in ["en", "pt"] {
                    out.texts += 1;
                    let text = p["moves"][name(played)]["text"][lang]
                        .as_str()
                        .unwrap_or("");
                    let chars: Vec<char> = text.chars().collect();
                    let cx = Ctx {
                        lang,
                        grid,
                        mover,
                        played,
                        accepted: &accepted,
                        moves: &moves,
                        values: &values,
                    };
                    let mut covered = vec![false; chars.len()];
                    let mut said = |e: String| {
                        errors.push(format!("{id} {} [{lang}] {e}: {text}", name(played)))
                    };
                    if text.is_empty() {
                        said("no feedback".into());
                        continue;
                    }
                    for claim in &claims {
                        let pat = if lang == "en" { claim.en } else { claim.pt };
                        for at in 0..chars.len() {
                            if let Some((end, caps)) = match_at(&chars, at, pat) {
                                out.claims += 1;
                                if let Err(e) = (claim.check)(&cx, &caps) {
                                    said(format!("\"{pat}\": {e}"));
                                }
                                covered[at..end].iter_mut().for_each(|c| *c = true);
                            }
                        }
                    }
                    // Every number and every claim word is inside a checked claim.
                    for (i, ch) in chars.iter().enumerate() {
                        if ch.is_ascii_digit() && !covered[i] {
                            let before = i > 0 && ('a'..='h').contains(&chars[i - 1]);
                            if !before {
                                said(format!("the number at {i} is in no checked claim"));
                            }
                        }
                    }
                    for word in CLAIM_WORDS {
                        let mut from = 0;
                        while let Some(k) = text[from..].find(word) {
                            let start = text[..from + k].chars().count();
                            if !covered[start] {
                                said(format!("\"{word}\" is in no checked claim"));
                            }
                            from += k + word.len();
                        }
                    }
                    // A square named in a sentence is a square of the board; the language is one.
                    let foreign: &[&str] = if lang == "en" {
                        &["Preto", "Branco", "jogada", "peça"]
                    } else {
                        &["Black", "White", " move", " disc"]
                    };
                    for f in foreign {
                        if text.contains(f) {
                            said(format!("\"{f}\" in the other language"));
                        }
                    }
                    let accepted_move = accepted.contains(&played);
                    let engine = if lang == "en" {
                        "The engine:"
                    } else {
                        "O motor:"
                    };
                    if text.contains(engine) == accepted_move {
                        said(
                            "the engine's figure is for the moves the lesson does not accept"
                                .into(),
                        );
                    }
                    out.sentences += text.split(". ").count();
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[test]
fn every_lesson_sentence_agrees_with_the_board() {
    match walk() {
        Ok(w) => {
            eprintln!(
                "lesson walk: {} positions, {} moves, {} feedback texts, {} sentences, {} claims checked",
                w.positions, w.moves, w.texts, w.sentences, w.claims
            );
            assert!(
                w.positions >= 35 && w.moves >= 300,
                "{} positions, {} moves",
                w.positions,
                w.moves
            );
            assert_eq!(w.texts, 2 * w.moves);
            assert!(
                w.claims >= w.texts,
                "{} claims for {} texts",
                w.claims,
                w.texts
            );
        }
        Err(errors) => panic!("{} wrong:\n{}", errors.len(), errors.join("\n")),
    }
}

#[test]
fn the_reader_catches_a_wrong_sentence() {
    // The checks can fail: a count, a parity word, a plural and a better move the lesson does
    // not accept, each written wrong on a real position, are each caught.
    let data: Value = serde_json::from_str(LESSONS).expect("lessons.json is JSON");
    let claims = claims();
    let parity = data["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "parity")
        .unwrap();
    let p = &parity["positions"][0];
    let board: Vec<char> = p["board"].as_str().unwrap().chars().collect();
    let me = if p["to_move"] == "black" { 'X' } else { 'O' };
    let mut grid: Grid = [[0; 8]; 8];
    for (i, ch) in board.iter().enumerate() {
        grid[i / 8][i % 8] = if *ch == '-' {
            0
        } else if *ch == me {
            1
        } else {
            -1
        };
    }
    let moves: BTreeMap<Sq, Counted> = legal(&grid, 1)
        .into_iter()
        .map(|s| (s, count(&grid, s)))
        .collect();
    let values: BTreeMap<Sq, f64> = moves.keys().map(|s| (*s, 0.0)).collect();
    let accepted: BTreeSet<Sq> = p["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| parse_sq(a.as_str().unwrap()))
        .collect();
    let (&played, c) = moves.iter().find(|(s, _)| !accepted.contains(s)).unwrap();
    let r = c.region as i64;
    let mover = if me == 'X' { "Black" } else { "White" };
    let cx = Ctx {
        lang: "en",
        grid,
        mover,
        played,
        accepted: &accepted,
        moves: &moves,
        values: &values,
    };
    let run = |text: &str| -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let mut errs = Vec::new();
        for claim in &claims {
            for at in 0..chars.len() {
                if let Some((_, caps)) = match_at(&chars, at, claim.en) {
                    if let Err(e) = (claim.check)(&cx, &caps) {
                        errs.push(e);
                    }
                }
            }
        }
        errs
    };
    let m = name(played);
    let noun = |k: i64| if k == 1 { "square" } else { "squares" };
    let word = |k: i64| if k % 2 == 1 { "odd" } else { "even" };
    assert!(run(&format!(
        "{m} goes into a region of {r} empty {} ({}).",
        noun(r),
        word(r)
    ))
    .is_empty());
    assert!(!run(&format!(
        "{m} goes into a region of {} empty {} ({}).",
        r + 1,
        noun(r + 1),
        word(r + 1)
    ))
    .is_empty());
    assert!(!run(&format!(
        "{m} goes into a region of {r} empty {} ({}).",
        noun(r),
        word(r + 1)
    ))
    .is_empty());
    let wrong_noun = if r == 1 { "squares" } else { "square" };
    assert!(!run(&format!(
        "{m} goes into a region of {r} empty {wrong_noun} ({}).",
        word(r)
    ))
    .is_empty());
    assert!(!run(&format!("{m} is the better move here.")).is_empty());
}
