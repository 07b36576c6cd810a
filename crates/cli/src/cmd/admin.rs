//! `virada admin`: the admin role, bans and reports on the server's database (SQLite file or
//! PostgreSQL, `--db` as for `virada db`). The work is the server crate's
//! (`virada_server::safety::admin`); this module parses and prints.

use super::{CliError, CmdResult};
use clap::{Args, Subcommand};
use std::io::Write;
use virada_server::config::DEFAULT_DB;
use virada_server::safety::admin::{report_json, run_blocking, AdminDone, AdminOp};

#[derive(Args)]
pub struct AdminArgs {
    /// The database: a SQLite file or postgres://USER[:PASSWORD]@HOST[:PORT]/DBNAME. Without
    /// --db, VIRADA_DB when set, else virada.sqlite (as `virada serve`).
    #[arg(long, value_name = "FILE|URL", global = true)]
    pub db: Option<String>,
    #[command(subcommand)]
    pub what: AdminWhat,
}

#[derive(Subcommand)]
pub enum AdminWhat {
    /// Give an account the admin role (it may review reports in the app).
    Grant { name: String },
    /// Take the admin role away.
    Revoke { name: String },
    /// Ban an account: it cannot sign in, and its sessions end now.
    Ban {
        name: String,
        /// Why (shown to the account when it tries to sign in).
        #[arg(long, default_value = "banned by an admin")]
        reason: String,
    },
    /// Lift a ban.
    Unban { name: String },
    /// List reports, the oldest first (one JSON object a line).
    Reports {
        /// Only the reports not resolved yet.
        #[arg(long)]
        open: bool,
    },
    /// Resolve a report with a note.
    Resolve {
        id: i64,
        #[arg(long, default_value = "resolved")]
        note: String,
    },
}

pub fn run(args: AdminArgs) -> CmdResult {
    let db = args
        .db
        .or_else(|| std::env::var("VIRADA_DB").ok().filter(|v| !v.is_empty()))
        .unwrap_or_else(|| DEFAULT_DB.to_string());
    let op = match args.what {
        AdminWhat::Grant { name } => AdminOp::Grant(name),
        AdminWhat::Revoke { name } => AdminOp::Revoke(name),
        AdminWhat::Ban { name, reason } => AdminOp::Ban { name, reason },
        AdminWhat::Unban { name } => AdminOp::Unban(name),
        AdminWhat::Reports { open } => AdminOp::Reports { open_only: open },
        AdminWhat::Resolve { id, note } => AdminOp::Resolve { id, note },
    };
    let what = match &op {
        AdminOp::Grant(_) => "is an admin now",
        AdminOp::Revoke(_) => "is no admin now",
        AdminOp::Ban { .. } => "is banned (its sessions ended)",
        AdminOp::Unban(_) => "is no longer banned",
        _ => "",
    };
    let done = run_blocking(&db, op).map_err(CliError::failed)?;
    let mut out = std::io::stdout().lock();
    match done {
        AdminDone::Account(name) => writeln!(out, "{name} {what}"),
        AdminDone::Resolved(id) => writeln!(out, "report {id} resolved"),
        AdminDone::Reports(rows) => {
            for r in &rows {
                writeln!(out, "{}", report_json(r)).map_err(CliError::stdout)?;
            }
            Ok(())
        }
    }
    .map_err(CliError::stdout)
}
