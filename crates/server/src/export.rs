//! Game export: GGF text.
//!
//! TODO(formats-merge): use virada_rules' GGF writer once it is on main.

use crate::model::GameRecord;
use crate::util::iso8601;
use virada_rules::{Color, Move};

/// The game as a GGF record: start board, moves, and the result when finished.
pub fn ggf(rec: &GameRecord) -> String {
    let start = rec.game.start();
    let board: String = start.to_string()[..64]
        .chars()
        .map(|c| match c {
            'X' => '*',
            c => c,
        })
        .collect();
    let side = if start.side_to_move() == Color::Black {
        '*'
    } else {
        'O'
    };
    let mut s = format!(
        "(;GM[Othello]PC[Virada]DT[{}]PB[{}]PW[{}]TY[8]BO[8 {board} {side}]",
        iso8601(rec.meta.created_at),
        player_name(rec, Color::Black),
        player_name(rec, Color::White),
    );
    if let Some(r) = rec.game.result() {
        s.push_str(&format!("RE[{:+}]", r.difference_for(Color::Black)));
    }
    for (mv, pos) in rec.game.moves().iter().zip(rec.game.positions()) {
        let tag = if pos.side_to_move() == Color::Black {
            'B'
        } else {
            'W'
        };
        match mv {
            Move::Play(sq) => s.push_str(&format!("{tag}[{}]", sq.to_string().to_uppercase())),
            Move::Pass => s.push_str(&format!("{tag}[PA]")),
        }
    }
    s.push_str(";)\n");
    s
}

fn player_name(rec: &GameRecord, c: Color) -> String {
    match rec.meta.computer_color() {
        Some(cc) if cc == c => format!("Virada level {}", rec.meta.level.unwrap_or(0)),
        Some(_) => "Player".into(),
        None => c.name().into(),
    }
}
