use super::model::FeatureModel;
use super::*;
use virada_rules::Board;

/// A small model with known structure: two phases (parity of the empties), four slots of the
/// side to move's discs, each activating one of 7 entries (slot value 0 activates nothing, so
/// the weights are identifiable).
struct Synth;

impl FeatureModel for Synth {
    fn num_phases(&self) -> usize {
        2
    }
    fn weights_per_phase(&self) -> usize {
        32
    }
    fn features(&self, board: &Board, out: &mut Vec<u32>) -> usize {
        for s in 0..4 {
            let v = (board.player >> (8 * s)) & 7;
            if v != 0 {
                out.push((s * 8 + v) as u32);
            }
        }
        (board.empty_count() & 1) as usize
    }
}

use virada_engine::random::SplitMix as R;

fn truth() -> Vec<f32> {
    let mut r = R(77);
    (0..64)
        .map(|i| {
            if i % 8 == 0 {
                0.0
            } else {
                (r.next_u64() % 1001) as f32 / 100.0 - 5.0
            }
        })
        .collect()
}

fn write_set(dir: &std::path::Path, truth: &[f32]) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut r = R(0x1234_5678);
    let mut buf = Vec::new();
    let mut f = Vec::new();
    for i in 0..24_000u32 {
        let a = r.next_u64();
        let b = r.next_u64() & !a;
        let board = Board::new(a, b);
        f.clear();
        let p = Synth.features(&board, &mut f);
        let v: f32 = f.iter().map(|&k| truth[p * 32 + k as usize]).sum();
        buf.push(Record {
            board,
            label: (v * 100.0).round() as i16,
            source: Source::Search,
            depth: 1,
            game: i / 8,
        });
        if buf.len() == 2000 {
            let k = (i / 2000) as u64;
            dataset::write_atomic(&dataset::chunk_path(dir, k), &dataset::encode(&buf)).unwrap();
            buf.clear();
        }
    }
}

/// The largest difference between fitted weights and the truth.
fn largest_error(params: &[f32], truth: &[f32]) -> f32 {
    params
        .iter()
        .zip(truth)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max)
}

fn cfg(threads: usize) -> FitConfig {
    FitConfig {
        batch: 256,
        learning_rate: 0.05,
        l2: 1e-7,
        max_epochs: 12,
        patience: 3,
        phase_overlap: 0,
        threads,
        ..FitConfig::default()
    }
}

#[test]
fn recovers_known_weights_deterministically() {
    let dir = std::env::temp_dir().join(format!("virada-fit3-{}", std::process::id()));
    let t = truth();
    write_set(&dir, &t);
    let sets = vec![dir.clone()];
    let a = fit(&Synth, &sets, &cfg(2)).unwrap();
    let worst = largest_error(&a.params, &t);
    assert!(worst < 0.05, "largest weight error {worst}");
    assert!(a.validation.mae < 0.05, "{:?}", a.validation);
    assert!(a.validation.records > 500 && a.validation.records < 2500);
    // Same seed, one thread: the same weights bit for bit.
    let b = fit(&Synth, &sets, &cfg(1)).unwrap();
    assert_eq!(a.params, b.params);
    assert_eq!(a.best_epoch, b.best_epoch);
    // Another seed: another held-out split and order, other weights (same quality).
    let c = fit(&Synth, &sets, &FitConfig { seed: 2, ..cfg(2) }).unwrap();
    assert_ne!(a.params, c.params);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn coarse_tables_fit_the_same_sums_and_hold_out_wthor_by_the_wthor_split() {
    let dir = std::env::temp_dir().join(format!("virada-fit3-groups-{}", std::process::id()));
    let t = truth();
    write_set(&dir, &t);
    let sets = vec![dir.clone()];
    // Both phases share one coarse table; the written tables are fine + coarse.
    let grouped = FitConfig {
        group_size: 2,
        fine_l2: 1e-7,
        ..cfg(2)
    };
    let a = fit(&Synth, &sets, &grouped).unwrap();
    assert_eq!(a.params.len(), t.len());
    let worst = largest_error(&a.params, &t);
    assert!(worst < 0.1, "largest weight error {worst}");
    assert_eq!(
        a.validation.sources[Source::Search as usize].0,
        a.validation.records
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A WTHOR record is held out exactly when its game is held out in the WTHOR split.
    let mut r = Record {
        board: Board::start(),
        label: 0,
        source: Source::WthorTheoretical,
        depth: 24,
        game: 0,
    };
    let mut held = 0;
    for g in 0..2000u32 {
        r.game = g;
        let want = crate::wthor::is_held_out(g as usize, 1, 20);
        assert_eq!(is_record_held_out(1, 1, &r, 20), want);
        // A WTHOR position relabelled by search is held out with its game.
        let relabelled = Record {
            source: Source::WthorSearch,
            ..r
        };
        assert_eq!(is_record_held_out(1, 2, &relabelled, 20), want);
        held += want as u32;
    }
    assert!((60..140).contains(&held), "{held}");
}

#[test]
fn source_weights_parse() {
    let w = parse_source_weights("exact=2,search=0.5").unwrap();
    assert_eq!(w[Source::Exact as usize], 2.0);
    assert_eq!(w[Source::Search as usize], 0.5);
    assert_eq!(w[Source::WthorTheoretical as usize], 1.0);
    assert!(parse_source_weights("nope=1").is_err());
    assert!(parse_source_weights("exact").is_err());
}

#[test]
fn gen3_model_features_match_the_evaluation() {
    use super::model::Gen3Model;
    use virada_engine::eval::gen3::Gen3Eval;
    // Fitted parameters in discs -> a weights file -> the engine's value equals the model's.
    let n = Gen3Model.num_phases() * Gen3Model.weights_per_phase();
    let mut r = R(5);
    let params: Vec<f32> = (0..n)
        .map(|_| (r.next_u64() % 201) as f32 / 100.0 - 1.0)
        .collect();
    let eval = Gen3Eval::new(Gen3Model::to_weights(&params, "t", 100));
    let mut b = Board::start();
    let mut f = Vec::new();
    while !b.is_game_over() {
        if b.moves() == 0 {
            b = b.pass();
            continue;
        }
        f.clear();
        let p = Gen3Model.features(&b, &mut f);
        let want: f32 = f
            .iter()
            .map(|&k| (params[p * Gen3Model.weights_per_phase() + k as usize] * 100.0).round())
            .sum();
        assert_eq!(eval.evaluate(&b), want as i32);
        let m = b.moves();
        b = b.play_unchecked(virada_rules::Square::lowest_of(m));
    }
}

#[test]
fn a_fit_started_from_earlier_weights_is_pulled_toward_them() {
    let dir = std::env::temp_dir().join(format!("virada-fit3-start-{}", std::process::id()));
    let t = truth();
    write_set(&dir, &t);
    let sets = vec![dir.clone()];
    let worst = |p: &[f32]| largest_error(p, &t);
    // A penalty this strong shrinks a fit from zero far from the truth ...
    let strong = FitConfig {
        l2: 0.05,
        max_epochs: 4,
        ..cfg(2)
    };
    let from_zero = fit(&Synth, &sets, &strong).unwrap();
    assert!(
        worst(&from_zero.params) > 0.5,
        "{}",
        worst(&from_zero.params)
    );
    // ... but started from the truth it pulls toward the truth, which the data agree with.
    let started = FitConfig {
        start: Start::From(t.clone().into()),
        ..strong.clone()
    };
    let kept = fit(&Synth, &sets, &started).unwrap();
    assert!(worst(&kept.params) < 0.05, "{}", worst(&kept.params));
    // Started from wrong weights (all 1), the fit improves on them: a later epoch is best, and
    // entries no sample activates (every eighth) keep their starting value.
    let ones = FitConfig {
        start: Start::From(vec![1.0f32; t.len()].into()),
        ..cfg(2)
    };
    let moved = fit(&Synth, &sets, &ones).unwrap();
    assert!(moved.best_epoch >= 1);
    assert!(
        worst(
            &moved
                .params
                .iter()
                .enumerate()
                .map(|(i, &x)| if i % 8 == 0 { 0.0 } else { x })
                .collect::<Vec<_>>()
        ) < 0.1
    );
    assert!(moved.params.iter().step_by(8).all(|&x| x == 1.0));
    // Starting weights of the wrong size are refused with a message.
    let short = FitConfig {
        start: Start::From(vec![0.0f32; 3].into()),
        ..cfg(1)
    };
    let err = fit(&Synth, &sets, &short).err().expect("refused");
    assert!(err.contains("3 entries"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
