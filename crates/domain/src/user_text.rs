//! Text people type for others to read (seat names, chat lines): which characters are refused
//! because they are not shown, or change how the text around them is shown.
//!
//! Refused: every character of Unicode general category `Cc` (controls) and `Cf` (format:
//! U+200B zero width space, U+200E/F and U+202A-202E direction marks and overrides, U+2066-2069
//! isolates, U+FEFF, U+00AD soft hyphen, tag characters, ...), the line and paragraph
//! separators (`Zl`, `Zp`), and the blank letters that render as nothing (Hangul fillers
//! U+115F, U+1160, U+3164, U+FFA0; U+034F combining grapheme joiner; U+17B4, U+17B5 Khmer
//! inherent vowels; U+180B-180F Mongolian variation selectors). The one exception is U+200D
//! (zero width joiner) between an emoji and another emoji symbol, as in 👨‍👩‍👧: it joins
//! them into one picture and hides nothing. Categories come from the `unicode-properties`
//! tables. The server answers a refused one with `invisible_character`
//! (`virada_server::user_text::checked`). A text with nothing but blanks (white space, U+2800
//! braille blanks, combining marks with nothing to sit on) is refused whole
//! ([`looks_blank`], `blank_text`).

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

const ZWJ: char = '\u{200D}';

/// Letters and marks that are assigned a visible category but render as nothing.
const BLANKS: &[char] = &[
    '\u{034F}', '\u{115F}', '\u{1160}', '\u{17B4}', '\u{17B5}', '\u{180B}', '\u{180C}', '\u{180D}',
    '\u{180F}', '\u{3164}', '\u{FFA0}',
];

fn is_symbol(c: char) -> bool {
    c.general_category() == GeneralCategory::OtherSymbol
}

/// Whether `c` may end the emoji before a joiner: a symbol, its presentation selector or a skin
/// tone modifier.
fn joins_after(c: char) -> bool {
    is_symbol(c) || c == '\u{FE0F}' || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
}

/// The first refused character of `text` (see the module documentation), if any.
pub fn first_refused(text: &str) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().find_map(|(i, &c)| {
        let refused = match c.general_category() {
            GeneralCategory::Control
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => true,
            GeneralCategory::Format if c == ZWJ => {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                !(before.is_some_and(joins_after) && after.is_some_and(is_symbol))
            }
            GeneralCategory::Format => true,
            _ => BLANKS.contains(&c),
        };
        refused.then_some(c)
    })
}

/// Characters that are not controls or format characters but draw no ink: U+2800 (the blank
/// braille pattern, a symbol) and the blank letters above.
fn draws_nothing(c: char) -> bool {
    c.is_whitespace()
        || c == '\u{2800}'
        || BLANKS.contains(&c)
        || matches!(
            c.general_category(),
            GeneralCategory::NonspacingMark
                | GeneralCategory::SpacingMark
                | GeneralCategory::EnclosingMark
                | GeneralCategory::Format
                | GeneralCategory::Control
        )
}

/// Whether `text` would look blank: it has no character that draws anything by itself (only
/// white space, U+2800 braille blanks, blank letters, format characters and combining marks,
/// which have nothing to sit on). The server refuses such a name, chat line or report as
/// `blank_text`.
pub fn looks_blank(text: &str) -> bool {
    text.chars().all(draws_nothing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_looking_text_is_told_apart_from_text() {
        for text in [
            "",
            "   ",
            "\u{2800}",
            "\u{2800}\u{2800} \u{2800}",
            "\u{0301}\u{0301}\u{0308}",
            " \u{20DD}",
            "\u{3000}\u{00A0}\u{2003}",
            "\u{3164}\u{0301}",
            "\u{2800}\u{0300}",
        ] {
            assert!(looks_blank(text), "{text:?}");
        }
        for text in ["a", "\u{2800}a", "a\u{0301}", ".", "👍", "日", "\u{0301}x"] {
            assert!(!looks_blank(text), "{text:?}");
        }
    }

    #[test]
    fn format_and_invisible_characters_are_refused() {
        for c in [
            '\u{7}',
            '\u{200B}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202E}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{2060}',
            '\u{E0041}',
            '\u{2028}',
            '\u{2029}',
            '\u{3164}',
            '\u{115F}',
            '\u{034F}',
            '\u{180E}',
        ] {
            let text = format!("Ana{c}Bia");
            assert_eq!(first_refused(&text), Some(c), "U+{:04X}", c as u32);
        }
        // A lone joiner, or one between letters, hides something.
        assert_eq!(first_refused("a\u{200D}b"), Some(ZWJ));
        assert_eq!(first_refused("\u{200D}"), Some(ZWJ));
        assert_eq!(first_refused("👍\u{200D}"), Some(ZWJ));
    }

    #[test]
    fn ordinary_text_in_any_script_and_emoji_pass() {
        for text in [
            "Ana Beatriz",
            "João, peças e casas",
            "Ζωή",
            "שלום עולם",
            "مرحبا",
            "日本語のテキスト",
            "한국어",
            "👍 boa jogada!",
            "👨\u{200D}👩\u{200D}👧",
            "❤\u{FE0F}\u{200D}🔥",
            "👋🏽\u{200D}👋",
            "a\u{0301}",
        ] {
            assert_eq!(first_refused(text), None, "{text}");
        }
    }
}
