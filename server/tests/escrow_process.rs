//! The escrow's process table (`model::payments::process::PROCESS`) against a running server:
//! a task is brought into every state, and every event is tried on it by the actor the table
//! names. Where the table allows the event, the task ends in the table's next state; where it
//! refuses it, the answer is a 4xx and no row of the task (nor any notification, provider call
//! or webhook record) changed.
//!
//! The events of people and operators go through the API; the timers' events through the
//! sweep's own steps, as of a time past the timer (the provider's events, paid or failed
//! checkouts, have their own tests in payments_*.rs).

use std::time::Duration;

use model::{
    payments::process::{Event, PROCESS, Timer, Transition},
    states::TaskStatus,
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use store::db::Timestamp;

use crate::common;

use common::{
    TestApp,
    escrow::{checkout, pay, verify},
    market::{id, make_offer, post_task, poster, tasker},
    rows::{Snapshot, task_snapshot},
};

const OPERATOR: &str = "process-operator@example.com";
const AMOUNT_CENTS: i64 = 5_000;

fn with_operator(config: &mut domain::config::Config) {
    // The walk runs the sweep's steps itself, as of the time each timer needs.
    config.payments_sweep_secs = 0;
    config.admin_emails = vec![OPERATOR.into()];
}

on_both_backends!(config = with_operator;
    every_event_of_a_person_or_an_operator_in_every_state,
    every_timer_in_every_state,
);

const STATES: [TaskStatus; 7] = [
    TaskStatus::Open,
    TaskStatus::PendingPayment,
    TaskStatus::Assigned,
    TaskStatus::CompletionRequested,
    TaskStatus::Completed,
    TaskStatus::Cancelled,
    TaskStatus::Removed,
];

/// The people of the walk; each cell gets a task of its own, and a tasker (and reporter) of its
/// own: offers and reports are rate-limited per person.
struct People {
    poster: String,
    operator: String,
}

/// A task brought into a state, with what the events need of it.
struct Subject {
    tasker: String,
    task: String,
    offer: String,
    /// Filled in by an event's preparation: the dispute, or the price increase, it acts on.
    dispute: Option<String>,
    increase: Option<String>,
}

async fn people(app: &TestApp) -> People {
    People { poster: poster(app, "process-poster@example.com").await, operator: poster(app, OPERATOR).await }
}

fn ok(response: &common::Response, what: &str) {
    assert!(response.status.is_success(), "{what}: {} {:?}", response.status, response.body);
}

/// A new task of the walk's poster, in `state`, with one offer of the walk's tasker.
async fn task_in(app: &TestApp, people: &People, state: TaskStatus) -> Subject {
    let tasker = tasker(app, &format!("process-tasker-{}@example.com", uuid::Uuid::now_v7().simple())).await;
    let task = id(&post_task(app, &people.poster, json!({})).await);
    let offer = id(&make_offer(app, &tasker, &task, AMOUNT_CENTS).await);
    let subject =
        Subject { tasker: tasker.clone(), task: task.clone(), offer: offer.clone(), dispute: None, increase: None };
    let assign = async {
        let (session, url) = checkout(app, &people.poster, &task, &offer).await;
        pay(app, &url).await;
        ok(&verify(app, &people.poster, &session, &task, &offer).await, "verify");
    };
    match state {
        TaskStatus::Open => {}
        TaskStatus::PendingPayment => {
            checkout(app, &people.poster, &task, &offer).await;
        }
        TaskStatus::Assigned => assign.await,
        TaskStatus::CompletionRequested => {
            assign.await;
            ok(&app.post(&format!("/api/tasks/{task}/request-payment"), Some(&tasker), json!({})).await, "ask");
        }
        TaskStatus::Completed => {
            assign.await;
            ok(&app.post(&format!("/api/tasks/{task}/release"), Some(&people.poster), json!({})).await, "release");
        }
        TaskStatus::Cancelled => {
            ok(&app.post(&format!("/api/tasks/{task}/cancel"), Some(&people.poster), json!({})).await, "cancel");
        }
        TaskStatus::Removed => {
            let report = report(app, &task).await;
            ok(&remove(app, people, &report).await, "remove");
        }
    }
    assert_eq!(status_of(app, &task).await, state, "the walk brought the task into {state}");
    subject
}

async fn report(app: &TestApp, task: &str) -> String {
    let reporter = tasker(app, &format!("process-reporter-{}@example.com", uuid::Uuid::now_v7().simple())).await;
    let report = json!({ "target": { "type": "task", "id": task }, "reason": "offensive" });
    let filed = app.post("/api/reports", Some(&reporter), report).await;
    assert_eq!(filed.status, StatusCode::CREATED, "{:?}", filed.body);
    id(&filed.body)
}

async fn remove(app: &TestApp, people: &People, report: &str) -> common::Response {
    let decision = json!({ "action": "remove", "note": "Against the rules" });
    app.post(&format!("/api/admin/reports/{report}/resolve"), Some(&people.operator), decision).await
}

async fn status_of(app: &TestApp, task: &str) -> TaskStatus {
    let row = store::tasks::task(&app.server.state.db, task.parse().unwrap()).await.unwrap().unwrap();
    row.status
}

/// What an event needs to exist first (a request to answer, a dispute to resolve, an increase
/// to approve, a report to act on), made where the task's state allows it; elsewhere the
/// attempt is refused and the event then finds nothing to act on.
async fn prepare(app: &TestApp, people: &People, subject: &mut Subject, event: Event) -> Option<String> {
    let task = &subject.task;
    match event {
        Event::AcceptCancellation | Event::DeclineCancellation | Event::CancellationLapsed => {
            let request = json!({ "reason": "I can no longer do it", "reason_code": "tasker_unavailable" });
            app.post(&format!("/api/tasks/{task}/cancellation"), Some(&subject.tasker), request).await;
        }
        Event::ResolveByRelease | Event::ResolveByPartialRefund | Event::ResolveByRefund => {
            let dispute = json!({ "reason": "poor_quality", "message": "The shelves came down" });
            let opened = app.post(&format!("/api/tasks/{task}/dispute"), Some(&people.poster), dispute).await;
            subject.dispute = opened.status.is_success().then(|| id(&opened.body));
        }
        Event::ApproveIncrease => {
            let increase = json!({ "amount_cents": 1_000, "reason": "Two more shelves" });
            let asked = app.post(&format!("/api/tasks/{task}/price-increases"), Some(&subject.tasker), increase).await;
            subject.increase = asked.status.is_success().then(|| id(&asked.body));
        }
        Event::Remove => return Some(report(app, task).await),
        _ => {}
    }
    None
}

/// The event, by the actor the table names.
async fn perform(
    app: &TestApp,
    people: &People,
    subject: &Subject,
    event: Event,
    report: Option<&str>,
) -> common::Response {
    let task = &subject.task;
    let none = uuid::Uuid::now_v7().to_string();
    let post = |path: String, token: &str, body: Value| {
        let token = token.to_owned();
        async move { app.post(&path, Some(&token), body).await }
    };
    let resolve = |outcome: &str, refund_cents: Option<i64>| {
        let dispute = subject.dispute.clone().unwrap_or_else(|| none.clone());
        let body = json!({ "outcome": outcome, "refund_cents": refund_cents, "note": "Decided on the photos" });
        post(format!("/api/admin/disputes/{dispute}/resolve"), &people.operator, body)
    };
    match event {
        Event::AcceptOffer => {
            let body = json!({ "task_id": task, "offer_id": subject.offer });
            post("/api/payments/checkout-session".into(), &people.poster, body).await
        }
        Event::CancelOpen => post(format!("/api/tasks/{task}/cancel"), &people.poster, json!({})).await,
        Event::Remove => remove(app, people, report.expect("a report")).await,
        Event::RequestPayment => post(format!("/api/tasks/{task}/request-payment"), &subject.tasker, json!({})).await,
        Event::Release => post(format!("/api/tasks/{task}/release"), &people.poster, json!({})).await,
        Event::RequestCancellation => {
            let body = json!({ "reason": "Plans changed", "reason_code": "no_longer_needed" });
            post(format!("/api/tasks/{task}/cancellation"), &people.poster, body).await
        }
        Event::AcceptCancellation => {
            post(format!("/api/tasks/{task}/cancellation/accept"), &people.poster, json!({})).await
        }
        Event::DeclineCancellation => {
            post(format!("/api/tasks/{task}/cancellation/decline"), &people.poster, json!({})).await
        }
        Event::OpenDispute => {
            let body = json!({ "reason": "not_completed", "message": "Nobody came" });
            post(format!("/api/tasks/{task}/dispute"), &people.poster, body).await
        }
        Event::ResolveByRelease => resolve("release", None).await,
        Event::ResolveByPartialRefund => resolve("partial_refund", Some(1_000)).await,
        Event::ResolveByRefund => resolve("refund", None).await,
        Event::AskIncrease => {
            let body = json!({ "amount_cents": 1_000, "reason": "Two more shelves" });
            post(format!("/api/tasks/{task}/price-increases"), &subject.tasker, body).await
        }
        Event::ApproveIncrease => {
            let increase = subject.increase.clone().unwrap_or(none.clone());
            post(format!("/api/price-increases/{increase}/approve"), &people.poster, json!({})).await
        }
        Event::CheckoutPaid
        | Event::CheckoutExpired
        | Event::PaymentFailed
        | Event::AutoRelease
        | Event::CancellationLapsed
        | Event::CancellationEscalated => unreachable!("{event:?} is not a person's or an operator's"),
    }
}

/// The events the API causes: everything but the provider's answers and the timers.
fn persons_and_operators_events() -> impl Iterator<Item = &'static Transition> {
    use model::payments::process::Actor;
    PROCESS.iter().filter(|row| !matches!(row.by, Actor::Provider | Actor::Timer(_)))
}

/// Does the table allow `row` in `state`, given what the preparation could make (a dispute
/// exists exactly for the operator's decisions, and only where a dispute can be opened)?
fn table_allows(row: &Transition, state: TaskStatus) -> bool {
    use model::payments::process::WhileDisputed;
    let disputed = matches!(row.while_disputed, WhileDisputed::Only) && state.is_under_way();
    model::payments::process::allows(row.event, state, disputed).is_some()
}

async fn every_event_of_a_person_or_an_operator_in_every_state(app: TestApp) -> TestApp {
    let people = people(&app).await;
    let mut walked = 0;
    for state in STATES {
        for row in persons_and_operators_events() {
            let mut subject = task_in(&app, &people, state).await;
            let report = prepare(&app, &people, &mut subject, row.event).await;
            let before = task_snapshot(&app, &subject.task).await;
            let answer = perform(&app, &people, &subject, row.event, report.as_deref()).await;
            let cell = format!("{:?} in {state}", row.event);
            if table_allows(row, state) {
                assert!(answer.status.is_success(), "{cell} is allowed: {} {:?}", answer.status, answer.body);
                assert_eq!(status_of(&app, &subject.task).await, row.next(state), "{cell}");
            } else {
                assert!(answer.status.is_client_error(), "{cell} is refused: {} {:?}", answer.status, answer.body);
                assert_unchanged(&app, &subject.task, &before, &cell, true).await;
            }
            walked += 1;
        }
    }
    assert_eq!(walked, STATES.len() * persons_and_operators_events().count());
    app
}

/// A timer's event: the sweep's step for it, as of a minute past the timer.
async fn fire(app: &TestApp, timer_event: Event) {
    let services = &app.server.state;
    let mut report = domain::payments::sweep::SweepReport::default();
    let after = |timer: Timer| Timestamp::now().plus(timer.after() + Duration::from_secs(60));
    match timer_event {
        Event::CheckoutExpired => {
            let now = after(Timer::CheckoutExpiry);
            for payment in store::payments::due_checks(&services.db, now, 1_000).await.unwrap() {
                domain::payments::escrow::check(services, payment).await.unwrap();
            }
        }
        Event::AutoRelease => {
            domain::payments::sweep::auto_release_due(services, after(Timer::AutoRelease), &mut report).await.unwrap()
        }
        Event::CancellationLapsed => {
            let now = after(Timer::CancellationAnswer);
            domain::payments::sweep::answer_lapsed_cancellations(services, now, &mut report).await.unwrap()
        }
        other => unreachable!("{other:?} is not walked by the timers"),
    }
}

async fn every_timer_in_every_state(app: TestApp) -> TestApp {
    let people = people(&app).await;
    for state in STATES {
        for event in [Event::CheckoutExpired, Event::AutoRelease, Event::CancellationLapsed] {
            let row = event.transition();
            let mut subject = task_in(&app, &people, state).await;
            prepare(&app, &people, &mut subject, event).await;
            let before = task_snapshot(&app, &subject.task).await;
            fire(&app, event).await;
            let cell = format!("{event:?} in {state}");
            if table_allows(row, state) {
                assert_eq!(status_of(&app, &subject.task).await, row.next(state), "{cell}");
            } else {
                // The sweep's step acts on every task due; only this task's rows are this cell's.
                assert_unchanged(&app, &subject.task, &before, &cell, false).await;
            }
        }
    }
    app
}

/// Asserts the task's rows (and with `whole_database`, every notification, provider call and
/// webhook record) are as `before`.
async fn assert_unchanged(app: &TestApp, task: &str, before: &Snapshot, cell: &str, whole_database: bool) {
    let after = task_snapshot(app, task).await;
    for (table, rows) in before {
        if !whole_database && ["notifications", "provider_calls", "stripe_events"].contains(&table.as_str()) {
            continue;
        }
        assert_eq!(&after[table], rows, "{cell} is refused, yet it changed {table}");
    }
}
