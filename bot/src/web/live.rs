//! Encounters live (issue 25): a server's running encounters, and a channel's tracker
//! as `/init list` shows it to the reader (players the tracker, the GM the GM view,
//! decided by the core as for the command), kept current by server-sent events.
//!
//! - **What wakes a view.** The core announces every stored encounter change on its
//!   in-process hub ([`crate::core::live`]); a view of the same process hears it at
//!   once. Another instance's change is not heard: every view also reads the
//!   encounter's step from the database every [`POLL`], so several instances behind a
//!   load balancer stay current within that time. Either way the page shows what the
//!   database holds, never the notice itself.
//! - **Without script** the page reloads itself every [`REFRESH_SECONDS`] (a
//!   `<noscript>` meta refresh); with script, `/live.js` opens the event stream and
//!   swaps the tracker in place (the CSP allows scripts from this origin only).
//! - **Bounded.** At most [`MAX_LIVE_VIEWS`] streams are open at once (a 503 beyond,
//!   the page still reloads); a stream ends after [`STREAM_LIFETIME`] and the browser
//!   reopens it, which checks the session again.

// A refusal is the response itself (`Result<_, Response>`), as in pages.rs.
#![allow(clippy::result_large_err)]

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::stream::{self, Stream};
use serde::Deserialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, broadcast};
use tokio::time::Instant;

use super::channels::ChannelAccess;
use super::html::{escape, page_with_head};
use super::pages::{guild_of, missing};
use super::session::{SessionGuild, Viewer, server_error};
use super::{Web, status_page};
use crate::core::live::EncounterChanged;
use crate::core::{Command, Reply, RequestKind};
use crate::i18n::{self, Lang};

/// Event streams open at once, over all users: each holds a connection, a hub
/// receiver and a task's worth of memory.
pub const MAX_LIVE_VIEWS: usize = 4096;
/// How often a view reads the encounter's step (changes made by other instances).
pub const POLL: Duration = Duration::from_secs(5);
/// How long one event stream lasts before the browser reopens it.
pub const STREAM_LIFETIME: Duration = Duration::from_secs(30 * 60);
/// The reload period of a page read without script.
pub const REFRESH_SECONDS: u32 = 10;
/// Encounters listed per server.
const LIST_LIMIT: i64 = 100;

/// The open event streams' budget.
#[derive(Debug, Clone)]
pub struct LiveViews {
    permits: Arc<Semaphore>,
    max: usize,
}

impl Default for LiveViews {
    fn default() -> Self {
        LiveViews::new(MAX_LIVE_VIEWS)
    }
}

impl LiveViews {
    pub fn new(max: usize) -> LiveViews {
        LiveViews {
            permits: Arc::new(Semaphore::new(max)),
            max,
        }
    }

    /// How many streams are open now.
    pub fn open(&self) -> usize {
        self.max.saturating_sub(self.permits.available_permits())
    }
}

/// `/live.js`: opens the event stream of the tracker on the page and swaps it in.
pub async fn script() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        include_str!("live.js"),
    )
        .into_response()
}

/// `/servers/{guild}/encounters`: the encounters running in the server.
pub async fn list(
    State(web): State<Web>,
    viewer: Viewer,
    Path(guild_id): Path<i64>,
) -> Result<Response, Response> {
    let guild = guild_of(&viewer, guild_id)?;
    let lang = viewer.lang;
    let rows = web
        .core
        .storage()
        .encounters_in_guild(guild.id, LIST_LIMIT)
        .await
        .map_err(|error| server_error(lang, &error))?;
    // Only the channels the viewer may view on Discord, named as there.
    let ids: Vec<i64> = rows.iter().map(|row| row.channel_id).collect();
    let access = if ids.is_empty() {
        ChannelAccess::Unchecked
    } else {
        ChannelAccess::read(&web, &viewer, &guild, &ids).await
    };
    let rows: Vec<_> = rows
        .iter()
        .filter(|row| access.may_view(row.channel_id))
        .collect();
    let mut body = String::new();
    if rows.is_empty() {
        body.push_str(&format!(
            "<p>{}</p>",
            escape(&i18n::tr(lang, "web-live-none"))
        ));
    }
    body.push_str("<ul>");
    for row in rows {
        let channel = match access.name(row.channel_id) {
            Some(name) => format!("#{name}"),
            None => row.channel_id.to_string(),
        };
        let label = i18n::tr_args(
            lang,
            "web-live-channel",
            &[
                ("channel", channel.into()),
                ("gm", row.gm_name.as_str().into()),
            ],
        );
        body.push_str(&format!(
            "<li><a href=\"/servers/{}/encounters/{}\">{}</a></li>",
            guild.id,
            row.channel_id,
            escape(&label),
        ));
    }
    body.push_str("</ul>");
    let title = i18n::tr_args(
        lang,
        "web-live-heading",
        &[("server", guild.name.as_str().into())],
    );
    Ok(status_page(
        StatusCode::OK,
        page_with_head(lang, &title, Some(&viewer.header()), "", &body),
    ))
}

/// `/servers/{guild}/encounters/{channel}`: the tracker, reloading itself.
pub async fn tracker(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, channel_id)): Path<(i64, i64)>,
) -> Result<Response, Response> {
    let guild = guild_of(&viewer, guild_id)?;
    let lang = viewer.lang;
    visible(&web, &viewer, &guild, channel_id).await?;
    let shown = view(&web, &viewer, &guild, channel_id)
        .await
        .map_err(|error| server_error(lang, &error))?;
    let Some((step, fragment)) = shown else {
        return Err(missing(lang));
    };
    let base = format!("/servers/{}/encounters/{channel_id}", guild.id);
    let head = format!(
        "<noscript><meta http-equiv=\"refresh\" content=\"{REFRESH_SECONDS}\"></noscript>\
         <script src=\"/live.js\" defer></script>"
    );
    let body = format!(
        "<div id=\"tracker\" aria-live=\"polite\" data-events=\"{base}/events?step={step}\">{fragment}</div>\
         <p class=\"hint\">{hint}</p><p><a href=\"/servers/{guild}/encounters\">{back}</a></p>",
        hint = escape(&i18n::tr(lang, "web-live-hint")),
        guild = guild.id,
        back = escape(&i18n::tr(lang, "web-back")),
    );
    let title = i18n::tr(lang, "web-live-title");
    Ok(status_page(
        StatusCode::OK,
        page_with_head(lang, &title, Some(&viewer.header()), &head, &body),
    ))
}

/// The step the page shows, so a change made before the stream opened is sent at once.
#[derive(Debug, Deserialize)]
pub struct EventsQuery {
    step: Option<i64>,
}

/// `/servers/{guild}/encounters/{channel}/events?step=N`: a `tracker` event (its id
/// the step) with the tracker's HTML whenever the encounter is at another step than
/// the page shows (`Last-Event-ID` after a reconnection, else `step`); 204 (the
/// browser stops asking) when no encounter runs there, 503 when too many views are
/// open.
pub async fn events(
    State(web): State<Web>,
    viewer: Viewer,
    Path((guild_id, channel_id)): Path<(i64, i64)>,
    Query(query): Query<EventsQuery>,
    headers: HeaderMap,
) -> Result<Response, Response> {
    let guild = guild_of(&viewer, guild_id)?;
    let lang = viewer.lang;
    visible(&web, &viewer, &guild, channel_id).await?;
    let Ok(permit) = web.live.permits.clone().try_acquire_owned() else {
        return Err(status_page(
            StatusCode::SERVICE_UNAVAILABLE,
            page_with_head(lang, &i18n::tr(lang, "web-live-busy"), None, "", ""),
        ));
    };
    // Subscribed before the first read, so no change falls between the two.
    let changes = web.core.encounter_changes();
    let step = current_step(&web, guild.id, channel_id)
        .await
        .map_err(|error| server_error(lang, &error))?;
    if step.is_none() {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    let page_step = headers
        .get("last-event-id")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<i64>().ok())
        .or(query.step);
    let shown = page_step.or(step);
    let watch = Watch {
        web,
        viewer,
        guild,
        channel_id,
        changes,
        shown,
        behind: shown != step,
        ends_at: Instant::now() + STREAM_LIFETIME,
        done: false,
        _permit: permit,
    };
    Ok(Sse::new(watch.into_stream())
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// One open event stream.
struct Watch {
    web: Web,
    viewer: Viewer,
    guild: SessionGuild,
    channel_id: i64,
    changes: broadcast::Receiver<EncounterChanged>,
    /// The step the page shows (`None`: the encounter ended).
    shown: Option<i64>,
    /// The page is behind already: read at once, without waiting for a notice.
    behind: bool,
    ends_at: Instant,
    done: bool,
    /// Returned to the budget when the stream is dropped.
    _permit: OwnedSemaphorePermit,
}

impl Watch {
    fn into_stream(self) -> impl Stream<Item = Result<Event, Infallible>> {
        stream::unfold(self, |mut watch| async move {
            let event = watch.next_event().await?;
            Some((Ok(event), watch))
        })
    }

    /// Waits for a change of the step, then renders it; `None` ends the stream.
    async fn next_event(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        loop {
            if !std::mem::take(&mut self.behind) {
                self.wait().await?;
            }
            let step = match current_step(&self.web, self.guild.id, self.channel_id).await {
                Ok(step) => step,
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "a live view cannot read");
                    continue;
                }
            };
            if step == self.shown {
                continue;
            }
            self.shown = step;
            let fragment = match view(&self.web, &self.viewer, &self.guild, self.channel_id).await {
                Ok(Some((_, fragment))) => fragment,
                Ok(None) => ended(self.viewer.lang),
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "a live view cannot render");
                    continue;
                }
            };
            if step.is_none() {
                self.done = true;
            }
            let mut event = Event::default().event("tracker").data(fragment);
            if let Some(step) = step {
                event = event.id(step.to_string());
            }
            return Some(event);
        }
    }

    /// Until a notice of this channel (or a lag: maybe), the poll, or the end of the
    /// stream's life (`None`).
    async fn wait(&mut self) -> Option<()> {
        loop {
            tokio::select! {
                heard = self.changes.recv() => match heard {
                    Ok(change) if change.channel_id != self.channel_id => continue,
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => return Some(()),
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                _ = tokio::time::sleep(POLL) => return Some(()),
                _ = tokio::time::sleep_until(self.ends_at) => return None,
            }
        }
    }
}

/// A channel the viewer may not view on Discord looks like nothing: 404, as a
/// channel without an encounter. (A stream checks once, when it opens; it ends after
/// [`STREAM_LIFETIME`] and the browser's reopening checks again.)
async fn visible(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    channel_id: i64,
) -> Result<(), Response> {
    let access = ChannelAccess::read(web, viewer, guild, &[channel_id]).await;
    if access.may_view(channel_id) {
        return Ok(());
    }
    Err(missing(viewer.lang))
}

/// The step of the encounter in `channel_id` of `guild_id`, if one runs there.
async fn current_step(web: &Web, guild_id: i64, channel_id: i64) -> anyhow::Result<Option<i64>> {
    let row = web.core.storage().encounter_in_channel(channel_id).await?;
    Ok(row
        .filter(|row| row.guild_id == guild_id)
        .map(|row| row.step))
}

/// The tracker of `channel_id` as `/init list` answers the viewer there, as HTML,
/// with the step it was read at; `None` when no encounter of this server runs there.
async fn view(
    web: &Web,
    viewer: &Viewer,
    guild: &SessionGuild,
    channel_id: i64,
) -> anyhow::Result<Option<(i64, String)>> {
    let Some(step) = current_step(web, guild.id, channel_id).await? else {
        return Ok(None);
    };
    let command = Command {
        name: "init".to_owned(),
        subcommand: vec!["list".to_owned()],
        options: Vec::new(),
    };
    let mut request = viewer.request(guild, RequestKind::Command(command));
    request.channel_id = channel_id;
    let replies = web.core.handle(&request).await;
    let text: String = replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) | Reply::Update(message) => Some(message.content.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    Ok(Some((step, markdown_html(&text))))
}

fn ended(lang: Lang) -> String {
    format!("<p>{}</p>", escape(&i18n::tr(lang, "web-live-ended")))
}

/// The little markdown the tracker uses, as HTML: code blocks as `<pre>`, `**bold**`,
/// backslash escapes. Everything is escaped first.
pub fn markdown_html(text: &str) -> String {
    let mut html = String::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            html.push_str(if in_code { "</pre>" } else { "<pre>" });
            in_code = !in_code;
            continue;
        }
        if in_code {
            html.push_str(&escape(line));
            html.push('\n');
            continue;
        }
        html.push_str("<p>");
        html.push_str(&inline_markdown(line));
        html.push_str("</p>");
    }
    if in_code {
        html.push_str("</pre>");
    }
    html
}

/// One line outside code: `\*` is a star, `**` opens or closes bold.
fn inline_markdown(line: &str) -> String {
    let mut html = String::new();
    let mut bold = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if chars.peek().is_some_and(|next| next.is_ascii_punctuation()) => {
                let next = chars.next().unwrap_or('\\');
                html.push_str(&escape(&next.to_string()));
            }
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                html.push_str(if bold { "</strong>" } else { "<strong>" });
                bold = !bold;
            }
            other => html.push_str(&escape(&other.to_string())),
        }
    }
    if bold {
        html.push_str("</strong>");
    }
    html
}

#[cfg(test)]
mod tests {
    use super::markdown_html;

    #[test]
    fn the_trackers_markdown_becomes_escaped_html() {
        for (markdown, html) in [
            (
                "**Initiative** · Round 1",
                "<p><strong>Initiative</strong> · Round 1</p>",
            ),
            ("GM Ann\\_B", "<p>GM Ann_B</p>"),
            ("```\n> <Orc> 7/7\n```", "<pre>&gt; &lt;Orc&gt; 7/7\n</pre>"),
            ("**open", "<p><strong>open</strong></p>"),
            ("```\nunclosed", "<pre>unclosed\n</pre>"),
            ("<script>", "<p>&lt;script&gt;</p>"),
        ] {
            assert_eq!(markdown_html(markdown), html, "{markdown}");
        }
    }
}
