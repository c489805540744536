//! `/help [topic]`: a private guide in pages, one button per page. Discord users
//! cannot read the crate READMEs; this is the language and the commands in a few
//! screens.

use super::commands::{CommandSpec, string};
use super::custom_id;
use super::table::{CommandEntry, ComponentFamily, defer_private, defer_update, no_choices};
use super::{
    ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, Message, Reply, Request,
};
use crate::i18n::{self, Lang};

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "help",
    spec,
    ack: defer_private,
    run: |_, request, command| Box::pin(async move { Ok(help_command(request, command)) }),
    autocomplete: no_choices,
    subcommands: &[],
    typed_replies: None,
    sweep: None,
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
                "Which page: roll (the default), macros, chargen, npc, odds, init",
                // A button's name is a topic too: `Macros & @fields`.
                20,
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
    Init,
}

impl HelpPage {
    pub const ALL: [HelpPage; 6] = [
        HelpPage::Dice,
        HelpPage::Macros,
        HelpPage::Chargen,
        HelpPage::Npc,
        HelpPage::Odds,
        HelpPage::Init,
    ];

    /// The topic name (`/help roll`) and the key in the button's custom id.
    pub fn key(self) -> &'static str {
        match self {
            HelpPage::Dice => "roll",
            HelpPage::Macros => "macros",
            HelpPage::Chargen => "chargen",
            HelpPage::Npc => "npc",
            HelpPage::Odds => "odds",
            HelpPage::Init => "init",
        }
    }

    pub fn from_key(key: &str) -> Option<HelpPage> {
        HelpPage::ALL
            .into_iter()
            .find(|page| page.key().eq_ignore_ascii_case(key))
    }

    /// The page a typed topic names: its key (`init`), or its button's label in
    /// `lang` or in English (`encounters`, `Begegnungen`), case ignored, since the
    /// reader sees the buttons' names.
    pub fn from_topic(topic: &str, lang: Lang) -> Option<HelpPage> {
        HelpPage::from_key(topic).or_else(|| {
            let topic = topic.to_lowercase();
            HelpPage::ALL.into_iter().find(|page| {
                [lang, Lang::En]
                    .into_iter()
                    .any(|lang| page.label(lang).to_lowercase() == topic)
            })
        })
    }

    fn label(self, lang: Lang) -> String {
        match self {
            HelpPage::Dice => i18n::tr(lang, "help-button-dice"),
            HelpPage::Macros => i18n::tr(lang, "help-button-macros"),
            HelpPage::Chargen => i18n::tr(lang, "help-button-chargen"),
            HelpPage::Npc => i18n::tr(lang, "help-button-npc"),
            HelpPage::Odds => i18n::tr(lang, "help-button-odds"),
            HelpPage::Init => i18n::tr(lang, "help-button-init"),
        }
    }

    /// The page itself: markdown in `lang`, the dice notation as in every language.
    pub fn text(self, lang: Lang) -> String {
        match self {
            HelpPage::Dice => i18n::tr(lang, "help-page-dice"),
            HelpPage::Macros => i18n::tr(lang, "help-page-macros"),
            HelpPage::Chargen => i18n::tr(lang, "help-page-chargen"),
            HelpPage::Npc => i18n::tr(lang, "help-page-npc"),
            HelpPage::Odds => i18n::tr(lang, "help-page-odds"),
            HelpPage::Init => i18n::tr(lang, "help-page-init"),
        }
    }
}

/// The topics `/help` offers, for the command's choices.
pub const TOPICS: &[&str] = &["roll", "macros", "chargen", "npc", "odds", "init"];

/// The topics by the names the reader can type: the choices' names in `lang`.
fn topic_names(lang: Lang) -> Vec<String> {
    let option = i18n::commands::option_key(&["help"], "topic");
    TOPICS
        .iter()
        .map(|topic| {
            i18n::attribute(lang, &option, &i18n::commands::choice_attribute(topic))
                .unwrap_or_else(|| (*topic).to_owned())
        })
        .collect()
}

/// `/help [topic]`: the page asked for (the dice by default), privately, in the
/// user's language.
fn help_command(request: &Request, command: &Command) -> Vec<Reply> {
    let lang = super::language::private_language(request);
    let topic = command.string("topic").unwrap_or("roll").trim();
    let Some(page) = HelpPage::from_topic(topic, lang) else {
        return vec![Reply::Interaction(Message::ephemeral(i18n::tr_args(
            lang,
            "help-unknown-topic",
            &[
                ("topic", topic.replace('`', "'").into()),
                ("topics", topic_names(lang).join(", ").into()),
            ],
        )))];
    };
    vec![Reply::Interaction(page_message(lang, page))]
}

/// A button under a page: the page it shows.
fn help_button(request: &Request, custom_id: &str) -> Vec<Reply> {
    let key = custom_id::rest_of(custom_id, PAGE_KIND).unwrap_or("");
    match HelpPage::from_key(key) {
        Some(page) => vec![Reply::Update(page_message(
            super::language::private_language(request),
            page,
        ))],
        None => super::stale_component(request),
    }
}

/// Buttons in one row: Discord's most.
const BUTTONS_PER_ROW: usize = 5;

/// A page with the buttons to the others (its own shown, disabled), five to a row.
pub fn page_message(lang: Lang, page: HelpPage) -> Message {
    let buttons: Vec<Component> = HelpPage::ALL
        .into_iter()
        .map(|other| {
            Component::Button(Button {
                custom_id: page_id(other),
                label: other.label(lang),
                style: if other == page {
                    ButtonStyle::Primary
                } else {
                    ButtonStyle::Secondary
                },
                disabled: other == page,
            })
        })
        .collect();
    buttons
        .chunks(BUTTONS_PER_ROW)
        .fold(Message::ephemeral(page.text(lang)), |message, row| {
            message.with_row(ActionRow(row.to_vec()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_fits_a_message_and_names_its_forms() {
        for lang in Lang::ALL {
            for page in HelpPage::ALL {
                let message = page_message(lang, page);
                assert!(message.content.chars().count() <= 2_000, "{page:?}");
                assert_eq!(message.components.len(), 2, "{page:?}");
                assert!(message.components.iter().all(|row| row.0.len() <= 5));
                assert!(message.ephemeral);
                assert_eq!(HelpPage::from_key(page.key()), Some(page));
            }
            let dice = HelpPage::Dice.text(lang);
            for form in [
                "4d6kh3",
                "10d10!",
                "2d6ro1",
                "4d6min2",
                "6d10>=8",
                "adv",
                "; ",
                "d{1,1,2}",
                "{1d20, 15}kh1",
            ] {
                assert!(dice.contains(form), "{lang:?} {form}");
            }
        }
    }
}
