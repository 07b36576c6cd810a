//! The admin role: what `virada admin` does to a database (grant, revoke, ban, unban, list and
//! resolve reports; [`run_blocking`]), and the admins' report review over HTTP
//! (`GET /api/admin/reports`, `POST /api/admin/reports/{id}/resolve`; 403 `admin_only` for
//! anyone else).

use super::{checked_reason, signed_in};
use crate::error::{AppError, AppResult};
use crate::http::extract::JsonBody;
use crate::http::limits::Kind;
use crate::http::ownership::Asker;
use crate::identity::layer::Identity;
use crate::runtime::state::AppState;
use crate::util::{iso8601, now_millis};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use virada_store::accounts::name_key;
use virada_store::admin::Db;
use virada_store::postgres::PgStore;
use virada_store::safety::ReportRow;
use virada_store::sqlite::SqliteStore;
use virada_store::{Store, StoreError};

/// Most reports one listing shows (the oldest first).
pub const REPORTS_LISTED: usize = 500;

/// A `virada admin` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminOp {
    Grant(String),
    Revoke(String),
    Ban { name: String, reason: String },
    Unban(String),
    Reports { open_only: bool },
    Resolve { id: i64, note: String },
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminDone {
    /// A change to the account (its username as typed).
    Account(String),
    Reports(Vec<ReportRow>),
    Resolved(i64),
}

/// The store of `db` (a missing SQLite file is created; the schema is brought up to date, as
/// `virada serve` does).
async fn open(db: &Db) -> Result<Arc<dyn Store>, String> {
    let store: Arc<dyn Store> = match db {
        Db::Sqlite(path) => {
            let path = path.clone();
            let store = tokio::task::spawn_blocking(move || SqliteStore::open(&path))
                .await
                .map_err(|e| format!("database task failed: {e}"))?
                .map_err(|e| e.to_string())?;
            Arc::new(store)
        }
        Db::Postgres(target) => {
            let store = PgStore::open(target).await.map_err(|e| e.to_string())?;
            Arc::new(store)
        }
    };
    Ok(store)
}

/// Runs `op` on the database `db`.
pub async fn run(db: &Db, op: AdminOp) -> Result<AdminDone, String> {
    let store = open(db).await?;
    let safety = store.safety();
    let e = |e: StoreError| AppError::from(e).message();
    let account = |found: bool, name: &str| {
        if found {
            Ok(AdminDone::Account(name.to_string()))
        } else {
            Err(format!("no account is called {name}"))
        }
    };
    let now = now_millis();
    match op {
        AdminOp::Grant(name) => account(
            safety.set_admin(&name_key(&name), true).await.map_err(e)?,
            &name,
        ),
        AdminOp::Revoke(name) => account(
            safety.set_admin(&name_key(&name), false).await.map_err(e)?,
            &name,
        ),
        AdminOp::Ban { name, reason } => account(
            safety
                .set_ban(&name_key(&name), Some(reason), now)
                .await
                .map_err(e)?,
            &name,
        ),
        AdminOp::Unban(name) => account(
            safety
                .set_ban(&name_key(&name), None, now)
                .await
                .map_err(e)?,
            &name,
        ),
        AdminOp::Reports { open_only } => Ok(AdminDone::Reports(
            safety.reports(open_only, REPORTS_LISTED).await.map_err(e)?,
        )),
        AdminOp::Resolve { id, note } => {
            if safety.resolve_report(id, note, now).await.map_err(e)? {
                Ok(AdminDone::Resolved(id))
            } else {
                Err(format!("no open report has the id {id}"))
            }
        }
    }
}

/// [`run`] for a command line (on a runtime of its own), on `db`: a SQLite file or a
/// `postgres://` URL.
pub fn run_blocking(db: &str, op: AdminOp) -> Result<AdminDone, String> {
    let db = Db::parse(db);
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?
        .block_on(run(&db, op))
}

/// A report as the API shows it.
pub fn report_json(r: &ReportRow) -> Value {
    json!({
        "id": r.id,
        "reporter": r.reporter,
        "player": r.player,
        "game": r.game,
        "chat_line": r.chat_line,
        "chat_text": r.chat_text,
        "reason": r.reason,
        "created_at": iso8601(r.created_at),
        "resolved_at": r.resolved_at.map(iso8601),
        "resolution": r.resolution,
    })
}

/// 401 for a guest, 403 `admin_only` for an account without the admin role.
async fn require_admin(state: &AppState, identity: &Identity) -> AppResult<()> {
    let me = signed_in(identity)?;
    let flags = state.shared.store.safety().flags(me.holder).await?;
    if flags.is_some_and(|f| f.admin && f.banned_at.is_none()) {
        Ok(())
    } else {
        Err(AppError::account(
            StatusCode::FORBIDDEN,
            "admin_only",
            "only an admin may do this",
            &[],
        ))
    }
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ReportsQuery {
    #[serde(default)]
    open: bool,
}

/// `GET /api/admin/reports[?open=true]`: `{"reports": [...]}`, the oldest first.
pub async fn list_reports(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    query: Result<Query<ReportsQuery>, axum::extract::rejection::QueryRejection>,
) -> AppResult<Json<Value>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    require_admin(&state, &identity).await?;
    let Query(q) = query.map_err(|e| AppError::BadRequest(format!("query: {}", e.body_text())))?;
    let rows = state
        .shared
        .store
        .safety()
        .reports(q.open, REPORTS_LISTED)
        .await?;
    let reports: Vec<Value> = rows.iter().map(report_json).collect();
    Ok(Json(json!({ "reports": reports })))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct ResolveRequest {
    note: String,
}

/// `POST /api/admin/reports/{id}/resolve` `{"note"}`: 200 `{"id"}` (404 for no open report).
pub async fn resolve(
    State(state): State<AppState>,
    asker: Asker,
    identity: Identity,
    Path(id): Path<i64>,
    JsonBody(req): JsonBody<ResolveRequest>,
) -> AppResult<Json<Value>> {
    state.limits.check(asker.ip, Kind::Seat)?;
    require_admin(&state, &identity).await?;
    let note = checked_reason("note", &req.note)?;
    if state
        .shared
        .store
        .safety()
        .resolve_report(id, note, now_millis())
        .await?
    {
        Ok(Json(json!({ "id": id })))
    } else {
        Err(AppError::NotFound(format!(
            "no open report has the id {id}"
        )))
    }
}
