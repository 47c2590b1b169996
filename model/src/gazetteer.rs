//! The offline Australian gazetteer: every suburb/locality with its postcode
//! and coordinates, embedded in the binary (`model/data/au-places.csv.gz`,
//! source and licence in `model/data/NOTICE.md`) and read once at start-up.
//! It answers location suggestions when no `GEOCODER_URL` is set and resolves
//! a task's typed location to coordinates.

use std::{collections::HashSet, io::Read, sync::LazyLock};

use serde::Serialize;

use crate::geo;

/// A place a location field may name: what it is called and where it is.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Place {
    pub display_name: String,
    pub lat: f64,
    pub lon: f64,
}

const DATA: &[u8] = include_bytes!("../data/au-places.csv.gz");
const RESULTS: usize = 5;
const STATES: [&str; 8] = ["act", "nsw", "nt", "qld", "sa", "tas", "vic", "wa"];

#[derive(Clone, Debug)]
pub struct Locality {
    pub name: String,
    pub state: String,
    pub postcode: String,
    pub lat: f64,
    pub lon: f64,
    /// ABS remoteness class: 0 major city … 4 very remote (9 unknown); ranks equal names.
    pub remoteness: u8,
    name_lower: String,
}

impl Locality {
    /// "Newtown NSW 2042".
    pub fn display_name(&self) -> String {
        format!("{} {} {}", self.name, self.state, self.postcode)
    }

    pub fn place(&self) -> Place {
        Place { display_name: self.display_name(), lat: self.lat, lon: self.lon }
    }
}

static LOCALITIES: LazyLock<Vec<Locality>> = LazyLock::new(|| parse(DATA));

/// Australia with its external territories (Christmas and Cocos Islands in the
/// west, Norfolk and Lord Howe Islands in the east, Macquarie Island in the
/// south). A few rows of the source data are geocoded to namesakes overseas
/// (a "Birdlip NSW" in England); this keeps them out of the service area.
const COUNTRY_LAT: std::ops::RangeInclusive<f64> = -55.0..=-9.0;
const COUNTRY_LON: std::ops::RangeInclusive<f64> = 96.0..=169.0;

/// The grid cells that hold a locality of the country.
static SERVICE_CELLS: LazyLock<HashSet<i64>> = LazyLock::new(|| {
    LOCALITIES
        .iter()
        .filter(|locality| COUNTRY_LAT.contains(&locality.lat) && COUNTRY_LON.contains(&locality.lon))
        .map(|locality| geo::cell_of(locality.lat, locality.lon))
        .collect()
});

/// Whether a point is where we serve: within about one grid cell (55 km) of
/// one of the country's localities, so the coast, the islands and the outback
/// towns count, the open ocean, the poles and other countries do not.
pub fn in_service_area(lat: f64, lon: f64) -> bool {
    geo::valid_coordinates(lat, lon)
        && geo::cell_and_neighbours(lat, lon).iter().any(|cell| SERVICE_CELLS.contains(cell))
}

/// Every locality (for benchmarks and seeds that need real places).
pub fn localities() -> &'static [Locality] {
    &LOCALITIES
}

/// Reads the embedded data now rather than on the first request.
pub fn load() -> usize {
    LOCALITIES.len()
}

fn parse(gzipped: &[u8]) -> Vec<Locality> {
    let mut text = String::new();
    if let Err(error) = flate2::read::GzDecoder::new(gzipped).read_to_string(&mut text) {
        tracing::error!(?error, "the embedded gazetteer is unreadable");
        return Vec::new();
    }
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(',');
            let (name, state, postcode) = (fields.next()?, fields.next()?, fields.next()?);
            let lat = fields.next()?.parse().ok()?;
            let lon = fields.next()?.parse().ok()?;
            let remoteness = fields.next()?.parse().ok()?;
            Some(Locality {
                name: name.to_owned(),
                state: state.to_owned(),
                postcode: postcode.to_owned(),
                lat,
                lon,
                remoteness,
                name_lower: name.to_lowercase(),
            })
        })
        .collect()
}

/// What a query asks for: a name (prefix), and maybe a state and a postcode (prefix).
#[derive(Debug, Default, PartialEq)]
struct Query {
    name: String,
    state: Option<String>,
    postcode: Option<String>,
}

fn parse_query(text: &str) -> Query {
    let mut query = Query::default();
    let mut words = Vec::new();
    for word in text.to_lowercase().replace([',', '.'], " ").split_whitespace() {
        if word.chars().all(|c| c.is_ascii_digit()) && word.len() <= 4 {
            query.postcode = Some(word.to_owned());
        } else if !words.is_empty() && STATES.contains(&word) {
            query.state = Some(word.to_owned());
        } else if word != "australia" {
            words.push(word.to_owned());
        }
    }
    query.name = words.join(" ");
    query
}

fn matches(locality: &Locality, query: &Query, exact_name: bool) -> bool {
    let name_ok =
        if exact_name { locality.name_lower == query.name } else { locality.name_lower.starts_with(&query.name) };
    name_ok
        && query.state.as_ref().is_none_or(|state| locality.state.eq_ignore_ascii_case(state))
        && query.postcode.as_ref().is_none_or(|postcode| locality.postcode.starts_with(postcode.as_str()))
}

/// Exact names before longer ones, cities before the bush, then alphabetical.
fn rank(localities: &mut [&Locality], query: &Query) {
    localities.sort_by(|a, b| {
        (a.name_lower != query.name, a.remoteness, a.name.len(), &a.name, &a.state, &a.postcode).cmp(&(
            b.name_lower != query.name,
            b.remoteness,
            b.name.len(),
            &b.name,
            &b.state,
            &b.postcode,
        ))
    });
}

/// Up to 5 suggestions: suburb name prefix (optionally followed by a state
/// and postcode) or a postcode prefix.
pub fn suggest(text: &str) -> Vec<Place> {
    let query = parse_query(text);
    if query.name.is_empty() && query.postcode.is_none() {
        return Vec::new();
    }
    let mut found: Vec<&Locality> = LOCALITIES.iter().filter(|locality| matches(locality, &query, false)).collect();
    rank(&mut found, &query);
    found.into_iter().take(RESULTS).map(Locality::place).collect()
}

/// The best locality whose name is exactly the text's name part ("Newtown",
/// "Newtown NSW", "Newtown NSW 2042"), for a location typed without picking.
pub fn resolve(text: &str) -> Option<Place> {
    let query = parse_query(text);
    if query.name.is_empty() {
        return None;
    }
    let mut found: Vec<&Locality> = LOCALITIES.iter().filter(|locality| matches(locality, &query, true)).collect();
    rank(&mut found, &query);
    found.first().map(|locality| locality.place())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_area_is_australia_and_its_islands() {
        for (lat, lon) in
            [(-33.89781, 151.17850), (-42.88, 147.33), (-12.46, 130.84), (-54.62, 158.86), (-29.03, 167.95)]
        {
            assert!(in_service_area(lat, lon), "{lat}, {lon}");
        }
        // The North Pole, the South Pole, England (where a misplaced row of the data points), mid-Pacific.
        for (lat, lon) in [(89.9, 0.0), (-89.9, 0.0), (51.82707, -2.10626), (-20.0, -140.0), (91.0, 0.0)] {
            assert!(!in_service_area(lat, lon), "{lat}, {lon}");
        }
    }

    #[test]
    fn suburb_prefix_suggests_short_names_cities_first() {
        let places = suggest("newt");
        assert_eq!(places.len(), 5);
        assert_eq!(places[0].display_name, "Newton SA 5074");
        let places = suggest("newtown");
        assert_eq!(places[0].display_name, "Newtown NSW 2042");
        assert!((places[0].lat + 33.898).abs() < 0.01 && (places[0].lon - 151.178).abs() < 0.01);
    }

    #[test]
    fn postcode_and_state_narrow_the_suggestions() {
        assert_eq!(suggest("2042")[0].display_name, "Enmore NSW 2042");
        assert_eq!(suggest("Newtown VIC")[0].display_name, "Newtown VIC 3220");
        assert_eq!(suggest("Newtown NSW 2042").len(), 1);
    }

    #[test]
    fn a_typed_location_resolves_to_the_best_exact_name() {
        assert_eq!(resolve("Newtown").map(|place| place.display_name), Some("Newtown NSW 2042".into()));
        assert_eq!(resolve("newtown, qld 4350").map(|place| place.display_name), Some("Newtown QLD 4350".into()));
        assert_eq!(resolve("Penrith NSW").map(|place| place.display_name), Some("Penrith NSW 2750".into()));
        assert_eq!(resolve("Remote"), None);
        assert_eq!(resolve("Newt"), None);
    }
}
