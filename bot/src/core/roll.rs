//! `/roll expr [label] [private] [repeat]` and its "Roll again" button.

use super::custom_id::{CustomId, MAX_LEN, RollAgain};
use super::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line, truncate};
use super::{
    ActionRow, Button, ButtonStyle, Command, Component, Core, Message, Reply, Request, ephemeral,
};

const BUTTON_STATE_KIND: &str = "roll";

impl Core {
    pub(super) async fn roll_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let expr = command.string("expr").unwrap_or("").trim();
        if expr.is_empty() {
            return Ok(ephemeral(
                "Tell me what to roll, for example `/roll 1d20+5` or `/roll 4d6kh3`.",
            ));
        }
        let label = command
            .string("label")
            .map(|label| one_line(label, 100))
            .filter(|label| !label.is_empty());
        let repeat = command.integer("repeat").unwrap_or(1);
        let max_repeat = self.settings.max_repeat;
        let Some(repeat) = u32::try_from(repeat)
            .ok()
            .filter(|repeat| (1..=max_repeat).contains(repeat))
        else {
            return Ok(ephemeral(format!(
                "`repeat` must be between 1 and {max_repeat}."
            )));
        };
        let params = RollAgain {
            expr: expr.to_owned(),
            label,
            private: command.boolean("private").unwrap_or(false),
            repeat,
        };
        self.roll_replies(request, params, false).await
    }

    pub(super) async fn roll_again(
        &self,
        request: &Request,
        params: RollAgain,
    ) -> anyhow::Result<Vec<Reply>> {
        if params.repeat < 1 || params.repeat > self.settings.max_repeat {
            return Ok(super::stale_component());
        }
        self.roll_replies(request, params, true).await
    }

    pub(super) async fn roll_again_stored(
        &self,
        request: &Request,
        state_id: i64,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(state) = self.storage.button_state(state_id).await? else {
            return Ok(super::stale_component());
        };
        let Ok(params) = serde_json::from_str::<RollAgain>(&state.payload) else {
            return Ok(super::stale_component());
        };
        self.roll_again(request, params).await
    }

    async fn roll_replies(
        &self,
        request: &Request,
        params: RollAgain,
        again: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let prepared = match self.prepare_roll(request, &params.expr).await? {
            Ok(prepared) => prepared,
            Err(replies) => return Ok(replies),
        };
        let mut header = String::new();
        if again {
            header.push_str(&format!(
                "{} rolls again",
                escape_markdown(&request.user.name)
            ));
        }
        if let Some(label) = &params.label {
            if !header.is_empty() {
                header.push_str(", ");
            }
            header.push_str(&format!("**{}**", escape_markdown(label)));
        }
        // With macros or fields the breakdown shows what they stood for; the header
        // names what was asked.
        if !prepared.context.macros.is_empty() || !prepared.context.fields.is_empty() {
            if !header.is_empty() {
                header.push_str(", ");
            }
            header.push_str(&inline_code(&one_line(&prepared.asked, 200)));
        }
        if params.repeat > 1 {
            header.push_str(&format!(" ×{}", params.repeat));
        }
        let header = header.trim().to_owned();
        let repeat = params.repeat as usize;
        let per_roll = self.settings.render_budget.saturating_sub(header.len()) / repeat;
        let mut lines = Vec::with_capacity(repeat);
        {
            let mut rng = self.rng();
            for _ in 0..repeat {
                match self.engines.dice.roll(
                    &prepared.expr,
                    &prepared.context,
                    &mut *rng,
                    per_roll.max(20),
                ) {
                    Ok(outcome) => lines.push(outcome.markdown),
                    Err(failure) => {
                        return Ok(ephemeral(format!(
                            "I can't roll that:\n{}",
                            code_block(&failure.caret)
                        )));
                    }
                }
            }
        }
        let body = if repeat == 1 {
            lines.concat()
        } else {
            lines
                .iter()
                .enumerate()
                .map(|(index, line)| format!("{}. {line}", index + 1))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let content = match (header.is_empty(), repeat == 1) {
            (true, _) => body,
            (false, true) => format!("{header}: {body}"),
            (false, false) => format!("{header}\n{body}"),
        };
        let custom_id = self.roll_again_id(&params).await?;
        let message = Message {
            content: truncate(&content, MESSAGE_LIMIT),
            ephemeral: params.private,
            ..Message::default()
        }
        .with_row(ActionRow(vec![Component::Button(Button {
            custom_id,
            label: "Roll again".to_owned(),
            style: ButtonStyle::Secondary,
            disabled: false,
        })]));
        Ok(vec![Reply::Interaction(message)])
    }

    /// The button's custom id: the parameters inline when they fit, else stored.
    async fn roll_again_id(&self, params: &RollAgain) -> anyhow::Result<String> {
        let inline = CustomId::RollAgain(params.clone()).encode();
        if inline.chars().count() <= MAX_LEN {
            return Ok(inline);
        }
        let state_id = self.store_button_state(BUTTON_STATE_KIND, params).await?;
        Ok(CustomId::RollAgainStored { state_id }.encode())
    }
}

/// Text in backticks; backticks inside become quotes so they cannot end it.
fn inline_code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}
