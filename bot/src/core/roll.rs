//! `/roll expr [label] [private] [repeat]` and its "Roll again" button.
//!
//! Two habits of other bots' users are read here, before the dice language: several
//! rolls separated by `;` (Dice Maiden, at most [`MAX_ROLLS`]), each with its own
//! breakdown, and `adv` / `dis` after a roll with one d20 (Avrae's `!r 1d20+5 adv`
//! rolls `2d20kh1+5`).

use super::commands::{CommandSpec, OptionKind, OptionSpec, string};
use super::context::Context;
use super::custom_id::{self, MAX_LEN};
use super::table::{Answer, CommandEntry, ComponentFamily};
use super::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line, truncate};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, Message, Reply, Request,
    ephemeral,
};
use crate::i18n::{self, Lang};

const BUTTON_STATE_KIND: &str = "roll";

/// Rolls one `/roll` may hold, separated by `;`.
pub const MAX_ROLLS: usize = 4;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "roll",
    spec,
    // A roll is quick: the answer itself is the first response.
    ack: |_| Ack::Immediate,
    run: |cx, request, command| Box::pin(cx.roll_command(request, command)),
    autocomplete: expr_suggestions,
    components: &[
        ComponentFamily {
            kinds: &[RollId::INLINE, RollId::STORED],
            ack: |_, _| Ack::Defer { ephemeral: false },
            run: |cx, request, custom_id| Box::pin(cx.roll_again_button(request, custom_id)),
        },
        super::gm::REVEAL,
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

/// Suggestions for the `expr` option of `/roll` and `/odds`: macros and fields.
pub(super) fn expr_suggestions<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        if focused != "expr" {
            return Ok(vec![Reply::Choices(Vec::new())]);
        }
        let typed = command.string(focused).unwrap_or("");
        Ok(vec![Reply::Choices(
            cx.roll_suggestions(request, typed).await?,
        )])
    })
}

/// The parameters of a roll to repeat.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RollAgain {
    pub expr: String,
    pub label: Option<String>,
    pub private: bool,
    pub repeat: u32,
    /// `to:gm`: the result goes to the GM channel (never on a Roll again button).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_gm: bool,
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
        prepared: &super::macros::Prepared,
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

/// `I can't roll that:` and the caret, its reason in `lang`.
pub(super) fn cannot_roll(lang: Lang, failure: &crate::engine::DiceFailure) -> String {
    i18n::tr_args(
        lang,
        "roll-cannot-roll",
        &[("caret", code_block(&failure.caret_in(lang)).into())],
    )
}

/// Why the rolls of a `/roll` cannot be read, before the dice language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RollsProblem {
    /// Nothing but `;` and spaces.
    Empty,
    /// More than [`MAX_ROLLS`] rolls.
    TooMany { count: usize },
    /// `adv` / `dis` on a roll without exactly one d20 (`several`: more than one).
    Advantage { expr: String, several: bool },
    /// Both `adv` and `dis` on one roll.
    AdvantageAndDisadvantage { expr: String },
    /// A word of the label reads as dice (`1d20+5 to hit 2d6`): the roll, where the
    /// word starts and ends in it (bytes).
    DiceInLabel { part: String, word: (usize, usize) },
}

impl RollsProblem {
    /// The answer to the user.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            RollsProblem::Empty => i18n::tr(lang, "roll-nothing-short"),
            RollsProblem::TooMany { count } => i18n::tr_args(
                lang,
                "roll-too-many",
                &[("max", MAX_ROLLS.into()), ("count", (*count).into())],
            ),
            RollsProblem::Advantage { expr, several } => i18n::tr_args(
                lang,
                "roll-advantage-one-d20",
                &[
                    ("expr", expr.into()),
                    ("found", if *several { "several" } else { "none" }.into()),
                ],
            ),
            RollsProblem::AdvantageAndDisadvantage { expr } => {
                i18n::tr_args(lang, "roll-advantage-both", &[("expr", expr.into())])
            }
            RollsProblem::DiceInLabel {
                part,
                word: (start, end),
            } => {
                let caret = crate::engine::dice::caret_lines(part, *start, *end);
                let before = part[..*start].trim_end();
                let after = &part[*start..];
                // The fixes are quoted whole only while short: the message must fit.
                let quoted = |text: String| one_line(&text, 200).replace('`', "'");
                i18n::tr_args(
                    lang,
                    "roll-dice-in-label",
                    &[
                        ("caret", code_block(&caret).into()),
                        (
                            "word",
                            one_line(&part[*start..*end], 40).replace('`', "'").into(),
                        ),
                        ("split", quoted(format!("{before}; {after}")).into()),
                        ("commented", quoted(commented(part)).into()),
                    ],
                )
            }
        }
    }
}

/// One roll of a line: as typed and as rolled (`1d20+5 adv` is rolled as `2d20kh1+5`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePart {
    pub typed: String,
    pub rolled: String,
}

impl LinePart {
    /// With advantage, the expression as typed and the word (`1d20+5 adv`): where a
    /// roll is named without its label, the rolled `2d20kh1+5` would hide what was
    /// asked. `None` without advantage.
    pub fn with_advantage(&self) -> Option<String> {
        if self.typed == self.rolled {
            return None;
        }
        let parsed = dice_core::parse(&self.typed).ok()?;
        let label = parsed.label()?;
        // The word that asked for it, with its `with` / `mit`: the rest of the label
        // (`to hit`, `zum Treffen`) says nothing about the odds.
        let words: Vec<&str> = label.split_whitespace().collect();
        let at = words
            .iter()
            .position(|word| advantage_kind(word).is_some())?;
        let asked = match at.checked_sub(1).map(|before| words[before]) {
            Some(before) if is_with(before) => format!("{before} {}", words[at]),
            _ => words[at].to_owned(),
        };
        let asked = asked.trim_end_matches([',', ';', ':']);
        Some(format!("{} {asked}", before_label(&self.typed, label)))
    }

    /// The roll as a summary names it: [`LinePart::with_advantage`], else the
    /// expression as typed without its label or comment (`1d20 ! sneak` is `1d20`).
    pub fn named(&self) -> String {
        if let Some(named) = self.with_advantage() {
            return named;
        }
        let parsed = dice_core::parse(&self.typed).ok();
        match parsed.as_ref().and_then(|parsed| parsed.label()) {
            Some(label) => before_label(&self.typed, label).to_owned(),
            None => self.typed.clone(),
        }
    }
}

/// A line as `/roll` reads it before the dice language: its rolls ([`split_rolls`]),
/// each with advantage turned into dice ([`advantage`]). The command-line tools
/// read a line through here, so they take what `/roll` takes (`/odds` reads each
/// part through `Context::prepare_roll`, as `/roll` does, macros included).
pub fn read_line(line: &str) -> Result<Vec<LinePart>, RollsProblem> {
    split_rolls(line)?
        .into_iter()
        .map(|typed| {
            let rolled = advantage(&typed)?;
            Ok(LinePart { typed, rolled })
        })
        .collect()
}

/// `part` with its label after `#`, which keeps anything in it as text.
fn commented(part: &str) -> String {
    let label = label_of(part).unwrap_or_default();
    let expr = part[..part.len() - label.len()].trim_end();
    format!("{expr} # {label}")
}

/// The label `dice-core` reads at the end of `part`, as a slice of it.
fn label_of(part: &str) -> Option<&str> {
    let parsed = dice_core::parse(part).ok()?;
    let label = parsed.label()?;
    // The label is the trimmed end of the (trimmed) part.
    let start = part.trim_end().len().checked_sub(label.len())?;
    part.get(start..).filter(|tail| tail.trim_end() == label)
}

/// Whether `word` starts with dice: `2d6`, `d20`, `1D20+5`, `d%`, `4dF`, `(2d6)`.
/// German `W` (`3W6`) counts too: a German table types it for dice.
fn looks_like_dice(word: &str) -> bool {
    let word = word.trim_start_matches(['(', '[', '{', '+', '-']);
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let Some(sides) = rest.strip_prefix(['d', 'D', 'w', 'W']) else {
        return false;
    };
    let mut chars = sides.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() || c == '%' => true,
        Some('F' | 'f') => !chars.next().is_some_and(char::is_alphabetic),
        _ => false,
    }
}

/// Dice Maiden's comment, `1d20 ! sneak`: a `!` between spaces (or at the end)
/// becomes `#`, this language's comment; a glued `!` stays an explosion.
fn bang_comment(part: &str) -> String {
    let bytes = part.as_bytes();
    let found = part.char_indices().find(|&(at, ch)| {
        ch == '!'
            && at > 0
            && bytes[at - 1].is_ascii_whitespace()
            && bytes.get(at + 1).is_none_or(u8::is_ascii_whitespace)
    });
    match found {
        Some((at, _)) => format!("{}#{}", &part[..at], &part[at + 1..]),
        None => part.to_owned(),
    }
}

/// `1d20+5 to hit, 2d6 dmg`: where a comma outside parentheses and braces, before
/// any `#` comment, is followed by dice, a second roll starts.
fn split_at_commas(part: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, ch) in part.char_indices() {
        match ch {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            '#' if depth == 0 => break,
            ',' if depth == 0 => {
                let next = part[at + 1..].split_whitespace().next().unwrap_or("");
                if looks_like_dice(next) {
                    pieces.push(part[start..at].trim());
                    start = at + 1;
                }
            }
            _ => {}
        }
    }
    pieces.push(part[start..].trim());
    pieces.retain(|piece| !piece.is_empty());
    pieces
}

/// Dice Maiden's repeat, `6 4d6`: a count, a space, then dice. `None` for anything
/// else (`6 to hit` is 6 with a label).
pub fn repeat_prefix(expr: &str) -> Option<(i64, &str)> {
    let (count, rest) = expr.trim().split_once(char::is_whitespace)?;
    let rest = rest.trim_start();
    let first = rest.split_whitespace().next()?;
    if !count.bytes().all(|b| b.is_ascii_digit()) || !looks_like_dice(first) {
        return None;
    }
    Some((count.parse().unwrap_or(i64::MAX), rest))
}

/// `1d20+5; 2d6+3` into its rolls (empty ones ignored), at most [`MAX_ROLLS`]. A
/// comma followed by dice separates rolls too (`1d20+5 to hit, 2d6 dmg`), and Dice
/// Maiden's ` ! ` comment is read as `#`.
pub fn split_rolls(expr: &str) -> Result<Vec<String>, RollsProblem> {
    let parts: Vec<String> = expr
        .split(';')
        .map(bang_comment)
        .flat_map(|part| {
            split_at_commas(&part)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    if parts.is_empty() {
        return Err(RollsProblem::Empty);
    }
    if parts.len() > MAX_ROLLS {
        return Err(RollsProblem::TooMany { count: parts.len() });
    }
    Ok(parts)
}

/// `1d20+5 adv` → `2d20kh1+5` (`dis`: `kl1`), as Avrae's `!r`: the word anywhere in
/// the label, on a roll with exactly one single d20. The words spelled out count too,
/// in English and German (`advantage`, `vorteil`; `disadvantage`, `nachteil`; with
/// `with` / `mit` before them): a table types what it says at the table. Both on one
/// roll are refused, and so is a label word that reads as dice (`1d20 to hit 2d6`),
/// unless the label is a `#` comment. Other rolls pass as they are.
pub fn advantage(part: &str) -> Result<String, RollsProblem> {
    let Some(label) = label_of(part) else {
        return Ok(part.to_owned());
    };
    let label_start = label.as_ptr() as usize - part.as_ptr() as usize;
    let before = part[..label_start].trim_end();
    let hashed = before.ends_with('#') || before.ends_with("//");
    let expr = before.trim_end_matches(['#', '/']).trim_end();
    let mut keep: Option<&str> = None;
    let mut rest: Vec<&str> = Vec::new();
    for word in label.split_whitespace() {
        let Some(kind) = advantage_kind(word) else {
            if !hashed && looks_like_dice(word) {
                let start = word.as_ptr() as usize - part.as_ptr() as usize;
                return Err(RollsProblem::DiceInLabel {
                    part: part.to_owned(),
                    word: (start, start + word.len()),
                });
            }
            rest.push(word);
            continue;
        };
        if rest.last().is_some_and(|last| is_with(last)) {
            rest.pop();
        }
        if keep.is_some_and(|kept| kept != kind) {
            return Err(RollsProblem::AdvantageAndDisadvantage {
                expr: one_line(part, 100).replace('`', "'"),
            });
        }
        keep = Some(kind);
    }
    let Some(keep) = keep else {
        return Ok(part.to_owned());
    };
    let terms = single_d20_terms(expr);
    let [(start, mods, end)] = terms.as_slice() else {
        return Err(RollsProblem::Advantage {
            expr: one_line(expr, 100).replace('`', "'"),
            several: !terms.is_empty(),
        });
    };
    let mut rolled = format!(
        "{}2d20{}{keep}{}",
        &expr[..*start],
        &expr[*mods..*end],
        &expr[*end..]
    );
    let rest = rest.join(" ");
    let rest = rest.trim_end_matches([',', ';', ':']);
    if !rest.is_empty() {
        rolled.push_str(if hashed { " # " } else { " " });
        rolled.push_str(rest);
    }
    Ok(rolled)
}

/// The dice a label word asks for: `kh1` for advantage (`adv`, `advantage`,
/// `vorteil`), `kl1` for disadvantage, in any case and with punctuation around it.
fn advantage_kind(word: &str) -> Option<&'static str> {
    let bare = word
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    match bare.as_str() {
        "adv" | "advantage" | "vorteil" => Some("kh1"),
        "dis" | "disadvantage" | "nachteil" => Some("kl1"),
        _ => None,
    }
}

/// `with` / `mit`, which may stand before the word for advantage.
fn is_with(word: &str) -> bool {
    ["with", "mit"].contains(&word.to_lowercase().as_str())
}

/// The expression of `part` without its `label` and the `#` before it.
fn before_label<'a>(part: &'a str, label: &str) -> &'a str {
    part[..part.len() - label.len()]
        .trim_end()
        .trim_end_matches('#')
        .trim_end()
}

/// Each `d20` / `1d20` (`1W20`) term (a d20 with a bigger count does not count): where it
/// starts, where its modifiers start and where they end.
fn single_d20_terms(expr: &str) -> Vec<(usize, usize, usize)> {
    let bytes = expr.as_bytes();
    let mut terms = Vec::new();
    let mut index = 0;
    // German `1W20` is a d20 too.
    let lower = expr.to_ascii_lowercase().replace('w', "d");
    while let Some(found) = lower[index..].find("d20") {
        let at = index + found;
        index = at + 3;
        let after = bytes.get(at + 3).copied();
        if after.is_some_and(|b| b.is_ascii_digit()) {
            continue;
        }
        let count_start = expr[..at]
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .len();
        let count = &expr[count_start..at];
        let glued = expr[..count_start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == ')' || c == '}');
        if glued || !(count.is_empty() || count == "1") {
            continue;
        }
        let end = at
            + 3
            + expr[at + 3..]
                .find(|c: char| c.is_whitespace() || "+-*/%(),#[;".contains(c))
                .unwrap_or(expr.len() - at - 3);
        terms.push((count_start, at + 3, end));
    }
    terms
}

/// Text in backticks; backticks inside become quotes so they cannot end it.
pub(super) fn inline_code(text: &str) -> String {
    format!("`{}`", text.replace('`', "'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advantage_and_several_rolls_are_read_before_the_dice_language() {
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("1d20+5 adv", Ok("2d20kh1+5")),
            ("d20 dis", Ok("2d20kl1")),
            ("1D20+5 ADV to hit", Ok("2d20kh1+5 to hit")),
            ("1d20ro1+2 adv", Ok("2d20ro1kh1+2")),
            ("1d20+5 # adv", Ok("2d20kh1+5")),
            ("4+1d20 adv", Ok("4+2d20kh1")),
            ("1d20+5 advantage", Ok("2d20kh1+5")),
            ("1d20-1 Disadvantage", Ok("2d20kl1-1")),
            ("1d20+5 Vorteil Angriff", Ok("2d20kh1+5 Angriff")),
            ("1d20-1 nachteil", Ok("2d20kl1-1")),
            ("1d20+5 Vorteile", Ok("1d20+5 Vorteile")),
            ("1d20+5 to hit", Ok("1d20+5 to hit")),
            ("2d20 adv", Err("one d20")),
            ("1d20+1d20 adv", Err("several")),
            ("3d6 adv", Err("none")),
            ("1d20+5 to hit adv", Ok("2d20kh1+5 to hit")),
            ("1d20+5 mit Vorteil", Ok("2d20kh1+5")),
            ("1W20+2 vorteil", Ok("2d20kh1+2")),
            ("1d20+5 # to hit, adv", Ok("2d20kh1+5 # to hit")),
            ("1d20+5 adv dis", Err("both")),
            ("1d20+5 to hit 2d6", Err("`2d6` reads as dice")),
        ];
        for (typed, expected) in cases {
            match (advantage(typed), expected) {
                (Ok(rolled), Ok(wanted)) => assert_eq!(rolled, *wanted, "{typed}"),
                (Err(problem), Err(needle)) => {
                    let message = problem.text(Lang::En);
                    assert!(message.contains(needle), "{message}");
                }
                (got, _) => panic!("{typed}: {got:?}"),
            }
        }
    }

    #[test]
    fn a_roll_with_advantage_is_named_by_its_word_not_its_labels_first() {
        let cases: &[(&str, Option<&str>)] = &[
            ("1d20+5 adv", Some("1d20+5 adv")),
            ("1d20+5 to hit adv", Some("1d20+5 adv")),
            ("1W20+2 mit Vorteil", Some("1W20+2 mit Vorteil")),
            ("1d20+5 zum Treffen mit Vorteil", Some("1d20+5 mit Vorteil")),
            ("1d20+5 Vorteil Angriff", Some("1d20+5 Vorteil")),
            (
                "d20 with disadvantage, sneaking",
                Some("d20 with disadvantage"),
            ),
            ("1d20+5 # to hit, adv", Some("1d20+5 adv")),
            ("1d20+5 to hit", None),
        ];
        for (typed, named) in cases {
            let part = LinePart {
                typed: (*typed).to_owned(),
                rolled: advantage(typed).unwrap(),
            };
            assert_eq!(part.with_advantage().as_deref(), *named, "{typed}");
        }
    }

    #[test]
    fn semicolons_split_up_to_four_rolls() {
        assert_eq!(
            split_rolls("1d20+5; 2d6+3 ;"),
            Ok(vec!["1d20+5".to_owned(), "2d6+3".to_owned()])
        );
        assert!(split_rolls("1;2;3;4;5").is_err_and(|e| e.text(Lang::En).contains("At most 4")));
        assert!(split_rolls(" ; ").is_err());
        assert_eq!(
            split_rolls("1d20+5 to hit, 2d6 dmg; {1, 2}, x, 1d4 ! a, 2d6"),
            Ok(vec![
                "1d20+5 to hit".to_owned(),
                "2d6 dmg".to_owned(),
                "{1, 2}, x".to_owned(),
                "1d4 # a, 2d6".to_owned(),
            ])
        );
    }

    #[test]
    fn a_count_before_dice_is_dice_maidens_repeat() {
        assert_eq!(repeat_prefix("6 4d6"), Some((6, "4d6")));
        assert_eq!(repeat_prefix("2  1W20+5 adv"), Some((2, "1W20+5 adv")));
        assert_eq!(repeat_prefix("6 to hit"), None);
        assert_eq!(repeat_prefix("6 + 4d6"), None);
        assert_eq!(repeat_prefix("4d6"), None);
    }
}
