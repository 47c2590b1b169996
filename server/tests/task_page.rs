//! The task page under a crowd (issue 27): views are noted in memory and written in batches,
//! once per viewer per day, none lost on a graceful stop; identical anonymous reads made at once
//! share one database read, and never serve a task after its removal. On both backends.

use store::on_pool;

use crate::common;

use common::{
    TestApp,
    market::{holding_the_pool, id, post_task, poster, tasker},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    reading_a_task_page_does_not_wait_for_its_view_to_be_written,
    views_are_written_in_batches_once_per_viewer_per_day,
    views_noted_before_a_graceful_stop_are_written,
    identical_anonymous_reads_made_at_once_share_one_database_read,
    a_removed_task_is_not_served_from_a_shared_read,
);

async fn stored_views(app: &TestApp, task: &str) -> i64 {
    store::tasks::view_count(&app.server.state.db, task.parse().unwrap()).await.unwrap()
}

/// Every page read used to write its view in a transaction of its own before answering, so a
/// crowd of readers queued on writes: with view writes blocked, reads must still answer.
async fn reading_a_task_page_does_not_wait_for_its_view_to_be_written(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let viewer = tasker(&app, "viewer@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task}");
    let read = |token: Option<&str>| {
        let mut request = app.client.get(app.url(&path)).timeout(std::time::Duration::from_secs(3));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    on_pool!(&app.server.state.db, |pool| {
        let mut writer = pool.begin().await.unwrap();
        // SQLite: take the one write lock. PostgreSQL: block writes to task_views (reads go on).
        let block = match app.backend {
            common::Backend::Sqlite => "insert into task_views (task_id, viewer_key, day) values ($1, 'blocker', 0)",
            common::Backend::Postgres => "lock table task_views in exclusive mode",
        };
        let query = sqlx::query(block);
        let query = if app.backend == common::Backend::Sqlite {
            query.bind(task.parse::<uuid::Uuid>().unwrap())
        } else {
            query
        };
        query.execute(&mut *writer).await.unwrap();
        for token in [None, Some(viewer.as_str())] {
            let response = read(token).await.expect("a task page answers while view writes wait");
            assert_eq!(response.status(), StatusCode::OK);
        }
        writer.rollback().await.unwrap();
    });
    app.server.state.task_views.flush(&app.server.state.db).await.unwrap();
    assert_eq!(stored_views(&app, &task).await, 2, "the views waited, and were written");
    app
}

async fn views_are_written_in_batches_once_per_viewer_per_day(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let viewer = tasker(&app, "viewer@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task}");
    for token in [Some(&owner), Some(&viewer), None, Some(&owner), Some(&viewer), None, None] {
        assert_eq!(app.get(&path, token.map(String::as_str)).await.status, StatusCode::OK);
    }
    let views = &app.server.state.task_views;
    views.flush(&app.server.state.db).await.unwrap();
    assert_eq!(views.pending(), 0);
    assert_eq!(stored_views(&app, &task).await, 2, "the viewer and the visitor, once each; not the poster");
    assert_eq!(app.get(&path, Some(&owner)).await.body["view_count"], 2, "shown once written");

    // The same viewers again: nothing new to write, the count stays.
    app.get(&path, Some(&viewer)).await;
    app.get(&path, None).await;
    assert_eq!(views.flush(&app.server.state.db).await.unwrap(), 0);
    assert_eq!(stored_views(&app, &task).await, 2);
    app
}

async fn views_noted_before_a_graceful_stop_are_written(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let viewer = tasker(&app, "viewer@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task}");
    app.get(&path, Some(&viewer)).await;
    app.get(&path, None).await;
    // What `RunningServer::wait` does once the last request has finished.
    app.server.workers.stop().await;
    assert_eq!(app.server.state.task_views.pending(), 0);
    assert_eq!(stored_views(&app, &task).await, 2);
    app
}

async fn identical_anonymous_reads_made_at_once_share_one_database_read(app: TestApp) -> TestApp {
    const CROWD: usize = 40;
    let owner = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &owner, json!({ "title": "Watched by a crowd" })).await);
    let task_id: uuid::Uuid = task.parse().unwrap();
    let pages = &app.server.state.task_pages;
    let before = pages.reads_begun();
    let requests = holding_the_pool(&app, async {
        let requests: Vec<_> = (0..CROWD)
            .map(|_| {
                let (client, url) = (app.client.clone(), app.url(&format!("/api/tasks/{task}")));
                tokio::spawn(async move { TestApp::read(client.get(url).send().await.unwrap()).await })
            })
            .collect();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while pages.readers(&task_id) < CROWD {
            assert!(std::time::Instant::now() < deadline, "only {} requests arrived", pages.readers(&task_id));
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        requests
    })
    .await;
    let mut bodies = Vec::new();
    for request in requests {
        let response = request.await.unwrap();
        assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
        bodies.push(response.body);
    }
    assert!(bodies.iter().all(|body| body == &bodies[0] && body["title"] == "Watched by a crowd"));
    // The first read began before the others arrived; the second serves all of them.
    let reads = pages.reads_begun() - before;
    assert!(reads <= 2, "{CROWD} identical reads made {reads} database reads");
    assert_eq!(pages.readers(&task_id), 0, "nothing is kept once the crowd is served");
    app
}

async fn a_removed_task_is_not_served_from_a_shared_read(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    let task = id(&post_task(&app, &owner, json!({})).await);
    let path = format!("/api/tasks/{task}");
    assert_eq!(app.get(&path, None).await.status, StatusCode::OK);
    // Removed as any node would (the moderation route has its own tests), right after a read.
    on_pool!(&app.server.state.db, |pool| {
        sqlx::query("update tasks set status = 'removed' where id = $1")
            .bind(task.parse::<uuid::Uuid>().unwrap())
            .execute(pool)
            .await
            .unwrap();
    });
    let page = app.get(&path, None).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND, "{:?}", page.body);
    assert_eq!(page.error_code(), "not_found");
    app
}
