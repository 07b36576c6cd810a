use super::*;

fn small() -> GenConfig {
    GenConfig {
        seed: 7,
        games_per_chunk: 3,
        exact_empties: 10,
        search_depth: 2,
        solve_table_mib: 1,
        ..GenConfig::default()
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("virada-gen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn eval() -> Arc<Gen3Eval> {
    virada_engine::default_evaluator()
}

fn chunk_bytes(dir: &Path) -> Vec<Vec<u8>> {
    dataset::list_chunks(dir)
        .unwrap()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect()
}

#[test]
fn same_seed_same_samples_any_thread_count_and_labels_are_sound() {
    let (a, b) = (temp_dir("det-a"), temp_dir("det-b"));
    let stop = StopAt {
        chunks: Some(2),
        flag: None,
    };
    let ta = run(&small(), &a, eval(), stop).unwrap();
    let one = GenConfig {
        threads: 1,
        ..small()
    };
    let tb = run(&one, &b, eval(), stop).unwrap();
    assert_eq!(chunk_bytes(&a), chunk_bytes(&b));
    assert_eq!(ta.records, tb.records);
    assert_eq!(ta.chunks, 2);
    let mut keys = HashSet::new();
    let mut n = 0;
    dataset::for_each_record(&dataset::list_chunks(&a).unwrap(), |r| {
        n += 1;
        assert!(r.board.is_valid() && r.board.moves() != 0);
        // Deduplicated by canonical form.
        assert!(keys.insert(canonical_key(&r.board)));
        let e = r.board.empty_count();
        match r.source {
            crate::samples::Source::Exact => {
                assert!(e <= 10);
                assert_eq!(r.label % 100, 0);
                assert_eq!(r.depth as u32, e);
            }
            crate::samples::Source::Search => {
                assert!(e > 10);
                assert_eq!(r.depth, 2);
            }
            s => panic!("unexpected source {s:?}"),
        }
        assert!(r.game < 6);
    })
    .unwrap();
    assert_eq!(n as u64, ta.records);
    assert!(n > 6 * 30, "{n}");
    // Another seed gives other games.
    let c = temp_dir("det-c");
    run(&GenConfig { seed: 8, ..small() }, &c, eval(), stop).unwrap();
    assert_ne!(chunk_bytes(&a), chunk_bytes(&c));
    for d in [a, b, c] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn resume_after_interruption_gives_the_same_samples() {
    let whole = temp_dir("whole");
    let parts = temp_dir("parts");
    let cfg = small();
    run(
        &cfg,
        &whole,
        eval(),
        StopAt {
            chunks: Some(3),
            flag: None,
        },
    )
    .unwrap();
    // First run stops after one chunk.
    run(
        &cfg,
        &parts,
        eval(),
        StopAt {
            chunks: Some(1),
            flag: None,
        },
    )
    .unwrap();
    // A crash in the middle of writing chunk 1 leaves a temporary file; a crash after the
    // rename of chunk 1 but before the state update leaves a stale state.txt.
    std::fs::write(parts.join(".chunk-000001.vds.tmp"), b"half a chunk").unwrap();
    let state = std::fs::read_to_string(parts.join("state.txt")).unwrap();
    run(
        &cfg,
        &parts,
        eval(),
        StopAt {
            chunks: Some(2),
            flag: None,
        },
    )
    .unwrap();
    std::fs::write(parts.join("state.txt"), state).unwrap();
    // The stop flag, already set, stops before any new chunk.
    let flag = AtomicBool::new(true);
    let t = run(
        &cfg,
        &parts,
        eval(),
        StopAt {
            chunks: None,
            flag: Some(&flag),
        },
    )
    .unwrap();
    assert_eq!(t.chunks, 2);
    run(
        &cfg,
        &parts,
        eval(),
        StopAt {
            chunks: Some(3),
            flag: None,
        },
    )
    .unwrap();
    assert_eq!(chunk_bytes(&whole), chunk_bytes(&parts));
    // Other settings are refused with the reason.
    let other = GenConfig {
        search_depth: 3,
        ..small()
    };
    let err = run(
        &other,
        &parts,
        eval(),
        StopAt {
            chunks: Some(4),
            flag: None,
        },
    )
    .unwrap_err();
    assert!(err.contains("other settings"), "{err}");
    for d in [whole, parts] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn state_text_round_trips() {
    let t = Totals {
        chunks: 3,
        records: 1234,
        labels: LabelStats {
            exact: 10,
            exact_time: Duration::from_millis(1500),
            search: 20,
            search_time: Duration::from_millis(2500),
            seen_before: 4,
        },
        duplicates: 2,
        wall: Duration::from_secs(9),
    };
    let (tag, back) = Totals::parse(&t.to_text("x=1 y=2")).unwrap();
    assert_eq!(tag, "x=1 y=2");
    assert_eq!(back, t);
    let (exact_h, search_h) = t.rates(2);
    assert!((exact_h - 10.0 * 3600.0 * 2.0 / 1.5).abs() < 1e-6);
    assert!((search_h - 20.0 * 3600.0 * 2.0 / 2.5).abs() < 1e-6);
}

/// A source data set of WTHOR-like records: every position of a few random games, as two
/// chunks.
fn relabel_source(dir: &Path) -> Vec<Record> {
    let mut rng = game::Rng::for_game(3, 0);
    let mut records = Vec::new();
    for g in 0..6u32 {
        let mut b = virada_rules::Board::start();
        while !b.is_game_over() {
            let m = b.moves();
            if m == 0 {
                b = b.pass();
                continue;
            }
            records.push(Record {
                board: b,
                label: (rng.below(129) as i16 - 64) * 100,
                source: crate::samples::Source::WthorTheoretical,
                depth: 24,
                game: g,
            });
            let mut pick = m;
            for _ in 0..rng.below(m.count_ones() as u64) {
                pick &= pick - 1;
            }
            b = b.play_unchecked(virada_rules::Square::lowest_of(pick));
        }
    }
    std::fs::create_dir_all(dir).unwrap();
    let half = records.len() / 2;
    for (k, part) in [&records[..half], &records[half..]].iter().enumerate() {
        dataset::write_atomic(&dataset::chunk_path(dir, k as u64), &dataset::encode(part)).unwrap();
    }
    records
}

#[test]
fn relabel_is_deterministic_resumable_and_labels_by_search() {
    use relabel::{run as relabel_run, RelabelConfig};
    let src = temp_dir("rl-src");
    let records = relabel_source(&src);
    let cfg = RelabelConfig {
        depth: 2,
        min_empties: 20,
        part_records: 17,
        threads: 2,
    };
    let (a, b) = (temp_dir("rl-a"), temp_dir("rl-b"));
    let whole = relabel_run(
        &RelabelConfig {
            threads: 1,
            ..cfg.clone()
        },
        &src,
        &a,
        eval(),
        None,
    )
    .unwrap();
    // Interrupted after two parts, then continued with another thread count.
    let first = relabel_run(&cfg, &src, &b, eval(), Some(2)).unwrap();
    assert_eq!(first.labelled_parts, 2);
    let rest = relabel_run(&cfg, &src, &b, eval(), None).unwrap();
    assert_eq!(rest.labelled_parts, whole.parts - 2);
    assert_eq!(chunk_bytes(&a), chunk_bytes(&b));

    let selected: Vec<&Record> = records
        .iter()
        .filter(|r| r.board.empty_count() >= 20)
        .collect();
    assert_eq!(whole.records, selected.len() as u64);
    assert_eq!(whole.parts, selected.len().div_ceil(17) as u64);
    let mut out = Vec::new();
    dataset::for_each_record(&dataset::list_chunks(&a).unwrap(), |r| out.push(*r)).unwrap();
    assert_eq!(out.len(), selected.len());
    let mut worker = Worker::new(eval(), &small());
    for (new, old) in out.iter().zip(&selected) {
        assert_eq!((new.board, new.game), (old.board, old.game));
        assert_eq!(new.source, crate::samples::Source::WthorSearch);
        assert_eq!(new.depth, 2);
        assert_eq!(new.label, worker.search_timed(new.board, 2).0);
    }
    // Labels are search values, not the source's random ones.
    assert!(out.iter().zip(&selected).any(|(n, o)| n.label != o.label));

    // Other settings refuse the directory.
    let deeper = RelabelConfig { depth: 3, ..cfg };
    let err = relabel_run(&deeper, &src, &a, eval(), Some(1)).unwrap_err();
    assert!(err.contains("other settings"), "{err}");
    for d in [src, a, b] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// A WTHOR directory holding one year of the shared data (`None`: the data is missing).
fn one_wthor_year(name: &str) -> Option<std::path::PathBuf> {
    let file = virada_testdata::file("wthor/WTH_2004.wtb")?;
    let dir = temp_dir(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(file, dir.join("WTH_2004.wtb")).unwrap();
    Some(dir)
}

#[test]
fn wthor_endgame_walks_are_exact_resumable_and_skip_held_out_games() {
    use virada_engine::endgame::{solve_with_table, SolveMode, SolveOptions};
    use virada_engine::tt::TranspositionTable;
    use wthor_endgame::{run as walk_run, EndgameConfig, ACCURACY_SPLIT};
    let Some(wthor_dir) = one_wthor_year("eg-wthor") else {
        return;
    };
    let cfg = EndgameConfig {
        seed: 5,
        start_empties: (10, 13),
        random_plies: (0, 2),
        min_empties: 6,
        wander_percent: 40,
        games_per_part: 25,
        solve_table_mib: 1,
        threads: 2,
    };
    let (a, b) = (temp_dir("eg-a"), temp_dir("eg-b"));
    let one = EndgameConfig {
        threads: 1,
        ..cfg.clone()
    };
    let whole = walk_run(&one, &wthor_dir, &a, eval(), Some(4), None).unwrap();
    assert_eq!(whole.labelled_parts, 4);
    // Interrupted after one part (a half-written temporary file left behind), then continued
    // with another thread count: the same files.
    walk_run(&cfg, &wthor_dir, &b, eval(), Some(1), None).unwrap();
    std::fs::write(b.join(".chunk-000001.vds.tmp"), b"half a chunk").unwrap();
    let stop = AtomicBool::new(true);
    let stopped = walk_run(&cfg, &wthor_dir, &b, eval(), None, Some(&stop)).unwrap();
    assert_eq!(stopped.labelled_parts, 0);
    let rest = walk_run(&cfg, &wthor_dir, &b, eval(), Some(3), None).unwrap();
    assert_eq!(rest.labelled_parts, 3);
    assert_eq!(rest.records, whole.records);
    assert_eq!(chunk_bytes(&a), chunk_bytes(&b));

    let mut records = Vec::new();
    dataset::for_each_record(&dataset::list_chunks(&a).unwrap(), |r| records.push(*r)).unwrap();
    assert_eq!(records.len() as u64, whole.records);
    assert!(records.len() > 100, "{}", records.len());
    let table = TranspositionTable::new(1);
    let opts = SolveOptions {
        mode: SolveMode::Exact,
        threads: 1,
        ..SolveOptions::default()
    };
    let mut keys = HashSet::new();
    let mut games = HashSet::new();
    for r in &records {
        let e = r.board.empty_count();
        assert!((6..=13).contains(&e), "{e} empties");
        assert!(r.board.moves() != 0);
        assert_eq!(r.source, crate::samples::Source::Exact);
        assert_eq!(r.depth as u32, e);
        assert!(keys.insert(canonical_key(&r.board)), "duplicate position");
        assert!(!crate::wthor::is_held_out(
            r.game as usize,
            ACCURACY_SPLIT.0,
            ACCURACY_SPLIT.1
        ));
        games.insert(r.game);
        table.clear();
        let exact = solve_with_table(r.board, &opts, &table, eval().as_ref());
        assert_eq!(r.label as i32, exact.score.lower * 100);
    }
    // The games of the four parts include held-out ones (which gave nothing), so the check
    // above can fail.
    let db = crate::wthor::load(&wthor_dir).unwrap();
    assert!(db.games.len() > 100);
    let visited = &wthor_endgame::game_order(db.games.len(), cfg.seed)[..100];
    assert!(visited.iter().any(|&g| crate::wthor::is_held_out(
        g,
        ACCURACY_SPLIT.0,
        ACCURACY_SPLIT.1
    )));
    assert!(games.iter().all(|&g| visited.contains(&(g as usize))));
    let walked: Vec<usize> = (0..db.games.len())
        .filter(|&g| games.contains(&(g as u32)))
        .collect();
    assert!(walked.len() > 50, "{}", walked.len());
    // Positions off the human lines: some labelled positions are not in their game.
    let off_line = records.iter().any(|r| {
        let played = db.games[r.game as usize].0.replay().unwrap();
        !played.positions().iter().any(|p| p.board() == r.board)
    });
    assert!(off_line);

    // Other settings refuse the directory.
    let other = EndgameConfig {
        min_empties: 7,
        ..cfg
    };
    let err = walk_run(&other, &wthor_dir, &a, eval(), Some(1), None).unwrap_err();
    assert!(err.contains("other settings"), "{err}");
    for d in [wthor_dir, a, b] {
        let _ = std::fs::remove_dir_all(d);
    }
}
