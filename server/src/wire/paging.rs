//! Keyset pages of lists (a task's offers and questions, a person's earnings and receipts):
//! `?cursor=&limit=`, answered as `{items, next_cursor, has_more}`.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{db::Timestamp, error::ApiError, store::Position};

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 100;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(default)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// 1-100, default 50.
    pub limit: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Cursor {
    c: i64,
    i: Uuid,
}

impl PageQuery {
    /// Where to start (after the cursor's item) and how many to answer.
    pub fn parse(&self) -> Result<(Option<Position>, i64), ApiError> {
        let limit = match self.limit.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            None => DEFAULT_LIMIT,
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|limit| (1..=MAX_LIMIT).contains(limit))
                .ok_or_else(|| ApiError::field("limit", "Limit must be a number from 1 to 100"))?,
        };
        let after = match self.cursor.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            None => None,
            Some(text) => Some(decode(text)?),
        };
        Ok((after, limit))
    }
}

fn decode(text: &str) -> Result<Position, ApiError> {
    let invalid = || ApiError::BadRequest("The cursor is invalid; start again from the first page".into());
    let bytes = URL_SAFE_NO_PAD.decode(text).map_err(|_| invalid())?;
    let cursor: Cursor = serde_json::from_slice(&bytes).map_err(|_| invalid())?;
    Ok(Position { created_at: Timestamp(cursor.c), id: cursor.i })
}

pub fn encode(position: Position) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(&Cursor { c: position.created_at.0, i: position.id }).unwrap_or_default())
}

/// Cuts `rows` (fetched with `limit + 1`) to the page and says where the next one starts.
pub fn finish<T>(mut rows: Vec<T>, limit: i64, position: impl Fn(&T) -> Position) -> (Vec<T>, Option<String>) {
    if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        let next = rows.last().map(|row| encode(position(row)));
        (rows, next)
    } else {
        (rows, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_junk_is_a_bad_request() {
        let position = Position { created_at: Timestamp(1_700_000_000_000), id: Uuid::now_v7() };
        let query = PageQuery { cursor: Some(encode(position)), limit: Some("7".into()) };
        let (after, limit) = query.parse().unwrap();
        assert_eq!(after, Some(position));
        assert_eq!(limit, 7);
        assert!(PageQuery { cursor: Some("!!".into()), limit: None }.parse().is_err());
        assert!(PageQuery { cursor: None, limit: Some("0".into()) }.parse().is_err());
        assert!(PageQuery { cursor: None, limit: Some("101".into()) }.parse().is_err());
        let (rows, next) = finish(vec![1, 2, 3], 2, |_| position);
        assert_eq!((rows, next.is_some()), (vec![1, 2], true));
        assert_eq!(finish(vec![1, 2], 2, |_| position).1, None);
    }
}
