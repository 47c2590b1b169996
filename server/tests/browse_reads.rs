//! The anonymous browse list under a crowd (issue 27): identical anonymous requests made at once
//! share one database read; a different query, or a signed-in caller, reads on its own; a task
//! posted before a request is in its answer. On both backends.

use std::time::{Duration, Instant};

use crate::common;

use common::{
    TestApp,
    market::{date_in, holding_the_pool, post_task, poster},
};
use reqwest::StatusCode;
use serde_json::json;

on_both_backends!(
    identical_anonymous_browse_reads_made_at_once_share_one_database_read,
    signed_in_browse_reads_are_not_shared_and_answers_stay_fresh,
);

fn titles(response: &common::Response) -> Vec<String> {
    assert_eq!(response.status, StatusCode::OK, "{:?}", response.body);
    response.body["items"].as_array().unwrap().iter().map(|t| t["title"].as_str().unwrap().to_owned()).collect()
}

async fn identical_anonymous_browse_reads_made_at_once_share_one_database_read(app: TestApp) -> TestApp {
    const CROWD: usize = 30;
    let owner = poster(&app, "poster@example.com").await;
    post_task(&app, &owner, json!({ "title": "Paint the fence" })).await;
    post_task(&app, &owner, json!({ "title": "Mow the lawn" })).await;
    let pages = &app.server.state.browse_pages;
    let before = pages.reads_begun();
    let spawn = |path: &str| {
        let (client, url) = (app.client.clone(), app.url(path));
        tokio::spawn(async move { TestApp::read(client.get(url).send().await.unwrap()).await })
    };
    let (crowd, other) = holding_the_pool(&app, async {
        // Two spellings of one query share; another query has a read of its own.
        let crowd: Vec<_> = (0..CROWD)
            .map(|i| spawn(if i % 2 == 0 { "/api/tasks?q=fence" } else { "/api/tasks?sort=best_match&q=fence" }))
            .collect();
        let other = spawn("/api/tasks?q=lawn");
        let deadline = Instant::now() + Duration::from_secs(10);
        while pages.all_readers() < CROWD + 1 {
            assert!(Instant::now() < deadline, "only {} requests arrived", pages.all_readers());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        (crowd, other)
    })
    .await;
    for request in crowd {
        assert_eq!(titles(&request.await.unwrap()), ["Paint the fence"]);
    }
    assert_eq!(titles(&other.await.unwrap()), ["Mow the lawn"]);
    // The crowd's first read began before the others arrived, the second serves all of them; the
    // other query made its own.
    let reads = pages.reads_begun() - before;
    assert!((2..=3).contains(&reads), "{CROWD} identical reads and one other made {reads} database reads");
    assert_eq!(pages.all_readers(), 0, "nothing is kept once the crowd is served");
    app
}

async fn signed_in_browse_reads_are_not_shared_and_answers_stay_fresh(app: TestApp) -> TestApp {
    let owner = poster(&app, "poster@example.com").await;
    post_task(&app, &owner, json!({ "title": "Paint the fence" })).await;
    let pages = &app.server.state.browse_pages;
    let before = pages.reads_begun();
    assert_eq!(titles(&app.get("/api/tasks", Some(&owner)).await), ["Paint the fence"]);
    assert_eq!(pages.reads_begun(), before, "a signed-in caller reads on its own");
    assert_eq!(titles(&app.get("/api/tasks", None).await), ["Paint the fence"]);
    assert_eq!(pages.reads_begun(), before + 1);
    // An answer never predates its request: a task posted just before is in it.
    post_task(&app, &owner, json!({ "title": "Fix the gate" })).await;
    assert_eq!(titles(&app.get("/api/tasks", None).await), ["Fix the gate", "Paint the fence"]);
    app
}

/// SQLite plans by rules of thumb until it has statistics, and read a budget range's newest tasks
/// at a million tasks by sorting every task in the range: the server gathers them at start-up
/// (after migrations) and every hour (`Db::refresh_planner_statistics`), as SQLite advises. They
/// are per-index counts without STAT4 samples: with samples, SQLite plans a statement again each
/// time a value is bound to it, which is every time sqlx runs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_gathers_planner_statistics_without_samples_at_start_up() {
    common::run(
        common::Backend::Sqlite,
        |_| {},
        |app: TestApp| async move {
            let owner = poster(&app, "stats.poster@example.com").await;
            for title in ["Paint the fence", "Mow the lawn", "Clean the gutters"] {
                post_task(&app, &owner, json!({ "title": title })).await;
            }
            let db = &app.server.state.db;
            let store::db::Db::Sqlite(pool) = db else { unreachable!("a SQLite app") };
            sqlx::query("delete from sqlite_stat1").execute(pool).await.unwrap();
            // What the server runs when it starts.
            db.migrate().await.unwrap();
            let indexes: Vec<String> =
                sqlx::query_scalar("select idx from sqlite_stat1 where tbl = 'tasks' and idx is not null order by idx")
                    .fetch_all(pool)
                    .await
                    .unwrap();
            assert!(indexes.contains(&"tasks_open_budget".to_owned()), "{indexes:?}");
            assert!(indexes.contains(&"tasks_open_newest".to_owned()), "{indexes:?}");
            let has_samples_table: bool =
                sqlx::query_scalar("select exists (select 1 from sqlite_schema where name = 'sqlite_stat4')")
                    .fetch_one(pool)
                    .await
                    .unwrap();
            if has_samples_table {
                let samples: i64 =
                    sqlx::query_scalar("select count(*) from sqlite_stat4").fetch_one(pool).await.unwrap();
                assert_eq!(samples, 0, "STAT4 samples make every bound statement be planned again");
            }
            app
        },
    )
    .await;
}

/// With the statistics the server's bounded `PRAGMA optimize` gathers at a million tasks (these,
/// read off the browse bench's database), SQLite cannot tell a wide budget range from a narrow one. It read a wide
/// range's newest tasks from the budget index, sorting every task in the range (5 s a page), and
/// left alone it walks every open task in search of a range that holds none. The server counts
/// the range's tasks first (`store::browse::budget_read`): a wide range's newest list walks the
/// newest index in order and checks the range on each entry; a narrow one is read from the budget
/// index and sorted on its entries. Either way the pages are the ones the range holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_reads_a_budget_range_by_how_many_tasks_it_holds_at_a_million_tasks() {
    common::run(
        common::Backend::Sqlite,
        |_| {},
        |app: TestApp| async move {
            let owner = poster(&app, "range.poster@example.com").await;
            post_task(&app, &owner, json!({ "title": "Mow the lawn", "budget_cents": 10_000 })).await;
            let db = &app.server.state.db;
            let store::db::Db::Sqlite(pool) = db else { unreachable!("a SQLite app") };
            // Copies of that task, each a second older, so the wide range holds more than the
            // probe counts.
            let columns: Vec<String> =
                sqlx::query_scalar("select name from pragma_table_info('tasks')").fetch_all(pool).await.unwrap();
            let copied: Vec<String> = columns
                .iter()
                .map(|column| match column.as_str() {
                    "id" => "randomblob(16)".to_owned(),
                    "created_at" => "created_at - copy.n * 1000".to_owned(),
                    other => other.to_owned(),
                })
                .collect();
            let copies = store::browse::NARROW_BUDGET_RANGE + 100;
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "with recursive copy (n) as (select 1 union all select n + 1 from copy where n < {copies})
                 insert into tasks ({}) select {} from tasks, copy",
                columns.join(", "),
                copied.join(", ")
            )))
            .execute(pool)
            .await
            .unwrap();
            post_task(&app, &owner, json!({ "title": "Fix the tap", "budget_cents": 77_700 })).await;

            sqlx::query("delete from sqlite_stat1 where tbl in ('tasks', 'profiles', 'users')")
                .execute(pool)
                .await
                .unwrap();
            for (table, index, stat) in [
                ("profiles", "sqlite_autoindex_profiles_1", "10000 1"),
                ("users", "sqlite_autoindex_users_1", "10000 1"),
                ("users", "sqlite_autoindex_users_2", "10000 1"),
                ("tasks", "sqlite_autoindex_tasks_1", "1000000 1"),
                ("tasks", "tasks_assigned_tasker", "1000000 1177 1177"),
                ("tasks", "tasks_open_budget", "1000000 393 1 1 1 1"),
                ("tasks", "tasks_open_category_budget", "1000000 1177 31 1 1 1 1"),
                ("tasks", "tasks_open_category_due", "1000000 1177 589 1 1 1"),
                ("tasks", "tasks_open_category_newest", "1000000 1177 1 1 1 1"),
                ("tasks", "tasks_open_category_rowid", "1000000 1177"),
                ("tasks", "tasks_open_due", "1000000 1177 1 1 1"),
                ("tasks", "tasks_open_newest", "1000000 1 1 1 1"),
                ("tasks", "tasks_poster", "1000000 99 1"),
            ] {
                sqlx::query("insert into sqlite_stat1 (tbl, idx, stat) values (?, ?, ?)")
                    .bind(table)
                    .bind(index)
                    .bind(stat)
                    .execute(pool)
                    .await
                    .unwrap();
            }
            // A schema change makes every connection read the statistics again.
            sqlx::query("create table reload_statistics (x)").execute(pool).await.unwrap();
            sqlx::query("drop table reload_statistics").execute(pool).await.unwrap();

            use store::{
                browse::{BrowseFilter, BrowseSort, BudgetRead, budget_read},
                open_tasks::explain_page as explain_open_tasks_page,
            };
            let wide =
                BrowseFilter { min_budget_cents: Some(5_000), max_budget_cents: Some(150_000), ..Default::default() };
            assert_eq!(budget_read(db, &wide, BrowseSort::Newest).await.unwrap(), BudgetRead::SortIndex);
            // The walk checks the range and the poster on the sort index's entries, and reads only
            // the page's tasks: the page's ids come from the index alone, in its order.
            for (sort, index) in [(BrowseSort::Newest, "tasks_open_newest"), (BrowseSort::DueSoonest, "tasks_open_due")]
            {
                let plan = explain_open_tasks_page(db, &wide, sort, None, 21).await.unwrap();
                let walk = plan.iter().position(|step| step.contains("COVERING INDEX")).expect("a covering read");
                assert!(plan[walk].starts_with(&format!("SCAN t USING COVERING INDEX {index}")), "{sort:?}: {plan:?}");
                let page = plan.iter().position(|step| step == "SCAN page").expect("the page read after");
                assert!(!plan[walk..page].iter().any(|step| step.contains("TEMP B-TREE")), "{sort:?}: {plan:?}");
            }
            let by_budget = explain_open_tasks_page(db, &wide, BrowseSort::BudgetDesc, None, 21).await.unwrap();
            assert!(by_budget.iter().any(|step| step.contains("tasks_open_budget")), "{by_budget:?}");

            for narrow in [
                BrowseFilter { min_budget_cents: Some(50_000), ..Default::default() },
                BrowseFilter { min_budget_cents: Some(1_000_000), ..Default::default() },
                BrowseFilter { category_id: Some(1), max_budget_cents: Some(5_000), ..Default::default() },
            ] {
                assert_eq!(budget_read(db, &narrow, BrowseSort::Newest).await.unwrap(), BudgetRead::BudgetIndex);
                let plan = explain_open_tasks_page(db, &narrow, BrowseSort::DueSoonest, None, 21).await.unwrap();
                // The range is read from the budget index, named (with these counts SQLite would
                // otherwise read every poster's tasks), and sorted on its entries alone; only the
                // page's tasks are read.
                let index =
                    if narrow.category_id.is_some() { "tasks_open_category_budget" } else { "tasks_open_budget" };
                assert!(
                    plan.iter().any(|step| step.starts_with(&format!("SEARCH t USING COVERING INDEX {index} ("))),
                    "{narrow:?}: {plan:?}"
                );
            }

            // The pages: the wide range holds every task, so it pages as the whole list does.
            let page = |path: String| {
                let app = &app;
                async move {
                    let response = app.get(&path, None).await;
                    assert_eq!(response.status, StatusCode::OK, "{path}: {:?}", response.body);
                    response.body
                }
            };
            let (everything, in_range) =
                (page("/api/tasks".into()).await, page("/api/tasks?min_budget=50&max_budget=1500".into()).await);
            assert_eq!(everything["items"], in_range["items"]);
            let next = |body: &serde_json::Value| body["next_cursor"].as_str().unwrap().to_owned();
            assert_eq!(
                page(format!("/api/tasks?cursor={}", next(&everything))).await["items"],
                page(format!("/api/tasks?min_budget=50&max_budget=1500&cursor={}", next(&in_range))).await["items"],
            );
            let narrow = page("/api/tasks?min_budget=500".into()).await;
            assert_eq!(narrow["items"].as_array().unwrap().len(), 1, "{narrow}");
            assert_eq!(narrow["items"][0]["title"], "Fix the tap");
            assert!(page("/api/tasks?min_budget=10000".into()).await["items"].as_array().unwrap().is_empty());

            // A narrow range of more than a page, paged in both orders sorted on the budget index's entries.
            for (n, days) in [3, 1, 2, 1, 5].into_iter().enumerate() {
                let task = json!({ "title": format!("Narrow {n}"), "budget_cents": 88_800, "due_date": date_in(days) });
                post_task(&app, &owner, task).await;
            }
            for (query, expected) in [
                ("min_budget=888&limit=2", ["Narrow 4", "Narrow 3", "Narrow 2", "Narrow 1", "Narrow 0"]),
                (
                    "min_budget=888&limit=2&sort=due_soonest",
                    ["Narrow 1", "Narrow 3", "Narrow 2", "Narrow 0", "Narrow 4"],
                ),
            ] {
                let (mut seen, mut cursor) = (Vec::new(), String::new());
                loop {
                    let body = page(format!("/api/tasks?{query}{cursor}")).await;
                    seen.extend(body["items"].as_array().unwrap().iter().map(|task| task["title"].clone()));
                    match body["next_cursor"].as_str() {
                        Some(next) => cursor = format!("&cursor={next}"),
                        None => break,
                    }
                }
                assert_eq!(seen, expected, "{query}");
            }
            app
        },
    )
    .await;
}

/// On PostgreSQL, too, a list chooses its page on index entries alone (migration 0025): each
/// browse index holds the budget and the poster (`include` columns), so the page's ids come from
/// an index-only scan, and only the page's tasks are read. Such a scan still reads a task where
/// vacuum has not marked its page all-visible, so the migration also has autovacuum come after
/// inserts to 1% of `tasks` and changes to 2%, not a fifth. The plans are the ones `EXPLAIN` gives
/// for these values (a custom plan).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(taskhub_skip_postgres, ignore = "TASKHUB_SKIP_POSTGRES is set")]
async fn postgres_chooses_a_page_on_index_entries_alone() {
    common::run(
        common::Backend::Postgres,
        |_| {},
        |app: TestApp| async move {
            let owner = poster(&app, "entries.poster@example.com").await;
            post_task(&app, &owner, json!({ "title": "Mow the lawn", "budget_cents": 10_000 })).await;
            let db = &app.server.state.db;
            let store::db::Db::Postgres(pool) = db else { unreachable!("a PostgreSQL app") };
            // Copies of that task, each a second older and spread over the 16 categories: enough
            // that the planner reads an index.
            let columns: Vec<String> = sqlx::query_scalar(
                "select column_name::text from information_schema.columns
                 where table_schema = current_schema() and table_name = 'tasks' and is_generated = 'NEVER'
                 order by ordinal_position",
            )
            .fetch_all(pool)
            .await
            .unwrap();
            let copied: Vec<String> = columns
                .iter()
                .map(|column| match column.as_str() {
                    "id" => "gen_random_uuid()".to_owned(),
                    "created_at" => "created_at - copy.n * 1000".to_owned(),
                    "category_id" => "1 + copy.n % 16".to_owned(),
                    other => other.to_owned(),
                })
                .collect();
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "insert into tasks ({}) select {} from tasks, generate_series(1, 5000) as copy (n)",
                columns.join(", "),
                copied.join(", ")
            )))
            .execute(pool)
            .await
            .unwrap();
            post_task(&app, &owner, json!({ "title": "Fix the tap", "budget_cents": 77_700 })).await;
            // What autovacuum does after the copies: statistics, and every page marked all-visible.
            sqlx::query("vacuum analyze tasks").execute(pool).await.unwrap();

            use store::{
                browse::{BrowseFilter, BrowseSort},
                open_tasks::explain_page as explain_open_tasks_page,
            };
            let wide =
                BrowseFilter { min_budget_cents: Some(5_000), max_budget_cents: Some(150_000), ..Default::default() };
            for (filter, sort, index) in [
                (BrowseFilter::default(), BrowseSort::Newest, "tasks_open_newest"),
                (wide.clone(), BrowseSort::Newest, "tasks_open_newest"),
                (wide, BrowseSort::DueSoonest, "tasks_open_due"),
                (
                    BrowseFilter { min_budget_cents: Some(50_000), ..Default::default() },
                    BrowseSort::Newest,
                    "tasks_open_budget",
                ),
                (
                    BrowseFilter { category_id: Some(1), ..Default::default() },
                    BrowseSort::Newest,
                    "tasks_open_category_newest",
                ),
            ] {
                let plan = explain_open_tasks_page(db, &filter, sort, None, 21).await.unwrap();
                assert!(
                    plan.iter().any(|step| step.contains(&format!("Index Only Scan using {index} on tasks"))),
                    "{filter:?} {sort:?}: {plan:#?}"
                );
            }

            let options: Vec<String> =
                sqlx::query_scalar("select unnest(reloptions) from pg_class where oid = 'tasks'::regclass")
                    .fetch_all(pool)
                    .await
                    .unwrap();
            for option in ["autovacuum_vacuum_insert_scale_factor=0.01", "autovacuum_vacuum_scale_factor=0.02"] {
                assert!(options.contains(&option.to_owned()), "{options:?}");
            }
            app
        },
    )
    .await;
}
