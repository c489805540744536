//! Game masters at the table: `/roll … to:gm`, the GM channel, the GM role and the
//! **Reveal** button.
//!
//! A roll for the GM is rolled as any `/roll` (macros, `;`, `adv`, `repeat`,
//! `@fields`); only where its result goes differs. The channel sees who rolls what,
//! without the result; the GM channel gets the whole breakdown with a **Reveal**
//! button. The hidden result waits in `button_states` (kind [`REVEAL_KIND`]); the
//! first permitted press deletes it there, so a second press is stale.
//!
//! Who is a GM: a member with the server's GM role (`/config gm-role`) or anyone who
//! may administer Tavern here (Manage Server, or the macro role). Only a GM may press
//! **Reveal**, not the roller: the result is the GM's to tell, and a roller who could
//! reveal it could also peek at it by revealing.

use super::super::context::Context;
use super::super::custom_id;
use super::super::roll_line::RollAgain;
use super::super::table::{ComponentFamily, defer_update};
use super::super::text::{MESSAGE_LIMIT, escape_markdown, one_line, truncate};
use super::super::{
    ActionRow, AnswerLink, Button, ButtonStyle, Component, Message, Reply, Request, Track,
    ephemeral,
};
use crate::i18n::{self, Lang};

/// The custom-id kind of the **Reveal** button, and the `button_states` kind of the
/// result it reveals.
pub(super) const REVEAL_KIND: &str = "gm";

/// The **Reveal** button's family (registered under `/roll`, which posts it).
pub(super) const REVEAL: ComponentFamily = ComponentFamily {
    kinds: &[REVEAL_KIND],
    ack: defer_update,
    run: |cx, request, custom_id| Box::pin(cx.reveal_button(request, custom_id)),
};

/// The custom id of the **Reveal** button of stored roll `state_id`.
pub fn reveal_id(state_id: i64) -> String {
    custom_id::with_state(REVEAL_KIND, state_id)
}

/// A roll waiting in the GM channel for its **Reveal**.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Hidden {
    /// Where it was rolled: the reveal goes there.
    channel_id: i64,
    roller_id: i64,
    roller: String,
    /// The roll's text with its result, as the channel would have seen it.
    roll: String,
    /// The GM channel's message, which the reveal replaces without its button.
    gm_text: String,
    /// Where in `gm_text` the channel's link ends ([`AnswerLink`]); the link is
    /// completed there once the channel's line is posted.
    #[serde(default)]
    link_at: Option<usize>,
}

impl Context {
    /// Where a roll for the GM goes, once rolled: `content` is the whole answer
    /// (header and breakdown) in the server's language.
    pub(super) async fn gm_roll(
        &self,
        request: &Request,
        params: &RollAgain,
        content: String,
    ) -> anyhow::Result<Vec<Reply>> {
        let private = self.language(request, false).await?;
        let Some(guild_id) = request.guild_id else {
            let note = i18n::tr(private, "gm-roll-in-dms");
            return Ok(ephemeral(truncate(
                &format!("{note}\n{content}"),
                MESSAGE_LIMIT,
            )));
        };
        let Some(gm_channel) = self.storage.gm_channel(guild_id).await? else {
            // Without a GM channel nobody else may learn the result: it stays the
            // roller's, with how to set one.
            let note = i18n::tr(private, "gm-roll-no-channel");
            return Ok(ephemeral(truncate(
                &format!("{note}\n{content}"),
                MESSAGE_LIMIT,
            )));
        };
        let public = self.language(request, true).await?;
        let name = escape_markdown(&request.user.name);
        let header = i18n::tr_args(
            public,
            "gm-roll-header",
            &[
                ("name", name.clone().into()),
                ("channel", request.channel_id.to_string().into()),
                ("link", channel_link(guild_id, request.channel_id).into()),
            ],
        );
        // The header must survive: the breakdown is what gets cut (and the answer's
        // id, some twenty bytes, still fits).
        let gm_text = truncate(&format!("{header}\n{content}"), MESSAGE_LIMIT - 200);
        let gm_player = self.is_gm(request).await?;
        // The link ends the header's last link to the channel (the name comes first):
        // the line in the channel, when there is one, is linked there.
        let link = channel_link(guild_id, request.channel_id);
        let link_at = (!gm_player)
            .then(|| header.rfind(&link).map(|start| start + link.len()))
            .flatten();
        let hidden = Hidden {
            channel_id: request.channel_id,
            roller_id: request.user.id,
            roller: request.user.name.clone(),
            roll: content,
            gm_text: gm_text.clone(),
            link_at,
        };
        let state_id = self.store_button_state(REVEAL_KIND, &hidden).await?;
        let gm_message = Message {
            content: gm_text,
            track: Some(Track::GmRoll { state_id }),
            answer_link: link_at.map(|at| AnswerLink { at }),
            ..Message::default()
        }
        .with_row(ActionRow(vec![Component::Button(Button {
            custom_id: reveal_id(state_id),
            label: i18n::tr(public, "gm-reveal-button"),
            style: ButtonStyle::Primary,
            disabled: false,
        })]));
        // A GM's own secret roll leaves no trace in the channel.
        let in_channel = match gm_player {
            true => Message::ephemeral(i18n::tr_args(
                private,
                "gm-roll-sent",
                &[("channel", gm_channel.to_string().into())],
            )),
            false => Message {
                track: Some(Track::GmAnswer { state_id }),
                ..Message::text(i18n::tr_args(
                    public,
                    "gm-roll-line",
                    &[
                        ("name", name.into()),
                        ("what", what_was_rolled(params).into()),
                    ],
                ))
            },
        };
        Ok(vec![
            Reply::Interaction(in_channel),
            Reply::Channel {
                channel_id: gm_channel,
                message: gm_message,
            },
        ])
    }

    /// The roller's private copy of a roll the GM channel refused (the bot may not
    /// post there), in `lang`; its **Reveal** is gone. `None` when the track is not a
    /// GM roll or the roll is no longer stored.
    pub(in crate::core) async fn undelivered_gm_roll(
        &self,
        track: Track,
        lang: Lang,
        permission: &str,
    ) -> anyhow::Result<Option<String>> {
        let Track::GmRoll { state_id } = track else {
            return Ok(None);
        };
        let Some(hidden) = self.hidden(state_id).await? else {
            return Ok(None);
        };
        self.storage.delete_button_state(state_id).await?;
        let note = i18n::tr_args(
            lang,
            "gm-channel-refused",
            &[("permission", permission.into())],
        );
        Ok(Some(truncate(
            &format!("{note}\n{}", hidden.roll),
            MESSAGE_LIMIT,
        )))
    }

    /// The channel's line of roll `state_id` was posted as message `answer_id`: the
    /// stored GM message links it, so that the reveal, which replaces the GM
    /// channel's message, keeps the link.
    pub(in crate::core) async fn gm_answer_sent(
        &self,
        state_id: i64,
        answer_id: i64,
    ) -> anyhow::Result<()> {
        let Some(mut hidden) = self.hidden(state_id).await? else {
            return Ok(());
        };
        let mut linked = Message {
            content: hidden.gm_text,
            answer_link: hidden.link_at.take().map(|at| AnswerLink { at }),
            ..Message::default()
        };
        linked.link_answer(answer_id);
        hidden.gm_text = linked.content;
        self.storage
            .set_button_payload(state_id, &serde_json::to_string(&hidden)?)
            .await?;
        Ok(())
    }

    async fn hidden(&self, state_id: i64) -> anyhow::Result<Option<Hidden>> {
        let Some(state) = self.storage.button_state(state_id).await? else {
            return Ok(None);
        };
        if state.kind != REVEAL_KIND {
            return Ok(None);
        }
        Ok(serde_json::from_str(&state.payload).ok())
    }

    /// **Reveal**: a GM posts the result in the channel it was rolled in, once.
    async fn reveal_button(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(state_id) = custom_id::state_of(custom_id, REVEAL_KIND) else {
            return Ok(super::super::stale_component(request));
        };
        let Some(hidden) = self.hidden(state_id).await? else {
            return Ok(super::super::stale_component(request));
        };
        if !self.is_gm(request).await? {
            let private = self.language(request, false).await?;
            return Ok(ephemeral(i18n::tr(private, "gm-reveal-not-allowed")));
        }
        // Whoever deletes the row reveals; a press racing this one finds it gone.
        if !self.storage.delete_button_state(state_id).await? {
            return Ok(super::super::stale_component(request));
        }
        let public = self.language(request, true).await?;
        let by = escape_markdown(&request.user.name);
        let revealed = i18n::tr_args(
            public,
            "gm-revealed",
            &[
                ("name", escape_markdown(&hidden.roller).into()),
                ("by", by.clone().into()),
            ],
        );
        let note = i18n::tr_args(public, "gm-revealed-note", &[("by", by.into())]);
        tracing::debug!(
            roller = hidden.roller_id,
            gm = request.user.id,
            "a GM roll was revealed"
        );
        Ok(vec![
            Reply::Update(Message::text(format!("{}\n{note}", hidden.gm_text))),
            Reply::Channel {
                channel_id: hidden.channel_id,
                message: Message::text(truncate(
                    &format!("{revealed}\n{}", hidden.roll),
                    MESSAGE_LIMIT,
                )),
            },
        ])
    }
}

/// What the channel sees of a roll for the GM: its label and expression, no result.
fn what_was_rolled(params: &RollAgain) -> String {
    let expr = format!("`{}`", one_line(&params.expr, 200).replace('`', "'"));
    let expr = match params.repeat {
        1 => expr,
        times => format!("{expr} ×{times}"),
    };
    match &params.label {
        Some(label) => format!("**{}** ({expr})", escape_markdown(label)),
        None => expr,
    }
}

/// Discord's link to a channel of a server (a message's link adds `/{message}`).
fn channel_link(guild_id: i64, channel_id: i64) -> String {
    format!("https://discord.com/channels/{guild_id}/{channel_id}")
}
