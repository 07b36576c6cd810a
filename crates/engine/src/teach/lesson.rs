//! The strategy lessons' feedback on a move, written from [`MoveFacts`]: what the move does in
//! the lesson's terms, compared with an answer the lesson accepts, then the engine's figure.
//! Every comparative word ("only", "as many as", "fewer"), parity word and "no move" is chosen
//! from the counts, so a sentence never says "only 6" after "6" or "(odd)" of an even number.

use super::facts::{MoveFacts, NearCorner};
use super::lang::{discs, discs_tenths, empty_squares, moves, parity, side, Lang};
use virada_rules::{Color, Square};

/// A strategy lesson (the ids of `lessons.json`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lesson {
    Corners,
    XC,
    Mobility,
    Quiet,
    Stable,
    Parity,
    Tempo,
}

impl Lesson {
    /// Every lesson, in the page's order.
    pub const ALL: [Lesson; 7] = [
        Lesson::Corners,
        Lesson::XC,
        Lesson::Mobility,
        Lesson::Quiet,
        Lesson::Stable,
        Lesson::Parity,
        Lesson::Tempo,
    ];

    /// The id in `lessons.json` and the page's address.
    pub fn id(self) -> &'static str {
        match self {
            Lesson::Corners => "corners",
            Lesson::XC => "xc",
            Lesson::Mobility => "mobility",
            Lesson::Quiet => "quiet",
            Lesson::Stable => "stable",
            Lesson::Parity => "parity",
            Lesson::Tempo => "tempo",
        }
    }

    pub fn from_id(id: &str) -> Option<Lesson> {
        Lesson::ALL.into_iter().find(|l| l.id() == id)
    }

    /// How well a move shows the lesson's idea (lower is better): the answer a wrong move is
    /// compared with is the accepted one that shows it best.
    fn idea_rank(self, f: &MoveFacts) -> i64 {
        match self {
            Lesson::Corners => i64::from(!f.corner),
            Lesson::XC => i64::from(f.near_empty_corner.is_some()),
            Lesson::Mobility | Lesson::Tempo => i64::from(f.opponent_count()),
            Lesson::Quiet => i64::from(f.frontier),
            Lesson::Stable => -i64::from(f.stable_gain()),
            Lesson::Parity => i64::from(f.region.is_multiple_of(2)),
        }
    }

    /// The accepted answer a move is compared with: the one that shows the idea best, the
    /// engine's best among equals (`answers` must not be empty).
    pub fn compared_answer<'a>(self, answers: &[&'a MoveFacts], best: Square) -> &'a MoveFacts {
        answers
            .iter()
            .copied()
            .min_by_key(|f| (self.idea_rank(f), f.square != best))
            .expect("a lesson position has answers")
    }
}

/// A move played in a lesson position.
pub struct Played<'a> {
    pub lesson: Lesson,
    pub mover: Color,
    pub played: &'a MoveFacts,
    /// Whether the lesson accepts it.
    pub accepted: bool,
    /// The accepted answer it is compared with (itself when accepted).
    pub answer: &'a MoveFacts,
    /// Every legal move's facts in the position.
    pub all: &'a [MoveFacts],
    /// The engine's values of the played move and the answer (discs, the mover's view).
    pub played_value: f64,
    pub answer_value: f64,
}

fn en_pt(lang: Lang, en: String, pt: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Pt => pt,
    }
}

/// "1 stable disc"/"2 stable discs", "1 peça estável"/"2 peças estáveis".
fn stable_discs(n: u32, lang: Lang) -> String {
    let n = i64::from(n);
    match lang {
        Lang::En => super::lang::count(n, lang, "stable disc", "stable discs"),
        Lang::Pt => super::lang::count(n, lang, "peça estável", "peças estáveis"),
    }
}

/// The feedback on `p` in `lang`: the lesson's sentence, then (for a move the lesson does not
/// accept) the engine's figure against the answer.
pub fn feedback(p: &Played, lang: Lang) -> String {
    let idea = idea_sentence(p, lang);
    if p.accepted {
        return idea;
    }
    let (m, a) = (p.played.square, p.answer.square);
    let loss = discs_tenths((p.answer_value - p.played_value).max(0.0), lang);
    let engine = en_pt(
        lang,
        format!("The engine: {m} loses {loss} against {a}."),
        format!("O motor: {m} perde {loss} em relação a {a}."),
    );
    format!("{idea} {engine}")
}

fn idea_sentence(p: &Played, lang: Lang) -> String {
    match p.lesson {
        Lesson::Corners => corners(p, lang),
        Lesson::XC => xc(p, lang),
        Lesson::Mobility => mobility(p, lang),
        Lesson::Quiet => quiet(p, lang),
        Lesson::Stable => stable(p, lang),
        Lesson::Parity => region(p, lang),
        Lesson::Tempo => tempo(p, lang),
    }
}

/// An accepted move whose facts do not show the lesson's idea (the engine accepts it anyway).
fn among_the_best(p: &Played, lang: Lang) -> String {
    let m = p.played.square;
    en_pt(
        lang,
        format!("{m} is one of the best moves here."),
        format!("{m} é uma das melhores jogadas aqui."),
    )
}

fn corners(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    match (p.accepted, p.played.corner, p.answer.corner) {
        (true, true, _) => en_pt(
            lang,
            format!("{m} takes the corner: no line can bracket that disc, it is yours for the rest of the game."),
            format!("{m} toma o canto: nenhuma linha consegue cercar essa peça, ela é sua até o fim da partida."),
        ),
        (true, false, _) => among_the_best(p, lang),
        (false, false, true) => en_pt(
            lang,
            format!("{m} is not a corner. The corner {a} is yours to take now and may not be later."),
            format!("{m} não é um canto. O canto {a} está livre para você agora e pode não estar depois."),
        ),
        (false, true, true) => en_pt(
            lang,
            format!("{m} takes a corner too, but the corner {a} is the better one here."),
            format!("{m} também toma um canto, mas o canto {a} é o melhor aqui."),
        ),
        (false, _, false) => en_pt(
            lang,
            format!("{a} is the better move here."),
            format!("{a} é a jogada melhor aqui."),
        ),
    }
}

fn xc(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let o = side(p.mover.opposite(), lang);
    if p.accepted {
        if p.played.near_empty_corner.is_some() {
            return among_the_best(p, lang);
        }
        return if p.played.corners_given.is_empty() {
            en_pt(
                lang,
                format!("{m} is not an X- or C-square next to an empty corner, and after it {o} cannot take a corner."),
                format!("{m} não é casa X nem C ao lado de um canto vazio, e depois dela {o} não pode tomar canto nenhum."),
            )
        } else {
            en_pt(
                lang,
                format!("{m} is not an X- or C-square next to an empty corner."),
                format!("{m} não é casa X nem C ao lado de um canto vazio."),
            )
        };
    }
    let first = match p.played.near_empty_corner {
        Some(near) => {
            let c = near.corner();
            let what = match (near, lang) {
                (NearCorner::X(_), Lang::En) => "an X-square",
                (NearCorner::C(_), Lang::En) => "a C-square",
                (NearCorner::X(_), Lang::Pt) => "uma casa X",
                (NearCorner::C(_), Lang::Pt) => "uma casa C",
            };
            if p.played.corners_given.contains(&c) {
                en_pt(
                    lang,
                    format!("{m} is {what} next to the empty corner {c}: after it {o} can take {c} at once."),
                    format!("{m} é {what} ao lado do canto vazio {c}: depois dela, {o} pode tomar {c} na hora."),
                )
            } else {
                en_pt(
                    lang,
                    format!("{m} is {what} next to the empty corner {c}: it can give that corner away later."),
                    format!("{m} é {what} ao lado do canto vazio {c}: pode entregar esse canto mais tarde."),
                )
            }
        }
        None => {
            let given = &p.played.corners_given;
            if given.is_empty() {
                en_pt(
                    lang,
                    format!("{m} is not next to an empty corner either, but {a} is better here."),
                    format!(
                        "{m} também não fica ao lado de um canto vazio, mas {a} é melhor aqui."
                    ),
                )
            } else {
                let c = given[0];
                en_pt(
                    lang,
                    format!("{m} is not next to an empty corner, yet after it {o} can take the corner {c} at once."),
                    format!("{m} não fica ao lado de um canto vazio, mas depois dela {o} pode tomar o canto {c} na hora."),
                )
            }
        }
    };
    if p.played.near_empty_corner.is_some() && p.answer.near_empty_corner.is_none() {
        let second = en_pt(
            lang,
            format!("{a} is not next to an empty corner."),
            format!("{a} não fica ao lado de um canto vazio."),
        );
        format!("{first} {second}")
    } else {
        first
    }
}

fn mobility(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let o = side(p.mover.opposite(), lang);
    let nm = i64::from(p.played.opponent_count());
    let na = i64::from(p.answer.opponent_count());
    let k = moves(nm, lang);
    if p.accepted {
        let flipped = discs(i64::from(p.played.flips), lang);
        let worst = p
            .all
            .iter()
            .max_by_key(|f| (f.opponent_count(), std::cmp::Reverse(f.square.index())))
            .expect("the played move is legal");
        let nw = i64::from(worst.opponent_count());
        let w = worst.square;
        return if nw > nm {
            en_pt(
                lang,
                format!("After {m}, {o} has {k}; after {w}, {o} would have {nw} (you flipped {flipped})."),
                format!("Depois de {m}, {o} tem {k}; depois de {w}, teria {nw} (você virou {flipped})."),
            )
        } else {
            en_pt(
                lang,
                format!("After {m}, {o} has {k} (you flipped {flipped})."),
                format!("Depois de {m}, {o} tem {k} (você virou {flipped})."),
            )
        };
    }
    match nm.cmp(&na) {
        std::cmp::Ordering::Greater => en_pt(
            lang,
            format!("After {m}, {o} has {k}; after {a}, only {na}."),
            format!("Depois de {m}, {o} tem {k}; depois de {a}, só {na}."),
        ),
        std::cmp::Ordering::Equal => en_pt(
            lang,
            format!("After {m}, {o} has {k}, as many as after {a}: the difference is elsewhere."),
            format!("Depois de {m}, {o} tem {k}, tantas quanto depois de {a}: a diferença está em outro lugar."),
        ),
        std::cmp::Ordering::Less => en_pt(
            lang,
            format!("After {m}, {o} has {k}, fewer than after {a} ({na}), but {m} is worse in what follows."),
            format!("Depois de {m}, {o} tem {k}, menos do que depois de {a} ({na}), mas {m} é pior no que vem depois."),
        ),
    }
}

fn quiet(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let fm = p.played.frontier;
    let fa = p.answer.frontier;
    if p.accepted {
        let flipped = discs(i64::from(p.played.flips), lang);
        let least = p.all.iter().map(|f| f.frontier).min().unwrap_or(fm);
        let is_quiet = fm <= least + 1 && p.played.flips <= 4;
        return match (is_quiet, lang) {
            (true, Lang::En) => format!("{m} is quiet: it flips {flipped} and leaves {fm} of the discs it placed or flipped next to empty squares."),
            (true, Lang::Pt) => format!("{m} é silenciosa: vira {flipped} e deixa {fm} das peças que colocou ou virou ao lado de casas vazias."),
            (false, _) => among_the_best(p, lang),
        };
    }
    let head = en_pt(
        lang,
        format!("{m} leaves {fm} of the discs it placed or flipped next to empty squares"),
        format!("{m} deixa {fm} das peças que colocou ou virou ao lado de casas vazias"),
    );
    let tail = match fm.cmp(&fa) {
        std::cmp::Ordering::Greater => en_pt(
            lang,
            format!("; {a} only {fa}."),
            format!("; {a}, só {fa}."),
        ),
        std::cmp::Ordering::Equal => en_pt(
            lang,
            format!(", as many as {a}: the difference is elsewhere."),
            format!(", tantas quanto {a}: a diferença está em outro lugar."),
        ),
        std::cmp::Ordering::Less => en_pt(
            lang,
            format!(", fewer than {a} ({fa}), but {m} is worse in what follows."),
            format!(", menos do que {a} ({fa}), mas {m} é pior no que vem depois."),
        ),
    };
    format!("{head}{tail}")
}

fn stable(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let sm = p.played.stable_gain();
    let sa = p.answer.stable_gain();
    if p.accepted {
        return match (sm, lang) {
            (0, _) => among_the_best(p, lang),
            (1, Lang::En) => format!("{m} adds 1 stable disc: it is yours for good."),
            (_, Lang::En) => format!(
                "{m} adds {}: they are yours for good.",
                stable_discs(sm, lang)
            ),
            (1, Lang::Pt) => format!("{m} soma 1 peça estável: ela é sua para sempre."),
            (_, Lang::Pt) => format!(
                "{m} soma {}: elas são suas para sempre.",
                stable_discs(sm, lang)
            ),
        };
    }
    let added = |n: u32, lang: Lang| match (n, lang) {
        (0, Lang::En) => "no stable disc".to_string(),
        (0, Lang::Pt) => "nenhuma peça estável".to_string(),
        _ => stable_discs(n, lang),
    };
    let (am, aa) = (added(sm, lang), added(sa, lang));
    match sm.cmp(&sa) {
        std::cmp::Ordering::Less if sm == 0 => en_pt(
            lang,
            format!("{m} adds {am}; {a} adds {aa}."),
            format!("{m} não soma {am}; {a} soma {aa}."),
        ),
        std::cmp::Ordering::Less => en_pt(
            lang,
            format!("{m} adds {am}; {a} adds {aa}."),
            format!("{m} soma {am}; {a} soma {aa}."),
        ),
        std::cmp::Ordering::Equal => en_pt(
            lang,
            format!("{m} adds {am}, as many as {a}: the difference is elsewhere."),
            format!(
                "{m} {} {am}, tantas quanto {a}: a diferença está em outro lugar.",
                if sm == 0 { "não soma" } else { "soma" }
            ),
        ),
        std::cmp::Ordering::Greater => en_pt(
            lang,
            format!("{m} adds {am}, more than {a} ({sa}), but {m} is worse in what follows."),
            format!("{m} soma {am}, mais do que {a} ({sa}), mas {m} é pior no que vem depois."),
        ),
    }
}

fn region(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let (rm, ra) = (i64::from(p.played.region), i64::from(p.answer.region));
    let (em, pm) = (empty_squares(rm, lang), parity(rm, lang));
    if p.accepted {
        return if rm % 2 == 1 {
            en_pt(
                lang,
                format!("{m} goes into a region of {em} ({pm}): if both sides play there in turn, the last move there is yours."),
                format!("{m} entra numa região de {em} ({pm}): se os dois lados jogarem ali alternadamente, a última jogada ali é sua."),
            )
        } else {
            among_the_best(p, lang)
        };
    }
    let pa = parity(ra, lang);
    let head = en_pt(
        lang,
        format!("{m} goes into a region of {em} ({pm}); {a} into one of {ra} ({pa})"),
        format!("{m} entra numa região de {em} ({pm}); {a}, numa de {ra} ({pa})"),
    );
    let tail = if rm % 2 == 0 && ra % 2 == 1 {
        en_pt(
            lang,
            ", keeping the last move there.".to_string(),
            ", e guarda a última jogada ali.".to_string(),
        )
    } else {
        en_pt(
            lang,
            ": here parity alone does not decide.".to_string(),
            ": aqui a paridade sozinha não decide.".to_string(),
        )
    };
    format!("{head}{tail}")
}

fn tempo(p: &Played, lang: Lang) -> String {
    let (m, a) = (p.played.square, p.answer.square);
    let o = side(p.mover.opposite(), lang);
    let f = p.played;
    if p.accepted {
        return if f.opponent_must_pass() {
            en_pt(
                lang,
                format!("After {m}, {o} has no move and must pass: you play again."),
                format!("Depois de {m}, {o} não tem jogada e passa a vez: você joga de novo."),
            )
        } else if f.ends_game() {
            en_pt(
                lang,
                format!("After {m}, neither side can move: the game is over."),
                format!("Depois de {m}, nenhum lado pode jogar: a partida acabou."),
            )
        } else if f.opponent_moves.len() == 1 {
            let r = f.opponent_moves[0];
            en_pt(
                lang,
                format!("After {m}, {o} has a single move, {r}: you chose it for them."),
                format!("Depois de {m}, {o} tem uma única jogada, {r}: você a escolheu por ele."),
            )
        } else {
            let k = moves(i64::from(f.opponent_count()), lang);
            en_pt(
                lang,
                format!("After {m}, {o} has {k}."),
                format!("Depois de {m}, {o} tem {k}."),
            )
        };
    }
    let (nm, na) = (f.opponent_count(), p.answer.opponent_count());
    if f.opponent_must_pass() {
        return en_pt(
            lang,
            format!("After {m}, {o} has no move and must pass, but {a} is better here."),
            format!("Depois de {m}, {o} não tem jogada e passa a vez, mas {a} é melhor aqui."),
        );
    }
    if f.ends_game() {
        return en_pt(
            lang,
            format!("After {m}, neither side can move and the game is over; {a} is better here."),
            format!("Depois de {m}, nenhum lado pode jogar e a partida acaba; {a} é melhor aqui."),
        );
    }
    let k = moves(i64::from(nm), lang);
    if nm <= na {
        return en_pt(
            lang,
            format!("After {m}, {o} has {k}, no more than after {a} ({na}), but {m} is worse in what follows."),
            format!("Depois de {m}, {o} tem {k}, não mais do que depois de {a} ({na}), mas {m} é pior no que vem depois."),
        );
    }
    let answer = if p.answer.opponent_must_pass() {
        en_pt(
            lang,
            format!("after {a}, none: {o} must pass."),
            format!("depois de {a}, nenhuma: {o} passa a vez."),
        )
    } else if p.answer.ends_game() {
        en_pt(
            lang,
            format!("after {a}, the game is over."),
            format!("depois de {a}, a partida acaba."),
        )
    } else if na == 1 {
        let r = p.answer.opponent_moves[0];
        en_pt(
            lang,
            format!("after {a}, a single one, {r}."),
            format!("depois de {a}, uma só, {r}."),
        )
    } else {
        en_pt(
            lang,
            format!("after {a}, only {na}."),
            format!("depois de {a}, só {na}."),
        )
    };
    if nm == 1 {
        let r = f.opponent_moves[0];
        return en_pt(
            lang,
            format!("After {m}, {o} has a single move, {r}; {answer}"),
            format!("Depois de {m}, {o} tem uma única jogada, {r}; {answer}"),
        );
    }
    en_pt(
        lang,
        format!("After {m}, {o} has {k} to choose from; {answer}"),
        format!("Depois de {m}, {o} tem {k} para escolher; {answer}"),
    )
}
