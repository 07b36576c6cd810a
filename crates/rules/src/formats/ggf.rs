//! GGF (Generic Game Format) records, as written by game servers:
//! `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]TY[8]BO[8 <64 squares> *]B[f5]W[d6]...;)`.
//!
//! `BO` holds the start position (`*` black, `O` white, `-` empty, then the side to move);
//! `B[..]` / `W[..]` are moves, `PA` a pass, and anything after a `/` in a move (the
//! `eval/time` suffix, `B[f5/1.23/4]`) is kept as an annotation. Other properties are kept in
//! order as tags. A file may hold several games.
//!
//! ```
//! use virada_rules::formats::ggf::{read_ggf, GgfGame};
//! let text = "(;GM[Othello]PB[ann]PW[bob]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1.2]W[d6];)";
//! let games = read_ggf(text).unwrap();
//! assert_eq!(games[0].tag("PB"), Some("ann"));
//! let game = games[0].replay().unwrap();
//! assert_eq!(game.to_string(), "f5d6");
//! assert_eq!(games[0].to_string().parse::<GgfGame>().unwrap(), games[0]);
//! ```

use super::board_string::{parse_squares, write_squares};
use super::{Format, FormatError};
use crate::{Color, Game, Move, Position};
use std::fmt;
use std::str::FromStr;

/// A move of a GGF record: who played, what, and the raw text after the first `/`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GgfMove {
    pub color: Color,
    pub mv: Move,
    /// The `eval/time` suffix as written (without the leading `/`), if any.
    pub annotation: Option<String>,
}

/// One game record: its tags (every property except `BO`, `B`, `W`, in file order), the start
/// position and the moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GgfGame {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<GgfMove>,
}

impl GgfGame {
    /// A record of `game` with the tags `GM[Othello]` and `TY[8]`; passes are written as `PA`.
    pub fn from_game(game: &Game) -> GgfGame {
        let moves = game
            .positions()
            .iter()
            .zip(game.moves())
            .map(|(p, &mv)| GgfMove {
                color: p.side_to_move(),
                mv,
                annotation: None,
            })
            .collect();
        GgfGame {
            tags: vec![("GM".into(), "Othello".into()), ("TY".into(), "8".into())],
            start: game.start(),
            moves,
        }
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets (or adds at the end) the tag `name`.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Replays the moves from the start position. A pass the record leaves out is inserted when
    /// the rules force it; a move by the wrong colour or an illegal move is an error with ply.
    pub fn replay(&self) -> Result<Game, FormatError> {
        let mut game = Game::from_position(self.start);
        for m in &self.moves {
            // `pass_if_forced` runs only when the colours differ (short-circuit).
            if m.color != game.position().side_to_move() && !game.pass_if_forced() {
                return Err(FormatError::new(
                    Format::Ggf,
                    format!(
                        "{} plays {} but it is {}'s turn",
                        m.color,
                        m.mv,
                        game.position().side_to_move()
                    ),
                )
                .at_ply(game.ply() + 1));
            }
            game.play(m.mv).map_err(|e| {
                FormatError::new(Format::Ggf, format!("{}: {}", e.mv, e.reason)).at_ply(e.ply)
            })?;
        }
        Ok(game)
    }
}

/// Escapes `]` and `\` in a property value.
fn escape(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

impl fmt::Display for GgfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = if self.color == Color::Black { "B" } else { "W" };
        let what = match self.mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "PA".to_string(),
        };
        match &self.annotation {
            Some(a) => write!(f, "{who}[{what}/{}]", escape(a)),
            None => write!(f, "{who}[{what}]"),
        }
    }
}

impl fmt::Display for GgfGame {
    /// One line: `(;` tags, `BO[8 ...]`, moves, `;)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;")?;
        for (name, value) in &self.tags {
            write!(f, "{name}[{}]", escape(value))?;
        }
        let side = if self.start.side_to_move() == Color::Black {
            '*'
        } else {
            'O'
        };
        let squares = write_squares(&self.start, '*', 'O', '-');
        write!(f, "BO[8 {squares} {side}]")?;
        for m in &self.moves {
            write!(f, "{m}")?;
        }
        f.write_str(";)")
    }
}

/// A cursor over the text of a GGF file; offsets are bytes, errors report line and column.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error_at(&self, offset: usize, message: impl Into<String>) -> FormatError {
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        FormatError::new(Format::Ggf, message)
            .at_line(line)
            .at_column(column)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, b: u8, what: &str) -> Result<(), FormatError> {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error_at(self.pos, format!("expected {what}")))
        }
    }

    /// Reads `[value]` (after the name), undoing `\` escapes.
    fn value(&mut self) -> Result<String, FormatError> {
        let open = self.pos;
        self.expect(b'[', "'[' after the property name")?;
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        out.push(e);
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error_at(open, "property value '[' is never closed by ']'"))
    }

    /// Parses one `(; ... ;)` record starting at the current position.
    fn game(&mut self) -> Result<GgfGame, FormatError> {
        self.expect(b'(', "'(' starting a game")?;
        self.expect(b';', "';' after '('")?;
        let mut game = GgfGame {
            tags: Vec::new(),
            start: Position::start(),
            moves: Vec::new(),
        };
        let mut seen_board = false;
        loop {
            self.skip_ws();
            let at = self.pos;
            match self.peek() {
                None => return Err(self.error_at(at, "game is not closed by ';)'")),
                Some(b';') => {
                    self.pos += 1;
                    self.expect(b')', "')' after the final ';'")?;
                    return Ok(game);
                }
                Some(b')') => {
                    self.pos += 1;
                    return Ok(game);
                }
                Some(b) if b.is_ascii_alphabetic() => {}
                Some(_) => {
                    let c = self.text[at..].chars().next().unwrap_or('?');
                    return Err(self.error_at(
                        at,
                        format!("unexpected {c:?}: expected a property like PB[name]"),
                    ));
                }
            }
            while self.peek().is_some_and(|b| b.is_ascii_alphanumeric()) {
                self.pos += 1;
            }
            let name = self.text[at..self.pos].to_string();
            let value_at = self.pos;
            let value = self.value()?;
            match name.as_str() {
                "B" | "W" => {
                    let color = if name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let (mv_text, annotation) = match value.split_once('/') {
                        Some((m, a)) => (m, Some(a.to_string())),
                        None => (value.as_str(), None),
                    };
                    let mv = mv_text
                        .parse::<Move>()
                        .map_err(|e| self.error_at(value_at, e.to_string()))?;
                    game.moves.push(GgfMove {
                        color,
                        mv,
                        annotation,
                    });
                }
                "BO" => {
                    if seen_board {
                        return Err(self.error_at(at, "a second BO[] board"));
                    }
                    seen_board = true;
                    game.start = parse_board(&value).map_err(|m| self.error_at(value_at, m))?;
                }
                _ => {
                    check_tag(&name, &value).map_err(|m| self.error_at(value_at, m))?;
                    game.tags.push((name, value));
                }
            }
        }
    }
}

/// Rejects records of other games or board sizes.
fn check_tag(name: &str, value: &str) -> Result<(), String> {
    match name {
        "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
            Err(format!("GM[{value}] is not an Othello game"))
        }
        "TY" => {
            let digits: String = value
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if digits.is_empty() || digits == "8" {
                Ok(())
            } else {
                Err(format!(
                    "TY[{value}]: board size {digits} is not supported (only 8)"
                ))
            }
        }
        _ => Ok(()),
    }
}

/// Parses a `BO` value: `8`, 64 squares, side to move.
fn parse_board(value: &str) -> Result<Position, String> {
    let v = value.trim_start();
    let size_len = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    if &v[..size_len] != "8" {
        return Err(format!(
            "BO[] must start with the board size 8, found {:?}",
            &v[..size_len]
        ));
    }
    let squares = &v[size_len..];
    let (black, white, after) =
        parse_squares(squares).map_err(|e| format!("BO[]: {}", e.message))?;
    let side = match squares[after..].trim() {
        "*" | "X" | "B" => Color::Black,
        "O" | "W" => Color::White,
        other => return Err(format!("BO[]: side to move {other:?} is not * or O")),
    };
    Position::from_colors(black, white, side).ok_or_else(|| "BO[]: overlapping discs".to_string())
}

impl FromStr for GgfGame {
    type Err = FormatError;

    /// Exactly one record (surrounding whitespace allowed).
    fn from_str(s: &str) -> Result<GgfGame, FormatError> {
        let mut p = Parser { text: s, pos: 0 };
        let g = p.game()?;
        p.skip_ws();
        if p.pos < s.len() {
            return Err(p.error_at(p.pos, "text after the end of the game"));
        }
        Ok(g)
    }
}

/// Reads every record of a GGF file; errors name the game number, line and column.
pub fn read_ggf(text: &str) -> Result<Vec<GgfGame>, FormatError> {
    let mut p = Parser { text, pos: 0 };
    let mut games = Vec::new();
    loop {
        p.skip_ws();
        if p.pos >= text.len() {
            return Ok(games);
        }
        let g = p.game().map_err(|e| e.at_game(games.len() + 1))?;
        games.push(g);
    }
}

/// Writes one record a line.
pub fn write_ggf(games: &[GgfGame]) -> String {
    let mut s = String::new();
    for g in games {
        s.push_str(&g.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_style_record() {
        let text = "(;GM[Othello]PC[GGS/os]DT[2003.12.21_09:46:47.MST]PB[a]PW[b]RE[+12.000]\
                    TI[15:00//02:00]TY[8]XX[kept \\] here]BO[8 -------- -------- -------- ---O*--- \
                    ---*O--- -------- -------- -------- *]B[F5//0.01]W[d6/-1.50/0.01]B[c3];)\n\
                    (;GM[Othello]B[d3]W[c5];)";
        let games = read_ggf(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("XX"), Some("kept ] here"));
        assert_eq!(games[0].moves[1].annotation.as_deref(), Some("-1.50/0.01"));
        assert_eq!(games[0].replay().unwrap().to_string(), "f5d6c3");
        assert_eq!(games[1].replay().unwrap().to_string(), "d3c5");
        let again = read_ggf(&write_ggf(&games)).unwrap();
        assert_eq!(again, games);
    }

    #[test]
    fn errors() {
        let e = read_ggf("(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5]W[z9];)").unwrap_err();
        assert_eq!(e.location.game, Some(2));
        assert_eq!((e.location.line, e.location.column), (Some(2), Some(20)));
        let e = read_ggf("(;GM[Chess];)").unwrap_err();
        assert!(e.message.contains("Chess"));
        let e = read_ggf("(;TY[10];)").unwrap_err();
        assert!(e.message.contains("10"));
        let e = read_ggf("(;GM[Othello]B[f5").unwrap_err();
        assert!(e.message.contains("never closed"));
        let g: GgfGame = "(;B[f5]B[d6];)".parse().unwrap();
        assert_eq!(g.replay().unwrap_err().location.ply, Some(2));
        let g: GgfGame = "(;B[f5]W[PA];)".parse().unwrap();
        assert!(g.replay().unwrap_err().message.contains("cannot pass"));
    }
}
