//! What the levels are called and what they do, in English and Brazilian Portuguese: UI text,
//! built from the engine's level specifications (`virada_engine::levels`), which hold no text.

use virada_engine::Level;

/// A band's name: (English, Portuguese).
pub fn name(level: Level) -> (&'static str, &'static str) {
    match level.0 {
        1..=5 => ("Beginner", "Iniciante"),
        6..=10 => ("Intermediate", "Intermediário"),
        11..=15 => ("Advanced", "Avançado"),
        16..=20 => ("Expert", "Especialista"),
        _ => ("Maximum", "Máximo"),
    }
}

/// What the level means, in plain English.
///
/// ```
/// use virada_engine::Level;
/// assert_eq!(
///     virada_domain::level_text::describe_en(Level(19)),
///     "Level 19: looks up to 18 moves ahead, thinking at most 5 s a move, \
///      plays perfectly in the last 22 moves."
/// );
/// ```
pub fn describe_en(level: Level) -> String {
    let s = level.spec();
    let depth = match (s.depth, s.move_time) {
        (Some(d), None) => format!("looks {d} move{} ahead", if d == 1 { "" } else { "s" }),
        (Some(d), Some(t)) => format!(
            "looks up to {d} moves ahead, thinking at most {} s a move",
            t.as_secs()
        ),
        (None, Some(t)) => format!(
            "searches as deep as it can in {} s a move (the engine's full strength)",
            t.as_secs()
        ),
        (None, None) => "searches as deep as its time allows".to_string(),
    };
    let exact = if s.exact_empties == 0 {
        String::new()
    } else {
        format!(", plays perfectly in the last {} moves", s.exact_empties)
    };
    let errs = match s.mistakes {
        Some(m) => format!(
            "; beginner: makes human-like mistakes of up to {} discs",
            m.max_loss
        ),
        None => String::new(),
    };
    format!("Level {}: {depth}{exact}{errs}.", level.0)
}

/// What the level means, in Brazilian Portuguese.
pub fn describe_pt(level: Level) -> String {
    let s = level.spec();
    let depth = match (s.depth, s.move_time) {
        (Some(1), None) => "pensa 1 jogada à frente".to_string(),
        (Some(d), None) => format!("pensa {d} jogadas à frente"),
        (Some(d), Some(t)) => format!(
            "pensa até {d} jogadas à frente, no máximo {} s por jogada",
            t.as_secs()
        ),
        (None, Some(t)) => format!(
            "pensa o mais fundo que consegue em {} s por jogada (a força máxima do motor)",
            t.as_secs()
        ),
        (None, None) => "pensa o mais fundo que o tempo permite".to_string(),
    };
    let exact = if s.exact_empties == 0 {
        String::new()
    } else {
        format!(
            ", joga perfeitamente nas últimas {} jogadas",
            s.exact_empties
        )
    };
    let errs = match s.mistakes {
        Some(m) => format!(
            "; iniciante: comete erros humanos de até {} peças",
            m.max_loss
        ),
        None => String::new(),
    };
    format!("Nível {}: {depth}{exact}{errs}.", level.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virada_engine::levels::MAX_LEVEL;

    #[test]
    fn every_level_is_described_in_both_languages() {
        for l in Level::all() {
            assert!(describe_en(l).starts_with(&format!("Level {}", l.0)));
            assert!(describe_pt(l).starts_with(&format!("Nível {}", l.0)));
            let (en, pt) = name(l);
            assert!(!en.is_empty() && !pt.is_empty());
        }
    }

    #[test]
    fn the_capped_levels_say_how_long_they_think() {
        for n in 18..=MAX_LEVEL {
            let l = Level(n);
            let cap = l.spec().move_time.expect("levels 18+ are time-capped");
            let secs = format!("{} s", cap.as_secs());
            assert!(describe_en(l).contains(&secs), "{}", describe_en(l));
            assert!(describe_pt(l).contains(&secs), "{}", describe_pt(l));
        }
        for n in 1..18 {
            assert!(!describe_en(Level(n)).contains(" s a move"), "{n}");
        }
    }
}
