//! `/macro set|show|list|delete`, and what `$name` and `@FIELD` stand for when
//! anything is rolled.
//!
//! A macro is a named dice expression, either a server's (shared; changed by members
//! with Manage Server or the server's macro role) or a user's own in that server.
//! Rolling looks macros up by name, the user's own first: a personal macro shadows
//! a server macro of the same name. Macros may use macros; `dice-core` expands them
//! and names the macros of a cycle or of an expansion past its limits.

use std::collections::{BTreeMap, BTreeSet};

use super::commands::{CommandSpec, scope, string, sub};
use super::context::Context;
use super::settings::NOT_IN_DMS;
use super::table::{Answer, CommandEntry, defer_private};
use super::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line, truncate};
use super::{
    Choice, Command, CoreSettings, FileAttachment, Message, Reply, Request, ephemeral, fields,
};
use crate::engine::RollContext;
use crate::storage::{MacroRow, MacroWrite, SERVER_OWNER, name_key};

/// Longest macro name.
pub const MAX_NAME_LEN: usize = 32;
/// Longest macro expression.
pub const MAX_EXPR_LEN: usize = 500;
/// Longest macro description.
pub const MAX_DESCRIPTION_LEN: usize = 100;
/// Rounds of lookups for macros used by macros; a deeper chain is past
/// `dice-core`'s expansion limit anyway.
const MAX_LOOKUP_ROUNDS: usize = 128;
/// Distinct macro names looked up for one roll.
const MAX_LOOKUP_NAMES: usize = 512;

/// Which macro a command means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Server,
    Personal,
}

impl Scope {
    fn owner(self, user_id: i64) -> i64 {
        match self {
            Scope::Server => SERVER_OWNER,
            Scope::Personal => user_id,
        }
    }

    fn parse(value: Option<&str>) -> Result<Option<Scope>, String> {
        let Some(value) = value.map(str::trim).filter(|value| !value.is_empty()) else {
            return Ok(None);
        };
        match value.to_lowercase().as_str() {
            "server" => Ok(Some(Scope::Server)),
            "me" | "personal" | "mine" => Ok(Some(Scope::Personal)),
            _ => Err(format!(
                "`scope` is `server` or `me`, not `{}`.",
                one_line(value, 20)
            )),
        }
    }
}

/// An expression ready to roll: its text (a bare macro name became `$name`) and what
/// its references stand for.
pub(super) struct Prepared {
    pub expr: String,
    /// The expression without its label, for the answer's header.
    pub asked: String,
    pub context: RollContext,
}

/// A name as `$name` takes it: ASCII letters, digits and `_`, not starting with a
/// digit (which `dice-core` requires), at most [`MAX_NAME_LEN`] characters.
pub fn is_name_shaped(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
        && text.len() <= MAX_NAME_LEN
}

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "macro",
    spec,
    ack: defer_private,
    run: |cx, request, command| Box::pin(cx.macro_command(request, command)),
    autocomplete,
    components: &[],
};

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "macro",
        description: "Named rolls: yours, or the server's ($fireball in any roll)",
        options: vec![],
        subcommands: vec![
            sub(
                "set",
                "Create or change a macro",
                vec![
                    string("name", "Letters, digits and _, e.g. fireball", 32).required(),
                    string("expr", "The dice expression, e.g. 8d6 fire", 500).required(),
                    string("description", "What it is for", 100),
                    scope("Whose macro: me (default) or server"),
                ],
            ),
            sub(
                "show",
                "Show a macro, who made it and when",
                vec![
                    string("name", "The macro's name", 32)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub("list", "List the macros you can use here", vec![]),
            sub(
                "delete",
                "Delete a macro",
                vec![
                    string("name", "The macro's name", 32)
                        .required()
                        .autocomplete(),
                    scope("Whose macro: yours if you have one, else the server's"),
                ],
            ),
        ],
        groups: vec![],
    }
}

/// The `name` of `/macro show` and `/macro delete`: the macros the user can reach.
fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        let choices = match (command.sub(), focused) {
            (Some("show" | "delete"), "name") => {
                let typed = command.string(focused).unwrap_or("");
                cx.macro_name_suggestions(request, typed).await?
            }
            _ => Vec::new(),
        };
        Ok(vec![Reply::Choices(choices)])
    })
}

impl Context {
    async fn macro_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let name = command
            .string("name")
            .map(|name| name.trim().trim_start_matches('$'))
            .unwrap_or("");
        let scope = match Scope::parse(command.string("scope")) {
            Ok(scope) => scope,
            Err(problem) => return Ok(ephemeral(problem)),
        };
        match command.sub() {
            Some("set") => self.macro_set(request, command, name, scope).await,
            Some("show") => self.macro_show(request, name).await,
            None | Some("list") => self.macro_list(request).await,
            Some("delete") => self.macro_delete(request, name, scope).await,
            Some(other) => Ok(ephemeral(format!(
                "`/macro {other}` is not a command; try set, show, list or delete."
            ))),
        }
    }

    async fn macro_set(
        &self,
        request: &Request,
        command: &Command,
        name: &str,
        scope: Option<Scope>,
    ) -> anyhow::Result<Vec<Reply>> {
        let scope = scope.unwrap_or(Scope::Personal);
        if scope == Scope::Server {
            if request.guild_id.is_none() {
                return Ok(ephemeral(
                    "Server macros live on servers; here you can keep your own (`scope: me`).",
                ));
            }
            if !self.may_administer(request).await? {
                return self
                    .not_allowed(request, "create or change server macros")
                    .await;
            }
        }
        if let Err(problem) = self.check_macro_name(name) {
            return Ok(ephemeral(problem));
        }
        let expr = command.string("expr").unwrap_or("").trim();
        if expr.is_empty() {
            return Ok(ephemeral("A macro needs an expression, e.g. `8d6 fire`."));
        }
        if expr.chars().count() > MAX_EXPR_LEN {
            return Ok(ephemeral(format!(
                "A macro's expression has at most {MAX_EXPR_LEN} characters."
            )));
        }
        let description = command
            .string("description")
            .map(|text| one_line(text, 500))
            .filter(|text| !text.is_empty());
        if description
            .as_ref()
            .is_some_and(|text| text.chars().count() > MAX_DESCRIPTION_LEN)
        {
            return Ok(ephemeral(format!(
                "A description has at most {MAX_DESCRIPTION_LEN} characters."
            )));
        }
        let references = match self.engines.dice.references(expr) {
            Ok(references) => references,
            Err(failure) => {
                return Ok(ephemeral(format!(
                    "That expression is not valid, so `{name}` was not saved:\n{}",
                    code_block(&failure.caret)
                )));
            }
        };
        let place = request.place();
        let owner = scope.owner(request.user.id);
        let existing = self.storage.macro_of(place, owner, name).await?;
        if existing.is_none() {
            let count = self.storage.count_macros(place, owner).await?;
            let (max, whose) = match scope {
                Scope::Server => (self.settings.max_server_macros, "This server has"),
                Scope::Personal => (self.settings.max_personal_macros, "You have"),
            };
            if count >= i64::from(max) {
                return Ok(ephemeral(format!(
                    "{whose} {count} macros here, the most there can be. Delete one with \
                     `/macro delete` first."
                )));
            }
        }
        // Resolve the macro as it would be after saving, so that a cycle or an
        // expansion past the limits is refused now rather than at the table.
        let viewer = match scope {
            Scope::Server => None,
            Scope::Personal => Some(request.user.id),
        };
        let mut macros = self
            .lookup_macros(place, viewer, &references.macros, Some((name, expr)))
            .await?;
        macros.insert(name_key(name), expr.to_owned());
        // Macros not defined yet stand for 0: a server macro may use a name each
        // user defines for themselves (`1d20 + $bonus`).
        let mut undefined: BTreeSet<String> = BTreeSet::new();
        for text in macros.values() {
            let Ok(used) = self.engines.dice.references(text) else {
                continue;
            };
            for used in used.macros {
                let key = used.to_lowercase();
                if !macros.contains_key(&key) {
                    undefined.insert(key);
                }
            }
        }
        for key in &undefined {
            macros.insert(key.clone(), "0".to_owned());
        }
        if let Err(failure) = self.engines.dice.check(&format!("${name}"), &macros) {
            return Ok(ephemeral(format!(
                "`{name}` was not saved: {}.",
                one_line(&failure.message, 400)
            )));
        }
        let created = self
            .storage
            .save_macro(&MacroWrite {
                id: self.new_id(),
                guild_id: place,
                owner_id: owner,
                name: name.to_owned(),
                expr: expr.to_owned(),
                description: description.clone(),
                user_id: request.user.id,
                user_name: request.user.name.clone(),
                now: self.now(),
            })
            .await?;
        let kind = match scope {
            Scope::Server => "server macro",
            Scope::Personal => "your macro",
        };
        let verb = if created { "Saved" } else { "Changed" };
        let mut text = format!(
            "{verb} {kind} `${name}`: `{}`.",
            one_line(expr, MAX_EXPR_LEN).replace('`', "'")
        );
        if !undefined.is_empty() {
            let names: Vec<String> = undefined.iter().map(|key| format!("`${key}`")).collect();
            text.push_str(&format!(
                "\nNote: {} {} not defined yet; rolling it fails until {}.",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 {
                    "it is"
                } else {
                    "they are"
                },
            ));
        }
        if scope == Scope::Server
            && self
                .storage
                .macro_of(place, request.user.id, name)
                .await?
                .is_some()
        {
            text.push_str(&format!(
                "\nYour own `${name}` shadows it when you roll; others get the server's."
            ));
        }
        Ok(ephemeral(text))
    }

    fn check_macro_name(&self, name: &str) -> Result<(), String> {
        if name.is_empty() {
            return Err("A macro needs a name, e.g. `fireball`.".to_owned());
        }
        if name.chars().count() > MAX_NAME_LEN || !is_name_shaped(name) {
            return Err(format!(
                "`{}` cannot be a macro name: use 1 to {MAX_NAME_LEN} letters, digits and \
                 `_`, starting with a letter or `_`.",
                one_line(name, 40).replace('`', "'")
            ));
        }
        if self.engines.dice.references(name).is_ok() {
            return Err(format!(
                "`{name}` reads as a dice expression, so it cannot be a macro name \
                 (`/roll {name}` must roll it). Choose another name."
            ));
        }
        Ok(())
    }

    async fn macro_show(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let place = request.place();
        let personal = self.storage.macro_of(place, request.user.id, name).await?;
        let server = match request.guild_id {
            Some(_) => self.storage.macro_of(place, SERVER_OWNER, name).await?,
            None => None,
        };
        let mut parts = Vec::new();
        if let Some(row) = &personal {
            parts.push(describe_macro(row, "your macro"));
        }
        if let Some(row) = &server {
            let mut part = describe_macro(row, "server macro");
            if personal.is_some() {
                part.push_str("\n(Your own macro shadows it when you roll.)");
            }
            parts.push(part);
        }
        if parts.is_empty() {
            return Ok(ephemeral(format!(
                "There is no macro called `{}` here. `/macro list` shows them.",
                one_line(name, 40).replace('`', "'")
            )));
        }
        Ok(ephemeral(truncate(&parts.join("\n\n"), MESSAGE_LIMIT)))
    }

    async fn macro_list(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let rows = self
            .storage
            .macros_visible(request.place(), request.user.id)
            .await?;
        if rows.is_empty() {
            return Ok(ephemeral(
                "There are no macros here yet. Make one with `/macro set name:fireball \
                 expr:8d6 fire`.",
            ));
        }
        let personal: Vec<&MacroRow> = rows.iter().filter(|row| !row.is_server()).collect();
        let server: Vec<&MacroRow> = rows.iter().filter(|row| row.is_server()).collect();
        let mut lines = Vec::new();
        if !personal.is_empty() {
            lines.push(format!("Your macros here ({}):", personal.len()));
            lines.extend(personal.iter().map(|row| list_line(row, false)));
        }
        if !server.is_empty() {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(format!("Server macros ({}):", server.len()));
            let shadowed: BTreeSet<String> =
                personal.iter().map(|row| name_key(&row.name)).collect();
            lines.extend(
                server
                    .iter()
                    .map(|row| list_line(row, shadowed.contains(&name_key(&row.name)))),
            );
        }
        let full = lines.join("\n");
        if full.chars().count() <= MESSAGE_LIMIT {
            return Ok(ephemeral(full));
        }
        // Too long for one message: the start, and all of it as a file.
        let note = "\n… (all of them are in the attached file)";
        let mut message = Message::ephemeral(format!(
            "{}{note}",
            truncate_lines(&full, MESSAGE_LIMIT - note.chars().count())
        ));
        message.attachments.push(FileAttachment {
            filename: "macros.txt".to_owned(),
            bytes: full.replace('`', "").into_bytes(),
            description: Some("Every macro you can use here".to_owned()),
        });
        Ok(vec![Reply::Interaction(message)])
    }

    async fn macro_delete(
        &self,
        request: &Request,
        name: &str,
        scope: Option<Scope>,
    ) -> anyhow::Result<Vec<Reply>> {
        let place = request.place();
        let scope = match scope {
            Some(scope) => scope,
            None if self
                .storage
                .macro_of(place, request.user.id, name)
                .await?
                .is_some() =>
            {
                Scope::Personal
            }
            None => Scope::Server,
        };
        if scope == Scope::Server {
            if request.guild_id.is_none() {
                return Ok(ephemeral(NOT_IN_DMS));
            }
            if self
                .storage
                .macro_of(place, SERVER_OWNER, name)
                .await?
                .is_none()
            {
                return Ok(no_macro(name, scope));
            }
            if !self.may_administer(request).await? {
                return self.not_allowed(request, "delete server macros").await;
            }
        }
        if !self
            .storage
            .delete_macro(place, scope.owner(request.user.id), name)
            .await?
        {
            return Ok(no_macro(name, scope));
        }
        Ok(ephemeral(match scope {
            Scope::Server => format!("Deleted the server macro `${name}`."),
            Scope::Personal => format!("Deleted your macro `${name}`."),
        }))
    }

    /// Macro texts by lower-case name for `names` and the macros they use, as
    /// `viewer` sees them (their own shadowing the server's; `None`: the server's
    /// only). `replacing` stands in for a macro about to be saved.
    async fn lookup_macros(
        &self,
        place: i64,
        viewer: Option<i64>,
        names: &[String],
        replacing: Option<(&str, &str)>,
    ) -> anyhow::Result<BTreeMap<String, String>> {
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut pending: Vec<String> = Vec::new();
        for name in names {
            let key = name.to_lowercase();
            if seen.insert(key.clone()) {
                pending.push(key);
            }
        }
        for _ in 0..MAX_LOOKUP_ROUNDS {
            if pending.is_empty() {
                break;
            }
            let mut found: BTreeMap<String, (bool, String)> = BTreeMap::new();
            if let Some((name, expr)) = replacing {
                let key = name_key(name);
                if pending.contains(&key) {
                    found.insert(key, (true, expr.to_owned()));
                }
            }
            let rows = self
                .storage
                .macros_named(place, viewer.unwrap_or(SERVER_OWNER), &pending)
                .await?;
            for row in rows {
                let key = name_key(&row.name);
                let personal = !row.is_server();
                match found.get(&key) {
                    Some((true, _)) => {}
                    Some((false, _)) if !personal => {}
                    _ => {
                        found.insert(key, (personal, row.expr));
                    }
                }
            }
            let mut next = Vec::new();
            for (key, (_, text)) in found {
                if let Ok(references) = self.engines.dice.references(&text) {
                    for name in references.macros {
                        let key = name.to_lowercase();
                        if seen.len() < MAX_LOOKUP_NAMES && seen.insert(key.clone()) {
                            next.push(key);
                        }
                    }
                }
                texts.insert(key, text);
            }
            pending = next;
        }
        Ok(texts)
    }

    /// Turns what a user asked to roll into an expression and its context: a bare
    /// macro name (`fireball`, `fireball at the orc`) means `$fireball`; macros are
    /// looked up (personal before server); `@FIELD`s come from the active character.
    /// `Err` holds the answer to give instead of a roll.
    pub(super) async fn prepare_roll(
        &self,
        request: &Request,
        expr: &str,
    ) -> anyhow::Result<Result<Prepared, Vec<Reply>>> {
        let dice = &self.engines.dice;
        let place = request.place();
        let (expr, references) = match dice.references(expr) {
            Ok(references) => (expr.to_owned(), references),
            Err(failure) => {
                let (first, rest) = match expr.split_once(char::is_whitespace) {
                    Some((first, rest)) => (first, format!(" {rest}")),
                    None => (expr, String::new()),
                };
                let known = is_name_shaped(first)
                    && !self
                        .storage
                        .macros_named(place, request.user.id, &[first.to_owned()])
                        .await?
                        .is_empty();
                if !known {
                    let mut text = format!("I can't roll that:\n{}", code_block(&failure.caret));
                    if is_name_shaped(first) {
                        text.push_str(&format!(
                            "\nThere is no macro called `{first}` here; `/macro list` shows them."
                        ));
                    }
                    return Ok(Err(ephemeral(text)));
                }
                let expr = format!("${first}{rest}");
                match dice.references(&expr) {
                    Ok(references) => (expr, references),
                    Err(failure) => {
                        return Ok(Err(ephemeral(format!(
                            "I can't roll that:\n{}",
                            code_block(&failure.caret)
                        ))));
                    }
                }
            }
        };
        let mut context = RollContext::default();
        let mut uses_fields = !references.fields.is_empty();
        if !references.macros.is_empty() {
            context.macros = self
                .lookup_macros(place, Some(request.user.id), &references.macros, None)
                .await?;
            uses_fields |= context.macros.values().any(|text| {
                dice.references(text)
                    .is_ok_and(|references| !references.fields.is_empty())
            });
        }
        if uses_fields {
            let Some(character) = self
                .storage
                .active_character(place, request.user.id)
                .await?
            else {
                return Ok(Err(ephemeral(
                    "That roll uses a character's fields (`@…`), and you play no character \
                     here. Choose one with `/character use`; `/character list` shows yours.",
                )));
            };
            let current = self.character_fields(&character).await?;
            context.fields =
                fields::roll_fields_with_purse(&current, character.gold, character.food);
        }
        let asked = without_label(&expr, references.label.as_deref());
        Ok(Ok(Prepared {
            expr,
            asked,
            context,
        }))
    }

    /// Autocomplete of `/roll expr`: macro names for a bare name being typed, or the
    /// expression completed where it ends in `$` and part of a name.
    pub(super) async fn roll_suggestions(
        &self,
        request: &Request,
        typed: &str,
    ) -> anyhow::Result<Vec<Choice>> {
        let (head, partial, dollar) = match typed.rfind('$') {
            Some(at) if is_name_shaped(&typed[at + 1..]) || typed.len() == at + 1 => {
                (&typed[..at], &typed[at + 1..], true)
            }
            _ if typed.trim().is_empty() || is_name_shaped(typed.trim()) => {
                ("", typed.trim(), false)
            }
            _ => return Ok(Vec::new()),
        };
        let rows = self
            .storage
            .macros_starting(request.place(), request.user.id, partial, 50)
            .await?;
        let mut choices = Vec::new();
        let mut last_key = String::new();
        for row in rows {
            // Both a personal and a server macro: the personal one, which a roll uses.
            let key = name_key(&row.name);
            if key == last_key {
                continue;
            }
            last_key = key;
            let value = if dollar {
                format!("{head}${}", row.name)
            } else {
                row.name.clone()
            };
            if value.chars().count() > 100 {
                continue;
            }
            choices.push(Choice {
                name: choice_label(&row, dollar.then_some(value.as_str())),
                value,
            });
            if choices.len() == 25 {
                break;
            }
        }
        Ok(choices)
    }

    /// Autocomplete of the `name` of `/macro show` and `/macro delete`.
    async fn macro_name_suggestions(
        &self,
        request: &Request,
        typed: &str,
    ) -> anyhow::Result<Vec<Choice>> {
        let typed = typed.trim().trim_start_matches('$');
        let rows = self
            .storage
            .macros_starting(request.place(), request.user.id, typed, 50)
            .await?;
        let mut choices: Vec<Choice> = Vec::new();
        for row in rows {
            if choices.iter().any(|choice| choice.value == row.name) {
                continue;
            }
            choices.push(Choice {
                name: choice_label(&row, None),
                value: row.name.clone(),
            });
            if choices.len() == 25 {
                break;
            }
        }
        Ok(choices)
    }
}

/// `1d20 + $bonus to hit` without ` to hit` (or ` # to hit`).
fn without_label(expr: &str, label: Option<&str>) -> String {
    let Some(label) = label else {
        return expr.trim().to_owned();
    };
    let trimmed = expr.trim_end();
    match trimmed.strip_suffix(label) {
        Some(rest) => rest.trim_end().trim_end_matches('#').trim_end().to_owned(),
        None => trimmed.to_owned(),
    }
}

fn no_macro(name: &str, scope: Scope) -> Vec<Reply> {
    let whose = match scope {
        Scope::Server => "no server macro",
        Scope::Personal => "no macro of yours",
    };
    ephemeral(format!(
        "There is {whose} called `{}` here.",
        one_line(name, 40).replace('`', "'")
    ))
}

/// `fireball · 8d6 fire · Fireball damage (server)`, at most 100 characters.
fn choice_label(row: &MacroRow, completed: Option<&str>) -> String {
    let scope = if row.is_server() { "server" } else { "yours" };
    let mut label = match completed {
        Some(value) => format!("{value} · {}", one_line(&row.expr, 60)),
        None => format!("{} · {}", row.name, one_line(&row.expr, 60)),
    };
    if let Some(description) = &row.description {
        label.push_str(&format!(" · {}", one_line(description, 60)));
    }
    label.push_str(&format!(" ({scope})"));
    truncate(&label, 100)
}

fn describe_macro(row: &MacroRow, kind: &str) -> String {
    let mut text = format!("`${}` ({kind}):\n{}\n", row.name, code_block(&row.expr));
    if let Some(description) = &row.description {
        text.push_str(&format!("{}\n", escape_markdown(description)));
    }
    text.push_str(&format!(
        "Created by {} on {}",
        who(&row.created_by_name, row.created_by),
        date_time(row.created_at)
    ));
    if row.updated_at != row.created_at || row.updated_by != row.created_by {
        text.push_str(&format!(
            "; last changed by {} on {}",
            who(&row.updated_by_name, row.updated_by),
            date_time(row.updated_at)
        ));
    }
    text.push('.');
    text
}

fn who(name: &str, id: i64) -> String {
    if name.trim().is_empty() {
        return format!("user {id}");
    }
    format!("**{}**", escape_markdown(&one_line(name, 64)))
}

fn list_line(row: &MacroRow, shadowed: bool) -> String {
    let mut line = format!(
        "- `${}` = `{}`",
        row.name,
        one_line(&row.expr, 80).replace('`', "'")
    );
    if let Some(description) = &row.description {
        line.push_str(&format!(
            " — {}",
            escape_markdown(&one_line(description, 80))
        ));
    }
    if shadowed {
        line.push_str(" (yours shadows it)");
    }
    line
}

/// The first whole lines of `text` that fit in `max` characters.
fn truncate_lines(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for line in text.lines() {
        let len = line.chars().count() + 1;
        if count + len > max {
            break;
        }
        out.push_str(line);
        out.push('\n');
        count += len;
    }
    out.trim_end().to_owned()
}

/// `2026-01-01 09:30 UTC` of a unix-ms time.
pub fn date_time(unix_ms: i64) -> String {
    let minutes = unix_ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!(
        "{} {:02}:{:02} UTC",
        super::character::date_of(unix_ms),
        minutes / 60,
        minutes % 60
    )
}
