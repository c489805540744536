//! The web dashboard (`tavern web`): server-rendered pages over the same command core
//! as Discord and the console.
//!
//! Every change a page makes is a core [`Request`] built for the logged-in user (a
//! `/macro set`, a `/character use`, …) and answered by `Core::handle`, so the web
//! checks and words it exactly as the command does; pages read lists straight from
//! storage. Nothing that matters is kept in memory: a login is a `web_sessions` row.
//!
//! Security: the session cookie is `HttpOnly`, `SameSite=Lax` (`Secure` under an https
//! public URL) and holds a random id whose SHA-256 alone is stored; every POST needs
//! the session's CSRF token and, when the browser sends one, the public origin in
//! `Origin`; no GET changes anything; every text is escaped ([`html::escape`]); the
//! Content-Security-Policy allows scripts only from this origin (`/live.js`; no inline
//! script) and styles only from `/style.css`.

mod channels;
mod editors;
mod html;
mod live;
mod oauth;
mod pages;
mod rate;
mod session;
mod settings;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request as HttpRequest, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::config::WebConfig;
use crate::core::Core;
use crate::core::limits::Clock;

pub use html::escape;
pub use oauth::DiscordLogin;
pub use rate::{LOGIN_BURST, LOGIN_PER_MINUTE};
pub use session::{
    SessionGuild, Viewer, hash_id as hash_session_id, seal as seal_token, start as start_session,
    unseal as unseal_token,
};

/// The Content-Security-Policy of every answer: no inline script; scripts, event
/// streams, styles and images only from this origin, forms only to it, never in a
/// frame.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; \
     frame-ancestors 'none'";

/// The largest request body: the biggest form (a macro) is far below it.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "tavern_session";

/// The development login's identity: the console's local user in the console's
/// local server (`ConsoleIdentity`), so `tavern web --dev-login` shows what
/// `tavern console` made on the same database.
pub const DEV_USER_ID: i64 = 1;
pub const DEV_GUILD_ID: i64 = 1;

/// How the dashboard runs.
#[derive(Debug, Clone)]
pub struct WebOptions {
    /// `scheme://host[:port]` as browsers reach it: forms are accepted from this
    /// origin only.
    pub public_origin: String,
    /// Whether the cookie gets `Secure` (an https public origin).
    pub secure_cookie: bool,
    pub session_ttl_ms: i64,
    /// The development login (`--dev-login`): only ever on a loopback address.
    pub dev_login: bool,
    /// "Log in with Discord", when the application is configured.
    pub discord: Option<DiscordLogin>,
    /// How long servers and roles read from Discord are trusted (ms).
    pub cache_ms: i64,
}

impl WebOptions {
    /// The options for listening on `address`. A development login anywhere but on
    /// loopback is refused: it logs anyone in without a password.
    pub fn new(config: &WebConfig, address: SocketAddr, dev_login: bool) -> anyhow::Result<Self> {
        anyhow::ensure!(
            !dev_login || address.ip().is_loopback(),
            "--dev-login only works on a loopback address (127.0.0.1 or ::1), not {address}"
        );
        let public_origin = match &config.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{address}"),
        };
        Ok(WebOptions {
            secure_cookie: public_origin.starts_with("https://"),
            public_origin,
            session_ttl_ms: i64::from(config.session_hours) * 3_600_000,
            dev_login,
            discord: None,
            cache_ms: i64::from(config.cache_seconds) * 1000,
        })
    }

    /// With "Log in with Discord" as `config` sets it up (client id and secret), the
    /// bot's `token` reading members' roles. `None` when no client id is set.
    pub fn with_discord(
        mut self,
        config: &WebConfig,
        bot_token: Option<String>,
    ) -> anyhow::Result<Self> {
        let Some(client_id) = config.client_id else {
            return Ok(self);
        };
        let client_secret = config.client_secret.clone().ok_or_else(|| {
            anyhow::anyhow!(
                "[web] client_id is set but the client secret is not \
                 ([web] client_secret or TAVERN_WEB_CLIENT_SECRET)"
            )
        })?;
        self.discord = Some(DiscordLogin {
            client_id,
            client_secret,
            discord_url: config.discord_url.trim_end_matches('/').to_owned(),
            bot_token,
        });
        Ok(self)
    }
}

/// What every handler shares: the core, a clock for sessions, the options.
#[derive(Clone)]
pub struct Web {
    core: Arc<Core>,
    clock: Arc<dyn Clock>,
    options: Arc<WebOptions>,
    /// Talks to Discord for logins, servers and roles.
    http: reqwest::Client,
    /// The budget of open live views (`live.rs`).
    live: live::LiveViews,
    /// Token buckets of logins and engine routes (`rate.rs`).
    limits: Arc<rate::WebLimits>,
}

impl Web {
    pub fn new(core: Arc<Core>, clock: Arc<dyn Clock>, options: WebOptions) -> Web {
        let settings = core.settings();
        let limits = rate::WebLimits::new(settings.rate_burst, settings.rate_per_minute);
        Web {
            core,
            clock,
            options: Arc::new(options),
            http: oauth::http_client(),
            live: live::LiveViews::default(),
            limits: Arc::new(limits),
        }
    }

    /// How many live views (event streams) are open now.
    pub fn live_views_open(&self) -> usize {
        self.live.open()
    }

    fn now(&self) -> i64 {
        self.clock.now_ms()
    }
}

/// Every route of the dashboard.
pub fn router(web: Web) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/style.css", get(pages::style))
        .route("/login/dev", post(pages::dev_login))
        // Log in with Discord (oauth.rs).
        .route("/login", get(oauth::login))
        .route("/login/callback", get(oauth::callback))
        .route("/logout", post(pages::logout))
        .route("/logout/everywhere", post(pages::logout_everywhere))
        .route("/servers", get(pages::servers))
        .route("/servers/{guild}/characters", get(pages::characters))
        .route(
            "/servers/{guild}/characters/answer",
            post(pages::character_answer),
        )
        .route("/servers/{guild}/characters/{id}", get(pages::character))
        .route(
            "/servers/{guild}/characters/{id}/use",
            post(pages::character_use),
        )
        .route(
            "/servers/{guild}/characters/{id}/delete",
            post(pages::character_delete),
        )
        .route(
            "/servers/{guild}/macros",
            get(pages::macros).post(pages::macro_set),
        )
        .route("/servers/{guild}/macros/delete", post(pages::macro_delete))
        // Encounters live (live.rs).
        .route("/live.js", get(live::script))
        .route("/servers/{guild}/encounters", get(live::list))
        .route("/servers/{guild}/encounters/{channel}", get(live::tracker))
        .route(
            "/servers/{guild}/encounters/{channel}/events",
            get(live::events),
        )
        // Settings (settings.rs).
        .route("/servers/{guild}/settings", get(settings::page_get))
        .route(
            "/servers/{guild}/settings/language",
            post(settings::language),
        )
        .route(
            "/servers/{guild}/settings/macro-role",
            post(settings::macro_role),
        )
        // The admins' editors (editors.rs), with their own body limit.
        .merge(editors::routes(&web))
        .fallback(pages::not_found)
        .layer(middleware::from_fn_with_state(web.clone(), rate::limit))
        .layer(middleware::from_fn_with_state(web.clone(), check_origin))
        .layer(middleware::map_response(security_headers))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(web)
}

/// Serves `router` on `address`; returns the bound address (port 0 picks one).
pub async fn serve(
    address: SocketAddr,
    router: Router,
) -> anyhow::Result<(SocketAddr, JoinHandle<()>)> {
    let listener = TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    Ok((bound, serve_on(listener, router)))
}

/// Serves `router` on a listener already bound (a test that must know its port
/// before it builds the options).
pub fn serve_on(listener: TcpListener, router: Router) -> JoinHandle<()> {
    tokio::spawn(async move {
        // The peer's address reaches the login rate limit (rate.rs).
        let service = router.into_make_service_with_connect_info::<SocketAddr>();
        if let Err(error) = axum::serve(listener, service).await {
            tracing::error!(%error, "the web server stopped");
        }
    })
}

/// A state-changing request from another site is refused before it reaches a
/// handler: `Origin`, when the browser sends it, must be the public origin, and a
/// `Sec-Fetch-Site: cross-site` request is refused outright.
async fn check_origin(State(web): State<Web>, request: HttpRequest, next: Next) -> Response {
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return next.run(request).await;
    }
    let headers = request.headers();
    let origin_ok = headers
        .get(header::ORIGIN)
        .is_none_or(|origin| origin.as_bytes() == web.options.public_origin.as_bytes());
    let cross_site = headers
        .get("sec-fetch-site")
        .is_some_and(|site| site.as_bytes() == b"cross-site");
    if !origin_ok || cross_site {
        return pages::forbidden(&headers.clone()).into_response();
    }
    next.run(request).await
}

async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Not `no-referrer`: under it Chromium sends `Origin: null` with the page's own
    // forms, which `check_origin` must refuse (every form failed in a real browser).
    // `same-origin` still tells other sites nothing.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// A status with a page body.
pub(crate) fn status_page(status: StatusCode, html: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html,
    )
        .into_response()
}
