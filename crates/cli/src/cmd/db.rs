//! `virada db`: the server's database. `migrate` brings a schema to this build's version,
//! `copy` moves every table between a SQLite file and PostgreSQL (either way). The work is the
//! server crate's (`virada_store::admin`); this module parses and prints.

use super::{CliError, CmdResult};
use clap::{Args, Subcommand};
use std::io::Write;
use virada_server::config::DEFAULT_DB;
use virada_store::admin;

#[derive(Args)]
pub struct DbArgs {
    #[command(subcommand)]
    pub what: DbWhat,
}

#[derive(Subcommand)]
pub enum DbWhat {
    /// Bring a database's schema to this build's version (a missing SQLite file is created).
    Migrate(MigrateArgs),
    /// Copy every table of one database into another (SQLite file or postgres:// URL, either
    /// way). Stop the servers of both first.
    Copy(CopyArgs),
}

#[derive(Args)]
pub struct MigrateArgs {
    /// The database: a SQLite file or postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME. Without
    /// --db, VIRADA_DB when set, else virada.sqlite (as `virada serve`).
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<String>,
}

#[derive(Args)]
pub struct CopyArgs {
    /// The database to read (SQLite file or postgres:// URL); it must have this build's
    /// schema version and is not changed.
    #[arg(long, value_name = "FILE|URL")]
    pub from: String,
    /// The database to write (created or migrated first); it must hold no rows.
    #[arg(long, value_name = "FILE|URL")]
    pub to: String,
    /// Delete every row the target holds before copying (in the same transaction).
    #[arg(long)]
    pub replace: bool,
}

pub fn run(args: DbArgs) -> CmdResult {
    match args.what {
        DbWhat::Migrate(a) => migrate(a),
        DbWhat::Copy(a) => copy(a),
    }
}

fn migrate(args: MigrateArgs) -> CmdResult {
    let db = args
        .db
        .or_else(|| std::env::var("VIRADA_DB").ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| DEFAULT_DB.to_string());
    let done = admin::migrate_blocking(&db).map_err(CliError::failed)?;
    let mut out = std::io::stdout().lock();
    if done.from == done.to {
        writeln!(
            out,
            "{}: schema version {}, already this build's",
            done.db, done.to
        )
    } else {
        writeln!(
            out,
            "{}: schema version {} -> {}",
            done.db, done.from, done.to
        )
    }
    .map_err(CliError::stdout)
}

fn copy(args: CopyArgs) -> CmdResult {
    let done =
        admin::copy_blocking(&args.from, &args.to, args.replace).map_err(CliError::failed)?;
    let mut out = std::io::stdout().lock();
    let mut lines = Vec::new();
    if done.target_migrated_from != done.version {
        lines.push(format!(
            "{}: schema version {} -> {}",
            done.to, done.target_migrated_from, done.version
        ));
    }
    lines.push(format!(
        "copied {} to {} (schema version {}):",
        done.from, done.to, done.version
    ));
    let width = done.tables.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
    for (table, rows) in &done.tables {
        lines.push(format!("  {table:<width$}  {rows:>8}"));
    }
    let total: u64 = done.tables.iter().map(|(_, n)| n).sum();
    lines.push(format!("  {:<width$}  {total:>8}", "rows"));
    for line in lines {
        writeln!(out, "{line}").map_err(CliError::stdout)?;
    }
    Ok(())
}
