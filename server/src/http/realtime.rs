//! `/ws` (the live connection) and the tickets that authenticate it.

use std::time::Duration;

use axum::{
    Router,
    extract::{State, WebSocketUpgrade},
    response::Response,
    routing::{get, post},
};
use realtime::SocketOwner;
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use domain::{auth::secrets, wire::sessions::TicketResponse};
use store::{
    db::{Db, Timestamp},
    realtime_tickets::{self, TicketHolder},
    refresh_tokens,
};

use crate::http::{
    error::ApiResult,
    extract::{ApiJson, ApiQuery, AuthUser, ClientIp, Operator},
    state::AppState,
};

const TICKET_TTL: Duration = Duration::from_secs(30);

pub fn api_router() -> Router<AppState> {
    Router::new().route("/realtime/ticket", post(issue_ticket))
}

pub fn socket_router() -> Router<AppState> {
    Router::new().route("/ws", get(connect))
}

/// A single-use ticket (30 s) for `GET /ws?ticket=…`; browsers cannot send headers on a WebSocket.
/// It names the caller's session, whose end closes the socket.
#[utoipa::path(post, path = "/api/realtime/ticket", tag = "realtime", security(("bearer" = [])),
    responses((status = 200, body = TicketResponse), (status = 401)))]
pub async fn issue_ticket(State(state): State<AppState>, caller: AuthUser) -> ApiResult<ApiJson<TicketResponse>> {
    let ticket = secrets::new_token();
    let holder = TicketHolder { user_id: caller.id, session_id: caller.session_id };
    realtime_tickets::insert(&state.db, &secrets::token_hash(&ticket), holder, Timestamp::now().plus(TICKET_TTL))
        .await?;
    Ok(ApiJson(TicketResponse { ticket, expires_in: TICKET_TTL.as_secs() }))
}

#[derive(Deserialize)]
pub struct ConnectQuery {
    ticket: Option<String>,
}

/// Without a ticket the socket is anonymous (public topics only); a bad ticket, or one whose session
/// ended since it was issued, closes it with 4001;
/// a client (an IPv4 address or IPv6 /64) past `WS_MAX_CONNECTIONS_PER_CLIENT` open sockets is closed with 4029.
async fn connect(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    ApiQuery(query): ApiQuery<ConnectQuery>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let client = domain::rate_limit::client_prefix(client);
    let Some(ticket) = query.ticket.filter(|ticket| !ticket.is_empty()) else {
        return Ok(state.hub.accept_from(ws, None, client));
    };
    let Some(holder) = realtime_tickets::redeem(&state.db, &secrets::token_hash(&ticket), Timestamp::now()).await?
    else {
        return Ok(state.hub.reject_unauthorized(ws));
    };
    if let Some(session_id) = holder.session_id
        && refresh_tokens::family_revoked(&state.db, session_id).await?
    {
        return Ok(state.hub.reject_unauthorized(ws));
    }
    if !state.config.admin_emails.is_empty() && Operator::is(&state, holder.user_id).await? {
        state.operator_sockets.mark(holder.user_id);
    }
    let owner =
        SocketOwner { user_id: holder.user_id.to_string(), session_id: holder.session_id.map(|id| id.to_string()) };
    Ok(state.hub.accept_from(ws, Some(owner), client))
}

/// Removes unused tickets every five minutes, so the table stays small.
pub async fn delete_expired_tickets(db: Db, stop: CancellationToken) {
    let mut interval = tokio::time::interval(Duration::from_secs(300));
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = interval.tick() => {}
        }
        if let Err(error) = realtime_tickets::delete_expired(&db, Timestamp::now()).await {
            tracing::warn!(error = ?error, "could not delete expired realtime tickets");
        }
    }
}
