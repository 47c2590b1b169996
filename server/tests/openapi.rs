//! The OpenAPI document is complete enough to generate from and to fuzz
//! (schemathesis runs against it in CI, see scripts/schemathesis.sh), and the
//! copy committed for the web app's generated types is the one the server serves.

use std::path::PathBuf;

use serde_json::Value;
use server::http::openapi::ApiDoc;

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];

fn document() -> Value {
    serde_json::from_str(&ApiDoc::json()).unwrap()
}

/// (path, method, operation) for every operation in the document.
fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    for (path, item) in document["paths"].as_object().unwrap() {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                found.push((path.clone(), method.to_owned(), operation.clone()));
            }
        }
    }
    found
}

fn template_names(path: &str) -> Vec<&str> {
    path.split('/').filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}')).collect()
}

fn parameters<'a>(operation: &'a Value, location: &str) -> Vec<&'a Value> {
    operation["parameters"].as_array().into_iter().flatten().filter(|parameter| parameter["in"] == location).collect()
}

fn statuses(operation: &Value) -> Vec<&str> {
    operation["responses"].as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn the_document_is_openapi_3_1() {
    assert_eq!(document()["openapi"], "3.1.0");
}

/// Generated clients and validators (schemathesis refuses the document) need each operation's id
/// once; utoipa takes it from the handler's name, so two handlers named alike collide.
#[test]
fn every_operation_id_is_unique() {
    let mut seen = std::collections::BTreeMap::new();
    for (path, method, operation) in operations(&document()) {
        let id = operation["operationId"].as_str().unwrap_or_default().to_owned();
        if let Some(first) = seen.insert(id.clone(), format!("{method} {path}")) {
            panic!("operationId {id} names both {first} and {method} {path}");
        }
    }
}

#[test]
fn every_path_parameter_is_declared_with_its_format() {
    let document = document();
    for (path, method, operation) in operations(&document) {
        let declared = parameters(&operation, "path");
        let names: Vec<&str> = declared.iter().filter_map(|parameter| parameter["name"].as_str()).collect();
        assert_eq!(names, template_names(&path), "{method} {path} declares exactly its path parameters");
        for parameter in declared {
            assert_eq!(parameter["required"], true, "{method} {path}");
            if let Some(reference) = parameter["schema"]["$ref"].as_str() {
                // A name from a fixed list (the sign-in provider), declared as its enum.
                let name = reference.trim_start_matches("#/components/schemas/");
                let schema = &document["components"]["schemas"][name];
                assert!(schema["enum"].is_array(), "{method} {path}: {name} is an enum");
                continue;
            }
            assert_eq!(parameter["schema"]["type"], "string", "{method} {path}");
            assert_eq!(parameter["schema"]["format"], "uuid", "{method} {path}: ids are UUIDs");
        }
    }
}

#[test]
fn every_error_answer_has_the_error_shape() {
    let document = document();
    assert!(document["components"]["schemas"]["ErrorBody"].is_object());
    for (path, method, operation) in operations(&document) {
        for (status, response) in operation["responses"].as_object().unwrap() {
            if status.starts_with('4') || status.starts_with('5') {
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"], "#/components/schemas/ErrorBody",
                    "{method} {path} {status}"
                );
                assert!(!response["description"].as_str().unwrap().is_empty(), "{method} {path} {status}");
            }
        }
    }
}

#[test]
fn statuses_the_extractors_produce_are_documented() {
    let document = document();
    for (path, method, operation) in operations(&document) {
        let statuses = statuses(&operation);
        let signed_in =
            operation["security"].as_array().into_iter().flatten().any(|scheme| scheme.get("bearer").is_some());
        if signed_in {
            assert!(statuses.contains(&"401"), "{method} {path}: a bad token gets 401");
        }
        if !template_names(&path).is_empty() {
            assert!(statuses.contains(&"404"), "{method} {path}: an id that is not a UUID gets 404");
        }
        if operation.get("requestBody").is_some() {
            for status in ["400", "413"] {
                assert!(statuses.contains(&status), "{method} {path}: a malformed or huge body gets {status}");
            }
        }
    }
    let upload = &document["paths"]["/api/me/avatar"]["post"]["requestBody"]["content"]["multipart/form-data"];
    assert_eq!(upload["schema"]["$ref"], "#/components/schemas/AvatarUpload");
}

#[test]
fn signed_in_routes_say_so() {
    let document = document();
    for (path, method) in [("/api/me", "get"), ("/api/tasks", "post"), ("/api/tasks/{id}/offers", "post")] {
        let security = &document["paths"][path][method]["security"];
        assert_eq!(security[0]["bearer"], Value::Array(Vec::new()), "{method} {path}");
    }
    // Visitors are welcome on the task page, but a token that is present must be valid.
    let optional = &document["paths"]["/api/tasks/{id}"]["get"]["security"];
    assert_eq!(optional.as_array().unwrap().len(), 2);
}

/// The copy that `openapi-typescript` reads (`npm --prefix web run api:types`).
#[test]
fn the_committed_copy_for_the_web_app_is_current() {
    let committed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/openapi.json");
    let committed = std::fs::read_to_string(&committed).unwrap_or_default();
    assert!(
        committed == ApiDoc::json(),
        "web/openapi.json is stale: run `cargo run -p server -- openapi > web/openapi.json && npm --prefix web run api:types`"
    );
}

#[test]
fn links_lead_to_operations_that_take_the_id() {
    let document = document();
    let taking_id: Vec<String> = operations(&document)
        .into_iter()
        .filter(|(path, _, _)| template_names(path) == ["id"])
        .filter_map(|(_, _, operation)| operation["operationId"].as_str().map(str::to_owned))
        .collect();
    let mut links = 0;
    for (path, method, operation) in operations(&document) {
        for response in operation["responses"].as_object().unwrap().values() {
            for (name, link) in response["links"].as_object().into_iter().flatten() {
                links += 1;
                let target = link["operationId"].as_str().unwrap_or_default();
                assert!(taking_id.iter().any(|id| id == target), "{method} {path} links {name} to {target}");
                assert!(link["parameters"]["id"].as_str().unwrap().starts_with("$response.body#/"));
            }
        }
    }
    assert!(links >= 20, "only {links} links");
}
