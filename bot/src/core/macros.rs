//! `/macro set|show|list|delete`, and what `$name` and `@FIELD` stand for when
//! anything is rolled.
//!
//! A macro is a named dice expression, either a server's (shared; changed by members
//! with Manage Server or the server's macro role) or a user's own in that server.
//! Rolling looks macros up by name, the user's own first: a personal macro shadows
//! a server macro of the same name. Macros may use macros; `dice-core` expands them
//! and names the macros of a cycle or of an expansion past its limits.

use std::collections::BTreeSet;

use super::access::{MacroChange, Scope, macro_name};
use super::commands::{CommandSpec, scope, string, sub};
use super::context::Context;
use super::dates::date_time;
use super::macro_choices::choice_label;
use super::naming::is_name_shaped;
use super::table::{Answer, CommandEntry, Guard, Subcommand, by_subcommand, defer_private};
use super::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line, truncate};
use super::{Choice, Command, CoreSettings, FileAttachment, Message, Reply, Request, ephemeral};
use crate::i18n::{self, Lang};
use crate::storage::{MacroRow, MacroWrite, SERVER_OWNER, name_key};

/// Longest macro name.
pub use super::naming::MACRO_NAME_LEN as MAX_NAME_LEN;
/// Longest macro expression.
pub const MAX_EXPR_LEN: usize = 500;
/// Longest macro description.
pub const MAX_DESCRIPTION_LEN: usize = 100;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "macro",
    spec,
    ack: defer_private,
    run: by_subcommand,
    autocomplete,
    components: &[],
    // A personal macro needs nothing; the server's need what its shared things do.
    subcommands: &[
        Subcommand {
            name: None,
            guards: &[],
            run: |cx, request, _| Box::pin(cx.macro_list(request)),
        },
        Subcommand {
            name: Some("set"),
            guards: &[Guard::MacroScope {
                change: MacroChange::Set,
                dm_key: "macros-server-in-dms",
                what_key: "macros-may-set-server",
            }],
            run: |cx, request, command| Box::pin(cx.macro_set(request, command)),
        },
        Subcommand {
            name: Some("show"),
            guards: &[],
            run: |cx, request, command| Box::pin(cx.macro_show(request, command)),
        },
        Subcommand {
            name: Some("list"),
            guards: &[],
            run: |cx, request, _| Box::pin(cx.macro_list(request)),
        },
        Subcommand {
            name: Some("delete"),
            guards: &[Guard::MacroScope {
                change: MacroChange::Delete,
                dm_key: "config-not-in-dms",
                what_key: "macros-may-delete-server",
            }],
            run: |cx, request, command| Box::pin(cx.macro_delete(request, command)),
        },
    ],
    typed_replies: None,
    sweep: None,
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
    /// `/macro set`: the guard has let a server macro through only for those who may.
    async fn macro_set(&self, request: &Request, command: &Command) -> anyhow::Result<Vec<Reply>> {
        // Every answer of `/macro` is private: the user's language.
        let lang = self.language(request, false).await?;
        let name = macro_name(command);
        let scope = match self
            .macro_scope(lang, request, command, MacroChange::Set)
            .await?
        {
            Ok(scope) => scope,
            Err(problem) => return Ok(ephemeral(problem)),
        };
        if let Err(problem) = self.check_macro_name(lang, name) {
            return Ok(ephemeral(problem));
        }
        let expr = command.string("expr").unwrap_or("").trim();
        if expr.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "macros-expr-missing")));
        }
        if expr.chars().count() > MAX_EXPR_LEN {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "macros-expr-too-long",
                &[("max", MAX_EXPR_LEN.into())],
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
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "macros-description-too-long",
                &[("max", MAX_DESCRIPTION_LEN.into())],
            )));
        }
        let references = match self.engines.dice.references(expr) {
            Ok(references) => references,
            Err(failure) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "macros-invalid-expr",
                    &[
                        ("name", name.into()),
                        ("caret", code_block(&failure.caret_in(lang)).into()),
                    ],
                )));
            }
        };
        let place = request.place();
        let owner = scope.owner(request.user.id);
        let existing = self.storage.macro_of(place, owner, name).await?;
        if existing.is_none() {
            let count = self.storage.count_macros(place, owner).await?;
            let (max, whose) = match scope {
                Scope::Server => (self.settings.max_server_macros, "server"),
                Scope::Personal => (self.settings.max_personal_macros, "personal"),
            };
            if count >= i64::from(max) {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "macros-full",
                    &[("count", count.into()), ("whose", whose.into())],
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
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "macros-not-saved",
                &[
                    ("name", name.into()),
                    ("reason", one_line(&failure.reason_in(lang), 400).into()),
                ],
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
        let mut text = i18n::tr_args(
            lang,
            "macros-saved",
            &[
                ("whose", scope.whose().into()),
                ("created", if created { "yes" } else { "no" }.into()),
                ("name", name.into()),
                (
                    "expr",
                    one_line(expr, MAX_EXPR_LEN).replace('`', "'").into(),
                ),
            ],
        );
        if !undefined.is_empty() {
            let names: Vec<String> = undefined.iter().map(|key| format!("`${key}`")).collect();
            text.push('\n');
            text.push_str(&i18n::tr_args(
                lang,
                "macros-saved-undefined",
                &[
                    ("names", names.join(", ").into()),
                    ("count", names.len().into()),
                ],
            ));
        }
        if scope == Scope::Server
            && self
                .storage
                .macro_of(place, request.user.id, name)
                .await?
                .is_some()
        {
            text.push('\n');
            text.push_str(&i18n::tr_args(
                lang,
                "macros-saved-shadowed",
                &[("name", name.into())],
            ));
        }
        Ok(ephemeral(text))
    }

    fn check_macro_name(&self, lang: Lang, name: &str) -> Result<(), String> {
        if name.is_empty() {
            return Err(i18n::tr(lang, "macros-name-missing"));
        }
        if name.chars().count() > MAX_NAME_LEN || !is_name_shaped(name) {
            return Err(i18n::tr_args(
                lang,
                "macros-name-invalid",
                &[
                    ("name", one_line(name, 40).replace('`', "'").into()),
                    ("max", MAX_NAME_LEN.into()),
                ],
            ));
        }
        if self.engines.dice.references(name).is_ok() {
            return Err(i18n::tr_args(
                lang,
                "macros-name-is-dice",
                &[("name", name.into())],
            ));
        }
        Ok(())
    }

    async fn macro_show(&self, request: &Request, command: &Command) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let name = macro_name(command);
        let place = request.place();
        let personal = self.storage.macro_of(place, request.user.id, name).await?;
        let server = match request.guild_id {
            Some(_) => self.storage.macro_of(place, SERVER_OWNER, name).await?,
            None => None,
        };
        let mut parts = Vec::new();
        if let Some(row) = &personal {
            parts.push(describe_macro(lang, row));
        }
        if let Some(row) = &server {
            let mut part = describe_macro(lang, row);
            if personal.is_some() {
                part.push('\n');
                part.push_str(&i18n::tr(lang, "macros-show-shadowed"));
            }
            parts.push(part);
        }
        if parts.is_empty() {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "macros-show-none",
                &[("name", one_line(name, 40).replace('`', "'").into())],
            )));
        }
        Ok(ephemeral(truncate(&parts.join("\n\n"), MESSAGE_LIMIT)))
    }

    async fn macro_list(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let rows = self
            .storage
            .macros_visible(request.place(), request.user.id)
            .await?;
        if rows.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "macros-list-empty")));
        }
        let personal: Vec<&MacroRow> = rows.iter().filter(|row| !row.is_server()).collect();
        let server: Vec<&MacroRow> = rows.iter().filter(|row| row.is_server()).collect();
        let mut lines = Vec::new();
        if !personal.is_empty() {
            lines.push(i18n::tr_args(
                lang,
                "macros-list-personal",
                &[("count", personal.len().into())],
            ));
            lines.extend(personal.iter().map(|row| list_line(lang, row, false)));
        }
        if !server.is_empty() {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            lines.push(i18n::tr_args(
                lang,
                "macros-list-server",
                &[("count", server.len().into())],
            ));
            let shadowed: BTreeSet<String> =
                personal.iter().map(|row| name_key(&row.name)).collect();
            lines.extend(
                server
                    .iter()
                    .map(|row| list_line(lang, row, shadowed.contains(&name_key(&row.name)))),
            );
        }
        let full = lines.join("\n");
        if full.chars().count() <= MESSAGE_LIMIT {
            return Ok(ephemeral(full));
        }
        // Too long for one message: the start, and all of it as a file.
        let note = format!("\n{}", i18n::tr(lang, "macros-list-in-file"));
        let mut message = Message::ephemeral(format!(
            "{}{note}",
            truncate_lines(&full, MESSAGE_LIMIT - note.chars().count())
        ));
        message.attachments.push(FileAttachment {
            filename: i18n::tr(lang, "macros-list-filename"),
            bytes: full.replace('`', "").into_bytes(),
            description: Some(i18n::tr(lang, "macros-list-file-description")),
        });
        Ok(vec![Reply::Interaction(message)])
    }

    /// `/macro delete`: the guard has let a server macro through only for those who
    /// may, or when it does not exist (which the deletion finds).
    async fn macro_delete(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let name = macro_name(command);
        let place = request.place();
        let scope = match self
            .macro_scope(lang, request, command, MacroChange::Delete)
            .await?
        {
            Ok(scope) => scope,
            Err(problem) => return Ok(ephemeral(problem)),
        };
        if !self
            .storage
            .delete_macro(place, scope.owner(request.user.id), name)
            .await?
        {
            return Ok(no_macro(lang, name, scope));
        }
        Ok(ephemeral(i18n::tr_args(
            lang,
            "macros-deleted",
            &[("whose", scope.whose().into()), ("name", name.into())],
        )))
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
                name: choice_label(super::language::private_language(request), &row, None),
                value: row.name.clone(),
            });
            if choices.len() == 25 {
                break;
            }
        }
        Ok(choices)
    }
}

fn no_macro(lang: Lang, name: &str, scope: Scope) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        lang,
        "macros-none-called",
        &[
            ("whose", scope.whose().into()),
            ("name", one_line(name, 40).replace('`', "'").into()),
        ],
    ))
}

fn describe_macro(lang: Lang, row: &MacroRow) -> String {
    let whose = if row.is_server() {
        "server"
    } else {
        "personal"
    };
    let mut text = i18n::tr_args(
        lang,
        "macros-show-heading",
        &[("name", row.name.as_str().into()), ("whose", whose.into())],
    );
    text.push('\n');
    text.push_str(&code_block(&row.expr));
    text.push('\n');
    if let Some(description) = &row.description {
        text.push_str(&format!("{}\n", escape_markdown(description)));
    }
    let created = [
        ("by", who(lang, &row.created_by_name, row.created_by).into()),
        ("when", date_time(row.created_at).into()),
    ];
    if row.updated_at != row.created_at || row.updated_by != row.created_by {
        let mut both = created.to_vec();
        both.push((
            "changed_by",
            who(lang, &row.updated_by_name, row.updated_by).into(),
        ));
        both.push(("changed_when", date_time(row.updated_at).into()));
        text.push_str(&i18n::tr_args(lang, "macros-show-created-changed", &both));
    } else {
        text.push_str(&i18n::tr_args(lang, "macros-show-created", &created));
    }
    text
}

fn who(lang: Lang, name: &str, id: i64) -> String {
    if name.trim().is_empty() {
        return i18n::tr_args(lang, "macros-user-id", &[("id", id.to_string().into())]);
    }
    format!("**{}**", escape_markdown(&one_line(name, 64)))
}

fn list_line(lang: Lang, row: &MacroRow, shadowed: bool) -> String {
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
        line.push(' ');
        line.push_str(&i18n::tr(lang, "macros-list-shadowed"));
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
