//! Rate limits of the dashboard (issue 25), with the bot's own token buckets
//! ([`RateLimiter`]):
//!
//! - **Logins** (`/login`, `/login/callback`, `/login/dev`): per client address,
//!   [`LOGIN_BURST`] at once, [`LOGIN_PER_MINUTE`] a minute: each one talks to
//!   Discord or writes a session.
//! - **Engine routes** (a POST whose last path segment is `check`, `try`, `play`,
//!   `run`, `edit` or `effects`: the editors' checks and runs of generators, NPC
//!   scripts and the effect file, on the engine workers): per session (the
//!   hash of the cookie; without one, per address) with the bot's `[rate_limit]`, so
//!   the web runs engines no faster than a Discord user's commands. A made-up cookie
//!   passes the limit but not the handler, which refuses it before any engine runs.
//!
//! Refused requests get 429 with `Retry-After` and a page in the reader's language.
//! The address is the TCP peer's: behind a proxy every client shares the proxy's
//! bucket for logins (no forwarded header is trusted).

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request as HttpRequest, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::html::page;
use super::session::{reader_language, session_id};
use super::{Web, status_page};
use crate::core::limits::RateLimiter;
use crate::i18n;

pub const LOGIN_BURST: u32 = 10;
pub const LOGIN_PER_MINUTE: u32 = 10;

/// The two kinds of bucket.
#[derive(Debug)]
pub struct WebLimits {
    login: RateLimiter,
    engine: RateLimiter,
}

impl WebLimits {
    /// `burst` and `per_minute` are the bot's `[rate_limit]`, for engine routes.
    pub fn new(burst: u32, per_minute: u32) -> WebLimits {
        WebLimits {
            login: RateLimiter::new(LOGIN_BURST, LOGIN_PER_MINUTE),
            engine: RateLimiter::new(burst, per_minute),
        }
    }
}

/// What a request costs, by its route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Login,
    Engine,
    Free,
}

/// The kind of `path` requested with `method`.
pub fn route_kind(method: &Method, path: &str) -> Route {
    if matches!(path, "/login" | "/login/callback" | "/login/dev") {
        return Route::Login;
    }
    let last = path.rsplit('/').next().unwrap_or("");
    // The editors (editors.rs) check a listing or script on every `edit` and on the
    // effect file's form, and run it on `try` and `play`.
    let engine = matches!(last, "check" | "try" | "play" | "run" | "edit" | "effects");
    if method == Method::POST && engine {
        return Route::Engine;
    }
    Route::Free
}

/// The middleware: takes a token of the request's bucket, or answers 429.
pub async fn limit(State(web): State<Web>, request: HttpRequest, next: Next) -> Response {
    let kind = route_kind(request.method(), request.uri().path());
    if kind == Route::Free {
        return next.run(request).await;
    }
    let address = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip().to_string())
        .unwrap_or_default();
    let (limiter, key) = match kind {
        Route::Login => (&web.limits.login, key_of("ip", &address)),
        _ => match session_id(request.headers()) {
            Some(id) => (&web.limits.engine, key_of("session", id)),
            None => (&web.limits.engine, key_of("ip", &address)),
        },
    };
    let Err(wait_ms) = limiter.check(key, web.now()) else {
        return next.run(request).await;
    };
    let lang = reader_language(request.headers());
    let wait = i18n::duration(lang, wait_ms);
    let body = format!(
        "<p>{}</p>",
        super::html::escape(&i18n::tr_args(
            lang,
            "web-live-rate-limited",
            &[("wait", wait.into())]
        ))
    );
    let mut response = status_page(
        StatusCode::TOO_MANY_REQUESTS,
        page(lang, &i18n::tr(lang, "web-live-rate-heading"), None, &body),
    );
    let seconds = (wait_ms.max(0) + 999) / 1000;
    if let Ok(value) = HeaderValue::from_str(&seconds.max(1).to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// A bucket's key: 63 bits of the SHA-256 of `kind:value` (sessions and addresses
/// never share one).
fn key_of(kind: &str, value: &str) -> i64 {
    let digest = Sha256::digest(format!("{kind}:{value}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    (u64::from_le_bytes(bytes) >> 1) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_told_apart_by_method_and_path() {
        for (method, path, kind) in [
            (Method::GET, "/login", Route::Login),
            (Method::GET, "/login/callback", Route::Login),
            (Method::POST, "/login/dev", Route::Login),
            (Method::POST, "/servers/1/programs/x/check", Route::Engine),
            (Method::POST, "/servers/1/npcs/x/play", Route::Engine),
            (Method::POST, "/servers/1/programs/x/try", Route::Engine),
            (Method::GET, "/servers/1/programs/x/check", Route::Free),
            (Method::POST, "/servers/1/programs/edit", Route::Engine),
            (Method::POST, "/servers/1/npcs/edit", Route::Engine),
            (Method::POST, "/servers/1/effects", Route::Engine),
            (Method::GET, "/servers/1/effects", Route::Free),
            (Method::POST, "/servers/1/macros", Route::Free),
            (Method::GET, "/servers", Route::Free),
        ] {
            assert_eq!(route_kind(&method, path), kind, "{method} {path}");
        }
    }

    #[test]
    fn sessions_and_addresses_get_different_buckets() {
        assert_ne!(key_of("ip", "x"), key_of("session", "x"));
        assert!(key_of("ip", "127.0.0.1") >= 0);
    }
}
