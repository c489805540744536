//! How a turn looks in chat: the events as lines of a regular channel message, the
//! prompt as components under the last one.
//!
//! SAY text goes out verbatim (X3): `@everyone` or `<@123>` reach Discord as written
//! and ping no one, because every message carries `AllowedMentions::None`. Names and
//! labels from scripts and players are escaped where they sit inside our markup.
//!
//! Every word of ours comes from the catalogue (`npc.ftl`) in the language the caller
//! chose: the server's, since the whole channel reads a conversation. npc-core's
//! events are data; each is worded here, not by npc-core's English transcript lines.

use npc_core::{EndReason, Event, MenuChoice, Prompt, TradeItem, World};

use super::ids::{NpcAction, NpcId};
use crate::core::text::{MESSAGE_LIMIT, escape_markdown, one_line, split_chunks, truncate};
use crate::core::{
    ActionRow, Button, ButtonStyle, Component, FileAttachment, Message, Select, SelectOption,
};
use crate::i18n::{self, Arg, Lang};

/// Characters of one message: below Discord's 2,000.
const CHUNK_BUDGET: usize = 1900;

/// Messages one turn may post; beyond it the whole text goes out as a file.
const MAX_MESSAGES: usize = 4;

/// Keyword buttons under the keyword prompt (issue 7: at most 5).
pub const MAX_KEYWORD_BUTTONS: usize = 5;

/// Items per select menu (Discord's limit) and select menus under a TRADE (one row
/// stays for the buttons).
const SELECT_OPTIONS: usize = 25;
const MAX_TRADE_SELECTS: usize = 4;

/// Who is talking to whom, for the wording.
pub struct Speakers<'a> {
    pub player: &'a str,
    pub npc: &'a str,
}

/// A turn laid out as messages; the last one carries the prompt's components.
pub struct Laid {
    pub messages: Vec<Message>,
    /// The last message's text (stored, to take its buttons off later).
    pub last_content: String,
}

/// The lines of a turn: the player's input first (if any), then every event.
/// `prompt` is where the turn waits: a trade's wares explain a refusal to buy.
pub fn turn_lines(
    lang: Lang,
    speakers: &Speakers<'_>,
    input: Option<&str>,
    events: &[Event],
    prompt: &Prompt,
) -> Vec<String> {
    let wares: &[TradeItem] = match prompt {
        Prompt::Trade(items) => items,
        _ => &[],
    };
    let player = escape_markdown(speakers.player);
    let mut lines = Vec::with_capacity(events.len() + 1);
    if let Some(input) = input {
        let shown = one_line(input, 200);
        if shown.is_empty() {
            lines.push(i18n::tr_args(
                lang,
                "npc-says-nothing-player",
                &[("player", (&player).into())],
            ));
        } else {
            lines.push(format!(
                "> **{}:** {}",
                escape_markdown(speakers.player),
                escape_markdown(&shown)
            ));
        }
    }
    let npc = escape_markdown(speakers.npc);
    let turn = TurnWords {
        lang,
        player: &player,
        npc: &npc,
        input,
        wares,
    };
    lines.extend(events.iter().filter_map(|event| turn.line(event)));
    if lines.is_empty() || (input.is_some() && lines.len() == 1) {
        lines.push(i18n::tr_args(
            lang,
            "npc-says-nothing",
            &[("npc", (&npc).into())],
        ));
    }
    lines
}

/// What an event's line needs besides the event: the language, the speakers
/// (escaped), the player's input and the wares of a trade.
struct TurnWords<'a> {
    lang: Lang,
    player: &'a str,
    npc: &'a str,
    input: Option<&'a str>,
    wares: &'a [TradeItem],
}

impl TurnWords<'_> {
    /// The line of one event; `None` for one that shows nothing (the end after an
    /// error, whose error line says it all). Names inside events are escaped here.
    fn line(&self, event: &Event) -> Option<String> {
        let (lang, player, npc) = (self.lang, self.player, self.npc);
        let escaped = |name: &str| Arg::from(escape_markdown(name));
        // Each key is written in its call: the catalogue test finds them there.
        let line = match event {
            // The author's words as written: `*` and `_` are not Discord's styles.
            Event::Say { text, .. } => format!("{npc}: {}", escape_markdown(text)),
            Event::Menu { choices } => i18n::tr_args(
                lang,
                "npc-event-menu",
                &[("choices", menu_hint(lang, choices).into())],
            ),
            Event::Trade { items } => trade_hint(lang, items),
            Event::WillNotBuy { item, .. } => will_not_buy(lang, npc, item, self.wares),
            Event::Bought {
                item,
                quantity,
                gold,
            } => self.bought(item, *quantity, *gold),
            Event::Sold {
                item,
                quantity,
                gold,
            } => i18n::tr_args(
                lang,
                "npc-event-sold",
                &trade_args(lang, item, *quantity, *gold),
            ),
            Event::Talk { .. } => i18n::tr_args(
                lang,
                "npc-event-talk",
                &[("player", player.into()), ("npc", npc.into())],
            ),
            Event::AskYesNo => i18n::tr(lang, "npc-event-yes-no"),
            Event::AskAmount => i18n::tr(lang, "npc-event-amount"),
            // The engine's reason (a limit) is npc-core's, in English.
            Event::Error { message } => i18n::tr_args(
                lang,
                "npc-event-error",
                &[("npc", npc.into()), ("message", escaped(message))],
            ),
            Event::End { reason } => match reason {
                EndReason::Error => return None,
                EndReason::Left => {
                    i18n::tr_args(lang, "npc-event-walked-away", &[("player", player.into())])
                }
                _ => i18n::tr(lang, "npc-event-over"),
            },
            Event::NoReply => i18n::tr(lang, "npc-event-no-reply"),
            Event::TurnAway { npc } => {
                i18n::tr_args(lang, "npc-event-turn-away", &[("npc", escaped(npc))])
            }
            Event::Attack { npc } => {
                i18n::tr_args(lang, "npc-event-attack", &[("npc", escaped(npc))])
            }
            Event::Joined { npc } => {
                i18n::tr_args(lang, "npc-event-joined", &[("npc", escaped(npc))])
            }
            Event::AlreadyMember { npc } => {
                i18n::tr_args(lang, "npc-event-already-member", &[("npc", escaped(npc))])
            }
            Event::PartyFull => i18n::tr(lang, "npc-event-party-full"),
            Event::Received { item, count } => i18n::tr_args(
                lang,
                "npc-event-received",
                &[("item", escaped(item)), ("count", (*count).into())],
            ),
            Event::AnswerYesOrNo => i18n::tr(lang, "npc-event-answer-yes-no"),
            Event::ChooseAnOption => i18n::tr(lang, "npc-event-choose-option"),
            Event::CannotAfford { what } => {
                i18n::tr_args(lang, "npc-event-cannot-afford", &[("what", escaped(what))])
            }
            Event::DoesNotSell { npc, what } => i18n::tr_args(
                lang,
                "npc-event-does-not-sell",
                &[("npc", escaped(npc)), ("what", escaped(what))],
            ),
            Event::HaveNone { item } => {
                i18n::tr_args(lang, "npc-event-have-none", &[("item", escaped(item))])
            }
            Event::NothingBought => i18n::tr(lang, "npc-event-nothing-bought"),
            Event::NothingSold => i18n::tr(lang, "npc-event-nothing-sold"),
            Event::NotATradeCommand => i18n::tr(lang, "npc-event-trade-command"),
            // What the effect did follows the turn's lines (`apply.rs`).
            Event::ApplyEffect { .. } => return None,
        };
        Some(line)
    }

    /// A purchase; one cut to what the gold pays for says so.
    fn bought(&self, item: &str, quantity: i64, gold: i64) -> String {
        let mut line = i18n::tr_args(
            self.lang,
            "npc-event-bought",
            &trade_args(self.lang, item, quantity, gold),
        );
        if let Some(asked) = self.input.and_then(asked_quantity)
            && asked > quantity
        {
            line.push(' ');
            line.push_str(&i18n::tr_args(
                self.lang,
                "npc-event-bought-fewer",
                &[("quantity", quantity.into()), ("asked", asked.into())],
            ));
        }
        line
    }
}

/// The variables of `*You buy 3 arrows for 9 gold.*` and of its selling twin.
fn trade_args(
    lang: Lang,
    item: &str,
    quantity: i64,
    gold: i64,
) -> [(&'static str, Arg<'static>); 3] {
    [
        (
            "item",
            escape_markdown(&counted_in(lang, item, quantity)).into(),
        ),
        ("quantity", quantity.into()),
        ("gold", gold.into()),
    ]
}

/// The count a typed `buy ITEM N` asks for.
fn asked_quantity(input: &str) -> Option<i64> {
    let mut words = input.split_whitespace();
    if !words.next()?.eq_ignore_ascii_case("buy") {
        return None;
    }
    words.last()?.parse().ok()
}

/// Why a trader refuses to buy: an item of theirs worth too little to buy back, or
/// one they do not sell (a trader buys back only their own wares).
fn will_not_buy(lang: Lang, npc: &str, item: &str, wares: &[TradeItem]) -> String {
    let ware = wares
        .iter()
        .find(|ware| ware.name.eq_ignore_ascii_case(item) || ware.tag.eq_ignore_ascii_case(item));
    let item = escape_markdown(item);
    let names = [("npc", Arg::from(npc)), ("item", Arg::from(&item))];
    match ware {
        Some(ware) => i18n::tr_args(
            lang,
            "npc-event-will-not-buy-cheap",
            &[
                names[0].clone(),
                names[1].clone(),
                ("price", ware.price.into()),
            ],
        ),
        None => i18n::tr_args(lang, "npc-event-will-not-buy-foreign", &names),
    }
}

/// The player's side of a trade, under every trade prompt (so also after each
/// purchase): their gold and what of theirs the NPC buys back, with the counts held.
pub fn trade_status(lang: Lang, prompt: &Prompt, world: &World) -> Option<String> {
    let Prompt::Trade(items) = prompt else {
        return None;
    };
    let sellable: Vec<String> = items
        .iter()
        .filter(|item| item.sell_price > 0)
        .filter_map(|item| {
            let held = world.item_count(&item.tag);
            (held > 0).then(|| {
                i18n::tr_args(
                    lang,
                    "npc-sellable",
                    &[
                        ("held", held.into()),
                        (
                            "item",
                            escape_markdown(&counted_in(lang, &item.name, held)).into(),
                        ),
                        ("price", item.sell_price.into()),
                    ],
                )
            })
        })
        .collect();
    let sellable = if sellable.is_empty() {
        i18n::tr(lang, "npc-sellable-none")
    } else {
        sellable.join(" · ")
    };
    Some(i18n::tr_args(
        lang,
        "npc-trade-status",
        &[("gold", world.gold.into()), ("sellable", sellable.into())],
    ))
}

/// An item's name for a count in `lang`: English makes its plural ([`counted`]);
/// other languages show the name as the script writes it (their catalogue puts the
/// count as `3×`), since no rule makes a plural of an author's word there.
fn counted_in(lang: Lang, name: &str, quantity: i64) -> String {
    match lang {
        Lang::En => counted(name, quantity),
        _ => name.to_owned(),
    }
}

/// An item's name for a count: `1 arrow`, `3 arrows`, `2 torches`, `4 berries`.
/// English plurals of the last word; a name already ending in `s` stays.
pub fn counted(name: &str, quantity: i64) -> String {
    if quantity == 1 || name.is_empty() {
        return name.to_owned();
    }
    let lower = name.to_lowercase();
    if ["ch", "sh", "x", "z"]
        .iter()
        .any(|end| lower.ends_with(end))
    {
        return format!("{name}es");
    }
    if lower.ends_with('s') {
        return name.to_owned();
    }
    let mut letters = lower.chars().rev();
    let before_y = match (letters.next(), letters.next()) {
        (Some('y'), Some(before)) => Some(before),
        _ => None,
    };
    if before_y.is_some_and(|before| !"aeiou".contains(before)) {
        return format!("{}ies", &name[..name.len() - 1]);
    }
    format!("{name}s")
}

fn menu_hint(lang: Lang, choices: &[MenuChoice]) -> String {
    choices
        .iter()
        .map(|choice| {
            let label = escape_markdown(&choice.label);
            match choice.cost {
                Some(cost) => i18n::tr_args(
                    lang,
                    "npc-menu-choice-cost",
                    &[("label", label.into()), ("cost", cost.into())],
                ),
                None => label,
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

fn trade_hint(lang: Lang, items: &[TradeItem]) -> String {
    let wares: Vec<String> = items
        .iter()
        .map(|item| {
            i18n::tr_args(
                lang,
                "npc-ware",
                &[
                    ("item", escape_markdown(&item.name).into()),
                    ("price", item.price.into()),
                ],
            )
        })
        .collect();
    let wares = if wares.is_empty() {
        i18n::tr(lang, "npc-wares-none")
    } else {
        wares.join(" · ")
    };
    format!(
        "{}\n{}",
        i18n::tr_args(lang, "npc-event-trade", &[("wares", wares.into())]),
        i18n::tr(lang, "npc-trade-hint")
    )
}

/// Lays out `lines` as messages; with `components`, the last message carries them.
pub fn lay_out(lang: Lang, lines: &[String], components: Vec<ActionRow>) -> Laid {
    let text = lines.join("\n");
    let mut chunks: Vec<String> = split_chunks(&text, CHUNK_BUDGET)
        .into_iter()
        .map(|chunk| chunk.trim_end_matches('\n').to_owned())
        .filter(|chunk| !chunk.trim().is_empty())
        .collect();
    if chunks.is_empty() {
        chunks.push("…".to_owned());
    }
    let mut messages = Vec::new();
    if chunks.len() > MAX_MESSAGES {
        let keep_from = chunks.len() - (MAX_MESSAGES - 1);
        messages.push(Message {
            content: i18n::tr(lang, "npc-too-long"),
            attachments: vec![FileAttachment {
                filename: i18n::tr(lang, "npc-too-long-filename"),
                bytes: text.clone().into_bytes(),
                description: Some(i18n::tr(lang, "npc-too-long-description")),
            }],
            ..Message::default()
        });
        chunks.drain(..keep_from);
    }
    let last_content = chunks.last().cloned().unwrap_or_default();
    let count = chunks.len();
    for (index, chunk) in chunks.into_iter().enumerate() {
        let mut message = Message::text(truncate(&chunk, MESSAGE_LIMIT));
        if index + 1 == count {
            message.components = components.clone();
        }
        messages.push(message);
    }
    Laid {
        messages,
        last_content,
    }
}

/// The components of a prompt: buttons and select menus whose ids carry the
/// conversation and its step.
pub fn prompt_components(
    lang: Lang,
    conversation: i64,
    step: i64,
    prompt: &Prompt,
    keywords: &[String],
    npc: &str,
) -> Vec<ActionRow> {
    let id = |action: NpcAction| NpcId::new(conversation, step, action).encode();
    let button = |action: NpcAction, label: &str, style: ButtonStyle| {
        id(action).map(|custom_id| {
            Component::Button(Button {
                custom_id,
                label: truncate(label, 80),
                style,
                disabled: false,
            })
        })
    };
    let leave = || {
        button(
            NpcAction::Leave,
            &i18n::tr(lang, "npc-button-leave"),
            ButtonStyle::Secondary,
        )
    };
    let row = |components: Vec<Option<Component>>| {
        let components: Vec<Component> = components.into_iter().flatten().collect();
        (!components.is_empty()).then_some(ActionRow(components))
    };
    let rows: Vec<Option<ActionRow>> = match prompt {
        Prompt::Keyword => {
            let mut seen: Vec<String> = Vec::new();
            let mut asked = Vec::new();
            for keyword in keywords {
                let label = keyword.to_lowercase();
                if seen.contains(&label) || seen.len() == MAX_KEYWORD_BUTTONS {
                    continue;
                }
                let made = button(
                    NpcAction::Keyword(keyword.clone()),
                    &label,
                    ButtonStyle::Secondary,
                );
                if made.is_some() {
                    seen.push(label);
                    asked.push(made);
                }
            }
            vec![
                row(vec![
                    button(
                        NpcAction::Ask,
                        &i18n::tr_args(
                            lang,
                            "npc-button-ask",
                            &[("npc", one_line(npc, 60).into())],
                        ),
                        ButtonStyle::Primary,
                    ),
                    button(
                        NpcAction::Bye,
                        &i18n::tr(lang, "npc-button-bye"),
                        ButtonStyle::Secondary,
                    ),
                ]),
                row(asked),
            ]
        }
        Prompt::YesNo => vec![row(vec![
            button(
                NpcAction::Yes,
                &i18n::tr(lang, "npc-button-yes"),
                ButtonStyle::Success,
            ),
            button(
                NpcAction::No,
                &i18n::tr(lang, "npc-button-no"),
                ButtonStyle::Danger,
            ),
            leave(),
        ])],
        Prompt::Amount => vec![row(vec![
            button(
                NpcAction::Amount,
                &i18n::tr(lang, "npc-button-answer"),
                ButtonStyle::Primary,
            ),
            leave(),
        ])],
        Prompt::Menu(choices) => {
            let options = choices
                .iter()
                .take(SELECT_OPTIONS)
                .enumerate()
                .map(|(index, choice)| SelectOption {
                    label: truncate(&choice.label, 100),
                    value: index.to_string(),
                    description: choice.cost.map(|cost| {
                        i18n::tr_args(lang, "npc-option-cost", &[("price", cost.into())])
                    }),
                })
                .collect();
            vec![
                select(
                    id(NpcAction::Menu),
                    &i18n::tr(lang, "npc-menu-placeholder"),
                    options,
                ),
                row(vec![leave()]),
            ]
        }
        Prompt::Trade(items) => {
            let mut rows: Vec<Option<ActionRow>> = items
                .chunks(SELECT_OPTIONS)
                .take(MAX_TRADE_SELECTS)
                .enumerate()
                .map(|(chunk_index, chunk)| {
                    let options = chunk
                        .iter()
                        .enumerate()
                        .map(|(offset, item)| SelectOption {
                            label: truncate(&item.name, 100),
                            value: (chunk_index * SELECT_OPTIONS + offset).to_string(),
                            description: Some(trade_description(lang, item)),
                        })
                        .collect();
                    let chunk_id = u32::try_from(chunk_index).unwrap_or(0);
                    select(
                        id(NpcAction::TradeSelect(chunk_id)),
                        &i18n::tr(lang, "npc-trade-placeholder"),
                        options,
                    )
                })
                .collect();
            let mut buttons = Vec::new();
            if !items.is_empty() {
                buttons.push(button(
                    NpcAction::Buy,
                    &i18n::tr(lang, "npc-button-buy"),
                    ButtonStyle::Success,
                ));
                buttons.push(button(
                    NpcAction::Sell,
                    &i18n::tr(lang, "npc-button-sell"),
                    ButtonStyle::Primary,
                ));
            }
            buttons.push(button(
                NpcAction::Done,
                &i18n::tr(lang, "npc-button-done"),
                ButtonStyle::Secondary,
            ));
            buttons.push(leave());
            rows.push(row(buttons));
            rows
        }
        Prompt::Ended(_) => Vec::new(),
    };
    rows.into_iter().flatten().collect()
}

fn select(
    custom_id: Option<String>,
    placeholder: &str,
    options: Vec<SelectOption>,
) -> Option<ActionRow> {
    let custom_id = custom_id?;
    if options.is_empty() {
        return None;
    }
    Some(ActionRow(vec![Component::Select(Select {
        custom_id,
        placeholder: placeholder.to_owned(),
        options,
        min_values: 1,
        max_values: 1,
    })]))
}

fn trade_description(lang: Lang, item: &TradeItem) -> String {
    if item.sell_price > 0 {
        return i18n::tr_args(
            lang,
            "npc-option-sells-back",
            &[
                ("price", item.price.into()),
                ("sell_price", item.sell_price.into()),
            ],
        );
    }
    i18n::tr_args(lang, "npc-option-cost", &[("price", item.price.into())])
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn item_names_are_counted() {
        let table = [
            ("arrow", 1, "arrow"),
            ("arrow", 3, "arrows"),
            ("short sword", 5, "short swords"),
            ("torch", 2, "torches"),
            ("box", 2, "boxes"),
            ("berry", 4, "berries"),
            ("key", 2, "keys"),
            ("boots", 2, "boots"),
            ("arrow", 0, "arrows"),
        ];
        for (name, quantity, expected) in table {
            assert_eq!(counted(name, quantity), expected, "{name} {quantity}");
        }
    }
}
