//! The puzzle page's feedback on a move, written from [`MoveFacts`]: what the move leaves the
//! opponent (its moves, a pass, a corner at once, the end of the game), the opponent's reply
//! named as the reply, and the result: exact for an endgame puzzle, an estimate (said so) for a
//! midgame one. Every count goes through the plural rule of [`super::lang`].

use super::facts::MoveFacts;
use super::lang::{discs, line, moves, side, Lang};
use virada_rules::{Color, Move, Square};

/// How the puzzle's scores were found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scores {
    /// The exact solver's final disc differences (endgame puzzles).
    Exact,
    /// A deep search's estimates (midgame puzzles).
    Estimate,
}

/// What the server made of a move of the solver.
#[derive(Clone, Copy, Debug)]
pub enum Outcome<'a> {
    /// Right, and the puzzle goes on: the opponent's moves up to the solver's next turn (the
    /// solver's forced passes included), and the move to find next, `next` of `total`.
    Right {
        reply: &'a [Move],
        next: usize,
        total: usize,
    },
    /// Right, and the last move to find: the best result (the solver's view).
    Solved { best: i32 },
    /// Wrong: the best line after it (the opponent's answer first; empty when the move ends the
    /// game), its result if known and the best result (the solver's view).
    Wrong {
        refutation: &'a [Move],
        got: Option<i32>,
        best: i32,
    },
}

/// A move the solver played in a puzzle.
#[derive(Clone, Copy, Debug)]
pub struct PuzzleMove<'a> {
    /// The solver's colour.
    pub mover: Color,
    /// The move's facts on the board it was played on.
    pub facts: &'a MoveFacts,
    pub outcome: Outcome<'a>,
    pub scores: Scores,
}

fn en_pt(lang: Lang, en: String, pt: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Pt => pt,
    }
}

/// A final result for the solver: "a win by 6 discs", "a draw", "a loss by 1 disc".
pub fn result(score: i32, lang: Lang) -> String {
    let n = discs(i64::from(score.abs()), lang);
    match (score.signum(), lang) {
        (0, Lang::En) => "a draw".into(),
        (0, Lang::Pt) => "um empate".into(),
        (1, Lang::En) => format!("a win by {n}"),
        (1, Lang::Pt) => format!("uma vitória por {n}"),
        (_, Lang::En) => format!("a loss by {n}"),
        (_, Lang::Pt) => format!("uma derrota por {n}"),
    }
}

/// An estimated standing for the solver: "about 8 discs ahead", "about even".
fn standing(score: i32, lang: Lang) -> String {
    let n = discs(i64::from(score.abs()), lang);
    match (score.signum(), lang) {
        (0, Lang::En) => "about even".into(),
        (0, Lang::Pt) => "cerca de empate".into(),
        (1, Lang::En) => format!("about {n} ahead"),
        (1, Lang::Pt) => format!("cerca de {n} à frente"),
        (_, Lang::En) => format!("about {n} behind"),
        (_, Lang::Pt) => format!("cerca de {n} atrás"),
    }
}

/// What the opponent can do after the move: "After c1, White has 3 moves and replies a7." (the
/// reply named as the reply), a forced pass, or the end of the game.
fn after_move(p: &PuzzleMove, reply: Option<Move>, lang: Lang) -> String {
    let f = p.facts;
    let m = f.square;
    let o = side(p.mover.opposite(), lang);
    if f.ends_game() {
        return en_pt(
            lang,
            format!("After {m}, neither side can move: the game is over."),
            format!("Depois de {m}, nenhum lado pode jogar: a partida acabou."),
        );
    }
    if f.opponent_must_pass() {
        return en_pt(
            lang,
            format!("After {m}, {o} has no move and must pass."),
            format!("Depois de {m}, {o} não tem jogada e passa a vez."),
        );
    }
    let has = if f.opponent_count() == 1 {
        en_pt(
            lang,
            "a single move".to_string(),
            "uma única jogada".to_string(),
        )
    } else {
        moves(i64::from(f.opponent_count()), lang)
    };
    match reply.and_then(|r| r.square()) {
        Some(r) => en_pt(
            lang,
            format!("After {m}, {o} has {has} and replies {r}."),
            format!("Depois de {m}, {o} tem {has} e responde {r}."),
        ),
        None => en_pt(
            lang,
            format!("After {m}, {o} has {has}."),
            format!("Depois de {m}, {o} tem {has}."),
        ),
    }
}

/// "c7 lets White take the corner a8 at once." when the facts say so.
fn corners_given(p: &PuzzleMove, lang: Lang) -> Option<String> {
    let f = p.facts;
    let o = side(p.mover.opposite(), lang);
    let m = f.square;
    let names: Vec<String> = f.corners_given.iter().map(Square::to_string).collect();
    match names.as_slice() {
        [] => None,
        [c] => Some(en_pt(
            lang,
            format!("{m} lets {o} take the corner {c} at once."),
            format!("{m} deixa {o} tomar o canto {c} na hora."),
        )),
        _ => {
            let (last, first) = names.split_last().expect("two corners or more");
            let first = first.join(", ");
            Some(en_pt(
                lang,
                format!("{m} lets {o} take the corners {first} and {last} at once."),
                format!("{m} deixa {o} tomar os cantos {first} e {last} na hora."),
            ))
        }
    }
}

/// The feedback on the solver's move in `lang`.
pub fn feedback(p: &PuzzleMove, lang: Lang) -> String {
    let m = p.facts.square;
    let me = side(p.mover, lang);
    match p.outcome {
        Outcome::Right { reply, next, total } => {
            let mut out = vec![
                en_pt(lang, "Right!".into(), "Certo!".into()),
                after_move(p, reply.first().copied(), lang),
            ];
            // When the solver must pass in turn, the rest of the opponent's moves as a line.
            let rest = reply.get(1..).unwrap_or(&[]);
            if !rest.is_empty() {
                let l = line(rest, lang);
                out.push(en_pt(lang, format!("Then: {l}."), format!("Depois: {l}.")));
            }
            out.push(en_pt(
                lang,
                format!("Now find the next move ({next} of {total})."),
                format!("Agora encontre a próxima jogada ({next} de {total})."),
            ));
            out.join(" ")
        }
        Outcome::Solved { best } => {
            let head = match p.scores {
                Scores::Exact => en_pt(
                    lang,
                    format!("Solved! With {m}, {me} keeps the best result: {}.", result(best, lang)),
                    format!("Resolvido! Com {m}, {me} mantém o melhor resultado: {}.", result(best, lang)),
                ),
                Scores::Estimate => en_pt(
                    lang,
                    format!(
                        "Solved! {m} is the move the deep search prefers; it estimates {me} {} after it (an estimate, not an exact result).",
                        standing(best, lang)
                    ),
                    format!(
                        "Resolvido! {m} é a jogada que a busca profunda prefere; ela estima {me} {} depois dela (uma estimativa, não um resultado exato).",
                        standing(best, lang)
                    ),
                ),
            };
            format!("{head} {}", after_move(p, None, lang))
        }
        Outcome::Wrong {
            refutation,
            got,
            best,
        } => {
            let mut out = vec![en_pt(lang, "Not this one.".into(), "Esta não.".into())];
            out.push(after_move(p, refutation.first().copied(), lang));
            if let Some(c) = corners_given(p, lang) {
                out.push(c);
            }
            let verdict = match (p.scores, got) {
                (Scores::Exact, Some(got)) if p.facts.ends_game() => en_pt(
                    lang,
                    format!("It ends with {} instead of {}.", result(got, lang), result(best, lang)),
                    format!("Ela termina com {} em vez de {}.", result(got, lang), result(best, lang)),
                ),
                (Scores::Exact, Some(got)) => en_pt(
                    lang,
                    format!(
                        "With best play from there, {m} leads to {} instead of {}.",
                        result(got, lang),
                        result(best, lang)
                    ),
                    format!(
                        "Com o melhor jogo a partir daí, {m} leva a {} em vez de {}.",
                        result(got, lang),
                        result(best, lang)
                    ),
                ),
                (Scores::Exact, None) => en_pt(
                    lang,
                    format!("{m} keeps less than the best result ({}).", result(best, lang)),
                    format!("{m} fica abaixo do melhor resultado ({}).", result(best, lang)),
                ),
                (Scores::Estimate, Some(got)) => {
                    let loss = discs(i64::from((best - got).max(0)), lang);
                    en_pt(
                        lang,
                        format!("The deep search rates {m} about {loss} below the best move (an estimate, not an exact result)."),
                        format!("A busca profunda avalia {m} cerca de {loss} abaixo da melhor jogada (uma estimativa, não um resultado exato)."),
                    )
                }
                (Scores::Estimate, None) => en_pt(
                    lang,
                    format!("The deep search rates {m} below the best move (an estimate, not an exact result)."),
                    format!("A busca profunda avalia {m} abaixo da melhor jogada (uma estimativa, não um resultado exato)."),
                ),
            };
            out.push(verdict);
            out.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_rules::Board;

    #[test]
    fn results_and_a_right_move_with_its_reply() {
        assert_eq!(result(6, Lang::En), "a win by 6 discs");
        assert_eq!(result(-1, Lang::Pt), "uma derrota por 1 peça");
        assert_eq!(result(0, Lang::Pt), "um empate");
        let b = Board::start();
        let f = MoveFacts::of(&b, "d3".parse().unwrap()).unwrap();
        let reply = [Move::Play("c5".parse().unwrap())];
        let p = PuzzleMove {
            mover: Color::Black,
            facts: &f,
            outcome: Outcome::Right {
                reply: &reply,
                next: 2,
                total: 3,
            },
            scores: Scores::Exact,
        };
        assert_eq!(
            feedback(&p, Lang::En),
            "Right! After d3, White has 3 moves and replies c5. Now find the next move (2 of 3)."
        );
        assert_eq!(
            feedback(&p, Lang::Pt),
            "Certo! Depois de d3, o Branco tem 3 jogadas e responde c5. Agora encontre a próxima jogada (2 de 3)."
        );
    }
}
