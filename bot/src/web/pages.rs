//! The pages and forms. Every handler takes the [`Viewer`] first (no session: a
//! redirect to the login, or 401 for a form), then checks the CSRF token (403), then
//! that the user is in the server of the URL and owns what it names (404 otherwise:
//! another user's character and another server look alike, as if they did not exist).

// A refusal is the response itself (`Result<_, Response>`), answered at once; its size
// costs one move per request.
#![allow(clippy::result_large_err)]

use axum::Form;
use axum::extract::{FromRequestParts, Path, Request as HttpRequest, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::html::{csrf_field, escape, notice, page};
use super::session::{self, SessionGuild, Viewer, reader_language, server_error};
use super::{DEV_GUILD_ID, Web, status_page};
use crate::console::ConsoleIdentity;
use crate::core::character::decode_delete_id;
use crate::core::{
    Command, CommandOption, Component, OptionValue, Permissions, Reply, RequestKind,
};
use crate::i18n::{self, Lang};
use crate::storage::CharacterRow;

/// A form that only carries the session's token.
#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// `/macro set` as a form.
#[derive(Debug, Deserialize)]
pub struct MacroForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    expr: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    scope: String,
}

/// `/macro delete` as a form.
#[derive(Debug, Deserialize)]
pub struct MacroDeleteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    scope: String,
}

/// A button of the core's answer, pressed.
#[derive(Debug, Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    custom_id: String,
}

type PageResult = Result<Response, Response>;

fn html_response(html: String) -> Response {
    status_page(StatusCode::OK, html)
}

/// 403: a form without this session's token, or from another origin.
pub fn forbidden(headers: &HeaderMap) -> Response {
    let lang = reader_language(headers);
    status_page(
        StatusCode::FORBIDDEN,
        page(lang, &i18n::tr(lang, "web-forbidden"), None, ""),
    )
}

pub(super) fn missing(lang: Lang) -> Response {
    status_page(
        StatusCode::NOT_FOUND,
        page(lang, &i18n::tr(lang, "web-not-found"), None, ""),
    )
}

pub async fn not_found(headers: HeaderMap) -> Response {
    missing(reader_language(&headers))
}

pub async fn style() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("style.css"),
    )
        .into_response()
}

fn check_csrf(viewer: &Viewer, token: &str) -> Result<(), Response> {
    if viewer.csrf_ok(token) {
        return Ok(());
    }
    Err(status_page(
        StatusCode::FORBIDDEN,
        page(
            viewer.lang,
            &i18n::tr(viewer.lang, "web-forbidden"),
            None,
            "",
        ),
    ))
}

pub(super) fn guild_of(viewer: &Viewer, guild_id: i64) -> Result<SessionGuild, Response> {
    viewer
        .guild(guild_id)
        .cloned()
        .ok_or_else(|| missing(viewer.lang))
}

/// The viewer's own character `id` in `guild`.
async fn own_character(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    id: i64,
) -> Result<CharacterRow, Response> {
    let rows = web
        .core
        .storage()
        .characters_of(viewer.user.id, guild.id)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?;
    rows.into_iter()
        .find(|row| row.id == id)
        .ok_or_else(|| missing(viewer.lang))
}

/// A slash command as the viewer would type it in `guild` (`subcommand`: the group,
/// if any, then the subcommand), answered by the core. The web's one way to change
/// anything: pages reach the operations the commands own.
pub(super) async fn command(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    name: &str,
    subcommand: &[&str],
    options: Vec<(&str, String)>,
) -> Vec<Reply> {
    let command = Command {
        name: name.to_owned(),
        subcommand: subcommand.iter().map(|part| (*part).to_owned()).collect(),
        options: options
            .into_iter()
            .map(|(name, value)| CommandOption {
                name: name.to_owned(),
                value: OptionValue::String(value),
            })
            .collect(),
    };
    web.core
        .handle(&viewer.request(guild, RequestKind::Command(command)))
        .await
}

/// The texts of the core's answer, as notices.
pub(super) fn notices(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) | Reply::Update(message) => Some(notice(&message.content)),
            _ => None,
        })
        .collect()
}

fn back_link(href: &str, lang: Lang) -> String {
    format!(
        "<p><a href=\"{}\">{}</a></p>",
        escape(href),
        escape(&i18n::tr(lang, "web-back"))
    )
}

/// `/`: the login page, or the servers for a logged-in reader.
pub async fn home(State(web): State<Web>, request: HttpRequest) -> Response {
    let (mut parts, _) = request.into_parts();
    if Viewer::from_request_parts(&mut parts, &web).await.is_ok() {
        return Redirect::to("/servers").into_response();
    }
    let lang = reader_language(&parts.headers);
    let mut body = String::new();
    if web.options.discord.is_some() {
        body.push_str(&format!(
            "<p><a class=\"login\" href=\"/login\">{}</a></p>",
            escape(&i18n::tr(lang, "web-login-discord")),
        ));
    }
    if web.options.dev_login {
        body.push_str(&format!(
            "<p class=\"dev\">{}</p><form method=\"post\" action=\"/login/dev\"><button>{}</button></form>",
            escape(&i18n::tr(lang, "web-dev-login-banner")),
            escape(&i18n::tr(lang, "web-dev-login-button")),
        ));
    }
    if body.is_empty() {
        body = format!("<p>{}</p>", escape(&i18n::tr(lang, "web-login-none")));
    }
    html_response(page(
        lang,
        &i18n::tr(lang, "web-login-heading"),
        None,
        &body,
    ))
}

/// The development login: the console's player in the console's server, with every
/// permission, as `tavern console` plays. Any session the browser had ends first.
pub async fn dev_login(State(web): State<Web>, headers: HeaderMap) -> Response {
    let lang = reader_language(&headers);
    if !web.options.dev_login {
        return missing(lang);
    }
    if let Err(error) = session::end_old(&web, &headers).await {
        return server_error(lang, &error);
    }
    let identity = ConsoleIdentity::default();
    let guilds = [SessionGuild {
        id: DEV_GUILD_ID,
        name: i18n::tr(lang, "web-dev-guild-name"),
        permissions: Permissions::ALL.0,
    }];
    match session::start(&web, identity.user, &guilds, true).await {
        Ok(cookie) => ([(header::SET_COOKIE, cookie)], Redirect::to("/servers")).into_response(),
        Err(error) => server_error(lang, &error),
    }
}

pub async fn logout(
    State(web): State<Web>,
    viewer: Viewer,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    web.core
        .storage()
        .delete_web_session(&viewer.id_hash)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?;
    Ok(logged_out(&web))
}

/// Ends every session of the user, on every device.
pub async fn logout_everywhere(
    State(web): State<Web>,
    viewer: Viewer,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    web.core
        .storage()
        .delete_web_sessions_of(viewer.user.id)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?;
    Ok(logged_out(&web))
}

fn logged_out(web: &Web) -> Response {
    (
        [(header::SET_COOKIE, session::cookie(web, "", 0))],
        Redirect::to("/"),
    )
        .into_response()
}

pub async fn servers(viewer: Viewer) -> Response {
    let lang = viewer.lang;
    let mut body = String::new();
    if viewer.guilds.is_empty() {
        body.push_str(&format!(
            "<p>{}</p>",
            escape(&i18n::tr(lang, "web-servers-none"))
        ));
    }
    body.push_str("<ul>");
    for guild in &viewer.guilds {
        body.push_str(&format!(
            "<li>{name} · <a href=\"/servers/{id}/characters\">{characters}</a> · \
             <a href=\"/servers/{id}/macros\">{macros}</a> · \
             <a href=\"/servers/{id}/encounters\">{encounters}</a> · \
             <a href=\"/servers/{id}/settings\">{settings}</a> · \
             <a href=\"/servers/{id}/programs\">{programs}</a> · \
             <a href=\"/servers/{id}/npcs\">{npcs}</a> · \
             <a href=\"/servers/{id}/effects\">{effects}</a></li>",
            name = escape(&guild.name),
            id = guild.id,
            characters = escape(&i18n::tr(lang, "web-characters")),
            macros = escape(&i18n::tr(lang, "web-macros")),
            encounters = escape(&i18n::tr(lang, "web-live-encounters")),
            settings = escape(&i18n::tr(lang, "web-live-settings")),
            programs = escape(&i18n::tr(lang, "web-generators")),
            npcs = escape(&i18n::tr(lang, "web-npcs")),
            effects = escape(&i18n::tr(lang, "web-effects")),
        ));
    }
    body.push_str("</ul>");
    html_response(page(
        lang,
        &i18n::tr(lang, "web-servers"),
        Some(&viewer.header()),
        &body,
    ))
}

pub async fn characters(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
) -> PageResult {
    let guild = guild_of(&viewer, guild_id)?;
    let lang = viewer.lang;
    let storage = web.core.storage();
    let failed = |error: anyhow::Error| server_error(lang, &error);
    let rows = storage
        .characters_of(viewer.user.id, guild.id)
        .await
        .map_err(failed)?;
    let active = storage
        .active_character(guild.id, viewer.user.id)
        .await
        .map_err(failed)?
        .map(|row| row.id);
    let mut body = String::new();
    if rows.is_empty() {
        body.push_str(&format!(
            "<p>{}</p>",
            escape(&i18n::tr(lang, "web-characters-none"))
        ));
    }
    body.push_str("<ul>");
    for row in &rows {
        let marker = if active == Some(row.id) {
            format!(" {}", escape(&i18n::tr(lang, "web-character-active")))
        } else {
            String::new()
        };
        body.push_str(&format!(
            "<li><a href=\"/servers/{}/characters/{}\">{}</a> ({}){marker}</li>",
            guild.id,
            row.id,
            escape(&row.name),
            escape(&row.program),
        ));
    }
    body.push_str("</ul>");
    let title = i18n::tr_args(
        lang,
        "web-characters-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(html_response(page(
        lang,
        &title,
        Some(&viewer.header()),
        &body,
    )))
}

/// The record sheet as `/character show` gives it, the generator's transcript, and
/// the forms to play or delete the character.
pub async fn character(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, id)): Path<(i64, i64)>,
) -> PageResult {
    let guild = guild_of(&viewer, guild_id)?;
    let row = own_character(&web, &viewer, &guild, id).await?;
    let lang = viewer.lang;
    let replies = command(
        &web,
        &viewer,
        &guild,
        "character",
        &["show"],
        vec![("name", row.name.clone())],
    )
    .await;
    let mut body = String::new();
    for reply in &replies {
        let Reply::Interaction(message) = reply else {
            continue;
        };
        body.push_str(&format!(
            "<pre class=\"sheet\">{}</pre>",
            escape(&message.content)
        ));
        for attachment in &message.attachments {
            body.push_str(&format!(
                "<h2>{}</h2><pre class=\"transcript\">{}</pre>",
                escape(&i18n::tr(lang, "web-character-transcript")),
                escape(&String::from_utf8_lossy(&attachment.bytes)),
            ));
        }
    }
    let base = format!("/servers/{}/characters/{}", guild.id, row.id);
    body.push_str(&format!(
        "<form method=\"post\" action=\"{base}/use\">{csrf}<button>{play}</button></form>\
         <form method=\"post\" action=\"{base}/delete\">{csrf}<button>{delete}</button></form>",
        csrf = csrf_field(&viewer.csrf),
        play = escape(&i18n::tr(lang, "web-character-use")),
        delete = escape(&i18n::tr(lang, "web-character-delete")),
    ));
    body.push_str(&back_link(
        &format!("/servers/{}/characters", guild.id),
        lang,
    ));
    Ok(html_response(page(
        lang,
        &row.name,
        Some(&viewer.header()),
        &body,
    )))
}

/// `/character SUB` on the viewer's own character `id`, for a form that carried
/// `token`: the server, the character and the core's answer.
async fn character_form(
    web: &Web,
    viewer: &Viewer,
    (guild_id, id): (i64, i64),
    token: &str,
    sub: &str,
) -> Result<(SessionGuild, CharacterRow, Vec<Reply>), Response> {
    check_csrf(viewer, token)?;
    let guild = guild_of(viewer, guild_id)?;
    let row = own_character(web, viewer, &guild, id).await?;
    let name = vec![("name", row.name.clone())];
    let replies = command(web, viewer, &guild, "character", &[sub], name).await;
    Ok((guild, row, replies))
}

/// `/character use`.
pub async fn character_use(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, id)): Path<(i64, i64)>,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    let (guild, row, replies) =
        character_form(&web, &viewer, (guild_id, id), &form.csrf, "use").await?;
    let mut body = notices(&replies);
    body.push_str(&back_link(
        &format!("/servers/{}/characters/{}", guild.id, row.id),
        viewer.lang,
    ));
    Ok(html_response(page(
        viewer.lang,
        &row.name,
        Some(&viewer.header()),
        &body,
    )))
}

/// `/character delete`: the core's question, its buttons as forms.
pub async fn character_delete(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, id)): Path<(i64, i64)>,
    Form(form): Form<CsrfForm>,
) -> PageResult {
    let (guild, row, replies) =
        character_form(&web, &viewer, (guild_id, id), &form.csrf, "delete").await?;
    let mut body = notices(&replies);
    let buttons = replies.iter().flat_map(|reply| match reply {
        Reply::Interaction(message) => message
            .components
            .iter()
            .flat_map(|row| row.0.iter())
            .collect(),
        _ => Vec::new(),
    });
    for component in buttons {
        let Component::Button(button) = component else {
            continue;
        };
        body.push_str(&format!(
            "<form class=\"inline\" method=\"post\" action=\"/servers/{}/characters/answer\">{}\
             <input type=\"hidden\" name=\"custom_id\" value=\"{}\"><button>{}</button></form>",
            guild.id,
            csrf_field(&viewer.csrf),
            escape(&button.custom_id),
            escape(&button.label),
        ));
    }
    Ok(html_response(page(
        viewer.lang,
        &row.name,
        Some(&viewer.header()),
        &body,
    )))
}

/// "Delete" or "Cancel" under the question: the core's button press, which checks
/// that the question was this user's and is still open.
pub async fn character_answer(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<AnswerForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    let guild = guild_of(&viewer, guild_id)?;
    if decode_delete_id(&form.custom_id).is_none() {
        return Err(missing(viewer.lang));
    }
    let kind = RequestKind::Button {
        custom_id: form.custom_id,
        message_id: 0,
    };
    let replies = web.core.handle(&viewer.request(&guild, kind)).await;
    let mut body = notices(&replies);
    body.push_str(&back_link(
        &format!("/servers/{}/characters", guild.id),
        viewer.lang,
    ));
    let title = i18n::tr(viewer.lang, "web-characters");
    Ok(html_response(page(
        viewer.lang,
        &title,
        Some(&viewer.header()),
        &body,
    )))
}

pub async fn macros(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
) -> PageResult {
    let guild = guild_of(&viewer, guild_id)?;
    macros_page(&web, &viewer, &guild, String::new()).await
}

/// `/macro set`, checked and saved by the core as the command is.
pub async fn macro_set(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<MacroForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    let guild = guild_of(&viewer, guild_id)?;
    let mut options = vec![
        ("name", form.name),
        ("expr", form.expr),
        ("scope", form.scope),
    ];
    if !form.description.trim().is_empty() {
        options.push(("description", form.description));
    }
    let replies = command(&web, &viewer, &guild, "macro", &["set"], options).await;
    macros_page(&web, &viewer, &guild, notices(&replies)).await
}

/// `/macro delete`.
pub async fn macro_delete(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<MacroDeleteForm>,
) -> PageResult {
    check_csrf(&viewer, &form.csrf)?;
    let guild = guild_of(&viewer, guild_id)?;
    let options = vec![("name", form.name), ("scope", form.scope)];
    let replies = command(&web, &viewer, &guild, "macro", &["delete"], options).await;
    macros_page(&web, &viewer, &guild, notices(&replies)).await
}

/// The macros the user can use in `guild` (theirs and the server's), each with a
/// delete form, and the form to set one; `outcome` is what the last form did.
async fn macros_page(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    outcome: String,
) -> PageResult {
    let lang = viewer.lang;
    let rows = web
        .core
        .storage()
        .macros_visible(guild.id, viewer.user.id)
        .await
        .map_err(|error| server_error(lang, &error))?;
    let csrf = csrf_field(&viewer.csrf);
    let delete_action = format!("/servers/{}/macros/delete", guild.id);
    let mut body = outcome;
    if rows.is_empty() {
        body.push_str(&format!(
            "<p>{}</p>",
            escape(&i18n::tr(lang, "web-macros-none"))
        ));
    } else {
        body.push_str(&format!(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th></th></tr>",
            escape(&i18n::tr(lang, "web-macro-name")),
            escape(&i18n::tr(lang, "web-macro-expr")),
            escape(&i18n::tr(lang, "web-macro-description")),
            escape(&i18n::tr(lang, "web-macro-scope")),
        ));
        for row in &rows {
            let (scope, whose) = if row.is_server() {
                ("server", i18n::tr(lang, "web-macro-scope-server"))
            } else {
                ("me", i18n::tr(lang, "web-macro-scope-me"))
            };
            body.push_str(&format!(
                "<tr><td>{name}</td><td><code>{expr}</code></td><td>{description}</td><td>{whose}</td>\
                 <td><form method=\"post\" action=\"{delete_action}\">{csrf}\
                 <input type=\"hidden\" name=\"name\" value=\"{name}\">\
                 <input type=\"hidden\" name=\"scope\" value=\"{scope}\">\
                 <button>{delete}</button></form></td></tr>",
                name = escape(&row.name),
                expr = escape(&row.expr),
                description = escape(row.description.as_deref().unwrap_or("")),
                whose = escape(&whose),
                delete = escape(&i18n::tr(lang, "web-macro-delete")),
            ));
        }
        body.push_str("</table>");
    }
    body.push_str(&format!(
        "<h2>{save}</h2><form method=\"post\" action=\"/servers/{id}/macros\">{csrf}\
         <label>{name} <input name=\"name\" required maxlength=\"32\"></label>\
         <label>{expr} <input name=\"expr\" required maxlength=\"500\"></label>\
         <label>{description} <input name=\"description\" maxlength=\"100\"></label>\
         <label>{scope} <select name=\"scope\"><option value=\"me\">{me}</option>\
         <option value=\"server\">{server}</option></select></label>\
         <button>{save}</button></form>",
        id = guild.id,
        save = escape(&i18n::tr(lang, "web-macro-save")),
        name = escape(&i18n::tr(lang, "web-macro-name")),
        expr = escape(&i18n::tr(lang, "web-macro-expr")),
        description = escape(&i18n::tr(lang, "web-macro-description")),
        scope = escape(&i18n::tr(lang, "web-macro-scope")),
        me = escape(&i18n::tr(lang, "web-macro-scope-me")),
        server = escape(&i18n::tr(lang, "web-macro-scope-server")),
    ));
    let title = i18n::tr_args(
        lang,
        "web-macros-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(html_response(page(
        lang,
        &title,
        Some(&viewer.header()),
        &body,
    )))
}
