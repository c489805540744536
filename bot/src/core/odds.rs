//! `/odds expr [target]`: the exact distribution of a roll as a summary and
//! a bar chart, with buttons that switch the chart between "exactly",
//! "at least" and "at most". The expression is read as `/roll` reads it
//! (`adv`/`dis`, several rolls separated by `;`, macros and `@FIELD`s): one
//! distribution and chart per roll.

use super::commands::{CommandSpec, string};
use super::context::Context;
use super::custom_id::{self, MAX_LEN};
use super::table::{CommandEntry, ComponentFamily, defer_update};
use super::text::{MESSAGE_LIMIT, code_block, one_line, truncate};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, FileAttachment, Message,
    Reply, Request, RequestKind, ephemeral,
};
use crate::chart::{self, Target, View};
use crate::i18n::{self, Lang};

const BUTTON_STATE_KIND: &str = "odds";

/// The exact distribution of one roll: the roll as shown, its odds, and the chart's
/// PNG when one was asked for.
struct Computed {
    shown: String,
    /// What was asked and whose `@FIELD`s it used (`\`1d20+@STR_MOD\` as **Udo**`),
    /// for the summary's first line, when the roll used macros or fields.
    heading: Option<String>,
    odds: dice_core::Odds,
    png: Option<Result<Vec<u8>, String>>,
}

/// The view key of the button that answers with the exact fractions (privately)
/// instead of redrawing the chart.
const EXACT_KEY: &str = "fr";

/// What a view button stores when the expression is too long for its id.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredOdds {
    expr: String,
    target: Option<i64>,
    /// A roll-under target (`<=5`); rows stored before it read as "at least".
    #[serde(default)]
    at_most: bool,
}

impl StoredOdds {
    fn new(params: &OddsView) -> StoredOdds {
        StoredOdds {
            expr: params.expr.clone(),
            target: params.target.map(Target::value),
            at_most: matches!(params.target, Some(Target::AtMost(_))),
        }
    }

    fn target(&self) -> Option<Target> {
        self.target.map(|value| match self.at_most {
            true => Target::AtMost(value),
            false => Target::AtLeast(value),
        })
    }
}

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "odds",
    spec,
    // Exact odds may take a while; the answer is public.
    ack: |_| Ack::Defer { ephemeral: false },
    run: |cx, request, command| Box::pin(cx.odds_command(request, command)),
    autocomplete: |cx, request, command, focused| {
        Box::pin(cx.expr_suggestions(request, command, focused))
    },
    subcommands: &[],
    typed_replies: None,
    sweep: None,
    components: &[ComponentFamily {
        kinds: &[OddsId::INLINE, OddsId::STORED],
        // A view button redraws its own message.
        ack: defer_update,
        run: |cx, request, custom_id| Box::pin(cx.odds_button_id(request, custom_id)),
    }],
};

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "odds",
        description: "Exact chances of a roll, with a chart: 4d6kh3, 1d20+5 target 15 …",
        options: vec![
            string(
                "expr",
                "The dice expression, e.g. 4d6kh3 or 10d10cs>=8",
                1000,
            )
            .required()
            .autocomplete(),
            string(
                "target",
                "Show the chance to roll at least this (15), or at most (<=5)",
                30,
            ),
        ],
        subcommands: vec![],
        groups: vec![],
    }
}

/// What an `/odds` answer shows: the expression, the target, the chart's view
/// (`eq`, `ge` or `le`, see [`crate::chart::View::key`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OddsView {
    pub expr: String,
    pub target: Option<Target>,
    pub view: String,
}

/// The custom id of a view button under an `/odds` chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OddsId {
    /// Everything inline: `tv1:o:<view>:<target (15, <=5) or ->:<expr>`.
    Inline(OddsView),
    /// The expression stored (`button_states`); `view` is the key of the view to show.
    Stored { state_id: i64, view: String },
}

impl OddsId {
    const INLINE: &str = "o";
    const STORED: &str = "os";

    pub fn encode(&self) -> String {
        match self {
            OddsId::Inline(odds) => {
                let target = odds.target.map_or("-".to_owned(), |t| t.to_string());
                custom_id::compose(
                    OddsId::INLINE,
                    &format!("{}:{target}:{}", odds.view, odds.expr),
                )
            }
            OddsId::Stored { state_id, view } => custom_id::compose(
                OddsId::STORED,
                &format!("{view}:{}", custom_id::to_base36(*state_id)),
            ),
        }
    }

    pub fn decode(text: &str) -> Option<OddsId> {
        if let Some(rest) = custom_id::rest_of(text, OddsId::STORED) {
            let (view, id) = rest.split_once(':')?;
            return Some(OddsId::Stored {
                state_id: custom_id::from_base36(id)?,
                view: view.to_owned(),
            });
        }
        let mut parts = custom_id::rest_of(text, OddsId::INLINE)?.splitn(3, ':');
        let view = parts.next()?.to_owned();
        let target = match parts.next()? {
            "-" => None,
            target => Some(Target::parse(target)?),
        };
        let expr = parts.next()?.to_owned();
        Some(OddsId::Inline(OddsView { expr, target, view }))
    }
}

impl Context {
    async fn odds_button_id(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        match OddsId::decode(custom_id) {
            Some(OddsId::Inline(params)) => self.odds_button(request, params).await,
            Some(OddsId::Stored { state_id, view }) => {
                self.odds_button_stored(request, state_id, &view).await
            }
            None => Ok(super::stale_component(request)),
        }
    }

    async fn odds_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let expr = command.string("expr").unwrap_or("").trim();
        if expr.is_empty() {
            let lang = self.language(request, false).await?;
            return Ok(ephemeral(i18n::tr(lang, "odds-nothing")));
        }
        // A string since roll-under targets (`<=5`) came; a client that still has the
        // integer option registered sends a number.
        let target = match (command.string("target"), command.integer("target")) {
            (Some(typed), _) => match Target::parse(typed) {
                Some(target) => Some(target),
                None => {
                    let lang = self.language(request, false).await?;
                    return Ok(ephemeral(i18n::tr_args(
                        lang,
                        "odds-target-invalid",
                        &[("target", one_line(typed, 30).replace('`', "'").into())],
                    )));
                }
            },
            (None, number) => number.map(Target::AtLeast),
        };
        let params = OddsView {
            expr: expr.to_owned(),
            target,
            view: View::Exactly.key().to_owned(),
        };
        Ok(match self.odds_message(request, &params).await? {
            Ok(message) => vec![Reply::Interaction(message)],
            Err(replies) => replies,
        })
    }

    async fn odds_button(&self, request: &Request, params: OddsView) -> anyhow::Result<Vec<Reply>> {
        let RequestKind::Button { message_id, .. } = request.kind else {
            return Ok(super::stale_component(request));
        };
        if params.view == EXACT_KEY {
            return self.odds_exact(request, &params).await;
        }
        if View::from_key(&params.view).is_none() {
            return Ok(super::stale_component(request));
        }
        Ok(match self.odds_message(request, &params).await? {
            Ok(message) => vec![Reply::Edit {
                channel_id: request.channel_id,
                message_id,
                message,
            }],
            Err(replies) => replies,
        })
    }

    async fn odds_button_stored(
        &self,
        request: &Request,
        state_id: i64,
        view: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(state) = self.storage.button_state(state_id).await? else {
            return Ok(super::stale_component(request));
        };
        let Ok(stored) = serde_json::from_str::<StoredOdds>(&state.payload) else {
            return Ok(super::stale_component(request));
        };
        let params = OddsView {
            target: stored.target(),
            expr: stored.expr,
            view: view.to_owned(),
        };
        self.odds_button(request, params).await
    }

    /// The summary, the chart of the chosen view and the view buttons (a summary and
    /// a chart per roll); an expression that cannot be computed is an ephemeral
    /// explanation.
    async fn odds_message(
        &self,
        request: &Request,
        params: &OddsView,
    ) -> anyhow::Result<Result<Message, Vec<Reply>>> {
        let view = View::from_key(&params.view).unwrap_or(View::Exactly);
        // The channel sees the chart: the server's language.
        let lang = self.language(request, true).await?;
        let computed = match self
            .compute_odds(request, params, Some((view, lang)))
            .await?
        {
            Ok(computed) => computed,
            Err(replies) => return Ok(Err(replies)),
        };
        let several = computed.len() > 1;
        let mut summaries = Vec::with_capacity(computed.len());
        let mut histograms = Vec::with_capacity(computed.len());
        let mut attachments = Vec::with_capacity(computed.len());
        for (index, roll) in computed.iter().enumerate() {
            let png = roll
                .png
                .clone()
                .ok_or_else(|| anyhow::anyhow!("no chart drawn"))?
                .map_err(|error| anyhow::anyhow!("cannot draw the chart: {error}"))?;
            summaries.push(chart::summary(
                lang,
                roll.heading.as_deref(),
                &roll.shown,
                &roll.odds,
                params.target,
            ));
            let histogram = chart::text_histogram(lang, &roll.odds, view, 40);
            histograms.push(match several {
                true => format!("{}\n{histogram}", roll.shown),
                false => histogram,
            });
            let filename = match several {
                true => i18n::tr_args(
                    lang,
                    "odds-chart-filename-numbered",
                    &[("number", (index + 1).into())],
                ),
                false => i18n::tr(lang, "odds-chart-filename"),
            };
            attachments.push(FileAttachment {
                filename,
                bytes: png,
                description: Some(truncate(
                    &chart::alt_text(lang, &roll.shown, &roll.odds, view),
                    1000,
                )),
            });
        }
        let mut message = Message {
            content: truncate(&summaries.join("\n"), MESSAGE_LIMIT),
            attachments,
            text_view: Some(histograms.join("\n")),
            ..Message::default()
        };
        // A long expression is stored once and its row shared by the three buttons.
        let mut stored_id = None;
        let mut buttons = Vec::with_capacity(4);
        for choice in View::ALL {
            buttons.push(Component::Button(Button {
                custom_id: self.odds_id(params, choice.key(), &mut stored_id).await?,
                label: choice.label(lang),
                style: if choice == view {
                    ButtonStyle::Primary
                } else {
                    ButtonStyle::Secondary
                },
                disabled: choice == view,
            }));
        }
        if computed
            .iter()
            .any(|roll| chart::exact_mean_is_long(&roll.odds))
        {
            buttons.push(Component::Button(Button {
                custom_id: self.odds_id(params, EXACT_KEY, &mut stored_id).await?,
                label: i18n::tr(lang, "odds-exact-button"),
                style: ButtonStyle::Secondary,
                disabled: false,
            }));
        }
        message = message.with_row(ActionRow(buttons));
        Ok(Ok(message))
    }

    /// The exact distribution of each roll of `params.expr`, read as `/roll` reads
    /// it, on a worker under the time limit, with the chart of `view` drawn there too
    /// (in its language) when one is asked for; what cannot be computed is an
    /// ephemeral explanation.
    async fn compute_odds(
        &self,
        request: &Request,
        params: &OddsView,
        view: Option<(View, Lang)>,
    ) -> anyhow::Result<Result<Vec<Computed>, Vec<Reply>>> {
        // Dice Maiden's `6 4d6` rolls 4d6 six times: each has the odds of 4d6.
        let line = super::roll_line::repeat_prefix(&params.expr)
            .map_or(params.expr.as_str(), |(_, rest)| rest);
        let parts = match super::roll_line::split_rolls(line) {
            Ok(parts) => parts,
            Err(problem) => {
                let lang = self.language(request, false).await?;
                return Ok(Err(ephemeral(problem.text(lang))));
            }
        };
        let mut rolls = Vec::with_capacity(parts.len());
        for typed in parts {
            // Read as `/roll` reads a part: `adv` in the label, and on a macro
            // alone (`$atk adv`) in the macro's one d20.
            let prepared = match self.prepare_roll(request, &typed).await? {
                Ok(prepared) => prepared,
                Err(replies) => return Ok(Err(replies)),
            };
            // `1d20+5 adv` is shown so, not as the `2d20kh1+5` it is computed as.
            let named = super::roll_line::advantage(&typed).ok().and_then(|rolled| {
                super::roll_line::LinePart {
                    typed: typed.clone(),
                    rolled,
                }
                .with_advantage()
            });
            // A roll with macros or fields is named as asked (`$atk adv`), and one
            // with fields says whose, as `/roll` does: the dice they stood for are
            // in the target's line. The language is the channel's, like the summary's.
            let uses_refs =
                !prepared.context.macros.is_empty() || !prepared.context.fields.is_empty();
            let heading = match (uses_refs, view) {
                (true, Some((_, lang))) => Some(super::playing::as_character(
                    lang,
                    named.as_deref().unwrap_or(&prepared.asked),
                    prepared.character.as_deref(),
                    100,
                )),
                _ => None,
            };
            rolls.push((named, heading, prepared));
        }
        let dice = self.engines.dice.clone();
        let target = params.target;
        // Exact distributions take up to the work budget: off the async threads,
        // like the chart, and waited for no longer than the time limit.
        let computed = self
            .workers
            .run("odds", move || {
                let mut computed = Vec::with_capacity(rolls.len());
                for (named, heading, prepared) in rolls {
                    let (resolved, odds) = dice.odds(&prepared.expr, &prepared.context)?;
                    let shown = named.unwrap_or(resolved);
                    let png =
                        view.map(|(view, lang)| chart::png(lang, &shown, &odds, view, target));
                    computed.push(Computed {
                        shown,
                        heading,
                        odds,
                        png,
                    });
                }
                Ok(computed)
            })
            .await;
        let computed = match computed {
            Ok(computed) => computed,
            Err(error) => {
                let lang = self.language(request, false).await?;
                let what = i18n::tr_args(
                    lang,
                    "odds-computing",
                    &[("expr", one_line(&params.expr, 100).replace('`', "'").into())],
                );
                return super::overrun_in(lang, &what, error).map(Err);
            }
        };
        match computed {
            Ok(done) => Ok(Ok(done)),
            Err(failure) => {
                let failure: crate::engine::DiceFailure = failure;
                let lang = self.language(request, false).await?;
                Ok(Err(ephemeral(i18n::tr_args(
                    lang,
                    "odds-cannot-compute",
                    &[("caret", code_block(&failure.caret_in(lang)).into())],
                ))))
            }
        }
    }

    /// The "Exact fractions" button: the mean, variance and chance of each roll as
    /// fractions, privately (a long one as an attached file), leaving the shared
    /// message as it is.
    async fn odds_exact(&self, request: &Request, params: &OddsView) -> anyhow::Result<Vec<Reply>> {
        let computed = match self.compute_odds(request, params, None).await? {
            Ok(computed) => computed,
            Err(replies) => return Ok(replies),
        };
        let lang = self.language(request, false).await?;
        let text = computed
            .iter()
            .map(|roll| chart::exact_text(lang, &roll.shown, &roll.odds, params.target))
            .collect::<Vec<_>>()
            .join("\n");
        let fenced = code_block(&text);
        if fenced.chars().count() <= MESSAGE_LIMIT {
            return Ok(ephemeral(fenced));
        }
        let mut message = Message::ephemeral(i18n::tr(lang, "odds-exact-in-file"));
        message.attachments.push(FileAttachment {
            filename: i18n::tr(lang, "odds-exact-filename"),
            bytes: text.into_bytes(),
            description: Some(i18n::tr(lang, "odds-exact-file-description")),
        });
        Ok(vec![Reply::Interaction(message)])
    }

    /// A view button's custom id: inline when it fits, else naming the stored
    /// parameters (`stored_id`, stored on first need).
    async fn odds_id(
        &self,
        params: &OddsView,
        view_key: &str,
        stored_id: &mut Option<i64>,
    ) -> anyhow::Result<String> {
        let inline = OddsId::Inline(OddsView {
            view: view_key.to_owned(),
            ..params.clone()
        })
        .encode();
        if inline.chars().count() <= MAX_LEN {
            return Ok(inline);
        }
        let state_id = match *stored_id {
            Some(id) => id,
            None => {
                let stored = StoredOdds::new(params);
                let id = self.store_button_state(BUTTON_STATE_KIND, &stored).await?;
                *stored_id = Some(id);
                id
            }
        };
        Ok(OddsId::Stored {
            state_id,
            view: view_key.to_owned(),
        }
        .encode())
    }
}
