//! A serenity client pointed at a fake, whose event handler forwards what it sees to the
//! test over a channel, so the test answers with serenity's own calls.

use std::sync::Arc;
use std::time::Duration;

use fake_discord::{FakeDiscord, Invoker};
use serenity::all::{
    CommandInteraction, Context, EventHandler, GatewayIntents, Http, HttpBuilder, Interaction,
    Message, Ready, ShardManager,
};
use serenity::async_trait;
use serenity::client::ClientBuilder;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub const TOKEN: &str = "FAKE.TOKEN.value";
pub const GUILD: u64 = 7 << 22;
pub const CHANNEL: u64 = 8_000;
pub const WAIT: Duration = Duration::from_secs(15);

/// What the bot's handler saw, with the shard it came on.
#[derive(Debug)]
pub enum Seen {
    Ready {
        shard: u32,
    },
    Interaction {
        shard: u32,
        interaction: Box<Interaction>,
    },
    Message {
        shard: u32,
        message: Box<Message>,
    },
}

struct Forward(mpsc::UnboundedSender<Seen>);

#[async_trait]
impl EventHandler for Forward {
    async fn ready(&self, ctx: Context, _ready: Ready) {
        let _ = self.0.send(Seen::Ready {
            shard: ctx.shard_id.0,
        });
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let _ = self.0.send(Seen::Interaction {
            shard: ctx.shard_id.0,
            interaction: Box::new(interaction),
        });
    }

    async fn message(&self, ctx: Context, message: Message) {
        let _ = self.0.send(Seen::Message {
            shard: ctx.shard_id.0,
            message: Box::new(message),
        });
    }
}

pub struct Bot {
    pub http: Arc<Http>,
    seen: mpsc::UnboundedReceiver<Seen>,
    manager: Arc<ShardManager>,
    client: JoinHandle<serenity::Result<()>>,
}

pub fn alice() -> Invoker {
    Invoker::member(42, GUILD, CHANNEL)
}

/// Starts a serenity client the way the bot must: `proxy` with the rate limiter off.
pub async fn start_bot(fake: &FakeDiscord, intents: GatewayIntents, shards: u32) -> Bot {
    let api_base = fake.api_base();
    fake_discord::guard_http(&api_base, true).expect("safe test Http");
    let http = HttpBuilder::new(TOKEN)
        .proxy(api_base)
        .ratelimiter_disabled(true)
        .build();
    let (sender, seen) = mpsc::unbounded_channel();
    let mut client = ClientBuilder::new_with_http(http, intents)
        .event_handler(Forward(sender))
        .await
        .expect("serenity client");
    // If GET /gateway had failed, serenity would fall back to the real gateway.
    assert_eq!(*client.ws_url.lock().await, fake.gateway_url());
    let http = client.http.clone();
    let manager = client.shard_manager.clone();
    let client = tokio::spawn(async move {
        if shards == 1 {
            client.start().await
        } else {
            client.start_shards(shards).await
        }
    });
    Bot {
        http,
        seen,
        manager,
        client,
    }
}

/// A bot on one shard with the default intents of the notes (no MESSAGE_CONTENT), ready.
pub async fn ready_bot(fake: &FakeDiscord) -> Bot {
    let intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    let mut bot = start_bot(fake, intents, 1).await;
    bot.ready().await;
    bot
}

impl Bot {
    pub async fn next(&mut self) -> Seen {
        match tokio::time::timeout(WAIT, self.seen.recv()).await {
            Ok(Some(seen)) => seen,
            Ok(None) => panic!("the bot's handler is gone"),
            Err(_) => panic!("the bot saw nothing within {WAIT:?}"),
        }
    }

    pub async fn ready(&mut self) -> u32 {
        loop {
            if let Seen::Ready { shard } = self.next().await {
                return shard;
            }
        }
    }

    /// The next interaction, skipping READY events of reconnects.
    pub async fn interaction(&mut self) -> (u32, Interaction) {
        loop {
            match self.next().await {
                Seen::Interaction { shard, interaction } => return (shard, *interaction),
                Seen::Ready { .. } => {}
                Seen::Message { message, .. } => {
                    panic!("expected an interaction, got message {message:?}")
                }
            }
        }
    }

    /// The next interaction, which must be a slash command.
    pub async fn command(&mut self) -> CommandInteraction {
        match self.interaction().await.1 {
            Interaction::Command(command) => command,
            other => panic!("expected a slash command, got {other:?}"),
        }
    }

    pub async fn message(&mut self) -> (u32, Message) {
        loop {
            match self.next().await {
                Seen::Message { shard, message } => return (shard, *message),
                Seen::Ready { .. } => {}
                Seen::Interaction { interaction, .. } => {
                    panic!("expected a message, got {interaction:?}")
                }
            }
        }
    }

    /// Waits for the client to end by itself (a fatal close) and returns its result.
    pub async fn ended(self) -> serenity::Result<()> {
        match tokio::time::timeout(WAIT, self.client).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => panic!("the client task failed: {join}"),
            Err(_) => panic!("the client did not end within {WAIT:?}"),
        }
    }

    pub async fn stop(self) {
        self.manager.shutdown_all().await;
        let _ = tokio::time::timeout(WAIT, self.client).await;
    }
}

/// Discord's HTTP status and JSON error code of a failed serenity call.
pub fn discord_error<T: std::fmt::Debug>(result: serenity::Result<T>) -> (u16, isize) {
    match result {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(response))) => {
            (response.status_code.as_u16(), response.error.code)
        }
        other => panic!("expected a Discord error answer, got {other:?}"),
    }
}
