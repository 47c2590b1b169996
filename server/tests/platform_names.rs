//! No one passes for the platform (security review 3: "Taskhub Support", ID-verified, was a
//! display name anyone could choose). Every field a person's name reaches others through is one
//! row, on sign-up and on the profile: each refuses a name that reads as Taskhub or its staff,
//! and keeps an ordinary one.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestApp, market::poster, signup_body};

on_both_backends!(names_that_pass_for_the_platform_are_refused_everywhere_a_name_is_set);

const REFUSED: &str = "Please choose a name that does not read as Taskhub or its staff";

async fn names_that_pass_for_the_platform_are_refused_everywhere_a_name_is_set(app: TestApp) -> TestApp {
    let token = poster(&app, "plain-name@example.com").await;
    let before = app.get("/api/me", Some(&token)).await.body;
    // A display or company name may not even read as staff; a first or last name may not name the
    // platform (a staff word can be a real surname: "Staff").
    for (name, own_name_too) in [
        ("Taskhub Support", true),
        ("T4SKHUB", true),
        ("Ｔａｓｋｈｕｂ", true),
        ("Admin", false),
        ("Operator Jane", false),
    ] {
        let fields: &[&str] =
            if own_name_too { &["display_name", "first_name", "last_name"] } else { &["display_name"] };
        for &field in fields {
            let patched = app.patch("/api/me/profile", Some(&token), json!({ field: name })).await;
            assert_eq!(patched.status, StatusCode::UNPROCESSABLE_ENTITY, "{field} {name}: {:?}", patched.body);
            assert_eq!(patched.field_error(field), REFUSED, "{field} {name}");
        }
        let fields: &[&str] =
            if own_name_too { &["first_name", "last_name", "company_name"] } else { &["company_name"] };
        for &field in fields {
            let mut body = signup_body(&format!("impostor-{}@example.com", field.len()), "tasker");
            body[field] = json!(name);
            let signed_up = app.post("/api/auth/signup", None, body).await;
            assert_eq!(
                signed_up.status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "sign-up {field} {name}: {:?}",
                signed_up.body
            );
            assert_eq!(signed_up.field_error(field), REFUSED, "sign-up {field} {name}");
        }
    }
    assert_eq!(app.get("/api/me", Some(&token)).await.body, before, "nothing changed");
    let ordinary = app.patch("/api/me/profile", Some(&token), json!({ "display_name": "Supportive Sam" })).await;
    assert_eq!(ordinary.status, StatusCode::OK, "{:?}", ordinary.body);
    app
}
