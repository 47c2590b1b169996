-- Case-insensitive location matching that behaves the same on both backends:
-- SQLite's lower() folds ASCII only ('ÉVORA' stays 'Évora'), so the store keeps
-- a location lower-cased by Rust, like search_text. Rows from before this
-- migration are filled in by the server at start-up (where it is null).
alter table tasks add column location_search text;
