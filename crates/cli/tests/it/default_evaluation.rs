//! Which evaluation the engine uses (`virada bench search` prints its name): the shipped gen3
//! weights by default, the file `VIRADA_WEIGHTS` names when it is set, and the shipped weights
//! again, with a message saying why, when that file cannot be used.

use std::process::{Command, Output};

fn bench(weights: Option<&std::path::Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_virada"));
    cmd.args(["bench", "search", "--depth", "2"]);
    cmd.env_remove("VIRADA_WEIGHTS");
    if let Some(p) = weights {
        cmd.env("VIRADA_WEIGHTS", p);
    }
    cmd.output().expect("the virada binary runs")
}

fn evaluation_name(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("evaluation "))
        .unwrap_or_else(|| panic!("no `evaluation` line in:\n{text}"))
        .to_string()
}

fn weights_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/weights")
}

#[test]
fn the_default_is_the_shipped_gen3_evaluation() {
    let out = bench(None);
    assert!(evaluation_name(&out).starts_with("gen3"), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("virada-default-eval-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_gen3_weights_file_replaces_it() {
    let dir = temp_dir("renamed");
    // The shipped weights under another generation name (the header's name field, bytes
    // 40-63, is outside the payload checksum).
    let mut bytes = std::fs::read(weights_dir().join("gen3.vpw")).unwrap();
    bytes[40..64].fill(0);
    bytes[40..52].copy_from_slice(b"gen3-renamed");
    let renamed = dir.join("renamed.vpw");
    std::fs::write(&renamed, &bytes).unwrap();
    assert_eq!(evaluation_name(&bench(Some(&renamed))), "gen3-renamed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_cannot_be_used_falls_back_to_the_shipped_evaluation_and_says_why() {
    let dir = temp_dir("bad");
    let corrupt = dir.join("corrupt.vpw");
    let mut bytes = std::fs::read(weights_dir().join("gen3.vpw")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&corrupt, &bytes).unwrap();
    // A file of the retired gen2 evaluation (format version 1) is refused too.
    let gen2 = dir.join("gen2.vpw");
    let mut bytes = std::fs::read(weights_dir().join("gen3.vpw")).unwrap();
    bytes[8] = 1;
    std::fs::write(&gen2, &bytes).unwrap();
    for path in [corrupt.clone(), gen2, dir.join("missing.vpw")] {
        let out = bench(Some(&path));
        assert!(evaluation_name(&out).starts_with("gen3"), "{path:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("VIRADA_WEIGHTS") && err.contains(path.to_str().unwrap()),
            "{path:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
