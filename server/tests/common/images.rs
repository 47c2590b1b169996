//! Test pictures built in the test: plain PNGs, and a phone-like JPEG carrying EXIF (with a GPS
//! position and a rotation), XMP and IPTC metadata; and the check that a stored JPEG has none.

use std::io::Cursor;

use reqwest::multipart;
use serde_json::Value;

use super::{Response, TestApp};

/// The GPS position written into `jpeg_with_metadata` (a street in Sydney).
pub const FIXTURE_LATITUDE: [(u32, u32); 3] = [(33, 1), (52, 1), (1234, 100)];
pub const FIXTURE_CITY: &str = "Marrickville";

pub fn png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbImage::from_pixel(width, height, image::Rgb([30, 120, 200]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A 40 × 20 JPEG whose EXIF says "rotate 90° clockwise to show" (so it shows as 20 × 40) and
/// holds a GPS position, plus an XMP packet and an IPTC record naming the suburb.
pub fn jpeg_with_metadata() -> Vec<u8> {
    let image =
        image::RgbImage::from_fn(
            40,
            20,
            |x, _| {
                if x < 20 { image::Rgb([250, 10, 10]) } else { image::Rgb([10, 10, 250]) }
            },
        );
    let mut plain = Cursor::new(Vec::new());
    image.write_to(&mut plain, image::ImageFormat::Jpeg).unwrap();
    let plain = plain.into_inner();
    assert_eq!(&plain[..2], [0xFF, 0xD8], "a JPEG starts with SOI");
    let mut out = plain[..2].to_vec();
    out.extend(segment(0xE1, &[b"Exif\0\0".as_slice(), &exif_tiff()].concat()));
    let xmp = "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF \
               xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description \
               xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSLatitude=\"33,52.2S\" \
               exif:GPSLongitude=\"151,12.5E\"/></rdf:RDF></x:xmpmeta>";
    out.extend(segment(0xE1, xmp.as_bytes()));
    let mut iptc = vec![0x1C, 0x02, 90];
    iptc.extend((FIXTURE_CITY.len() as u16).to_be_bytes());
    iptc.extend(FIXTURE_CITY.as_bytes());
    let mut photoshop = b"Photoshop 3.0\0".to_vec();
    photoshop.extend(b"8BIM");
    photoshop.extend(0x0404u16.to_be_bytes());
    photoshop.extend([0, 0]);
    photoshop.extend((iptc.len() as u32).to_be_bytes());
    photoshop.extend(&iptc);
    if iptc.len() % 2 == 1 {
        photoshop.push(0);
    }
    out.extend(segment(0xED, &photoshop));
    out.extend(&plain[2..]);
    out
}

fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0xFF, marker];
    out.extend(((payload.len() + 2) as u16).to_be_bytes());
    out.extend(payload);
    out
}

/// A little-endian TIFF block: IFD0 with Orientation = 6 and a pointer to the GPS IFD, which
/// holds latitude 33°52'12.34"S and longitude 151°12'34.56"E.
fn exif_tiff() -> Vec<u8> {
    fn entry(tiff: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: [u8; 4]) {
        tiff.extend(tag.to_le_bytes());
        tiff.extend(kind.to_le_bytes());
        tiff.extend(count.to_le_bytes());
        tiff.extend(value);
    }
    const SHORT: u16 = 3;
    const LONG: u16 = 4;
    const ASCII: u16 = 2;
    const RATIONAL: u16 = 5;
    let mut tiff = b"II*\0".to_vec();
    tiff.extend(8u32.to_le_bytes());
    // IFD0 at 8: two entries (2 + 24 bytes) and the next-IFD offset (4): the GPS IFD at 38.
    tiff.extend(2u16.to_le_bytes());
    entry(&mut tiff, 0x0112, SHORT, 1, [6, 0, 0, 0]);
    entry(&mut tiff, 0x8825, LONG, 1, 38u32.to_le_bytes());
    tiff.extend(0u32.to_le_bytes());
    // The GPS IFD at 38: four entries (2 + 48) and the next-IFD offset (4); its values at 92.
    tiff.extend(4u16.to_le_bytes());
    entry(&mut tiff, 0x0001, ASCII, 2, *b"S\0\0\0");
    entry(&mut tiff, 0x0002, RATIONAL, 3, 92u32.to_le_bytes());
    entry(&mut tiff, 0x0003, ASCII, 2, *b"E\0\0\0");
    entry(&mut tiff, 0x0004, RATIONAL, 3, 116u32.to_le_bytes());
    tiff.extend(0u32.to_le_bytes());
    assert_eq!(tiff.len(), 92);
    for (numerator, denominator) in FIXTURE_LATITUDE.into_iter().chain([(151, 1), (12, 1), (3456, 100)]) {
        tiff.extend(numerator.to_le_bytes());
        tiff.extend(denominator.to_le_bytes());
    }
    tiff
}

/// The markers of a JPEG's segments before the image data.
fn segment_markers(jpeg: &[u8]) -> Vec<u8> {
    assert_eq!(&jpeg[..2], [0xFF, 0xD8], "not a JPEG");
    let mut markers = Vec::new();
    let mut at = 2;
    while at + 4 <= jpeg.len() && jpeg[at] == 0xFF {
        let marker = jpeg[at + 1];
        markers.push(marker);
        if marker == 0xDA {
            break;
        }
        at += 2 + u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
    }
    markers
}

/// The EXIF GPS latitude of a JPEG, if it has one (read with kamadak-exif).
pub fn gps_latitude(jpeg: &[u8]) -> Option<Vec<(u32, u32)>> {
    let exif = exif::Reader::new().read_from_container(&mut Cursor::new(jpeg)).ok()?;
    let field = exif.get_field(exif::Tag::GPSLatitude, exif::In::PRIMARY)?;
    match &field.value {
        exif::Value::Rational(values) => Some(values.iter().map(|value| (value.num, value.denom)).collect()),
        _ => None,
    }
}

/// Asserts the fixture really carries what the stored copy must not: the check can fail.
pub fn assert_fixture_has_metadata(jpeg: &[u8]) {
    assert_eq!(gps_latitude(jpeg), Some(FIXTURE_LATITUDE.to_vec()), "the fixture's GPS position reads back");
    let markers = segment_markers(jpeg);
    assert!(markers.contains(&0xE1) && markers.contains(&0xED), "EXIF/XMP and IPTC segments: {markers:x?}");
}

/// Asserts a stored picture is a JPEG with no EXIF, XMP or IPTC: no application segment but the
/// encoder's own JFIF header (APP0), nothing GPS-like anywhere in the bytes.
pub fn assert_no_metadata(jpeg: &[u8]) {
    let markers = segment_markers(jpeg);
    assert!(
        markers.iter().all(|marker| !(0xE1..=0xEF).contains(marker)),
        "application segments (EXIF/XMP/IPTC) survived: {markers:x?}"
    );
    assert_eq!(gps_latitude(jpeg), None);
    for needle in [b"Exif".as_slice(), b"GPS", b"xap/1.0", b"Photoshop", FIXTURE_CITY.as_bytes()] {
        assert!(
            !jpeg.windows(needle.len()).any(|window| window == needle),
            "{:?} survived",
            String::from_utf8_lossy(needle)
        );
    }
}

/// Width and height of an image.
pub fn dimensions(bytes: &[u8]) -> (u32, u32) {
    let image = image::load_from_memory(bytes).expect("an image");
    (image.width(), image.height())
}

/// Sends a multipart form: `file` (when given, named `photo.jpg`) and text fields.
pub async fn upload(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    file: Option<Vec<u8>>,
    text: &[(&str, &str)],
) -> Response {
    let mut form = multipart::Form::new();
    if let Some(bytes) = file {
        form = form.part("file", multipart::Part::bytes(bytes).file_name("photo.jpg"));
    }
    for (name, value) in text {
        form = form.text(name.to_string(), value.to_string());
    }
    let mut request = app.client.post(app.url(path)).multipart(form);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    TestApp::read(request.send().await.expect("request sent")).await
}

/// The bytes at `path` (with `token`, when given), asserting a 200 JPEG.
pub async fn fetch_jpeg(app: &TestApp, path: &str, token: Option<&str>) -> Vec<u8> {
    let mut request = app.client.get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request sent");
    assert_eq!(response.status(), reqwest::StatusCode::OK, "GET {path}");
    assert_eq!(response.headers()["content-type"], "image/jpeg");
    response.bytes().await.unwrap().to_vec()
}

/// The status of GET `path` (with `token`, when given).
pub async fn status_of(app: &TestApp, path: &str, token: Option<&str>) -> reqwest::StatusCode {
    let mut request = app.client.get(app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.expect("request sent").status()
}

pub fn str_of<'a>(value: &'a Value, field: &str) -> &'a str {
    value[field].as_str().unwrap_or_else(|| panic!("no {field} in {value}"))
}
