//! Stripe's own OpenAPI description (the subset in `tests/fixtures/`) as a test
//! oracle, so the fake Stripe cannot drift into our private reading of Stripe:
//! [`check_request`] decodes a form-encoded request (bracket notation) and
//! checks it against its operation's parameters; [`check_response`] and
//! [`check_event`] check what the fake answers or delivers.
//!
//! The validator knows the OpenAPI 3.0 keywords the subset uses: `type`,
//! `properties`, `required`, `enum`, `items`, `anyOf`, `nullable`, `$ref`,
//! `additionalProperties`, `maxLength` (and ignores `format`); any other
//! keyword fails loudly so a regenerated fixture cannot be half-checked. As
//! Stripe does, an object that lists its `properties` is closed (an unknown
//! name is an error: Stripe answers "Received unknown parameter"), and form
//! values, all strings on the wire, are read as integers or booleans where
//! the schema asks for them.
#![allow(dead_code)]

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

const FIXTURE: &str = include_str!("../fixtures/stripe-openapi-subset.json");

fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| serde_json::from_str(FIXTURE).expect("the Stripe OpenAPI fixture is JSON"))
}

/// Stripe's form encoding (`a[b][0][c]=v`, `list[]=v`) → nested JSON whose leaves are strings.
pub fn decode_form(encoded: &str) -> Result<Value, String> {
    let mut root = Value::Object(Map::new());
    for (key, value) in url::form_urlencoded::parse(encoded.as_bytes()) {
        let (name, rest) = key.split_once('[').map_or((&*key, ""), |(name, rest)| (name, rest));
        let mut segments = vec![name.to_owned()];
        if !rest.is_empty() {
            let inner = rest.strip_suffix(']').ok_or_else(|| format!("malformed key {key}"))?;
            segments.extend(inner.split("][").map(str::to_owned));
        }
        insert(&mut root, &segments, Value::String(value.into_owned())).map_err(|error| format!("{key}: {error}"))?;
    }
    Ok(root)
}

fn insert(node: &mut Value, segments: &[String], leaf: Value) -> Result<(), String> {
    let (segment, rest) = segments.split_first().expect("a key has a name");
    let fresh = || match rest.first() {
        None => leaf.clone(),
        Some(next) if next.is_empty() || next.parse::<usize>().is_ok() => Value::Array(Vec::new()),
        Some(_) => Value::Object(Map::new()),
    };
    let slot = match node {
        Value::Object(map) => map.entry(segment.clone()).or_insert_with(fresh),
        Value::Array(items) if segment.is_empty() => {
            items.push(fresh());
            items.last_mut().unwrap()
        }
        Value::Array(items) => {
            let index: usize = segment.parse().map_err(|_| format!("[{segment}] inside a list"))?;
            if items.len() <= index {
                items.resize(index + 1, Value::Null);
            }
            if items[index].is_null() {
                items[index] = fresh();
            }
            &mut items[index]
        }
        _ => return Err(format!("[{segment}] below a plain value")),
    };
    match rest {
        [] if *slot == leaf => Ok(()),
        [] => Err("given twice".into()),
        _ => insert(slot, rest, leaf),
    }
}

/// Whether values are JSON (responses, events) or form strings to be read as the schema's type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Json,
    Form,
}

/// Checks `value` against component schema `name` (e.g. `checkout.session`).
pub fn check_schema(name: &str, value: &Value) -> Result<(), Vec<String>> {
    let schema = json!({ "$ref": format!("#/components/schemas/{name}") });
    finish(|errors| validate(&schema, value, "", Mode::Json, errors))
}

/// Checks one request to Stripe: the operation exists, path parameters, the
/// query (GET) or form body (POST) against the operation's parameters.
pub fn check_request(method: &str, path: &str, query: Option<&str>, body: &[u8]) -> Result<(), Vec<String>> {
    let (template, operation) = operation(method, path)?;
    let body = std::str::from_utf8(body).map_err(|_| vec![format!("{method} {path}: the body is not UTF-8")])?;
    finish(|errors| {
        let parameters = operation["parameters"].as_array().map(Vec::as_slice).unwrap_or_default();
        for (segment, name) in path.split('/').zip(template.split('/')) {
            if let Some(name) = name.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
                let parameter = parameters.iter().find(|p| p["in"] == "path" && p["name"] == name);
                match parameter {
                    Some(parameter) => validate(&parameter["schema"], &json!(segment), name, Mode::Json, errors),
                    None => errors.push(format!("path parameter {name} is not in the spec")),
                }
            }
        }
        let query_schema = object_of(parameters.iter().filter(|p| p["in"] == "query"));
        match decode_form(query.unwrap_or("")) {
            Ok(decoded) => validate(&query_schema, &decoded, "?", Mode::Form, errors),
            Err(error) => errors.push(format!("query: {error}")),
        }
        let form = &operation["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"];
        match decode_form(body) {
            Ok(decoded) if form.is_null() && decoded != json!({}) => {
                errors.push(format!("{method} {template} takes no body, got {decoded}"))
            }
            Ok(decoded) if !form.is_null() => validate(form, &decoded, "", Mode::Form, errors),
            Ok(_) => {}
            Err(error) => errors.push(format!("body: {error}")),
        }
    })
    .map_err(|errors| errors.into_iter().map(|error| format!("{method} {path}: {error}")).collect())
}

/// Checks an answer to `method path`: a 2xx against the `200` schema, anything else against `default` (Stripe's error).
pub fn check_response(method: &str, path: &str, status: u16, body: &Value) -> Result<(), Vec<String>> {
    let (_, operation) = operation(method, path)?;
    let key = if (200..300).contains(&status) { "200" } else { "default" };
    let schema = &operation["responses"][key]["content"]["application/json"]["schema"];
    finish(|errors| validate(schema, body, "", Mode::Json, errors))
        .map_err(|errors| errors.into_iter().map(|error| format!("{status} to {method} {path}: {error}")).collect())
}

/// Checks a webhook event: the `event` envelope, and `data.object` against the
/// resource its type names (Stripe's event list: `checkout.session.*` carries a Checkout Session).
pub fn check_event(event: &Value) -> Result<(), Vec<String>> {
    check_schema("event", event)?;
    let kind = event["type"].as_str().unwrap_or_default();
    let resource = ["checkout.session", "account", "transfer", "refund"]
        .into_iter()
        .find(|resource| kind.strip_prefix(resource).is_some_and(|rest| rest.starts_with('.')));
    match resource {
        Some(resource) => check_schema(resource, &event["data"]["object"])
            .map_err(|errors| errors.into_iter().map(|error| format!("{kind} data.object: {error}")).collect()),
        None => Ok(()),
    }
}

fn operation(method: &str, path: &str) -> Result<(&'static str, &'static Value), Vec<String>> {
    let paths = document()["paths"].as_object().expect("paths");
    let fits = |template: &str| {
        let (template, path) = (template.split('/'), path.split('/'));
        template.clone().count() == path.clone().count()
            && template.zip(path).all(|(t, p)| t == p || (t.starts_with('{') && !p.is_empty()))
    };
    // A literal route (`/v1/checkout/sessions`) wins over a template of the same length.
    let mut candidates: Vec<_> = paths.iter().filter(|(template, _)| fits(template.as_str())).collect();
    candidates.sort_by_key(|(template, _)| template.matches('{').count());
    candidates
        .into_iter()
        .find_map(|(template, operations)| operations.get(method.to_lowercase()).map(|op| (template.as_str(), op)))
        .ok_or_else(|| vec![format!("{method} {path} is not an operation Taskhub's Stripe subset describes")])
}

fn object_of<'a>(parameters: impl Iterator<Item = &'a Value>) -> Value {
    let (mut properties, mut required) = (Map::new(), Vec::new());
    for parameter in parameters {
        let name = parameter["name"].as_str().unwrap_or_default().to_owned();
        if parameter["required"] == true {
            required.push(json!(name));
        }
        properties.insert(name, parameter["schema"].clone());
    }
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

fn finish(check: impl FnOnce(&mut Vec<String>)) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    check(&mut errors);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

const KEYWORDS: &[&str] = &[
    "$ref",
    "type",
    "properties",
    "required",
    "enum",
    "items",
    "anyOf",
    "nullable",
    "additionalProperties",
    "maxLength",
    "format",
];

fn validate(schema: &Value, value: &Value, at: &str, mode: Mode, errors: &mut Vec<String>) {
    let Some(schema) = schema.as_object() else {
        return errors.push(format!("{at}: schema is not an object: {schema}"));
    };
    if let Some(unknown) = schema.keys().find(|key| !KEYWORDS.contains(&key.as_str())) {
        return errors.push(format!("{at}: the validator does not know the keyword {unknown}"));
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/components/schemas/").unwrap_or(reference);
        return match document()["components"]["schemas"].get(name) {
            Some(target) => validate(target, value, at, mode, errors),
            None => errors.push(format!("{at}: unresolved {reference}")),
        };
    }
    if value.is_null() {
        if schema.is_empty() || schema.get("nullable") == Some(&Value::Bool(true)) {
            return;
        }
        return errors.push(format!("{at}: null where the spec does not allow it"));
    }
    if let Some(options) = schema.get("anyOf").and_then(Value::as_array) {
        let attempts: Vec<Vec<String>> = options
            .iter()
            .map(|option| finish(|errors| validate(option, value, at, mode, errors)).err().unwrap_or_default())
            .collect();
        if !attempts.iter().any(Vec::is_empty) {
            let reasons: Vec<String> = attempts.into_iter().flatten().collect();
            errors.push(format!("{at}: matches no alternative of anyOf ({})", reasons.join("; ")));
        }
    }
    if let Some(kind) = schema.get("type").and_then(Value::as_str) {
        let fits = match (kind, value, mode) {
            ("string", Value::String(_), _) => true,
            ("integer", Value::String(text), Mode::Form) => text.parse::<i64>().is_ok(),
            ("integer", Value::Number(number), Mode::Json) => number.is_i64() || number.is_u64(),
            ("number", Value::String(text), Mode::Form) => text.parse::<f64>().is_ok(),
            ("number", Value::Number(_), Mode::Json) => true,
            ("boolean", Value::String(text), Mode::Form) => text == "true" || text == "false",
            ("boolean", Value::Bool(_), Mode::Json) => true,
            ("object", Value::Object(_), _) | ("array", Value::Array(_), _) => true,
            _ => false,
        };
        if !fits {
            return errors.push(format!("{at}: expected {kind}, got {value}"));
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        let text = |v: &Value| v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_string());
        if !allowed.iter().any(|option| option == value || (mode == Mode::Form && text(option) == text(value))) {
            errors.push(format!("{at}: {value} is not one of {}", Value::Array(allowed.clone())));
        }
    }
    if let (Some(limit), Some(text)) = (schema.get("maxLength").and_then(Value::as_u64), value.as_str())
        && text.chars().count() as u64 > limit
    {
        errors.push(format!("{at}: longer than {limit} characters"));
    }
    if let (Some(item_schema), Some(items)) = (schema.get("items"), value.as_array()) {
        for (index, item) in items.iter().enumerate() {
            validate(item_schema, item, &format!("{at}[{index}]"), mode, errors);
        }
    }
    if let Some(object) = value.as_object() {
        validate_object(schema, object, at, mode, errors);
    }
}

fn validate_object(
    schema: &Map<String, Value>,
    object: &Map<String, Value>,
    at: &str,
    mode: Mode,
    errors: &mut Vec<String>,
) {
    let properties = schema.get("properties").and_then(Value::as_object);
    for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
        let name = name.as_str().unwrap_or_default();
        if !object.contains_key(name) {
            errors.push(format!("{at}: required {name} is missing"));
        }
    }
    for (name, value) in object {
        let here = if at.is_empty() { name.clone() } else { format!("{at}[{name}]") };
        match (properties.and_then(|p| p.get(name)), schema.get("additionalProperties")) {
            (Some(property), _) => validate(property, value, &here, mode, errors),
            (None, Some(Value::Bool(false))) => errors.push(format!("{here}: unknown parameter")),
            (None, Some(Value::Bool(true))) => {}
            (None, Some(extra)) => validate(extra, value, &here, mode, errors),
            (None, None) if properties.is_some() => errors.push(format!("{here}: not a property of this object")),
            (None, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(schema: Value, value: Value) -> Result<(), Vec<String>> {
        finish(|errors| validate(&schema, &value, "", Mode::Json, errors))
    }

    fn check_form(schema: Value, encoded: &str) -> Result<(), Vec<String>> {
        let decoded = decode_form(encoded).unwrap();
        finish(|errors| validate(&schema, &decoded, "", Mode::Form, errors))
    }

    #[test]
    fn bracket_notation_decodes_into_nested_objects_and_lists() {
        let decoded = decode_form(
            "mode=payment&line_items%5B0%5D%5Bprice_data%5D%5Bproduct_data%5D%5Bname%5D=Tap&line_items[0][quantity]=1\
             &metadata[task_id]=t1&expand[]=a&expand[]=b",
        )
        .unwrap();
        assert_eq!(
            decoded,
            json!({"mode": "payment", "line_items": [{"price_data": {"product_data": {"name": "Tap"}}, "quantity": "1"}],
                "metadata": {"task_id": "t1"}, "expand": ["a", "b"]})
        );
        assert!(decode_form("a=1&a[b]=2").is_err(), "a value and an object under one name");
        assert!(decode_form("a=1&a=2").is_err(), "one name twice");
    }

    #[test]
    fn type_with_form_coercion() {
        assert!(check(json!({"type": "integer"}), json!(5)).is_ok());
        assert!(check(json!({"type": "integer"}), json!("5")).is_err(), "JSON answers carry real integers");
        assert!(check_form(json!({"type": "object", "properties": {"n": {"type": "integer"}}}), "n=5").is_ok());
        assert!(check_form(json!({"type": "object", "properties": {"n": {"type": "integer"}}}), "n=5.5").is_err());
        assert!(check_form(json!({"type": "object", "properties": {"b": {"type": "boolean"}}}), "b=true").is_ok());
        assert!(check_form(json!({"type": "object", "properties": {"b": {"type": "boolean"}}}), "b=yes").is_err());
    }

    #[test]
    fn properties_required_and_closed_objects() {
        let schema = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]});
        assert!(check(schema.clone(), json!({"id": "x"})).is_ok());
        assert!(check(schema.clone(), json!({})).is_err(), "missing required");
        assert!(check(schema, json!({"id": "x", "idd": "y"})).is_err(), "an unknown name");
    }

    #[test]
    fn additional_properties() {
        let metadata = json!({"type": "object", "additionalProperties": {"type": "string", "maxLength": 3}});
        assert!(check(metadata.clone(), json!({"any": "abc"})).is_ok());
        assert!(check(metadata, json!({"any": 1})).is_err());
        let closed = json!({"type": "object", "additionalProperties": false});
        assert!(check(closed.clone(), json!({})).is_ok());
        assert!(check(closed, json!({"x": 1})).is_err());
    }

    #[test]
    fn enum_and_max_length() {
        assert!(check(json!({"enum": ["paid", "unpaid"], "type": "string"}), json!("paid")).is_ok());
        assert!(check(json!({"enum": ["paid", "unpaid"], "type": "string"}), json!("payed")).is_err());
        assert!(check(json!({"type": "string", "maxLength": 2}), json!("ab")).is_ok());
        assert!(check(json!({"type": "string", "maxLength": 2}), json!("abc")).is_err());
    }

    #[test]
    fn items_any_of_and_nullable() {
        assert!(check(json!({"type": "array", "items": {"type": "string"}}), json!(["a"])).is_ok());
        assert!(check(json!({"type": "array", "items": {"type": "string"}}), json!([1])).is_err());
        let expandable = json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {}}], "nullable": true});
        assert!(check(expandable.clone(), json!("pi_1")).is_ok());
        assert!(check(expandable.clone(), json!({})).is_ok());
        assert!(check(expandable, json!(null)).is_ok());
        assert!(check(json!({"anyOf": [{"type": "string"}]}), json!(1)).is_err());
        assert!(check(json!({"type": "string"}), json!(null)).is_err(), "null without nullable");
    }

    #[test]
    fn refs_resolve_into_the_fixture_and_unknown_keywords_fail() {
        assert!(check(json!({"$ref": "#/components/schemas/account_link"}), json!({})).is_err());
        assert!(
            check(
                json!({"$ref": "#/components/schemas/account_link"}),
                json!({"object": "account_link", "created": 1, "expires_at": 2, "url": "https://x"})
            )
            .is_ok()
        );
        assert!(check(json!({"$ref": "#/components/schemas/nothing"}), json!({})).is_err());
        assert!(check(json!({"oneOf": []}), json!({})).is_err(), "a keyword the validator does not implement");
    }

    #[test]
    fn requests_are_matched_to_operations_with_their_parameters() {
        assert!(check_request("POST", "/v1/account_links", None, b"account=acct_1&type=account_onboarding").is_ok());
        assert!(check_request("POST", "/v1/account_links", None, b"account=acct_1&type=onboarding").is_err());
        assert!(check_request("POST", "/v1/account_links", None, b"acount=acct_1&type=account_onboarding").is_err());
        assert!(check_request("GET", "/v1/checkout/sessions/cs_1", Some("expand%5B%5D=payment_intent"), b"").is_ok());
        assert!(check_request("GET", "/v1/checkout/sessions/cs_1", Some("expnd%5B%5D=payment_intent"), b"").is_err());
        assert!(check_request("POST", "/v1/checkout/sessions/cs_1/expire", None, b"").is_ok());
        assert!(check_request("DELETE", "/v1/transfers", None, b"").is_err(), "not an operation Taskhub uses");
    }

    #[test]
    fn events_carry_the_resource_their_type_names() {
        let event = |object: Value| {
            json!({"id": "evt_1", "object": "event", "created": 1, "livemode": false, "pending_webhooks": 1,
                "type": "checkout.session.completed", "data": {"object": object}, "api_version": "2023-08-16"})
        };
        let session = json!({"id": "cs_1", "object": "checkout.session", "automatic_tax": {"enabled": false},
            "created": 1, "custom_fields": [], "custom_text": {}, "expires_at": 2, "livemode": false, "mode": "payment",
            "payment_method_types": ["card"], "payment_status": "paid", "shipping_options": [], "status": "complete"});
        assert_eq!(check_event(&event(session)), Ok(()));
        assert!(check_event(&event(json!({"id": "cs_1"}))).is_err(), "not a whole Checkout Session");
        assert!(check_event(&json!({"id": "evt_1", "type": "checkout.session.completed"})).is_err());
    }
}
