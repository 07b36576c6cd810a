//! Embeds every file under `assets/` (the browser app) into the crate: generates a table of
//! `(relative path, bytes)` pairs with `include_bytes!`, so files can be added without touching
//! Rust code, and asks Cargo to rebuild when anything there changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Hidden files and editor droppings are not part of the app.
        if name.starts_with('.') || name.ends_with('~') {
            continue;
        }
        if path.is_dir() {
            // Node tooling (tests, linters) may live beside the app; it is never served.
            if name == "node_modules" {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, root, out);
        } else {
            let rel = path
                .strip_prefix(root)
                .expect("inside assets/")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            println!("cargo:rerun-if-changed={}", path.display());
            out.push((rel, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let assets = manifest.join("assets");
    println!("cargo:rerun-if-changed={}", assets.display());
    let mut files = Vec::new();
    collect(&assets, &assets, &mut files);
    let mut code = String::from("/// The app's files: (path relative to `assets/`, contents).\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            path.display().to_string()
        )
        .expect("write to string");
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("web_files.rs");
    std::fs::write(out, code).expect("write web_files.rs");
}
