//! Game export: GGF text (through virada_rules' GGF writer).

use crate::dates::iso8601;
use crate::model::online::{forfeit_score, End, OnlineGame, Phase};
use crate::model::{GameRecord, Mode};
use virada_rules::formats::ggf::{write_ggf, GgfGame};
use virada_rules::Color;

/// A game as its actor hands it out for export: an online game adds the names in its seats
/// and how it ended (a resignation or a flag fall is not on the board); so does a game on one
/// device that has a clock or was resigned.
#[derive(Clone, Debug)]
pub enum ExportRecord {
    Local(GameRecord),
    Online {
        rec: GameRecord,
        black: Option<String>,
        white: Option<String>,
        phase: Phase,
    },
}

impl ExportRecord {
    /// An online game's record with what its seats and phase say.
    pub fn online(rec: GameRecord, online: &OnlineGame) -> ExportRecord {
        ExportRecord::Online {
            rec,
            black: online.seat(Color::Black).name().map(str::to_string),
            white: online.seat(Color::White).name().map(str::to_string),
            phase: online.phase,
        }
    }

    pub fn record(&self) -> &GameRecord {
        match self {
            ExportRecord::Local(rec) | ExportRecord::Online { rec, .. } => rec,
        }
    }
}

/// The game as a GGF record: start board, moves (passes as `PA`), players, date, and the
/// result when finished: Black's WOF disc difference, with the GGF flag `:r` when a side
/// resigned and `:t` when it lost on time (the winner's forfeit score, at least 33-31); an
/// aborted online game has no result.
pub fn ggf(export: &ExportRecord) -> String {
    let rec = export.record();
    let mut g = GgfGame::from_game(&rec.game);
    g.set_tag("PC", "Virada");
    g.set_tag("DT", &iso8601(rec.meta.created_at));
    g.set_tag("PB", &player_name(export, Color::Black));
    g.set_tag("PW", &player_name(export, Color::White));
    if let Some(result) = result_tag(export) {
        g.set_tag("RE", &result);
    }
    let mut text = write_ggf(&[g]);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn player_name(export: &ExportRecord, c: Color) -> String {
    if let ExportRecord::Online { black, white, .. } = export {
        let seat = if c == Color::Black { black } else { white };
        if let Some(name) = seat {
            return name.clone();
        }
    }
    // A record keeps the names it came with.
    let rec = export.record();
    if let Some(name) = rec.meta.record.as_ref().and_then(|r| match c {
        Color::Black => r.black.clone(),
        Color::White => r.white.clone(),
    }) {
        return name;
    }
    // A free seat, or a game on one device (whose resignation or clock makes it `Online`
    // here too).
    match export.record().meta.mode {
        Mode::Computer { level, human } if human != c => format!("Virada level {}", level.get()),
        Mode::Computer { .. } => "Player".into(),
        Mode::Friend | Mode::Online => c.name().into(),
    }
}

/// The `RE` tag's value, if the game has a result.
fn result_tag(export: &ExportRecord) -> Option<String> {
    let board = |rec: &GameRecord| {
        rec.game
            .result()
            .map(|r| format!("{:+}", r.difference_for(Color::Black)))
    };
    match export {
        ExportRecord::Local(rec) => board(rec),
        ExportRecord::Online { rec, phase, .. } => {
            let (loser, flag) = match phase {
                Phase::Finished(End::Normal) => return board(rec),
                Phase::Finished(End::Resign(loser)) => (*loser, "r"),
                Phase::Finished(End::Time(loser) | End::Deadline(loser)) => (*loser, "t"),
                Phase::Finished(End::Abort) | Phase::Waiting | Phase::Playing { .. } => {
                    return None
                }
            };
            let (black, white) = forfeit_score(&rec.game.position(), loser);
            Some(format!("{:+}:{flag}", black as i32 - white as i32))
        }
    }
}
