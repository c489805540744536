//! `/roll expr [label] [private] [repeat]` and its "Roll again" button.
//!
//! Two habits of other bots' users are read here, before the dice language: several
//! rolls separated by `;` (Dice Maiden, at most [`MAX_ROLLS`]), each with its own
//! breakdown, and `adv` / `dis` after a roll with one d20 (Avrae's `!r 1d20+5 adv`
//! rolls `2d20kh1+5`).

pub mod gm;

use super::commands::{CommandSpec, OptionKind, OptionSpec, string};
use super::context::Context;
use super::custom_id::{self, MAX_LEN};
use super::table::{CommandEntry, ComponentFamily};
use super::text::{MESSAGE_LIMIT, escape_markdown, one_line, truncate};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, Message, Reply, Request,
    ephemeral,
};
use crate::i18n::{self, Lang};

use super::roll_line::cannot_roll;
pub use super::roll_line::{
    LinePart, MAX_ROLLS, RollAgain, RollsProblem, advantage, read_line, repeat_prefix, split_rolls,
};

const BUTTON_STATE_KIND: &str = "roll";

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "roll",
    spec,
    // A roll is quick: the answer itself is the first response.
    ack: |_| Ack::Immediate,
    run: |cx, request, command| Box::pin(cx.roll_command(request, command)),
    autocomplete: |cx, request, command, focused| {
        Box::pin(cx.expr_suggestions(request, command, focused))
    },
    subcommands: &[],
    typed_replies: None,
    sweep: None,
    components: &[
        ComponentFamily {
            kinds: &[RollId::INLINE, RollId::STORED],
            ack: |_, _| Ack::Defer { ephemeral: false },
            run: |cx, request, custom_id| Box::pin(cx.roll_again_button(request, custom_id)),
        },
        gm::REVEAL,
    ],
};

fn spec(settings: &CoreSettings) -> CommandSpec {
    let max_repeat = settings.max_repeat;
    CommandSpec {
        name: "roll",
        description: "Roll dice: 1d20+5, 4d6kh3, 8d6 fire …",
        options: vec![
            string(
                "expr",
                "The dice expression, e.g. 4d6kh3 or 1d20+5 to hit",
                1000,
            )
            .required()
            .autocomplete(),
            string("label", "What the roll is for", 100),
            OptionSpec {
                name: "private",
                description: "Only you see the result",
                kind: OptionKind::Boolean,
                required: false,
                autocomplete: false,
                choices: &[],
            },
            OptionSpec {
                name: "repeat",
                description: "Roll this many times",
                kind: OptionKind::Integer {
                    min: 1,
                    max: i64::from(max_repeat),
                },
                required: false,
                autocomplete: false,
                choices: &[],
            },
            string(
                "to",
                "Who sees the result: the channel, the GM, or only you",
                7,
            )
            .choices(&["channel", "gm", "me"]),
        ],
        subcommands: vec![],
        groups: vec![],
    }
}

/// The custom id of a "Roll again" button.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollId {
    /// Everything inline: `tv1:r:<p or ->:<repeat>:<label length>:<label><expr>`.
    Inline(RollAgain),
    /// The parameters stored (`button_states`).
    Stored { state_id: i64 },
}

impl RollId {
    const INLINE: &str = "r";
    const STORED: &str = "rs";

    /// The id as a string; an inline one may be longer than [`MAX_LEN`], and callers
    /// store it and use [`RollId::Stored`] instead.
    pub fn encode(&self) -> String {
        match self {
            RollId::Inline(roll) => {
                let label = roll.label.as_deref().unwrap_or("");
                let private = if roll.private { "p" } else { "-" };
                custom_id::compose(
                    RollId::INLINE,
                    &format!(
                        "{private}:{}:{}:{label}{}",
                        roll.repeat,
                        label.len(),
                        roll.expr
                    ),
                )
            }
            RollId::Stored { state_id } => custom_id::with_state(RollId::STORED, *state_id),
        }
    }

    pub fn decode(text: &str) -> Option<RollId> {
        if let Some(state_id) = custom_id::state_of(text, RollId::STORED) {
            return Some(RollId::Stored { state_id });
        }
        let rest = custom_id::rest_of(text, RollId::INLINE)?;
        let mut parts = rest.splitn(4, ':');
        let private = match parts.next()? {
            "p" => true,
            "-" => false,
            _ => return None,
        };
        let repeat: u32 = parts.next()?.parse().ok()?;
        let label_len: usize = parts.next()?.parse().ok()?;
        let tail = parts.next()?;
        let label = tail.get(..label_len)?;
        let expr = tail.get(label_len..)?;
        Some(RollId::Inline(RollAgain {
            expr: expr.to_owned(),
            label: (!label.is_empty()).then(|| label.to_owned()),
            private,
            repeat,
            to_gm: false,
        }))
    }
}

impl Context {
    async fn roll_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let expr = command.string("expr").unwrap_or("").trim();
        if expr.is_empty() {
            let lang = self.language(request, false).await?;
            return Ok(ephemeral(i18n::tr(lang, "roll-nothing")));
        }
        let label = command
            .string("label")
            .map(|label| one_line(label, 100))
            .filter(|label| !label.is_empty());
        // Dice Maiden's `6 4d6` rolls 4d6 six times, as `repeat:6` does.
        let (expr, prefixed) = match repeat_prefix(expr) {
            Some((count, rest)) => (rest, Some(count)),
            None => (expr, None),
        };
        let repeat = match (prefixed, command.integer("repeat")) {
            (Some(count), Some(option)) => {
                let lang = self.language(request, false).await?;
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "roll-repeat-twice",
                    &[("count", count.into()), ("repeat", option.into())],
                )));
            }
            (count, option) => count.or(option).unwrap_or(1),
        };
        let max_repeat = self.settings.max_repeat;
        let Some(repeat) = u32::try_from(repeat)
            .ok()
            .filter(|repeat| (1..=max_repeat).contains(repeat))
        else {
            let lang = self.language(request, false).await?;
            // `30 4d6` asked with the count in front, not with `repeat`.
            let text = match prefixed {
                Some(count) => i18n::tr_args(
                    lang,
                    "roll-prefix-range",
                    &[("count", count.into()), ("max", max_repeat.into())],
                ),
                None => i18n::tr_args(lang, "roll-repeat-range", &[("max", max_repeat.into())]),
            };
            return Ok(ephemeral(text));
        };
        // `to:me` is `private:true`; `to` decides when both are given.
        let to = command.string("to");
        let params = RollAgain {
            expr: expr.to_owned(),
            label,
            private: match to {
                Some(to) => to == "me",
                None => command.boolean("private").unwrap_or(false),
            },
            repeat,
            to_gm: to == Some("gm"),
        };
        self.roll_replies(request, params, false).await
    }

    async fn roll_again_button(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        match RollId::decode(custom_id) {
            Some(RollId::Inline(params)) => self.roll_again(request, params).await,
            Some(RollId::Stored { state_id }) => self.roll_again_stored(request, state_id).await,
            None => Ok(super::stale_component(request)),
        }
    }

    async fn roll_again(&self, request: &Request, params: RollAgain) -> anyhow::Result<Vec<Reply>> {
        if params.repeat < 1 || params.repeat > self.settings.max_repeat {
            return Ok(super::stale_component(request));
        }
        self.roll_replies(request, params, true).await
    }

    async fn roll_again_stored(
        &self,
        request: &Request,
        state_id: i64,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(state) = self.storage.button_state(state_id).await? else {
            return Ok(super::stale_component(request));
        };
        let Ok(params) = serde_json::from_str::<RollAgain>(&state.payload) else {
            return Ok(super::stale_component(request));
        };
        self.roll_again(request, params).await
    }

    async fn roll_replies(
        &self,
        request: &Request,
        params: RollAgain,
        again: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let parts = match split_rolls(&params.expr) {
            Ok(parts) => parts,
            Err(problem) => {
                let lang = self.language(request, false).await?;
                return Ok(ephemeral(problem.text(lang)));
            }
        };
        if let [single] = parts.as_slice() {
            return self.roll_one(request, &params, single, again).await;
        }
        self.roll_several(request, &params, &parts, again).await
    }

    /// `1d20+5; 2d6+3`: each roll on its own line (or block, with `repeat`), with
    /// what it was.
    async fn roll_several(
        &self,
        request: &Request,
        params: &RollAgain,
        parts: &[String],
        again: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, !params.private).await?;
        let private = self.language(request, false).await?;
        let header = roll_header(lang, request, params, again, None);
        let repeat = params.repeat as usize;
        let per_roll =
            self.settings.render_budget.saturating_sub(header.len()) / (repeat * parts.len());
        let mut blocks = Vec::with_capacity(parts.len());
        for part in parts {
            let prepared = match self.prepare_roll(request, part).await? {
                Ok(prepared) => prepared,
                Err(replies) => return Ok(replies),
            };
            let lines = match self.roll_lines(private, &prepared, repeat, per_roll.max(20)) {
                Ok(lines) => lines,
                Err(replies) => return Ok(replies),
            };
            let uses_refs =
                !prepared.context.macros.is_empty() || !prepared.context.fields.is_empty();
            let mut block = String::new();
            if uses_refs {
                block.push_str(&super::playing::asked_as(lang, &prepared, 100));
                block.push_str(if repeat == 1 { ": " } else { "\n" });
            }
            block.push_str(&numbered(&lines));
            blocks.push(block);
        }
        let body = blocks.join("\n");
        let content = match header.is_empty() {
            true => body,
            false => format!("{header}\n{body}"),
        };
        self.roll_message(request, lang, params, content).await
    }

    /// Rolls `prepared` `repeat` times; an error is the user's (private) answer, in
    /// `private`.
    fn roll_lines(
        &self,
        private: Lang,
        prepared: &super::prepare::Prepared,
        repeat: usize,
        budget: usize,
    ) -> Result<Vec<String>, Vec<Reply>> {
        let mut lines = Vec::with_capacity(repeat);
        let mut rng = self.rng();
        for _ in 0..repeat {
            match self
                .engines
                .dice
                .roll(&prepared.expr, &prepared.context, &mut *rng, budget)
            {
                Ok(outcome) => lines.push(outcome.markdown),
                Err(failure) => return Err(ephemeral(cannot_roll(private, &failure))),
            }
        }
        Ok(lines)
    }

    async fn roll_one(
        &self,
        request: &Request,
        params: &RollAgain,
        expr: &str,
        again: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let prepared = match self.prepare_roll(request, expr).await? {
            Ok(prepared) => prepared,
            Err(replies) => return Ok(replies),
        };
        // With macros or fields the breakdown shows what they stood for; the header
        // names what was asked.
        let uses_refs = !prepared.context.macros.is_empty() || !prepared.context.fields.is_empty();
        let lang = self.language(request, !params.private).await?;
        let private = self.language(request, false).await?;
        let header = roll_header(
            lang,
            request,
            params,
            again,
            uses_refs.then(|| super::playing::asked_as(lang, &prepared, 200)),
        );
        let repeat = params.repeat as usize;
        let per_roll = self.settings.render_budget.saturating_sub(header.len()) / repeat;
        let lines = match self.roll_lines(private, &prepared, repeat, per_roll.max(20)) {
            Ok(lines) => lines,
            Err(replies) => return Ok(replies),
        };
        let body = numbered(&lines);
        let content = match (header.is_empty(), repeat == 1) {
            (true, _) => body,
            (false, true) => format!("{header}: {body}"),
            (false, false) => format!("{header}\n{body}"),
        };
        self.roll_message(request, lang, params, content).await
    }

    /// The answer with its "Roll again" button.
    async fn roll_message(
        &self,
        request: &Request,
        lang: Lang,
        params: &RollAgain,
        content: String,
    ) -> anyhow::Result<Vec<Reply>> {
        if params.to_gm {
            return self.gm_roll(request, params, content).await;
        }
        let custom_id = self.roll_again_id(params).await?;
        let message = Message {
            content: truncate(&content, MESSAGE_LIMIT),
            ephemeral: params.private,
            ..Message::default()
        }
        .with_row(ActionRow(vec![Component::Button(Button {
            custom_id,
            label: i18n::tr(lang, "roll-again-button"),
            style: ButtonStyle::Secondary,
            disabled: false,
        })]));
        Ok(vec![Reply::Interaction(message)])
    }

    /// The button's custom id: the parameters inline when they fit, else stored.
    async fn roll_again_id(&self, params: &RollAgain) -> anyhow::Result<String> {
        let inline = RollId::Inline(params.clone()).encode();
        if inline.chars().count() <= MAX_LEN {
            return Ok(inline);
        }
        let state_id = self.store_button_state(BUTTON_STATE_KIND, params).await?;
        Ok(RollId::Stored { state_id }.encode())
    }
}

/// Who rolls again, the label, what was asked (with macros), `×N`.
fn roll_header(
    lang: Lang,
    request: &Request,
    params: &RollAgain,
    again: bool,
    asked: Option<String>,
) -> String {
    let mut parts = Vec::new();
    if again {
        parts.push(i18n::tr_args(
            lang,
            "roll-again-by",
            &[("name", escape_markdown(&request.user.name).into())],
        ));
    }
    if let Some(label) = &params.label {
        parts.push(format!("**{}**", escape_markdown(label)));
    }
    if let Some(asked) = asked {
        parts.push(asked);
    }
    let mut header = parts.join(", ");
    if params.repeat > 1 {
        header.push_str(&format!(" ×{}", params.repeat));
    }
    header.trim().to_owned()
}

/// One line as is; several numbered.
fn numbered(lines: &[String]) -> String {
    if let [line] = lines {
        return line.clone();
    }
    lines
        .iter()
        .enumerate()
        .map(|(index, line)| format!("{}. {line}", index + 1))
        .collect::<Vec<_>>()
        .join("\n")
}
