//! The WTHOR binary database of the French Othello Federation: `.wtb` game files and the
//! `WTH.JOU` (players) / `WTH.TRN` (tournaments) name files. All integers are little-endian.
//!
//! A `.wtb` file is a 16-byte [`WthorHeader`] then 68-byte game records ([`WthorGame`]). Moves
//! are bytes `10 * row + column` (both 1-based: a1 = 11, h8 = 88), 0 after the last move.
//! Passes are not stored: [`WthorGame::replay`] inserts them where the rules force them.
//!
//! ```
//! use virada_rules::formats::wthor::{read_wtb, write_wtb, WthorFile, WthorGame, WthorHeader};
//! use virada_rules::{Game, Move};
//! let game = Game::from_moves(
//!     virada_rules::Position::start(),
//!     ["f5", "d6", "c3"].map(|m| m.parse::<Move>().unwrap()),
//! )
//! .unwrap();
//! let record = WthorGame::from_game(&game, 0, 1, 2, 0).unwrap();
//! let file = WthorFile { header: WthorHeader::for_games(2025, 1), games: vec![record] };
//! let bytes = write_wtb(&file);
//! assert_eq!(bytes.len(), 16 + 68);
//! let back = read_wtb(&bytes).unwrap();
//! assert_eq!(back.games[0].replay().unwrap().moves(), game.moves());
//! ```

use super::{Format, FormatError};
use crate::{Color, Game, Move, Position, Square};

/// Length of the file header.
pub const HEADER_LEN: usize = 16;
/// Length of one game record.
pub const GAME_RECORD_LEN: usize = 68;
/// Length of one `WTH.JOU` (player name) record.
pub const PLAYER_RECORD_LEN: usize = 20;
/// Length of one `WTH.TRN` (tournament name) record.
pub const TOURNAMENT_RECORD_LEN: usize = 26;

/// The 16-byte header shared by game and name files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WthorHeader {
    /// Creation date: century (e.g. 20), year in the century, month, day.
    pub created: [u8; 4],
    /// Number of game records (bytes 4..8).
    pub game_count: u32,
    /// Number of name records in `WTH.JOU` / `WTH.TRN` (bytes 8..10); 0 in game files.
    pub name_count: u16,
    /// Year of the games (bytes 10..12).
    pub game_year: u16,
    /// Board size: 0 or 8 for 8x8.
    pub board_size: u8,
    /// 0 for game files.
    pub kind: u8,
    /// Empties at which the theoretical score was computed; 0 means 22.
    pub theoretical_depth: u8,
    pub reserved: u8,
}

impl WthorHeader {
    /// A header for a game file of `game_count` games of `game_year`.
    pub fn for_games(game_year: u16, game_count: u32) -> WthorHeader {
        WthorHeader {
            created: [20, (game_year % 100) as u8, 1, 1],
            game_count,
            name_count: 0,
            game_year,
            board_size: 8,
            kind: 0,
            theoretical_depth: 24,
            reserved: 0,
        }
    }

    /// Reads the header from the first 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<WthorHeader, FormatError> {
        let Some(h) = bytes.get(..HEADER_LEN) else {
            return Err(FormatError::new(
                Format::Wthor,
                format!(
                    "file too short for the 16-byte header ({} bytes)",
                    bytes.len()
                ),
            )
            .at_byte(bytes.len()));
        };
        Ok(WthorHeader {
            created: [h[0], h[1], h[2], h[3]],
            game_count: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
            name_count: u16::from_le_bytes([h[8], h[9]]),
            game_year: u16::from_le_bytes([h[10], h[11]]),
            board_size: h[12],
            kind: h[13],
            theoretical_depth: h[14],
            reserved: h[15],
        })
    }

    /// The 16 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..4].copy_from_slice(&self.created);
        h[4..8].copy_from_slice(&self.game_count.to_le_bytes());
        h[8..10].copy_from_slice(&self.name_count.to_le_bytes());
        h[10..12].copy_from_slice(&self.game_year.to_le_bytes());
        h[12] = self.board_size;
        h[13] = self.kind;
        h[14] = self.theoretical_depth;
        h[15] = self.reserved;
        h
    }

    /// Number of empties at which [`WthorGame::theoretical_score`] was computed (0 means 22).
    pub fn theoretical_empties(&self) -> u8 {
        if self.theoretical_depth == 0 {
            22
        } else {
            self.theoretical_depth
        }
    }
}

/// One 68-byte game record, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WthorGame {
    /// Index into `WTH.TRN`.
    pub tournament: u16,
    /// Index into `WTH.JOU`.
    pub black_player: u16,
    /// Index into `WTH.JOU`.
    pub white_player: u16,
    /// Black's final disc count as recorded (empties to the winner). About 0.3% of records
    /// disagree with the replayed game: trust [`WthorGame::replay`].
    pub black_discs: u8,
    /// Black's score with perfect play from the position at the header's theoretical depth.
    pub theoretical_score: u8,
    /// The 60 move bytes, `10 * row + column`, 0 = no move.
    pub move_bytes: [u8; 60],
}

/// Decodes one move byte (`10 * row + column`, 1-based).
pub fn decode_square(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::from_coords(col - 1, row - 1)
    } else {
        None
    }
}

/// Encodes a square as a move byte.
pub fn encode_square(sq: Square) -> u8 {
    10 * (sq.row() + 1) + sq.column() + 1
}

impl WthorGame {
    /// Reads a record from exactly [`GAME_RECORD_LEN`] bytes.
    pub fn from_bytes(r: &[u8; GAME_RECORD_LEN]) -> WthorGame {
        let mut move_bytes = [0u8; 60];
        move_bytes.copy_from_slice(&r[8..]);
        WthorGame {
            tournament: u16::from_le_bytes([r[0], r[1]]),
            black_player: u16::from_le_bytes([r[2], r[3]]),
            white_player: u16::from_le_bytes([r[4], r[5]]),
            black_discs: r[6],
            theoretical_score: r[7],
            move_bytes,
        }
    }

    /// The 68 record bytes.
    pub fn to_bytes(&self) -> [u8; GAME_RECORD_LEN] {
        let mut r = [0u8; GAME_RECORD_LEN];
        r[0..2].copy_from_slice(&self.tournament.to_le_bytes());
        r[2..4].copy_from_slice(&self.black_player.to_le_bytes());
        r[4..6].copy_from_slice(&self.white_player.to_le_bytes());
        r[6] = self.black_discs;
        r[7] = self.theoretical_score;
        r[8..].copy_from_slice(&self.move_bytes);
        r
    }

    /// A record for `game`, which must start from the standard position. The recorded final
    /// count is [`black_score`] of the game's last position.
    pub fn from_game(
        game: &Game,
        tournament: u16,
        black_player: u16,
        white_player: u16,
        theoretical_score: u8,
    ) -> Result<WthorGame, FormatError> {
        if game.start() != Position::start() {
            return Err(FormatError::new(
                Format::Wthor,
                "WTHOR records only games from the standard start",
            ));
        }
        let mut move_bytes = [0u8; 60];
        let squares = game.moves().iter().filter_map(|m| m.square());
        for (slot, sq) in move_bytes.iter_mut().zip(squares) {
            *slot = encode_square(sq);
        }
        Ok(WthorGame {
            tournament,
            black_player,
            white_player,
            black_discs: black_score(&game.position()),
            theoretical_score,
            move_bytes,
        })
    }

    /// The stored moves up to the first 0 byte. A byte that is not a square is an error
    /// naming its move number (as `ply`, passes not counted) and its offset in the record.
    pub fn squares(&self) -> Result<Vec<Square>, FormatError> {
        let mut out = Vec::with_capacity(60);
        let mut ended = false;
        for (i, &b) in self.move_bytes.iter().enumerate() {
            if b == 0 {
                ended = true;
                continue;
            }
            let err = |msg: String| {
                Err(FormatError::new(Format::Wthor, msg)
                    .at_ply(i + 1)
                    .at_byte(8 + i))
            };
            if ended {
                return err(format!(
                    "move byte {b} after the end of the game (a 0 byte)"
                ));
            }
            match decode_square(b) {
                Some(sq) => out.push(sq),
                None => return err(format!("move byte {b} is not a square (11..88)")),
            }
        }
        Ok(out)
    }

    /// Replays the record from the standard start, inserting the passes the rules force.
    /// Errors name the ply (passes included) and the byte offset in the record.
    pub fn replay(&self) -> Result<Game, FormatError> {
        let mut game = Game::new();
        for (i, sq) in self.squares()?.into_iter().enumerate() {
            game.pass_if_forced();
            game.play(Move::Play(sq)).map_err(|e| {
                FormatError::new(Format::Wthor, format!("{sq}: {}", e.reason))
                    .at_ply(e.ply)
                    .at_byte(8 + i)
            })?;
        }
        Ok(game)
    }
}

/// Black's final count the way WTHOR records it: Black's discs, plus the empties when Black
/// leads (so 64 - White's discs when Black wins, 32 for a draw with empties).
pub fn black_score(pos: &Position) -> u8 {
    let b = pos.black().count() as u8;
    let w = pos.white().count() as u8;
    crate::GameResult::new(b, w).score(crate::Scoring::Wof).0
}

/// A whole `.wtb` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    pub header: WthorHeader,
    pub games: Vec<WthorGame>,
}

/// Reads a `.wtb` game file. The record count in the header must match the file length.
pub fn read_wtb(bytes: &[u8]) -> Result<WthorFile, FormatError> {
    let header = WthorHeader::from_bytes(bytes)?;
    if header.board_size != 0 && header.board_size != 8 {
        return Err(FormatError::new(
            Format::Wthor,
            format!(
                "board size {} is not supported (only 8x8)",
                header.board_size
            ),
        )
        .at_byte(12));
    }
    let body = &bytes[HEADER_LEN..];
    let count = header.game_count as usize;
    let expected = count.checked_mul(GAME_RECORD_LEN);
    if expected != Some(body.len()) {
        return Err(FormatError::new(
            Format::Wthor,
            format!(
                "header says {count} games ({} bytes) but {} bytes follow the header",
                count.saturating_mul(GAME_RECORD_LEN),
                body.len()
            ),
        )
        .at_byte(4));
    }
    let games = body
        .chunks_exact(GAME_RECORD_LEN)
        .map(|c| {
            let mut r = [0u8; GAME_RECORD_LEN];
            r.copy_from_slice(c);
            WthorGame::from_bytes(&r)
        })
        .collect();
    Ok(WthorFile { header, games })
}

/// Writes a `.wtb` file; the header's game count is set from `file.games`.
pub fn write_wtb(file: &WthorFile) -> Vec<u8> {
    let mut header = file.header;
    header.game_count = file.games.len() as u32;
    let mut out = Vec::with_capacity(HEADER_LEN + GAME_RECORD_LEN * file.games.len());
    out.extend_from_slice(&header.to_bytes());
    for g in &file.games {
        out.extend_from_slice(&g.to_bytes());
    }
    out
}

/// Reads a name file (`WTH.JOU` with 20-byte records, `WTH.TRN` with 26-byte records):
/// NUL-terminated Latin-1 names. The count is the header's name count (bytes 8..10), or its
/// record count (bytes 4..8) when that is 0.
pub fn read_names(bytes: &[u8], record_len: usize) -> Result<Vec<String>, FormatError> {
    let header = WthorHeader::from_bytes(bytes)?;
    let count = if header.name_count != 0 {
        header.name_count as usize
    } else {
        header.game_count as usize
    };
    let body = &bytes[HEADER_LEN..];
    let need = count.checked_mul(record_len.max(1));
    if need.is_none_or(|n| n > body.len()) {
        return Err(FormatError::new(
            Format::Wthor,
            format!(
                "header says {count} names of {record_len} bytes but only {} bytes follow",
                body.len()
            ),
        )
        .at_byte(8));
    }
    Ok(body
        .chunks_exact(record_len.max(1))
        .take(count)
        .map(latin1_name)
        .collect())
}

/// Player names of `WTH.JOU`.
pub fn read_players(bytes: &[u8]) -> Result<Vec<String>, FormatError> {
    read_names(bytes, PLAYER_RECORD_LEN)
}

/// Tournament names of `WTH.TRN`.
pub fn read_tournaments(bytes: &[u8]) -> Result<Vec<String>, FormatError> {
    read_names(bytes, TOURNAMENT_RECORD_LEN)
}

/// Decodes a NUL-terminated Latin-1 field (every byte is the Unicode code point of that value).
fn latin1_name(field: &[u8]) -> String {
    field
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| char::from(b))
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// The colour that moved at each stored move of a replayed game (passes skipped), handy for
/// training data that needs who played what.
pub fn movers(game: &Game) -> Vec<(Color, Square)> {
    game.positions()
        .iter()
        .zip(game.moves())
        .filter_map(|(p, m)| m.square().map(|sq| (p.side_to_move(), sq)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_bytes() {
        assert_eq!(decode_square(11), Some(Square::A1));
        assert_eq!(decode_square(18), Some(Square::H1));
        assert_eq!(decode_square(81), Some(Square::A8));
        assert_eq!(decode_square(88), Some(Square::H8));
        for b in [0, 9, 10, 19, 20, 89, 90, 255] {
            assert_eq!(decode_square(b), None, "{b}");
        }
        for sq in Square::all() {
            assert_eq!(decode_square(encode_square(sq)), Some(sq));
        }
    }

    #[test]
    fn truncated_and_bad_files_are_errors() {
        assert!(read_wtb(&[1, 2, 3]).is_err());
        let mut h = WthorHeader::for_games(2000, 2).to_bytes().to_vec();
        h.extend_from_slice(&[0u8; 68]);
        let e = read_wtb(&h).unwrap_err();
        assert!(e.message.contains("2 games"), "{e}");
        let mut g = WthorGame::from_bytes(&[0u8; 68]);
        g.move_bytes[0] = 56; // f5
        g.move_bytes[1] = 99;
        let e = g.replay().unwrap_err();
        assert_eq!(e.location.ply, Some(2));
        g.move_bytes[1] = 11; // a1: illegal for White
        let e = g.replay().unwrap_err();
        assert_eq!(e.location.ply, Some(2));
        assert!(e.message.contains("a1"), "{e}");
    }

    #[test]
    fn latin1_names() {
        let mut bytes = WthorHeader::for_games(0, 0).to_bytes().to_vec();
        bytes[8] = 2;
        let mut rec = [0u8; 20];
        rec[..5].copy_from_slice(&[b'J', b'o', 0xE3, b'o', 0]);
        bytes.extend_from_slice(&rec);
        bytes.extend_from_slice(&[0u8; 20]);
        assert_eq!(read_players(&bytes).unwrap(), ["Jo\u{e3}o", ""]);
    }
}
