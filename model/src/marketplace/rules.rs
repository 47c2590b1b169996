//! Input rules of spec section 5 (task submission, offer form) with the spec's
//! messages, and the state rules of the task lifecycle.

use serde_json::Value;
use time::{Date, format_description::well_known::Iso8601, macros::format_description};

use crate::{
    gazetteer, geo,
    marketplace::categories,
    refusal::{FieldErrors, Invalid},
};

pub const MIN_BUDGET_CENTS: i64 = 500;
/// A ceiling far above any real task; keeps arithmetic on cents safe.
pub const MAX_BUDGET_CENTS: i64 = 100_000_000;
pub const REQUIRED_FIELDS: &str = "Please fill in all required fields";
pub const INVALID_BUDGET: &str = "Please enter a valid budget amount";
pub const INVALID_OFFER_AMOUNT: &str = "Please enter a valid offer amount";
pub const OFFER_MESSAGE_REQUIRED: &str = "Please add a comment to your offer";
pub const INVALID_PLACE: &str = "Please pick a location from the suggestions";
/// Offers one tasker may make on one task, withdrawn ones included (a re-offer after withdrawing counts).
pub const MAX_OFFERS_PER_TASKER_PER_TASK: i64 = 5;
const MAX_TITLE_CHARS: usize = 120;
const MAX_DESCRIPTION_CHARS: usize = 5000;
const MAX_LOCATION_CHARS: usize = 200;
const MAX_MESSAGE_CHARS: usize = 2000;

/// What a removed task's page and API say to everyone but operators.
pub const TASK_REMOVED: &str = "This task was removed";

/// The task form as sent: numbers may arrive as strings (the wizard's inputs),
/// anything unparseable gets the spec's message rather than a JSON error.
#[derive(Clone, Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(default)]
#[schema(example = json!({
    "title": "Assemble a bookshelf", "description": "One flat-pack bookshelf, tools provided.",
    "category_id": 3, "location": "Newtown NSW", "budget_cents": 8000, "due_date": "2099-12-31"
}))]
pub struct TaskInput {
    #[schema(max_length = 120)]
    pub title: Option<String>,
    #[schema(max_length = 5000)]
    pub description: Option<String>,
    /// 1-16 (`GET /api/categories`).
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 16)]
    pub category_id: Option<Value>,
    #[schema(max_length = 200)]
    pub location: Option<String>,
    /// Cents, at least 500.
    #[schema(value_type = Option<i64>, minimum = 500, maximum = 100_000_000)]
    pub budget_cents: Option<Value>,
    /// `YYYY-MM-DD`, today or later.
    pub due_date: Option<String>,
    /// Coordinates of the place picked from the suggestions (both or neither).
    #[schema(value_type = Option<f64>)]
    pub lat: Option<Value>,
    #[schema(value_type = Option<f64>)]
    pub lon: Option<Value>,
    /// Done remotely (online or by phone): no place.
    pub remote: Option<bool>,
}

/// A task that passed every rule.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskDraft {
    pub title: String,
    pub description: String,
    pub category_id: i64,
    pub location: String,
    pub budget_cents: i64,
    pub due_date: Date,
    /// Where the task happens, when known (never for a remote task).
    pub coordinates: Option<(f64, f64)>,
    pub remote: bool,
}

impl TaskDraft {
    pub fn due_date_text(&self) -> String {
        format_date(self.due_date)
    }
}

pub fn format_date(date: Date) -> String {
    date.format(format_description!("[year]-[month]-[day]")).unwrap_or_default()
}

pub fn parse_date(text: &str) -> Option<Date> {
    let text = text.trim();
    // Accept a bare date, or a full timestamp whose date part is used.
    let date_part = text.get(..10).unwrap_or(text);
    Date::parse(date_part, format_description!("[year]-[month]-[day]"))
        .ok()
        .or_else(|| Date::parse(text, &Iso8601::DEFAULT).ok())
}

/// Whole cents from a JSON number or numeric string; fractions of a cent are refused.
pub fn parse_cents(value: Option<&Value>) -> Option<i64> {
    let number = match value? {
        Value::Number(number) => number.as_f64()?,
        Value::String(text) => text.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    (number.is_finite() && number.fract() == 0.0 && number.abs() < 1e15).then_some(number as i64)
}

fn parse_category(value: Option<&Value>) -> Option<i64> {
    let id = match value? {
        Value::Number(number) => number.as_i64()?,
        Value::String(text) if !text.trim().is_empty() => text.trim().parse().ok()?,
        _ => return None,
    };
    categories::by_id(id).map(|category| category.id)
}

fn blank(value: &Option<String>) -> bool {
    value.as_deref().is_none_or(|text| text.trim().is_empty())
}

/// Checks a whole task form against the spec's rules; `today` is the server's UTC date.
pub fn validate_task(input: &TaskInput, today: Date) -> Result<TaskDraft, Invalid> {
    let mut fields = FieldErrors::new();
    let mut missing = false;
    for (field, empty) in [
        ("title", blank(&input.title)),
        ("description", blank(&input.description)),
        (
            "category_id",
            input
                .category_id
                .as_ref()
                .is_none_or(|value| value.is_null() || value.as_str().is_some_and(|text| text.trim().is_empty())),
        ),
    ] {
        if empty {
            missing = true;
            fields.insert(field.into(), REQUIRED_FIELDS.into());
        }
    }
    let title = input.title.as_deref().unwrap_or("").trim().to_owned();
    let description = input.description.as_deref().unwrap_or("").trim().to_owned();
    let location = input.location.as_deref().unwrap_or("").trim().to_owned();
    let category_id = parse_category(input.category_id.as_ref());
    if category_id.is_none() && !fields.contains_key("category_id") {
        fields.insert("category_id".into(), "Please choose a valid category".into());
    }
    if title.chars().count() > MAX_TITLE_CHARS {
        fields.insert("title".into(), format!("Title must be at most {MAX_TITLE_CHARS} characters"));
    }
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        fields.insert("description".into(), format!("Description must be at most {MAX_DESCRIPTION_CHARS} characters"));
    }
    if location.chars().count() > MAX_LOCATION_CHARS {
        fields.insert("location".into(), format!("Location must be at most {MAX_LOCATION_CHARS} characters"));
    }
    let budget_cents =
        parse_cents(input.budget_cents.as_ref()).filter(|cents| (MIN_BUDGET_CENTS..=MAX_BUDGET_CENTS).contains(cents));
    if budget_cents.is_none() {
        fields.insert("budget_cents".into(), INVALID_BUDGET.into());
    }
    let due_date = match input.due_date.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
        None => {
            fields.insert("due_date".into(), "Please choose a due date".into());
            None
        }
        Some(text) => match parse_date(text) {
            None => {
                fields.insert("due_date".into(), "Please enter a valid date".into());
                None
            }
            Some(date) if date < today => {
                fields.insert("due_date".into(), "The due date cannot be in the past".into());
                None
            }
            Some(date) => Some(date),
        },
    };
    let remote = input.remote.unwrap_or(false);
    let coordinates = match (parse_coordinate(input.lat.as_ref()), parse_coordinate(input.lon.as_ref())) {
        _ if remote => None,
        // Typed rather than picked: the gazetteer's best match for the text, if any.
        (Coordinate::Absent, Coordinate::Absent) => gazetteer::resolve(&location).map(|place| (place.lat, place.lon)),
        (Coordinate::Given(lat), Coordinate::Given(lon)) if geo::valid_coordinates(lat, lon) => Some((lat, lon)),
        _ => {
            fields.insert("location".into(), INVALID_PLACE.into());
            None
        }
    };
    if missing {
        return Err(Invalid { message: REQUIRED_FIELDS.into(), fields });
    }
    Invalid::check(fields)?;
    match (category_id, budget_cents, due_date) {
        (Some(category_id), Some(budget_cents), Some(due_date)) => {
            Ok(TaskDraft { title, description, category_id, location, budget_cents, due_date, coordinates, remote })
        }
        _ => Err(Invalid::summary(REQUIRED_FIELDS)),
    }
}

enum Coordinate {
    Absent,
    Given(f64),
    Invalid,
}

fn parse_coordinate(value: Option<&Value>) -> Coordinate {
    match value {
        None | Some(Value::Null) => Coordinate::Absent,
        Some(Value::Number(number)) => number.as_f64().map_or(Coordinate::Invalid, Coordinate::Given),
        Some(_) => Coordinate::Invalid,
    }
}

/// An offer's amount and message, checked with the offer form's rules.
pub fn validate_offer(amount: Option<&Value>, message: Option<&str>) -> Result<(i64, String), Invalid> {
    let mut fields = FieldErrors::new();
    let amount_cents = parse_cents(amount).filter(|cents| (MIN_BUDGET_CENTS..=MAX_BUDGET_CENTS).contains(cents));
    if amount_cents.is_none() {
        fields.insert("amount_cents".into(), INVALID_OFFER_AMOUNT.into());
    }
    let message = message.unwrap_or("").trim().to_owned();
    if message.is_empty() {
        fields.insert("message".into(), OFFER_MESSAGE_REQUIRED.into());
    } else if message.chars().count() > MAX_MESSAGE_CHARS {
        fields.insert("message".into(), format!("Message must be at most {MAX_MESSAGE_CHARS} characters"));
    }
    Invalid::check(fields)?;
    Ok((amount_cents.unwrap_or_default(), message))
}

/// A required free-text body (question, answer, contact message).
pub fn required_body(field: &str, value: Option<&str>, missing: &str) -> Result<String, Invalid> {
    let body = value.unwrap_or("").trim().to_owned();
    if body.is_empty() {
        return Err(Invalid::field(field, missing));
    }
    if body.chars().count() > MAX_MESSAGE_CHARS {
        return Err(Invalid::field(field, &format!("Must be at most {MAX_MESSAGE_CHARS} characters")));
    }
    Ok(body)
}

/// Budgets in the browse filter are whole or fractional dollars.
pub fn dollars_to_cents(text: &str) -> Option<i64> {
    let dollars: f64 = text.trim().parse().ok()?;
    (dollars.is_finite() && (0.0..1e13).contains(&dollars)).then(|| (dollars * 100.0).round() as i64)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use time::macros::date;

    use super::*;

    const TODAY: Date = date!(2026 - 01 - 10);

    fn input(value: Value) -> TaskInput {
        serde_json::from_value(value).unwrap()
    }

    fn fields(error: Invalid) -> (String, FieldErrors) {
        (error.message, error.fields)
    }

    fn full() -> Value {
        json!({"title": "Fix tap", "description": "Leaking", "category_id": 3, "location": "Newtown",
               "budget_cents": 5000, "due_date": "2026-01-10"})
    }

    #[test]
    fn a_complete_task_passes() {
        let draft = validate_task(&input(full()), TODAY).unwrap();
        assert_eq!(draft.budget_cents, 5000);
        assert_eq!(draft.due_date_text(), "2026-01-10");
    }

    #[test]
    fn missing_title_description_or_category_asks_for_required_fields() {
        for field in ["title", "description", "category_id"] {
            let mut body = full();
            body[field] = json!("  ");
            let (message, fields) = fields(validate_task(&input(body), TODAY).unwrap_err());
            assert_eq!(message, REQUIRED_FIELDS);
            assert_eq!(fields[field], REQUIRED_FIELDS);
        }
    }

    #[test]
    fn budgets_must_be_numbers_of_at_least_five_dollars() {
        for bad in [json!("abc"), json!(499), json!(null), json!(12.5), json!(true)] {
            let mut body = full();
            body["budget_cents"] = bad;
            let (message, _) = fields(validate_task(&input(body), TODAY).unwrap_err());
            assert_eq!(message, INVALID_BUDGET);
        }
        let mut body = full();
        body["budget_cents"] = json!("2500");
        assert_eq!(validate_task(&input(body), TODAY).unwrap().budget_cents, 2500);
    }

    #[test]
    fn due_dates_cannot_be_in_the_past() {
        let mut body = full();
        body["due_date"] = json!("2026-01-09");
        let (_, fields) = fields(validate_task(&input(body), TODAY).unwrap_err());
        assert_eq!(fields["due_date"], "The due date cannot be in the past");
    }

    #[test]
    fn offers_need_an_amount_and_a_comment() {
        assert_eq!(validate_offer(Some(&json!(600)), Some(" hi ")).unwrap(), (600, "hi".into()));
        let (_, fields) = fields(validate_offer(Some(&json!("x")), Some("")).unwrap_err());
        assert_eq!(fields["amount_cents"], INVALID_OFFER_AMOUNT);
        assert_eq!(fields["message"], OFFER_MESSAGE_REQUIRED);
    }

    #[test]
    fn dollars_convert_to_cents() {
        assert_eq!(dollars_to_cents("12.5"), Some(1250));
        assert_eq!(dollars_to_cents("-1"), None);
        assert_eq!(dollars_to_cents("ten"), None);
    }
}
