//! Game export: GGF text (through virada_rules' GGF writer).

use crate::model::{GameRecord, Mode};
use crate::util::iso8601;
use virada_rules::formats::ggf::{write_ggf, GgfGame};
use virada_rules::Color;

/// The game as a GGF record: start board, moves (passes as `PA`), players, date, and the
/// result (Black's WOF disc difference) when finished.
pub fn ggf(rec: &GameRecord) -> String {
    let mut g = GgfGame::from_game(&rec.game);
    g.set_tag("PC", "Virada");
    g.set_tag("DT", &iso8601(rec.meta.created_at));
    g.set_tag("PB", &player_name(rec, Color::Black));
    g.set_tag("PW", &player_name(rec, Color::White));
    if let Some(r) = rec.game.result() {
        g.set_tag("RE", &format!("{:+}", r.difference_for(Color::Black)));
    }
    let mut text = write_ggf(&[g]);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn player_name(rec: &GameRecord, c: Color) -> String {
    match rec.meta.mode {
        Mode::Computer { level, human } if human != c => format!("Virada level {}", level.get()),
        Mode::Computer { .. } => "Player".into(),
        Mode::Friend | Mode::Online => c.name().into(),
    }
}
