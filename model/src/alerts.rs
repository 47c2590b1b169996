//! Task alerts: a tasker's saved searches (keywords, categories, a place
//! with a radius or "remote ok", a minimum budget), the rules an alert must
//! satisfy, how it is indexed for matching, and whether a task matches it.
//! Matching itself runs after commit, off the request path (the server's `alerts::matching`).
//!
//! Where an alert looks: with a place, tasks within `radius_km` of it (and
//! remote tasks when `remote_ok`); without a place, tasks anywhere (and remote
//! tasks when `remote_ok`). A task whose place is unknown matches only alerts
//! without a place.

use serde::{Deserialize, Serialize};

use crate::{
    gazetteer, geo,
    marketplace::{categories, rules::MAX_BUDGET_CENTS},
    refusal::{FieldErrors, Invalid},
};

pub const MAX_ALERTS_PER_USER: i64 = 20;
pub const TOO_MANY_ALERTS: &str = "You can save up to 20 alerts. Delete one to add another.";
pub const DEFAULT_RADIUS_KM: i64 = 10;
pub const MAX_RADIUS_KM: i64 = 100;
const MAX_NAME_CHARS: usize = 80;
const MAX_KEYWORDS_CHARS: usize = 200;
const MAX_LABEL_CHARS: usize = 200;

/// The most grid cells an alert's circle may cover: what a 100 km circle needs
/// at worst anywhere in the service area (5 rows × 8 columns at Macquarie
/// Island, 54.6° S, where the cells are narrowest; 5 × 7 in Tasmania). Places
/// outside the service area are refused before this; it bounds the index
/// rows one alert writes (a 100 km circle near a pole covers 416 cells).
pub const MAX_CELLS_PER_ALERT: usize = 40;
pub const OUTSIDE_SERVICE_AREA: &str = "Please pick a place in Australia";

/// Index cell meaning "any place" (alerts without a place).
pub const ANY_PLACE_CELL: i64 = -1;
/// Index cell meaning "remote tasks" (alerts with `remote_ok`).
pub const REMOTE_CELL: i64 = -2;
/// Index category meaning "any category" (alerts without categories).
pub const ANY_CATEGORY: i64 = 0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct AlertPlace {
    /// The short place name shown to the user ("Newtown NSW 2042").
    pub label: String,
    pub lat: f64,
    pub lon: f64,
}

/// An alert as sent by the client (POST, and PATCH merged over the stored alert).
#[derive(Clone, Debug, Default, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(default)]
pub struct AlertInput {
    pub name: Option<String>,
    /// Keywords: a task matches when its title or description contains any comma-separated phrase.
    pub q: Option<String>,
    /// Category ids; empty means any category.
    pub categories: Vec<i64>,
    pub place: Option<AlertPlace>,
    /// 1-100, default 10; only with a place.
    pub radius_km: Option<i64>,
    pub remote_ok: bool,
    pub min_budget_cents: Option<i64>,
    pub paused: bool,
}

/// An alert that passed every rule.
#[derive(Clone, Debug, PartialEq)]
pub struct AlertDraft {
    pub name: String,
    pub q: String,
    pub categories: Vec<i64>,
    pub place: Option<AlertPlace>,
    pub radius_km: Option<i64>,
    pub remote_ok: bool,
    pub min_budget_cents: Option<i64>,
    pub paused: bool,
}

pub fn validate(input: &AlertInput) -> Result<AlertDraft, Invalid> {
    let mut fields = FieldErrors::new();
    let q = input.q.as_deref().unwrap_or("").trim().to_owned();
    if q.chars().count() > MAX_KEYWORDS_CHARS {
        fields.insert("q".into(), format!("Keywords must be at most {MAX_KEYWORDS_CHARS} characters"));
    }
    let mut categories = input.categories.clone();
    categories.sort_unstable();
    categories.dedup();
    if categories.iter().any(|id| categories::by_id(*id).is_none()) {
        fields.insert("categories".into(), "Please choose valid categories".into());
    }
    let place = input.place.clone().map(|place| AlertPlace { label: place.label.trim().to_owned(), ..place });
    if let Some(place) = &place
        && (!geo::valid_coordinates(place.lat, place.lon)
            || place.label.is_empty()
            || place.label.chars().count() > MAX_LABEL_CHARS)
    {
        fields.insert("place".into(), "Please pick a place from the suggestions".into());
    }
    if let Some(place) = &place
        && !fields.contains_key("place")
        && !gazetteer::in_service_area(place.lat, place.lon)
    {
        fields.insert("place".into(), OUTSIDE_SERVICE_AREA.into());
    }
    let radius_km = match (&place, input.radius_km) {
        (None, _) => None,
        (Some(_), None) => Some(DEFAULT_RADIUS_KM),
        (Some(_), Some(radius)) if (1..=MAX_RADIUS_KM).contains(&radius) => Some(radius),
        (Some(_), Some(_)) => {
            fields.insert("radius_km".into(), format!("Radius must be from 1 to {MAX_RADIUS_KM} km"));
            None
        }
    };
    if let (Some(place), Some(radius)) = (&place, radius_km)
        && !fields.contains_key("place")
        && geo::cells_within(place.lat, place.lon, radius as f64).len() > MAX_CELLS_PER_ALERT
    {
        fields.insert("radius_km".into(), "Please choose a smaller radius for this place".into());
    }
    if let Some(cents) = input.min_budget_cents
        && !(0..=MAX_BUDGET_CENTS).contains(&cents)
    {
        fields.insert("min_budget_cents".into(), "Please enter a valid budget amount".into());
    }
    let name = input.name.as_deref().unwrap_or("").trim().to_owned();
    if name.chars().count() > MAX_NAME_CHARS {
        fields.insert("name".into(), format!("Name must be at most {MAX_NAME_CHARS} characters"));
    }
    if q.is_empty() && categories.is_empty() && place.is_none() && !input.remote_ok {
        return Err(Invalid::summary("Add keywords, a category or a place to your alert"));
    }
    Invalid::check(fields)?;
    let name = if name.is_empty() { default_name(&q, &categories, place.as_ref()) } else { name };
    Ok(AlertDraft {
        name,
        q,
        categories,
        place,
        radius_km,
        remote_ok: input.remote_ok,
        min_budget_cents: input.min_budget_cents.filter(|cents| *cents > 0),
        paused: input.paused,
    })
}

/// "Plumbing near Newtown NSW 2042", from what the alert looks for.
fn default_name(q: &str, categories: &[i64], place: Option<&AlertPlace>) -> String {
    let what = if !q.is_empty() {
        q.to_owned()
    } else {
        match categories {
            [] => "Tasks".to_owned(),
            [only] => categories::label(*only).0.to_owned(),
            [first, rest @ ..] => format!("{} and {} more", categories::label(*first).0, rest.len()),
        }
    };
    let name = match place {
        Some(place) => format!("{what} near {}", place.label),
        None => what,
    };
    name.chars().take(MAX_NAME_CHARS).collect()
}

/// The (category, cell) keys under which matching finds this alert.
pub fn index_keys(draft: &AlertDraft) -> Vec<(i64, i64)> {
    let mut cells = match (&draft.place, draft.radius_km) {
        (Some(place), Some(radius)) => geo::cells_within(place.lat, place.lon, radius as f64),
        _ => vec![ANY_PLACE_CELL],
    };
    if draft.remote_ok {
        cells.push(REMOTE_CELL);
    }
    // Every category is no category: one row per cell instead of sixteen.
    let categories = if draft.categories.is_empty() || draft.categories.len() == categories::CATEGORIES.len() {
        vec![ANY_CATEGORY]
    } else {
        draft.categories.clone()
    };
    categories.iter().flat_map(|category| cells.iter().map(move |cell| (*category, *cell))).collect()
}

/// The cells a task is found under: remote tasks under [`REMOTE_CELL`]; others under their own
/// cell (when their place is known) and [`ANY_PLACE_CELL`].
pub fn task_cells(remote: bool, coordinates: Option<(f64, f64)>) -> [i64; 2] {
    match (remote, coordinates) {
        (true, _) => [REMOTE_CELL, REMOTE_CELL],
        (false, Some((lat, lon))) => [geo::cell_of(lat, lon), ANY_PLACE_CELL],
        (false, None) => [ANY_PLACE_CELL, ANY_PLACE_CELL],
    }
}

/// What the candidate query leaves to check: keywords and the exact distance.
pub fn keywords_match(q: &str, search_text: &str) -> bool {
    let phrases: Vec<String> =
        q.split(',').map(|phrase| phrase.trim().to_lowercase()).filter(|phrase| !phrase.is_empty()).collect();
    phrases.is_empty() || phrases.iter().any(|phrase| search_text.contains(phrase.as_str()))
}

pub fn within_radius(alert: Option<(f64, f64, i64)>, task: Option<(f64, f64)>, remote: bool) -> bool {
    match (alert, task) {
        _ if remote => true,
        (None, _) => true,
        (Some((lat, lon, radius_km)), Some((task_lat, task_lon))) => {
            geo::distance_km(lat, lon, task_lat, task_lon) <= radius_km as f64
        }
        (Some(_), None) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn newtown() -> AlertPlace {
        AlertPlace { label: "Newtown NSW 2042".into(), lat: -33.89781, lon: 151.17850 }
    }

    #[test]
    fn an_alert_needs_something_to_look_for() {
        assert!(validate(&AlertInput::default()).is_err());
        assert!(validate(&AlertInput { remote_ok: true, ..Default::default() }).is_ok());
    }

    #[test]
    fn a_place_gets_the_default_radius_and_a_name() {
        let draft =
            validate(&AlertInput { categories: vec![1], place: Some(newtown()), ..Default::default() }).unwrap();
        assert_eq!(draft.radius_km, Some(DEFAULT_RADIUS_KM));
        assert!(draft.name.ends_with("near Newtown NSW 2042"), "{}", draft.name);
    }

    #[test]
    fn bad_radius_categories_and_coordinates_are_refused() {
        let place = Some(newtown());
        let too_far = AlertInput { place: place.clone(), radius_km: Some(101), ..Default::default() };
        assert!(validate(&too_far).is_err());
        assert!(validate(&AlertInput { categories: vec![17], ..Default::default() }).is_err());
        let nowhere = AlertPlace { lat: 91.0, ..newtown() };
        assert!(validate(&AlertInput { place: Some(nowhere), ..Default::default() }).is_err());
    }

    #[test]
    fn keys_cover_each_category_and_cell_plus_remote() {
        let draft = validate(&AlertInput {
            categories: vec![1, 2],
            place: Some(newtown()),
            remote_ok: true,
            ..Default::default()
        })
        .unwrap();
        let keys = index_keys(&draft);
        let own_cell = geo::cell_of(newtown().lat, newtown().lon);
        assert!(keys.contains(&(1, own_cell)) && keys.contains(&(2, own_cell)));
        assert!(keys.contains(&(1, REMOTE_CELL)) && !keys.iter().any(|(_, cell)| *cell == ANY_PLACE_CELL));
    }

    #[test]
    fn places_outside_the_service_area_are_refused() {
        let pole = AlertPlace { label: "North Pole".into(), lat: 89.9, lon: 0.0 };
        let all: Vec<i64> = (1..=16).collect();
        let input = AlertInput { categories: all, place: Some(pole), radius_km: Some(100), ..Default::default() };
        let Err(Invalid { fields, .. }) = validate(&input) else { panic!("the pole alert was accepted") };
        assert_eq!(fields.get("place").map(String::as_str), Some(OUTSIDE_SERVICE_AREA));
    }

    #[test]
    fn no_alert_in_the_service_area_covers_more_than_the_cap() {
        let widest = gazetteer::localities()
            .iter()
            .filter(|locality| gazetteer::in_service_area(locality.lat, locality.lon))
            .map(|locality| geo::cells_within(locality.lat, locality.lon, MAX_RADIUS_KM as f64).len())
            .max()
            .unwrap();
        assert!(widest <= MAX_CELLS_PER_ALERT, "{widest}");
        assert!(widest >= MAX_CELLS_PER_ALERT - 5, "the cap is far above what any place needs: {widest}");
    }

    #[test]
    fn every_category_is_indexed_as_any_category() {
        let all: Vec<i64> = (1..=16).collect();
        let draft = validate(&AlertInput { categories: all, place: Some(newtown()), ..Default::default() }).unwrap();
        let keys = index_keys(&draft);
        assert!(keys.iter().all(|(category, _)| *category == ANY_CATEGORY), "{keys:?}");
        assert_eq!(draft.categories.len(), 16, "the alert still shows what was chosen");
    }

    #[test]
    fn any_keyword_phrase_matches() {
        assert!(keywords_match("tap, leaking pipe", "fix a leaking pipe under the sink"));
        assert!(!keywords_match("tap, gutter", "assemble wardrobes"));
        assert!(keywords_match("", "anything"));
    }
}
