//! The puzzle feedback walk: every shipped puzzle, every step the solver plays, every legal move
//! there, both languages. The sentence the page shows for the move (right with the opponent's
//! reply, solved, or wrong) is checked against counts made here with this test's own move
//! generator on a plain 8x8 array, not the rules crate's bitboards and not the teaching facts
//! that wrote it: the opponent's number of moves or its pass, the end of the game, the reply
//! (a legal move of the opponent, named as the reply), the corners given "at once", the
//! results and the estimate wording, the plural forms, and every number in the sentence.

use virada_engine::puzzles::{shipped, Puzzle, PuzzleKind};
use virada_engine::teach::puzzle::{feedback, Outcome, PuzzleMove, Scores};
use virada_engine::teach::{Lang, MoveFacts};
use virada_rules::{Move, Position, Square};

/// `[rank][file]`: 1 the solver's disc, -1 the opponent's, 0 empty.
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

fn flips(g: &Grid, s: Sq, who: i8) -> Vec<Sq> {
    if g[s.0][s.1] != 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (dr, dc) in DIRS {
        let mut run = Vec::new();
        let (mut r, mut c) = (s.0 as i32 + dr, s.1 as i32 + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) && g[r as usize][c as usize] == -who {
            run.push((r as usize, c as usize));
            r += dr;
            c += dc;
        }
        if !run.is_empty()
            && (0..8).contains(&r)
            && (0..8).contains(&c)
            && g[r as usize][c as usize] == who
        {
            out.extend(run);
        }
    }
    out
}

fn legal(g: &Grid, who: i8) -> Vec<Sq> {
    (0..64)
        .map(|i| (i / 8, i % 8))
        .filter(|&s| !flips(g, s, who).is_empty())
        .collect()
}

fn play(g: &Grid, s: Sq, who: i8) -> Grid {
    let mut n = *g;
    for f in flips(g, s, who) {
        n[f.0][f.1] = who;
    }
    n[s.0][s.1] = who;
    n
}

/// The grid of a position from its text (64 squares a1..h8, then the side to move), seen from
/// `solver` ('X' or 'O').
fn grid_of(pos: &Position, solver: char) -> Grid {
    let text = pos.to_string();
    let mut g: Grid = [[0; 8]; 8];
    for (i, ch) in text.chars().take(64).enumerate() {
        g[i / 8][i % 8] = match ch {
            '-' => 0,
            c if c == solver => 1,
            _ => -1,
        };
    }
    g
}

/// The plural rule written here: English singular for 1, pt-BR for 0 and 1.
fn discs(n: i32, lang: Lang) -> String {
    let one = match lang {
        Lang::En => n == 1,
        Lang::Pt => n == 0 || n == 1,
    };
    match (lang, one) {
        (Lang::En, true) => format!("{n} disc"),
        (Lang::En, false) => format!("{n} discs"),
        (Lang::Pt, true) => format!("{n} peça"),
        (Lang::Pt, false) => format!("{n} peças"),
    }
}

fn result(v: i32, lang: Lang) -> String {
    match (v.signum(), lang) {
        (0, Lang::En) => "a draw".into(),
        (0, Lang::Pt) => "um empate".into(),
        (1, Lang::En) => format!("a win by {}", discs(v, lang)),
        (1, Lang::Pt) => format!("uma vitória por {}", discs(v, lang)),
        (_, Lang::En) => format!("a loss by {}", discs(-v, lang)),
        (_, Lang::Pt) => format!("uma derrota por {}", discs(-v, lang)),
    }
}

/// The numbers of a sentence that are not part of a square's name.
fn numbers(text: &str) -> Vec<i32> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let square = start > 0 && ('a'..='h').contains(&chars[start - 1]);
            if !square {
                let n: String = chars[start..i].iter().collect();
                out.push(n.parse().expect("a number"));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// What the test expects a sentence to hold, and the numbers it may hold.
struct Expect {
    phrases: Vec<String>,
    absent: Vec<&'static str>,
    numbers: Vec<i32>,
}

struct Walk {
    sentences: usize,
    moves: usize,
    phrases: usize,
}

/// The checked moves of one puzzle.
fn walk_puzzle(p: &Puzzle, out: &mut Walk) {
    let solver_char = if p.solver() == virada_rules::Color::Black {
        'X'
    } else {
        'O'
    };
    let midgame = p.kind == PuzzleKind::Midgame;
    let scores = if midgame {
        Scores::Estimate
    } else {
        Scores::Exact
    };
    let steps: Vec<(Position, bool, Move)> = p.steps().collect();
    // The solver's moves counted here from the line.
    let total = steps.iter().filter(|(_, mine, _)| *mine).count();
    let mut k = 0;
    for (i, (before, mine, right)) in steps.iter().enumerate() {
        if !*mine {
            continue;
        }
        k += 1;
        let g = grid_of(before, solver_char);
        // The opponent's moves after the right one, up to the solver's next move.
        let reply: Vec<Move> = steps[i + 1..]
            .iter()
            .take_while(|(_, m, _)| !*m)
            .map(|&(_, _, mv)| mv)
            .collect();
        for s in legal(&g, 1) {
            out.moves += 1;
            let sq: Square = name(s).parse().expect("a square");
            let facts = MoveFacts::of(&before.board(), sq).expect("legal by this test's rules");
            let after = play(&g, s, 1);
            let opp = legal(&after, -1);
            let own = legal(&after, 1);
            let is_right = Move::Play(sq) == *right;
            let last = k == total;
            // The reply the sentence names: the line's for the right move; for a wrong move the
            // opponent's first legal move by this test's generator (or a pass), as a refutation.
            let wrong_line: Vec<Move> = match (opp.first(), own.is_empty()) {
                (Some(&r), _) => vec![Move::Play(name(r).parse().unwrap())],
                (None, false) => vec![Move::Pass],
                (None, true) => Vec::new(),
            };
            let got = if k == 1 { p.score_of(sq) } else { None };
            let best = p.best_score();
            let outcome = match (is_right, last) {
                (true, false) => Outcome::Right {
                    reply: &reply,
                    next: k + 1,
                    total,
                },
                (true, true) => Outcome::Solved { best },
                (false, _) => Outcome::Wrong {
                    refutation: &wrong_line,
                    got,
                    best,
                },
            };
            let named_reply: Option<Move> = match (is_right, last) {
                (true, false) => reply.first().copied(),
                (true, true) => None,
                (false, _) => wrong_line.first().copied(),
            };
            if let Some(Move::Play(r)) = named_reply {
                let rs = r.to_string();
                assert!(
                    opp.iter().any(|&o| name(o) == rs),
                    "{}: the reply {rs} after {sq} is no move of the opponent",
                    p.id
                );
            }
            for lang in Lang::ALL {
                let text = feedback(
                    &PuzzleMove {
                        mover: p.solver(),
                        facts: &facts,
                        outcome,
                        scores,
                    },
                    lang,
                );
                let e = expect(ExpectIn {
                    lang,
                    sq: &name(s),
                    black_solver: solver_char == 'X',
                    opp: &opp,
                    own: &own,
                    is_right,
                    last,
                    named_reply,
                    rest: if is_right && !last {
                        reply.get(1..).unwrap_or(&[])
                    } else {
                        &[]
                    },
                    k,
                    total,
                    got,
                    best,
                    midgame,
                });
                for ph in &e.phrases {
                    assert!(
                        text.contains(ph.as_str()),
                        "{} {sq} ({lang:?}): {text:?} lacks {ph:?}",
                        p.id
                    );
                }
                for w in &e.absent {
                    assert!(
                        !text.contains(w),
                        "{} {sq} ({lang:?}): {text:?} says {w:?}",
                        p.id
                    );
                }
                for n in numbers(&text) {
                    assert!(
                        e.numbers.contains(&n),
                        "{} {sq} ({lang:?}): {text:?} has the number {n}, none of {:?}",
                        p.id,
                        e.numbers
                    );
                }
                out.sentences += 1;
                out.phrases += e.phrases.len();
            }
        }
    }
}

struct ExpectIn<'a> {
    lang: Lang,
    sq: &'a str,
    black_solver: bool,
    opp: &'a [Sq],
    own: &'a [Sq],
    is_right: bool,
    last: bool,
    named_reply: Option<Move>,
    rest: &'a [Move],
    k: usize,
    total: usize,
    got: Option<i32>,
    best: i32,
    midgame: bool,
}

fn expect(x: ExpectIn) -> Expect {
    let en = x.lang == Lang::En;
    let o = match (x.black_solver, en) {
        (true, true) => "White",
        (false, true) => "Black",
        (true, false) => "o Branco",
        (false, false) => "o Preto",
    };
    let m = x.sq;
    let mut phrases = Vec::new();
    let mut absent: Vec<&'static str> = Vec::new();
    let mut nums = Vec::new();
    let n = x.opp.len() as i32;
    // What the opponent can do after the move.
    if n == 0 && x.own.is_empty() {
        phrases.push(if en {
            format!("After {m}, neither side can move: the game is over.")
        } else {
            format!("Depois de {m}, nenhum lado pode jogar: a partida acabou.")
        });
    } else if n == 0 {
        phrases.push(if en {
            format!("After {m}, {o} has no move and must pass.")
        } else {
            format!("Depois de {m}, {o} não tem jogada e passa a vez.")
        });
    } else {
        let has = match (n, en) {
            (1, true) => "a single move".to_string(),
            (1, false) => "uma única jogada".to_string(),
            (_, true) => format!("{n} moves"),
            (_, false) => format!("{n} jogadas"),
        };
        nums.push(n);
        let tail = match x.named_reply {
            Some(Move::Play(r)) if en => format!(" and replies {r}."),
            Some(Move::Play(r)) => format!(" e responde {r}."),
            _ => ".".into(),
        };
        phrases.push(if en {
            format!("After {m}, {o} has {has}{tail}")
        } else {
            format!("Depois de {m}, {o} tem {has}{tail}")
        });
    }
    if n != 1 {
        absent.push(if en { "single" } else { "única" });
    }
    // Corners the opponent can take at once (only said of a wrong move).
    let corners: Vec<String> = x
        .opp
        .iter()
        .filter(|s| (s.0 == 0 || s.0 == 7) && (s.1 == 0 || s.1 == 7))
        .map(|&s| name(s))
        .collect();
    if !x.is_right && !corners.is_empty() {
        let list = match corners.len() {
            1 => corners[0].clone(),
            _ => format!(
                "{} {} {}",
                corners[..corners.len() - 1].join(", "),
                if en { "and" } else { "e" },
                corners[corners.len() - 1]
            ),
        };
        let what = match (corners.len(), en) {
            (1, true) => format!("the corner {list} at once"),
            (_, true) => format!("the corners {list} at once"),
            (1, false) => format!("o canto {list} na hora"),
            (_, false) => format!("os cantos {list} na hora"),
        };
        phrases.push(if en {
            format!("{m} lets {o} take {what}.")
        } else {
            format!("{m} deixa {o} tomar {what}.")
        });
    } else {
        absent.push(if en { "at once" } else { "na hora" });
    }
    // The rest of the line after a forced pass of the solver.
    if !x.rest.is_empty() {
        let words: Vec<String> = x
            .rest
            .iter()
            .map(|mv| match mv.square() {
                Some(s) => s.to_string(),
                None => (if en { "pass" } else { "passa" }).to_string(),
            })
            .collect();
        phrases.push(if en {
            format!("Then: {}.", words.join(" "))
        } else {
            format!("Depois: {}.", words.join(" "))
        });
    }
    if x.is_right && !x.last {
        phrases.push(if en {
            format!("Right! After {m}")
        } else {
            format!("Certo! Depois de {m}")
        });
        phrases.push(if en {
            format!("Now find the next move ({} of {}).", x.k + 1, x.total)
        } else {
            format!(
                "Agora encontre a próxima jogada ({} de {}).",
                x.k + 1,
                x.total
            )
        });
        nums.extend([x.k as i32 + 1, x.total as i32]);
    }
    // The result: exact for an endgame puzzle, an estimate said as one for a midgame puzzle.
    let estimate = if en { "an estimate" } else { "uma estimativa" };
    if x.midgame {
        absent.extend(if en {
            ["a win by", "a loss by", "leads to"]
        } else {
            ["uma vitória", "uma derrota", "leva a"]
        });
    } else {
        absent.push(if en { "estimate" } else { "estima" });
    }
    if x.is_right && x.last {
        if x.midgame {
            let v = x.best;
            let standing = match (v.signum(), en) {
                (0, true) => "about even".to_string(),
                (0, false) => "cerca de empate".to_string(),
                (1, true) => format!("about {} ahead", discs(v, x.lang)),
                (1, false) => format!("cerca de {} à frente", discs(v, x.lang)),
                (_, true) => format!("about {} behind", discs(-v, x.lang)),
                (_, false) => format!("cerca de {} atrás", discs(-v, x.lang)),
            };
            phrases.push(standing);
            phrases.push(estimate.into());
            nums.push(v.abs());
        } else {
            phrases.push(if en {
                format!("Solved! With {m}")
            } else {
                format!("Resolvido! Com {m}")
            });
            phrases.push(format!("{}.", result(x.best, x.lang)));
            nums.push(x.best.abs());
        }
    }
    if !x.is_right {
        phrases.push((if en { "Not this one." } else { "Esta não." }).into());
        match (x.midgame, x.got) {
            (true, Some(got)) => {
                let loss = x.best - got;
                assert!(loss > 0, "a wrong move is below the best");
                phrases.push(if en {
                    format!(
                        "rates {m} about {} below the best move",
                        discs(loss, x.lang)
                    )
                } else {
                    format!(
                        "avalia {m} cerca de {} abaixo da melhor jogada",
                        discs(loss, x.lang)
                    )
                });
                phrases.push(estimate.into());
                nums.push(loss);
            }
            (true, None) => phrases.push(estimate.into()),
            (false, Some(got)) => {
                phrases.push(format!(
                    "{} {} {}",
                    result(got, x.lang),
                    if en { "instead of" } else { "em vez de" },
                    result(x.best, x.lang)
                ));
                nums.extend([got.abs(), x.best.abs()]);
            }
            (false, None) => {
                phrases.push(format!("({})", result(x.best, x.lang)));
                nums.push(x.best.abs());
            }
        }
    }
    // Words of the other language never appear.
    absent.extend(if en {
        [" o Branco", " o Preto", "passa"]
    } else {
        ["White", "Black", " pass "]
    });
    Expect {
        phrases,
        absent,
        numbers: nums,
    }
}

#[test]
fn every_puzzle_move_says_what_the_board_says() {
    let mut w = Walk {
        sentences: 0,
        moves: 0,
        phrases: 0,
    };
    let all = shipped();
    for p in all {
        walk_puzzle(p, &mut w);
    }
    // Every shipped puzzle has at least two legal moves at its start, each said in 2 languages.
    assert!(w.moves >= 2 * all.len(), "{} moves", w.moves);
    assert_eq!(w.sentences, 2 * w.moves);
    eprintln!(
        "puzzle feedback walk: {} puzzles, {} moves, {} sentences, {} phrases checked",
        all.len(),
        w.moves,
        w.sentences,
        w.phrases
    );
}

/// The checks catch a sentence that says the wrong thing: the count, the pass and the corner
/// words are recomputed, so a tampered fact fails the walk.
#[test]
fn a_tampered_fact_is_caught() {
    let p = shipped()
        .iter()
        .find(|p| p.kind == PuzzleKind::Endgame)
        .expect("an endgame puzzle");
    let solver_char = if p.solver() == virada_rules::Color::Black {
        'X'
    } else {
        'O'
    };
    let g = grid_of(&p.start, solver_char);
    let s = legal(&g, 1)
        .into_iter()
        .find(|&s| name(s) != p.solution().to_string())
        .expect("a wrong move");
    let sq: Square = name(s).parse().unwrap();
    let mut facts = MoveFacts::of(&p.start.board(), sq).unwrap();
    let opp = legal(&play(&g, s, 1), -1);
    let own = legal(&play(&g, s, 1), 1);
    // One more opponent move than there is.
    facts.opponent_moves.push(Square::from_index_unchecked(0));
    let outcome = Outcome::Wrong {
        refutation: &[],
        got: p.score_of(sq),
        best: p.best_score(),
    };
    let text = feedback(
        &PuzzleMove {
            mover: p.solver(),
            facts: &facts,
            outcome,
            scores: Scores::Exact,
        },
        Lang::En,
    );
    let e = expect(ExpectIn {
        lang: Lang::En,
        sq: &name(s),
        black_solver: solver_char == 'X',
        opp: &opp,
        own: &own,
        is_right: false,
        last: false,
        named_reply: None,
        rest: &[],
        k: 1,
        total: 1,
        got: p.score_of(sq),
        best: p.best_score(),
        midgame: false,
    });
    let holds = e.phrases.iter().all(|ph| text.contains(ph.as_str()))
        && e.absent.iter().all(|w| !text.contains(w))
        && numbers(&text).iter().all(|n| e.numbers.contains(n));
    assert!(!holds, "a false count passed: {text:?}");
}
