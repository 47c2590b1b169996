//! A task alert (saved search) as its owner sees it.

use serde::Serialize;
use uuid::Uuid;

use model::alerts::AlertPlace;
use store::{alerts::AlertRow, db::Timestamp};

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct AlertView {
    pub id: Uuid,
    pub name: String,
    pub q: String,
    pub categories: Vec<i64>,
    pub place: Option<AlertPlace>,
    pub radius_km: Option<i64>,
    pub remote_ok: bool,
    pub min_budget_cents: Option<i64>,
    pub paused: bool,
    /// Tasks this alert matched in the last 7 days.
    pub matched_this_week: i64,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl From<AlertRow> for AlertView {
    fn from(row: AlertRow) -> Self {
        let place = match (row.place_label, row.lat, row.lon) {
            (Some(label), Some(lat), Some(lon)) => Some(AlertPlace { label, lat, lon }),
            _ => None,
        };
        Self {
            id: row.id,
            name: row.name,
            q: row.q,
            categories: serde_json::from_str(&row.categories).unwrap_or_default(),
            place,
            radius_km: row.radius_km,
            remote_ok: row.remote_ok,
            min_budget_cents: row.min_budget_cents,
            paused: row.paused,
            matched_this_week: row.matched_recently,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}
