//! The settings page (issue 25): a server's language of public messages and its macro
//! role, shown with `/config show` and changed with `/config language` and
//! `/config macro-role` through the core, so the web decides who may and words the
//! answer exactly as the command does.

// A refusal is the response itself (`Result<_, Response>`), as in pages.rs.
#![allow(clippy::result_large_err)]

use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::html::{csrf_field, escape, notice, page};
use super::pages::guild_of;
use super::session::{SessionGuild, Viewer, server_error};
use super::{Web, status_page};
use crate::core::{Command, CommandOption, OptionValue, Permissions, RequestKind};
use crate::i18n::{self, LanguageSetting};

#[derive(Debug, Deserialize)]
pub struct LanguageForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    language: String,
}

#[derive(Debug, Deserialize)]
pub struct RoleForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    role: String,
}

fn forbidden(viewer: &Viewer) -> Response {
    status_page(
        StatusCode::FORBIDDEN,
        page(
            viewer.lang,
            &i18n::tr(viewer.lang, "web-forbidden"),
            None,
            "",
        ),
    )
}

/// `/config SUB` with `options` as the viewer would send it in `guild`: the texts of
/// the core's answer.
async fn config(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    sub: &str,
    options: Vec<CommandOption>,
) -> String {
    let command = Command {
        name: "config".to_owned(),
        subcommand: vec![sub.to_owned()],
        options,
    };
    let replies = web
        .core
        .handle(&viewer.request(guild, RequestKind::Command(command)))
        .await;
    super::pages::notices(&replies)
}

/// `GET /servers/{guild}/settings`.
pub async fn page_get(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
) -> Result<Response, Response> {
    let guild = guild_of(&viewer, guild_id)?;
    settings_page(&web, &viewer, &guild, String::new()).await
}

/// `POST /servers/{guild}/settings/language`: `/config language`.
pub async fn language(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<LanguageForm>,
) -> Result<Response, Response> {
    if !viewer.csrf_ok(&form.csrf) {
        return Err(forbidden(&viewer));
    }
    let guild = guild_of(&viewer, guild_id)?;
    let option = CommandOption {
        name: "language".to_owned(),
        value: OptionValue::String(form.language),
    };
    let outcome = config(&web, &viewer, &guild, "language", vec![option]).await;
    settings_page(&web, &viewer, &guild, outcome).await
}

/// `POST /servers/{guild}/settings/macro-role`: `/config macro-role` (empty: clear).
pub async fn macro_role(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<RoleForm>,
) -> Result<Response, Response> {
    if !viewer.csrf_ok(&form.csrf) {
        return Err(forbidden(&viewer));
    }
    let guild = guild_of(&viewer, guild_id)?;
    let typed = form.role.trim();
    let mut options = Vec::new();
    if !typed.is_empty() {
        let Some(role) = typed.parse::<i64>().ok().filter(|role| *role > 0) else {
            let outcome = notice(&i18n::tr(viewer.lang, "web-live-settings-role-invalid"));
            return settings_page(&web, &viewer, &guild, outcome).await;
        };
        options.push(CommandOption {
            name: "role".to_owned(),
            value: OptionValue::Role(role),
        });
    }
    let outcome = config(&web, &viewer, &guild, "macro-role", options).await;
    settings_page(&web, &viewer, &guild, outcome).await
}

/// The settings as `/config show` gives them and, for those who may change them,
/// the forms; `outcome` is what the last form did.
async fn settings_page(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    outcome: String,
) -> Result<Response, Response> {
    let lang = viewer.lang;
    let storage = web.core.storage();
    let failed = |error: anyhow::Error| server_error(lang, &error);
    let role = storage.tavern_role(guild.id).await.map_err(failed)?;
    let stored = storage.guild_language(guild.id).await.map_err(failed)?;
    let setting = LanguageSetting::from_stored(stored.as_deref());
    let roles = match &viewer.roles {
        Some((id, roles)) if *id == guild.id => roles.as_slice(),
        _ => &[],
    };
    let may_change = Permissions(guild.permissions).has(Permissions::MANAGE_GUILD)
        || role.is_some_and(|role| roles.contains(&role));
    let mut body = outcome;
    body.push_str(&config(web, viewer, guild, "show", Vec::new()).await);
    if !may_change {
        body.push_str(&format!(
            "<p>{}</p>",
            escape(&i18n::tr(lang, "web-live-settings-admins-only"))
        ));
    } else {
        let csrf = csrf_field(&viewer.csrf);
        let option = |value: &str, label: String| {
            let selected = if setting.code() == value {
                " selected"
            } else {
                ""
            };
            format!(
                "<option value=\"{value}\"{selected}>{}</option>",
                escape(&label)
            )
        };
        body.push_str(&format!(
            "<form method=\"post\" action=\"/servers/{id}/settings/language\">{csrf}\
             <label for=\"language\">{label}</label> <select id=\"language\" name=\"language\">\
             {auto}{en}{de}</select> <button>{save}</button></form>",
            id = guild.id,
            label = escape(&i18n::tr(lang, "web-live-settings-language")),
            auto = option("auto", i18n::tr(lang, "web-live-settings-language-auto")),
            en = option("en", "English".to_owned()),
            de = option("de", "Deutsch".to_owned()),
            save = escape(&i18n::tr(lang, "web-live-settings-language-save")),
        ));
        body.push_str(&format!(
            "<form method=\"post\" action=\"/servers/{id}/settings/macro-role\">{csrf}\
             <label for=\"role\">{label}</label> <input id=\"role\" name=\"role\" \
             inputmode=\"numeric\" maxlength=\"20\" value=\"{value}\"> <button>{save}</button></form>",
            id = guild.id,
            label = escape(&i18n::tr(lang, "web-live-settings-role")),
            value = role.map(|role| role.to_string()).unwrap_or_default(),
            save = escape(&i18n::tr(lang, "web-live-settings-role-save")),
        ));
    }
    let title = i18n::tr_args(
        lang,
        "web-live-settings-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(status_page(
        StatusCode::OK,
        page(lang, &title, Some(&viewer.header()), &body),
    ))
}
