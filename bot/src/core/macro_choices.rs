//! A macro as a choice of an autocomplete (a room below the commands): what `/roll`
//! and `/odds` suggest while an expression is typed (a macro's name, or the
//! expression completed after a `$`), and the label every macro choice shows, which
//! `/macro`'s own name autocomplete uses too.

use super::context::Context;
use super::language::private_language;
use super::naming::is_name_shaped;
use super::text::{one_line, truncate};
use super::{Choice, Command, Reply, Request};
use crate::i18n::{self, Lang};
use crate::storage::{MacroRow, name_key};

impl Context {
    /// Suggestions for the `expr` option of `/roll` and `/odds`: macros and fields.
    pub(crate) async fn expr_suggestions(
        &self,
        request: &Request,
        command: &Command,
        focused: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        if focused != "expr" {
            return Ok(vec![Reply::Choices(Vec::new())]);
        }
        let typed = command.string(focused).unwrap_or("");
        Ok(vec![Reply::Choices(
            self.roll_suggestions(request, typed).await?,
        )])
    }

    /// Autocomplete of `/roll expr`: macro names for a bare name being typed, or the
    /// expression completed where it ends in `$` and part of a name.
    pub(crate) async fn roll_suggestions(
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
                name: choice_label(
                    private_language(request),
                    &row,
                    dollar.then_some(value.as_str()),
                ),
                value,
            });
            if choices.len() == 25 {
                break;
            }
        }
        Ok(choices)
    }
}

/// `fireball · 8d6 fire · Fireball damage (server)`, at most 100 characters.
pub(crate) fn choice_label(lang: Lang, row: &MacroRow, completed: Option<&str>) -> String {
    let scope = i18n::tr_args(
        lang,
        "macros-choice-whose",
        &[(
            "whose",
            if row.is_server() {
                "server"
            } else {
                "personal"
            }
            .into(),
        )],
    );
    let mut label = match completed {
        Some(value) => format!("{value} · {}", one_line(&row.expr, 60)),
        None => format!("{} · {}", row.name, one_line(&row.expr, 60)),
    };
    if let Some(description) = &row.description {
        label.push_str(&format!(" · {}", one_line(description, 60)));
    }
    label.push_str(&format!(" {scope}"));
    truncate(&label, 100)
}
