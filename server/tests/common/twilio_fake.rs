//! A fake Twilio Messages API (wiremock) held to Twilio's published OpenAPI description of
//! `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` (the subset in
//! `tests/fixtures/twilio-messages-subset.json`): each request is checked against the operation's
//! path parameter, HTTP basic security scheme and form body schema, and each answer the fake
//! gives against the response schema. Violations fail the test when the fake is dropped.
//!
//! The checker knows the keywords the subset uses (`type`, `properties`, `required`, `enum`,
//! `items`, `nullable`, `pattern`, `minLength`, `maxLength`, `format`); an unknown one fails
//! loudly. As Twilio does, a form parameter the operation does not list is an error. The
//! `phone-number` format is E.164, as Twilio's documentation of `To` and `From` requires.
#![allow(dead_code)]

use std::sync::{Arc, Mutex, OnceLock};

use base64::{Engine, engine::general_purpose::STANDARD};
use serde_json::{Map, Value, json};
use wiremock::{
    Mock, MockServer, Request, Respond, ResponseTemplate,
    matchers::{method, path_regex},
};

const FIXTURE: &str = include_str!("../fixtures/twilio-messages-subset.json");
const KNOWN: [&str; 10] =
    ["type", "properties", "required", "enum", "items", "nullable", "pattern", "minLength", "maxLength", "format"];

fn operation() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    &DOCUMENT.get_or_init(|| serde_json::from_str(FIXTURE).expect("the Twilio OpenAPI fixture is JSON"))["operation"]
}

pub const ACCOUNT_SID: &str = "AC0123456789abcdef0123456789abcdef";
pub const AUTH_TOKEN: &str = "twilio-test-auth-token";
pub const FROM: &str = "+61480000000";

pub struct FakeTwilio {
    pub server: MockServer,
    violations: Arc<Mutex<Vec<String>>>,
}

impl FakeTwilio {
    pub async fn start() -> Self {
        Self { server: MockServer::start().await, violations: Arc::default() }
    }

    pub fn uri(&self) -> String {
        self.server.uri()
    }

    /// Answers every Messages.json POST with `status` and `body` (checked when it is a 201).
    pub async fn answer(&self, status: u16, body: Value) {
        let responder = Checked { status, body, violations: self.violations.clone() };
        Mock::given(method("POST"))
            .and(path_regex(r"^/2010-04-01/Accounts/[^/]+/Messages\.json$"))
            .respond_with(responder)
            .mount(&self.server)
            .await;
    }

    /// The form bodies of the messages asked for, decoded.
    pub async fn messages(&self) -> Vec<Map<String, Value>> {
        let requests = self.server.received_requests().await.expect("request recording is on");
        requests.iter().map(|request| decode_form(&request.body)).collect()
    }

    pub fn violations(&self) -> Vec<String> {
        self.violations.lock().unwrap().clone()
    }
}

impl Drop for FakeTwilio {
    fn drop(&mut self) {
        let violations = self.violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!(
                "the fake Twilio saw what Twilio's OpenAPI description does not allow:\n  {}",
                violations.join("\n  ")
            );
        }
    }
}

struct Checked {
    status: u16,
    body: Value,
    violations: Arc<Mutex<Vec<String>>>,
}

impl Respond for Checked {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let mut found = check_request(request);
        if self.status == operation()["response_status"] {
            found.extend(check_response(&self.body));
        }
        self.violations.lock().unwrap().extend(found);
        ResponseTemplate::new(self.status).set_body_json(&self.body)
    }
}

/// Form fields by name; a repeated name becomes a list.
fn decode_form(body: &[u8]) -> Map<String, Value> {
    let mut fields = Map::new();
    for (key, value) in url::form_urlencoded::parse(body) {
        let value = Value::String(value.into_owned());
        match fields.get_mut(key.as_ref()) {
            Some(Value::Array(items)) => items.push(value),
            Some(first) => *first = Value::Array(vec![first.take(), value]),
            None => {
                fields.insert(key.into_owned(), value);
            }
        }
    }
    fields
}

pub fn check_request(request: &Request) -> Vec<String> {
    let header = |name: &str| request.headers.get(name).and_then(|value| value.to_str().ok());
    check_parts(request.url.path(), header("authorization"), header("content-type"), &request.body)
}

/// A request's path, `Authorization` and `Content-Type` headers and body against the operation.
pub fn check_parts(route: &str, authorization: Option<&str>, content_type: Option<&str>, body: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let sid = route.strip_prefix("/2010-04-01/Accounts/").and_then(|rest| rest.strip_suffix("/Messages.json"));
    match sid {
        Some(sid) => {
            let schema = &operation()["parameters"][0]["schema"];
            check(schema, &Value::String(sid.to_owned()), "path AccountSid", false, &mut found);
        }
        None => found.push(format!("{route}: not the Messages resource")),
    }
    let credentials =
        authorization.and_then(|value| value.strip_prefix("Basic ")).and_then(|encoded| STANDARD.decode(encoded).ok());
    let expected = format!("{}:{AUTH_TOKEN}", sid.unwrap_or(""));
    if credentials.as_deref() != Some(expected.as_bytes()) {
        found
            .push("security accountSid_authToken: HTTP basic auth with the account SID and auth token expected".into());
    }
    if content_type != operation()["request_content_type"].as_str() {
        found.push(format!("content type {content_type:?}, the operation takes a form"));
    }
    let form = Value::Object(decode_form(body));
    check(&operation()["request_schema"], &form, "form", true, &mut found);
    found
}

/// An answer of the operation against its response schema.
pub fn check_response(body: &Value) -> Vec<String> {
    let mut found = Vec::new();
    check(&operation()["response_schema"], body, "response", false, &mut found);
    found
}

fn check(schema: &Value, value: &Value, at: &str, form: bool, found: &mut Vec<String>) {
    let schema = schema.as_object().expect("a schema object");
    for keyword in schema.keys() {
        assert!(KNOWN.contains(&keyword.as_str()), "the checker does not know the keyword {keyword:?}");
    }
    if value.is_null() {
        if schema.get("nullable") != Some(&Value::Bool(true)) {
            found.push(format!("{at}: null is not allowed"));
        }
        return;
    }
    let kind = schema.get("type").and_then(Value::as_str).unwrap_or("");
    match (kind, value) {
        ("object", Value::Object(fields)) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !fields.contains_key(name.as_str().unwrap()) {
                    found.push(format!("{at}: {name} is required"));
                }
            }
            if let Some(properties) = properties {
                for (name, field) in fields {
                    match properties.get(name) {
                        Some(property) => check(property, field, &format!("{at}.{name}"), form, found),
                        None => found.push(format!("{at}: unknown parameter {name}")),
                    }
                }
            }
        }
        ("array", Value::Array(items)) => {
            for (index, item) in items.iter().enumerate() {
                check(&schema["items"], item, &format!("{at}[{index}]"), form, found);
            }
        }
        ("array", single) if form => check(&schema["items"], single, at, form, found),
        ("string", Value::String(text)) => check_string(schema, text, at, found),
        ("integer", Value::Number(number)) if number.is_i64() => {}
        ("integer", Value::String(text)) if form && text.parse::<i64>().is_ok() => {}
        ("number", Value::Number(_)) => {}
        ("number", Value::String(text)) if form && text.parse::<f64>().is_ok() => {}
        ("boolean", Value::Bool(_)) => {}
        ("boolean", Value::String(text)) if form && matches!(text.as_str(), "true" | "false") => {}
        (kind, value) => found.push(format!("{at}: {value} is not of type {kind}")),
    }
    if let (Some(allowed), Some(text)) = (schema.get("enum").and_then(Value::as_array), value.as_str())
        && !allowed.contains(&json!(text))
    {
        found.push(format!("{at}: {text:?} is not one of {allowed:?}"));
    }
}

fn check_string(schema: &Map<String, Value>, text: &str, at: &str, found: &mut Vec<String>) {
    let length = text.chars().count() as u64;
    if schema.get("minLength").and_then(Value::as_u64).is_some_and(|min| length < min) {
        found.push(format!("{at}: {text:?} is shorter than minLength"));
    }
    if schema.get("maxLength").and_then(Value::as_u64).is_some_and(|max| length > max) {
        found.push(format!("{at}: {text:?} is longer than maxLength"));
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && !regex::Regex::new(pattern).unwrap().is_match(text)
    {
        found.push(format!("{at}: {text:?} does not match {pattern}"));
    }
    if schema.get("format").and_then(Value::as_str) == Some("phone-number")
        && !regex::Regex::new(r"^\+[1-9][0-9]{1,14}$").unwrap().is_match(text)
    {
        found.push(format!("{at}: {text:?} is not an E.164 phone number"));
    }
}

/// A Message resource as Twilio answers a create (the example of its description, our values).
pub fn message(to: &str, body: &str) -> Value {
    json!({
        "account_sid": ACCOUNT_SID, "api_version": "2010-04-01", "body": body,
        "date_created": "Thu, 24 Aug 2023 05:01:45 +0000", "date_sent": null, "date_updated": "Thu, 24 Aug 2023 05:01:45 +0000",
        "direction": "outbound-api", "error_code": null, "error_message": null, "from": FROM, "num_media": "0",
        "num_segments": "1", "price": null, "price_unit": "USD", "messaging_service_sid": null,
        "sid": "SM0123456789abcdef0123456789abcdef", "status": "queued",
        "subresource_uris": {"media": format!("/2010-04-01/Accounts/{ACCOUNT_SID}/Messages/SM0123456789abcdef0123456789abcdef/Media.json")},
        "to": to, "uri": format!("/2010-04-01/Accounts/{ACCOUNT_SID}/Messages/SM0123456789abcdef0123456789abcdef.json"),
    })
}

/// Twilio's error body (e.g. 21211, an invalid `To`).
pub fn error(status: u16, code: i64, message: &str) -> Value {
    json!({ "code": code, "message": message, "more_info": format!("https://www.twilio.com/docs/errors/{code}"), "status": status })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic() -> String {
        format!("Basic {}", STANDARD.encode(format!("{ACCOUNT_SID}:{AUTH_TOKEN}")))
    }

    const ROUTE: &str = "/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json";
    const FORM: Option<&str> = Some("application/x-www-form-urlencoded");

    #[test]
    fn a_well_formed_message_request_passes() {
        let found =
            check_parts(ROUTE, Some(&basic()), FORM, b"To=%2B61412345678&From=%2B61480000000&Body=123456+is+your+code");
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn unknown_parameters_missing_to_bad_numbers_auth_and_sids_are_caught() {
        let unknown = check_parts(ROUTE, Some(&basic()), FORM, b"To=%2B61412345678&Text=hi");
        assert!(unknown.iter().any(|found| found.contains("unknown parameter Text")), "{unknown:?}");
        let missing = check_parts(ROUTE, Some(&basic()), FORM, b"Body=hi");
        assert!(missing.iter().any(|found| found.contains("\"To\" is required")), "{missing:?}");
        let national = check_parts(ROUTE, Some(&basic()), FORM, b"To=0412345678");
        assert!(national.iter().any(|found| found.contains("not an E.164")), "{national:?}");
        let anonymous = check_parts(ROUTE, None, FORM, b"To=%2B61412345678");
        assert!(anonymous.iter().any(|found| found.contains("basic auth")), "{anonymous:?}");
        let json = check_parts(ROUTE, Some(&basic()), Some("application/json"), b"To=%2B61412345678");
        assert!(json.iter().any(|found| found.contains("content type")), "{json:?}");
        let bad_sid = check_parts("/2010-04-01/Accounts/123/Messages.json", Some(&basic()), FORM, b"To=%2B61412345678");
        assert!(bad_sid.iter().any(|found| found.contains("path AccountSid")), "{bad_sid:?}");
    }

    #[test]
    fn answers_are_held_to_the_message_schema() {
        assert_eq!(check_response(&message("+61412345678", "hi")), Vec::<String>::new());
        let mut wrong = message("+61412345678", "hi");
        wrong["status"] = json!("lost");
        wrong["num_media"] = json!(0);
        wrong["surprise"] = json!(true);
        let found = check_response(&wrong);
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
