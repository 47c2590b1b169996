pub async fn seed_demo(_db: &crate::db::Db, _media: &crate::media::Media) -> anyhow::Result<String> { Ok("todo".into()) }
