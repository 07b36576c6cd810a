//! How often the app's hints in the opening come from the book: over the first N positions of
//! each game of some WTHOR files (real tournament games), the share whose every move the book
//! values (the hint is answered from the book), whose moves it values in part, or none.
//!
//! `cargo run --example book_hint_coverage -- BOOK.vbk PLIES FILE.wtb...`

use virada_engine::{Book, Engine, EngineConfig, Limits};
use virada_rules::formats::wthor::read_wtb;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: book_hint_coverage BOOK.vbk PLIES FILE.wtb...");
        std::process::exit(2);
    }
    let book: &'static Book = Box::leak(Box::new(Book::open(&args[0]).expect("a book file")));
    let plies: usize = args[1].parse().expect("a number of plies");
    let mut engine = Engine::new(EngineConfig {
        tt_mb: 4,
        threads: 1,
        ..EngineConfig::default()
    });
    engine.set_book(Some(book));
    let (mut games, mut full, mut part, mut none) = (0usize, 0usize, 0usize, 0usize);
    let mut by_ply = vec![0usize; plies];
    for path in &args[2..] {
        let bytes = std::fs::read(path).expect("a readable file");
        let file = read_wtb(&bytes).expect("a WTHOR file");
        for g in &file.games {
            let Ok(game) = g.replay() else { continue };
            games += 1;
            for (ply, pos) in game.positions().iter().take(plies).enumerate() {
                if pos.board().moves() == 0 {
                    continue;
                }
                let a = engine.analyze(pos.board(), &Limits::depth(1), None);
                let known = a.moves.iter().filter(|m| m.book).count();
                if known == a.moves.len() {
                    full += 1;
                    by_ply[ply] += 1;
                } else if known > 0 {
                    part += 1;
                } else {
                    none += 1;
                }
            }
        }
    }
    let total = (full + part + none).max(1) as f64;
    println!(
        "{games} games, first {plies} positions: {} hints; all values from the book {:.1}%, some {:.1}%, none {:.1}%",
        full + part + none,
        100.0 * full as f64 / total,
        100.0 * part as f64 / total,
        100.0 * none as f64 / total
    );
    let per: Vec<String> = by_ply
        .iter()
        .enumerate()
        .map(|(p, n)| format!("{}:{:.0}%", p + 1, 100.0 * *n as f64 / games.max(1) as f64))
        .collect();
    println!("from the book, by move number: {}", per.join(" "));
}
