//! The browser app: every file under `crates/web/assets/` (HTML, CSS, JavaScript modules, the
//! lessons' positions), embedded by `build.rs` with `include_bytes!`.
//!
//! A crate of its own, with no dependencies, so that editing the app recompiles this small
//! crate and relinks the `virada` binary, not the server. The server does not depend on it: the
//! binary hands [`FILES`] to the server's settings (`ServerConfig::web`), which serves them
//! (`virada_server::assets`: content types, ETags, security headers).
#![forbid(unsafe_code)]

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

#[cfg(test)]
mod tests {
    use super::FILES;

    #[test]
    fn the_app_is_embedded_with_paths_relative_to_assets() {
        let path = |p: &str| FILES.iter().find(|(name, _)| *name == p);
        let index = path("index.html").expect("index.html is embedded");
        assert!(std::str::from_utf8(index.1).unwrap().contains("<html"));
        assert!(path("app.js").is_some(), "app.js is embedded");
        // Each path once, relative, with `/` between folders on every system.
        let names: std::collections::HashSet<&str> = FILES.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), FILES.len());
        assert!(FILES
            .iter()
            .all(|(name, _)| !name.starts_with('/') && !name.contains('\\')));
    }
}
