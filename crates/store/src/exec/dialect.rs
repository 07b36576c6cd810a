//! How SQLite reads a statement written for PostgreSQL: the one rewrite both stores rely on.
//! Outside quoted text, `$n` becomes `?n` (SQLite's numbered parameter) and PostgreSQL's type
//! names become SQLite's (`BIGINT` is `INTEGER`, so `INTEGER PRIMARY KEY` stays the row id;
//! `DOUBLE PRECISION` is `REAL`; a `BOOLEAN` is an `INTEGER` 0 or 1); `COLLATE "C"` (byte
//! order) is dropped, since byte order is SQLite's own.

/// PostgreSQL's spelling and SQLite's, longest first where one contains another.
const WORDS: &[(&str, &str)] = &[
    (
        "BOOLEAN NOT NULL DEFAULT FALSE",
        "INTEGER NOT NULL DEFAULT 0",
    ),
    ("BOOLEAN", "INTEGER"),
    ("BIGINT", "INTEGER"),
    ("DOUBLE PRECISION", "REAL"),
    (" COLLATE \"C\"", ""),
];

/// `sql` as SQLite reads it.
pub fn sqlite(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    // Alternate runs: code, then a quoted string ('...', kept as it is), then code...
    for (i, part) in sql.split('\'').enumerate() {
        if i > 0 {
            out.push('\'');
        }
        if i % 2 == 1 {
            out.push_str(part);
            continue;
        }
        let mut code = part.to_string();
        for (pg, lite) in WORDS {
            if code.contains(pg) {
                code = code.replace(pg, lite);
            }
        }
        let mut chars = code.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
                out.push('?');
            } else {
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sqlite;

    #[test]
    fn parameters_and_types_are_rewritten_outside_quotes() {
        assert_eq!(
            sqlite("SELECT a FROM t WHERE b = $1 AND c = '$2' ORDER BY id COLLATE \"C\" LIMIT $12"),
            "SELECT a FROM t WHERE b = ?1 AND c = '$2' ORDER BY id LIMIT ?12"
        );
        assert_eq!(
            sqlite("CREATE TABLE t (n BIGINT, r DOUBLE PRECISION, b BOOLEAN NOT NULL DEFAULT FALSE, x BOOLEAN)"),
            "CREATE TABLE t (n INTEGER, r REAL, b INTEGER NOT NULL DEFAULT 0, x INTEGER)"
        );
        assert_eq!(sqlite("SELECT 'it''s $1', $2"), "SELECT 'it''s $1', ?2");
    }
}
