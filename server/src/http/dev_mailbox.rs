//! `/dev/mailbox`: the mail the server would have sent, when no SMTP server is
//! configured, and the texts when no SMS provider is (`/dev/sms.json`). Mounted only in dev mode.

use axum::{
    Router,
    extract::State,
    response::{Html, IntoResponse},
    routing::get,
};

use domain::{
    mail::{MailboxEntry, mailbox_dir, read_mailbox},
    sms::outbox::{OutboxEntry, outbox_dir, read_outbox},
};

use crate::http::{error::ApiResult, extract::ApiJson, state::AppState, web::escape};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/dev/mailbox", get(mailbox_page))
        .route("/dev/mailbox.json", get(mailbox_json))
        .route("/dev/sms.json", get(sms_json))
}

async fn sms_json(State(state): State<AppState>) -> ApiResult<ApiJson<Vec<OutboxEntry>>> {
    Ok(ApiJson(read_outbox(&outbox_dir(&state.config.data_dir)).await?))
}

async fn mailbox_json(State(state): State<AppState>) -> ApiResult<ApiJson<Vec<MailboxEntry>>> {
    Ok(ApiJson(read_mailbox(&mailbox_dir(&state.config.data_dir)).await?))
}

async fn mailbox_page(State(state): State<AppState>) -> ApiResult<impl IntoResponse> {
    let entries = read_mailbox(&mailbox_dir(&state.config.data_dir)).await?;
    let mut html = String::from(
        "<!doctype html><meta charset=utf-8><title>Dev mailbox · Taskhub</title>\
         <style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem}\
         article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}\
         small{color:#666}</style><h1>Dev mailbox</h1>\
         <p>Mail is written here because <code>SMTP_URL</code> is not set.</p>",
    );
    if entries.is_empty() {
        html.push_str("<p>No mail yet.</p>");
    }
    for entry in entries {
        html.push_str(&format!(
            "<article><h2>{}</h2><small>To {} · {}</small><pre>{}</pre></article>",
            escape(&entry.subject),
            escape(&entry.to),
            entry.created_at.to_rfc3339(),
            linkify(&escape(&entry.text)),
        ));
    }
    let texts = read_outbox(&outbox_dir(&state.config.data_dir)).await?;
    html.push_str(
        "<h1>Text messages</h1><p>Texts are written here because <code>TWILIO_ACCOUNT_SID</code> is not set.</p>",
    );
    if texts.is_empty() {
        html.push_str("<p>No texts yet.</p>");
    }
    for text in texts {
        html.push_str(&format!(
            "<article><h2>Text to {}</h2><small>{}</small><pre>{}</pre></article>",
            escape(&text.to),
            text.created_at.to_rfc3339(),
            escape(&text.body),
        ));
    }
    Ok(Html(html))
}

fn linkify(escaped: &str) -> String {
    escaped
        .split(' ')
        .flat_map(|word| word.split_inclusive('\n'))
        .map(|word| {
            let trimmed = word.trim_end();
            if trimmed.starts_with("http://") || trimmed.starts_with("https://") {
                format!("<a href=\"{trimmed}\">{trimmed}</a>{}", &word[trimmed.len()..])
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
        .replace("\n ", "\n")
}
