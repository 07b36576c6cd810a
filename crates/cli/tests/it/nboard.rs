//! `virada nboard` driven as a child process with scripted sessions: every reply is checked.
//! Timeouts only keep a broken build from hanging the suite; nothing here measures speed.

use crate::common::{game_with_a_pass, Session};
use virada_rules::formats::ggf::GgfGame;
use virada_rules::{Game, Move, Position};

/// A `virada nboard` session.
struct Engine(Session);

impl Engine {
    /// A session searching every move (no book: these tests are about the protocol).
    fn start() -> Engine {
        Engine::start_with_book("off")
    }

    fn start_with_book(book: &str) -> Engine {
        Engine(Session::start(&[
            "nboard",
            "--threads",
            "1",
            "--tt-mb",
            "8",
            "--book",
            book,
        ]))
    }

    fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    fn line(&mut self) -> String {
        self.0.line()
    }

    /// Sends `ping n` and returns every line before `pong n` (which must come).
    fn until_pong(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut got = Vec::new();
        loop {
            let l = self.line();
            if l == format!("pong {n}") {
                return got;
            }
            got.push(l);
        }
    }

    /// Every line up to and including the first that equals `last` (the end of a command's
    /// output, read before a `ping` so the ping cannot interrupt that command).
    fn until_line(&mut self, last: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self.line();
            let done = l == last;
            got.push(l);
            if done {
                return got;
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.0.child.wait().unwrap();
        assert!(status.success(), "quit ends the engine cleanly: {status}");
    }
}

/// The example game of the protocol description: 8 moves from the start.
const EXAMPLE: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
    RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
    B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// With a book holding the start position, `go` plays its best move without searching (a
/// `book` line) and `hint` writes `book` lines with the book's values; one move later, out of
/// the book, `search` lines again.
#[test]
fn the_book_answers_go_and_hint_in_book_positions() {
    use virada_engine::book::{Book, LeafMove};
    let start = Position::start();
    let mut book = Book::new();
    let values = [("d3", -1.0), ("c4", 2.0), ("f5", -1.0), ("e6", -1.0)];
    let moves = values
        .iter()
        .map(|(sq, v)| LeafMove::new(sq.parse().unwrap(), *v, 20, false))
        .collect();
    book.insert(start.board(), moves);
    book.fix();
    let path = std::env::temp_dir().join(format!("virada-nboard-book-{}.vbk", std::process::id()));
    book.save(&path).unwrap();
    let mut e = Engine::start_with_book(path.to_str().unwrap());
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname Virada");
    let empty = virada_rules::formats::ggf::write_ggf(&[GgfGame::from_game(&Game::new())]);
    e.send(&format!("set game {}", empty.trim()));
    e.send("go");
    let lines = e.until_pong(1);
    assert_eq!(lines[0], "status Virada is thinking", "{lines:?}");
    assert_eq!(lines[1], "book C4 2.00 0 20", "{lines:?}");
    assert_eq!(parse_answer(&lines[2]), "c4".parse().unwrap());
    e.send("hint 4");
    let lines = e.until_pong(2);
    let book_lines: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book_lines.len(), 4, "{lines:?}");
    assert!(book_lines[0].starts_with("book C4 2.00 0"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    e.send("move F5");
    e.send("hint 3");
    let lines = e.until_pong(3);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("search ")).count(),
        3,
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
    e.quit();
    std::fs::remove_file(&path).ok();
}

fn replay(ggf: &str) -> Game {
    ggf.parse::<GgfGame>().unwrap().replay().unwrap()
}

/// `=== f5/1.23/0.45` -> the move, checking the eval and time are finite numbers.
fn parse_answer(line: &str) -> Move {
    let rest = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("{line:?}"));
    let parts: Vec<&str> = rest.split('/').collect();
    if parts[0] != "PA" {
        assert_eq!(parts.len(), 3, "{line:?} has move/eval/time");
        for n in &parts[1..] {
            assert!(n.parse::<f64>().unwrap().is_finite(), "{line:?}");
        }
    }
    parts[0].parse().unwrap()
}

/// A `search <pv> <eval> 0 <depth>` line -> (first move, eval, depth field).
fn parse_search(line: &str) -> (Move, f64, String) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w.len(), 5, "{line:?}");
    assert_eq!((w[0], w[3]), ("search", "0"), "{line:?}");
    let eval: f64 = w[2].parse().unwrap();
    assert!(eval.is_finite() && eval.abs() <= 64.0, "{line:?}");
    (w[1][..2].parse().unwrap(), eval, w[4].to_string())
}

fn is_legal(pos: &Position, mv: Move) -> bool {
    pos.check(mv).is_ok()
}

/// Checks the lines of a completed `go`: status, search, nodestats, `===`, status; returns
/// the move, which must be legal in `pos`.
fn check_go(lines: &[String], pos: &Position) -> Move {
    assert_eq!(lines[0], "status Virada is thinking", "{lines:?}");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("===")).collect();
    assert_eq!(answers.len(), 1, "exactly one answer: {lines:?}");
    let mv = parse_answer(answers[0]);
    assert!(is_legal(pos, mv), "{mv} is legal: {lines:?}");
    if !pos.board().legal_moves().is_empty() {
        let n = lines.len();
        assert!(n >= 5, "{lines:?}");
        assert_eq!(
            parse_search(&lines[1]).0,
            mv,
            "the search line names the move"
        );
        let stats: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(stats[0], "nodestats", "{lines:?}");
        stats[1].parse::<u64>().unwrap();
        assert!(stats[2].parse::<f64>().unwrap() >= 0.0);
        assert!(lines[3].starts_with("=== "));
        assert_eq!(lines[4], "status");
    }
    mv
}

#[test]
fn a_session_from_the_protocol_description() {
    let mut e = Engine::start();
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname Virada");
    e.send("set depth 4");
    assert_eq!(e.line(), "set myname Virada d4");
    e.send(&format!("set game {EXAMPLE}"));
    assert!(e.until_pong(1).is_empty(), "set game needs no reply");
    let mut game = replay(EXAMPLE);
    e.send("go");
    let lines = e.until_pong(2);
    let mv = check_go(&lines, &game.position());

    // hint 3: three search lines, legal and distinct moves, best first.
    e.send("hint 3");
    let lines = e.until_pong(3);
    assert_eq!(lines[0], "status Virada is analysing", "{lines:?}");
    let hints: Vec<_> = lines[1..4].iter().map(|l| parse_search(l)).collect();
    for w in hints.windows(2) {
        assert!(w[0].1 >= w[1].1, "best first: {lines:?}");
        assert_ne!(w[0].0, w[1].0);
    }
    assert!(hints.iter().all(|h| is_legal(&game.position(), h.0)));
    assert!(lines[4].starts_with("nodestats "), "{lines:?}");
    assert_eq!(lines[5], "status");
    assert_eq!(lines.len(), 6, "{lines:?}");

    // The GUI plays the move (with eval and time), then asks again.
    e.send(&format!("move {}/1.50/0.3", mv.to_string().to_uppercase()));
    game.play(mv).unwrap();
    e.send("go");
    check_go(&e.until_pong(4), &game.position());
    // A version 1 GUI sends the bare move.
    let next = game.position().legal_moves().first().unwrap();
    e.send(&next.to_string().to_uppercase());
    game.play(Move::Play(next)).unwrap();
    e.send("go");
    check_go(&e.until_pong(5), &game.position());

    e.send("set contempt 2");
    e.send("learn");
    assert_eq!(
        e.until_pong(6),
        [
            "status Virada does not learn from NBoard: its book grows with virada book add; the game was not stored",
            "learned"
        ]
    );
    e.quit();
}

#[test]
fn ping_stops_a_long_search_and_pong_comes_after_its_output() {
    let mut e = Engine::start();
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname Virada");
    // Far too deep to finish: only the ping ends these searches.
    e.send("set depth 40");
    assert_eq!(e.line(), "set myname Virada d40");
    e.send(&format!("set game {EXAMPLE}"));
    let pos = replay(EXAMPLE).position();
    e.send("go");
    assert_eq!(e.line(), "status Virada is thinking");
    let mut lines = vec!["status Virada is thinking".to_string()];
    lines.extend(e.until_pong(7));
    check_go(&lines, &pos);

    e.send("hint 2");
    assert_eq!(e.line(), "status Virada is analysing");
    let lines = e.until_pong(8);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("status"),
        "{lines:?}"
    );
    for l in lines.iter().filter(|l| l.starts_with("search ")) {
        assert!(is_legal(&pos, parse_search(l).0), "{l}");
    }

    e.send("analyze");
    assert_eq!(e.line(), "status Virada is analysing the game");
    let lines = e.until_pong(9);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("status"),
        "{lines:?}"
    );
    // The engine answers at once afterwards: nothing is left running.
    assert!(e.until_pong(10).is_empty());
    e.quit();
}

#[test]
fn set_game_with_a_set_up_board_and_passes() {
    let (full, pass_ply) = game_with_a_pass();
    // The record starts from a set-up board (the position 12 plies before the pass) and plays
    // through the pass and one move more.
    let start = pass_ply - 12;
    let mut g = Game::from_position(full.positions()[start]);
    for &mv in &full.moves()[start..=pass_ply + 1] {
        g.play(mv).unwrap();
    }
    let record = GgfGame::from_game(&g).to_string();
    assert!(record.contains("[PA]"), "{record}");
    let mut e = Engine::start();
    e.send("nboard 2");
    e.send("set depth 3");
    e.send(&format!("set game {record}"));
    e.send("go");
    let lines = e.until_pong(1);
    assert_eq!(lines[..2], ["set myname Virada", "set myname Virada d3"]);
    check_go(&lines[2..], &g.position());

    // Right before the pass: the side to move has no move, `go` answers PA.
    let mut before = Game::from_position(full.positions()[start]);
    for &mv in &full.moves()[start..pass_ply] {
        before.play(mv).unwrap();
    }
    assert!(before.position().must_pass());
    e.send(&format!("set game {}", GgfGame::from_game(&before)));
    e.send("go");
    assert_eq!(
        e.until_pong(2),
        [
            "status Virada is thinking",
            "status Virada must pass",
            "=== PA"
        ]
    );
    e.send("hint 1");
    let lines = e.until_pong(3);
    assert_eq!(parse_search(&lines[1]).0, Move::Pass, "{lines:?}");
    // The GUI then sends the pass, and the opponent moves.
    e.send("move PA");
    before.play(Move::Pass).unwrap();
    e.send("go");
    check_go(&e.until_pong(4), &before.position());
    e.quit();
}

#[test]
fn a_finished_game() {
    let (full, _) = game_with_a_pass();
    assert!(full.is_over());
    let record = GgfGame::from_game(&full).to_string();
    let result = full.result().unwrap();
    let mut e = Engine::start();
    e.send("nboard 2");
    e.send("set depth 1");
    e.send(&format!("set game {record}"));
    e.send("go");
    let over = format!("status the game is over: {result}");
    let lines = e.until_pong(1);
    assert_eq!(
        lines[2..],
        ["status Virada is thinking", over.as_str(), "=== PA"]
    );
    e.send("hint 4");
    assert_eq!(e.until_pong(2), [over.as_str()]);
    e.send("analyze");
    // Read the whole analysis (it ends with a bare `status`) before pinging: a ping stops it.
    let lines = e.until_line("status");
    assert!(e.until_pong(3).is_empty());
    assert_eq!(lines[0], "status Virada is analysing the game");
    let analysis: Vec<(usize, f64)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (n, v) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), v.parse().unwrap())
        })
        .collect();
    // Every position, last first; the last one's value is the final score for its mover.
    assert_eq!(analysis.len(), full.ply() + 1, "{lines:?}");
    assert_eq!(analysis[0].0, full.ply());
    assert_eq!(analysis.last().unwrap().0, 0);
    let last = full.position();
    assert_eq!(
        analysis[0].1,
        result.difference_for(last.side_to_move()) as f64
    );
    assert!(analysis
        .iter()
        .all(|a| a.1.is_finite() && a.1.abs() <= 64.0));
    assert!(lines[lines.len() - 2].starts_with("nodestats "));
    assert_eq!(lines.last().unwrap(), "status");
    e.quit();
}

#[test]
fn illegal_and_unknown_input_changes_nothing() {
    let mut e = Engine::start();
    e.send("nboard 2");
    e.send("set depth 2");
    e.send(&format!("set game {EXAMPLE}"));
    assert_eq!(
        e.until_pong(1),
        ["set myname Virada", "set myname Virada d2"]
    );
    let pos = replay(EXAMPLE).position();
    // The reasons are the rules crate's own words.
    let not_a_move = "z9".parse::<Move>().unwrap_err().to_string();
    let a1 = pos.check("a1".parse().unwrap()).unwrap_err().to_string();
    let pass = pos.check(Move::Pass).unwrap_err().to_string();
    for (input, reply) in [
        (
            "xyzzy 1 2",
            "status unknown command ignored: xyzzy 1 2".to_string(),
        ),
        ("move z9", format!("status move ignored: {not_a_move}")),
        (
            "move A1/0/0",
            format!("status move A1 ignored, the position is unchanged: {a1}"),
        ),
        (
            "move PA",
            format!("status move PA ignored, the position is unchanged: {pass}"),
        ),
        (
            "set depth x",
            "status set depth needs a depth of 1 or more, not \"x\"".into(),
        ),
        (
            "set contempt y",
            "status set contempt needs a number, not \"y\"".into(),
        ),
        (
            "set colour 3",
            "status unknown setting ignored: set colour 3".into(),
        ),
        (
            "hint many",
            "status hint needs a number of moves, not \"many\"".into(),
        ),
        (
            "nboard 7",
            "status NBoard protocol version \"7\" is not known; speaking version 2".into(),
        ),
    ] {
        e.send(input);
        let mut lines = e.until_pong(2);
        if input.starts_with("nboard") {
            assert_eq!(lines.pop().as_deref(), Some("set myname Virada"));
        }
        assert_eq!(lines, [reply], "reply to {input:?}");
    }
    e.send("set game (;GM[Othello]B[f5]");
    let lines = e.until_pong(3);
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].starts_with("status set game ignored, the position is unchanged: "),
        "{lines:?}"
    );
    e.send("set game (;GM[Chess];)");
    assert!(e.until_pong(4)[0].contains("not an Othello game"));
    e.send("set game (;GM[Othello]B[f5]B[d6];)");
    assert!(e.until_pong(5)[0].contains("White's turn"));
    // Blank lines are ignored without a word.
    e.send("");
    e.send("   ");
    assert!(e.until_pong(6).is_empty());
    // Still the example position, unchanged by all of the above.
    e.send("go");
    check_go(&e.until_pong(7), &pos);
    e.quit();
}

#[test]
fn the_end_of_input_ends_the_session() {
    let mut e = Engine::start();
    e.send("nboard 1");
    assert_eq!(e.line(), "set myname Virada");
    e.send("set depth 30");
    e.send("go");
    let mut child = e.0.end_input();
    // The search is stopped and the process exits.
    let status = child.wait().unwrap();
    assert!(status.success());
}
