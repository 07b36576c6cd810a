//! The coach's sentences in English and Brazilian Portuguese, in the rule sheets' vocabulary
//! (RULES.md: peças, jogadas, casas; canto, casa X, casa C, borda, cunha, mobilidade, peças
//! estáveis, paridade, tempo, varrida). Rendered from the explanation's data alone.

use super::{Explanation, Kind};
use crate::teach::lang::{discs, empty_squares, line, moves, side};
pub use crate::teach::Lang;
use virada_rules::moves::spaced;
use virada_rules::Color;

/// "Black's"/"White's" discs in pt-BR: "peças pretas"/"peças brancas".
fn discs_of(c: Color) -> &'static str {
    match c {
        Color::Black => "peças pretas",
        Color::White => "peças brancas",
    }
}

/// A final score in words: "wins by 6", "loses by 4", "draws".
fn score(v: i32, lang: Lang) -> String {
    match (v.signum(), lang) {
        (1, Lang::En) => format!("wins by {v}"),
        (-1, Lang::En) => format!("loses by {}", -v),
        (_, Lang::En) => "draws".to_string(),
        (1, Lang::Pt) => format!("ganha por {v}"),
        (-1, Lang::Pt) => format!("perde por {}", -v),
        (_, Lang::Pt) => "empata".to_string(),
    }
}

/// "1 peça perdida"/"3 peças perdidas" (the participle agrees with the noun).
fn lost_pt(n: i32) -> String {
    if crate::teach::lang::is_one(i64::from(n), Lang::Pt) {
        format!("{n} peça perdida")
    } else {
        format!("{n} peças perdidas")
    }
}

/// `n` and a noun in the form its number takes in `lang` (English and pt-BR forms given).
fn counted(n: i32, lang: Lang, en: (&str, &str), pt: (&str, &str)) -> String {
    let (one, other) = match lang {
        Lang::En => en,
        Lang::Pt => pt,
    };
    crate::teach::lang::count(i64::from(n), lang, one, other)
}

/// "1 move"/"2 moves" ("jogada"/"jogadas").
fn moves_word(n: i32, lang: Lang) -> String {
    moves(i64::from(n), lang)
}

/// The sentence for `e` in `lang`.
pub fn render(e: &Explanation, lang: Lang) -> String {
    let n = |name: &str| e.number(name);
    let (p, b) = (e.played, e.best);
    let me = side(e.mover, lang);
    let you = side(e.mover.opposite(), lang);
    let sq = spaced(&e.squares);
    let first = e.squares.first().map(|s| s.to_string()).unwrap_or_default();
    let en = lang == Lang::En;
    match e.kind {
        Kind::CornerGiven if n("moves") <= 1 => {
            let many = e.squares.len() > 1;
            match (en, many) {
                (true, false) => {
                    format!("{p} lets {you} take the corner {sq} at once ({b} does not).")
                }
                (true, true) => {
                    format!("{p} lets {you} take the corners {sq} at once ({b} does not).")
                }
                (false, false) => {
                    format!("{p} deixa {you} tomar o canto {sq} na hora ({b} não deixa).")
                }
                (false, true) => {
                    format!("{p} deixa {you} tomar os cantos {sq} na hora ({b} não deixa).")
                }
            }
        }
        Kind::CornerGiven => {
            let k = moves_word(n("moves"), lang);
            let l = line(&e.line, lang);
            if en {
                format!("After {p}, {you} takes the corner {sq} within {k}: {l}.")
            } else {
                format!("Depois de {p}, {you} toma o canto {sq} em {k}: {l}.")
            }
        }
        Kind::CornerMissed => {
            if en {
                format!("{b} takes a corner, and a corner disc can never be flipped; {p} does not.")
            } else {
                format!("{b} toma um canto, e peça de canto nunca vira; {p} não.")
            }
        }
        Kind::XSquare => {
            let corner = e.squares.get(1).map(|s| s.to_string()).unwrap_or_default();
            if en {
                format!("{p} is an X-square next to the empty corner {corner}: it usually gives the corner away.")
            } else {
                format!(
                    "{p} é uma casa X ao lado do canto vazio {corner}: costuma entregar o canto."
                )
            }
        }
        Kind::CSquare => {
            let corner = e.squares.get(1).map(|s| s.to_string()).unwrap_or_default();
            if en {
                format!(
                    "{p} is a C-square next to the empty corner {corner}: the corner may be lost."
                )
            } else {
                format!(
                    "{p} é uma casa C ao lado do canto vazio {corner}: o canto pode ser perdido."
                )
            }
        }
        Kind::Mobility if n("plies") > 1 => {
            let (op, ob) = (n("opponent_played"), n("opponent_best"));
            let (mp, mb) = (n("own_played"), n("own_best"));
            let h = n("plies");
            if en {
                format!("Mobility {} on: in the line of {p}, {you} has {} and {me} {mp}; in the line of {b}, {ob} and {mb}.", moves_word(h, lang), moves_word(op, lang))
            } else {
                format!("Mobilidade {} à frente: na linha de {p}, {you} tem {} e {me} {mp}; na linha de {b}, {ob} e {mb}.", moves_word(h, lang), moves_word(op, lang))
            }
        }
        Kind::Mobility => {
            let (op, ob) = (n("opponent_played"), n("opponent_best"));
            let (mp, mb) = (n("own_played"), n("own_best"));
            if en {
                format!(
                    "Mobility: after {p}, {you} has {} and {me} {mp}; after {b}, {ob} and {mb}.",
                    moves_word(op, lang)
                )
            } else {
                format!("Mobilidade: depois de {p}, {you} tem {} e {me} {mp}; depois de {b}, {ob} e {mb}.", moves_word(op, lang))
            }
        }
        Kind::Frontier if n("plies") > 1 => {
            let h = n("plies");
            let (fp, op) = (n("frontier_played"), n("opponent_frontier_played"));
            let (fb, ob) = (n("frontier_best"), n("opponent_frontier_best"));
            if en {
                format!("Frontier {} on: in the line of {p}, {me} has {} (next to empty squares) and {you} {op}; in the line of {b}, {fb} and {ob}.", moves_word(h, lang), counted(fp, lang, ("frontier disc", "frontier discs"), ("peça de fronteira", "peças de fronteira")))
            } else {
                format!("Fronteira {} à frente: na linha de {p}, {me} tem {} (ao lado de casas vazias) e {you} {op}; na linha de {b}, {fb} e {ob}.", moves_word(h, lang), counted(fp, lang, ("frontier disc", "frontier discs"), ("peça de fronteira", "peças de fronteira")))
            }
        }
        Kind::Frontier => {
            let (cp, cb) = (n("created_played"), n("created_best"));
            if en {
                format!("{p} makes {cp} new frontier discs (next to empty squares: {sq}); {b} makes {cb}.")
            } else {
                format!("{p} cria {cp} peças de fronteira novas (ao lado de casas vazias: {sq}); {b} cria {cb}.")
            }
        }
        Kind::QuietMove => {
            let (fp, ep) = (n("flipped_played"), n("exposed_played"));
            let (fb, eb) = (n("flipped_best"), n("exposed_best"));
            if en {
                format!("{p} flips {} and leaves {ep} exposed ({sq}); {b} is quieter: {fb} flipped, {eb} exposed.", discs(i64::from(fp), lang))
            } else {
                format!("{p} vira {} e deixa {ep} expostas ({sq}); {b} é mais silenciosa: vira {fb}, {eb} expostas.", discs(i64::from(fp), lang))
            }
        }
        Kind::UnbalancedEdge => {
            if en {
                format!("{p} makes an unbalanced edge ({sq}) that {you} can attack from one side.")
            } else {
                format!(
                    "{p} deixa uma borda desequilibrada ({sq}) que {you} pode atacar por um lado."
                )
            }
        }
        Kind::Wedge => {
            let (l, r) = (
                e.squares.get(1).map(|s| s.to_string()).unwrap_or_default(),
                e.squares.get(2).map(|s| s.to_string()).unwrap_or_default(),
            );
            if en {
                format!("After {p}, {you} can wedge in at {first}, between {me}'s edge discs {l} and {r}.")
            } else {
                let own = discs_of(e.mover);
                format!("Depois de {p}, {you} pode fazer uma cunha em {first}, entre as {own} {l} e {r} da borda.")
            }
        }
        Kind::EdgeAnchor => {
            let h = n("plies");
            let (op, ob) = (n("opponent_played"), n("opponent_best"));
            if en {
                format!(
                    "{} after {p}, {you} has {} anchored on a corner ({sq}); after {b}, {ob}.",
                    moves_word(h, lang),
                    counted(
                        op,
                        lang,
                        ("stable edge disc", "stable edge discs"),
                        ("", "")
                    )
                )
            } else {
                format!("{} depois de {p}, {you} tem {} na borda, {} num canto ({sq}); depois de {b}, {ob}.", moves_word(h, lang), counted(op, lang, ("", ""), ("peça estável", "peças estáveis")), if crate::teach::lang::is_one(i64::from(op), lang) { "ancorada" } else { "ancoradas" })
            }
        }
        Kind::Stability => {
            let h = n("plies");
            let (mp, op) = (n("own_played"), n("opponent_played"));
            let (mb, ob) = (n("own_best"), n("opponent_best"));
            if en {
                format!("Stable discs {} on: after {p}, {me} {mp} and {you} {op}; after {b}, {mb} and {ob}.", moves_word(h, lang))
            } else {
                format!("Peças estáveis {} à frente: depois de {p}, {me} {mp} e {you} {op}; depois de {b}, {mb} e {ob}.", moves_word(h, lang))
            }
        }
        Kind::Parity => {
            let (rp, rb) = (n("region_played"), n("region_best"));
            if en {
                format!("Parity: {p} goes into an even region of {}, which leaves the last move there to {you}; {b} plays in an odd region of {rb}.", empty_squares(i64::from(rp), lang))
            } else {
                format!("Paridade: {p} entra numa região par de {}, o que deixa a última jogada nela para {you}; {b} joga numa região ímpar de {rb}.", empty_squares(i64::from(rp), lang))
            }
        }
        Kind::PassForced => {
            let l = line(&e.line, lang);
            if n("moves") <= 1 {
                if en {
                    format!("{b} leaves {you} without a move: {you} must pass (a tempo gained).")
                } else {
                    format!("{b} deixa {you} sem jogadas: {you} passa a vez (ganho de tempo).")
                }
            } else if en {
                format!("After {b}, {you} runs out of moves and must pass: {l}.")
            } else {
                format!("Depois de {b}, {you} fica sem jogadas e passa a vez: {l}.")
            }
        }
        Kind::PassAllowed => {
            let l = line(&e.line, lang);
            if en {
                format!("After {p}, {me} runs out of moves and must pass: {l}.")
            } else {
                format!("Depois de {p}, {me} fica sem jogadas e passa a vez: {l}.")
            }
        }
        Kind::WipeoutRisk => {
            let d = n("discs");
            if n("moves") <= 1 {
                if en {
                    format!("After {p}, {you} can flip all {d} of {me}'s discs with {first} (a wipe-out).")
                } else {
                    let own = discs_of(e.mover);
                    format!(
                        "Depois de {p}, {you} pode virar todas as {d} {own} com {first} (varrida)."
                    )
                }
            } else {
                let l = line(&e.line, lang);
                if en {
                    format!("After {p}, {me} loses every disc (a wipe-out): {l}.")
                } else {
                    format!("Depois de {p}, {me} perde todas as peças (varrida): {l}.")
                }
            }
        }
        Kind::ExactLoss => {
            let (bs, ps, loss) = (n("best_score"), n("played_score"), n("loss"));
            let l = line(&e.line, lang);
            let (sb, sp) = (score(bs, lang), score(ps, lang));
            if en {
                format!(
                    "Exact endgame: {b} {sb}, {p} {sp}: {} lost. Best line: {l}.",
                    discs(i64::from(loss), lang)
                )
            } else {
                format!(
                    "Fim de jogo exato: {b} {sb}, {p} {sp}: {}. Melhor linha: {l}.",
                    lost_pt(loss)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explanation(kind: Kind, squares: &[&str], numbers: Vec<(&'static str, i32)>) -> Explanation {
        Explanation {
            kind,
            mover: Color::White,
            played: "g7".parse().unwrap(),
            best: "c4".parse().unwrap(),
            squares: squares.iter().map(|s| s.parse().unwrap()).collect(),
            numbers,
            line: Vec::new(),
            at: crate::coach::At::played(1),
        }
    }

    #[test]
    fn sentences_in_both_languages() {
        let e = explanation(Kind::XSquare, &["g7", "h8"], Vec::new());
        assert_eq!(
            e.text(Lang::En),
            "g7 is an X-square next to the empty corner h8: it usually gives the corner away."
        );
        assert_eq!(
            e.text(Lang::Pt),
            "g7 é uma casa X ao lado do canto vazio h8: costuma entregar o canto."
        );
        let m = explanation(
            Kind::Mobility,
            &[],
            vec![
                ("own_played", 3),
                ("opponent_played", 9),
                ("own_best", 6),
                ("opponent_best", 4),
            ],
        );
        assert_eq!(
            m.text(Lang::Pt),
            "Mobilidade: depois de g7, o Preto tem 9 jogadas e o Branco 3; depois de c4, 4 e 6."
        );
        let w = explanation(Kind::WipeoutRisk, &["b4"], vec![("discs", 3), ("moves", 1)]);
        assert_eq!(
            w.text(Lang::En),
            "After g7, Black can flip all 3 of White's discs with b4 (a wipe-out)."
        );
    }

    #[test]
    fn two_corners_given_at_once() {
        let e = explanation(Kind::CornerGiven, &["a1", "h1"], vec![("moves", 1)]);
        assert_eq!(
            e.text(Lang::En),
            "g7 lets Black take the corners a1 h1 at once (c4 does not)."
        );
        assert_eq!(
            e.text(Lang::Pt),
            "g7 deixa o Preto tomar os cantos a1 h1 na hora (c4 não deixa)."
        );
    }

    #[test]
    fn every_kind_renders_in_both_languages() {
        for kind in Kind::ALL {
            let e = explanation(kind, &["a1", "b1", "c1"], vec![("moves", 2), ("plies", 4)]);
            for lang in [Lang::En, Lang::Pt] {
                let t = e.text(lang);
                assert!(t.ends_with('.') && t.len() > 20, "{kind:?} {lang:?}: {t}");
            }
        }
    }
}
