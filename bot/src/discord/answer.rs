//! Carrying out the core's replies on Discord, within Discord's rules.
//!
//! An interaction must be acknowledged within 3 seconds. The core's answer is awaited
//! for `defer_after`; when it is ready by then it goes out as the response itself
//! (callback type 4, a modal, or autocomplete choices). When it is not, and
//! [`Core::ack`] allows it, the interaction is deferred (type 5 "thinking", or type 6
//! for components and modal submits) and the answer edits the placeholder or follows
//! up. The "Answer" button's modal is built without the database and is always the
//! first response. Regular channel messages (generator prompts) go out with the bot
//! token, and the id each gets is reported back with [`Core::message_sent`].

use std::num::NonZeroU64;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt as _;
use serenity::all::{
    AttachmentId, ChannelId, CreateInteractionResponse, CreateInteractionResponseMessage,
    CreateMessage, Http, InteractionId, MessageId, MessageReference, PartialChannel, Permissions,
};
use serenity::builder::Builder as _;
use std::panic::AssertUnwindSafe;
use tokio::task::JoinHandle;

use super::callback::{CallbackError, Callbacks};
use super::queue::{self, Place, PreviousDone};
use super::{Shared, outgoing};
use crate::core::language::private_language;
use crate::core::{Ack, Core, Message, Reply, Request, internal_error_text};
use crate::i18n::{self, Lang};
use crate::metrics::Metrics;

/// The interaction being answered.
pub(super) struct Interaction {
    pub(super) id: InteractionId,
    pub(super) token: String,
    pub(super) kind: InteractionKind,
    /// When the gateway delivered it: Discord's deadline counts from about then.
    pub(super) received: tokio::time::Instant,
    /// What the bot may do in the interaction's channel, to name what a refused post
    /// lacked.
    pub(super) access: ChannelAccess,
    /// The files of the message whose component was used: an update keeps them.
    pub(super) kept_files: Vec<AttachmentId>,
}

/// The bot's permissions in an interaction's channel, as Discord tells them
/// (`app_permissions`), and whether the channel is a thread.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ChannelAccess {
    permissions: Option<Permissions>,
    in_thread: bool,
}

impl ChannelAccess {
    pub(super) fn of(permissions: Option<Permissions>, channel: Option<&PartialChannel>) -> Self {
        Self::new(
            permissions,
            channel.is_some_and(|channel| channel.thread_metadata.is_some()),
        )
    }

    pub(super) fn new(permissions: Option<Permissions>, in_thread: bool) -> Self {
        ChannelAccess {
            permissions,
            in_thread,
        }
    }

    /// The permission a channel message lacked, by Discord's answer (50001 Missing
    /// Access, 50013 Missing Permissions) and, where Discord said, the bot's permissions.
    fn missing(&self, code: isize, message: &Message) -> Needed {
        let send = if self.in_thread {
            (Permissions::SEND_MESSAGES_IN_THREADS, Needed::SendInThreads)
        } else {
            (Permissions::SEND_MESSAGES, Needed::SendMessages)
        };
        let mut needed = vec![(Permissions::VIEW_CHANNEL, Needed::ViewChannel), send];
        if !message.attachments.is_empty() {
            needed.push((Permissions::ATTACH_FILES, Needed::AttachFiles));
        }
        if let Some(granted) = self.permissions
            && let Some((_, name)) = needed.iter().find(|(bit, _)| !granted.contains(*bit))
        {
            return *name;
        }
        if code == MISSING_ACCESS {
            Needed::ViewChannel
        } else {
            send.1
        }
    }
}

/// A permission a channel message needs.
#[derive(Debug, Clone, Copy)]
enum Needed {
    ViewChannel,
    SendMessages,
    SendInThreads,
    AttachFiles,
}

impl Needed {
    /// Discord's name of it in `lang`, as its settings show it.
    fn name(self, lang: Lang) -> String {
        match self {
            Needed::ViewChannel => i18n::tr(lang, "transport-permission-view-channel"),
            Needed::SendMessages => i18n::tr(lang, "transport-permission-send-messages"),
            Needed::SendInThreads => i18n::tr(lang, "transport-permission-send-in-threads"),
            Needed::AttachFiles => i18n::tr(lang, "transport-permission-attach-files"),
        }
    }
}

/// Discord's error codes for a channel the bot may not see or post in.
const MISSING_ACCESS: isize = 50001;
const MISSING_PERMISSIONS: isize = 50013;
/// Discord's error code for a message that does not exist (any more).
const UNKNOWN_MESSAGE: isize = 10008;

/// Why a channel message did not go out.
#[derive(Debug)]
pub(super) enum SendFailure {
    /// Discord refused it for a permission the bot lacks in the channel (403).
    Forbidden { code: isize },
    /// Anything else: logged with an error id.
    Other,
}

/// The Discord error code of a refused request, if the error is one.
fn forbidden_code(error: &serenity::Error) -> Option<isize> {
    let serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(response)) = error
    else {
        return None;
    };
    let code = response.error.code;
    (response.status_code.as_u16() == 403 && matches!(code, MISSING_ACCESS | MISSING_PERMISSIONS))
        .then_some(code)
}

/// A reply to `message_id` that Discord sends as a plain message if that message is
/// gone by then (by default Discord refuses the whole message with 400).
fn reply_to(channel_id: ChannelId, message_id: MessageId) -> MessageReference {
    MessageReference::from((channel_id, message_id)).fail_if_not_exists(false)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum InteractionKind {
    Command,
    Autocomplete,
    Component,
    ModalSubmit,
}

/// How far the interaction's acknowledgement has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Nothing sent yet.
    Fresh,
    /// Deferred with a "thinking" placeholder (type 5) that the next answer replaces.
    Deferred { ephemeral: bool },
    /// Acknowledged; further answers are follow-ups.
    Answered,
    /// The acknowledgement failed: the interaction cannot be answered any more.
    Lost,
}

/// A fresh id for an error, to be logged and shown.
pub(super) fn new_error_id() -> String {
    crate::core::error_id(rand::random())
}

/// Runs the core on a task of its own, so the deadline keeps ticking whatever it
/// does. The engines' long work (odds and charts, BASIC, NPC turns, effect files and
/// `/init`'s effect steps) runs on the engine workers and is awaited, so the task is
/// an ordinary one and a burst of slow requests costs tasks, not threads.
///
/// The work starts once the same user's previous event is done (`previous`).
fn run_core(
    core: Arc<Core>,
    request: Request,
    previous: Option<(PreviousDone, Duration)>,
) -> JoinHandle<Vec<Reply>> {
    tokio::spawn(async move {
        if let Some((previous, patience)) = previous {
            previous.wait(patience).await;
        }
        core.handle(&request).await
    })
}

/// Runs the core on an interaction answered at once, in the handler's own task: the
/// handler does nothing but wait for it, and a task of its own would cost a hand-over
/// to another worker thread (waking it) on every `/roll`. A panic is caught here as the
/// task's join would catch it.
async fn run_core_inline(
    core: &Core,
    request: &Request,
    previous: Option<(PreviousDone, Duration)>,
) -> Result<Vec<Reply>, PanicMessage> {
    if let Some((previous, patience)) = previous {
        previous.wait(patience).await;
    }
    AssertUnwindSafe(core.handle(request))
        .catch_unwind()
        .await
        .map_err(PanicMessage::of)
}

/// What a caught panic said, for the log.
struct PanicMessage(String);

impl PanicMessage {
    fn of(payload: Box<dyn std::any::Any + Send>) -> PanicMessage {
        let text = match payload.downcast::<String>() {
            Ok(text) => *text,
            Err(payload) => payload
                .downcast_ref::<&str>()
                .map_or("a panic without a message", |text| text)
                .to_owned(),
        };
        PanicMessage(text)
    }
}

impl std::fmt::Display for PanicMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the command panicked: {}", self.0)
    }
}

/// How long after its arrival an interaction that must be answered at once may
/// still wait for the same user's previous event; the rest of Discord's 3 seconds is
/// left for the work and the response.
const IMMEDIATE_PATIENCE: Duration = Duration::from_millis(1500);

/// The answer when the core's task itself failed (a panic): an id, logged, counted.
fn failed_task(metrics: &Metrics, error: &dyn std::fmt::Display, lang: Lang) -> Vec<Reply> {
    metrics.task_panicked();
    let error_id = new_error_id();
    tracing::error!(error_id = %error_id, error = %error, "a command task failed");
    vec![Reply::Interaction(Message::ephemeral(internal_error_text(
        lang, &error_id,
    )))]
}

/// Runs the core on an interaction and answers it.
pub(super) async fn interaction(
    shared: &Shared,
    http: &Arc<Http>,
    interaction: Interaction,
    request: Request,
) {
    let ack = shared.core.ack(&request);
    let lang = private_language(&request);
    // An answer that cannot be deferred waits for the user's previous event only as
    // long as Discord's deadline leaves room for (a "Buy…" press right after a pick
    // from the list needs the pick stored); autocomplete reads nothing a user changes.
    let patience = match ack {
        Ack::Immediate => IMMEDIATE_PATIENCE.saturating_sub(interaction.received.elapsed()),
        Ack::Defer { .. } | Ack::DeferUpdate | Ack::None => queue::MAX_WAIT,
    };
    let mut place = (interaction.kind != InteractionKind::Autocomplete)
        .then(|| shared.users.enter(request.user.id));
    let previous = place
        .as_mut()
        .and_then(Place::take_wait)
        .map(|previous| (previous, patience));
    let (replies, phase) = match ack {
        // A deferrable answer holds a timer and the deferral's HTTP call across its
        // awaits: boxed, so that their size does not grow the future of every `/roll`.
        Ack::Defer { .. } | Ack::DeferUpdate => {
            Box::pin(run_deferring(
                shared,
                http,
                &interaction,
                ack,
                request,
                previous,
                lang,
            ))
            .await
        }
        Ack::Immediate | Ack::None => {
            let replies = run_core_inline(&shared.core, &request, previous)
                .await
                .unwrap_or_else(|error| failed_task(&shared.metrics, &error, lang));
            (replies, Phase::Fresh)
        }
    };
    let mut delivery = Delivery {
        shared,
        http,
        interaction: &interaction,
        lang,
        phase,
        failure_reported: false,
        answer_id: None,
    };
    delivery.deliver(replies).await;
}

/// Runs the core on its own task and defers the interaction if the answer is not ready
/// by `defer_after`; returns the replies and how far the acknowledgement came.
async fn run_deferring(
    shared: &Shared,
    http: &Http,
    interaction: &Interaction,
    ack: Ack,
    request: Request,
    previous: Option<(PreviousDone, Duration)>,
    lang: Lang,
) -> (Vec<Reply>, Phase) {
    let mut phase = Phase::Fresh;
    let mut work = run_core(shared.core.clone(), request, previous);
    let joined = tokio::select! {
        biased;
        joined = &mut work => joined,
        () = tokio::time::sleep_until(interaction.received + shared.settings.defer_after) => {
            phase = defer(shared, http, interaction, ack).await;
            work.await
        }
    };
    let replies = joined.unwrap_or_else(|error| failed_task(&shared.metrics, &error, lang));
    (replies, phase)
}

/// Opens the "Answer" modal at once, from the button and its message alone.
pub(super) async fn modal_at_once(
    shared: &Shared,
    http: &Http,
    interaction: &Interaction,
    modal: &crate::core::Modal,
) {
    let response = CreateInteractionResponse::Modal(outgoing::modal(modal));
    if let Err(error) = response
        .execute(http, (interaction.id, &interaction.token))
        .await
    {
        log_send_error(&shared.metrics, "open a modal", &error);
    }
}

async fn defer(shared: &Shared, http: &Http, interaction: &Interaction, ack: Ack) -> Phase {
    let (response, phase) = match ack {
        Ack::Defer { ephemeral } => (
            CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(ephemeral),
            ),
            Phase::Deferred { ephemeral },
        ),
        _ => (CreateInteractionResponse::Acknowledge, Phase::Answered),
    };
    match response
        .execute(http, (interaction.id, &interaction.token))
        .await
    {
        Ok(()) => phase,
        Err(error) => {
            log_send_error(&shared.metrics, "defer an interaction", &error);
            Phase::Lost
        }
    }
}

struct Delivery<'a> {
    shared: &'a Shared,
    http: &'a Arc<Http>,
    interaction: &'a Interaction,
    /// The language of the notices the delivery itself writes (private ones).
    lang: Lang,
    phase: Phase,
    failure_reported: bool,
    /// The id of the tracked public answer (a roll for the GM's line), which a
    /// later message of the same request links ([`Message::link_answer`]).
    answer_id: Option<i64>,
}

impl Delivery<'_> {
    async fn deliver(&mut self, mut replies: Vec<Reply>) {
        if self.phase == Phase::Fresh {
            let initial = replies
                .iter()
                .position(|reply| match self.interaction.kind {
                    InteractionKind::Autocomplete => matches!(reply, Reply::Choices(_)),
                    InteractionKind::ModalSubmit => matches!(reply, Reply::Interaction(_)),
                    InteractionKind::Command => {
                        matches!(reply, Reply::Interaction(_) | Reply::Modal(_))
                    }
                    InteractionKind::Component => matches!(
                        reply,
                        Reply::Interaction(_) | Reply::Update(_) | Reply::Modal(_)
                    ),
                });
            let initial = initial.map(|index| replies.remove(index));
            self.respond(initial.as_ref()).await;
        }
        // A `/roll` ends here, its one reply sent as the response. The rest (follow-ups,
        // channel messages, edits, settling a placeholder) is boxed, so that its futures
        // do not size the future of every interaction.
        if replies.is_empty() && !matches!(self.phase, Phase::Deferred { .. }) {
            return;
        }
        Box::pin(self.deliver_rest(replies)).await;
    }

    /// The replies after the first response, and the placeholder's settling.
    async fn deliver_rest(&mut self, replies: Vec<Reply>) {
        for reply in &replies {
            match reply {
                Reply::Interaction(message) => self.answer(message).await,
                Reply::Channel {
                    channel_id,
                    message,
                } => {
                    let mut message = message.clone();
                    if let Some(answer_id) = self.answer_id {
                        message.link_answer(answer_id);
                    }
                    match send_channel(self.shared, self.http, *channel_id, &message).await {
                        Ok(()) => {}
                        Err(SendFailure::Forbidden { code }) => {
                            self.report_forbidden(code, &message).await;
                        }
                        Err(SendFailure::Other) => self.report_failure().await,
                    }
                }
                Reply::Edit {
                    channel_id,
                    message_id,
                    message,
                } => {
                    // A failed edit leaves an old prompt showing; the answer went through.
                    let _ =
                        send_edit(self.shared, self.http, *channel_id, *message_id, message).await;
                }
                Reply::Update(message) => self.update(message).await,
                Reply::Modal(_) | Reply::Choices(_) => {
                    tracing::warn!(
                        kind = ?self.interaction.kind,
                        "a modal or choices can only be the first response; dropped"
                    );
                }
            }
        }
        if let Phase::Deferred { .. } = self.phase {
            // Nothing replaced the "thinking" placeholder: do not leave it spinning.
            let done = Message::text(i18n::tr(self.lang, "transport-done"));
            self.answer(&done).await;
        }
    }

    /// The first response: the core's answer, or a plain acknowledgement when it has
    /// none for this interaction.
    async fn respond(&mut self, initial: Option<&Reply>) {
        let response = match (initial, self.interaction.kind) {
            (Some(Reply::Interaction(message)), _) => {
                CreateInteractionResponse::Message(outgoing::response(message))
            }
            (Some(Reply::Update(message)), _) => {
                CreateInteractionResponse::UpdateMessage(outgoing::update(message))
            }
            (Some(Reply::Modal(modal)), _) => {
                CreateInteractionResponse::Modal(outgoing::modal(modal))
            }
            (Some(Reply::Choices(choices)), _) => {
                CreateInteractionResponse::Autocomplete(outgoing::choices(choices))
            }
            (_, InteractionKind::Autocomplete) => {
                CreateInteractionResponse::Autocomplete(outgoing::choices(&[]))
            }
            (_, InteractionKind::Component | InteractionKind::ModalSubmit) => {
                CreateInteractionResponse::Acknowledge
            }
            (_, InteractionKind::Command) => CreateInteractionResponse::Message(
                outgoing::response(&Message::ephemeral(i18n::tr(self.lang, "transport-done"))),
            ),
        };
        let keeps_files = matches!(initial, Some(Reply::Update(message)) if message.attachments.is_empty())
            && !self.interaction.kept_files.is_empty();
        let has_files = matches!(initial, Some(Reply::Interaction(message) | Reply::Update(message)) if !message.attachments.is_empty());
        let sent: Result<(), Box<dyn std::fmt::Display + Send>> = if keeps_files {
            Box::pin(self.update_keeping_files(&response))
                .await
                .map_err(boxed_error)
        } else if !has_files
            && let Some(callbacks) = &self.shared.callbacks
            && Callbacks::takes_token(&self.interaction.token)
        {
            // The common case (every `/roll`): JSON only, on a kept connection.
            let posted = callbacks
                .post(self.interaction.id, &self.interaction.token, &response)
                .await;
            match posted {
                Ok(()) => Ok(()),
                Err(error) => self.after_failed_callback(error, response).await,
            }
        } else {
            self.execute(response).await
        };
        self.phase = match sent {
            Ok(()) => {
                if let Some(Reply::Interaction(message)) = initial
                    && message.track.is_some()
                {
                    Box::pin(self.original_sent(message)).await;
                }
                Phase::Answered
            }
            Err(error) => {
                let error_id =
                    log_send_error(&self.shared.metrics, "answer an interaction", &error);
                tracing::debug!(error_id = %error_id, "the interaction is lost");
                Phase::Lost
            }
        };
    }

    /// The first response through serenity's `Http`.
    async fn execute(
        &self,
        response: CreateInteractionResponse,
    ) -> Result<(), Box<dyn std::fmt::Display + Send>> {
        response
            .execute(
                self.http.as_ref(),
                (self.interaction.id, &self.interaction.token),
            )
            .await
            .map_err(boxed_error)
    }

    /// A kept-connection callback failed: the response goes again through serenity's
    /// `Http` when none of it was sent; otherwise it may have arrived, and Discord
    /// would refuse a second as already acknowledged.
    async fn after_failed_callback(
        &self,
        error: CallbackError,
        response: CreateInteractionResponse,
    ) -> Result<(), Box<dyn std::fmt::Display + Send>> {
        match after_callback_error(&error) {
            AfterCallbackError::Resend => {
                self.shared.metrics.callback_failed(true);
                tracing::warn!(
                    error = %error,
                    "the kept-connection callback sent nothing; sending it through serenity's Http"
                );
                self.execute(response).await
            }
            AfterCallbackError::GiveUp => {
                self.shared.metrics.callback_failed(false);
                tracing::warn!(
                    error = %error,
                    "the kept-connection callback may have reached Discord; not sent again"
                );
                Err(boxed_error(error))
            }
        }
    }

    /// Reports the id of a tracked response (type 4), which tells no id: Discord's
    /// `@original` does.
    async fn original_sent(&mut self, message: &Message) {
        let original = self
            .http
            .get_original_interaction_response(&self.interaction.token)
            .await;
        match original {
            Ok(posted) => self.answer_sent(message, posted.id).await,
            Err(error) => {
                log_send_error(&self.shared.metrics, "read an answer's id", &error);
            }
        }
    }

    /// A fast update (type 7) without new files that keeps the message's files, as the
    /// deferred path's edit does: serenity's builder always sends an `attachments` list,
    /// `[]` without new files, and Discord removes every file the list leaves out.
    async fn update_keeping_files(
        &self,
        response: &CreateInteractionResponse,
    ) -> serenity::Result<()> {
        let mut body = serde_json::to_value(response)?;
        let kept: Vec<serde_json::Value> = self
            .interaction
            .kept_files
            .iter()
            .map(|id| serde_json::json!({ "id": id.to_string() }))
            .collect();
        body["data"]["attachments"] = serde_json::Value::Array(kept);
        self.http
            .create_interaction_response(
                self.interaction.id,
                &self.interaction.token,
                &body,
                Vec::new(),
            )
            .await
    }

    /// The pressed component's message replaced after the first response: after a
    /// deferred update (type 6), `@original` is that message.
    async fn update(&mut self, message: &Message) {
        match (self.phase, self.interaction.kind) {
            (Phase::Lost, _) => {}
            (Phase::Answered, InteractionKind::Component) => {
                let edited = outgoing::edit_original(message)
                    .execute(self.http.as_ref(), self.interaction.token.as_str())
                    .await;
                if let Err(error) = edited {
                    log_send_error(&self.shared.metrics, "update a message", &error);
                    self.report_failure().await;
                }
            }
            // Deferred with a placeholder of its own, or not a component: the new
            // state can only be an answer.
            _ => self.answer(message).await,
        }
    }

    /// Reports the id of a tracked answer to the core (a roll for the GM's line) and
    /// keeps it for the messages of the request that link it.
    async fn answer_sent(&mut self, message: &Message, posted: MessageId) {
        let Some(track @ crate::core::Track::GmAnswer { .. }) = message.track else {
            return;
        };
        let answer_id = super::incoming::snowflake(posted.get());
        self.answer_id = Some(answer_id);
        if let Err(error) = self.shared.core.message_sent(track, answer_id).await {
            tracing::error!(error = %format!("{error:#}"), "cannot record the id of an answer");
        }
    }

    /// An answer after the first response: the edit of a deferred placeholder, or a
    /// follow-up.
    async fn answer(&mut self, message: &Message) {
        let http = self.http.as_ref();
        let token = self.interaction.token.as_str();
        let result = match self.phase {
            Phase::Lost => return,
            Phase::Fresh | Phase::Answered => outgoing::followup(message)
                .execute(http, (None, token))
                .await
                .map(|posted| Some(posted.id)),
            Phase::Deferred { ephemeral } => {
                self.phase = Phase::Answered;
                if message.ephemeral && !ephemeral {
                    // A public placeholder cannot become private: settle it, then send
                    // the answer as a private follow-up.
                    // The placeholder left when a public "thinking" response turns out
                    // to be private.
                    let placeholder =
                        Message::text(i18n::tr(self.lang, "transport-answered-privately"));
                    let settled = outgoing::edit_original(&placeholder)
                        .execute(http, token)
                        .await
                        .map(drop);
                    match settled {
                        Ok(()) => outgoing::followup(message)
                            .execute(http, (None, token))
                            .await
                            .map(|posted| Some(posted.id)),
                        Err(error) => Err(error),
                    }
                } else {
                    outgoing::edit_original(message)
                        .execute(http, token)
                        .await
                        .map(|posted| Some(posted.id))
                }
            }
        };
        match result {
            Ok(Some(posted)) => self.answer_sent(message, posted).await,
            Ok(None) => {}
            Err(error) => {
                log_send_error(&self.shared.metrics, "send an interaction answer", &error);
                self.report_failure().await;
            }
        }
    }

    /// Tells the user privately which permission the bot lacks in the channel, and ends
    /// the session whose prompt could not be posted (nobody could see or answer it).
    async fn report_forbidden(&mut self, code: isize, message: &Message) {
        if let Some(track @ crate::core::Track::GmRoll { .. }) = message.track {
            self.report_gm_refused(code, track).await;
            return;
        }
        let missing = self.interaction.access.missing(code, message);
        let mut notice = i18n::tr_args(
            self.lang,
            "transport-cannot-post",
            &[("permission", missing.name(self.lang).into())],
        );
        if let Some(track) = message.track {
            match self.shared.core.message_failed(track).await {
                Ok(()) => notice.push_str(&i18n::tr(self.lang, "transport-session-ended")),
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "cannot end a session whose prompt was refused");
                }
            }
        }
        if self.failure_reported || self.phase == Phase::Lost {
            return;
        }
        self.failure_reported = true;
        self.answer(&Message::ephemeral(notice)).await;
    }

    /// The GM channel refused a roll for the GM: the roller gets the result privately,
    /// with the permission the bot lacks there. The interaction's channel permissions
    /// say nothing about the GM channel, so Discord's code names the permission.
    async fn report_gm_refused(&mut self, code: isize, track: crate::core::Track) {
        let missing = match code {
            MISSING_ACCESS => Needed::ViewChannel,
            _ => Needed::SendMessages,
        };
        let permission = missing.name(self.lang);
        let text = match self
            .shared
            .core
            .undelivered_gm_roll(track, self.lang, &permission)
            .await
        {
            Ok(Some(text)) => text,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(error = %format!("{error:#}"), "cannot hand a refused GM roll to its roller");
                self.report_failure().await;
                return;
            }
        };
        if self.phase == Phase::Lost {
            return;
        }
        self.answer(&Message::ephemeral(text)).await;
    }

    /// Tells the user, once, that part of the answer could not be sent.
    async fn report_failure(&mut self) {
        if self.failure_reported || self.phase == Phase::Lost {
            return;
        }
        self.failure_reported = true;
        let error_id = new_error_id();
        tracing::error!(error_id = %error_id, "part of an answer could not be sent");
        let notice = Message::ephemeral(internal_error_text(self.lang, &error_id));
        let sent = if let Phase::Deferred { .. } = self.phase {
            self.phase = Phase::Answered;
            outgoing::edit_original(&notice)
                .execute(self.http.as_ref(), self.interaction.token.as_str())
                .await
                .map(drop)
        } else {
            outgoing::followup(&notice)
                .execute(self.http.as_ref(), (None, self.interaction.token.as_str()))
                .await
                .map(drop)
        };
        if let Err(error) = sent {
            log_send_error(&self.shared.metrics, "report a failure", &error);
        }
    }
}

/// Runs the core on a reply to one of our messages and answers in the channel.
pub(super) async fn message_reply(
    shared: &Shared,
    http: &Arc<Http>,
    channel_id: ChannelId,
    message_id: MessageId,
    request: Request,
) {
    let mut place = shared.users.enter(request.user.id);
    let previous = place
        .take_wait()
        .map(|previous| (previous, queue::MAX_WAIT));
    let lang = private_language(&request);
    // A reply answers a generator's question or an NPC: their engines run on the
    // engine workers.
    let replies = run_core(shared.core.clone(), request, previous)
        .await
        .unwrap_or_else(|error| failed_task(&shared.metrics, &error, lang));
    for reply in &replies {
        match reply {
            // Without an interaction, an answer is a message replying to the user's.
            Reply::Interaction(message) => {
                let builder = outgoing::channel_message(message)
                    .reference_message(reply_to(channel_id, message_id));
                if let Err(error) = channel_id.send_message(http.as_ref(), builder).await {
                    log_send_error(&shared.metrics, "reply to a message", &error);
                }
            }
            Reply::Channel {
                channel_id,
                message,
            } => {
                let _ = send_channel(shared, http, *channel_id, message).await;
            }
            Reply::Edit {
                channel_id,
                message_id,
                message,
            } => {
                let _ = send_edit(shared, http, *channel_id, *message_id, message).await;
            }
            Reply::Update(_) | Reply::Modal(_) | Reply::Choices(_) => {
                tracing::warn!("an update, a modal or choices cannot answer a message; dropped");
            }
        }
    }
}

/// Tells the author of a reply Discord withheld from us how to answer instead.
pub(super) async fn unreadable_reply(
    shared: &Shared,
    http: &Http,
    channel_id: ChannelId,
    message_id: MessageId,
    request: &Request,
) {
    // The channel sees the hint: the server's language.
    let lang = match shared.core.language(request, true).await {
        Ok(lang) => lang,
        Err(error) => {
            tracing::warn!(error = %format!("{error:#}"), "the server's language is unknown; English");
            Lang::En
        }
    };
    let hint = Message::text(i18n::tr(lang, "transport-unreadable-reply"));
    let builder: CreateMessage =
        outgoing::channel_message(&hint).reference_message(reply_to(channel_id, message_id));
    if let Err(error) = channel_id.send_message(http, builder).await {
        log_send_error(&shared.metrics, "send the reply hint", &error);
    }
}

/// Sends a regular channel message and reports its id when the core tracks it.
pub(super) async fn send_channel(
    shared: &Shared,
    http: &Http,
    channel_id: i64,
    message: &Message,
) -> Result<(), SendFailure> {
    let Some(channel) = channel(channel_id) else {
        tracing::error!(channel_id, "a message for an invalid channel id; dropped");
        return Err(SendFailure::Other);
    };
    let sent = match channel
        .send_message(http, outgoing::channel_message(message))
        .await
    {
        Ok(sent) => sent,
        Err(error) => {
            log_send_error(&shared.metrics, "send a channel message", &error);
            return Err(match forbidden_code(&error) {
                Some(code) => SendFailure::Forbidden { code },
                None => SendFailure::Other,
            });
        }
    };
    if let Some(track) = message.track {
        let message_id = super::incoming::snowflake(sent.id.get());
        if let Err(error) = shared.core.message_sent(track, message_id).await {
            let error_id = new_error_id();
            tracing::error!(
                error_id = %error_id,
                error = %format!("{error:#}"),
                "cannot record a sent prompt; replies to it will not answer"
            );
        }
    }
    Ok(())
}

pub(super) async fn send_edit(
    shared: &Shared,
    http: &Http,
    channel_id: i64,
    message_id: i64,
    message: &Message,
) -> Result<(), ()> {
    let (Some(channel), Some(message_id)) = (channel(channel_id), message_id_of(message_id)) else {
        tracing::error!(
            channel_id,
            message_id,
            "an edit of an invalid message id; dropped"
        );
        return Err(());
    };
    match channel
        .edit_message(http, message_id, outgoing::edit(message))
        .await
    {
        Ok(_) => Ok(()),
        // Someone deleted a message the core keeps up to date (an encounter's
        // tracker): post it again, and the core records the new one.
        Err(error) if message.track.is_some() && unknown_message(&error) => {
            tracing::info!(channel_id, message_id = %message_id, "a tracked message was deleted; posting it again");
            send_channel(shared, http, channel_id, message)
                .await
                .map_err(drop)
        }
        Err(error) => {
            log_send_error(&shared.metrics, "edit a message", &error);
            Err(())
        }
    }
}

/// Whether Discord refused a request because the message is gone (404, 10008).
fn unknown_message(error: &serenity::Error) -> bool {
    let serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(response)) = error
    else {
        return false;
    };
    response.status_code.as_u16() == 404 && response.error.code == UNKNOWN_MESSAGE
}

fn channel(id: i64) -> Option<ChannelId> {
    let id = NonZeroU64::new(u64::try_from(id).ok()?)?;
    Some(ChannelId::from(id))
}

fn message_id_of(id: i64) -> Option<MessageId> {
    let id = NonZeroU64::new(u64::try_from(id).ok()?)?;
    Some(MessageId::from(id))
}

/// Logs a failed Discord call with a fresh error id, which it returns.
fn log_send_error(metrics: &Metrics, what: &str, error: &dyn std::fmt::Display) -> String {
    metrics.discord_error();
    let error_id = new_error_id();
    tracing::error!(error_id = %error_id, error = %error, "cannot {what}");
    error_id
}

/// What follows a failed kept-connection callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AfterCallbackError {
    /// Nothing was sent: the same response goes through serenity's `Http`.
    Resend,
    /// It may have arrived (or Discord refused it): sending it again could only be
    /// refused as already acknowledged, or answer twice.
    GiveUp,
}

fn after_callback_error(error: &CallbackError) -> AfterCallbackError {
    if error.nothing_sent() {
        return AfterCallbackError::Resend;
    }
    AfterCallbackError::GiveUp
}

/// A failed send of either path (serenity's `Http` or [`Callbacks`]), for the log.
fn boxed_error<E: std::fmt::Display + Send + 'static>(
    error: E,
) -> Box<dyn std::fmt::Display + Send> {
    Box::new(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_callback_is_resent_only_when_nothing_was_sent() {
        let io = |kind| std::io::Error::from(kind);
        let refused = || io(std::io::ErrorKind::ConnectionRefused);
        let table = [
            (
                CallbackError::Connect(refused()),
                AfterCallbackError::Resend,
            ),
            (
                CallbackError::Handshake(io(std::io::ErrorKind::InvalidData)),
                AfterCallbackError::Resend,
            ),
            (CallbackError::Setup("api_base"), AfterCallbackError::Resend),
            (
                CallbackError::Timeout {
                    after: Duration::from_secs(10),
                    request_written: false,
                },
                AfterCallbackError::Resend,
            ),
            (
                CallbackError::Timeout {
                    after: Duration::from_secs(10),
                    request_written: true,
                },
                AfterCallbackError::GiveUp,
            ),
            (
                CallbackError::Io(io(std::io::ErrorKind::ConnectionReset)),
                AfterCallbackError::GiveUp,
            ),
            (
                CallbackError::RetryFailed {
                    kept: Box::new(CallbackError::Io(io(std::io::ErrorKind::UnexpectedEof))),
                    retry: Box::new(CallbackError::Connect(refused())),
                },
                AfterCallbackError::GiveUp,
            ),
            (
                CallbackError::Malformed("its head"),
                AfterCallbackError::GiveUp,
            ),
            (
                CallbackError::Refused {
                    status: 400,
                    body: r#"{"code":40060}"#.to_owned(),
                },
                AfterCallbackError::GiveUp,
            ),
        ];
        for (error, expected) in table {
            assert_eq!(after_callback_error(&error), expected, "{error:?}");
        }
    }
}
