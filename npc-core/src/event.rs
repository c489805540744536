//! What a turn produces, as data: events, the prompt the NPC waits on, and how
//! a conversation ended. `Event::to_line` is the canonical transcript text.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a conversation ended (E1..E6, Z1); `as_str` gives the transcript's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    Bye,
    TurnAway,
    Attack,
    Join,
    Exit,
    Left,
    Error,
}

impl EndReason {
    /// `bye`, `turn_away`, `attack`, `join`, `exit`, `left` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Bye => "bye",
            EndReason::TurnAway => "turn_away",
            EndReason::Attack => "attack",
            EndReason::Join => "join",
            EndReason::Exit => "exit",
            EndReason::Left => "left",
            EndReason::Error => "error",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One choice of a MENU, as shown (M1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuChoice {
    /// The label exactly as written in the script; also what the player answers.
    pub label: String,
    /// Gold charged when picked (M3), if the script gives a cost.
    pub cost: Option<i64>,
}

impl fmt::Display for MenuChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cost {
            Some(cost) => write!(f, "{} ({cost} gold)", self.label),
            None => f.write_str(&self.label),
        }
    }
}

/// One item of a TRADE list (T1..T3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TradeItem {
    /// The item tag (`t_iron_helm`); a trade command may name it.
    pub tag: String,
    /// The display name (`iron helm`); a trade command may name it too.
    pub name: String,
    /// What the NPC charges per item.
    pub price: i64,
    /// What the NPC pays per item: `price / 4`; 0 means the NPC will not buy it.
    pub sell_price: i64,
}

/// What the NPC waits for after a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    /// A keyword (in Discord: the "Ask" button and a modal, or a reply).
    Keyword,
    /// `yes` or `no` (two buttons).
    YesNo,
    /// A number (a modal with a number field).
    Amount,
    /// One of these labels (a select menu).
    Menu(Vec<MenuChoice>),
    /// `buy ITEM [Q]`, `sell ITEM [Q]` or `done` (a select menu, Buy/Sell buttons, a modal).
    Trade(Vec<TradeItem>),
    /// Nothing: the conversation is over.
    Ended(EndReason),
}

/// One thing that happened in a turn. `to_line` renders the canonical transcript
/// line of `tavern npc play`; the bot may word things its own way in Discord.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// `[talk NPC]`: the conversation starts.
    Talk { npc: String },
    /// `NPC: text`: SAY, the text verbatim (it must never ping in Discord).
    Say { npc: String, text: String },
    /// `[yes/no]`.
    AskYesNo,
    /// `[amount]`.
    AskAmount,
    /// `[menu] A | B (30 gold)`.
    Menu { choices: Vec<MenuChoice> },
    /// `[trade] iron helm 80, arrow 3`.
    Trade { items: Vec<TradeItem> },
    /// `* No reply.`
    NoReply,
    /// `* NPC turns away.`
    TurnAway { npc: String },
    /// `* NPC attacks!`
    Attack { npc: String },
    /// `* NPC joins your party.`
    Joined { npc: String },
    /// `* NPC is already in your party.`
    AlreadyMember { npc: String },
    /// `* No room in party!`
    PartyFull,
    /// `* You receive N item.`
    Received { item: String, count: i64 },
    /// `* Please answer yes or no.`
    AnswerYesOrNo,
    /// `* Please choose an option.`
    ChooseAnOption,
    /// `* You cannot afford X.`: a menu label or an item's display name.
    CannotAfford { what: String },
    /// `* You buy Q item for G gold.`
    Bought {
        item: String,
        quantity: i64,
        gold: i64,
    },
    /// `* You sell Q item for G gold.`
    Sold {
        item: String,
        quantity: i64,
        gold: i64,
    },
    /// `* NPC does not sell what.` (`what` as typed).
    DoesNotSell { npc: String, what: String },
    /// `* NPC will not buy item.`
    WillNotBuy { npc: String, item: String },
    /// `* You have no item.`
    HaveNone { item: String },
    /// `* Nothing bought.`
    NothingBought,
    /// `* Nothing sold.`
    NothingSold,
    /// `* Say buy, sell or done.`
    NotATradeCommand,
    /// `[apply_effect EFFECT]`: `APPLY_EFFECT` asks the host to apply an effect
    /// of the server's library to the player's character.
    ApplyEffect { npc: String, effect: String },
    /// `[error] message`: a runtime limit stopped the turn (Z1, Z2).
    Error { message: String },
    /// `[end R]`.
    End { reason: EndReason },
}

impl Event {
    /// The canonical transcript line of this event (the table).
    pub fn to_line(&self) -> String {
        match self {
            Event::Talk { npc } => format!("[talk {npc}]"),
            Event::Say { npc, text } => format!("{npc}: {text}"),
            Event::AskYesNo => "[yes/no]".to_string(),
            Event::AskAmount => "[amount]".to_string(),
            Event::Menu { choices } => {
                let shown: Vec<String> = choices.iter().map(MenuChoice::to_string).collect();
                format!("[menu] {}", shown.join(" | "))
            }
            Event::Trade { items } => {
                let shown: Vec<String> = items
                    .iter()
                    .map(|item| format!("{} {}", item.name, item.price))
                    .collect();
                if shown.is_empty() {
                    return "[trade]".to_string();
                }
                format!("[trade] {}", shown.join(", "))
            }
            Event::NoReply => "* No reply.".to_string(),
            Event::TurnAway { npc } => format!("* {npc} turns away."),
            Event::Attack { npc } => format!("* {npc} attacks!"),
            Event::Joined { npc } => format!("* {npc} joins your party."),
            Event::AlreadyMember { npc } => format!("* {npc} is already in your party."),
            Event::PartyFull => "* No room in party!".to_string(),
            Event::Received { item, count } => format!("* You receive {count} {item}."),
            Event::AnswerYesOrNo => "* Please answer yes or no.".to_string(),
            Event::ChooseAnOption => "* Please choose an option.".to_string(),
            Event::CannotAfford { what } => format!("* You cannot afford {what}."),
            Event::Bought {
                item,
                quantity,
                gold,
            } => format!("* You buy {quantity} {item} for {gold} gold."),
            Event::Sold {
                item,
                quantity,
                gold,
            } => format!("* You sell {quantity} {item} for {gold} gold."),
            Event::DoesNotSell { npc, what } => format!("* {npc} does not sell {what}."),
            Event::WillNotBuy { npc, item } => format!("* {npc} will not buy {item}."),
            Event::HaveNone { item } => format!("* You have no {item}."),
            Event::NothingBought => "* Nothing bought.".to_string(),
            Event::NothingSold => "* Nothing sold.".to_string(),
            Event::NotATradeCommand => "* Say buy, sell or done.".to_string(),
            Event::ApplyEffect { effect, .. } => format!("[apply_effect {effect}]"),
            Event::Error { message } => format!("[error] {message}"),
            Event::End { reason } => format!("[end {reason}]"),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// The outcome of one call into a conversation: what happened, then what the NPC waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub events: Vec<Event>,
    pub prompt: Prompt,
}

impl Turn {
    /// True when the conversation is over after this turn.
    pub fn is_over(&self) -> bool {
        matches!(self.prompt, Prompt::Ended(_))
    }
}
