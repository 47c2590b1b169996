//! Keyset pages of every list (browse, a task's offers and questions, notifications, a person's
//! earnings and receipts, the operators' queues): `?cursor=&limit=`, answered as
//! `{items, next_cursor, has_more}` ([`Page`]). A cursor is opaque to clients: a small JSON value
//! in URL-safe base64 ([`encode_cursor`]).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use uuid::Uuid;

use store::{
    Position,
    browse::{After, BrowseSort, SortKey, Stage},
    db::Timestamp,
};

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 100;

/// A page of a keyset-paginated list.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// Whether there is a next page (`next_cursor` is set).
    pub has_more: bool,
}

impl<T> Page<T> {
    pub fn new(items: Vec<T>, next_cursor: Option<String>) -> Self {
        Self { has_more: next_cursor.is_some(), items, next_cursor }
    }
}

/// A plain list in an envelope (room for paging later).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Items<T> {
    pub items: Vec<T>,
}

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
    pub fn parse(&self) -> Result<(Option<Position>, i64), BadPage> {
        let limit = parse_limit(self.limit.as_deref(), DEFAULT_LIMIT)?;
        let after = match present(self.cursor.as_deref()) {
            None => None,
            Some(text) => {
                let cursor: Cursor = decode_cursor(text)?;
                Some(Position { created_at: Timestamp(cursor.c), id: cursor.i })
            }
        };
        Ok((after, limit))
    }
}

/// A page the API will not read: a `limit` out of range (422 on the field) or a cursor it did
/// not write (400); `http/error_statuses.rs` gives each its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadPage {
    #[error("Limit must be a number from 1 to 100")]
    Limit,
    #[error("The cursor is invalid; start again from the first page")]
    Cursor,
}

fn present(text: Option<&str>) -> Option<&str> {
    text.map(str::trim).filter(|text| !text.is_empty())
}

/// `?limit=`: 1-100, `default` when absent or empty.
pub fn parse_limit(text: Option<&str>, default: i64) -> Result<i64, BadPage> {
    match present(text) {
        None => Ok(default),
        Some(text) => text.parse::<i64>().ok().filter(|limit| (1..=MAX_LIMIT).contains(limit)).ok_or(BadPage::Limit),
    }
}

/// The one cursor encoding: `cursor` as JSON, in URL-safe base64 without padding.
pub fn encode_cursor(cursor: &impl Serialize) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(cursor).unwrap_or_default())
}

/// Reads a cursor [`encode_cursor`] wrote; anything else is a 400.
pub fn decode_cursor<C: DeserializeOwned>(text: &str) -> Result<C, BadPage> {
    let bytes = URL_SAFE_NO_PAD.decode(text.trim()).map_err(|_| BadPage::Cursor)?;
    serde_json::from_slice(&bytes).map_err(|_| BadPage::Cursor)
}

pub fn encode(position: Position) -> String {
    encode_cursor(&Cursor { c: position.created_at.0, i: position.id })
}

/// Cuts `rows` (fetched with `limit + 1`) to the page and says where the next one starts.
pub fn finish<T>(rows: Vec<T>, limit: i64, position: impl Fn(&T) -> Position) -> (Vec<T>, Option<String>) {
    cut(rows, limit, |row| encode(position(row)))
}

/// Cuts `rows` (fetched with `limit + 1`) to the page; `cursor` says where the next page starts
/// after the page's last row.
pub fn cut<T>(mut rows: Vec<T>, limit: i64, cursor: impl Fn(&T) -> String) -> (Vec<T>, Option<String>) {
    if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        let next = rows.last().map(cursor);
        (rows, next)
    } else {
        (rows, None)
    }
}

/// A page of a list ordered by id alone (notifications: ids are time-ordered).
#[derive(Serialize, Deserialize)]
struct IdCursor {
    i: Uuid,
}

/// Where a page of a list ordered by id alone ends.
pub fn encode_id(id: Uuid) -> String {
    encode_cursor(&IdCursor { i: id })
}

/// The id of `?cursor=` ([`encode_id`]), if one was given.
pub fn decode_id(text: Option<&str>) -> Result<Option<Uuid>, BadPage> {
    present(text).map(|text| decode_cursor::<IdCursor>(text).map(|cursor| cursor.i)).transpose()
}

/// Where a page of the browse list ended, opaque to clients: the sort, the last row's key and id,
/// and for Best match the ranked window's floor (`f`) or that the page ended among the older
/// matches (`o`).
#[derive(Serialize, Deserialize)]
struct BrowseCursor {
    s: String,
    k: SortKey,
    i: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    f: Option<(i64, Uuid)>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    o: bool,
}

pub fn encode_browse(sort: BrowseSort, after: &After) -> String {
    let (f, o) = match after.stage {
        Stage::Ranked { floor } => (floor.map(|floor| (floor.created_at.0, floor.id)), false),
        Stage::Older => (None, true),
        Stage::Sorted => (None, false),
    };
    encode_cursor(&BrowseCursor { s: sort.as_str().into(), k: after.key.clone(), i: after.id, f, o })
}

/// A browse cursor is valid only for the sort it was made for (`searching`: the list has words).
pub fn decode_browse(sort: BrowseSort, searching: bool, text: &str) -> Result<After, BadPage> {
    let cursor: BrowseCursor = decode_cursor(text)?;
    let key_fits = matches!(
        (&cursor.k, sort),
        (SortKey::Text(_), BrowseSort::DueSoonest)
            | (
                SortKey::Int(_),
                BrowseSort::Newest | BrowseSort::BudgetAsc | BrowseSort::BudgetDesc | BrowseSort::BestMatch
            )
    );
    if cursor.s != sort.as_str() || !key_fits {
        return Err(BadPage::Cursor);
    }
    let floor = cursor.f.map(|(created_at, id)| Position { created_at: Timestamp(created_at), id });
    let stage = match (sort, searching) {
        (BrowseSort::BestMatch, true) if cursor.o => Stage::Older,
        (BrowseSort::BestMatch, true) => Stage::Ranked { floor },
        _ => Stage::Sorted,
    };
    Ok(After { key: cursor.k, id: cursor.i, stage })
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
        assert_eq!(PageQuery { cursor: Some("!!".into()), limit: None }.parse(), Err(BadPage::Cursor));
        assert_eq!(PageQuery { cursor: None, limit: Some("0".into()) }.parse(), Err(BadPage::Limit));
        assert_eq!(PageQuery { cursor: None, limit: Some("101".into()) }.parse(), Err(BadPage::Limit));
        let (rows, next) = finish(vec![1, 2, 3], 2, |_| position);
        assert_eq!((rows, next.is_some()), (vec![1, 2], true));
        assert_eq!(finish(vec![1, 2], 2, |_| position).1, None);
    }

    #[test]
    fn browse_cursors_keep_their_bytes_and_fit_only_their_sort() {
        let id = Uuid::now_v7();
        let after = After { key: SortKey::Int(5), id, stage: Stage::Sorted };
        let written = URL_SAFE_NO_PAD.encode(format!(r#"{{"s":"newest","k":5,"i":"{id}"}}"#));
        assert_eq!(encode_browse(BrowseSort::Newest, &after), written);
        assert_eq!(decode_browse(BrowseSort::Newest, false, &written).unwrap(), after);
        assert!(decode_browse(BrowseSort::DueSoonest, false, &written).is_err());

        let floor = Position { created_at: Timestamp(1_700_000_000_000), id };
        let ranked = After { key: SortKey::Int(9), id, stage: Stage::Ranked { floor: Some(floor) } };
        let text = encode_browse(BrowseSort::BestMatch, &ranked);
        assert_eq!(decode_browse(BrowseSort::BestMatch, true, &text).unwrap(), ranked);
        let older = After { stage: Stage::Older, ..ranked };
        assert_eq!(
            decode_browse(BrowseSort::BestMatch, true, &encode_browse(BrowseSort::BestMatch, &older)).unwrap(),
            older
        );
    }

    #[test]
    fn id_cursors_round_trip() {
        let id = Uuid::now_v7();
        assert_eq!(decode_id(Some(&encode_id(id))).unwrap(), Some(id));
        assert_eq!(decode_id(Some(" ")).unwrap(), None);
        assert!(decode_id(Some("!!")).is_err());
        assert_eq!(parse_limit(None, 20).unwrap(), 20);
        assert!(parse_limit(Some("101"), 20).is_err());
    }
}
