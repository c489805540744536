//! One shard's gateway connection, read by Tavern itself.
//!
//! serenity's shard runner decodes every frame three times (into a `Value` map, into
//! serde's `Content` buffer for its adjacently tagged `Event`, and the interaction into
//! a map again before its model), then clones the event for its handler's task: 40 %
//! of a `/roll`'s CPU at 2,000 a second (BENCHMARKS.md, "What serenity's decoding
//! costs"). Here a frame's envelope is read once without building anything
//! ([`Envelope`]), and the four events Tavern handles are decoded once, straight into
//! serenity's model types, which the rest of the transport already speaks.
//!
//! The protocol is Discord's (gateway v10, JSON, no compression): `HELLO`, heartbeats
//! with the last sequence number, a missing acknowledgement treated as a dead
//! connection, `IDENTIFY` at most once every five seconds per process, `RESUME` at
//! `resume_gateway_url` after a drop, opcodes 1, 7 and 9, and the close codes after
//! which reconnecting cannot help (an invalid token, shard, version or intents) ending
//! the shard with an error.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde_json::json;
use serenity::all::{Message as SerenityMessage, Ready};
use tokio::sync::{Mutex, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message as Frame;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use super::wire::CommandEvent;
use super::{Handler, Inbound};

/// How long a connection may take to open and say `HELLO`.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a shutdown waits for Discord to answer its close.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);
/// Discord's spacing of two `IDENTIFY`s of one bot (a `max_concurrency` of 1).
const IDENTIFY_SPACING: Duration = Duration::from_secs(5);
/// The longest wait between two failed connection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Gateway opcodes (Discord's "Gateway Opcodes" table).
mod op {
    pub const DISPATCH: u8 = 0;
    pub const HEARTBEAT: u8 = 1;
    pub const IDENTIFY: u8 = 2;
    pub const RESUME: u8 = 6;
    pub const RECONNECT: u8 = 7;
    pub const INVALID_SESSION: u8 = 9;
    pub const HELLO: u8 = 10;
    pub const HEARTBEAT_ACK: u8 = 11;
}

/// What a shard needs to connect.
#[derive(Clone)]
pub(super) struct ShardSpec {
    pub index: u32,
    pub total: u32,
    /// The bot token as IDENTIFY and RESUME send it (no `Bot ` prefix).
    pub token: String,
    pub intents: u64,
    /// `GET /gateway`'s URL.
    pub url: String,
    /// The HTTP plan, whose loopback check a `resume_gateway_url` passes too.
    pub plan: super::HttpPlan,
}

/// When this process last identified: Discord refuses a second `IDENTIFY` of the
/// same bot within five seconds.
#[derive(Default)]
pub(super) struct IdentifyQueue(Mutex<Option<Instant>>);

impl IdentifyQueue {
    async fn wait_turn(&self) {
        let mut last = self.0.lock().await;
        if let Some(at) = *last {
            tokio::time::sleep_until(at + IDENTIFY_SPACING).await;
        }
        *last = Some(Instant::now());
    }
}

/// A session to resume.
struct Session {
    id: String,
    resume_url: String,
    seq: u64,
}

/// How a connection ended.
enum Ended {
    /// Asked to stop; the session is closed (1000).
    Stopped,
    /// Connect again (resume when a session is kept), at once.
    Reconnect,
    /// Connect again after a pause (a failed attempt).
    Retry(String),
}

/// A close code after which reconnecting cannot help.
#[derive(Debug, thiserror::Error)]
#[error("the gateway closed shard {shard} with {code} ({reason})")]
pub(super) struct FatalClose {
    shard: u32,
    code: u16,
    reason: String,
}

/// Discord's close codes that end a bot rather than a connection: authentication
/// failed, invalid shard, sharding required, invalid API version, invalid or
/// disallowed intents.
fn is_fatal(code: u16) -> bool {
    matches!(code, 4004 | 4010 | 4011 | 4012 | 4013 | 4014)
}

/// Discord's close codes after which the session cannot be resumed: an invalid
/// sequence number, a session that timed out.
fn ends_session(code: u16) -> bool {
    matches!(code, 4007 | 4009)
}

/// Runs one shard until `stop` is set (closing its session) or Discord refuses the
/// bot for good.
pub(super) async fn run_shard(
    spec: ShardSpec,
    handler: Arc<Handler>,
    identify: Arc<IdentifyQueue>,
    mut stop: watch::Receiver<bool>,
) -> Result<(), FatalClose> {
    let mut session: Option<Session> = None;
    let mut failures = 0u32;
    loop {
        if *stop.borrow() {
            return Ok(());
        }
        let ended = connection(&spec, &mut session, &handler, &identify, &mut stop).await;
        handler.stage(spec.index, false, "disconnected");
        match ended? {
            Ended::Stopped => return Ok(()),
            Ended::Reconnect => failures = 0,
            Ended::Retry(why) => {
                failures += 1;
                let pause = Duration::from_secs(1 << failures.min(6)).min(MAX_BACKOFF);
                tracing::warn!(shard = spec.index, %why, ?pause, "gateway connection failed");
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    _ = stop.changed() => return Ok(()),
                }
            }
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The gateway URL with the version and encoding asked for.
fn versioned(url: &str) -> String {
    let path_given = url
        .split_once("://")
        .is_some_and(|(_, rest)| rest.contains('/'));
    let separator = if path_given { "" } else { "/" };
    format!("{url}{separator}?v=10&encoding=json")
}

async fn open(url: &str) -> Result<(Socket, Duration), String> {
    let opening = async {
        let (mut socket, _) = tokio_tungstenite::connect_async(versioned(url))
            .await
            .map_err(|error| error.to_string())?;
        loop {
            let Some(frame) = socket.next().await else {
                return Err("closed before HELLO".to_owned());
            };
            let text = match frame.map_err(|error| error.to_string())? {
                Frame::Text(text) => text,
                Frame::Close(frame) => return Err(format!("closed before HELLO: {frame:?}")),
                _ => continue,
            };
            let envelope: Envelope =
                serde_json::from_str(&text).map_err(|error| error.to_string())?;
            match (envelope.op, envelope.d.heartbeat_interval) {
                (op::HELLO, Some(interval)) if interval > 0 => {
                    return Ok((socket, Duration::from_millis(interval)));
                }
                _ => return Err(format!("expected HELLO, got opcode {}", envelope.op)),
            }
        }
    };
    tokio::time::timeout(CONNECT_TIMEOUT, opening)
        .await
        .map_err(|_| "no HELLO in time".to_owned())?
}

async fn send(socket: &mut Socket, payload: serde_json::Value) -> Result<(), String> {
    socket
        .send(Frame::Text(payload.to_string()))
        .await
        .map_err(|error| error.to_string())
}

/// One connection: opened, identified or resumed, read until it ends.
async fn connection(
    spec: &ShardSpec,
    session: &mut Option<Session>,
    handler: &Arc<Handler>,
    identify: &IdentifyQueue,
    stop: &mut watch::Receiver<bool>,
) -> Result<Ended, FatalClose> {
    let url = session.as_ref().map_or(&spec.url, |kept| &kept.resume_url);
    let (mut socket, interval) = match open(url).await {
        Ok(opened) => opened,
        Err(why) => return Ok(Ended::Retry(why)),
    };
    let greeting = match session {
        Some(kept) => {
            handler.stage(spec.index, false, "resuming");
            json!({"op": op::RESUME, "d": {
                "token": spec.token,
                "session_id": kept.id, "seq": kept.seq,
            }})
        }
        None => {
            handler.stage(spec.index, false, "identifying");
            identify.wait_turn().await;
            json!({"op": op::IDENTIFY, "d": {
                "token": spec.token,
                "intents": spec.intents,
                "shard": [spec.index, spec.total],
                "compress": false,
                "large_threshold": 50,
                "properties": {"os": std::env::consts::OS, "browser": "tavern", "device": "tavern"},
            }})
        }
    };
    if let Err(why) = send(&mut socket, greeting).await {
        return Ok(Ended::Retry(why));
    }
    // Discord asks for the first heartbeat after a random part of the interval.
    let mut next_beat = Instant::now() + interval.mul_f64(jitter());
    let mut acknowledged = true;
    loop {
        let frame = tokio::select! {
            frame = socket.next() => frame,
            () = tokio::time::sleep_until(next_beat) => {
                if !acknowledged {
                    // No ACK since the last heartbeat: the connection is dead.
                    let _ = socket.close(Some(close_frame(4000, "no heartbeat ACK"))).await;
                    return Ok(Ended::Reconnect);
                }
                acknowledged = false;
                next_beat = Instant::now() + interval;
                if let Err(why) = send(&mut socket, heartbeat(session)).await {
                    return Ok(Ended::Retry(why));
                }
                continue;
            }
            _ = stop.changed() => {
                // 1000 ends the session: Discord shows the bot offline at once.
                let _ = socket.close(Some(close_frame(1000, "shutting down"))).await;
                // Until Discord answers the close, it may still send this connection
                // events that no later session would get: wait for its answer.
                let answered = async {
                    while let Some(Ok(frame)) = socket.next().await {
                        if let Frame::Close(_) = frame {
                            break;
                        }
                    }
                };
                let _ = tokio::time::timeout(CLOSE_TIMEOUT, answered).await;
                *session = None;
                return Ok(Ended::Stopped);
            }
        };
        let text = match frame {
            Some(Ok(Frame::Text(text))) => text,
            Some(Ok(Frame::Close(close))) => {
                let (code, reason) = close.map_or((1005, String::new()), |close| {
                    (u16::from(close.code), close.reason.into_owned())
                });
                if is_fatal(code) {
                    return Err(FatalClose {
                        shard: spec.index,
                        code,
                        reason,
                    });
                }
                if ends_session(code) {
                    *session = None;
                }
                tracing::info!(shard = spec.index, code, %reason, "the gateway closed the connection");
                return Ok(Ended::Reconnect);
            }
            Some(Ok(_)) => continue,
            Some(Err(error)) => return Ok(Ended::Retry(error.to_string())),
            None => return Ok(Ended::Retry("the connection ended".to_owned())),
        };
        let envelope: Envelope = match serde_json::from_str(&text) {
            Ok(envelope) => envelope,
            Err(error) => {
                tracing::warn!(shard = spec.index, %error, "an unreadable gateway frame; skipped");
                continue;
            }
        };
        match envelope.op {
            op::DISPATCH => {
                if let (Some(seq), Some(kept)) = (envelope.s, session.as_mut()) {
                    kept.seq = seq;
                }
                let name = envelope.t.as_deref().unwrap_or("");
                dispatch(
                    spec,
                    session,
                    handler,
                    name,
                    envelope.s,
                    envelope.d.kind,
                    &text,
                );
            }
            op::HEARTBEAT => {
                if let Err(why) = send(&mut socket, heartbeat(session)).await {
                    return Ok(Ended::Retry(why));
                }
            }
            op::HEARTBEAT_ACK => acknowledged = true,
            op::RECONNECT => {
                let _ = socket
                    .close(Some(close_frame(4000, "reconnect asked")))
                    .await;
                return Ok(Ended::Reconnect);
            }
            op::INVALID_SESSION => {
                if envelope.d.flag != Some(true) {
                    *session = None;
                }
                let _ = socket
                    .close(Some(close_frame(4000, "invalid session")))
                    .await;
                // Discord asks for a wait of one to five seconds before identifying.
                let pause = Duration::from_millis(1000 + (jitter() * 4000.0) as u64);
                tokio::select! {
                    () = tokio::time::sleep(pause) => {}
                    _ = stop.changed() => return Ok(Ended::Stopped),
                }
                return Ok(Ended::Reconnect);
            }
            other => tracing::debug!(shard = spec.index, op = other, "a gateway opcode ignored"),
        }
    }
}

fn heartbeat(session: &Option<Session>) -> serde_json::Value {
    json!({"op": op::HEARTBEAT, "d": session.as_ref().map(|kept| kept.seq)})
}

fn close_frame(code: u16, reason: &'static str) -> CloseFrame<'static> {
    CloseFrame {
        code: CloseCode::from(code),
        reason: Cow::Borrowed(reason),
    }
}

/// A fraction in [0, 1) for spreading heartbeats and waits; not an id.
fn jitter() -> f64 {
    rand::random::<f64>()
}

/// A dispatch: the events Tavern handles start their handler's task; the rest are
/// not decoded at all.
fn dispatch(
    spec: &ShardSpec,
    session: &mut Option<Session>,
    handler: &Arc<Handler>,
    name: &str,
    seq: Option<u64>,
    kind: Option<u8>,
    text: &str,
) {
    match name {
        "INTERACTION_CREATE" => match interaction(kind, text) {
            Ok(Some(interaction)) => {
                let handler = handler.clone();
                tokio::spawn(async move { handler.interaction_create(interaction).await });
            }
            Ok(None) => {
                tracing::debug!(
                    shard = spec.index,
                    ?kind,
                    "an interaction Tavern does not handle"
                );
            }
            Err(error) => {
                tracing::warn!(shard = spec.index, %error, "an unreadable interaction; skipped");
            }
        },
        "MESSAGE_CREATE" => match serde_json::from_str::<Data<SerenityMessage>>(text) {
            Ok(Data { d: message }) => {
                let handler = handler.clone();
                tokio::spawn(async move { handler.message(message).await });
            }
            Err(error) => {
                tracing::warn!(shard = spec.index, %error, "an unreadable message; skipped");
            }
        },
        "READY" => match serde_json::from_str::<Data<Ready>>(text) {
            Ok(Data { d: ready }) => {
                // Through a fake, a resume URL off loopback is refused as the first was.
                let resume_url = if spec.plan.check_gateway(&ready.resume_gateway_url).is_ok() {
                    ready.resume_gateway_url.clone()
                } else {
                    spec.url.clone()
                };
                *session = Some(Session {
                    id: ready.session_id.clone(),
                    resume_url,
                    seq: seq.unwrap_or(0),
                });
                // Set before any later event's task starts, so every message
                // after READY knows the bot's own id.
                handler.ready_user(&ready);
                handler.stage(spec.index, true, "connected");
                let handler = handler.clone();
                let shard = spec.index;
                tokio::spawn(async move { handler.ready(shard, ready).await });
            }
            Err(error) => {
                tracing::error!(shard = spec.index, %error, "an unreadable READY");
            }
        },
        "RESUMED" => handler.stage(spec.index, true, "connected"),
        _ => {}
    }
}

/// An interaction decoded by its type, straight into what the handler takes
/// (serenity's own `Interaction` reads the payload into a map first); a command
/// becomes the core's request here, with only the fields Tavern reads (`wire.rs`).
/// `None` for a type Tavern does not handle.
fn interaction(kind: Option<u8>, text: &str) -> Result<Option<Inbound>, Unreadable> {
    Ok(Some(match kind {
        Some(kind @ (2 | 4)) => {
            let autocomplete = kind == 4;
            let (target, request) = from_data::<CommandEvent>(text)?
                .into_request(autocomplete)
                .map_err(Unreadable::Command)?;
            Inbound::Command {
                target,
                request,
                autocomplete,
            }
        }
        Some(3) => Inbound::Component(from_data(text)?),
        Some(5) => Inbound::Modal(from_data(text)?),
        _ => return Ok(None),
    }))
}

/// Why an interaction was skipped.
#[derive(Debug)]
enum Unreadable {
    Json(serde_json::Error),
    Command(super::wire::Unreadable),
}

impl From<serde_json::Error> for Unreadable {
    fn from(error: serde_json::Error) -> Self {
        Unreadable::Json(error)
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::Json(error) => error.fmt(f),
            Unreadable::Command(error) => error.fmt(f),
        }
    }
}

fn from_data<T: serde::de::DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    serde_json::from_str::<Data<T>>(text).map(|data| data.d)
}

/// A frame's `d`, whatever else it holds.
#[derive(Deserialize)]
struct Data<T> {
    d: T,
}

/// A frame's opcode, sequence number and event name, and of its `d` only what
/// routing needs; nothing else is kept or built.
#[derive(Deserialize)]
struct Envelope<'a> {
    op: u8,
    #[serde(default)]
    s: Option<u64>,
    #[serde(default, borrow)]
    t: Option<Cow<'a, str>>,
    #[serde(default)]
    d: Peek,
}

/// From `d`: an interaction's `type`, `HELLO`'s interval, or `INVALID_SESSION`'s flag.
#[derive(Default)]
struct Peek {
    kind: Option<u8>,
    heartbeat_interval: Option<u64>,
    flag: Option<bool>,
}

impl<'de> Deserialize<'de> for Peek {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Peek, D::Error> {
        deserializer.deserialize_any(PeekVisitor)
    }
}

struct PeekVisitor;

impl<'de> Visitor<'de> for PeekVisitor {
    type Value = Peek;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a gateway payload's data")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Peek, A::Error> {
        let mut peek = Peek::default();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "type" => peek.kind = map.next_value::<Option<u8>>()?,
                "heartbeat_interval" => peek.heartbeat_interval = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(peek)
    }

    fn visit_bool<E>(self, flag: bool) -> Result<Peek, E> {
        Ok(Peek {
            flag: Some(flag),
            ..Peek::default()
        })
    }

    fn visit_unit<E>(self) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_none<E>(self) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_str<E>(self, _: &str) -> Result<Peek, E> {
        Ok(Peek::default())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Peek, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Peek::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame and what its envelope says: op, s, t, d's type, interval and flag.
    struct Case {
        text: &'static str,
        op: u8,
        s: Option<u64>,
        t: Option<&'static str>,
        peek: (Option<u8>, Option<u64>, Option<bool>),
    }

    const fn case(
        text: &'static str,
        op: u8,
        s: Option<u64>,
        t: Option<&'static str>,
        peek: (Option<u8>, Option<u64>, Option<bool>),
    ) -> Case {
        Case {
            text,
            op,
            s,
            t,
            peek,
        }
    }

    #[test]
    fn envelopes_route_without_decoding() {
        let none = (None, None, None);
        let cases = [
            case(
                r#"{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}"#,
                10,
                None,
                None,
                (None, Some(41250), None),
            ),
            case(
                r#"{"t":"INTERACTION_CREATE","s":7,"op":0,"d":{"id":"1","type":2,"data":{"type":1}}}"#,
                0,
                Some(7),
                Some("INTERACTION_CREATE"),
                (Some(2), None, None),
            ),
            case(
                r#"{"op":9,"d":true}"#,
                9,
                None,
                None,
                (None, None, Some(true)),
            ),
            case(
                r#"{"op":9,"d":false,"s":null,"t":null}"#,
                9,
                None,
                None,
                (None, None, Some(false)),
            ),
            case(r#"{"op":11,"d":null}"#, 11, None, None, none),
            case(r#"{"op":11}"#, 11, None, None, none),
            case(r#"{"op":1,"d":42}"#, 1, None, None, none),
            case(
                r#"{"op":0,"s":3,"t":"GUILD_CREATE","d":{"channels":[{"type":0}],"id":"5"}}"#,
                0,
                Some(3),
                Some("GUILD_CREATE"),
                none,
            ),
            case(
                r#"{"op":0,"s":4,"t":"MESSAGE_\u0043REATE","d":{"type":0}}"#,
                0,
                Some(4),
                Some("MESSAGE_CREATE"),
                (Some(0), None, None),
            ),
        ];
        for case in cases {
            let envelope: Envelope = serde_json::from_str(case.text).expect(case.text);
            assert_eq!(envelope.op, case.op, "{}", case.text);
            assert_eq!(envelope.s, case.s, "{}", case.text);
            assert_eq!(envelope.t.as_deref(), case.t, "{}", case.text);
            let peek = (
                envelope.d.kind,
                envelope.d.heartbeat_interval,
                envelope.d.flag,
            );
            assert_eq!(peek, case.peek, "{}", case.text);
        }
    }

    #[test]
    fn urls_ask_for_version_10_json() {
        for (url, expected) in [
            (
                "wss://gateway.discord.gg",
                "wss://gateway.discord.gg/?v=10&encoding=json",
            ),
            (
                "wss://gateway.discord.gg/",
                "wss://gateway.discord.gg/?v=10&encoding=json",
            ),
            (
                "ws://127.0.0.1:4000/ws",
                "ws://127.0.0.1:4000/ws?v=10&encoding=json",
            ),
        ] {
            assert_eq!(versioned(url), expected, "{url}");
        }
    }

    #[test]
    fn close_codes() {
        for code in [4004, 4010, 4011, 4012, 4013, 4014] {
            assert!(is_fatal(code) && !ends_session(code), "{code}");
        }
        for code in [4007, 4009] {
            assert!(ends_session(code) && !is_fatal(code), "{code}");
        }
        for code in [1000, 1001, 1006, 4000, 4001, 4002, 4003, 4005, 4008] {
            assert!(!is_fatal(code) && !ends_session(code), "{code}");
        }
    }
}
