//! `virada gtp` driven as a child process with scripted sessions: every reply is checked.

use crate::common::{game_with_a_pass, Session};
use virada_rules::{Color, Game, Move};

/// A `virada gtp` session at `level`.
struct Engine(Session);

impl Engine {
    fn start(level: &str) -> Engine {
        Engine(Session::start(&[
            "gtp",
            "--threads",
            "1",
            "--tt-mb",
            "8",
            "--level",
            level,
        ]))
    }

    /// Sends `cmd` and returns its whole reply (the lines before the blank line, joined).
    fn ask(&mut self, cmd: &str) -> String {
        self.0.send(cmd);
        let mut reply = Vec::new();
        loop {
            let line = self.0.line();
            if line.is_empty() {
                return reply.join("\n");
            }
            reply.push(line);
        }
    }
}

fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// `= D3` -> the move.
fn parse_genmove(reply: &str) -> Move {
    let v = reply
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("{reply:?}"));
    v.parse().unwrap_or_else(|_| panic!("{reply:?}"))
}

#[test]
fn administrative_commands_and_replies() {
    let mut e = Engine::start("4");
    assert_eq!(e.ask("protocol_version"), "= 2");
    assert_eq!(e.ask("name"), "= Virada");
    assert_eq!(e.ask("version"), format!("= {}", env!("CARGO_PKG_VERSION")));
    // Ids are echoed on success and on failure.
    assert_eq!(e.ask("12 name"), "=12 Virada");
    assert_eq!(e.ask("13 frobnicate"), "?13 unknown command");
    assert_eq!(e.ask("known_command genmove"), "= true");
    assert_eq!(e.ask("known_command frobnicate"), "= false");
    let list = e.ask("list_commands");
    let list: Vec<&str> = list.strip_prefix("= ").unwrap().lines().collect();
    for cmd in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "time_settings",
        "time_left",
        "set_game",
        "list_games",
        "level",
    ] {
        assert!(list.contains(&cmd), "{cmd} in {list:?}");
        assert_eq!(e.ask(&format!("known_command {cmd}")), "= true");
    }
    assert_eq!(
        e.ask("boardsize 19"),
        "? unacceptable size: Othello is played on 8x8"
    );
    assert_eq!(e.ask("boardsize 8"), "= ");
    assert_eq!(e.ask("clear_board"), "= ");
    assert_eq!(e.ask("komi 6.5"), "= ");
    assert_eq!(e.ask("komi lots"), "? syntax error: komi needs a number");
    assert_eq!(e.ask("set_game Othello"), "= ");
    assert_eq!(
        e.ask("set_game Go"),
        "? unsupported game \"Go\": only Othello"
    );
    assert_eq!(e.ask("list_games"), "= Othello");
    assert_eq!(e.ask("level 3"), "= ");
    assert_eq!(e.ask("level 22"), "? level must be 1 to 21");
    assert_eq!(e.ask("time_settings 0 1 1"), "= ");
    assert_eq!(e.ask("time_left b 0.8 1"), "= ");
    // With the clock in byo-yomi, a move still comes (within the period, not checked here).
    let mut game = Game::new();
    let mv = parse_genmove(&e.ask("genmove b"));
    game.play(mv).unwrap();
    // In main time: the time manager shares out what is left.
    assert_eq!(e.ask("time_settings 60 0 0"), "= ");
    assert_eq!(e.ask("time_left w 59 0"), "= ");
    let mv = parse_genmove(&e.ask("genmove w"));
    assert!(game.position().check(mv).is_ok());
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask("time_left q 1 1"), "? invalid color \"q\"");
    assert_eq!(e.ask("play"), "? syntax error: play needs more arguments");
    // Comments and blank lines are no commands.
    assert_eq!(e.ask("# a comment\nname # trailing"), "= Virada");
    assert_eq!(e.ask("quit"), "= ");
    assert!(e.0.child.wait().unwrap().success());
}

#[test]
fn play_genmove_undo_and_illegal_moves() {
    let mut e = Engine::start("3");
    assert_eq!(e.ask("clear_board"), "= ");
    let mut game = Game::new();
    assert_eq!(e.ask("play b F5"), "= ");
    game.play("f5".parse().unwrap()).unwrap();
    // Illegal: wrong colour, occupied, flips nothing, a pass with moves, a finished board
    // square outside; none of them changes the position.
    for bad in [
        "play b d6",
        "play w f5",
        "play w a1",
        "play w pass",
        "play w i9",
    ] {
        let reply = e.ask(bad);
        if bad.ends_with("i9") {
            assert_eq!(reply, "? invalid coordinate \"i9\"");
        } else {
            assert_eq!(reply, "? illegal move", "{bad}");
        }
    }
    assert_eq!(e.ask("5 play w d6"), "=5 ");
    game.play("d6".parse().unwrap()).unwrap();
    let reply = e.ask("genmove b");
    let mv = parse_genmove(&reply);
    assert!(game.position().check(mv).is_ok(), "{reply}");
    game.play(mv).unwrap();
    assert_eq!(e.ask("genmove b"), "? it is White's turn, not Black's");
    let board = e.ask("showboard");
    let expected = format!(
        "= \n{}Black (X) {}, White (O) {}; White to move",
        game.position().to_diagram(),
        game.position().disc_counts().black_discs,
        game.position().disc_counts().white_discs
    );
    assert_eq!(board, expected.trim_end());
    // Undo takes back the genmove, then the play.
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask("undo"), "= ");
    game.undo();
    game.undo();
    let again = parse_genmove(&e.ask("genmove w"));
    assert!(game.position().check(again).is_ok());
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask("undo"), "? cannot undo");
    assert_eq!(e.ask("final_score"), "? the game is not over");
    assert_eq!(e.ask("quit"), "= ");
}

#[test]
fn passes_and_a_finished_game() {
    let (full, _) = game_with_a_pass();
    let first_pass = full.moves().iter().position(|m| *m == Move::Pass).unwrap();
    let mut e = Engine::start("2");
    // Up to the pass, then the engine is asked to move for the side that must pass.
    for i in 0..first_pass {
        let c = gtp_color(full.positions()[i].side_to_move());
        assert_eq!(e.ask(&format!("play {c} {}", full.moves()[i])), "= ");
    }
    let passer = gtp_color(full.positions()[first_pass].side_to_move());
    assert_eq!(e.ask(&format!("genmove {passer}")), "= pass");
    assert_eq!(e.ask("undo"), "= ");
    // Or the GUI leaves the pass out and the other side plays on: accepted, the pass implied.
    let next = full.moves()[first_pass + 1];
    let mover = gtp_color(full.positions()[first_pass + 1].side_to_move());
    assert_eq!(e.ask(&format!("play {mover} {next}")), "= ");
    // Undo takes back the move and its implied pass together; an explicit pass then works.
    assert_eq!(e.ask("undo"), "= ");
    assert_eq!(e.ask(&format!("play {passer} pass")), "= ");
    for i in first_pass + 1..full.ply() {
        let c = gtp_color(full.positions()[i].side_to_move());
        let mv = full.moves()[i];
        assert_eq!(e.ask(&format!("play {c} {mv}")), "= ", "ply {i}");
    }
    // The game is over: nothing is legal, genmove passes, final_score gives the WOF result.
    assert_eq!(e.ask("play b a1"), "? illegal move");
    assert_eq!(e.ask("genmove w"), "= pass");
    let d = full.result().unwrap().difference_for(Color::Black);
    let score = match d.signum() {
        1 => format!("B+{d}"),
        -1 => format!("W+{}", -d),
        _ => "0".into(),
    };
    assert_eq!(e.ask("final_score"), format!("= {score}"));
    let board = e.ask("showboard");
    assert!(
        board.ends_with(&format!("game over: {}", full.result().unwrap())),
        "{board}"
    );
    assert_eq!(e.ask("quit"), "= ");
}

#[test]
fn bad_arguments_are_refused() {
    let o = crate::common::virada(&["gtp", "--level", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(crate::common::stderr(&o).contains("--level 0 is not a level"));
}
