//! Logins: the session cookie, its row, the CSRF token, and the reader's language.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use ring::aead;
use sha2::{Digest, Sha256};

use super::{SESSION_COOKIE, Web, html, oauth, status_page};
use crate::core::{Member, Permissions, Request, RequestKind, User};
use crate::i18n::{self, Lang};
use crate::storage::WebSessionRow;

/// A server the logged-in user is in, and their permission bits there.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SessionGuild {
    pub id: i64,
    pub name: String,
    pub permissions: u64,
}

/// The logged-in user of a request, with the reader's language.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub id_hash: String,
    pub user: User,
    pub guilds: Vec<SessionGuild>,
    pub csrf: String,
    pub dev_login: bool,
    pub lang: Lang,
    /// The user's role ids in the server the URL names (`/servers/{id}/…`), read
    /// from Discord only when that server has a Tavern role the user's permissions
    /// do not already outrank.
    pub roles: Option<(i64, Vec<i64>)>,
}

impl Viewer {
    /// The server `guild_id` if the user is in it.
    pub fn guild(&self, guild_id: i64) -> Option<&SessionGuild> {
        self.guilds.iter().find(|guild| guild.id == guild_id)
    }

    /// Whether a form's token is this session's (compared in constant time).
    pub fn csrf_ok(&self, token: &str) -> bool {
        same_secret(&self.csrf, token)
    }

    /// The core request the user would send as a command in `guild`: the member's
    /// permissions are those Discord gave for the session, the roles those read
    /// through the bot's token (so the core decides Manage Server or the Tavern role
    /// as for a command). No server locale is passed,
    /// so the web never overwrites what the server's Discord interactions told the
    /// core.
    pub fn request(&self, guild: &SessionGuild, kind: RequestKind) -> Request {
        Request {
            user: self.user.clone(),
            guild_id: Some(guild.id),
            channel_id: 0,
            member: Some(Member {
                permissions: Permissions(guild.permissions),
                roles: match &self.roles {
                    Some((id, roles)) if *id == guild.id => roles.clone(),
                    _ => Vec::new(),
                },
            }),
            locale: Some(self.lang.discord_locale().to_owned()),
            guild_locale: None,
            kind,
        }
    }

    /// What the page header needs.
    pub fn header(&self) -> html::Header<'_> {
        html::Header {
            user_name: &self.user.name,
            csrf: &self.csrf,
            dev_login: self.dev_login,
        }
    }
}

impl FromRequestParts<Web> for Viewer {
    type Rejection = Response;

    /// The session of the cookie; without one a page goes to the login and a form
    /// is refused with 401.
    async fn from_request_parts(parts: &mut Parts, web: &Web) -> Result<Self, Self::Rejection> {
        let lang = reader_language(&parts.headers);
        let id = session_id(&parts.headers);
        let row = match id {
            Some(id) => web
                .core
                .storage()
                .web_session(&hash_id(id), web.now())
                .await
                .map_err(|error| server_error(lang, &error))?,
            None => None,
        };
        let row = match (row, id) {
            (Some(row), Some(id)) => refresh_guilds(web, row, id)
                .await
                .map_err(|error| server_error(lang, &error))?,
            _ => None,
        };
        let Some(row) = row else {
            if parts.method == Method::GET {
                return Err(Redirect::to("/").into_response());
            }
            return Err(status_page(
                StatusCode::UNAUTHORIZED,
                html::page(lang, &i18n::tr(lang, "web-not-logged-in"), None, ""),
            ));
        };
        // The Discord locale of the login first, else the browser's (above).
        let lang = row
            .locale
            .as_deref()
            .and_then(Lang::from_discord_locale)
            .unwrap_or(lang);
        let guilds: Vec<SessionGuild> = serde_json::from_str(&row.guilds).unwrap_or_default();
        let roles = roles_for_path(web, parts.uri.path(), row.user_id, &guilds).await;
        Ok(Viewer {
            id_hash: row.id_hash,
            user: User {
                id: row.user_id,
                name: row.user_name,
            },
            guilds,
            csrf: row.csrf_token,
            dev_login: row.dev_login != 0,
            lang,
            roles,
        })
    }
}

/// The session's servers, read again from Discord when older than `[web]
/// cache_seconds` (a login with Discord only). `None` when Discord no longer takes
/// the login's token (the user removed the app): the session ends. When Discord
/// cannot be reached the servers already known serve. `id` (the cookie's) unseals
/// the token.
async fn refresh_guilds(
    web: &Web,
    row: WebSessionRow,
    id: &str,
) -> anyhow::Result<Option<WebSessionRow>> {
    let now = web.now();
    let Some(sealed) = &row.sealed_token else {
        return Ok(Some(row));
    };
    if now - row.guilds_at < web.options.cache_ms {
        return Ok(Some(row));
    }
    let storage = web.core.storage();
    let Some(token) = unseal(id, &row.id_hash, sealed) else {
        // Not sealed under this cookie's id: nothing this session can use.
        storage.delete_web_session(&row.id_hash).await?;
        return Ok(None);
    };
    match oauth::fetch_guilds(web, &token).await {
        Ok(guilds) => {
            let guilds = serde_json::to_string(&guilds)?;
            storage
                .update_web_session_guilds(&row.id_hash, &guilds, now)
                .await?;
            Ok(Some(WebSessionRow {
                guilds,
                guilds_at: now,
                ..row
            }))
        }
        Err(oauth::DiscordError::Unauthorized) => {
            storage.delete_web_session(&row.id_hash).await?;
            Ok(None)
        }
        Err(oauth::DiscordError::Other(error)) => {
            tracing::warn!(
                error = format!("{error:#}"),
                "cannot read a user's servers again"
            );
            Ok(Some(row))
        }
    }
}

/// The user's roles in the server of `/servers/{id}/…`, when they can matter: the
/// user is in it, lacks Manage Server there, and the server has a Tavern role.
/// A failure to read them leaves none (Manage Server still counts).
async fn roles_for_path(
    web: &Web,
    path: &str,
    user_id: i64,
    guilds: &[SessionGuild],
) -> Option<(i64, Vec<i64>)> {
    let guild_id: i64 = path
        .strip_prefix("/servers/")?
        .split('/')
        .next()?
        .parse()
        .ok()?;
    let guild = guilds.iter().find(|guild| guild.id == guild_id)?;
    if Permissions(guild.permissions).has(Permissions::MANAGE_GUILD) {
        return None;
    }
    let read = async {
        if web.core.storage().tavern_role(guild_id).await?.is_none() {
            return Ok(Vec::new());
        }
        oauth::member_roles(web, guild_id, user_id).await
    };
    match read.await {
        Ok(roles) => Some((guild_id, roles)),
        Err(error) => {
            tracing::warn!(
                error = format!("{error:#}"),
                guild_id,
                "cannot read a member's roles"
            );
            None
        }
    }
}

/// A new login: a fresh random id (never the one a browser brought, so a planted
/// cookie cannot become a session) and a fresh CSRF token. Returns the cookie to set.
pub async fn start(
    web: &Web,
    user: User,
    guilds: &[SessionGuild],
    dev_login: bool,
) -> anyhow::Result<String> {
    create(web, user, guilds, dev_login, None, None).await
}

/// [`start`], keeping the Discord access token that reads the servers again.
pub(super) async fn create(
    web: &Web,
    user: User,
    guilds: &[SessionGuild],
    dev_login: bool,
    access_token: Option<String>,
    locale: Option<String>,
) -> anyhow::Result<String> {
    let id = random_token();
    let id_hash = hash_id(&id);
    let now = web.now();
    let sealed_token = access_token.map(|token| seal(&id, &id_hash, &token));
    web.core
        .storage()
        .create_web_session(&WebSessionRow {
            id_hash,
            user_id: user.id,
            user_name: user.name,
            guilds: serde_json::to_string(guilds)?,
            csrf_token: random_token(),
            dev_login: i64::from(dev_login),
            created_at: now,
            expires_at: now + web.options.session_ttl_ms,
            sealed_token,
            guilds_at: now,
            locale,
        })
        .await?;
    web.core.storage().purge_web_sessions(now).await?;
    Ok(cookie(web, &id, web.options.session_ttl_ms / 1000))
}

/// The `Set-Cookie` value for `id`; a `max_age` of 0 clears the cookie.
pub fn cookie(web: &Web, id: &str, max_age_seconds: i64) -> String {
    let secure = if web.options.secure_cookie {
        "; Secure"
    } else {
        ""
    };
    format!(
        "{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_seconds}{secure}"
    )
}

/// The session id the browser sent, if any.
pub fn session_id(headers: &HeaderMap) -> Option<&str> {
    cookie_value(headers, SESSION_COOKIE)
}

/// The value of the cookie `name` the browser sent, if any and not empty.
pub fn cookie_value<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(known, _)| *known == name)
        .map(|(_, value)| value)
        .filter(|value| !value.is_empty())
}

/// Before a login: ends the session the browser had, so the login rotates the id.
pub async fn end_old(web: &Web, headers: &HeaderMap) -> anyhow::Result<()> {
    if let Some(old) = session_id(headers) {
        web.core.storage().delete_web_session(&hash_id(old)).await?;
    }
    Ok(())
}

/// The stored form of a session id: its SHA-256 in hex.
pub fn hash_id(id: &str) -> String {
    Sha256::digest(id.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The key that seals a session's Discord token: derived from the cookie's random id
/// (256 bits), which the database never holds (it keeps `hash_id`, the SHA-256 of
/// the id alone; this hash has its own prefix, so neither gives the other). A copy
/// of the table therefore opens no token, and no key needs keeping or rotating.
fn token_key(id: &str) -> aead::LessSafeKey {
    let mut hasher = Sha256::new();
    hasher.update(b"tavern web session token key\0");
    hasher.update(id.as_bytes());
    let digest = hasher.finalize();
    // A 32-byte key is what ChaCha20-Poly1305 takes, so this cannot fail.
    let key = aead::UnboundKey::new(&aead::CHACHA20_POLY1305, &digest)
        .unwrap_or_else(|_| unreachable!("ChaCha20-Poly1305 takes a 32-byte key"));
    aead::LessSafeKey::new(key)
}

/// `token` sealed for the session `id` (ChaCha20-Poly1305, a random nonce, the row's
/// `id_hash` bound as associated data): base64url of nonce and ciphertext.
pub fn seal(id: &str, id_hash: &str, token: &str) -> String {
    let mut nonce = [0u8; aead::NONCE_LEN];
    rand::rng().fill_bytes(&mut nonce);
    let mut sealed = token.as_bytes().to_vec();
    // Sealing only fails for inputs past ChaCha20's 256 GiB.
    let sealing = token_key(id).seal_in_place_append_tag(
        aead::Nonce::assume_unique_for_key(nonce),
        aead::Aad::from(id_hash.as_bytes()),
        &mut sealed,
    );
    if sealing.is_err() {
        return String::new();
    }
    let mut out = nonce.to_vec();
    out.extend_from_slice(&sealed);
    URL_SAFE_NO_PAD.encode(out)
}

/// The token [`seal`] sealed for the session `id`; `None` when it does not open
/// (another id, another row, a changed byte).
pub fn unseal(id: &str, id_hash: &str, sealed: &str) -> Option<String> {
    let bytes = URL_SAFE_NO_PAD.decode(sealed).ok()?;
    if bytes.len() < aead::NONCE_LEN {
        return None;
    }
    let (nonce, ciphertext) = bytes.split_at(aead::NONCE_LEN);
    let nonce = aead::Nonce::try_assume_unique_for_key(nonce).ok()?;
    let mut ciphertext = ciphertext.to_vec();
    let opened = token_key(id)
        .open_in_place(nonce, aead::Aad::from(id_hash.as_bytes()), &mut ciphertext)
        .ok()?;
    String::from_utf8(opened.to_vec()).ok()
}

/// Whether two secrets are equal, compared in constant time.
pub fn same_secret(expected: &str, given: &str) -> bool {
    let (a, b) = (expected.as_bytes(), given.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// 32 random bytes from the OS-seeded thread generator (a CSPRNG), base64url.
pub(super) fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The first of the reader's `Accept-Language` tags that Tavern speaks, else English.
pub fn reader_language(headers: &HeaderMap) -> Lang {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok())
        .into_iter()
        .flat_map(|value| value.split(','))
        .filter_map(|part| part.split(';').next())
        .find_map(|tag| Lang::from_code(tag.trim().split('-').next().unwrap_or("")))
        .unwrap_or(Lang::En)
}

/// A storage failure as a 500 page (the details go to the log only).
pub fn server_error(lang: Lang, error: &anyhow::Error) -> Response {
    tracing::error!(error = format!("{error:#}"), "web request failed");
    status_page(
        StatusCode::INTERNAL_SERVER_ERROR,
        html::page(lang, &i18n::tr(lang, "web-error"), None, ""),
    )
}
