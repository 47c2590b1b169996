//! Browse's search by words, in each database's own full-text engine (docs/architecture.md,
//! decision 15): the words of a query and the SQL that matches and ranks them.

use crate::db::Db;

use super::browse::{Arg, arg};

/// The words of a search, lower-cased, at most eight: letters and digits only, so they are safe
/// inside either engine's query syntax.
pub fn search_words(q: &str) -> Vec<String> {
    q.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).take(8).map(str::to_lowercase).collect()
}

/// The full-text match of `words` (each a prefix of a stemmed word, all required) and its rank
/// (larger is better, an integer so a cursor can carry it), per backend.
pub(super) fn full_text(db: &Db, words: &[String], args: &mut Vec<Arg>) -> FullText {
    match db {
        Db::Postgres(_) => {
            let terms: Vec<String> = words.iter().map(|word| format!("{word}:*")).collect();
            let query = format!("to_tsquery('english', {})", arg(Arg::Text(terms.join(" & ")), args));
            FullText {
                join: String::new(),
                condition: format!("t.search_vector @@ {query}"),
                rank: format!("(ts_rank(t.search_vector, {query}) * 1000000)::bigint"),
            }
        }
        Db::Sqlite(_) => {
            let terms: Vec<String> = words.iter().map(|word| format!("\"{word}\"*")).collect();
            FullText {
                join: "join tasks_fts on tasks_fts.rowid = t.rowid".into(),
                condition: format!("tasks_fts match {}", arg(Arg::Text(terms.join(" ")), args)),
                // bm25 is lower for better matches; a title match weighs four times a description's.
                rank: "cast(-bm25(tasks_fts, 4.0, 1.0) * 1000000 as integer)".into(),
            }
        }
    }
}

pub(super) struct FullText {
    pub join: String,
    pub condition: String,
    pub rank: String,
}

#[cfg(test)]
mod tests {
    use super::search_words;

    #[test]
    fn search_words_keep_letters_and_digits_only() {
        assert_eq!(search_words("  Window CLEANER, 2-storey!"), ["window", "cleaner", "2", "storey"]);
        assert_eq!(search_words("\"tap\" OR * (sink) -drain:*"), ["tap", "or", "sink", "drain"]);
        assert_eq!(search_words("Café Zürich"), ["café", "zürich"]);
        assert!(search_words("*** ---").is_empty());
        assert_eq!(search_words("a b c d e f g h i j").len(), 8);
    }
}
