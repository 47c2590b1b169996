//! Reports: one row per reporter and target while open, with the target's text as it
//! was when reported. What a reportable thing says and who may see it is read here
//! as facts; `moderation::reports` decides what they mean.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use crate::{
    db::{Db, Timestamp},
    moderation::{ReportReason, ReportStatus, TargetType},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct ReportRow {
    pub id: Uuid,
    pub reporter_id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub author_id: Uuid,
    pub reason: ReportReason,
    pub details: String,
    pub snapshot: String,
    pub status: ReportStatus,
    pub created_at: Timestamp,
}

const REPORT_COLUMNS: &str =
    "id, reporter_id, target_type, target_id, author_id, reason, details, snapshot, status, created_at";

/// A reportable thing as stored: its author, its text (`extra`: a task's description, an
/// answer, a profile's bio, a review's rating), and for messages and reviews the other party
/// and whether it is out for everyone to read.
#[derive(Clone, Debug, FromRow)]
pub struct ContentRow {
    pub author_id: Uuid,
    pub text: String,
    pub extra: Option<String>,
    pub other_party: Option<Uuid>,
    pub public: bool,
}

pub struct NewReport<'a> {
    pub id: Uuid,
    pub reporter_id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub author_id: Uuid,
    pub reason: ReportReason,
    pub details: &'a str,
    pub snapshot: &'a str,
    pub created_at: Timestamp,
}

/// The reportable thing `target_type`/`id`, if it exists. `now` decides whether a review is out.
#[instrument(skip_all)]
pub async fn content(db: &Db, target_type: TargetType, id: Uuid, now: Timestamp) -> sqlx::Result<Option<ContentRow>> {
    let sql = match target_type {
        TargetType::Task => {
            "select poster_id as author_id, title as text, description as extra, null as other_party, true as public
             from tasks where id = $1 and $2 = $2"
        }
        TargetType::User => {
            "select id as author_id, first_name || ' ' || last_name as text, bio as extra, null as other_party,
                    true as public
             from profiles where id = $1 and $2 = $2"
        }
        TargetType::Offer => {
            "select tasker_id as author_id, message as text, null as extra, null as other_party, true as public
             from offers where id = $1 and $2 = $2"
        }
        TargetType::Question => {
            "select asker_id as author_id, body as text, answer as extra, null as other_party, true as public
             from questions where id = $1 and $2 = $2"
        }
        TargetType::Message => {
            "select sender_id as author_id, body as text, null as extra, recipient_id as other_party, false as public
             from messages where id = $1 and $2 = $2"
        }
        TargetType::Review => {
            "select r.reviewer_id as author_id, r.body as text, cast(r.rating as text) as extra,
                    r.reviewee_id as other_party,
                    ((select count(*) from reviews other where other.task_id = r.task_id) = 2
                     or exists (select 1 from tasks t where t.id = r.task_id and t.completed_at <= $2)) as public
             from reviews r where r.id = $1"
        }
    };
    let hidden_until_completed_before = Timestamp(now.0 - crate::store::reviews::HIDDEN_FOR.as_millis() as i64);
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ContentRow>(sql).bind(id).bind(hidden_until_completed_before).fetch_optional(pool).await
    })
}

/// Files the report, or when this reporter's report on the target is still open, returns
/// that one instead (`false`: nothing was added).
#[instrument(skip_all)]
pub async fn file_report(db: &Db, report: &NewReport<'_>) -> sqlx::Result<(ReportRow, bool)> {
    loop {
        let inserted = on_pool!(db, |pool| {
            sqlx::query(
                "insert into reports (id, reporter_id, target_type, target_id, author_id, reason, details, snapshot,
                                      status, created_at)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9)
                 on conflict (reporter_id, target_type, target_id) where status = 'open' do nothing",
            )
            .bind(report.id)
            .bind(report.reporter_id)
            .bind(report.target_type)
            .bind(report.target_id)
            .bind(report.author_id)
            .bind(report.reason)
            .bind(report.details)
            .bind(report.snapshot)
            .bind(report.created_at)
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1)
        })?;
        if inserted {
            let row = report_by_id(db, report.id).await?.ok_or(sqlx::Error::RowNotFound)?;
            return Ok((row, true));
        }
        // Resolved between the insert and this read: file it again as a new one.
        if let Some(open) = open_report_of(db, report.reporter_id, report.target_type, report.target_id).await? {
            return Ok((open, false));
        }
    }
}

#[instrument(skip_all)]
pub async fn report_by_id(db: &Db, id: Uuid) -> sqlx::Result<Option<ReportRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ReportRow>(sqlx::AssertSqlSafe(format!(
            "select {REPORT_COLUMNS} from reports where id = $1"
        )))
        .bind(id)
        .fetch_optional(pool)
        .await
    })
}

#[instrument(skip_all)]
async fn open_report_of(
    db: &Db,
    reporter_id: Uuid,
    target_type: TargetType,
    target_id: Uuid,
) -> sqlx::Result<Option<ReportRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ReportRow>(sqlx::AssertSqlSafe(format!(
            "select {REPORT_COLUMNS} from reports
             where reporter_id = $1 and target_type = $2 and target_id = $3 and status = 'open'"
        )))
        .bind(reporter_id)
        .bind(target_type)
        .bind(target_id)
        .fetch_optional(pool)
        .await
    })
}
