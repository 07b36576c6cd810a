//! The two languages of the teaching text and the words every sentence shares: the plural rule
//! (CLDR's, as the web page's `Intl.PluralRules`), the sides' names, parity words and lines of
//! moves with a pass written in the sentence's language.

use virada_rules::{Color, Move};

/// The language of a sentence.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Lang {
    En,
    /// Brazilian Portuguese.
    Pt,
}

impl Lang {
    /// Both languages, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Pt];

    /// `"en"` or `"pt"` (the web page's language codes).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pt => "pt",
        }
    }
}

/// Whether `n` takes the singular ("one") form: CLDR's rule, as `Intl.PluralRules` on the page.
/// English: 1 only. Portuguese (pt-BR): 0 and 1 (the integer part is 0 or 1).
pub fn is_one(n: i64, lang: Lang) -> bool {
    match lang {
        Lang::En => n == 1,
        Lang::Pt => n == 0 || n == 1,
    }
}

/// `n` and the noun in the form its number takes: `count(1, En, "move", "moves")` is "1 move".
pub fn count(n: i64, lang: Lang, one: &str, other: &str) -> String {
    let noun = if is_one(n, lang) { one } else { other };
    format!("{n} {noun}")
}

/// "1 move"/"2 moves", "1 jogada"/"2 jogadas".
pub fn moves(n: i64, lang: Lang) -> String {
    match lang {
        Lang::En => count(n, lang, "move", "moves"),
        Lang::Pt => count(n, lang, "jogada", "jogadas"),
    }
}

/// "1 disc"/"2 discs", "1 peça"/"2 peças".
pub fn discs(n: i64, lang: Lang) -> String {
    match lang {
        Lang::En => count(n, lang, "disc", "discs"),
        Lang::Pt => count(n, lang, "peça", "peças"),
    }
}

/// A number of discs with one decimal ("4.2 discs", pt-BR "4,2 peças"), in the form
/// `Intl.PluralRules` picks for the number: English singular for 1 only, pt-BR for 0 <= x < 2.
pub fn discs_tenths(x: f64, lang: Lang) -> String {
    let x = (x * 10.0).round() / 10.0;
    let one = match lang {
        Lang::En => x == 1.0,
        Lang::Pt => (0.0..2.0).contains(&x),
    };
    let number = if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    };
    match lang {
        Lang::En => format!("{number} {}", if one { "disc" } else { "discs" }),
        Lang::Pt => format!(
            "{} {}",
            number.replace('.', ","),
            if one { "peça" } else { "peças" }
        ),
    }
}

/// "1 empty square"/"3 empty squares", "1 casa vazia"/"3 casas vazias".
pub fn empty_squares(n: i64, lang: Lang) -> String {
    match lang {
        Lang::En => count(n, lang, "empty square", "empty squares"),
        Lang::Pt => count(n, lang, "casa vazia", "casas vazias"),
    }
}

/// "odd"/"even" ("ímpar"/"par") as `n` is.
pub fn parity(n: i64, lang: Lang) -> &'static str {
    match (n % 2 != 0, lang) {
        (true, Lang::En) => "odd",
        (false, Lang::En) => "even",
        (true, Lang::Pt) => "ímpar",
        (false, Lang::Pt) => "par",
    }
}

/// A side's name as a sentence's subject: "Black", "o Preto".
pub fn side(c: Color, lang: Lang) -> &'static str {
    match (c, lang) {
        (Color::Black, Lang::En) => "Black",
        (Color::White, Lang::En) => "White",
        (Color::Black, Lang::Pt) => "o Preto",
        (Color::White, Lang::Pt) => "o Branco",
    }
}

/// A line of moves, spaced, a pass written "pass" (English) or "passa" (pt-BR, as the puzzles).
pub fn line(moves: &[Move], lang: Lang) -> String {
    let pass = match lang {
        Lang::En => "pass",
        Lang::Pt => "passa",
    };
    let words: Vec<String> = moves
        .iter()
        .map(|m| match m.square() {
            Some(sq) => sq.to_string(),
            None => pass.to_string(),
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_forms_follow_cldr() {
        assert_eq!(moves(1, Lang::En), "1 move");
        assert_eq!(moves(0, Lang::En), "0 moves");
        assert_eq!(moves(2, Lang::En), "2 moves");
        assert_eq!(moves(1, Lang::Pt), "1 jogada");
        assert_eq!(moves(0, Lang::Pt), "0 jogada");
        assert_eq!(moves(6, Lang::Pt), "6 jogadas");
        assert_eq!(empty_squares(1, Lang::Pt), "1 casa vazia");
        assert_eq!(empty_squares(3, Lang::En), "3 empty squares");
        assert_eq!(discs_tenths(4.24, Lang::En), "4.2 discs");
        assert_eq!(discs_tenths(1.0, Lang::En), "1 disc");
        assert_eq!(discs_tenths(1.5, Lang::Pt), "1,5 peça");
        assert_eq!(discs_tenths(3.0, Lang::Pt), "3 peças");
    }

    #[test]
    fn parity_words_and_lines() {
        assert_eq!(parity(1, Lang::En), "odd");
        assert_eq!(parity(4, Lang::Pt), "par");
        let l = [
            Move::Play("a3".parse().unwrap()),
            Move::Pass,
            Move::Play("a1".parse().unwrap()),
        ];
        assert_eq!(line(&l, Lang::En), "a3 pass a1");
        assert_eq!(line(&l, Lang::Pt), "a3 passa a1");
    }
}
