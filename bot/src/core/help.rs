//! `/help [topic]`: a private guide in pages, one button per page. Discord users
//! cannot read the crate READMEs; this is the language and the commands in a few
//! screens.

use super::commands::{CommandSpec, string};
use super::custom_id;
use super::table::{CommandEntry, ComponentFamily, defer_private, defer_update, no_choices};
use super::{
    ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, Message, Reply, Request,
};

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "help",
    spec,
    ack: defer_private,
    run: |_, _, command| Box::pin(async move { Ok(help_command(command)) }),
    autocomplete: no_choices,
    components: &[ComponentFamily {
        kinds: &[PAGE_KIND],
        // A page button shows another page in the same (private) message.
        ack: defer_update,
        run: |_, request, custom_id| Box::pin(async move { Ok(help_button(request, custom_id)) }),
    }],
};

/// `tv1:h:<page key>`: a page button.
const PAGE_KIND: &str = "h";

/// `/help [topic]`: the private guide.
fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "help",
        description: "How to roll and what Tavern can do (only you see it)",
        options: vec![
            string(
                "topic",
                "Which page: roll (the default), macros, chargen, npc, odds",
                10,
            )
            .choices(TOPICS),
        ],
        subcommands: vec![],
        groups: vec![],
    }
}

/// The custom id of the button that shows `page`.
pub fn page_id(page: HelpPage) -> String {
    custom_id::compose(PAGE_KIND, page.key())
}

/// One page of the guide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HelpPage {
    Dice,
    Macros,
    Chargen,
    Npc,
    Odds,
}

impl HelpPage {
    pub const ALL: [HelpPage; 5] = [
        HelpPage::Dice,
        HelpPage::Macros,
        HelpPage::Chargen,
        HelpPage::Npc,
        HelpPage::Odds,
    ];

    /// The topic name (`/help roll`) and the key in the button's custom id.
    pub fn key(self) -> &'static str {
        match self {
            HelpPage::Dice => "roll",
            HelpPage::Macros => "macros",
            HelpPage::Chargen => "chargen",
            HelpPage::Npc => "npc",
            HelpPage::Odds => "odds",
        }
    }

    pub fn from_key(key: &str) -> Option<HelpPage> {
        HelpPage::ALL
            .into_iter()
            .find(|page| page.key().eq_ignore_ascii_case(key))
    }

    fn label(self) -> &'static str {
        match self {
            HelpPage::Dice => "Dice",
            HelpPage::Macros => "Macros & @fields",
            HelpPage::Chargen => "Characters",
            HelpPage::Npc => "NPCs",
            HelpPage::Odds => "Odds",
        }
    }

    fn text(self) -> &'static str {
        match self {
            HelpPage::Dice => DICE,
            HelpPage::Macros => MACROS,
            HelpPage::Chargen => CHARGEN,
            HelpPage::Npc => NPC,
            HelpPage::Odds => ODDS,
        }
    }
}

/// The topics `/help` offers, for the command's choices.
pub const TOPICS: &[&str] = &["roll", "macros", "chargen", "npc", "odds"];

const DICE: &str = "\
**Dice** · `/roll 1d20+5 to hit` · `/roll 4d6kh3` · `/roll 8d6 fire`
**Dice** `3d6` `d20` `4dF` `d%` `d{1,1,2}` `(1d4)d6` · **math** `+ - * / // % ^` `( )` (whole numbers: `/` truncates)
**Functions** `min(1d6, 3)` `max` `abs` `floor(7/2)` `ceil` `round` `sqrt` `pow(2, 3)`
**Keep / drop** `4d6kh3` `2d20kl1` `4d6d1` `8d6ph2` `4d6k>3`
**Explode** `10d10!` `5d6!>=5` `3d6!!` (compound) `3d6!p` (penetrate) `1d10x10` `1d20e20`
**Reroll** `2d6ro1` (once) `4d6rr<3` (until not) `1d20ra1` (and add) `1d6rol1` `4d6u` (unique)
**Clamp** `4d6min2` `4d6max5`
**Count** `6d10>=8` `10d10cs>=8sf1` `6d10t8f1`: the total becomes the number of successes
**Conditions** `h` highest face · `l` lowest · `o` odd · `e` even · `5` · `>=5` · `(1|6)`
**Series and sets** `{1d20, 15}kh1` `{1..6}` `(1d20, 1d20)kh1`
**Labels** `1d20+6 dex save` · `1d20 # to hit` · `3d6 // fire` · tags `2d6[fire] + 1d4[cold]`
**More** `1d20+5 adv` / `dis` · `1d20+5; 2d6+3` (up to 4 rolls) · option `repeat:6` · macros `$fireball`, fields `@STR`
A typo gets a caret under it and the nearest spelling. `/odds` shows the chances of any roll.";

const MACROS: &str = "\
**Macros** name a roll: `/macro set name:fireball expr:8d6 fire`, then `/roll $fireball` \
or `/roll $fireball + 2`.
· Yours by default; `scope:server` makes one for everybody here (server admins or the macro role).
· `/macro list` · `/macro show name:fireball` · `/macro delete name:fireball`
· A macro may use other macros; cycles are refused with the chain that loops.
**@fields** are numbers of the character you play here: `/character use name:Brienne`, \
then `/roll 1d20+@STR_MOD` or `/roll 1d20+@DEX_MOD to hit`.
· `/character show` lists the fields; a roll with macros or fields shows what they stood for.";

const CHARGEN: &str = "\
**Characters** are made by generator programs.
· `/chargen start` runs the server's generator (or `program:NAME`); answer its questions by \
replying to them, or with the Answer button.
· `/chargen status` shows where you are; `/chargen cancel` stops.
· The finished character is stored: `/character list`, `/character show`, `/character use` \
(its fields work in rolls as `@STR`), `/character delete`.
**Server admins** install generators written in BASIC: `/chargen program add name:NAME` \
with a `.bas` file, a code block, or the paste form; `/chargen program list`, `remove`, \
`default`.";

const NPC: &str = "\
**NPCs** are characters players talk to.
· `/talk npc:NAME` starts a conversation; reply to its messages (keywords, menus, yes/no), \
and say `bye` to leave. An idle conversation ends by itself.
**Server admins** install NPCs from GhulScript: `/npc install name:NAME` with a `.ghul` file \
or a code block; `/npc list`, `/npc remove`, `/npc activity` (the script's ACTIVITY code).";

const ODDS: &str = "\
**Odds** are the exact chances of a roll, with a chart: `/odds 4d6kh3`, `/odds 1d20+5 target:15`.
· Every form `/roll` takes, keeps and explosions included (explosions are followed until the \
rest is below one in a trillion).
· The buttons switch the chart: exactly, at least, at most.
· Very large pools answer \"too complex to compute exactly\"; rerolls that depend on the \
other dice (`4d6u`, `1d6rol1`) have no exact odds: roll them with `repeat`.";

/// `/help [topic]`: the page asked for (the dice by default), privately.
fn help_command(command: &Command) -> Vec<Reply> {
    let topic = command.string("topic").unwrap_or("roll").trim();
    let Some(page) = HelpPage::from_key(topic) else {
        return vec![Reply::Interaction(Message::ephemeral(format!(
            "I have no page about `{}`; the topics are {}.",
            topic.replace('`', "'"),
            TOPICS.join(", ")
        )))];
    };
    vec![Reply::Interaction(page_message(page))]
}

/// A button under a page: the page it shows.
fn help_button(request: &Request, custom_id: &str) -> Vec<Reply> {
    let key = custom_id::rest_of(custom_id, PAGE_KIND).unwrap_or("");
    match HelpPage::from_key(key) {
        Some(page) => vec![Reply::Update(page_message(page))],
        None => super::stale_component(request),
    }
}

/// A page with the buttons to the others (its own shown, disabled).
pub fn page_message(page: HelpPage) -> Message {
    let buttons = HelpPage::ALL
        .into_iter()
        .map(|other| {
            Component::Button(Button {
                custom_id: page_id(other),
                label: other.label().to_owned(),
                style: if other == page {
                    ButtonStyle::Primary
                } else {
                    ButtonStyle::Secondary
                },
                disabled: other == page,
            })
        })
        .collect();
    Message::ephemeral(page.text()).with_row(ActionRow(buttons))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_fits_a_message_and_names_its_forms() {
        for page in HelpPage::ALL {
            let message = page_message(page);
            assert!(message.content.chars().count() <= 2_000, "{page:?}");
            assert!(message.ephemeral);
            assert_eq!(HelpPage::from_key(page.key()), Some(page));
        }
        for form in [
            "4d6kh3", "10d10!", "2d6ro1", "4d6min2", "6d10>=8", "adv", "; ",
        ] {
            assert!(DICE.contains(form), "{form}");
        }
    }
}
