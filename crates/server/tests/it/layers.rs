//! Nothing in the server imports up: every `crate::`/`super::` path in `src/` (outside
//! `#[cfg(test)]` modules) names a module on a line above its own in the layer list of
//! docs/ARCHITECTURE.md (the block after `<!-- layers: virada-server -->`), or a module of its
//! own entry. Every module file belongs to an entry of the list, and every entry names a
//! module that exists, so the list stays the truth as files come and go.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const MARKER: &str = "<!-- layers: virada-server -->";

/// The layer list: one `Vec` of entries (module paths such as `runtime/pool`) per line, from
/// the bottom layer up. A line holds its entries before a run of three spaces (the rest is
/// its comment); a line starting with spaces continues the one above (with more entries, or
/// with comment only).
fn layer_list(doc: &str) -> Vec<Vec<String>> {
    let after = doc
        .split_once(MARKER)
        .unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no {MARKER}"))
        .1;
    let block = after
        .split("```")
        .nth(1)
        .expect("a fenced block follows the marker");
    let mut lines: Vec<Vec<String>> = Vec::new();
    for line in block.lines().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        // The names end at the first run of three spaces; a line of comment only has none.
        let body = line.strip_prefix("  ").unwrap_or(line);
        let names = body.split("   ").next().unwrap_or("");
        let entries: Vec<String> = names
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect();
        if line.starts_with("  ") && !lines.is_empty() {
            lines.last_mut().unwrap().extend(entries);
        } else {
            lines.push(entries);
        }
    }
    // The block is written top (highest) first, as a reader looks down the stack.
    lines.reverse();
    lines
}

/// Whether a file's code is only `mod` declarations (a folder's list of modules).
fn only_declares_modules(code: &str) -> bool {
    code.lines().map(str::trim).all(|l| {
        l.is_empty()
            || l.starts_with("#!")
            || ["pub mod ", "pub(crate) mod ", "mod "]
                .iter()
                .any(|m| l.starts_with(m))
    })
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `runtime/pool` for `src/runtime/pool.rs`, `game` for `src/game/mod.rs`, `` for `lib.rs`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let rel = rel.to_string_lossy().replace('\\', "/");
    match rel.as_str() {
        "lib" => String::new(),
        r => r.strip_suffix("/mod").unwrap_or(r).to_string(),
    }
}

/// The code of a file without comments, string contents and its `#[cfg(test)]` modules.
fn code_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file names: `crate::a::b::{c, d::e}` gives `a/b/c` and `a/b/d/e`;
/// `super::x` and `self::x` are read from the file's own module.
fn named_paths(code: &str, module: &str) -> Vec<Vec<String>> {
    let own: Vec<String> = module
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let at =
            |word: &str, from: usize| chars[from..].starts_with(&word.chars().collect::<Vec<_>>());
        let mut base = own.clone();
        let mut j = i;
        if boundary && at("crate::", i) {
            base.clear();
            j += 7;
        } else if boundary && at("self::", i) {
            j += 6;
        } else if boundary && at("super::", i) {
            while at("super::", j) {
                base.pop();
                j += 7;
            }
        } else {
            i += 1;
            continue;
        }
        let (tree, used) = use_tree(&chars[j..]);
        for path in tree {
            let mut full = base.clone();
            full.extend(path);
            out.push(full);
        }
        i = j + used.max(1);
    }
    out
}

/// Reads a path or a `{...}` group from `s`; returns the paths and the characters read.
fn use_tree(s: &[char]) -> (Vec<Vec<String>>, usize) {
    let mut i = 0;
    let mut prefix = Vec::new();
    loop {
        let ident_start = i;
        while i < s.len() && (s[i].is_alphanumeric() || s[i] == '_') {
            i += 1;
        }
        if i > ident_start {
            prefix.push(s[ident_start..i].iter().collect::<String>());
        } else if i < s.len() && s[i] == '{' {
            i += 1;
            let mut all = Vec::new();
            loop {
                while i < s.len() && (s[i].is_whitespace() || s[i] == ',') {
                    i += 1;
                }
                if i >= s.len() || s[i] == '}' {
                    i += 1;
                    break;
                }
                let (paths, used) = use_tree(&s[i..]);
                for p in paths {
                    let mut full = prefix.clone();
                    full.extend(p);
                    all.push(full);
                }
                i += used.max(1);
            }
            return (all, i);
        }
        if s[i..].starts_with(&[':', ':']) {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

#[test]
fn no_module_of_the_server_imports_a_module_above_its_own_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let doc = std::fs::read_to_string(root.join("../../docs/ARCHITECTURE.md")).unwrap();
    let lines = layer_list(&doc);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(&src, f)).collect();

    // The entry (and its line) that owns a module: the longest listed prefix.
    let entry_of = |module: &str| -> Option<(usize, String)> {
        let parts: Vec<&str> = module.split('/').collect();
        (1..=parts.len()).rev().find_map(|n| {
            let prefix = parts[..n].join("/");
            lines
                .iter()
                .position(|line| line.contains(&prefix))
                .map(|level| (level, prefix))
        })
    };

    let mut problems = Vec::new();
    for line in &lines {
        for entry in line {
            if !modules.contains(entry) {
                problems.push(format!(
                    "the layer list names `{entry}`, which is no module of src/"
                ));
            }
        }
    }
    for file in &files {
        let module = module_of(&src, file);
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        if module.is_empty() || only_declares_modules(&code) {
            continue; // lib.rs, runtime/mod.rs, http/mod.rs: a list of modules, no code
        }
        let Some((level, entry)) = entry_of(&module) else {
            problems.push(format!(
                "src/{module}.rs belongs to no entry of the layer list in docs/ARCHITECTURE.md"
            ));
            continue;
        };
        let mut seen = BTreeSet::new();
        for path in named_paths(&code, &module) {
            // The longest prefix of the path that is a module of this crate (the rest names
            // items; a path into another crate's re-export names no file here).
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].join("/"))
                .find(|p| modules.contains(p));
            let Some(target) = target else { continue };
            let Some((target_level, target_entry)) = entry_of(&target) else {
                continue; // reported as its own file above
            };
            if target_entry == entry || target_level < level {
                continue;
            }
            if seen.insert(target.clone()) {
                problems.push(format!(
                    "{module} (line {}) imports {target} (line {}): up the layers",
                    level + 1,
                    target_level + 1
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layers (docs/ARCHITECTURE.md, {MARKER}; lines counted from the bottom):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reader_expands_groups_and_resolves_super() {
    let code = "use crate::a::{b, c::{d, e}};\nuse super::f::g;\nlet x = crate::h::i(1);";
    let mut got = named_paths(code, "m/n");
    got.sort();
    let want: Vec<Vec<String>> = [
        vec!["a", "b"],
        vec!["a", "c", "d"],
        vec!["a", "c", "e"],
        vec!["h", "i"],
        vec!["m", "f", "g"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(got, want);
    // `super::super` climbs twice; `self` stays in the module.
    assert_eq!(
        named_paths("use super::super::x; use self::y;", "m/n/o"),
        vec![
            vec!["m".to_string(), "x".to_string()],
            vec![
                "m".to_string(),
                "n".to_string(),
                "o".to_string(),
                "y".to_string()
            ]
        ]
    );
}

const CRATES_MARKER: &str = "<!-- layers: crates -->";

/// The `virada-*` crates a manifest's `[dependencies]` name (not its dev-dependencies: tests
/// may drive a crate from above).
fn workspace_dependencies(manifest: &str) -> Vec<String> {
    let mut in_dependencies = false;
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_dependencies = line == "[dependencies]";
        } else if in_dependencies && line.starts_with("virada-") {
            let name = line.split(['.', ' ', '=']).next().unwrap_or("");
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn no_crate_depends_on_a_crate_above_its_own_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    // The same block format as the server's modules: crate names, top line first.
    let after = doc
        .split_once(CRATES_MARKER)
        .unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no {CRATES_MARKER}"))
        .1;
    let block = after.split("```").nth(1).expect("a fenced block follows");
    let mut lines: Vec<Vec<String>> = block
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split("   ")
                .next()
                .unwrap_or("")
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect()
        })
        .collect();
    lines.reverse();
    let level_of = |name: &str| lines.iter().position(|l| l.iter().any(|n| n == name));

    let mut manifests = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let manifest = entry.unwrap().path().join("Cargo.toml");
        if manifest.is_file() {
            manifests.push(manifest);
        }
    }
    assert!(
        manifests.len() >= 9,
        "the workspace's crates: {manifests:?}"
    );
    let mut wrong = Vec::new();
    for manifest in &manifests {
        let text = std::fs::read_to_string(manifest).unwrap();
        let name = text
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .unwrap();
        let Some(own) = level_of(&name) else {
            wrong.push(format!("{name} is in no line of the crate list"));
            continue;
        };
        for dep in workspace_dependencies(&text) {
            match level_of(&dep) {
                Some(level) if level < own => {}
                Some(_) => wrong.push(format!("{name} depends on {dep}, not below it")),
                None => wrong.push(format!("{name} depends on {dep}, in no line of the list")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
