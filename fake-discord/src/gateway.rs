//! The WebSocket gateway: HELLO, IDENTIFY/READY, RESUME/RESUMED with replay, heartbeats,
//! sequence numbers, and the faults a test scripts.

use std::sync::Arc;

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::payloads::user_json;
use crate::records::{GatewayRecord, Rule};
use crate::rules::{MESSAGE_CONTENT_INTENT, snowflake};
use crate::state::{Ctx, Inner, Outbound, Session, Shared};

const CLOSE_UNKNOWN_OPCODE: u16 = 4001;
const CLOSE_DECODE_ERROR: u16 = 4002;
const CLOSE_AUTHENTICATION_FAILED: u16 = 4004;
const CLOSE_ALREADY_AUTHENTICATED: u16 = 4005;
const CLOSE_INVALID_SEQ: u16 = 4007;
const CLOSE_SESSION_TIMED_OUT: u16 = 4009;
const CLOSE_INVALID_SHARD: u16 = 4010;
const CLOSE_DISALLOWED_INTENTS: u16 = 4014;

pub(crate) async fn upgrade(State(shared): State<Arc<Shared>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| run_connection(shared, socket))
}

async fn run_connection(shared: Arc<Shared>, socket: WebSocket) {
    let (tx, mut outbound) = mpsc::unbounded_channel();
    let connection = shared.with(|inner, _| inner.open_connection(tx));
    let (mut sink, mut incoming) = socket.split();
    let mut shutdown = shared.shutdown.subscribe();
    let interval_ms = shared.config.heartbeat_interval.as_millis() as u64;
    let hello = json!({"op": 10, "d": {"heartbeat_interval": interval_ms}, "s": null, "t": null});
    let mut close_code = None;
    let mut by_fake = false;
    if sink
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        shared.with(|inner, _| inner.close_connection(connection, None, false));
        return;
    }
    loop {
        tokio::select! {
            frame = outbound.recv() => {
                let message = match frame {
                    Some(Outbound::Text(text)) => Message::Text(text.into()),
                    Some(Outbound::Binary(bytes)) => Message::Binary(bytes.into()),
                    Some(Outbound::Close(code, reason)) => {
                        close_code = Some(code);
                        by_fake = true;
                        let _ = sink.send(Message::Close(Some(CloseFrame { code, reason: reason.into() }))).await;
                        break;
                    }
                    None => break,
                };
                if sink.send(message).await.is_err() {
                    break;
                }
            }
            received = incoming.next() => match received {
                Some(Ok(Message::Text(text))) => {
                    shared.with(|inner, ctx| handle_frame(inner, ctx, connection, text.as_str()));
                }
                Some(Ok(Message::Close(frame))) => {
                    close_code = frame.map(|f| f.code);
                    break;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => break,
            },
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(Some(CloseFrame { code: 1001, reason: "fake shutting down".into() }))).await;
                break;
            }
        }
    }
    shared.with(|inner, _| inner.close_connection(connection, close_code, by_fake));
}

fn op_frame(op: u64, d: Value) -> Outbound {
    Outbound::Text(json!({"op": op, "d": d, "s": null, "t": null}).to_string())
}

fn close(inner: &mut Inner, connection: u64, code: u16, reason: &str) {
    inner.send_raw(connection, Outbound::Close(code, reason.to_owned()));
}

fn handle_frame(inner: &mut Inner, ctx: &Ctx<'_>, connection: u64, text: &str) {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        inner.violate(Rule::Gateway, "gateway", format!("not JSON: {text}"));
        close(
            inner,
            connection,
            CLOSE_DECODE_ERROR,
            "Error while decoding payload.",
        );
        return;
    };
    let data = frame.get("d").cloned().unwrap_or(Value::Null);
    match frame.get("op").and_then(Value::as_u64) {
        Some(1) => heartbeat(inner, connection, &data),
        Some(2) => identify(inner, ctx, connection, data),
        Some(6) => resume(inner, ctx, connection, &data),
        // Presence, voice state and member requests need no answer in tests.
        Some(3 | 4 | 8) => {}
        other => {
            inner.violate(
                Rule::Gateway,
                "gateway",
                format!("unknown opcode {other:?}"),
            );
            close(inner, connection, CLOSE_UNKNOWN_OPCODE, "Unknown opcode.");
        }
    }
}

fn session_of(inner: &Inner, connection: u64) -> Option<String> {
    inner
        .connections
        .get(&connection)
        .and_then(|c| c.session_id.clone())
}

fn heartbeat(inner: &mut Inner, connection: u64, data: &Value) {
    let shard = session_of(inner, connection)
        .and_then(|id| inner.sessions.get(&id))
        .map(|s| s.shard);
    let skip = match shard.and_then(|shard| inner.shards.get_mut(shard as usize)) {
        Some(state) if state.skip_acks > 0 => {
            state.skip_acks -= 1;
            true
        }
        _ => false,
    };
    if !skip {
        inner.send_raw(connection, op_frame(11, Value::Null));
    }
    inner.gateway_log.push(GatewayRecord::Heartbeat {
        shard,
        seq: data.as_u64(),
        acked: !skip,
    });
}

fn token_ok(ctx: &Ctx<'_>, sent: Option<&str>) -> bool {
    let Some(expected) = &ctx.config.token else {
        return true;
    };
    let sent = sent.unwrap_or("");
    sent.strip_prefix("Bot ").unwrap_or(sent) == expected
}

/// Closes with 4004 (fatal for serenity) when the token is not the configured one.
fn authenticated(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    connection: u64,
    token: Option<&str>,
    payload: &str,
) -> bool {
    if token_ok(ctx, token) {
        return true;
    }
    inner.violate(
        Rule::Unauthorized,
        "gateway",
        format!("{payload} with a wrong token"),
    );
    close(
        inner,
        connection,
        CLOSE_AUTHENTICATION_FAILED,
        "Authentication failed.",
    );
    false
}

fn identify(inner: &mut Inner, ctx: &Ctx<'_>, connection: u64, data: Value) {
    let shard_pair = data.get("shard").and_then(Value::as_array);
    let shard_at = |index: usize| {
        shard_pair
            .and_then(|pair| pair.get(index))
            .and_then(Value::as_u64)
    };
    let shard = shard_at(0).unwrap_or(0) as u32;
    let total = shard_at(1).unwrap_or(1) as u32;
    let intents = data.get("intents").and_then(Value::as_u64).unwrap_or(0);
    let token = data.get("token").and_then(Value::as_str).map(str::to_owned);
    inner.gateway_log.push(GatewayRecord::Identify {
        connection,
        shard: [shard, total],
        intents,
        payload: data,
    });
    if !authenticated(inner, ctx, connection, token.as_deref(), "IDENTIFY") {
        return;
    }
    if session_of(inner, connection).is_some() {
        close(
            inner,
            connection,
            CLOSE_ALREADY_AUTHENTICATED,
            "Already authenticated.",
        );
        return;
    }
    if total as usize != inner.shards.len() || shard >= total {
        let detail = format!(
            "IDENTIFY asked for shard [{shard}, {total}], the fake serves {} shards",
            inner.shards.len()
        );
        inner.violate(Rule::Gateway, "gateway", detail);
        close(inner, connection, CLOSE_INVALID_SHARD, "Invalid shard.");
        return;
    }
    if intents & MESSAGE_CONTENT_INTENT != 0 && !ctx.config.message_content_intent_allowed {
        close(
            inner,
            connection,
            CLOSE_DISALLOWED_INTENTS,
            "Disallowed intent(s).",
        );
        return;
    }
    let session_id = format!("fake-session-{}", inner.next_id());
    if let Some(old) = inner.shards[shard as usize]
        .session_id
        .replace(session_id.clone())
    {
        inner.sessions.remove(&old);
    }
    let session = Session {
        shard,
        intents,
        seq: 0,
        log: Default::default(),
        connection: Some(connection),
        resumable: true,
    };
    inner.sessions.insert(session_id.clone(), session);
    if let Some(open) = inner.connections.get_mut(&connection) {
        open.session_id = Some(session_id.clone());
    }
    let ready = ready_payload(inner, ctx, &session_id, shard, total);
    inner.send_dispatch(ctx, &session_id, "READY", ready);
    inner
        .gateway_log
        .push(GatewayRecord::Ready { shard, session_id });
    inner.flush(ctx, shard);
}

fn ready_payload(inner: &Inner, ctx: &Ctx<'_>, session_id: &str, shard: u32, total: u32) -> Value {
    let config = ctx.config;
    let guilds: Vec<Value> = config
        .guilds
        .iter()
        .filter(|guild_id| inner.shard_for(&json!({"guild_id": guild_id.to_string()})) == shard)
        .map(|guild_id| json!({"id": guild_id.to_string(), "unavailable": true}))
        .collect();
    let mut user = user_json(config.bot_user_id, &config.bot_username, true);
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    json!({
        "v": 10,
        "user": user,
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": gateway_url(ctx.base_url),
        "shard": [shard, total],
        "application": {"id": config.application_id.to_string(), "flags": 0},
    })
}

pub(crate) fn gateway_url(base_url: &str) -> String {
    let host = base_url.strip_prefix("http://").unwrap_or(base_url);
    format!("ws://{host}/ws")
}

fn resume(inner: &mut Inner, ctx: &Ctx<'_>, connection: u64, data: &Value) {
    let session_id = data
        .get("session_id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let client_seq = data.get("seq").and_then(snowflake).unwrap_or(0);
    let token = data.get("token").and_then(Value::as_str);
    inner.gateway_log.push(GatewayRecord::Resume {
        connection,
        session_id: session_id.clone(),
        seq: client_seq,
    });
    if !authenticated(inner, ctx, connection, token, "RESUME") {
        return;
    }
    let current = inner
        .sessions
        .get(&session_id)
        .filter(|s| s.resumable)
        .map(|s| s.shard)
        .filter(|shard| {
            inner
                .shards
                .get(*shard as usize)
                .and_then(|st| st.session_id.as_deref())
                == Some(session_id.as_str())
        });
    let Some(shard) = current else {
        inner.send_raw(connection, op_frame(9, json!(false)));
        inner.gateway_log.push(GatewayRecord::InvalidSessionSent {
            shard: None,
            resumable: false,
        });
        return;
    };
    let replay: Vec<Outbound> =
        inner
            .sessions
            .get_mut(&session_id)
            .map_or_else(Vec::new, |session| {
                session.connection = Some(connection);
                session
                    .log
                    .iter()
                    .filter(|(seq, _)| *seq > client_seq)
                    .map(|(_, frame)| frame.clone())
                    .collect()
            });
    if let Some(open) = inner.connections.get_mut(&connection) {
        open.session_id = Some(session_id.clone());
    }
    let replayed = replay.len();
    for frame in replay {
        inner.send_raw(connection, frame);
    }
    inner.send_dispatch(ctx, &session_id, "RESUMED", json!({}));
    inner
        .gateway_log
        .push(GatewayRecord::Resumed { shard, replayed });
    inner.flush(ctx, shard);
}

/// The session and connection serving `shard` now, if any.
fn live_connection(inner: &Inner, shard: u32) -> Option<(String, u64)> {
    let session_id = inner.shards.get(shard as usize)?.session_id.clone()?;
    let connection = inner.sessions.get(&session_id)?.connection?;
    Some((session_id, connection))
}

/// Stops sending to the shard's connection: Discord stops once it asked the client to
/// reconnect, so later dispatches wait for the RESUME (or the next IDENTIFY).
fn detach(inner: &mut Inner, session_id: &str) {
    if let Some(session) = inner.sessions.get_mut(session_id) {
        session.connection = None;
    }
}

fn forget_session(inner: &mut Inner, shard: u32) {
    let Some(state) = inner.shards.get_mut(shard as usize) else {
        return;
    };
    if let Some(old) = state.session_id.take() {
        inner.sessions.remove(&old);
    }
}

/// Op 7 RECONNECT; serenity answers by reconnecting and resuming.
pub(crate) fn send_reconnect(inner: &mut Inner, shard: u32) -> bool {
    let Some((session_id, connection)) = live_connection(inner, shard) else {
        return false;
    };
    inner.send_raw(connection, op_frame(7, Value::Null));
    detach(inner, &session_id);
    inner
        .gateway_log
        .push(GatewayRecord::ReconnectSent { shard });
    true
}

/// Op 9 INVALID_SESSION; when not resumable the session is gone and the bot must IDENTIFY.
pub(crate) fn invalidate_session(inner: &mut Inner, shard: u32, resumable: bool) -> bool {
    let Some((session_id, connection)) = live_connection(inner, shard) else {
        return false;
    };
    inner.send_raw(connection, op_frame(9, json!(resumable)));
    detach(inner, &session_id);
    if !resumable {
        forget_session(inner, shard);
    }
    inner.gateway_log.push(GatewayRecord::InvalidSessionSent {
        shard: Some(shard),
        resumable,
    });
    true
}

/// Closes the shard's connection with `code`. Codes after which Discord refuses a RESUME
/// (4007, 4009 and the fatal ones) also end the session.
pub(crate) fn close_shard(inner: &mut Inner, shard: u32, code: u16) -> bool {
    let Some((session_id, connection)) = live_connection(inner, shard) else {
        return false;
    };
    close(inner, connection, code, "closed by the test");
    detach(inner, &session_id);
    let ends_session = matches!(code, CLOSE_INVALID_SEQ | CLOSE_SESSION_TIMED_OUT)
        || code == CLOSE_AUTHENTICATION_FAILED
        || code >= CLOSE_INVALID_SHARD;
    if ends_session {
        forget_session(inner, shard);
    }
    true
}
