//! A name or chat line a person typed, checked as the API answers it: the characters refused
//! are `virada_domain::user_text`'s, the lengths `virada_domain::model::online`'s.

use crate::error::{AppError, AppResult};
use crate::model::online::checked_text;
use virada_domain::user_text::{first_refused, looks_blank};

/// A display name or chat line (`field`: `name`, `chat`), checked: trimmed, no refused
/// character (else 400 `invisible_character`, params `field` and `char`, e.g. `U+202E`), not
/// only blanks that look like text (else 400 `blank_text`, params `field`), and
/// `1..=max` characters (else 400 `bad_request`).
pub fn checked(field: &str, text: &str, max: usize) -> AppResult<String> {
    if let Some(c) = first_refused(text.trim()) {
        return Err(AppError::invisible_character(field, c));
    }
    if !text.trim().is_empty() && looks_blank(text) {
        return Err(AppError::blank_text(field));
    }
    checked_text(field, text, max).map_err(AppError::BadRequest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_chat_answer_with_the_code_and_the_character() {
        // A right-to-left override would reverse the rest of the line it is shown in.
        let e = checked("chat", "gg \u{202E}olleh", 200).unwrap_err();
        assert_eq!(
            (e.code(), e.status().as_u16()),
            ("invisible_character", 400)
        );
        let params = e.body().error.params.unwrap();
        assert_eq!(
            (params["field"].as_str(), params["char"].as_str()),
            (Some("chat"), Some("U+202E"))
        );
        assert_eq!(
            checked("name", "Ana\u{200B}", 24).unwrap_err().code(),
            "invisible_character"
        );
        assert_eq!(
            checked("name", "   ", 24).unwrap_err().code(),
            "bad_request"
        );
        assert_eq!(checked("name", " Ana ", 24).unwrap(), "Ana");
        for blank in ["\u{2800}", "\u{0301}\u{0301}", " \u{2800} \u{20DD}"] {
            let e = checked("chat", blank, 200).unwrap_err();
            assert_eq!((e.code(), e.status().as_u16()), ("blank_text", 400));
            assert_eq!(e.body().error.params.unwrap()["field"], "chat");
        }
    }
}
