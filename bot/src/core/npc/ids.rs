//! Custom ids of a conversation's components: `tv1:n<action>:<conversation>:<step>`
//! (base 36), plus the keyword or the item for the actions that need one. The step
//! makes every button of an earlier prompt stale.

use crate::core::Ack;
use crate::core::custom_id::{MAX_LEN, from_base36, to_base36};

const PREFIX: &str = "tv1:";

/// Which component of which prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpcId {
    pub conversation: i64,
    pub step: i64,
    pub action: NpcAction,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NpcAction {
    /// "Ask…": opens the keyword modal.
    Ask,
    /// The keyword modal.
    AskModal,
    /// A keyword asked before, as a button.
    Keyword(String),
    Bye,
    Yes,
    No,
    /// "Answer…" of GET_AMOUNT: opens the amount modal.
    Amount,
    AmountModal,
    /// The select menu of a MENU.
    Menu,
    /// The select menu (one of up to four) of a TRADE list.
    TradeSelect(u32),
    /// "Buy…" / "Sell…": open the quantity modal for the picked item.
    Buy,
    Sell,
    /// The quantity modal: sell or buy, and the item's index in the list.
    Quantity {
        sell: bool,
        item: u32,
    },
    /// "Done" of a TRADE.
    Done,
    /// "Walk away": ends the conversation without BYE (E6).
    Leave,
}

/// Every kind of id a conversation posts (the codes of [`NpcAction`]), which route
/// a component to the conversation's handler.
pub(super) const KINDS: &[&str] = &[
    "na", "nam", "nk", "nb", "ny", "nn", "nq", "nqm", "nm", "nt", "nu", "ns", "nx", "nd", "nl",
];

impl NpcAction {
    fn code(&self) -> &'static str {
        match self {
            NpcAction::Ask => "na",
            NpcAction::AskModal => "nam",
            NpcAction::Keyword(_) => "nk",
            NpcAction::Bye => "nb",
            NpcAction::Yes => "ny",
            NpcAction::No => "nn",
            NpcAction::Amount => "nq",
            NpcAction::AmountModal => "nqm",
            NpcAction::Menu => "nm",
            NpcAction::TradeSelect(_) => "nt",
            NpcAction::Buy => "nu",
            NpcAction::Sell => "ns",
            NpcAction::Quantity { .. } => "nx",
            NpcAction::Done => "nd",
            NpcAction::Leave => "nl",
        }
    }
}

impl NpcId {
    pub fn new(conversation: i64, step: i64, action: NpcAction) -> NpcId {
        NpcId {
            conversation,
            step,
            action,
        }
    }

    /// The id, or `None` when it would exceed Discord's 100 characters (a long
    /// keyword; its button is left out).
    pub fn encode(&self) -> Option<String> {
        let mut id = format!(
            "{PREFIX}{}:{}:{}",
            self.action.code(),
            to_base36(self.conversation),
            to_base36(self.step)
        );
        match &self.action {
            NpcAction::Keyword(keyword) => {
                id.push(':');
                id.push_str(keyword);
            }
            NpcAction::TradeSelect(chunk) => id.push_str(&format!(":{chunk}")),
            NpcAction::Quantity { sell, item } => {
                id.push_str(&format!(":{}{item}", if *sell { 's' } else { 'b' }));
            }
            _ => {}
        }
        (id.chars().count() <= MAX_LEN).then_some(id)
    }

    /// Reads an id of ours; `None` for anything else (other commands' ids too).
    pub fn decode(text: &str) -> Option<NpcId> {
        let rest = text.strip_prefix(PREFIX)?;
        let mut parts = rest.splitn(4, ':');
        let code = parts.next()?;
        let conversation = from_base36(parts.next()?)?;
        let step = from_base36(parts.next()?)?;
        let extra = parts.next();
        let action = match (code, extra) {
            ("na", None) => NpcAction::Ask,
            ("nam", None) => NpcAction::AskModal,
            ("nk", Some(keyword)) if !keyword.is_empty() => NpcAction::Keyword(keyword.to_owned()),
            ("nb", None) => NpcAction::Bye,
            ("ny", None) => NpcAction::Yes,
            ("nn", None) => NpcAction::No,
            ("nq", None) => NpcAction::Amount,
            ("nqm", None) => NpcAction::AmountModal,
            ("nm", None) => NpcAction::Menu,
            ("nt", Some(chunk)) => NpcAction::TradeSelect(chunk.parse().ok()?),
            ("nu", None) => NpcAction::Buy,
            ("ns", None) => NpcAction::Sell,
            ("nx", Some(item)) => {
                let sell = match item.get(..1)? {
                    "s" => true,
                    "b" => false,
                    _ => return None,
                };
                NpcAction::Quantity {
                    sell,
                    item: item.get(1..)?.parse().ok()?,
                }
            }
            ("nd", None) => NpcAction::Done,
            ("nl", None) => NpcAction::Leave,
            _ => return None,
        };
        Some(NpcId {
            conversation,
            step,
            action,
        })
    }

    /// How a transport acknowledges this component: the buttons that open a modal
    /// must answer with it at once; everything else is a turn, stored before the NPC's
    /// next message goes out.
    pub fn ack(&self) -> Ack {
        match self.action {
            NpcAction::Ask | NpcAction::Amount | NpcAction::Buy | NpcAction::Sell => Ack::Immediate,
            _ => Ack::DeferUpdate,
        }
    }
}
