//! Reports: one row per reporter and target while open, with the target's text as it
//! was when reported. What a reportable thing says and who may see it is read here
//! as facts; `moderation::reports` decides what they mean.

use sqlx::FromRow;
use tracing::instrument;
use uuid::Uuid;

use model::moderation::{ModerationAction, ReportReason, ReportStatus, TargetType};

use crate::{
    db::{Db, Timestamp},
    on_pool,
};

#[derive(Clone, Debug, FromRow)]
pub struct ReportRow {
    pub id: Uuid,
    pub reporter_id: Uuid,
    #[sqlx(try_from = "String")]
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub author_id: Uuid,
    #[sqlx(try_from = "String")]
    pub reason: ReportReason,
    pub details: String,
    pub snapshot: String,
    #[sqlx(try_from = "String")]
    pub status: ReportStatus,
    #[sqlx(rename = "action")]
    pub action_text: Option<String>,
    pub created_at: Timestamp,
    pub resolved_at: Option<Timestamp>,
}

impl ReportRow {
    pub fn action(&self) -> Option<ModerationAction> {
        self.action_text.as_deref().and_then(ModerationAction::parse)
    }
}

const REPORT_COLUMNS: &str = "id, reporter_id, target_type, target_id, author_id, reason, details, snapshot, status, action, created_at, resolved_at";

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
    /// Removed by a moderator (the text is kept).
    pub removed: bool,
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
            "select poster_id as author_id, title as text, description as extra, null as other_party, true as public,
                    status = 'removed' as removed
             from tasks where id = $1 and $2 = $2"
        }
        TargetType::User => {
            "select id as author_id, first_name || ' ' || last_name as text, bio as extra, null as other_party,
                    true as public, false as removed
             from profiles where id = $1 and $2 = $2"
        }
        TargetType::Offer => {
            "select tasker_id as author_id, message as text, null as extra, null as other_party, true as public,
                    message_removed_at is not null as removed
             from offers where id = $1 and $2 = $2"
        }
        TargetType::Question => {
            "select asker_id as author_id, body as text, answer as extra, null as other_party, true as public,
                    removed_at is not null as removed
             from questions where id = $1 and $2 = $2"
        }
        TargetType::Message => {
            "select sender_id as author_id, body as text, null as extra, recipient_id as other_party, false as public,
                    removed_at is not null as removed
             from messages where id = $1 and $2 = $2"
        }
        TargetType::Review => {
            "select r.reviewer_id as author_id, r.body as text, cast(r.rating as text) as extra,
                    r.reviewee_id as other_party,
                    ((select count(*) from reviews other where other.task_id = r.task_id) = 2
                     or exists (select 1 from tasks t where t.id = r.task_id and t.completed_at <= $2)) as public,
                    r.removed_at is not null as removed
             from reviews r where r.id = $1"
        }
    };
    let hidden_until_completed_before = Timestamp(now.0 - crate::reviews::HIDDEN_FOR.as_millis() as i64);
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
            .bind(report.target_type.as_str())
            .bind(report.target_id)
            .bind(report.author_id)
            .bind(report.reason.as_str())
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
        .bind(target_type.as_str())
        .bind(target_id)
        .fetch_optional(pool)
        .await
    })
}

/// The oldest report on a target, standing for all of them in the queue.
#[derive(Clone, Debug, FromRow)]
pub struct QueueRow {
    pub id: Uuid,
    #[sqlx(try_from = "String")]
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub author_id: Uuid,
    pub snapshot: String,
    pub created_at: Timestamp,
    /// Distinct reporters of the target's reports with this status.
    pub reporters: i64,
}

/// One row per reported target whose reports have `status`, oldest first, after `after`.
#[instrument(skip_all)]
pub async fn queue_page(
    db: &Db,
    status: ReportStatus,
    after: Option<crate::Position>,
    limit: i64,
) -> sqlx::Result<Vec<QueueRow>> {
    let (after_time, after_id) = after.map_or((Timestamp(i64::MIN), Uuid::nil()), |at| (at.created_at, at.id));
    on_pool!(db, |pool| {
        sqlx::query_as::<_, QueueRow>(
            "select r.id, r.target_type, r.target_id, r.author_id, r.snapshot, r.created_at,
                    (select count(distinct o.reporter_id) from reports o
                     where o.target_type = r.target_type and o.target_id = r.target_id and o.status = $1) as reporters
             from reports r
             where r.status = $1
               and not exists (select 1 from reports e
                               where e.target_type = r.target_type and e.target_id = r.target_id and e.status = $1
                                 and (e.created_at < r.created_at or (e.created_at = r.created_at and e.id < r.id)))
               and (r.created_at > $2 or (r.created_at = $2 and r.id > $3))
             order by r.created_at, r.id
             limit $4",
        )
        .bind(status.as_str())
        .bind(after_time)
        .bind(after_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// Everyone who reported the target (in any report, open or resolved).
#[instrument(skip_all)]
pub async fn reporters_of(db: &Db, target_type: TargetType, target_id: Uuid) -> sqlx::Result<Vec<Uuid>> {
    on_pool!(db, |pool| {
        sqlx::query_scalar("select distinct reporter_id from reports where target_type = $1 and target_id = $2")
            .bind(target_type.as_str())
            .bind(target_id)
            .fetch_all(pool)
            .await
    })
}

/// Whether `reporter` ever reported something `author` wrote.
#[instrument(skip_all)]
pub async fn has_reported(db: &Db, reporter: Uuid, author: Uuid) -> sqlx::Result<bool> {
    on_pool!(db, |pool| {
        sqlx::query_scalar("select exists (select 1 from reports where reporter_id = $1 and author_id = $2)")
            .bind(reporter)
            .bind(author)
            .fetch_one(pool)
            .await
    })
}

/// The reasons given in the target's reports with `status`.
#[instrument(skip_all)]
pub async fn reasons_for(
    db: &Db,
    target_type: TargetType,
    target_id: Uuid,
    status: ReportStatus,
) -> sqlx::Result<Vec<ReportReason>> {
    let reasons: Vec<String> = on_pool!(db, |pool| {
        sqlx::query_scalar(
            "select distinct reason from reports where target_type = $1 and target_id = $2 and status = $3
             order by reason",
        )
        .bind(target_type.as_str())
        .bind(target_id)
        .bind(status.as_str())
        .fetch_all(pool)
        .await
    })?;
    Ok(reasons.iter().filter_map(|reason| ReportReason::parse(reason)).collect())
}

/// What an operator weighs about an author.
#[derive(Clone, Debug, FromRow)]
pub struct AuthorFacts {
    pub id: Uuid,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub created_at: Timestamp,
    pub tasks_completed: i64,
    pub open_reports: i64,
    /// Operator actions other than dismissals on the author or on anything of theirs.
    pub actions: i64,
    pub suspended_at: Option<Timestamp>,
    pub suspended_until: Option<Timestamp>,
}

const AUTHOR_FACTS: &str =
    "select u.id, u.email, p.first_name, p.last_name, u.created_at, u.suspended_at, u.suspended_until,
                    (select count(*) from tasks t
                     where (t.poster_id = u.id or t.assigned_tasker_id = u.id) and t.status = 'completed')
                        as tasks_completed,
                    (select count(*) from reports r where r.author_id = u.id and r.status = 'open') as open_reports,
                    (select count(*) from audit_log a
                     where a.action <> 'dismiss'
                       and (a.target_id = u.id
                            or a.target_id in (select r.target_id from reports r where r.author_id = u.id))) as actions
             from users u join profiles p on p.id = u.id";

#[instrument(skip_all)]
pub async fn author_facts(db: &Db, user_id: Uuid) -> sqlx::Result<Option<AuthorFacts>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuthorFacts>(sqlx::AssertSqlSafe(format!("{AUTHOR_FACTS} where u.id = $1")))
            .bind(user_id)
            .fetch_optional(pool)
            .await
    })
}

/// Users whose name or email contains `query` (case-insensitive), newest first, after `before`.
#[instrument(skip_all)]
pub async fn search_users(db: &Db, query: &str, before: Option<Uuid>, limit: i64) -> sqlx::Result<Vec<AuthorFacts>> {
    let pattern = format!("%{}%", query.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    on_pool!(db, |pool| {
        sqlx::query_as::<_, AuthorFacts>(sqlx::AssertSqlSafe(format!(
            "{AUTHOR_FACTS}
             where (lower(u.email) like $1 escape '\\'
                    or lower(p.first_name || ' ' || p.last_name) like $1 escape '\\')
               and ($2 = false or u.id < $3)
             order by u.id desc
             limit $4"
        )))
        .bind(pattern)
        .bind(before.is_some())
        .bind(before.unwrap_or_default())
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}

/// The reports about `user_id`'s content and by them, newest first.
#[instrument(skip_all)]
pub async fn reports_involving(db: &Db, user_id: Uuid, limit: i64) -> sqlx::Result<Vec<ReportRow>> {
    on_pool!(db, |pool| {
        sqlx::query_as::<_, ReportRow>(sqlx::AssertSqlSafe(format!(
            "select {REPORT_COLUMNS} from reports where author_id = $1 or reporter_id = $1
             order by created_at desc, id desc limit $2"
        )))
        .bind(user_id)
        .bind(limit)
        .fetch_all(pool)
        .await
    })
}
