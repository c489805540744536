//! The editors of a server's admins (issue 25): generator listings with their record
//! maps and the default program, NPC scripts and the effect file. Every check and
//! every save is the core's own operation ([`crate::core::authoring`]) or the command
//! itself (`/npc install`, `/effect install`, `/chargen program default`), so a page
//! checks and words exactly as the command does. "Try it" and "play" run in the
//! sandbox on the engine workers and store nothing.
//!
//! Every route: no session → the login (GET) or 401; another server's id → 404; a
//! member who may not administer the server → 403; a POST without the session's
//! CSRF token → 403. No GET changes anything or runs an engine.

// A refusal is the response itself (`Result<_, Response>`), as in pages.rs.
#![allow(clippy::result_large_err)]

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::Deserialize;

use super::html::{csrf_field, escape, notice, page};
use super::pages::{command, notices};
use super::session::{SessionGuild, Viewer, server_error};
use super::{Web, status_page};
use crate::core::RequestKind;
use crate::core::authoring::{Install, ListingReport, MapVerdict, Marked, TryEnd};
use crate::engine::ProgramText;
use crate::engine::worker::WorkError;
use crate::i18n::{self, Lang};

type PageResult = Result<Response, Response>;

/// The editors' routes, with a body limit of their own: a form carrying a listing
/// (or script) at the configured limit, percent-encoded (up to three bytes each).
pub fn routes(web: &Web) -> Router<Web> {
    let settings = web.core.settings();
    let largest = settings
        .max_program_bytes
        .max(settings.npc_max_script_bytes);
    let body_limit = largest.saturating_mul(3).saturating_add(16 * 1024);
    Router::new()
        .route("/editors.css", get(style))
        .route("/servers/{guild}/programs", get(programs))
        .route("/servers/{guild}/programs/new", get(program_new))
        .route("/servers/{guild}/programs/edit", post(program_edit))
        .route("/servers/{guild}/programs/default", post(program_default))
        .route("/servers/{guild}/programs/{name}", get(program))
        .route("/servers/{guild}/programs/{name}/try", post(program_try))
        .route("/servers/{guild}/npcs", get(npcs))
        .route("/servers/{guild}/npcs/new", get(npc_new))
        .route("/servers/{guild}/npcs/edit", post(npc_edit))
        .route("/servers/{guild}/npcs/{name}", get(npc))
        .route("/servers/{guild}/effects", get(effects).post(effects_edit))
        .layer(DefaultBodyLimit::max(body_limit))
}

async fn style() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("editors.css"),
    )
        .into_response()
}

/// The listing editor's form.
#[derive(Debug, Deserialize)]
pub struct ProgramForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    source: String,
    #[serde(default)]
    map: String,
    /// `check`, `save` or `try` (the text area's listing, unsaved).
    #[serde(default)]
    action: String,
    /// "Install even with syntax errors" ticked.
    #[serde(default)]
    confirmed: Option<String>,
    /// A step of trying the draft.
    #[serde(flatten)]
    step: TryFields,
}

/// A step of "try it": the token and the step's fields.
#[derive(Debug, Deserialize)]
pub struct TryForm {
    #[serde(default)]
    csrf: String,
    #[serde(flatten)]
    step: TryFields,
}

/// A step of "try it", a saved program's or a draft's: the seed (text, since a
/// flattened form field reaches serde as text), the answers so far (JSON), the new
/// one.
#[derive(Debug, Deserialize)]
pub struct TryFields {
    #[serde(default)]
    seed: Option<String>,
    #[serde(default)]
    answers: String,
    #[serde(default)]
    answer: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct DefaultForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
}

/// The NPC editor's form (also the effect file's, without name and display).
#[derive(Debug, Deserialize)]
pub struct ScriptForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    display: String,
    #[serde(default)]
    source: String,
    /// `check`, `save` or `play`.
    #[serde(default)]
    action: String,
    /// The play panel's input: directives and player lines.
    #[serde(default)]
    play: String,
}

fn tr(lang: Lang, key: &str) -> String {
    escape(&i18n::tr(lang, key))
}

fn refused(lang: Lang, status: StatusCode, key: &str) -> Response {
    status_page(status, page(lang, &i18n::tr(lang, key), None, ""))
}

fn missing(lang: Lang) -> Response {
    refused(lang, StatusCode::NOT_FOUND, "web-not-found")
}

/// The server of the URL, if the viewer is in it and may administer it (Manage
/// Server or the Tavern role, decided by the core as for a command).
async fn admin_guild(web: &Web, viewer: &Viewer, guild_id: i64) -> Result<SessionGuild, Response> {
    let Some(guild) = viewer.guild(guild_id).cloned() else {
        return Err(missing(viewer.lang));
    };
    let request = viewer.request(
        &guild,
        RequestKind::Button {
            custom_id: String::new(),
            message_id: 0,
        },
    );
    match web.core.may_administer(&request).await {
        Ok(true) => Ok(guild),
        Ok(false) => Err(refused(
            viewer.lang,
            StatusCode::FORBIDDEN,
            "editor-not-admin",
        )),
        Err(error) => Err(server_error(viewer.lang, &error)),
    }
}

/// A POST: the session's token, then the administered server.
async fn admin_form(
    web: &Web,
    viewer: &Viewer,
    guild_id: i64,
    token: &str,
) -> Result<SessionGuild, Response> {
    if !viewer.csrf_ok(token) {
        return Err(refused(viewer.lang, StatusCode::FORBIDDEN, "web-forbidden"));
    }
    admin_guild(web, viewer, guild_id).await
}

fn html(viewer: &Viewer, title: &str, body: &str) -> Response {
    let body = format!("<link rel=\"stylesheet\" href=\"/editors.css\">{body}");
    status_page(
        StatusCode::OK,
        page(viewer.lang, title, Some(&viewer.header()), &body),
    )
}

/// An engine that gave no answer in time, as a notice.
fn overrun(lang: Lang, error: &WorkError) -> String {
    let key = match error {
        WorkError::Busy => "editor-busy",
        WorkError::TimedOut { .. } | WorkError::Crashed => "editor-timed-out",
    };
    notice(&i18n::tr(lang, key))
}

/// The editor: a line-number gutter beside the text, both as tall as the text so
/// that they scroll together without script.
fn editor(label: &str, name: &str, text: &str) -> String {
    let rows = text.lines().count().max(1) + 2;
    let gutter: String = (1..=rows).map(|row| format!("{row}\n")).collect();
    // A textarea drops one newline right after its tag: the one written here, so
    // that a listing's own first blank line survives.
    format!(
        "<label for=\"{name}\">{label}</label><div class=\"editor\">\
         <pre class=\"gutter\" aria-hidden=\"true\">{gutter}</pre>\
         <textarea id=\"{name}\" name=\"{name}\" rows=\"{rows}\" wrap=\"off\" spellcheck=\"false\">\n{text}</textarea></div>",
        text = escape(text),
    )
}

/// The row (1-based) of the source where BASIC line `number` starts.
fn row_of_basic_line(source: &str, number: u32) -> Option<usize> {
    source.lines().position(|row| {
        let digits: String = row
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<u32>().ok() == Some(number)
    })
}

/// Every mark at its row of `source`, the row shown with a caret under the column.
/// `basic`: the marks name BASIC line numbers (a listing), else rows (a script).
fn marked_rows(lang: Lang, source: &str, marks: &[Marked], basic: bool) -> String {
    if marks.is_empty() {
        return String::new();
    }
    let mut out = String::from("<ol class=\"marks\">");
    for mark in marks {
        let row = match mark.line {
            Some(line) if basic => row_of_basic_line(source, line),
            Some(line) => usize::try_from(line)
                .ok()
                .and_then(|line| line.checked_sub(1)),
            None => None,
        };
        let place = match (mark.line, row) {
            (Some(line), Some(row)) if basic => i18n::tr_args(
                lang,
                "editor-at-basic-line",
                &[("row", (row + 1).into()), ("line", line.to_string().into())],
            ),
            (_, Some(row)) => i18n::tr_args(lang, "editor-at-row", &[("row", (row + 1).into())]),
            _ => String::new(),
        };
        let column = mark
            .column
            .map(|column| i18n::tr_args(lang, "editor-column", &[("column", column.into())]))
            .unwrap_or_default();
        out.push_str(&format!(
            "<li class=\"mark\"><span class=\"place\">{} {}</span> {}",
            escape(&place),
            escape(&column),
            escape(&mark.text)
        ));
        if let Some(text) = row.and_then(|row| source.lines().nth(row)) {
            let caret = mark
                .column
                .map(|column| format!("\n{}^", " ".repeat(column.saturating_sub(1).min(400))))
                .unwrap_or_default();
            out.push_str(&format!(
                "<pre class=\"row\">{}{}</pre>",
                escape(&crate::core::text::truncate(text, 400)),
                caret
            ));
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out
}

/// What a listing's check found, marked in the listing.
fn listing_marks(lang: Lang, source: &str, report: &ListingReport) -> String {
    let mut out = String::new();
    if report.is_clean() {
        out.push_str(&format!(
            "<p class=\"ok\">{}</p>",
            escape(&i18n::tr_args(
                lang,
                "editor-listing-clean",
                &[("lines", report.lines.into())]
            ))
        ));
    }
    if !report.refusals.is_empty() {
        out.push_str(&format!("<h2>{}</h2>", tr(lang, "editor-refusals")));
        out.push_str(&marked_rows(lang, source, &report.refusals, true));
    }
    if !report.syntax_errors.is_empty() {
        out.push_str(&format!(
            "<h2>{}</h2>",
            escape(&i18n::tr_args(
                lang,
                "editor-syntax-errors",
                &[("count", report.syntax_errors.len().into())]
            ))
        ));
        out.push_str(&marked_rows(lang, source, &report.syntax_errors, true));
    }
    match &report.map {
        MapVerdict::DoesNotFit(problem) => out.push_str(&format!(
            "<p class=\"bad\">{}</p>",
            escape(&i18n::tr_args(
                lang,
                "editor-map-does-not-fit",
                &[("problem", problem.as_str().into())]
            ))
        )),
        MapVerdict::Fits(map) => out.push_str(&format!(
            "<p class=\"ok\">{}</p>",
            escape(&i18n::tr_args(
                lang,
                "editor-map-fits",
                &[("map", map.as_str().into())]
            ))
        )),
        MapVerdict::None => {}
    }
    out
}

// ---------------------------------------------------------------- generators

async fn programs(State(web): State<Web>, viewer: Viewer, Path(guild_id): Path<i64>) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    programs_page(&web, &viewer, &guild, String::new()).await
}

async fn programs_page(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    outcome: String,
) -> PageResult {
    let lang = viewer.lang;
    let storage = web.core.storage();
    let failed = |error: anyhow::Error| server_error(lang, &error);
    let installed = storage.installed_programs(guild.id).await.map_err(failed)?;
    let default = storage.default_program(guild.id).await.map_err(failed)?;
    let shipped = web.core.shipped_programs();
    let default_name = default
        .or_else(|| shipped.first().map(|program| program.name.clone()))
        .unwrap_or_default();
    let base = format!("/servers/{}/programs", guild.id);
    let mut body = outcome;
    body.push_str(&format!(
        "<table><tr><th>{}</th><th>{}</th><th>{}</th><th></th></tr>",
        tr(lang, "editor-program"),
        tr(lang, "editor-lines"),
        tr(lang, "editor-record-map"),
    ));
    let mut names: Vec<(String, String, String, bool)> = shipped
        .iter()
        .map(|program| {
            let lines = program.source.lines().count().to_string();
            (program.name.clone(), lines, String::new(), false)
        })
        .collect();
    names.extend(installed.iter().map(|program| {
        (
            program.name.clone(),
            program.line_count.to_string(),
            program.record_map.clone(),
            true,
        )
    }));
    for (name, lines, map, editable) in &names {
        let shown = if *editable {
            format!("<a href=\"{base}/{}\">{}</a>", escape(name), escape(name))
        } else {
            format!("{} {}", escape(name), tr(lang, "editor-shipped"))
        };
        let marker = if name.eq_ignore_ascii_case(&default_name) {
            format!(" <strong>{}</strong>", tr(lang, "editor-default"))
        } else {
            String::new()
        };
        body.push_str(&format!(
            "<tr><td>{shown}{marker}</td><td>{lines}</td><td><code>{map}</code></td><td>\
             <form method=\"post\" action=\"{base}/default\">{csrf}\
             <input type=\"hidden\" name=\"name\" value=\"{name}\"><button>{make}</button></form></td></tr>",
            lines = escape(lines),
            map = escape(map),
            csrf = csrf_field(&viewer.csrf),
            name = escape(name),
            make = tr(lang, "editor-make-default"),
        ));
    }
    body.push_str("</table>");
    body.push_str(&format!(
        "<p><a href=\"{base}/new\">{}</a></p>",
        tr(lang, "editor-new-program")
    ));
    let title = i18n::tr_args(
        lang,
        "editor-programs-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(html(viewer, &title, &body))
}

async fn program_default(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<DefaultForm>,
) -> PageResult {
    let guild = admin_form(&web, &viewer, guild_id, &form.csrf).await?;
    let replies = command(
        &web,
        &viewer,
        &guild,
        "chargen",
        &["program", "default"],
        vec![("name", form.name)],
    )
    .await;
    programs_page(&web, &viewer, &guild, notices(&replies)).await
}

async fn program_new(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    Ok(program_page(
        &viewer,
        &guild,
        &ProgramDraft::default(),
        "",
        false,
    ))
}

async fn program(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, name)): Path<(i64, String)>,
) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    let row = web
        .core
        .storage()
        .installed_program(guild.id, &name)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?
        .ok_or_else(|| missing(viewer.lang))?;
    let draft = ProgramDraft {
        name: row.name,
        source: row.source,
        map: row.record_map,
    };
    Ok(program_page(&viewer, &guild, &draft, "", true))
}

#[derive(Default)]
struct ProgramDraft {
    name: String,
    source: String,
    map: String,
}

/// The listing editor with `findings` under it; `installed`: the name is a stored
/// program (so it can be tried).
fn program_page(
    viewer: &Viewer,
    guild: &SessionGuild,
    draft: &ProgramDraft,
    findings: &str,
    installed: bool,
) -> Response {
    let lang = viewer.lang;
    let base = format!("/servers/{}/programs", guild.id);
    let mut body = String::from(findings);
    body.push_str(&format!(
        "<form method=\"post\" action=\"{base}/edit\">{csrf}\
         <label>{name_label} <input name=\"name\" required maxlength=\"32\" value=\"{name}\"></label>\
         {editor}\
         <label>{map_label} <input name=\"map\" maxlength=\"1000\" value=\"{map}\"></label>\
         <label><input type=\"checkbox\" name=\"confirmed\" value=\"1\"> {confirm}</label>\
         <button name=\"action\" value=\"check\">{check}</button> \
         <button name=\"action\" value=\"save\">{save}</button> \
         <button name=\"action\" value=\"try\">{try_draft}</button></form>",
        csrf = csrf_field(&viewer.csrf),
        name_label = tr(lang, "editor-program-name"),
        name = escape(&draft.name),
        editor = editor(&tr(lang, "editor-listing"), "source", &draft.source),
        map_label = tr(lang, "editor-record-map"),
        map = escape(&draft.map),
        confirm = tr(lang, "editor-install-anyway"),
        check = tr(lang, "editor-check"),
        save = tr(lang, "editor-save"),
        try_draft = tr(lang, "editor-try-draft"),
    ));
    if installed {
        body.push_str(&format!(
            "<h2>{try_it}</h2><form method=\"post\" action=\"{base}/{name}/try\">{csrf}\
             <button>{start}</button></form>",
            try_it = tr(lang, "editor-try"),
            name = escape(&draft.name),
            csrf = csrf_field(&viewer.csrf),
            start = tr(lang, "editor-try-start"),
        ));
    }
    body.push_str(&format!(
        "<p><a href=\"{base}\">{}</a></p>",
        tr(lang, "web-back")
    ));
    let title = if draft.name.is_empty() {
        i18n::tr(lang, "editor-new-program")
    } else {
        draft.name.clone()
    };
    html(viewer, &title, &body)
}

/// "Check" or "Save" of the listing editor: the core's check, or its install.
async fn program_edit(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<ProgramForm>,
) -> PageResult {
    let guild = admin_form(&web, &viewer, guild_id, &form.csrf).await?;
    let lang = viewer.lang;
    let name = form.name.trim().to_owned();
    // Browsers send a textarea's lines with CRLF.
    let source = form.source.replace("\r\n", "\n");
    let map = form.map.trim().to_owned();
    if form.action == "try" {
        // The text area's listing as it stands: the same run as a saved program's
        // try, nothing stored; each next step carries the draft back in the form.
        let program = ProgramText::new(&name, &source);
        let draft = ProgramDraft { name, source, map };
        let step = TryStep::of(form.step);
        return Ok(try_page(&web, &viewer, &guild, &program, &draft, step, true).await);
    }
    let mut findings = String::new();
    let mut installed = false;
    let stored = web
        .core
        .storage()
        .installed_program(guild.id, &name)
        .await
        .map_err(|error| server_error(lang, &error))?;
    let map_only = stored
        .as_ref()
        .is_some_and(|row| row.source == source && row.record_map.trim() != map);
    if form.action == "save" && map_only {
        // Only the map changed: `/chargen program map`, which also brings the
        // characters the program made along (gold, food, names).
        let replies = command(
            &web,
            &viewer,
            &guild,
            "chargen",
            &["program", "map"],
            vec![("name", name.clone()), ("map", map.clone())],
        )
        .await;
        findings.push_str(&notices(&replies));
        installed = true;
    } else if form.action == "save" {
        let request = viewer.request(
            &guild,
            RequestKind::Button {
                custom_id: String::new(),
                message_id: 0,
            },
        );
        let confirmed = form.confirmed.is_some();
        let (install, report) = web
            .core
            .install_program(&request, &name, source.clone(), Some(&map), confirmed)
            .await
            .map_err(|error| server_error(lang, &error))?;
        match install {
            Install::Installed(text) => {
                installed = true;
                findings.push_str(&notice(&text));
            }
            Install::Refused(text) => findings.push_str(&notice(&text)),
            Install::Unconfirmed(_) => {
                findings.push_str(&notice(&i18n::tr(lang, "editor-not-saved-syntax-errors")))
            }
        }
        if let Some(report) = report.filter(|report| !report.is_clean()) {
            findings.push_str(&listing_marks(lang, &source, &report));
        }
    } else {
        match web.core.check_listing(lang, &source, Some(&map)).await {
            Ok(report) => findings.push_str(&listing_marks(lang, &source, &report)),
            Err(error) => findings.push_str(&overrun(lang, &error)),
        }
        installed = stored.is_some();
    }
    let draft = ProgramDraft { name, source, map };
    Ok(program_page(&viewer, &guild, &draft, &findings, installed))
}

/// "Try it": the installed program from the start with the form's seed, its
/// answers replayed, to its next question (a form field) or its end.
async fn program_try(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, name)): Path<(i64, String)>,
    Form(form): Form<TryForm>,
) -> PageResult {
    let guild = admin_form(&web, &viewer, guild_id, &form.csrf).await?;
    let row = web
        .core
        .storage()
        .installed_program(guild.id, &name)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?
        .ok_or_else(|| missing(viewer.lang))?;
    let program = ProgramText::new(&row.name, &row.source);
    let draft = ProgramDraft {
        name: row.name,
        source: String::new(),
        map: row.record_map,
    };
    let step = TryStep::of(form.step);
    Ok(try_page(&web, &viewer, &guild, &program, &draft, step, false).await)
}

/// Where a try stands: its seed and the answers given so far.
struct TryStep {
    seed: u64,
    answers: Vec<String>,
}

impl TryStep {
    /// The form's step; a first step (or a seed that is no number) draws its seed.
    fn of(fields: TryFields) -> TryStep {
        // The answers so far travel as JSON: an empty answer is an answer too.
        let mut answers: Vec<String> = serde_json::from_str(&fields.answers).unwrap_or_default();
        if let Some(answer) = fields.answer {
            answers.push(answer.replace(['\r', '\n'], " "));
        }
        let seed = fields.seed.and_then(|seed| seed.trim().parse().ok());
        TryStep {
            seed: seed.unwrap_or_else(rand::random),
            answers,
        }
    }
}

/// A try's page: the run of `program` to its next question or its end. `unsaved`:
/// the program is the editor's draft, so every form of the page posts the draft
/// (name, listing, map) back to the editor with `action=try`; else the forms post to
/// the installed program's try.
async fn try_page(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    program: &ProgramText,
    draft: &ProgramDraft,
    step: TryStep,
    unsaved: bool,
) -> Response {
    let lang = viewer.lang;
    let programs = format!("/servers/{}/programs", guild.id);
    let (target, carried) = if unsaved {
        let carried = format!(
            "<input type=\"hidden\" name=\"action\" value=\"try\">\
             <input type=\"hidden\" name=\"name\" value=\"{}\">\
             <input type=\"hidden\" name=\"source\" value=\"{}\">\
             <input type=\"hidden\" name=\"map\" value=\"{}\">",
            escape(&draft.name),
            escape(&draft.source),
            escape(&draft.map),
        );
        (format!("{programs}/edit"), carried)
    } else {
        (
            format!("{programs}/{}/try", escape(&program.name)),
            String::new(),
        )
    };
    let csrf = csrf_field(&viewer.csrf);
    let mut body = String::new();
    let ran = web
        .core
        .try_program(lang, program, &draft.map, step.seed, step.answers.clone())
        .await;
    match ran {
        Err(error) => body.push_str(&overrun(lang, &error)),
        Ok(run) => {
            body.push_str(&format!(
                "<pre class=\"screen\">{}</pre>",
                escape(&run.output.replace('\x0c', "\n"))
            ));
            match run.end {
                TryEnd::Asks(prompt) => body.push_str(&format!(
                    "<form method=\"post\" action=\"{target}\">{csrf}{carried}\
                     <input type=\"hidden\" name=\"seed\" value=\"{seed}\">\
                     <input type=\"hidden\" name=\"answers\" value=\"{answers}\">\
                     <label>{prompt} <input name=\"answer\" autofocus></label>\
                     <button>{send}</button></form>",
                    seed = step.seed,
                    answers = escape(&serde_json::to_string(&step.answers).unwrap_or_default()),
                    prompt = escape(prompt.trim()),
                    send = tr(lang, "editor-try-answer"),
                )),
                TryEnd::Finished(characters) => {
                    body.push_str(&format!(
                        "<p class=\"ok\">{}</p>",
                        escape(&i18n::tr_args(
                            lang,
                            "editor-try-finished",
                            &[("count", characters.len().into())]
                        ))
                    ));
                    for fields in characters {
                        body.push_str("<table class=\"record\">");
                        for (field, value) in fields {
                            body.push_str(&format!(
                                "<tr><th>{}</th><td>{}</td></tr>",
                                escape(&field),
                                escape(&value)
                            ));
                        }
                        body.push_str("</table>");
                    }
                }
                TryEnd::Failed(reason) => body.push_str(&format!(
                    "<p class=\"bad\">{}</p>",
                    escape(&i18n::tr_args(
                        lang,
                        "editor-try-failed",
                        &[("reason", reason.into())]
                    ))
                )),
            }
        }
    }
    body.push_str(&format!(
        "<form method=\"post\" action=\"{target}\">{csrf}{carried}<button>{}</button></form>",
        tr(lang, "editor-try-again"),
    ));
    if unsaved {
        // Back to the editor with the draft as it was (a check of it), not the
        // saved listing.
        body.push_str(&format!(
            "<form method=\"post\" action=\"{programs}/edit\">{csrf}\
             <input type=\"hidden\" name=\"name\" value=\"{}\">\
             <input type=\"hidden\" name=\"source\" value=\"{}\">\
             <input type=\"hidden\" name=\"map\" value=\"{}\">\
             <button name=\"action\" value=\"check\">{}</button></form>",
            escape(&draft.name),
            escape(&draft.source),
            escape(&draft.map),
            tr(lang, "editor-back-to-draft"),
        ));
    } else {
        body.push_str(&format!(
            "<p><a href=\"{programs}/{}\">{}</a></p>",
            escape(&program.name),
            tr(lang, "web-back"),
        ));
    }
    let shown_name = if program.name.is_empty() {
        i18n::tr(lang, "editor-new-program")
    } else {
        program.name.clone()
    };
    let title = i18n::tr_args(
        lang,
        "editor-try-heading",
        &[("program", shown_name.as_str().into())],
    );
    html(viewer, &title, &body)
}

// ---------------------------------------------------------------- NPCs and effects

async fn npcs(State(web): State<Web>, viewer: Viewer, Path(guild_id): Path<i64>) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    let lang = viewer.lang;
    let rows = web
        .core
        .storage()
        .npc_scripts(guild.id)
        .await
        .map_err(|error| server_error(lang, &error))?;
    let base = format!("/servers/{}/npcs", guild.id);
    let mut body = String::from("<ul>");
    for row in &rows {
        body.push_str(&format!(
            "<li><a href=\"{base}/{name}\">{name}</a> {display}</li>",
            name = escape(&row.name),
            display = escape(&row.display),
        ));
    }
    body.push_str(&format!(
        "</ul><p><a href=\"{base}/new\">{}</a> · <a href=\"/servers/{}/effects\">{}</a></p>",
        tr(lang, "editor-new-npc"),
        guild.id,
        tr(lang, "editor-effect-file"),
    ));
    let title = i18n::tr_args(
        lang,
        "editor-npcs-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(html(&viewer, &title, &body))
}

async fn npc_new(State(web): State<Web>, viewer: Viewer, Path(guild_id): Path<i64>) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    Ok(script_page(&viewer, &guild, &ScriptDraft::npc(), ""))
}

async fn npc(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, name)): Path<(i64, String)>,
) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    let row = web
        .core
        .storage()
        .npc_script(guild.id, &name)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?
        .ok_or_else(|| missing(viewer.lang))?;
    let draft = ScriptDraft {
        npc: true,
        name: row.name,
        display: row.display,
        source: row.source,
        play: String::new(),
    };
    Ok(script_page(&viewer, &guild, &draft, ""))
}

async fn effects(State(web): State<Web>, viewer: Viewer, Path(guild_id): Path<i64>) -> PageResult {
    let guild = admin_guild(&web, &viewer, guild_id).await?;
    let row = web
        .core
        .storage()
        .effect_library(guild.id)
        .await
        .map_err(|error| server_error(viewer.lang, &error))?;
    let draft = ScriptDraft {
        source: row.map(|row| row.source).unwrap_or_default(),
        ..ScriptDraft::default()
    };
    Ok(script_page(&viewer, &guild, &draft, ""))
}

#[derive(Default)]
struct ScriptDraft {
    /// An NPC script (else the effect file).
    npc: bool,
    name: String,
    display: String,
    source: String,
    play: String,
}

impl ScriptDraft {
    fn npc() -> ScriptDraft {
        ScriptDraft {
            npc: true,
            ..ScriptDraft::default()
        }
    }
}

fn script_page(
    viewer: &Viewer,
    guild: &SessionGuild,
    draft: &ScriptDraft,
    findings: &str,
) -> Response {
    let lang = viewer.lang;
    let (action, back) = if draft.npc {
        (
            format!("/servers/{}/npcs/edit", guild.id),
            format!("/servers/{}/npcs", guild.id),
        )
    } else {
        (
            format!("/servers/{}/effects", guild.id),
            format!("/servers/{}/npcs", guild.id),
        )
    };
    let names = if draft.npc {
        format!(
            "<label>{} <input name=\"name\" required maxlength=\"32\" value=\"{}\"></label>\
             <label>{} <input name=\"display\" maxlength=\"32\" value=\"{}\"></label>",
            tr(lang, "editor-npc-name"),
            escape(&draft.name),
            tr(lang, "editor-npc-display"),
            escape(&draft.display),
        )
    } else {
        String::new()
    };
    let body = format!(
        "{findings}<form method=\"post\" action=\"{action}\">{csrf}{names}{editor}\
         <button name=\"action\" value=\"check\">{check}</button> \
         <button name=\"action\" value=\"save\">{save}</button>\
         <h2>{play_heading}</h2><p>{play_help}</p>\
         <label>{play_label} <textarea name=\"play\" rows=\"6\">\n{play}</textarea></label>\
         <button name=\"action\" value=\"play\">{play_button}</button></form>\
         <p><a href=\"{back}\">{back_text}</a></p>",
        csrf = csrf_field(&viewer.csrf),
        editor = editor(&tr(lang, "editor-script"), "source", &draft.source),
        check = tr(lang, "editor-check"),
        save = tr(lang, "editor-save"),
        play_heading = tr(lang, "editor-play"),
        play_help = tr(lang, "editor-play-help"),
        play_label = tr(lang, "editor-play-input"),
        play = escape(&draft.play),
        play_button = tr(lang, "editor-play-run"),
        back_text = tr(lang, "web-back"),
    );
    let title = match (draft.npc, draft.name.is_empty()) {
        (true, true) => i18n::tr(lang, "editor-new-npc"),
        (true, false) => draft.name.clone(),
        (false, _) => i18n::tr(lang, "editor-effect-file"),
    };
    html(viewer, &title, &body)
}

async fn npc_edit(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<ScriptForm>,
) -> PageResult {
    let guild = admin_form(&web, &viewer, guild_id, &form.csrf).await?;
    script_edit(&web, &viewer, &guild, form, true).await
}

async fn effects_edit(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
    Form(form): Form<ScriptForm>,
) -> PageResult {
    let guild = admin_form(&web, &viewer, guild_id, &form.csrf).await?;
    script_edit(&web, &viewer, &guild, form, false).await
}

/// "Check", "Save" or "Play" of an NPC script (`npc`) or of the effect file.
async fn script_edit(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    form: ScriptForm,
    npc: bool,
) -> PageResult {
    let lang = viewer.lang;
    let draft = ScriptDraft {
        npc,
        name: form.name.trim().to_owned(),
        display: form.display.trim().to_owned(),
        source: form.source.replace("\r\n", "\n"),
        play: form.play.replace("\r\n", "\n"),
    };
    let mut findings = String::new();
    if form.action == "play" {
        let played = if npc {
            web.core.play_npc(&draft.source, &draft.play).await
        } else {
            web.core.play_effects(&draft.source, &draft.play).await
        };
        match played {
            Ok(transcript) => findings.push_str(&format!(
                "<h2>{}</h2><pre class=\"screen\">{}</pre>",
                tr(lang, "editor-play-transcript"),
                escape(&crate::core::text::truncate(&transcript, 64 * 1024))
            )),
            Err(error) => findings.push_str(&overrun(lang, &error)),
        }
        return Ok(script_page(viewer, guild, &draft, &findings));
    }
    let checked = if npc {
        web.core
            .check_npc_script(lang, guild.id, &draft.name, &draft.source)
            .await
    } else {
        web.core.check_effect_file(lang, &draft.source).await
    };
    let marks = match checked.map_err(|error| server_error(lang, &error))? {
        Ok(marks) => marks,
        Err(text) => {
            findings.push_str(&notice(&text));
            return Ok(script_page(viewer, guild, &draft, &findings));
        }
    };
    if !marks.is_empty() {
        findings.push_str(&format!(
            "<h2>{}</h2>",
            escape(&i18n::tr_args(
                lang,
                "editor-load-errors",
                &[("count", marks.len().into())]
            ))
        ));
        findings.push_str(&marked_rows(lang, &draft.source, &marks, false));
        if form.action == "save" {
            findings.insert_str(0, &notice(&i18n::tr(lang, "editor-not-saved")));
        }
        return Ok(script_page(viewer, guild, &draft, &findings));
    }
    if form.action != "save" {
        findings.push_str(&format!(
            "<p class=\"ok\">{}</p>",
            tr(lang, "editor-script-clean")
        ));
        return Ok(script_page(viewer, guild, &draft, &findings));
    }
    // Saved by the command itself, which checks again (a cached load) and words it.
    let replies = if npc {
        let mut options = vec![("name", draft.name.clone()), ("code", draft.source.clone())];
        if !draft.display.is_empty() {
            options.push(("display", draft.display.clone()));
        }
        command(web, viewer, guild, "npc", &["install"], options).await
    } else {
        let options = vec![("code", draft.source.clone())];
        command(web, viewer, guild, "effect", &["install"], options).await
    };
    findings.push_str(&notices(&replies));
    Ok(script_page(viewer, guild, &draft, &findings))
}
