//! "Continue with Facebook" against a fake Facebook Login and Graph API held to Meta's published
//! documentation (`common::facebook_fake`), configured through `FACEBOOK_DIALOG_URL` and
//! `FACEBOOK_GRAPH_URL`: the code exchange with PKCE, `me?fields=…` with `appsecret_proof` (the
//! app requires it), errors in the Graph API's own shape. Refusals (a forged `state`, an
//! intercepted code replayed, a person who declined the email permission, linking to an
//! unconfirmed account) leave the accounts, identities and sessions as they were.

use domain::{
    config::{Config, Secret},
    signin::settings::ClientCredentials,
};

use crate::common;

use common::{
    Backend, TestApp,
    facebook_fake::{self, FakeFacebook},
    identity_fake::Person,
    sign_in::{
        self, Arrival, assert_forged_state_refused, assert_not_confirmed, at_provider, complete_signup_by_mail,
        return_to_app, session_from, sign_in_tables, sign_in_through, start,
    },
};
use reqwest::StatusCode;

on_both_backends!(given_backend;
    facebook_signs_up_a_new_person_then_signs_them_in_again,
    facebook_forged_state_and_replayed_code_are_refused,
    facebook_without_the_email_permission_is_told_why,
    facebook_links_to_no_existing_account,
);

fn configure(config: &mut Config, facebook: &FakeFacebook) {
    config.sign_in.facebook = Some(ClientCredentials {
        client_id: facebook_fake::APP_ID.into(),
        client_secret: Secret::new(facebook_fake::APP_SECRET),
    });
    config.sign_in.endpoints.facebook_dialog = facebook.dialog_url();
    config.sign_in.endpoints.facebook_graph = facebook.graph_url();
}

fn register(app: &TestApp, facebook: &FakeFacebook) {
    facebook.register_redirect(app.url("/api/auth/oidc/facebook/callback"));
}

fn fern() -> Person {
    Person::new("10229876543210987", "fern@example.com", "Fern", "Okafor")
}

async fn facebook_signs_up_a_new_person_then_signs_them_in_again(backend: Backend) {
    let facebook = FakeFacebook::start().await;
    common::run(
        backend,
        |config| configure(config, &facebook),
        |app| async {
            register(&app, &facebook);
            facebook.sign_in_next(fern());
            let browser = sign_in::browser();
            let authorize = start(&app, &browser, "facebook").await;
            assert_eq!(authorize.as_str().split('?').next(), Some(facebook.dialog_url().as_str()));
            let back = at_provider(&browser, &authorize).await;
            let (status, arrival, body) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "{body:?}");
            let Some(Arrival::SignUp { token, query }) = arrival else {
                panic!("a new person chooses first: {arrival:?}")
            };
            for (key, value) in [
                ("provider", "facebook"),
                ("email", "fern@example.com"),
                ("first_name", "Fern"),
                ("last_name", "Okafor"),
            ] {
                assert!(query.contains(&(key.into(), value.into())), "{key} in {query:?}");
            }
            let [redeemed] = facebook.provider.token_requests.lock().unwrap().clone().try_into().expect("one exchange");
            assert_eq!(redeemed["code_verifier"].len(), 43, "the PKCE verifier went with the code");
            let [me] = facebook.graph_calls().try_into().expect("one Graph call");
            assert!(me.contains_key("appsecret_proof"), "{me:?}");
            assert!(me["fields"].split(',').any(|field| field == "email"), "{me:?}");

            // Facebook does not say it verified the address: our own mail confirms it first.
            let created = complete_signup_by_mail(&app, &token, "fern@example.com").await;
            assert_eq!(created["user"]["email"], "fern@example.com");
            let access = common::access_token(&created);
            let identities = app.get("/api/me/identities", Some(&access)).await;
            assert_eq!(identities.body["items"][0]["provider"], "facebook", "{:?}", identities.body);

            let Arrival::Session { refresh_token, .. } = sign_in_through(&app, "facebook").await else {
                panic!("the linked Facebook account signs in");
            };
            let session = session_from(&app, &refresh_token).await;
            assert_eq!(session["user"]["id"], created["user"]["id"], "the same account");
            app
        },
    )
    .await;
}

async fn facebook_forged_state_and_replayed_code_are_refused(backend: Backend) {
    let facebook = FakeFacebook::start().await;
    common::run(
        backend,
        |config| configure(config, &facebook),
        |app| async {
            register(&app, &facebook);
            facebook.sign_in_next(fern());
            let browser = sign_in::browser();
            let back = at_provider(&browser, &start(&app, &browser, "facebook").await).await;
            assert_forged_state_refused(&app, &browser, &back).await;
            let (status, arrival, _) = return_to_app(&browser, &back).await;
            assert_eq!(status, StatusCode::FOUND, "the genuine sign-in still goes through");
            assert!(matches!(arrival, Some(Arrival::SignUp { .. })), "{arrival:?}");

            // An intercepted code used in someone else's sign-in: Facebook answers in the Graph
            // API's error shape ("This authorization code has been used."), a refusal, not an outage.
            let attacker = sign_in::browser();
            let theirs = start(&app, &attacker, "facebook").await;
            let state = theirs.query_pairs().find(|(key, _)| key == "state").unwrap().1.into_owned();
            assert_not_confirmed(&app, &attacker, &back.with_field("state", &state), "Facebook").await;
            app
        },
    )
    .await;
}

async fn facebook_without_the_email_permission_is_told_why(backend: Backend) {
    let facebook = FakeFacebook::start().await;
    common::run(
        backend,
        |config| configure(config, &facebook),
        |app| async {
            register(&app, &facebook);
            let before = sign_in_tables(&app).await;
            facebook.sign_in_next(fern().declining_email());
            let Arrival::Refused(message) = sign_in_through(&app, "facebook").await else {
                panic!("no address, no account");
            };
            assert_eq!(
                message,
                "Facebook did not share your email address, so we cannot sign you in. Allow Taskhub to see it and try again."
            );
            assert_eq!(sign_in_tables(&app).await, before, "nothing was created");

            // Allowed the second time: a normal sign-up.
            facebook.sign_in_next(fern());
            let Arrival::SignUp { .. } = sign_in_through(&app, "facebook").await else { panic!("a new person") };
            app
        },
    )
    .await;
}

async fn facebook_links_to_no_existing_account(backend: Backend) {
    let facebook = FakeFacebook::start().await;
    common::run(
        backend,
        |config| configure(config, &facebook),
        |app| async {
            register(&app, &facebook);
            let signup = app.post("/api/auth/signup", None, common::signup_body("fern@example.com", "customer")).await;
            assert_eq!(signup.status, StatusCode::CREATED);
            let before = sign_in_tables(&app).await;
            facebook.sign_in_next(fern());
            let Arrival::Refused(message) = sign_in_through(&app, "facebook").await else {
                panic!("linking to an unconfirmed account is refused");
            };
            assert!(message.contains("An account with fern@example.com already exists"), "{message}");
            assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");

            // Even once the owner confirms the address with us: Facebook never vouched for it.
            let token = app.token_mailed_to("fern@example.com", "Confirm").await;
            assert_eq!(
                app.post("/api/auth/verify", None, serde_json::json!({ "token": token })).await.status,
                StatusCode::OK
            );
            let before = sign_in_tables(&app).await;
            let Arrival::Refused(message) = sign_in_through(&app, "facebook").await else {
                panic!("an address Facebook did not verify links to no account");
            };
            assert!(message.contains("An account with fern@example.com already exists"), "{message}");
            assert_eq!(sign_in_tables(&app).await, before, "a refused link changes nothing");
            app
        },
    )
    .await;
}
