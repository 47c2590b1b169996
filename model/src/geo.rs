//! Distances on the Earth and the coarse grid that indexes alerts by place.

const EARTH_RADIUS_KM: f64 = 6371.0088;
/// Grid cells are this many degrees on a side (about 55 km north-south): in
/// Australia a 100 km circle overlaps at most 5 × 6 cells, a 10 km one 1 to 4.
const CELL_DEGREES: f64 = 0.5;
const CELLS_PER_ROW: i64 = (360.0 / CELL_DEGREES) as i64;

pub fn valid_coordinates(lat: f64, lon: f64) -> bool {
    lat.is_finite() && lon.is_finite() && (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon)
}

/// Great-circle distance (haversine).
pub fn distance_km(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let (phi1, phi2) = (lat1.to_radians(), lat2.to_radians());
    let d_phi = (lat2 - lat1).to_radians();
    let d_lambda = (lon2 - lon1).to_radians();
    let a = (d_phi / 2.0).sin().powi(2) + phi1.cos() * phi2.cos() * (d_lambda / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().asin()
}

fn row_col(lat: f64, lon: f64) -> (i64, i64) {
    (((lat + 90.0) / CELL_DEGREES).floor() as i64, ((lon + 180.0) / CELL_DEGREES).floor() as i64)
}

/// The grid cell a point lies in (always ≥ 0).
pub fn cell_of(lat: f64, lon: f64) -> i64 {
    let (row, col) = row_col(lat, lon);
    row * CELLS_PER_ROW + col.rem_euclid(CELLS_PER_ROW)
}

/// The cell a point lies in and the eight around it: every point within about
/// one cell (0.5°, 55 km north-south) of it lies in one of them.
pub fn cell_and_neighbours(lat: f64, lon: f64) -> Vec<i64> {
    let (row, col) = row_col(lat, lon);
    let mut cells = Vec::with_capacity(9);
    for row in row - 1..=row + 1 {
        for col in col - 1..=col + 1 {
            cells.push(row * CELLS_PER_ROW + col.rem_euclid(CELLS_PER_ROW));
        }
    }
    cells
}

/// A latitude/longitude box that contains every point within `radius_km` of the centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingBox {
    pub min_lat: f64,
    pub max_lat: f64,
    pub min_lon: f64,
    pub max_lon: f64,
}

pub fn bounding_box(lat: f64, lon: f64, radius_km: f64) -> BoundingBox {
    let d_lat = (radius_km / EARTH_RADIUS_KM).to_degrees();
    // Widest at the latitude nearest the pole; clamp so the box never degenerates.
    let widest = (lat.abs() + d_lat).min(89.0).to_radians();
    let d_lon = (radius_km / (EARTH_RADIUS_KM * widest.cos())).to_degrees();
    BoundingBox { min_lat: lat - d_lat, max_lat: lat + d_lat, min_lon: lon - d_lon, max_lon: lon + d_lon }
}

/// Every grid cell that overlaps the circle's bounding box (a superset of the cells it touches).
pub fn cells_within(lat: f64, lon: f64, radius_km: f64) -> Vec<i64> {
    let bbox = bounding_box(lat, lon, radius_km);
    let (row_min, col_min) = row_col(bbox.min_lat.max(-90.0), bbox.min_lon);
    let (row_max, col_max) = row_col(bbox.max_lat.min(89.999), bbox.max_lon);
    let mut cells = Vec::new();
    for row in row_min..=row_max {
        for col in col_min..=col_max {
            cells.push(row * CELLS_PER_ROW + col.rem_euclid(CELLS_PER_ROW));
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEWTOWN: (f64, f64) = (-33.89781, 151.17850);
    const PENRITH: (f64, f64) = (-33.75, 150.69);

    #[test]
    fn newtown_to_penrith_is_about_48_km() {
        let km = distance_km(NEWTOWN.0, NEWTOWN.1, PENRITH.0, PENRITH.1);
        assert!((47.0..49.0).contains(&km), "{km}");
    }

    #[test]
    fn the_cells_of_a_circle_include_the_cell_of_every_point_inside_it() {
        let cells = cells_within(NEWTOWN.0, NEWTOWN.1, 60.0);
        assert!(cells.contains(&cell_of(NEWTOWN.0, NEWTOWN.1)));
        assert!(cells.contains(&cell_of(PENRITH.0, PENRITH.1)));
        assert!(cells.len() <= 16, "{}", cells.len());
        assert!(
            cells_within(NEWTOWN.0, NEWTOWN.1, 100.0).len() <= 30,
            "a 100 km circle spans at most 5 × 6 cells in Australia"
        );
    }

    #[test]
    fn the_bounding_box_contains_the_circle() {
        let bbox = bounding_box(NEWTOWN.0, NEWTOWN.1, 50.0);
        assert!(bbox.min_lon < PENRITH.1 && PENRITH.1 < bbox.max_lon);
        assert!(distance_km(NEWTOWN.0, NEWTOWN.1, bbox.max_lat, NEWTOWN.1) >= 49.9);
    }
}
