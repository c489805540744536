//! Discord's OAuth2 authorization-code flow with PKCE, as a web app meets it:
//! `/oauth2/authorize` (a page where the test's person picks which test user grants),
//! `/api/oauth2/token`, and, with the access token as `Bearer`, `/api/users/@me` and
//! `/api/users/@me/guilds`. It refuses what Discord refuses, in Discord's shapes:
//! an unknown client or redirect URI on the page; at the token endpoint a wrong client
//! secret (`401 invalid_client`) and a code that is unknown, used, expired, issued to
//! another client or redirect URI, or whose PKCE verifier does not match (`400
//! invalid_grant`). A code lives 10 minutes on the fake's clock and serves once.
//!
//! The bot's own REST calls (`Bot` token) stay in `rest`; a `Bearer` request under
//! `/api` comes here whatever its version prefix.

use std::collections::HashMap;
use std::time::Duration;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::time::Instant;

use crate::state::Inner;

/// How long a code may wait for its exchange (Discord: 10 minutes).
pub const CODE_LIFETIME: Duration = Duration::from_secs(600);

/// The application a test registers: its secret and its allowed redirect URIs.
#[derive(Clone, Debug)]
pub struct OAuthApp {
    pub client_id: u64,
    pub client_secret: String,
    pub redirect_uris: Vec<String>,
}

/// A person who can grant on the fake's page, and the servers `/users/@me/guilds`
/// lists for them.
#[derive(Clone, Debug)]
pub struct OAuthUser {
    pub id: u64,
    pub username: String,
    /// Discord's `locale` of `/users/@me` (`en-US`, `de`).
    pub locale: String,
    pub guilds: Vec<OAuthGuild>,
}

/// A server of an [`OAuthUser`]: its id, name, the user's permission bits there, and
/// their role ids (answered to the bot by `GET /guilds/{id}/members/{user}`).
#[derive(Clone, Debug)]
pub struct OAuthGuild {
    pub id: u64,
    pub name: String,
    pub permissions: u64,
    pub roles: Vec<u64>,
}

struct Grant {
    user_id: u64,
    client_id: u64,
    redirect_uri: String,
    challenge: String,
    issued: Instant,
    used: bool,
}

#[derive(Default)]
pub(crate) struct OAuthState {
    pub(crate) app: Option<OAuthApp>,
    pub(crate) users: Vec<OAuthUser>,
    codes: HashMap<String, Grant>,
    tokens: HashMap<String, u64>,
}

impl OAuthState {
    fn user(&self, id: u64) -> Option<&OAuthUser> {
        self.users.iter().find(|user| user.id == id)
    }

    /// The roles of `user` in `guild`, as the bot reads a member.
    pub(crate) fn member(&self, guild: u64, user: u64) -> Option<Value> {
        let user = self.user(user)?;
        let guild = user.guilds.iter().find(|g| g.id == guild)?;
        Some(json!({
            "user": user_json(user),
            "roles": guild.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
        }))
    }
}

fn user_json(user: &OAuthUser) -> Value {
    json!({
        "id": user.id.to_string(),
        "username": user.username,
        "global_name": user.username,
        "discriminator": "0",
        "avatar": null,
        "locale": user.locale,
    })
}

/// Whether the fake answers this request here rather than as the bot's REST API.
pub(crate) fn is_oauth(path: &str, authorization: Option<&str>) -> bool {
    path.starts_with("/oauth2/")
        || path == "/api/oauth2/token"
        || path == "/api/v10/oauth2/token"
        || (path.starts_with("/api/") && authorization.is_some_and(|a| a.starts_with("Bearer ")))
}

/// A request for the OAuth side: method, path, query and body fields, `Authorization`.
pub(crate) struct OAuthRequest {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) params: HashMap<String, String>,
    pub(crate) authorization: Option<String>,
}

pub(crate) fn handle(inner: &mut Inner, request: &OAuthRequest) -> Response {
    let path = request
        .path
        .strip_prefix("/api/v10")
        .or_else(|| request.path.strip_prefix("/api"))
        .unwrap_or(&request.path);
    match (request.method.as_str(), path) {
        ("GET", "/oauth2/authorize") => authorize_page(&inner.oauth, &request.params),
        ("POST", "/oauth2/authorize") => grant(inner, &request.params),
        ("POST", "/oauth2/token") => token(inner, request),
        ("GET", "/users/@me") => with_user(inner, request, |_, user| user_json(user)),
        ("GET", "/users/@me/guilds") => with_user(inner, request, |_, user| {
            user.guilds
                .iter()
                .map(|guild| {
                    json!({
                        "id": guild.id.to_string(),
                        "name": guild.name,
                        "icon": null,
                        "owner": false,
                        "permissions": guild.permissions.to_string(),
                        "features": [],
                    })
                })
                .collect()
        }),
        _ => json_reply(
            StatusCode::NOT_FOUND,
            json!({"code": 0, "message": "404: Not Found"}),
        ),
    }
}

fn json_reply(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    json_reply(
        status,
        json!({"error": error, "error_description": description}),
    )
}

/// Why an authorize request is refused on the page itself (Discord does not redirect
/// to an unregistered URI).
fn check_authorize(state: &OAuthState, params: &HashMap<String, String>) -> Result<(), String> {
    let Some(app) = &state.app else {
        return Err("Unknown Application".to_owned());
    };
    let param = |name: &str| params.get(name).map(String::as_str).unwrap_or("");
    if param("client_id") != app.client_id.to_string() {
        return Err("Unknown Application".to_owned());
    }
    if !app
        .redirect_uris
        .iter()
        .any(|uri| uri == param("redirect_uri"))
    {
        return Err("Invalid OAuth2 redirect_uri".to_owned());
    }
    if param("response_type") != "code" {
        return Err("Invalid response_type".to_owned());
    }
    if !param("code_challenge").is_empty() && param("code_challenge_method") != "S256" {
        return Err("Invalid code_challenge_method".to_owned());
    }
    let scopes: Vec<&str> = param("scope").split(' ').collect();
    if scopes
        .iter()
        .any(|scope| !["identify", "guilds"].contains(scope))
    {
        return Err("Invalid scope".to_owned());
    }
    Ok(())
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Fake Discord</title></head>\
             <body><h1>Fake Discord</h1>{body}</body></html>"
        ),
    )
        .into_response()
}

/// The page: one "Authorize as …" button per test user, each carrying the request.
fn authorize_page(state: &OAuthState, params: &HashMap<String, String>) -> Response {
    if let Err(why) = check_authorize(state, params) {
        return html(
            StatusCode::BAD_REQUEST,
            format!("<p id=\"error\">{}</p>", escape(&why)),
        );
    }
    let hidden: String = [
        "client_id",
        "redirect_uri",
        "response_type",
        "scope",
        "state",
        "code_challenge",
        "code_challenge_method",
    ]
    .iter()
    .filter_map(|name| params.get(*name).map(|value| (name, value)))
    .map(|(name, value)| {
        format!(
            "<input type=\"hidden\" name=\"{name}\" value=\"{}\">",
            escape(value)
        )
    })
    .collect();
    let mut body = String::from("<p>An application wants to access your account.</p>");
    for user in &state.users {
        body.push_str(&format!(
            "<form method=\"post\" action=\"/oauth2/authorize\">{hidden}\
             <input type=\"hidden\" name=\"user_id\" value=\"{id}\">\
             <button id=\"authorize-{id}\">Authorize as {name}</button></form>",
            id = user.id,
            name = escape(&user.username),
        ));
    }
    body.push_str(&format!(
        "<form method=\"post\" action=\"/oauth2/authorize\">{hidden}\
         <input type=\"hidden\" name=\"deny\" value=\"1\"><button id=\"cancel\">Cancel</button></form>"
    ));
    html(StatusCode::OK, body)
}

/// The person pressed a button: a code for the chosen user (or `access_denied`),
/// sent back to the redirect URI with the `state` as given.
fn grant(inner: &mut Inner, params: &HashMap<String, String>) -> Response {
    if let Err(why) = check_authorize(&inner.oauth, params) {
        return html(
            StatusCode::BAD_REQUEST,
            format!("<p id=\"error\">{}</p>", escape(&why)),
        );
    }
    let param = |name: &str| params.get(name).cloned().unwrap_or_default();
    let redirect_uri = param("redirect_uri");
    let state = encode(&param("state"));
    let separator = if redirect_uri.contains('?') { '&' } else { '?' };
    if params.contains_key("deny") {
        let target = format!(
            "{redirect_uri}{separator}error=access_denied&error_description=The+resource+owner+or+authorization+server+denied+the+request&state={state}"
        );
        return redirect(&target);
    }
    let user_id = param("user_id").parse::<u64>().unwrap_or(0);
    if inner.oauth.user(user_id).is_none() {
        return html(
            StatusCode::BAD_REQUEST,
            "<p id=\"error\">Unknown User</p>".to_owned(),
        );
    }
    let code = format!("code{}", inner.next_id());
    let issued = inner.now();
    inner.oauth.codes.insert(
        code.clone(),
        Grant {
            user_id,
            client_id: param("client_id").parse().unwrap_or(0),
            redirect_uri: redirect_uri.clone(),
            challenge: param("code_challenge"),
            issued,
            used: false,
        },
    );
    redirect(&format!(
        "{redirect_uri}{separator}code={code}&state={state}"
    ))
}

fn redirect(target: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, target.to_owned())]).into_response()
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

/// The client's credentials: HTTP Basic or `client_id`/`client_secret` in the body.
fn client_credentials(request: &OAuthRequest) -> (String, String) {
    let basic = request
        .authorization
        .as_deref()
        .and_then(|value| value.strip_prefix("Basic "))
        .and_then(|encoded| {
            base64::engine::general_purpose::STANDARD
                .decode(encoded.trim())
                .ok()
        })
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| {
            text.split_once(':')
                .map(|(id, secret)| (id.to_owned(), secret.to_owned()))
        });
    basic.unwrap_or_else(|| {
        let param = |name: &str| request.params.get(name).cloned().unwrap_or_default();
        (param("client_id"), param("client_secret"))
    })
}

fn token(inner: &mut Inner, request: &OAuthRequest) -> Response {
    let Some(app) = inner.oauth.app.clone() else {
        return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "Unknown client");
    };
    let (client_id, secret) = client_credentials(request);
    if client_id != app.client_id.to_string() || secret != app.client_secret {
        return json_reply(StatusCode::UNAUTHORIZED, json!({"error": "invalid_client"}));
    }
    let param = |name: &str| request.params.get(name).cloned().unwrap_or_default();
    if param("grant_type") != "authorization_code" {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Unsupported grant type",
        );
    }
    let now = inner.now();
    let code = param("code");
    let invalid = |what: &str| {
        oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            &format!("Invalid \"{what}\" in request."),
        )
    };
    let Some(grant) = inner.oauth.codes.get_mut(&code) else {
        return invalid("code");
    };
    // A code serves one exchange, right or wrong, as the RFC asks.
    if grant.used || now.duration_since(grant.issued) > CODE_LIFETIME {
        grant.used = true;
        return invalid("code");
    }
    grant.used = true;
    if grant.client_id != app.client_id {
        return invalid("code");
    }
    if grant.redirect_uri != param("redirect_uri") {
        return invalid("redirect_uri");
    }
    if !grant.challenge.is_empty() {
        let verifier = param("code_verifier");
        let computed = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        if verifier.len() < 43 || verifier.len() > 128 || computed != grant.challenge {
            return invalid("code_verifier");
        }
    }
    let user_id = grant.user_id;
    let access = format!("access{}", inner.next_id());
    inner.oauth.tokens.insert(access.clone(), user_id);
    json_reply(
        StatusCode::OK,
        json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 604_800,
            "refresh_token": format!("refresh{}", inner.next_id()),
            "scope": "identify guilds",
        }),
    )
}

fn with_user(
    inner: &Inner,
    request: &OAuthRequest,
    answer: impl FnOnce(&Inner, &OAuthUser) -> Value,
) -> Response {
    let user = request
        .authorization
        .as_deref()
        .and_then(|value| value.strip_prefix("Bearer "))
        .and_then(|token| inner.oauth.tokens.get(token))
        .and_then(|id| inner.oauth.user(*id));
    match user {
        Some(user) => json_reply(StatusCode::OK, answer(inner, user)),
        None => json_reply(
            StatusCode::UNAUTHORIZED,
            json!({"code": 0, "message": "401: Unauthorized"}),
        ),
    }
}
