//! SQLite: Best match's rank, `match_rank(tasks_fts)`, an FTS5 auxiliary function registered on
//! every connection ([`register`], from `db.rs`).
//!
//! It counts the matches FTS5 already found in each column (`xInstCount`, `xInst`: positions
//! read from the index), a title's match weighing four times a description's, each column
//! counting up to two or three matches so that no description outranks a title: like
//! PostgreSQL's `ts_rank`, which weighs where and how often and levels off. Not `bm25`: it
//! counts, per query, every task with each word, which at a million tasks cost more than the rest
//! of the search together. Nor SQL over `highlight`, which counted the same matches by reading
//! each of the window's matching tasks again and stemming its text: with it, "fence" by Best
//! match ran at 549–678 requests/s at a million tasks, and 786–851 with this
//! (bench/browse/HISTORY.md, stop 42).

use std::{
    ffi::{c_int, c_void},
    ptr::{self, NonNull},
};

use libsqlite3_sys as ffi;

/// The rank of a task with `title` matches in its title and `description` in its description.
pub fn rank(title: i64, description: i64) -> i64 {
    4 * title.min(2) + description.min(3)
}

/// Makes `match_rank` callable on the connection `db`.
///
/// # Safety
/// `db` is an open connection that no other thread uses during the call (sqlx's
/// `LockedSqliteHandle` guarantees it).
pub unsafe fn register(db: NonNull<ffi::sqlite3>) -> Result<(), String> {
    // SAFETY: `db` is open and ours for the call; `fts5_api` returns FTS5's table of functions,
    // which lives as long as the connection.
    unsafe {
        let api = fts5_api(db.as_ptr()).ok_or("this SQLite has no FTS5")?;
        let create = (*api).xCreateFunction.ok_or("FTS5 cannot create functions")?;
        match create(api, c"match_rank".as_ptr(), ptr::null_mut(), Some(match_rank), None) {
            ffi::SQLITE_OK => Ok(()),
            code => Err(format!("registering match_rank: SQLite error {code}")),
        }
    }
}

/// FTS5's API of a connection, the documented way: `select fts5(?1)` writes it through a
/// pointer bound as `fts5_api_ptr`.
unsafe fn fts5_api(db: *mut ffi::sqlite3) -> Option<*mut ffi::fts5_api> {
    let mut api: *mut ffi::fts5_api = ptr::null_mut();
    let mut statement: *mut ffi::sqlite3_stmt = ptr::null_mut();
    // SAFETY: `api` outlives the statement, which is finalized before it is read.
    unsafe {
        let sql = c"select fts5(?1)";
        if ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut statement, ptr::null_mut()) == ffi::SQLITE_OK {
            let out = (&raw mut api).cast::<c_void>();
            if ffi::sqlite3_bind_pointer(statement, 1, out, c"fts5_api_ptr".as_ptr(), None) == ffi::SQLITE_OK {
                ffi::sqlite3_step(statement);
            }
        }
        ffi::sqlite3_finalize(statement);
    }
    (!api.is_null()).then_some(api)
}

unsafe extern "C" fn match_rank(
    api: *const ffi::Fts5ExtensionApi,
    fts: *mut ffi::Fts5Context,
    context: *mut ffi::sqlite3_context,
    _argument_count: c_int,
    _arguments: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 calls this with its own API and the current row's context.
    unsafe {
        match matches_per_column(&*api, fts) {
            Ok([title, description]) => ffi::sqlite3_result_int64(context, rank(title, description)),
            Err(code) => ffi::sqlite3_result_error_code(context, code),
        }
    }
}

/// How many tokens of the title (column 0) and the description (column 1) match. A token that
/// two words match ("clean" and "cleaning" both match "cleaning") counts once: FTS5 lists the
/// matches in order of column and position, so the two are neighbours.
unsafe fn matches_per_column(api: &ffi::Fts5ExtensionApi, fts: *mut ffi::Fts5Context) -> Result<[i64; 2], c_int> {
    let (Some(instance_count), Some(instance)) = (api.xInstCount, api.xInst) else {
        return Err(ffi::SQLITE_MISUSE);
    };
    let check = |code: c_int| if code == ffi::SQLITE_OK { Ok(()) } else { Err(code) };
    let mut count = 0;
    // SAFETY: `fts` is the current row's context, valid for the duration of the call.
    unsafe { check(instance_count(fts, &mut count))? };
    let mut matches = [0; 2];
    let mut previous = None;
    for index in 0..count {
        let (mut phrase, mut column, mut offset) = (0, 0, 0);
        // SAFETY: as above; `index` is below the count FTS5 gave.
        unsafe { check(instance(fts, index, &mut phrase, &mut column, &mut offset))? };
        if previous == Some((column, offset)) {
            continue;
        }
        previous = Some((column, offset));
        if let Some(matches) = usize::try_from(column).ok().and_then(|column| matches.get_mut(column)) {
            *matches += 1;
        }
    }
    Ok(matches)
}

#[cfg(test)]
mod tests {
    use crate::db::Db;

    /// `match_rank` of each (title, description) for the FTS5 query `query`, through a pool
    /// opened as the server opens it.
    async fn ranks(query: &str, tasks: &[(&str, &str)]) -> Vec<i64> {
        let dir = std::env::temp_dir().join(format!("taskhub-match-rank-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::connect(&format!("sqlite:{}", dir.join("rank.db").display())).await.unwrap();
        let Db::Sqlite(pool) = &db else { unreachable!() };
        let create = "create virtual table t using fts5(title, description, tokenize = 'porter unicode61')";
        sqlx::query(create).execute(pool).await.unwrap();
        for (title, description) in tasks {
            sqlx::query("insert into t (title, description) values (?, ?)")
                .bind(title)
                .bind(description)
                .execute(pool)
                .await
                .unwrap();
        }
        let ranks = sqlx::query_scalar("select match_rank(t) from t where t match ? order by rowid")
            .bind(query)
            .fetch_all(pool)
            .await
            .unwrap();
        db.close().await;
        std::fs::remove_dir_all(dir).ok();
        ranks
    }

    #[tokio::test]
    async fn a_title_match_weighs_four_description_matches_and_each_column_levels_off() {
        let tasks = [
            ("Paint the fence", "White, two coats"),
            ("Garden work", "Weeding, and paint one fence post"),
            ("Fence and gate", "New fence palings, the gate rehung"),
            ("Fence, fence and fence", "Fence fence fence: a fence, fences, fencing"),
        ];
        assert_eq!(ranks("\"fence\"*", &tasks).await, [4, 1, 5, 4 * 2 + 3]);
    }

    #[tokio::test]
    async fn a_word_two_search_words_match_counts_once() {
        // "cleaning" is stemmed to "clean": both search words match each of these words.
        let tasks = [("Cleaning", "Clean the oven"), ("Clean windows, clean gutters", "Outside only")];
        assert_eq!(ranks("\"clean\"* \"cleaning\"*", &tasks).await, [4 + 1, 4 * 2]);
    }
}
