//! The engine: runs a conversation one player turn at a time.
//!
//! A waiting conversation is an explicit stack of frames (block and statement
//! index, menu loops, a pending end) plus what it waits for; no Rust stack or
//! closure holds script state, so the whole thing is plain serde data that a
//! host can store and restore across restarts.
//!
//! Every turn runs on a copy of the conversation and of the [`World`]; only a
//! turn that reaches a prompt (or an ending) is committed back. A turn stopped
//! by a limit leaves the world exactly as it was (Z2).

use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::event::{EndReason, Event, MenuChoice, Prompt, TradeItem, Turn};
use crate::parser::{fold_label, is_keyword_char};
use crate::script::{BlockId, Parm, Script, Stmt, Ware};
use crate::world::World;

/// The layout version of a stored [`Conversation`].
const STATE_VERSION: u32 = 1;

/// TRADE buys back at a quarter of the price (T3; Nazghul's `MARKUP 4`).
const SELL_DIVISOR: i64 = 4;

const AMOUNT_ESCAPED: i32 = -1;

/// `Conversation::start` was asked for a conversation the script does not define.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the script has no conversation `{0}`")]
pub struct UnknownConversation(pub String);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Frame {
    /// Running a block; `pc` is the next statement.
    Block { block: BlockId, pc: u32 },
    /// A MENU loop: reaching it (its choice done) shows the menu again.
    Menu { menu: u32 },
    /// Reaching it ends the conversation (after BYE's response).
    End { reason: EndReason },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Waiting {
    Keyword,
    YesNo { yes: BlockId, no: BlockId },
    Amount,
    Menu { menu: u32 },
    Trade { trade: u32 },
    Ended { reason: EndReason },
}

/// A conversation between one player and one NPC: everything needed to
/// resume it, serde-serializable (store it while it waits; restore it after a
/// restart and keep calling [`Conversation::input`] with the same script).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conversation {
    version: u32,
    script_hash: u64,
    npc: String,
    conversation: String,
    conversation_index: u32,
    display: String,
    amount: i32,
    stack: Vec<Frame>,
    waiting: Waiting,
}

/// Why a turn stopped before reaching a prompt.
enum Stop {
    Steps(u32),
    Output(usize),
    Broken,
    /// The host raised the turn's cancel flag.
    Cancelled,
}

impl Stop {
    fn message(&self) -> String {
        match self {
            Stop::Steps(limit) => format!(
                "the script ran more than {limit} statements without waiting for the player"
            ),
            Stop::Output(limit) => {
                format!("the script said more than {limit} bytes in one turn")
            }
            Stop::Broken => "the stored conversation does not fit this script".to_string(),
            Stop::Cancelled => "the turn was cancelled".to_string(),
        }
    }
}

/// One turn's scratch space: the world copy it changes and what it has said.
struct Run<'s> {
    script: &'s Script,
    world: World,
    events: Vec<Event>,
    steps: u32,
    output_bytes: usize,
    cancel: Option<&'s AtomicBool>,
}

impl Run<'_> {
    fn emit(&mut self, event: Event) -> Result<(), Stop> {
        let limit = self.script.limits.max_turn_output_bytes;
        self.output_bytes = self
            .output_bytes
            .saturating_add(event.to_line().len())
            .saturating_add(1);
        if self.output_bytes > limit {
            return Err(Stop::Output(limit));
        }
        self.events.push(event);
        Ok(())
    }

    fn step(&mut self) -> Result<(), Stop> {
        let limit = self.script.limits.max_steps;
        if self.steps >= limit {
            return Err(Stop::Steps(limit));
        }
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        self.steps += 1;
        Ok(())
    }
}

impl Conversation {
    /// Starts talking to `npc` (its tag: party membership, activity) through the
    /// script's CONV `conversation` (its flags), shown as `display`. Runs HAIL
    /// (S1) and returns the conversation with the first turn, which opens with
    /// [`Event::Talk`].
    pub fn start(
        script: &Script,
        npc: &str,
        conversation: &str,
        display: &str,
        world: &mut World,
    ) -> Result<(Conversation, Turn), UnknownConversation> {
        Conversation::start_cancellable(script, npc, conversation, display, world, None)
    }

    /// [`Conversation::start`] with a flag the host raises (from another thread,
    /// at its deadline) when it no longer wants the turn: the script stops at its
    /// next statement, as if it had run out of steps (the world is untouched, the
    /// conversation ends with an [`Event::Error`]).
    pub fn start_cancellable(
        script: &Script,
        npc: &str,
        conversation: &str,
        display: &str,
        world: &mut World,
        cancel: Option<&AtomicBool>,
    ) -> Result<(Conversation, Turn), UnknownConversation> {
        let conversation_index = script
            .conversation_index(conversation)
            .ok_or_else(|| UnknownConversation(conversation.to_string()))?;
        let mut talk = Conversation {
            version: STATE_VERSION,
            script_hash: script.hash(),
            npc: npc.to_string(),
            conversation: conversation.to_string(),
            conversation_index,
            display: display.to_string(),
            amount: 0,
            stack: Vec::new(),
            waiting: Waiting::Keyword,
        };
        let hail = script.lookup_special(conversation_index, "hail");
        let mut turn = talk.transact(script, world, cancel, |this, run| {
            if let Some(body) = hail.and_then(|r| script.resp(r)).map(|r| r.body) {
                this.stack.push(Frame::Block { block: body, pc: 0 });
            }
            this.run(run)
        });
        turn.events.insert(
            0,
            Event::Talk {
                npc: display.to_string(),
            },
        );
        Ok((talk, turn))
    }

    /// Feeds one player line to whatever the NPC waits for (a keyword, yes/no,
    /// an amount, a menu choice or a trade command) and runs until the next prompt.
    ///
    /// `world` is changed only if the turn completes; a turn stopped by a limit
    /// leaves it untouched and ends the conversation with [`EndReason::Error`].
    pub fn input(&mut self, script: &Script, line: &str, world: &mut World) -> Turn {
        self.input_cancellable(script, line, world, None)
    }

    /// [`Conversation::input`] with a cancel flag, as [`Conversation::start_cancellable`].
    pub fn input_cancellable(
        &mut self,
        script: &Script,
        line: &str,
        world: &mut World,
        cancel: Option<&AtomicBool>,
    ) -> Turn {
        if let Waiting::Ended { reason } = self.waiting {
            return Turn {
                events: Vec::new(),
                prompt: Prompt::Ended(reason),
            };
        }
        if self.version != STATE_VERSION || self.script_hash != script.hash() {
            return self.fail(Stop::Broken);
        }
        self.transact(script, world, cancel, |this, run| this.feed(run, line))
    }

    /// The player walked away (a session expired, another command came): ends
    /// a waiting conversation without BYE (E6) and returns `[end left]`, or
    /// nothing when it is already over.
    pub fn leave(&mut self) -> Vec<Event> {
        if self.is_over() {
            return Vec::new();
        }
        self.stack.clear();
        self.waiting = Waiting::Ended {
            reason: EndReason::Left,
        };
        vec![Event::End {
            reason: EndReason::Left,
        }]
    }

    /// True once the conversation has ended.
    pub fn is_over(&self) -> bool {
        matches!(self.waiting, Waiting::Ended { .. })
    }

    /// What the conversation waits for now: lets a host redraw its buttons
    /// after restoring a stored conversation.
    pub fn prompt(&self, script: &Script) -> Prompt {
        match &self.waiting {
            Waiting::Keyword => Prompt::Keyword,
            Waiting::YesNo { .. } => Prompt::YesNo,
            Waiting::Amount => Prompt::Amount,
            Waiting::Menu { menu } => Prompt::Menu(menu_choices(script, *menu)),
            Waiting::Trade { trade } => Prompt::Trade(trade_items(script, *trade)),
            Waiting::Ended { reason } => Prompt::Ended(*reason),
        }
    }

    /// The NPC tag given to `start`.
    pub fn npc(&self) -> &str {
        &self.npc
    }

    /// The CONV tag given to `start`.
    pub fn conversation(&self) -> &str {
        &self.conversation
    }

    /// The display name given to `start`.
    pub fn display_name(&self) -> &str {
        &self.display
    }

    /// The AMOUNT parameter of this conversation (A1).
    pub fn amount(&self) -> i32 {
        self.amount
    }

    /// Runs `body` on copies and commits them only if it reaches a prompt (Z2).
    fn transact(
        &mut self,
        script: &Script,
        world: &mut World,
        cancel: Option<&AtomicBool>,
        body: impl FnOnce(&mut Conversation, &mut Run<'_>) -> Result<(), Stop>,
    ) -> Turn {
        let mut draft = self.clone();
        let mut run = Run {
            script,
            world: world.clone(),
            events: Vec::new(),
            steps: 0,
            output_bytes: 0,
            cancel,
        };
        if let Err(stop) = body(&mut draft, &mut run) {
            return self.fail(stop);
        }
        *self = draft;
        *world = run.world;
        Turn {
            events: run.events,
            prompt: self.prompt(script),
        }
    }

    fn fail(&mut self, stop: Stop) -> Turn {
        self.stack.clear();
        self.waiting = Waiting::Ended {
            reason: EndReason::Error,
        };
        Turn {
            events: vec![
                Event::Error {
                    message: stop.message(),
                },
                Event::End {
                    reason: EndReason::Error,
                },
            ],
            prompt: Prompt::Ended(EndReason::Error),
        }
    }

    fn feed(&mut self, run: &mut Run<'_>, line: &str) -> Result<(), Stop> {
        match self.waiting.clone() {
            Waiting::Keyword => self.ask(run, line),
            Waiting::YesNo { yes, no } => match yes_or_no(line) {
                Some(answer) => {
                    let block = if answer { yes } else { no };
                    self.stack.push(Frame::Block { block, pc: 0 });
                    self.run(run)
                }
                None => {
                    run.emit(Event::AnswerYesOrNo)?;
                    run.emit(Event::AskYesNo)
                }
            },
            Waiting::Amount => {
                self.amount = parse_amount(line);
                self.run(run)
            }
            Waiting::Menu { menu } => self.choose(run, menu, line),
            Waiting::Trade { trade } => self.trade(run, trade, line),
            Waiting::Ended { .. } => Ok(()),
        }
    }

    /// A line at the keyword prompt (K1, K2, L1..L3, S2..S4).
    fn ask(&mut self, run: &mut Run<'_>, line: &str) -> Result<(), Stop> {
        let script = run.script;
        let conv = self.conversation_index;
        if line.trim().is_empty() {
            return self.bye(run);
        }
        let found = match first_word(line) {
            None => script.lookup_special(conv, "default"),
            Some(word) if word.to_lowercase() == "bye" => return self.bye(run),
            Some(word) => script
                .lookup_word(conv, word)
                .or_else(|| script.lookup_special(conv, "default")),
        };
        let Some(body) = found.and_then(|r| script.resp(r)).map(|r| r.body) else {
            return run.emit(Event::NoReply);
        };
        self.stack.push(Frame::Block { block: body, pc: 0 });
        self.run(run)
    }

    /// S2: BYE's response runs, then the conversation ends.
    fn bye(&mut self, run: &mut Run<'_>) -> Result<(), Stop> {
        self.stack.push(Frame::End {
            reason: EndReason::Bye,
        });
        let script = run.script;
        let found = script.lookup_special(self.conversation_index, "bye");
        if let Some(body) = found.and_then(|r| script.resp(r)).map(|r| r.body) {
            self.stack.push(Frame::Block { block: body, pc: 0 });
        }
        self.run(run)
    }

    fn end(&mut self, run: &mut Run<'_>, reason: EndReason) -> Result<(), Stop> {
        self.stack.clear();
        self.waiting = Waiting::Ended { reason };
        run.emit(Event::End { reason })
    }

    fn show_menu(&mut self, run: &mut Run<'_>, menu: u32) -> Result<(), Stop> {
        self.waiting = Waiting::Menu { menu };
        run.emit(Event::Menu {
            choices: menu_choices(run.script, menu),
        })
    }

    /// Runs statements until the NPC waits for the player or the conversation ends.
    fn run(&mut self, run: &mut Run<'_>) -> Result<(), Stop> {
        let script = run.script;
        loop {
            let Some(top) = self.stack.last_mut() else {
                self.waiting = Waiting::Keyword;
                return Ok(());
            };
            let (block, pc) = match top {
                Frame::End { reason } => {
                    let reason = *reason;
                    return self.end(run, reason);
                }
                Frame::Menu { menu } => {
                    let menu = *menu;
                    return self.show_menu(run, menu);
                }
                Frame::Block { block, pc } => {
                    let at = (*block, *pc);
                    *pc = pc.saturating_add(1);
                    at
                }
            };
            let Some(statement) = script.stmt(block, pc) else {
                self.stack.pop();
                continue;
            };
            run.step()?;
            if let Some(waiting) = self.execute(run, statement)? {
                self.waiting = waiting;
                return Ok(());
            }
        }
    }

    /// Executes one statement; returns what to wait for when it is a prompt
    /// or an ending.
    fn execute(&mut self, run: &mut Run<'_>, statement: &Stmt) -> Result<Option<Waiting>, Stop> {
        let script = run.script;
        match statement {
            Stmt::Say(text) => run.emit(Event::Say {
                npc: self.display.clone(),
                text: text.clone(),
            })?,
            Stmt::Trade(trade) => {
                run.emit(Event::Trade {
                    items: trade_items(script, *trade),
                })?;
                return Ok(Some(Waiting::Trade { trade: *trade }));
            }
            Stmt::TurnAway => {
                let npc = self.display.clone();
                return self.finish(run, Some(Event::TurnAway { npc }), EndReason::TurnAway);
            }
            Stmt::Attack => {
                let npc = self.display.clone();
                return self.finish(run, Some(Event::Attack { npc }), EndReason::Attack);
            }
            Stmt::Exit => return self.finish(run, None, EndReason::Exit),
            Stmt::Join => {
                if run.world.has_member(&self.npc) {
                    run.emit(Event::AlreadyMember {
                        npc: self.display.clone(),
                    })?;
                } else if run.world.party.len() >= script.limits.max_party {
                    run.emit(Event::PartyFull)?;
                } else {
                    run.world.party.push(self.npc.clone());
                    let npc = self.display.clone();
                    return self.finish(run, Some(Event::Joined { npc }), EndReason::Join);
                }
            }
            Stmt::GetAmount => {
                run.emit(Event::AskAmount)?;
                return Ok(Some(Waiting::Amount));
            }
            Stmt::GetYesNo(yes, no) => {
                run.emit(Event::AskYesNo)?;
                return Ok(Some(Waiting::YesNo { yes: *yes, no: *no }));
            }
            Stmt::Break => {
                // Leave the innermost menu loop (M4); the load check puts every
                // BREAK inside one.
                while let Some(frame) = self.stack.pop() {
                    if matches!(frame, Frame::Menu { .. }) {
                        break;
                    }
                }
            }
            Stmt::SetFlag(flag) => run.world.flags.set(&self.conversation, *flag, true),
            Stmt::ClearFlag(flag) => run.world.flags.set(&self.conversation, *flag, false),
            Stmt::TakeGold(count) => {
                let count = match count {
                    Some(count) => i64::from(*count),
                    None => i64::from(self.amount),
                };
                if count > 0 && run.world.gold > 0 {
                    run.world.gold = run.world.gold.saturating_sub(count).max(0);
                }
            }
            Stmt::ChangeParm(parm, delta) => {
                let value = self.read(&run.world, *parm);
                let changed = change(value, i64::from(*delta));
                self.write(&mut run.world, *parm, changed);
            }
            Stmt::SetParm(parm, value) => self.write(&mut run.world, *parm, i64::from(*value)),
            Stmt::TakeItem(item, count) => {
                let held = run.world.item_count(item);
                if held > 0 {
                    let taken = held.min(i64::from(*count));
                    run.world.set_item_count(item, held - taken);
                }
            }
            Stmt::GiveItem(item, count) => {
                let held = run.world.item_count(item);
                run.world
                    .set_item_count(item, held.saturating_add(i64::from(*count)));
                run.emit(Event::Received {
                    item: crate::item_display_name(item),
                    count: i64::from(*count),
                })?;
            }
            Stmt::ApplyEffect(effect) => run.emit(Event::ApplyEffect {
                npc: self.display.clone(),
                effect: effect.clone(),
            })?,
            Stmt::CheckParm(parm, op, value, yes, no) => {
                let held = op.holds(self.read(&run.world, *parm), i64::from(*value));
                self.branch(held, *yes, *no);
            }
            Stmt::CheckFlag(flag, yes, no) => {
                let held = run.world.flags.is_set(&self.conversation, *flag);
                self.branch(held, *yes, *no);
            }
            Stmt::CheckItem(item, op, value, yes, no) => {
                let held = op.holds(run.world.item_count(item), i64::from(*value));
                self.branch(held, *yes, *no);
            }
            Stmt::CheckMember(npc_tag, yes, no) => {
                let held = run.world.has_member(npc_tag);
                self.branch(held, *yes, *no);
            }
            Stmt::Menu(menu) => {
                self.stack.push(Frame::Menu { menu: *menu });
                self.show_menu(run, *menu)?;
                return Ok(Some(self.waiting.clone()));
            }
            Stmt::Call(resp) => {
                let body = script.resp(*resp).ok_or(Stop::Broken)?.body;
                self.stack.push(Frame::Block { block: body, pc: 0 });
            }
        }
        Ok(None)
    }

    /// An ending statement: its announcement, then `[end R]`, at once (E1..E4).
    fn finish(
        &mut self,
        run: &mut Run<'_>,
        announcement: Option<Event>,
        reason: EndReason,
    ) -> Result<Option<Waiting>, Stop> {
        if let Some(event) = announcement {
            run.emit(event)?;
        }
        self.end(run, reason)?;
        Ok(Some(self.waiting.clone()))
    }

    fn branch(&mut self, condition: bool, yes: BlockId, no: BlockId) {
        let block = if condition { yes } else { no };
        self.stack.push(Frame::Block { block, pc: 0 });
    }

    fn read(&self, world: &World, parm: Parm) -> i64 {
        match parm {
            Parm::Amount => i64::from(self.amount),
            Parm::Gold => world.gold,
            Parm::Food => world.food,
            Parm::Activity => i64::from(world.activity),
            Parm::Script(id) => i64::from(world.param(id)),
        }
    }

    fn write(&mut self, world: &mut World, parm: Parm, value: i64) {
        let narrow = i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX });
        match parm {
            Parm::Amount => self.amount = narrow,
            Parm::Gold => world.gold = value,
            Parm::Food => world.food = value,
            // The load check refuses writes to ACTIVITY (G3).
            Parm::Activity => {}
            Parm::Script(id) => world.set_param(id, narrow),
        }
    }

    /// A line at a MENU (M1..M3).
    fn choose(&mut self, run: &mut Run<'_>, menu: u32, line: &str) -> Result<(), Stop> {
        let script = run.script;
        let wanted = fold_label(line);
        let Some(choice) = script
            .menu(menu)
            .ok_or(Stop::Broken)?
            .choices
            .iter()
            .find(|choice| fold_label(&choice.label) == wanted)
        else {
            run.emit(Event::ChooseAnOption)?;
            return self.show_menu(run, menu);
        };
        if let Some(cost) = choice.cost.map(i64::from) {
            if cost > run.world.gold {
                run.emit(Event::CannotAfford {
                    what: choice.label.clone(),
                })?;
                return self.show_menu(run, menu);
            }
            run.world.gold -= cost;
        }
        self.stack.push(Frame::Block {
            block: choice.body,
            pc: 0,
        });
        self.run(run)
    }

    /// A line at a TRADE (T1..T4).
    fn trade(&mut self, run: &mut Run<'_>, trade: u32, line: &str) -> Result<(), Stop> {
        let wares = run.script.trade(trade).ok_or(Stop::Broken)?;
        let Some(command) = TradeCommand::parse(line) else {
            return run.emit(Event::NotATradeCommand);
        };
        let (buying, what, quantity) = match command {
            TradeCommand::Done => return self.run(run),
            TradeCommand::Buy { what, quantity } => (true, what, quantity),
            TradeCommand::Sell { what, quantity } => (false, what, quantity),
        };
        let ware = find_ware(wares, &what);
        let npc = self.display.clone();
        if buying {
            buy(run, ware, what, quantity, npc)
        } else {
            sell(run, ware, what, quantity, npc)
        }
    }
}

fn buy(
    run: &mut Run<'_>,
    ware: Option<&Ware>,
    what: String,
    quantity: i64,
    npc: String,
) -> Result<(), Stop> {
    let Some(ware) = ware else {
        return run.emit(Event::DoesNotSell { npc, what });
    };
    if quantity == 0 {
        return run.emit(Event::NothingBought);
    }
    let price = i64::from(ware.price);
    if price > run.world.gold {
        return run.emit(Event::CannotAfford {
            what: ware.name.clone(),
        });
    }
    let quantity = match run.world.gold.checked_div(price) {
        Some(affordable) => quantity.min(affordable),
        None => quantity,
    };
    let gold = quantity.saturating_mul(price);
    run.world.gold -= gold;
    let held = run.world.item_count(&ware.tag);
    run.world
        .set_item_count(&ware.tag, held.saturating_add(quantity));
    run.emit(Event::Bought {
        item: ware.name.clone(),
        quantity,
        gold,
    })
}

fn sell(
    run: &mut Run<'_>,
    ware: Option<&Ware>,
    what: String,
    quantity: i64,
    npc: String,
) -> Result<(), Stop> {
    let sell_price = ware.map(|w| i64::from(w.price) / SELL_DIVISOR).unwrap_or(0);
    let ware = match ware {
        Some(ware) if sell_price > 0 => ware,
        Some(ware) => {
            return run.emit(Event::WillNotBuy {
                npc,
                item: ware.name.clone(),
            });
        }
        None => return run.emit(Event::WillNotBuy { npc, item: what }),
    };
    if quantity == 0 {
        return run.emit(Event::NothingSold);
    }
    let held = run.world.item_count(&ware.tag);
    if held <= 0 {
        return run.emit(Event::HaveNone {
            item: ware.name.clone(),
        });
    }
    let quantity = quantity.min(held);
    let gold = quantity.saturating_mul(sell_price);
    run.world.gold = run.world.gold.saturating_add(gold);
    run.world.set_item_count(&ware.tag, held - quantity);
    run.emit(Event::Sold {
        item: ware.name.clone(),
        quantity,
        gold,
    })
}

/// A line typed at a TRADE prompt.
#[derive(Debug, PartialEq, Eq)]
enum TradeCommand {
    Buy { what: String, quantity: i64 },
    Sell { what: String, quantity: i64 },
    Done,
}

impl TradeCommand {
    /// `buy ITEM [Q]`, `sell ITEM [Q]` or `done`, words case-insensitive; ITEM
    /// may have several words (a display name); Q is a trailing integer.
    fn parse(line: &str) -> Option<TradeCommand> {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let verb = words.first()?.to_lowercase();
        if verb == "done" {
            return (words.len() == 1).then_some(TradeCommand::Done);
        }
        if verb != "buy" && verb != "sell" {
            return None;
        }
        words.remove(0);
        let mut quantity = 1;
        if words.len() >= 2
            && let Some(last) = words.last().and_then(|w| parse_quantity(w))
        {
            quantity = last?;
            words.pop();
        }
        if words.is_empty() {
            return None;
        }
        let what = words.join(" ");
        Some(if verb == "buy" {
            TradeCommand::Buy { what, quantity }
        } else {
            TradeCommand::Sell { what, quantity }
        })
    }
}

/// `Some(Some(q))` for a count (saturating), `Some(None)` for a negative
/// number (no valid command), `None` when the word is no number at all.
fn parse_quantity(word: &str) -> Option<Option<i64>> {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative && digits.bytes().any(|b| b != b'0') {
        return Some(None);
    }
    let value = digits.bytes().fold(0i64, |acc, digit| {
        acc.saturating_mul(10)
            .saturating_add(i64::from(digit - b'0'))
    });
    Some(Some(value))
}

fn find_ware<'w>(wares: &'w [Ware], what: &str) -> Option<&'w Ware> {
    let wanted = what.to_lowercase();
    wares
        .iter()
        .find(|ware| ware.tag.to_lowercase() == wanted || ware.name.to_lowercase() == wanted)
}

fn menu_choices(script: &Script, menu: u32) -> Vec<MenuChoice> {
    script
        .menu(menu)
        .map(|menu| {
            menu.choices
                .iter()
                .map(|choice| MenuChoice {
                    label: choice.label.clone(),
                    cost: choice.cost.map(i64::from),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn trade_items(script: &Script, trade: u32) -> Vec<TradeItem> {
    script
        .trade(trade)
        .unwrap_or(&[])
        .iter()
        .map(|ware| TradeItem {
            tag: ware.tag.clone(),
            name: ware.name.clone(),
            price: i64::from(ware.price),
            sell_price: i64::from(ware.price) / SELL_DIVISOR,
        })
        .collect()
}

/// K1: the first run of Unicode letters, digits or `_`: the word of a line the
/// keyword prompt looks up (a host that maps its players' words to the engine's
/// reads the same word).
pub fn first_word(line: &str) -> Option<&str> {
    let start = line.find(is_keyword_char)?;
    let rest = line.get(start..)?;
    let end = rest
        .find(|c: char| !is_keyword_char(c))
        .unwrap_or(rest.len());
    rest.get(..end)
}

/// Y1: yes, y, no, n in any case, trimmed.
fn yes_or_no(line: &str) -> Option<bool> {
    match line.trim().to_lowercase().as_str() {
        "yes" | "y" => Some(true),
        "no" | "n" => Some(false),
        _ => None,
    }
}

/// A1: decimal digits only, at most 2147483647; anything else is -1.
fn parse_amount(line: &str) -> i32 {
    let trimmed = line.trim();
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
        return AMOUNT_ESCAPED;
    }
    trimmed.parse::<i32>().unwrap_or(AMOUNT_ESCAPED)
}

/// N2: adds with saturation at 2147483647; a decrease stops at 0, and leaves a
/// value already below 0 as it is.
fn change(value: i64, delta: i64) -> i64 {
    let ceiling = i64::from(i32::MAX);
    if delta >= 0 {
        if value >= ceiling {
            return value;
        }
        return value.saturating_add(delta).min(ceiling);
    }
    if value < 0 {
        return value;
    }
    value.saturating_add(delta).max(0)
}
