//! "Log in with Discord": the OAuth2 authorization-code flow with `state` and PKCE
//! (S256), scopes `identify guilds`, and what the login reads from Discord later
//! (the user's servers again, a member's roles through the bot's token).
//!
//! `/login` makes a fresh `state` and PKCE verifier, keeps both in a short-lived
//! `HttpOnly` cookie scoped to `/login` (no server memory: any instance can finish the
//! login), and sends the browser to Discord. `/login/callback` takes the code only
//! when its `state` is the cookie's, exchanges it with the verifier and the client
//! secret, reads `/users/@me` and `/users/@me/guilds`, ends any session the browser
//! had and starts a new one, and always lands on `/servers`: no address from the
//! request is ever followed, so there is no open redirect.

use std::time::Duration;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::html::{escape, page};
use super::session::{self, SessionGuild, reader_language, server_error};
use super::{Web, status_page};
use crate::core::User;
use crate::i18n::{self, Lang};

/// The cookie that carries `state.verifier` from `/login` to the callback.
const FLOW_COOKIE: &str = "tavern_oauth";
/// How long a login may take at Discord.
const FLOW_SECONDS: i64 = 600;
/// The most a Discord answer may weigh (a user in 200 servers is ~60 KiB).
const MAX_ANSWER_BYTES: usize = 1 << 20;

/// The Discord application the dashboard logs in with.
#[derive(Debug, Clone)]
pub struct DiscordLogin {
    pub client_id: u64,
    pub client_secret: String,
    /// `https://discord.com`, or a fake Discord's base in tests.
    pub discord_url: String,
    /// The bot's token, which reads a member's roles (the Tavern role); `None`:
    /// roles are not read and only Manage Server counts.
    pub bot_token: Option<String>,
}

/// One client for every call to Discord: short timeouts, no redirects followed.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// Why a call to Discord failed: the token is no longer good, or anything else.
#[derive(Debug)]
pub enum DiscordError {
    Unauthorized,
    Other(anyhow::Error),
}

impl From<anyhow::Error> for DiscordError {
    fn from(error: anyhow::Error) -> Self {
        DiscordError::Other(error)
    }
}

impl From<reqwest::Error> for DiscordError {
    fn from(error: reqwest::Error) -> Self {
        DiscordError::Other(error.into())
    }
}

fn redirect_uri(web: &Web) -> String {
    format!("{}/login/callback", web.options.public_origin)
}

fn flow_cookie(web: &Web, value: &str, max_age: i64) -> String {
    let secure = if web.options.secure_cookie {
        "; Secure"
    } else {
        ""
    };
    format!("{FLOW_COOKIE}={value}; Path=/login; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}")
}

/// Percent-encodes a query value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (byte as char).to_string()
            }
            _ => format!("%{byte:02X}"),
        })
        .collect()
}

/// `/login`: to Discord's consent page with a fresh `state` and PKCE challenge.
pub async fn login(State(web): State<Web>, headers: HeaderMap) -> Response {
    let lang = reader_language(&headers);
    let Some(discord) = &web.options.discord else {
        return failed(lang, StatusCode::NOT_FOUND, "web-not-found");
    };
    let state = session::random_token();
    let verifier = session::random_token();
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let target = format!(
        "{base}/oauth2/authorize?response_type=code&client_id={client}&scope=identify%20guilds\
         &redirect_uri={redirect}&state={state}&code_challenge={challenge}\
         &code_challenge_method=S256&prompt=consent",
        base = discord.discord_url,
        client = discord.client_id,
        redirect = encode(&redirect_uri(&web)),
    );
    (
        [(
            header::SET_COOKIE,
            flow_cookie(&web, &format!("{state}.{verifier}"), FLOW_SECONDS),
        )],
        Redirect::to(&target),
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// The `state` and verifier `/login` left in this browser.
fn flow_of(headers: &HeaderMap) -> Option<(String, String)> {
    let (state, verifier) = session::cookie_value(headers, FLOW_COOKIE)?.split_once('.')?;
    Some((state.to_owned(), verifier.to_owned()))
}

/// A refused or failed login: a page that offers to start again.
fn failed(lang: Lang, status: StatusCode, key: &str) -> Response {
    let body = format!(
        "<p>{}</p><p><a href=\"/\">{}</a></p>",
        escape(&i18n::tr(lang, key)),
        escape(&i18n::tr(lang, "web-back")),
    );
    status_page(
        status,
        page(lang, &i18n::tr(lang, "web-login-heading"), None, &body),
    )
}

/// `/login/callback`: Discord sent the browser back with a code (or a refusal).
pub async fn callback(
    State(web): State<Web>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let lang = reader_language(&headers);
    let Some(discord) = web.options.discord.clone() else {
        return failed(lang, StatusCode::NOT_FOUND, "web-not-found");
    };
    let clear = [(header::SET_COOKIE, flow_cookie(&web, "", 0))];
    let flow = flow_of(&headers);
    let state_ok = match (&flow, &query.state) {
        (Some((expected, _)), Some(given)) => session::same_secret(expected, given),
        _ => false,
    };
    // A callback this browser did not start (a forged link, an old tab) does nothing.
    if !state_ok {
        return (
            clear,
            failed(lang, StatusCode::BAD_REQUEST, "web-login-failed"),
        )
            .into_response();
    }
    if query.error.is_some() {
        return (clear, failed(lang, StatusCode::OK, "web-login-cancelled")).into_response();
    }
    let (Some(code), Some((_, verifier))) = (query.code, flow) else {
        return (
            clear,
            failed(lang, StatusCode::BAD_REQUEST, "web-login-failed"),
        )
            .into_response();
    };
    let login = match exchange(&web, &discord, &code, &verifier).await {
        Ok(login) => login,
        Err(error) => {
            tracing::warn!(error = format!("{error:#}"), "a login with Discord failed");
            return (
                clear,
                failed(lang, StatusCode::BAD_GATEWAY, "web-login-failed"),
            )
                .into_response();
        }
    };
    // The session rotates: whatever id the browser had ends here.
    if let Err(error) = session::end_old(&web, &headers).await {
        return server_error(lang, &error);
    }
    let created = session::create(
        &web,
        login.user,
        &login.guilds,
        false,
        Some(login.token),
        login.locale,
    );
    match created.await {
        // Appended, not inserted: both cookies must reach the browser.
        Ok(cookie) => (
            AppendHeaders([
                (header::SET_COOKIE, cookie),
                (header::SET_COOKIE, flow_cookie(&web, "", 0)),
            ]),
            Redirect::to("/servers"),
        )
            .into_response(),
        Err(error) => server_error(lang, &error),
    }
}

/// Who logged in, their servers, and the access token that reads them again.
struct Login {
    user: User,
    guilds: Vec<SessionGuild>,
    token: String,
    /// `identify`'s `locale`: the page's language before `Accept-Language`.
    locale: Option<String>,
}

/// The code for a token (with the verifier and the client secret), then the user.
async fn exchange(
    web: &Web,
    discord: &DiscordLogin,
    code: &str,
    verifier: &str,
) -> anyhow::Result<Login> {
    let redirect = redirect_uri(web);
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect.as_str()),
        ("code_verifier", verifier),
    ];
    let response = web
        .http
        .post(format!("{}/api/v10/oauth2/token", discord.discord_url))
        .basic_auth(discord.client_id, Some(&discord.client_secret))
        .form(&form)
        .send()
        .await?;
    let status = response.status();
    let answer = read_json(response).await?;
    anyhow::ensure!(
        status.is_success(),
        "Discord refused the code ({status}): {}",
        answer
    );
    let token = answer["access_token"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("Discord's token answer has no access_token"))?
        .to_owned();
    let me = get_json(web, discord, "/users/@me", &format!("Bearer {token}"))
        .await
        .map_err(into_anyhow)?;
    let id = snowflake(&me["id"]).ok_or_else(|| anyhow::anyhow!("/users/@me has no id"))?;
    let name = me["global_name"]
        .as_str()
        .or_else(|| me["username"].as_str())
        .unwrap_or("?")
        .to_owned();
    let locale = me["locale"]
        .as_str()
        .map(|locale| locale.chars().take(16).collect());
    let guilds = fetch_guilds(web, &token).await.map_err(into_anyhow)?;
    Ok(Login {
        user: User { id, name },
        guilds,
        token,
        locale,
    })
}

fn into_anyhow(error: DiscordError) -> anyhow::Error {
    match error {
        DiscordError::Unauthorized => anyhow::anyhow!("Discord answered 401"),
        DiscordError::Other(error) => error,
    }
}

/// The user's servers and permission bits, from `/users/@me/guilds`.
pub async fn fetch_guilds(web: &Web, token: &str) -> Result<Vec<SessionGuild>, DiscordError> {
    let Some(discord) = &web.options.discord else {
        return Err(DiscordError::Other(anyhow::anyhow!("no Discord login")));
    };
    let answer = get_json(
        web,
        discord,
        "/users/@me/guilds",
        &format!("Bearer {token}"),
    )
    .await?;
    let guilds = answer
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("/users/@me/guilds is not a list"))?;
    Ok(guilds
        .iter()
        .filter_map(|guild| {
            Some(SessionGuild {
                id: snowflake(&guild["id"])?,
                name: guild["name"].as_str().unwrap_or("?").to_owned(),
                permissions: guild["permissions"].as_str()?.parse().ok()?,
            })
        })
        .collect())
}

/// A member's role ids in `guild_id`, read through the bot's token; kept in the
/// database for `[web] cache_seconds`.
pub async fn member_roles(web: &Web, guild_id: i64, user_id: i64) -> anyhow::Result<Vec<i64>> {
    let storage = web.core.storage();
    let now = web.now();
    if let Some((roles, at)) = storage.web_member_roles(guild_id, user_id).await?
        && now - at < web.options.cache_ms
    {
        return Ok(serde_json::from_str(&roles).unwrap_or_default());
    }
    let has_bot_token = web
        .options
        .discord
        .as_ref()
        .is_some_and(|discord| discord.bot_token.is_some());
    if !has_bot_token {
        return Ok(Vec::new());
    }
    let member = bot_get(web, &format!("/guilds/{guild_id}/members/{user_id}")).await?;
    let roles: Vec<i64> = member["roles"]
        .as_array()
        .map(|roles| roles.iter().filter_map(snowflake).collect())
        .unwrap_or_default();
    storage
        .set_web_member_roles(guild_id, user_id, &serde_json::to_string(&roles)?, now)
        .await?;
    Ok(roles)
}

/// `path` of Discord's API read through the bot's token.
pub async fn bot_get(web: &Web, path: &str) -> anyhow::Result<Value> {
    let Some(discord) = &web.options.discord else {
        anyhow::bail!("no Discord application configured");
    };
    let Some(token) = &discord.bot_token else {
        anyhow::bail!("no bot token configured");
    };
    get_json(web, discord, path, &format!("Bot {token}"))
        .await
        .map_err(into_anyhow)
}

async fn get_json(
    web: &Web,
    discord: &DiscordLogin,
    path: &str,
    authorization: &str,
) -> Result<Value, DiscordError> {
    let response = web
        .http
        .get(format!("{}/api/v10{path}", discord.discord_url))
        .header(header::AUTHORIZATION, authorization)
        .send()
        .await?;
    let status = response.status();
    if status == StatusCode::UNAUTHORIZED {
        return Err(DiscordError::Unauthorized);
    }
    let answer = read_json(response).await?;
    if !status.is_success() {
        return Err(DiscordError::Other(anyhow::anyhow!(
            "Discord answered {status} to {path}: {answer}"
        )));
    }
    Ok(answer)
}

/// The body as JSON, refused past [`MAX_ANSWER_BYTES`].
async fn read_json(mut response: reqwest::Response) -> anyhow::Result<Value> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        anyhow::ensure!(
            bytes.len() + chunk.len() <= MAX_ANSWER_BYTES,
            "Discord's answer is over {MAX_ANSWER_BYTES} bytes"
        );
        bytes.extend_from_slice(&chunk);
    }
    Ok(serde_json::from_slice(&bytes)?)
}

/// A Discord id, sent as a string.
fn snowflake(value: &Value) -> Option<i64> {
    value.as_str()?.parse().ok()
}
