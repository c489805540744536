//! The first response to an interaction, posted on a kept HTTP/1.1 connection of our
//! own instead of through serenity's `Http`.
//!
//! Every `/roll` ends in one `POST /api/v10/interactions/{id}/{token}/callback`.
//! Through serenity that request builds and parses its URL, a header map and a
//! reqwest request, and its bytes go out and come back through hyper's connection
//! task on another worker thread: a third of the bot's CPU per roll (BENCHMARKS.md,
//! "A /roll under 100 µs?"). Here the request is written as Discord expects it (the
//! same method, path, headers and JSON body serenity sends) on a connection taken
//! from a small pool of idle ones, and the response is read in the caller's task.
//!
//! Only the JSON callbacks of [`super::answer`]'s first response come here; anything
//! with files (multipart), and every other request, stays on serenity's `Http`.
//! Interaction callbacks are outside Discord's global rate limit, and a refused
//! callback is not retried by serenity either: the interaction is lost either way.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use serenity::all::InteractionId;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::pki_types::ServerName;
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// How long one callback may take, connecting included (serenity's client allows
/// the same request 10 s; Discord's own deadline for it is 3).
const CALLBACK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a new connection may take, TCP and TLS: well inside Discord's 3 s
/// deadline, so that a connection that hangs still leaves time to send the same
/// response through serenity's `Http` (nothing has been written yet).
const CONNECT_TIMEOUT: Duration = Duration::from_millis(1500);
/// Idle connections kept: one per event handled at once is the most ever in use.
const MAX_IDLE: usize = super::MAX_CONCURRENT_EVENTS;
/// An idle connection older than this is closed rather than reused: servers close
/// theirs after a while, and a request written into a closed one is lost.
const MAX_IDLE_AGE: Duration = Duration::from_secs(30);
/// The most a response may be, head and body (Discord's error bodies are small).
const MAX_RESPONSE_BYTES: usize = 256 * 1024;
/// Headers read from a response.
const MAX_HEADERS: usize = 64;

/// Why a callback did not go out, or was refused. [`CallbackError::nothing_sent`]
/// tells whether the same response may still be sent another way.
#[derive(Debug, thiserror::Error)]
pub(super) enum CallbackError {
    /// The target cannot be set up (a checked `api_base` it cannot read, a TLS
    /// configuration rustls refuses): nothing was sent.
    #[error("the callbacks cannot be set up: {0}")]
    Setup(&'static str),
    /// No TCP connection (name, route, refusal): nothing was sent.
    #[error("the callback cannot connect: {0}")]
    Connect(io::Error),
    /// The TLS handshake failed (a certificate not for the name, or from an unknown
    /// authority): the request was not written.
    #[error("the callback's TLS handshake failed: {0}")]
    Handshake(io::Error),
    /// The connection failed once the request was being written: it may have arrived.
    #[error("the callback's connection failed: {0}")]
    Io(io::Error),
    /// A kept connection closed without an answer after the request was written to it
    /// (as a server closing an idle one does), and the new connection it was written
    /// to again failed before sending it: the first may have arrived.
    #[error("the callback's kept connection closed unanswered ({kept}), then {retry}")]
    RetryFailed {
        kept: Box<CallbackError>,
        retry: Box<CallbackError>,
    },
    #[error("the callback got no answer within {after:?} (request written: {request_written})")]
    Timeout {
        after: Duration,
        /// Whether any connection had begun writing the request by then.
        request_written: bool,
    },
    #[error("the callback's answer is not HTTP/1.1 Tavern can read: {0}")]
    Malformed(&'static str),
    #[error("the callback cannot be written as JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("Discord refused the callback: status {status}, {body}")]
    Refused { status: u16, body: String },
}

impl CallbackError {
    /// Whether no byte of the request can have reached the server, so that sending
    /// the same response another way cannot answer the interaction twice.
    pub(super) fn nothing_sent(&self) -> bool {
        match self {
            CallbackError::Setup(_)
            | CallbackError::Connect(_)
            | CallbackError::Handshake(_)
            | CallbackError::Json(_) => true,
            CallbackError::Timeout {
                request_written, ..
            } => !request_written,
            CallbackError::Io(_)
            | CallbackError::RetryFailed { .. }
            | CallbackError::Malformed(_)
            | CallbackError::Refused { .. } => false,
        }
    }
}

/// Proxy variables reqwest honours for https URLs (serenity's `Http` is reqwest).
const PROXY_VARIABLES: [&str; 4] = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"];

/// Where callbacks go: Discord itself (TLS to discord.com:443) or a fake on loopback.
#[derive(Clone)]
struct Target {
    /// `host:port` to connect to.
    address: String,
    /// The `Host` header.
    host: String,
    /// What precedes `/api/v10` in the path (a proxy base's own path, if any).
    path_prefix: String,
    tls: Option<(TlsConnector, ServerName<'static>)>,
}

impl Target {
    fn discord() -> Result<Target, CallbackError> {
        let mut roots = RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        Target::tls(roots, "discord.com:443".to_owned(), "discord.com")
    }

    /// TLS to `address`, whose certificate must be for `server_name` (also the `Host`)
    /// and chain to `roots`: Discord's with the web's roots, or a test server's.
    fn tls(
        roots: RootCertStore,
        address: String,
        server_name: &str,
    ) -> Result<Target, CallbackError> {
        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let mut config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|_| CallbackError::Setup("no TLS protocol version"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let name = ServerName::try_from(server_name.to_owned())
            .map_err(|_| CallbackError::Setup("the TLS server name"))?;
        Ok(Target {
            address,
            host: server_name.to_owned(),
            path_prefix: String::new(),
            tls: Some((TlsConnector::from(Arc::new(config)), name)),
        })
    }

    /// A proxy base as [`super::HttpPlan`] checked it: `http://HOST:PORT[/PATH]`.
    fn proxy(base: &str) -> Option<Target> {
        let rest = base.strip_prefix("http://")?;
        let (authority, path) = match rest.find('/') {
            Some(at) => rest.split_at(at),
            None => (rest, ""),
        };
        let address = if authority
            .rsplit_once(':')
            .is_some_and(|(_, port)| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()))
        {
            authority.to_owned()
        } else {
            format!("{authority}:80")
        };
        Some(Target {
            address,
            host: authority.to_owned(),
            path_prefix: path.trim_end_matches('/').to_owned(),
            tls: None,
        })
    }
}

/// A connection to the target, plain or TLS.
enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl Stream {
    /// Whether the peer has closed or written anything since the last response: a
    /// kept connection is reused only when it has nothing to read.
    fn is_quiet(&self) -> bool {
        let tcp = match self {
            Stream::Plain(tcp) => tcp,
            Stream::Tls(tls) => tls.get_ref().0,
        };
        let mut probe = [0u8; 1];
        matches!(tcp.try_read(&mut probe), Err(error) if error.kind() == io::ErrorKind::WouldBlock)
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(tcp) => Pin::new(tcp).poll_read(cx, buf),
            Stream::Tls(tls) => Pin::new(tls.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(tcp) => Pin::new(tcp).poll_write(cx, buf),
            Stream::Tls(tls) => Pin::new(tls.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(tcp) => Pin::new(tcp).poll_flush(cx),
            Stream::Tls(tls) => Pin::new(tls.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(tcp) => Pin::new(tcp).poll_shutdown(cx),
            Stream::Tls(tls) => Pin::new(tls.as_mut()).poll_shutdown(cx),
        }
    }
}

struct Connection {
    stream: Stream,
    /// Bytes read from the stream: one response at a time, reused.
    buffer: Vec<u8>,
    idle_since: Instant,
}

/// Posts interaction callbacks on kept connections.
pub(super) struct Callbacks {
    target: Target,
    /// `Bot <token>`, as serenity sends it.
    authorization: String,
    idle: Mutex<Vec<Connection>>,
    /// [`CONNECT_TIMEOUT`]; shorter in tests.
    connect_timeout: Duration,
}

impl Callbacks {
    /// Callbacks to Discord, or to the checked `api_base` of a fake. `None` when an
    /// HTTPS proxy is configured (`env` reads the environment) and the target is
    /// Discord: these connections would bypass it, serenity's reqwest honours it.
    pub(super) fn new(
        token: &str,
        api_base: Option<&str>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<Callbacks>, CallbackError> {
        let plan = super::HttpPlan::for_api_base(api_base);
        if let Some(base) = plan.proxy.as_deref() {
            let target = Target::proxy(base).ok_or(CallbackError::Setup("api_base"))?;
            return Ok(Some(Callbacks::to(target, token)));
        }
        // reqwest ignores an empty value (no URL), and so does this.
        let proxy = PROXY_VARIABLES
            .into_iter()
            .find(|name| env(name).is_some_and(|value| !value.trim().is_empty()));
        if let Some(variable) = proxy {
            // The name only: a proxy URL may carry credentials.
            tracing::info!(
                variable,
                "a proxy is set: interaction callbacks go through serenity's Http, which uses it"
            );
            return Ok(None);
        }
        Ok(Some(Callbacks::to(Target::discord()?, token)))
    }

    fn to(target: Target, token: &str) -> Callbacks {
        Callbacks {
            target,
            authorization: authorization(token),
            idle: Mutex::new(Vec::new()),
            connect_timeout: CONNECT_TIMEOUT,
        }
    }

    /// Whether a callback with this token can be written here byte for byte as
    /// serenity writes it (its URL parser would percent-encode anything else).
    pub(super) fn takes_token(token: &str) -> bool {
        !token.is_empty()
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~'))
    }

    /// Posts `response` (serialized as serenity would) as the callback of an
    /// interaction; Ok when Discord answered with a success status.
    pub(super) async fn post(
        &self,
        id: InteractionId,
        token: &str,
        response: &impl serde::Serialize,
    ) -> Result<(), CallbackError> {
        let body = serde_json::to_vec(response)?;
        let request = self.request_bytes(id, token, &body);
        // Set once a connection begins writing the request: read after a timeout,
        // which drops the exchange wherever it was.
        let written = AtomicBool::new(false);
        match tokio::time::timeout(CALLBACK_TIMEOUT, self.exchange(&request, &written)).await {
            Ok(result) => result,
            Err(_) => Err(CallbackError::Timeout {
                after: CALLBACK_TIMEOUT,
                request_written: written.load(Ordering::Relaxed),
            }),
        }
    }

    fn request_bytes(&self, id: InteractionId, token: &str, body: &[u8]) -> Vec<u8> {
        use std::io::Write as _;
        let mut request = Vec::with_capacity(320 + token.len() + body.len());
        // Writing to a Vec cannot fail.
        let _ = write!(
            request,
            "POST {}/api/v10/interactions/{id}/{token}/callback HTTP/1.1\r\n\
             host: {}\r\n\
             user-agent: {}\r\n\
             authorization: {}\r\n\
             content-length: {}\r\n\
             content-type: application/json\r\n\
             accept: */*\r\n\r\n",
            self.target.path_prefix,
            self.target.host,
            serenity::constants::USER_AGENT,
            self.authorization,
            body.len(),
        );
        request.extend_from_slice(body);
        request
    }

    /// One request and its response, on a kept connection when one is quiet, else on
    /// a new one. A kept connection that fails before any byte of an answer came is
    /// replaced once: the server closed it while it was idle.
    async fn exchange(&self, request: &[u8], written: &AtomicBool) -> Result<(), CallbackError> {
        let Some(mut kept) = self.take_idle() else {
            return self.exchange_fresh(request, written).await;
        };
        written.store(true, Ordering::Relaxed);
        let kept_error = match exchange_on(&mut kept, request).await {
            Ok(outcome) => return self.finish(kept, outcome),
            Err(Failure::BeforeAnswer(error)) => error,
            Err(Failure::During(error)) => return Err(error),
        };
        match self.exchange_fresh(request, written).await {
            // The kept connection may have delivered it all the same.
            Err(retry) if retry.nothing_sent() => Err(CallbackError::RetryFailed {
                kept: Box::new(kept_error),
                retry: Box::new(retry),
            }),
            // It did: Discord took the kept connection's copy, and only this
            // callback answers this interaction.
            Err(CallbackError::Refused { status: 400, body }) if already_acknowledged(&body) => {
                tracing::debug!("the retried callback was already acknowledged: answered");
                Ok(())
            }
            result => result,
        }
    }

    async fn exchange_fresh(
        &self,
        request: &[u8],
        written: &AtomicBool,
    ) -> Result<(), CallbackError> {
        let mut fresh = self.connect().await?;
        written.store(true, Ordering::Relaxed);
        match exchange_on(&mut fresh, request).await {
            Ok(outcome) => self.finish(fresh, outcome),
            Err(Failure::BeforeAnswer(error) | Failure::During(error)) => Err(error),
        }
    }

    fn finish(&self, connection: Connection, outcome: Outcome) -> Result<(), CallbackError> {
        if outcome.reusable {
            self.keep(connection);
        }
        if (200..300).contains(&outcome.status) {
            return Ok(());
        }
        Err(CallbackError::Refused {
            status: outcome.status,
            body: outcome.body,
        })
    }

    fn take_idle(&self) -> Option<Connection> {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while let Some(connection) = idle.pop() {
            if connection.idle_since.elapsed() < MAX_IDLE_AGE && connection.stream.is_quiet() {
                return Some(connection);
            }
        }
        None
    }

    fn keep(&self, mut connection: Connection) {
        connection.idle_since = Instant::now();
        connection.buffer.clear();
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(connection);
        }
    }

    /// A new connection within [`Self::connect_timeout`]: a connection or handshake
    /// that hangs is a `Connect` error, with nothing sent.
    async fn connect(&self) -> Result<Connection, CallbackError> {
        match tokio::time::timeout(self.connect_timeout, self.connect_unbounded()).await {
            Ok(result) => result,
            Err(_) => Err(CallbackError::Connect(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no connection within {:?}", self.connect_timeout),
            ))),
        }
    }

    async fn connect_unbounded(&self) -> Result<Connection, CallbackError> {
        let tcp = TcpStream::connect(&self.target.address)
            .await
            .map_err(CallbackError::Connect)?;
        tcp.set_nodelay(true).map_err(CallbackError::Connect)?;
        let stream = match &self.target.tls {
            None => Stream::Plain(tcp),
            Some((connector, name)) => Stream::Tls(Box::new(
                connector
                    .connect(name.clone(), tcp)
                    .await
                    .map_err(CallbackError::Handshake)?,
            )),
        };
        Ok(Connection {
            stream,
            buffer: Vec::with_capacity(1024),
            idle_since: Instant::now(),
        })
    }
}

/// Discord's refusal of a second callback for one interaction (JSON code 40060).
fn already_acknowledged(body: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|value| value.get("code")?.as_u64())
        == Some(ALREADY_ACKNOWLEDGED)
}

/// Discord's JSON error code "Interaction has already been acknowledged".
const ALREADY_ACKNOWLEDGED: u64 = 40060;

/// serenity's form of the token: `Bot ` in front unless it names its kind already.
fn authorization(token: &str) -> String {
    let token = token.trim();
    if token.starts_with("Bot ") || token.starts_with("Bearer ") {
        token.to_owned()
    } else {
        format!("Bot {token}")
    }
}

enum Failure {
    /// Nothing of an answer was read: the request may be written again elsewhere
    /// (though it was written here, and may have arrived).
    BeforeAnswer(CallbackError),
    During(CallbackError),
}

/// What came back.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    status: u16,
    /// The body as text (an error's JSON), empty on success.
    body: String,
    /// The connection may carry the next request.
    reusable: bool,
}

async fn exchange_on(connection: &mut Connection, request: &[u8]) -> Result<Outcome, Failure> {
    let stream = &mut connection.stream;
    stream
        .write_all(request)
        .await
        .map_err(|error| Failure::BeforeAnswer(CallbackError::Io(error)))?;
    stream
        .flush()
        .await
        .map_err(|error| Failure::BeforeAnswer(CallbackError::Io(error)))?;
    let buffer = &mut connection.buffer;
    buffer.clear();
    loop {
        match parse_response(buffer) {
            Parsed::Complete(outcome) => return Ok(outcome),
            Parsed::Invalid(why) => return Err(Failure::During(CallbackError::Malformed(why))),
            Parsed::Partial => {}
        }
        if buffer.len() >= MAX_RESPONSE_BYTES {
            return Err(Failure::During(CallbackError::Malformed("too large")));
        }
        buffer.reserve(4096);
        let read = stream.read_buf(buffer).await;
        match read {
            Ok(0) if buffer.is_empty() => {
                let closed = io::Error::from(io::ErrorKind::UnexpectedEof);
                return Err(Failure::BeforeAnswer(CallbackError::Io(closed)));
            }
            Ok(0) => return finish_at_eof(buffer).map_err(Failure::During),
            Ok(_) => {}
            Err(error) if buffer.is_empty() => {
                return Err(Failure::BeforeAnswer(CallbackError::Io(error)));
            }
            Err(error) => return Err(Failure::During(CallbackError::Io(error))),
        }
    }
}

/// A response whose body runs to the end of the connection (neither a length nor
/// chunks): complete once the peer closes.
fn finish_at_eof(buffer: &[u8]) -> Result<Outcome, CallbackError> {
    let head = read_head(buffer)?.ok_or(CallbackError::Malformed("closed within the head"))?;
    if head.framing != Framing::UntilClose {
        return Err(CallbackError::Malformed("closed within the body"));
    }
    Ok(head.outcome(&buffer[head.length..], false))
}

enum Parsed {
    Complete(Outcome),
    Partial,
    Invalid(&'static str),
}

#[derive(Debug, PartialEq, Eq)]
enum Framing {
    Empty,
    Length(usize),
    Chunked,
    UntilClose,
}

struct Head {
    status: u16,
    /// Bytes of the status line and headers.
    length: usize,
    framing: Framing,
    keep_alive: bool,
}

impl Head {
    fn outcome(&self, body: &[u8], reusable: bool) -> Outcome {
        let body = if (200..300).contains(&self.status) {
            String::new()
        } else {
            String::from_utf8_lossy(body).into_owned()
        };
        Outcome {
            status: self.status,
            body,
            reusable: reusable && self.keep_alive,
        }
    }
}

fn read_head(buffer: &[u8]) -> Result<Option<Head>, CallbackError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let length = match response.parse(buffer) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(_) => return Err(CallbackError::Malformed("its head")),
    };
    let status = response.code.unwrap_or(0);
    let mut keep_alive = response.version == Some(1);
    let mut content_length = None;
    let mut chunked = false;
    for header in response.headers.iter() {
        let value = std::str::from_utf8(header.value).unwrap_or("").trim();
        if header.name.eq_ignore_ascii_case("content-length") {
            let parsed = value
                .parse::<usize>()
                .map_err(|_| CallbackError::Malformed("its content-length"))?;
            if content_length.is_some_and(|known| known != parsed) {
                return Err(CallbackError::Malformed("two content-lengths"));
            }
            content_length = Some(parsed);
        } else if header.name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value
                .rsplit(',')
                .next()
                .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
            if !chunked {
                return Err(CallbackError::Malformed("its transfer-encoding"));
            }
        } else if header.name.eq_ignore_ascii_case("connection") {
            keep_alive &= !value
                .split(',')
                .any(|option| option.trim().eq_ignore_ascii_case("close"));
        }
    }
    let framing = if (100..200).contains(&status) || status == 204 || status == 304 {
        Framing::Empty
    } else if chunked {
        Framing::Chunked
    } else if let Some(length) = content_length {
        Framing::Length(length)
    } else {
        Framing::UntilClose
    };
    Ok(Some(Head {
        status,
        length,
        framing,
        keep_alive,
    }))
}

/// The response in `buffer`, if all of it is there.
fn parse_response(buffer: &[u8]) -> Parsed {
    let head = match read_head(buffer) {
        Ok(Some(head)) => head,
        Ok(None) => return Parsed::Partial,
        Err(CallbackError::Malformed(why)) => return Parsed::Invalid(why),
        Err(_) => return Parsed::Invalid("its head"),
    };
    if (100..200).contains(&head.status) {
        return Parsed::Invalid("an interim response");
    }
    let rest = &buffer[head.length..];
    match head.framing {
        Framing::Empty => Parsed::Complete(head.outcome(&[], rest.is_empty())),
        Framing::Length(length) if rest.len() < length => Parsed::Partial,
        Framing::Length(length) => {
            Parsed::Complete(head.outcome(&rest[..length], rest.len() == length))
        }
        Framing::Chunked => match dechunk(rest) {
            Dechunked::Complete { body, used } => {
                Parsed::Complete(head.outcome(&body, used == rest.len()))
            }
            Dechunked::Partial => Parsed::Partial,
            Dechunked::Invalid => Parsed::Invalid("its chunks"),
        },
        Framing::UntilClose => Parsed::Partial,
    }
}

enum Dechunked {
    Complete { body: Vec<u8>, used: usize },
    Partial,
    Invalid,
}

/// A chunked body (RFC 9112 §7.1), trailers skipped.
fn dechunk(mut rest: &[u8]) -> Dechunked {
    let total = rest.len();
    let mut body = Vec::new();
    loop {
        let (start, size) = match httparse::parse_chunk_size(rest) {
            Ok(httparse::Status::Complete(found)) => found,
            Ok(httparse::Status::Partial) => return Dechunked::Partial,
            Err(_) => return Dechunked::Invalid,
        };
        let Ok(size) = usize::try_from(size) else {
            return Dechunked::Invalid;
        };
        if size > MAX_RESPONSE_BYTES {
            return Dechunked::Invalid;
        }
        rest = &rest[start..];
        if size == 0 {
            // Trailers, then an empty line.
            loop {
                let Some(end) = rest.windows(2).position(|pair| pair == b"\r\n") else {
                    return Dechunked::Partial;
                };
                rest = &rest[end + 2..];
                if end == 0 {
                    return Dechunked::Complete {
                        body,
                        used: total - rest.len(),
                    };
                }
            }
        }
        if rest.len() < size + 2 {
            return Dechunked::Partial;
        }
        if &rest[size..size + 2] != b"\r\n" {
            return Dechunked::Invalid;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

#[cfg(test)]
mod tls_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(status: u16, body: &str, reusable: bool) -> Option<Outcome> {
        Some(Outcome {
            status,
            body: body.to_owned(),
            reusable,
        })
    }

    #[test]
    fn responses_are_read_as_http_1_1_frames_them() {
        let table: &[(&str, Option<Outcome>)] = &[
            ("HTTP/1.1 204 No Content\r\n\r\n", outcome(204, "", true)),
            (
                "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n",
                outcome(204, "", false),
            ),
            ("HTTP/1.0 204 No Content\r\n\r\n", outcome(204, "", false)),
            (
                "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}",
                outcome(200, "", true),
            ),
            ("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{", None),
            (
                "HTTP/1.1 400 Bad Request\r\ncontent-length: 14\r\n\r\n{\"code\":40060}",
                outcome(400, "{\"code\":40060}", true),
            ),
            (
                "HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n2\r\n1}\r\n0\r\n\r\n",
                outcome(404, "{\"a\":1}", true),
            ),
            (
                "HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n0\r\nx-trailer: 1\r\n\r\n",
                outcome(404, "{\"a\":", true),
            ),
            (
                "HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{\"a\"",
                None,
            ),
            // More than the response: the connection is out of step, not reused.
            (
                "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1",
                outcome(204, "", false),
            ),
            ("HTTP/1.1 500 Oops\r\n\r\npartial", None),
            ("HTTP/1.1 204", None),
        ];
        for (raw, expected) in table {
            let got = match parse_response(raw.as_bytes()) {
                Parsed::Complete(outcome) => Some(outcome),
                Parsed::Partial => None,
                Parsed::Invalid(why) => panic!("{raw:?} invalid: {why}"),
            };
            assert_eq!(&got, expected, "{raw:?}");
        }
    }

    #[test]
    fn broken_responses_are_refused() {
        let table = [
            "HTTP/1.1 abc\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\nab\r\n",
        ];
        for raw in table {
            assert!(
                matches!(parse_response(raw.as_bytes()), Parsed::Invalid(_)),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn a_body_until_close_ends_with_the_connection() {
        let raw = b"HTTP/1.1 500 Oops\r\n\r\nall of it";
        let got = finish_at_eof(raw).expect("complete at the end");
        assert_eq!(
            got,
            outcome(500, "all of it", false).unwrap_or_else(|| unreachable!())
        );
        assert!(finish_at_eof(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nab").is_err());
        assert!(finish_at_eof(b"HTTP/1.1 20").is_err());
    }

    #[test]
    fn the_request_is_the_one_serenity_writes() {
        let callbacks = fake("abc", "http://127.0.0.1:4000/");
        let request = callbacks.request_bytes(InteractionId::new(42), "tok.en", b"{\"type\":4}");
        let text = String::from_utf8(request).expect("text");
        let expected = format!(
            "POST /api/v10/interactions/42/tok.en/callback HTTP/1.1\r\nhost: 127.0.0.1:4000\r\n\
             user-agent: {}\r\nauthorization: Bot abc\r\ncontent-length: 10\r\n\
             content-type: application/json\r\naccept: */*\r\n\r\n{{\"type\":4}}",
            serenity::constants::USER_AGENT
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn targets_and_tokens() {
        let table: &[(&str, &str, &str, &str)] = &[
            (
                "http://127.0.0.1:4000",
                "127.0.0.1:4000",
                "127.0.0.1:4000",
                "",
            ),
            ("http://localhost", "localhost:80", "localhost", ""),
            ("http://[::1]:9/base/", "[::1]:9", "[::1]:9", "/base"),
        ];
        for (base, address, host, prefix) in table {
            let target = Target::proxy(base).expect("a proxy");
            assert_eq!(
                (
                    target.address.as_str(),
                    target.host.as_str(),
                    target.path_prefix.as_str()
                ),
                (*address, *host, *prefix),
                "{base}"
            );
        }
        let discord = Target::discord().expect("TLS to Discord");
        assert_eq!(discord.address, "discord.com:443");
        assert!(Callbacks::takes_token("aW50ZXJhY3Rpb246.abc-_~"));
        assert!(!Callbacks::takes_token("a/b"));
        assert!(!Callbacks::takes_token("a b"));
        assert!(!Callbacks::takes_token(""));
        assert_eq!(authorization(" Bot x "), "Bot x");
        assert_eq!(authorization("x"), "Bot x");
    }

    /// A server that answers one request per connection with each of `replies` in
    /// turn and closes the connection after it, as a server ending idle ones does.
    async fn one_request_per_connection(replies: &'static [&'static str]) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        tokio::spawn(async move {
            for reply in replies {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                if !take_request(&mut socket, &mut Vec::new()).await {
                    return;
                }
                let _ = socket.write_all(reply.as_bytes()).await;
            }
        });
        base
    }

    /// The length of the first request in `bytes`, once all of it is there.
    pub(super) fn request_length(bytes: &[u8]) -> Option<usize> {
        let mut headers = [httparse::EMPTY_HEADER; 16];
        let mut request = httparse::Request::new(&mut headers);
        let Ok(httparse::Status::Complete(head)) = request.parse(bytes) else {
            return None;
        };
        let length = request
            .headers
            .iter()
            .find(|header| header.name.eq_ignore_ascii_case("content-length"))
            .and_then(|header| {
                std::str::from_utf8(header.value)
                    .ok()?
                    .parse::<usize>()
                    .ok()
            })
            .unwrap_or(0);
        (bytes.len() >= head + length).then_some(head + length)
    }

    #[tokio::test]
    async fn a_kept_connection_the_server_closed_is_replaced_and_refusals_are_told() {
        let base = one_request_per_connection(&[
            "HTTP/1.1 204 No Content\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\ncontent-length: 14\r\n\r\n{\"code\":50035}",
        ])
        .await;
        let callbacks = fake("t", &base);
        let body = serde_json::json!({"type": 1});
        let first = callbacks.post(InteractionId::new(1), "a", &body).await;
        assert!(first.is_ok(), "{first:?}");
        // The first connection is kept, but the server has closed it: the second
        // callback goes out on a new one.
        let second = callbacks.post(InteractionId::new(2), "b", &body).await;
        match second {
            Err(CallbackError::Refused { status, body }) => {
                assert_eq!((status, body.as_str()), (400, "{\"code\":50035}"));
            }
            other => panic!("{other:?}"),
        }
        // Nothing listens for a third. Whether the client saw the server close the
        // second connection before reusing it is a race: if it did, nothing was
        // sent; if not, the request went into the closed connection, was retried on
        // a new one that could not connect, and may have arrived.
        let third = callbacks.post(InteractionId::new(3), "c", &body).await;
        match &third {
            Err(error @ CallbackError::Connect(_)) => assert!(error.nothing_sent()),
            Err(error @ CallbackError::RetryFailed { retry, .. }) => {
                assert!(matches!(**retry, CallbackError::Connect(_)), "{retry:?}");
                assert!(!error.nothing_sent());
            }
            other => panic!("{other:?}"),
        }
    }

    /// Reads one whole request into `buffer` and takes it out; false when the
    /// client closed first.
    async fn take_request(socket: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> bool {
        loop {
            if let Some(length) = request_length(buffer) {
                buffer.drain(..length);
                return true;
            }
            if socket.read_buf(buffer).await.unwrap_or(0) == 0 {
                return false;
            }
        }
    }

    /// Accepts one connection, answers its first request with 204 and reads a
    /// second, which it leaves unanswered: the connection comes back for the caller
    /// to close (None when the client closed it first).
    async fn answer_one_then_take_one(
        listener: &tokio::net::TcpListener,
    ) -> Option<tokio::net::TcpStream> {
        let (mut socket, _) = listener.accept().await.expect("a connection");
        let mut buffer = Vec::new();
        if !take_request(&mut socket, &mut buffer).await {
            return None;
        }
        socket
            .write_all(b"HTTP/1.1 204 No Content\r\n\r\n")
            .await
            .ok()?;
        take_request(&mut socket, &mut buffer)
            .await
            .then_some(socket)
    }

    /// The race of the server closing a kept connection just as a request goes into
    /// it, made certain: the retry finds nothing listening, and the error says the
    /// request may have arrived on the kept connection, so it is not sent again.
    #[tokio::test]
    async fn a_request_unanswered_on_a_kept_connection_may_have_arrived() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let server = tokio::spawn(async move {
            let socket = answer_one_then_take_one(&listener).await;
            // The listener goes first: nothing listens when the client, seeing the
            // connection close unanswered, tries again.
            drop(listener);
            socket.is_some()
        });
        let callbacks = fake("t", &base);
        let body = serde_json::json!({"type": 1});
        let first = callbacks.post(InteractionId::new(1), "a", &body).await;
        assert!(first.is_ok(), "{first:?}");
        let second = callbacks.post(InteractionId::new(2), "b", &body).await;
        match &second {
            Err(error @ CallbackError::RetryFailed { kept, retry }) => {
                assert!(matches!(**kept, CallbackError::Io(_)), "{kept:?}");
                assert!(matches!(**retry, CallbackError::Connect(_)), "{retry:?}");
                assert!(!error.nothing_sent());
            }
            other => panic!("{other:?}"),
        }
        assert!(
            server.await.expect("the server"),
            "the second request arrived"
        );
    }

    /// The kept connection's copy arrived but its answer did not: the server reads
    /// the second request on the first connection and closes it unanswered, then
    /// refuses the retry on a new connection as Discord would, already acknowledged.
    #[tokio::test]
    async fn a_retry_refused_as_already_acknowledged_was_answered() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let server = tokio::spawn(async move {
            let Some(first) = answer_one_then_take_one(&listener).await else {
                return 0;
            };
            drop(first);
            let (mut socket, _) = listener.accept().await.expect("the retry");
            if !take_request(&mut socket, &mut Vec::new()).await {
                return 2;
            }
            let body =
                r#"{"message": "Interaction has already been acknowledged.", "code": 40060}"#;
            let reply = format!(
                "HTTP/1.1 400 Bad Request\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            let _ = socket.write_all(reply.as_bytes()).await;
            3
        });
        let callbacks = fake("t", &base);
        let body = serde_json::json!({"type": 1});
        let first = callbacks.post(InteractionId::new(1), "a", &body).await;
        assert!(first.is_ok(), "{first:?}");
        let second = callbacks.post(InteractionId::new(2), "b", &body).await;
        assert!(second.is_ok(), "{second:?}");
        assert_eq!(server.await.expect("the server"), 3);
    }

    #[test]
    fn only_code_40060_is_already_acknowledged() {
        for (body, expected) in [
            (r#"{"code":40060}"#, true),
            (
                r#"{"message":"Interaction has already been acknowledged.","code":40060}"#,
                true,
            ),
            (r#"{"code":10062}"#, false),
            (r#"{"code":"40060"}"#, false),
            ("40060", false),
            ("", false),
        ] {
            assert_eq!(already_acknowledged(body), expected, "{body}");
        }
    }

    fn fake(token: &str, base: &str) -> Callbacks {
        match Callbacks::new(token, Some(base), |_| None) {
            Ok(Some(callbacks)) => callbacks,
            Ok(None) => panic!("no callbacks for {base}"),
            Err(error) => panic!("{base}: {error}"),
        }
    }

    #[test]
    fn a_proxy_for_discord_leaves_callbacks_to_serenity() {
        // The api_base, the environment, and whether callbacks go out directly.
        type Case = (
            Option<&'static str>,
            &'static [(&'static str, &'static str)],
            bool,
        );
        let table: &[Case] = &[
            (None, &[], true),
            (None, &[("HTTPS_PROXY", "http://proxy:3128")], false),
            (None, &[("https_proxy", "http://proxy:3128")], false),
            (None, &[("ALL_PROXY", "socks5://proxy:1080")], false),
            (None, &[("all_proxy", "socks5://proxy:1080")], false),
            // Not a proxy for https URLs, and an empty value is no proxy either.
            (None, &[("HTTP_PROXY", "http://proxy:3128")], true),
            (None, &[("HTTPS_PROXY", " ")], true),
            // A fake on loopback is reached directly whatever the environment says.
            (
                Some("http://127.0.0.1:4000"),
                &[("HTTPS_PROXY", "http://proxy:3128")],
                true,
            ),
        ];
        for (api_base, env, direct) in table {
            let lookup = |name: &str| {
                env.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (*value).to_owned())
            };
            let callbacks = Callbacks::new("t", *api_base, lookup).expect("callbacks set up");
            assert_eq!(callbacks.is_some(), *direct, "{api_base:?} {env:?}");
        }
    }

    #[test]
    fn errors_tell_whether_anything_was_sent() {
        let io = || io::Error::from(io::ErrorKind::ConnectionRefused);
        let table = [
            (CallbackError::Setup("api_base"), true),
            (CallbackError::Connect(io()), true),
            (CallbackError::Handshake(io()), true),
            (
                CallbackError::Timeout {
                    after: CALLBACK_TIMEOUT,
                    request_written: false,
                },
                true,
            ),
            (
                CallbackError::Timeout {
                    after: CALLBACK_TIMEOUT,
                    request_written: true,
                },
                false,
            ),
            (CallbackError::Io(io()), false),
            (
                CallbackError::RetryFailed {
                    kept: Box::new(CallbackError::Io(io())),
                    retry: Box::new(CallbackError::Connect(io())),
                },
                false,
            ),
            (CallbackError::Malformed("its head"), false),
            (
                CallbackError::Refused {
                    status: 400,
                    body: String::new(),
                },
                false,
            ),
        ];
        for (error, nothing_sent) in table {
            assert_eq!(error.nothing_sent(), nothing_sent, "{error:?}");
        }
    }
}
