//! How a turn looks in chat: the events as lines of a regular channel message, the
//! prompt as components under the last one.
//!
//! SAY text goes out verbatim (X3): `@everyone` or `<@123>` reach Discord as written
//! and ping no one, because every message carries `AllowedMentions::None`. Names and
//! labels from scripts and players are escaped where they sit inside our markup.

use npc_core::{EndReason, Event, MenuChoice, Prompt, TradeItem, World};

use super::ids::{NpcAction, NpcId};
use crate::core::text::{MESSAGE_LIMIT, escape_markdown, one_line, split_chunks, truncate};
use crate::core::{
    ActionRow, Button, ButtonStyle, Component, FileAttachment, Message, Select, SelectOption,
};

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
    speakers: &Speakers<'_>,
    input: Option<&str>,
    events: &[Event],
    prompt: &Prompt,
) -> Vec<String> {
    let wares: &[TradeItem] = match prompt {
        Prompt::Trade(items) => items,
        _ => &[],
    };
    let mut lines = Vec::with_capacity(events.len() + 1);
    if let Some(input) = input {
        let shown = one_line(input, 200);
        if shown.is_empty() {
            lines.push(format!(
                "> *{} says nothing.*",
                escape_markdown(speakers.player)
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
    for event in events {
        let line = match event {
            Event::Talk { .. } => format!("*{} talks to {npc}.*", escape_markdown(speakers.player)),
            // The author's words as written: `*` and `_` are not Discord's styles.
            Event::Say { text, .. } => format!("{npc}: {}", escape_markdown(text)),
            Event::AskYesNo => "*Yes or no?*".to_owned(),
            Event::AskAmount => "*How much?*".to_owned(),
            Event::Menu { choices } => format!("*Choose:* {}", menu_hint(choices)),
            Event::Trade { items } => trade_hint(items),
            Event::WillNotBuy { item, .. } => will_not_buy(&npc, item, wares),
            Event::Bought {
                item,
                quantity,
                gold,
            } => {
                let mut line = format!(
                    "*You buy {quantity} {} for {gold} gold.*",
                    escape_markdown(&counted(item, *quantity))
                );
                // A purchase is cut to what the gold pays for: say so.
                if let Some(asked) = input.and_then(asked_quantity)
                    && asked > *quantity
                {
                    line.push_str(&format!(" *Your gold pays for {quantity} of the {asked}.*"));
                }
                line
            }
            Event::Sold {
                item,
                quantity,
                gold,
            } => format!(
                "*You sell {quantity} {} for {gold} gold.*",
                escape_markdown(&counted(item, *quantity))
            ),
            Event::Error { message } => format!(
                "*{npc} stopped: {}. Nothing of this turn was kept.*",
                escape_markdown(message)
            ),
            Event::End { reason } => match reason {
                EndReason::Left => format!("*{} walked away.*", escape_markdown(speakers.player)),
                EndReason::Error => continue,
                _ => "*The conversation is over.*".to_owned(),
            },
            other => {
                let line = other.to_line();
                match line.strip_prefix("* ") {
                    Some(inner) => format!("*{}*", escape_markdown(inner)),
                    None => escape_markdown(&line),
                }
            }
        };
        lines.push(line);
    }
    if lines.is_empty() || (input.is_some() && lines.len() == 1) {
        lines.push(format!("*{npc} says nothing.*"));
    }
    lines
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
fn will_not_buy(npc: &str, item: &str, wares: &[TradeItem]) -> String {
    let ware = wares
        .iter()
        .find(|ware| ware.name.eq_ignore_ascii_case(item) || ware.tag.eq_ignore_ascii_case(item));
    let item = escape_markdown(item);
    match ware {
        Some(ware) => format!(
            "*{npc} will not buy {item}: it sells for {} gold, and {npc} pays a quarter \
             of that, rounded down: nothing.*",
            ware.price
        ),
        None => format!("*{npc} will not buy {item}: {npc} buys back only what {npc} sells.*"),
    }
}

/// The player's side of a trade, under every trade prompt (so also after each
/// purchase): their gold and what of theirs the NPC buys back, with the counts held.
pub fn trade_status(prompt: &Prompt, world: &World) -> Option<String> {
    let Prompt::Trade(items) = prompt else {
        return None;
    };
    let sellable: Vec<String> = items
        .iter()
        .filter(|item| item.sell_price > 0)
        .filter_map(|item| {
            let held = world.item_count(&item.tag);
            (held > 0).then(|| {
                format!(
                    "{held} {} ({} gold each)",
                    escape_markdown(&counted(&item.name, held)),
                    item.sell_price
                )
            })
        })
        .collect();
    let sellable = if sellable.is_empty() {
        "nothing this trader buys".to_owned()
    } else {
        sellable.join(" · ")
    };
    Some(format!(
        "*Your gold:* {} · *you can sell:* {sellable}",
        world.gold
    ))
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

fn menu_hint(choices: &[MenuChoice]) -> String {
    choices
        .iter()
        .map(|choice| escape_markdown(&choice.to_string()))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn trade_hint(items: &[TradeItem]) -> String {
    let wares: Vec<String> = items
        .iter()
        .map(|item| format!("{} {} gold", escape_markdown(&item.name), item.price))
        .collect();
    let wares = if wares.is_empty() {
        "nothing".to_owned()
    } else {
        wares.join(" · ")
    };
    format!("*For sale:* {wares}\n*Say buy ITEM [N], sell ITEM [N] or done.*")
}

/// Lays out `lines` as messages; with `components`, the last message carries them.
pub fn lay_out(lines: &[String], components: Vec<ActionRow>) -> Laid {
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
            content: "This turn said too much for chat; all of it is in the attached file."
                .to_owned(),
            attachments: vec![FileAttachment {
                filename: "conversation.txt".to_owned(),
                bytes: text.clone().into_bytes(),
                description: Some("The whole turn".to_owned()),
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
    let leave = || button(NpcAction::Leave, "Walk away", ButtonStyle::Secondary);
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
                        &format!("Ask {}…", one_line(npc, 60)),
                        ButtonStyle::Primary,
                    ),
                    button(NpcAction::Bye, "Bye", ButtonStyle::Secondary),
                ]),
                row(asked),
            ]
        }
        Prompt::YesNo => vec![row(vec![
            button(NpcAction::Yes, "Yes", ButtonStyle::Success),
            button(NpcAction::No, "No", ButtonStyle::Danger),
            leave(),
        ])],
        Prompt::Amount => vec![row(vec![
            button(NpcAction::Amount, "Answer…", ButtonStyle::Primary),
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
                    description: choice.cost.map(|cost| format!("{cost} gold")),
                })
                .collect();
            vec![
                select(id(NpcAction::Menu), "Choose…", options),
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
                            description: Some(trade_description(item)),
                        })
                        .collect();
                    let chunk_id = u32::try_from(chunk_index).unwrap_or(0);
                    select(
                        id(NpcAction::TradeSelect(chunk_id)),
                        "Pick an item, then Buy or Sell",
                        options,
                    )
                })
                .collect();
            let mut buttons = Vec::new();
            if !items.is_empty() {
                buttons.push(button(NpcAction::Buy, "Buy…", ButtonStyle::Success));
                buttons.push(button(NpcAction::Sell, "Sell…", ButtonStyle::Primary));
            }
            buttons.push(button(NpcAction::Done, "Done", ButtonStyle::Secondary));
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

fn trade_description(item: &TradeItem) -> String {
    if item.sell_price > 0 {
        return format!("{} gold; sells back for {}", item.price, item.sell_price);
    }
    format!("{} gold", item.price)
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
