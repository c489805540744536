//! `/coin`: flips a coin, counts the flip in the flipper's tally and offers
//! "Flip again", which flips for whoever presses it.

use rand::Rng;

use super::commands::CommandSpec;
use super::context::Context;
use super::custom_id;
use super::table::{CommandEntry, ComponentFamily, no_choices};
use super::text::escape_markdown;
use super::{
    Ack, ActionRow, Button, ButtonStyle, Component, CoreSettings, Message, Reply, Request,
};
use crate::i18n;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "coin",
    spec,
    // A public answer; should the database be slow, a public "thinking…".
    ack: |_| Ack::Defer { ephemeral: false },
    run: |cx, request, _| Box::pin(cx.flip_coin(request)),
    autocomplete: no_choices,
    subcommands: &[],
    typed_replies: None,
    components: &[ComponentFamily {
        kinds: &[AGAIN_KIND],
        // "Flip again" posts a new message, as `/coin` does.
        ack: |_, _| Ack::Defer { ephemeral: false },
        run: |cx, request, _| Box::pin(cx.flip_coin(request)),
    }],
};

/// "Flip again": `tv1:cf:`, nothing more (the tally is the presser's).
const AGAIN_KIND: &str = "cf";

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "coin",
        description: "Flip a coin",
        options: vec![],
        subcommands: vec![],
        groups: vec![],
    }
}

/// The custom id of "Flip again" (the family test builds it too).
pub fn again_id() -> String {
    custom_id::compose(AGAIN_KIND, "")
}

impl Context {
    async fn flip_coin(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        // The RNG's guard ends with this statement: it must not live across an await.
        let heads = self.rng().random_bool(0.5);
        // Stored before the answer is built, so the answer tells stored state.
        let (heads_so_far, tails_so_far) = self
            .storage
            .count_coin_flip(request.place(), request.user.id, heads)
            .await?;
        // The channel sees the answer: the server's language.
        let lang = self.language(request, true).await?;
        let face = if heads { "heads" } else { "tails" };
        let again = Button {
            custom_id: again_id(),
            label: i18n::tr(lang, "coin-again"),
            style: ButtonStyle::Secondary,
            disabled: false,
        };
        let message = Message::text(i18n::tr_args(
            lang,
            "coin-flipped",
            &[
                ("name", escape_markdown(&request.user.name).into()),
                ("face", face.into()),
                ("heads", heads_so_far.into()),
                ("tails", tails_so_far.into()),
                ("flips", (heads_so_far + tails_so_far).into()),
            ],
        ))
        .with_row(ActionRow(vec![Component::Button(again)]));
        Ok(vec![Reply::Interaction(message)])
    }
}
