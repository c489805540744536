//! The dashboard's live encounters, settings, locale and rate limits (issue 25),
//! through the router in-process: a tracker page as players and as the GM see it, its
//! event stream answering `/init next` sent to the core as the bot sends it, the
//! settings through `/config`, the page's language from the login's Discord locale,
//! 429 on logins and engine routes. The browser tests are in `web_browser.rs`.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use futures::StreamExt as _;
use tavern::config::WebConfig;
use tavern::core::{OptionValue, Permissions};
use tavern::web::{Web, WebOptions};
use tower::ServiceExt as _;

use crate::encounter::{as_user, init, table};
use crate::harness::{ALICE, BOB, CHANNEL, GUILD, text};
use crate::web_support::{ORIGIN, Site, options};

/// The encounter table of `encounter.rs` (Bob plays Bram) behind a dashboard.
async fn encounter_site() -> Site {
    Site::on(table().await, options(true))
}

/// Alice begins (she is the GM), Bram joins at 20, a hidden Orc at 10 with 10 HP.
async fn fight(site: &mut Site) {
    let table = &mut site.harness;
    as_user(table, ALICE, init("begin", &[])).await;
    as_user(table, BOB, init("join", &[("init", text("20"))])).await;
    let add = init(
        "add",
        &[
            ("name", text("Orc")),
            ("init", text("10")),
            ("hp", text("10")),
            ("ac", OptionValue::Integer(13)),
            ("hidden", OptionValue::Boolean(true)),
        ],
    );
    as_user(table, ALICE, add).await;
}

fn tracker_path() -> String {
    format!("/servers/{GUILD}/encounters/{CHANNEL}")
}

#[tokio::test]
async fn players_see_the_tracker_and_the_gm_the_gm_view_as_init_list_shows_them() {
    let mut site = encounter_site().await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let listed = site
        .get(&format!("/servers/{GUILD}/encounters"), Some(&bob))
        .await;
    assert!(listed.body.contains("No encounter runs"), "{}", listed.body);
    assert_eq!(site.get(&tracker_path(), Some(&bob)).await.status, 404);
    fight(&mut site).await;
    let listed = site
        .get(&format!("/servers/{GUILD}/encounters"), Some(&bob))
        .await;
    assert!(listed.body.contains(&tracker_path()), "{}", listed.body);

    let player = site.get(&tracker_path(), Some(&bob)).await;
    assert_eq!(player.status, StatusCode::OK);
    assert!(player.body.contains("Orc  healthy"), "{}", player.body);
    assert!(!player.body.contains("10/10"), "hidden numbers leak");
    assert!(!player.body.contains("GM view"));
    // Without script the page reloads itself; with it, /live.js follows the events.
    assert!(
        player
            .body
            .contains("<noscript><meta http-equiv=\"refresh\"")
    );
    assert!(
        player
            .body
            .contains("<script src=\"/live.js\" defer></script>")
    );
    assert!(
        player
            .body
            .contains("data-events=\"/servers/500/encounters/600/events?step=2\"")
    );

    // The GM, and a member with Manage Server, see the numbers as /init list shows them.
    for gm in [
        site.login(ALICE, &[(GUILD, 0)]).await,
        site.login(BOB, &[(GUILD, Permissions::MANAGE_GUILD)]).await,
    ] {
        let page = site.get(&tracker_path(), Some(&gm)).await;
        assert!(page.body.contains("GM view"), "{}", page.body);
        assert!(
            page.body.contains("Orc  10/10 AC 13 (hidden)"),
            "{}",
            page.body
        );
    }
    // A server the user is not in looks like nothing; so does this channel's
    // encounter under another server of the user's.
    assert_eq!(
        site.get("/servers/501/encounters/600", Some(&bob))
            .await
            .status,
        404
    );
    let in_both = site.login(BOB, &[(GUILD, 0), (501, 0)]).await;
    assert_eq!(site.get(&tracker_path(), Some(&in_both)).await.status, 200);
    let elsewhere = site
        .get("/servers/501/encounters/600", Some(&in_both))
        .await;
    assert_eq!(elsewhere.status, 404);
    let stream = site
        .get("/servers/501/encounters/600/events", Some(&in_both))
        .await;
    assert_eq!(stream.status, StatusCode::NO_CONTENT);
    let script = site.get("/live.js", Some(&bob)).await;
    assert_eq!(script.status, StatusCode::OK);
    assert!(script.body.contains("EventSource"));
}

/// The next `tracker` event of an event stream.
async fn next_tracker_event(
    stream: &mut (impl futures::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
) -> String {
    let mut seen = String::new();
    // A guard against a hang only (a broken stream); nothing is timed.
    let read = async {
        while let Some(chunk) = stream.next().await {
            seen.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            if let Some(at) = seen.find("event: tracker\n")
                && let Some(end) = seen[at..].find("\n\n")
            {
                return seen[at..at + end].to_owned();
            }
        }
        panic!("the stream ended: {seen}");
    };
    tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("a tracker event")
}

#[tokio::test]
async fn an_open_page_hears_init_next_and_the_end_of_the_encounter() {
    let mut site = encounter_site().await;
    fight(&mut site).await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let request = Request::get(format!("{}/events", tracker_path()))
        .header(header::COOKIE, &bob)
        .body(Body::empty())
        .unwrap();
    let response = site.router().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    assert_eq!(site.web.live_views_open(), 1);
    let mut stream = response.into_body().into_data_stream();

    // `/init next` as the bot handles it: the open page gets the new tracker.
    as_user(&mut site.harness, ALICE, init("next", &[])).await;
    let event = next_tracker_event(&mut stream).await;
    assert!(event.contains("▶ 20 Bram"), "{event}");
    assert!(event.contains("Orc  healthy"), "{event}");
    assert!(!event.contains("10/10"), "hidden numbers leak: {event}");
    as_user(&mut site.harness, BOB, init("next", &[])).await;
    let event = next_tracker_event(&mut stream).await;
    assert!(event.contains("▶ 10 Orc  healthy"), "{event}");

    // A change in another channel wakes nobody here; the end does.
    let end = as_user(&mut site.harness, ALICE, init("end", &[])).await;
    let confirm = crate::encounter::button(&end, "End the encounter");
    let press = site.harness.request(
        ALICE,
        Some(GUILD),
        tavern::core::RequestKind::Button {
            custom_id: confirm,
            message_id: 1,
        },
    );
    site.harness.send(&press).await;
    let event = next_tracker_event(&mut stream).await;
    assert!(event.contains("The encounter is over."), "{event}");
    // The stream then ends and gives its place back.
    assert!(stream.next().await.is_none());
    drop(stream);
    assert_eq!(site.web.live_views_open(), 0);
    // With no encounter there, the browser is told to stop asking.
    let gone = site
        .get(&format!("{}/events", tracker_path()), Some(&bob))
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_page_older_than_the_encounter_gets_the_tracker_as_soon_as_its_stream_opens() {
    let mut site = encounter_site().await;
    fight(&mut site).await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let page = site.get(&tracker_path(), Some(&bob)).await;
    let marker = "data-events=\"";
    let start = page.body.find(marker).unwrap() + marker.len();
    let events = page.body[start..start + page.body[start..].find('"').unwrap()].to_owned();
    assert!(events.ends_with("?step=2"), "{events}");
    // The turn moves on before the browser opens the stream: it is sent at once.
    as_user(&mut site.harness, ALICE, init("next", &[])).await;
    let request = Request::get(&events)
        .header(header::COOKIE, &bob)
        .body(Body::empty())
        .unwrap();
    let response = site.router().oneshot(request).await.unwrap();
    let mut stream = response.into_body().into_data_stream();
    let event = next_tracker_event(&mut stream).await;
    assert!(event.contains("id: 3"), "{event}");
    assert!(event.contains("▶ 20 Bram"), "{event}");
}

#[tokio::test]
async fn settings_go_through_config_and_only_admins_see_the_forms() {
    let site = encounter_site().await;
    let player = site.login(BOB, &[(GUILD, 0)]).await;
    let page = site
        .get(&format!("/servers/{GUILD}/settings"), Some(&player))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Only members with Manage Server"));
    assert!(!page.body.contains("name=\"language\""));
    // A player's form is refused by the core as /config refuses it.
    let token = site.csrf(&player).await;
    let refused = site
        .post(
            &format!("/servers/{GUILD}/settings/language"),
            Some(&player),
            &[("csrf", &token), ("language", "de")],
        )
        .await;
    assert!(
        refused.body.contains("Only members with"),
        "{}",
        refused.body
    );
    assert_eq!(
        site.harness.storage.guild_language(GUILD).await.unwrap(),
        None
    );

    let admin = site
        .login(ALICE, &[(GUILD, Permissions::MANAGE_GUILD)])
        .await;
    let token = site.csrf(&admin).await;
    let page = site
        .get(&format!("/servers/{GUILD}/settings"), Some(&admin))
        .await;
    for field in ["language", "role"] {
        assert!(
            page.body.contains(&format!("<label for=\"{field}\">")),
            "{field} has a label"
        );
    }
    let set = site
        .post(
            &format!("/servers/{GUILD}/settings/language"),
            Some(&admin),
            &[("csrf", &token), ("language", "de")],
        )
        .await;
    assert_eq!(set.status, StatusCode::OK);
    assert_eq!(
        site.harness.storage.guild_language(GUILD).await.unwrap(),
        Some("de".to_owned())
    );
    assert!(set.body.contains("<option value=\"de\" selected>"));
    let role = format!("/servers/{GUILD}/settings/macro-role");
    let bad = site
        .post(&role, Some(&admin), &[("csrf", &token), ("role", "<b>")])
        .await;
    assert!(bad.body.contains("A role id is a number"), "{}", bad.body);
    assert_eq!(site.harness.storage.tavern_role(GUILD).await.unwrap(), None);
    site.post(&role, Some(&admin), &[("csrf", &token), ("role", "4242")])
        .await;
    assert_eq!(
        site.harness.storage.tavern_role(GUILD).await.unwrap(),
        Some(4242)
    );
    site.post(&role, Some(&admin), &[("csrf", &token), ("role", "")])
        .await;
    assert_eq!(site.harness.storage.tavern_role(GUILD).await.unwrap(), None);
    // Without the token nothing changes.
    let forged = site.post(&role, Some(&admin), &[("role", "77")]).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(site.harness.storage.tavern_role(GUILD).await.unwrap(), None);
}

#[tokio::test]
async fn the_page_speaks_the_logins_discord_locale_before_the_browsers() {
    let site = encounter_site().await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    // Without a Discord locale (this session): the browser's Accept-Language.
    let german = Request::get("/servers")
        .header(header::COOKIE, &bob)
        .header(header::ACCEPT_LANGUAGE, "de-AT,de;q=0.9,en;q=0.5")
        .body(Body::empty())
        .unwrap();
    let page = site.send(german).await;
    assert!(page.body.contains("<html lang=\"de\">"), "{}", page.body);
    assert!(page.body.contains("Einstellungen"));
    // A login whose Discord locale is German gets German whatever the browser says.
    let storage = &site.harness.storage;
    storage
        .create_web_session(&tavern::storage::WebSessionRow {
            id_hash: tavern::web::hash_session_id("german"),
            user_id: BOB,
            user_name: "Bob".to_owned(),
            guilds: "[]".to_owned(),
            csrf_token: "t".to_owned(),
            dev_login: 0,
            created_at: 0,
            expires_at: i64::MAX,
            sealed_token: None,
            guilds_at: 0,
            locale: Some("de".to_owned()),
        })
        .await
        .unwrap();
    let english_browser = Request::get("/servers")
        .header(header::COOKIE, "tavern_session=german")
        .header(header::ACCEPT_LANGUAGE, "en-US")
        .body(Body::empty())
        .unwrap();
    let page = site.send(english_browser).await;
    assert!(page.body.contains("<html lang=\"de\">"), "{}", page.body);
    // Nothing at all: English.
    let page = site.get("/servers", Some(&bob)).await;
    assert!(page.body.contains("<html lang=\"en\">"));
}

#[tokio::test]
async fn logins_and_engine_routes_are_rate_limited_with_a_page_in_the_readers_language() {
    let site = encounter_site().await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let request = Request::post("/login/dev")
            .header(header::ORIGIN, ORIGIN)
            .header(header::ACCEPT_LANGUAGE, "de")
            .body(Body::empty())
            .unwrap();
        statuses.push(site.send(request).await);
    }
    let logged_in = statuses
        .iter()
        .filter(|answer| answer.status == StatusCode::SEE_OTHER)
        .count();
    assert_eq!(logged_in, tavern::web::LOGIN_BURST as usize);
    let refused = statuses.last().unwrap();
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        refused.body.contains("Zu viele Anfragen"),
        "{}",
        refused.body
    );
    assert!(refused.headers.contains_key(header::RETRY_AFTER));

    // An engine route (a check, a try, a play) takes a token of the session's bucket:
    // the bot's [rate_limit] burst, then 429; another session has its own.
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let burst = site.harness.core.settings().rate_burst as usize;
    let path = format!("/servers/{GUILD}/programs/x/check");
    let mut answers = Vec::new();
    for _ in 0..burst + 1 {
        answers.push(site.post(&path, Some(&bob), &[]).await.status);
    }
    assert!(
        answers[..burst]
            .iter()
            .all(|status| *status != StatusCode::TOO_MANY_REQUESTS)
    );
    assert_eq!(answers[burst], StatusCode::TOO_MANY_REQUESTS);
    let alice = site.login(ALICE, &[(GUILD, 0)]).await;
    assert_ne!(
        site.post(&path, Some(&alice), &[]).await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// The role that opens the battle channel to players.
const PLAYERS_ROLE: u64 = 71;
const BOT_TOKEN: &str = "live-bot-token";

/// A fake Discord where the table's channel (`#battle-map`) is hidden from
/// `@everyone` and open to the players' role, Alice and Bob both members.
async fn discord_for(site: &mut Site, bob_roles: Vec<u64>) -> fake_discord::FakeDiscord {
    use fake_discord::{
        FakeConfig, FakeDiscord, GuildChannel, OAuthGuild, OAuthUser, Overwrite, OverwriteTarget,
    };
    let fake = FakeDiscord::start(FakeConfig {
        token: Some(BOT_TOKEN.to_owned()),
        ..FakeConfig::default()
    })
    .await;
    for (id, name, roles) in [
        (ALICE, "Alice", vec![PLAYERS_ROLE]),
        (BOB, "Bob", bob_roles),
    ] {
        fake.add_oauth_user(OAuthUser {
            id: id as u64,
            username: name.to_owned(),
            locale: "en-US".to_owned(),
            guilds: vec![OAuthGuild {
                id: GUILD as u64,
                name: "The Tavern".to_owned(),
                permissions: 0,
                roles,
            }],
        });
    }
    let mut battle = GuildChannel::text(CHANNEL as u64, "battle-map");
    battle.overwrites = vec![
        Overwrite {
            target: OverwriteTarget::Role(GUILD as u64),
            allow: 0,
            deny: VIEW_CHANNEL,
        },
        Overwrite {
            target: OverwriteTarget::Role(PLAYERS_ROLE),
            allow: VIEW_CHANNEL,
            deny: 0,
        },
    ];
    fake.set_guild_channels(GUILD as u64, vec![battle]);
    let config = WebConfig {
        client_id: Some(4_444),
        client_secret: Some("secret".to_owned()),
        discord_url: fake.api_base(),
        ..WebConfig::default()
    };
    let options = WebOptions::new(&config, ORIGIN[7..].parse().unwrap(), false)
        .unwrap()
        .with_discord(&config, Some(BOT_TOKEN.to_owned()))
        .unwrap();
    site.web = Web::new(
        site.harness.core.clone(),
        site.harness.clock.clone(),
        options,
    );
    fake
}

const VIEW_CHANNEL: u64 = 1 << 10;

#[tokio::test]
async fn a_channel_hidden_from_a_member_on_discord_hides_its_tracker_and_names_the_others() {
    let mut site = encounter_site().await;
    fight(&mut site).await;
    let fake = discord_for(&mut site, Vec::new()).await;
    let list = format!("/servers/{GUILD}/encounters");
    let events = format!("{}/events", tracker_path());

    // Bob may view channels in the server, but not this one (no players' role).
    let bob = site.login(BOB, &[(GUILD, VIEW_CHANNEL)]).await;
    assert_eq!(site.get(&tracker_path(), Some(&bob)).await.status, 404);
    assert_eq!(site.get(&events, Some(&bob)).await.status, 404);
    let listed = site.get(&list, Some(&bob)).await;
    assert_eq!(listed.status, 200);
    assert!(!listed.body.contains(&tracker_path()), "{}", listed.body);
    assert!(listed.body.contains("No encounter runs"), "{}", listed.body);

    // Alice has the role: the tracker, and the list names the channel as Discord does.
    let alice = site.login(ALICE, &[(GUILD, VIEW_CHANNEL)]).await;
    assert_eq!(site.get(&tracker_path(), Some(&alice)).await.status, 200);
    let listed = site.get(&list, Some(&alice)).await;
    assert!(listed.body.contains(&tracker_path()), "{}", listed.body);
    assert!(
        listed.body.contains("Channel #battle-map"),
        "{}",
        listed.body
    );
    assert!(!listed.body.contains("Channel 600"), "{}", listed.body);
    // The reads went through the bot's token and are kept briefly: once per page here.
    let reads = |path: String| {
        fake.requests()
            .iter()
            .filter(|request| request.path == path)
            .map(|request| request.authorization.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let channel_reads = reads(format!("/guilds/{GUILD}/channels"));
    assert_eq!(channel_reads, [format!("Bot {BOT_TOKEN}")]);

    // An Administrator sees through the overwrites.
    let admin = site
        .login(BOB, &[(GUILD, Permissions::ADMINISTRATOR)])
        .await;
    assert_eq!(site.get(&tracker_path(), Some(&admin)).await.status, 200);

    // Bob gets the role on Discord: once the cache ages, the tracker is his to see.
    fake.set_oauth_guilds(
        BOB as u64,
        vec![fake_discord::OAuthGuild {
            id: GUILD as u64,
            name: "The Tavern".to_owned(),
            permissions: 0,
            roles: vec![PLAYERS_ROLE],
        }],
    );
    assert_eq!(
        site.get(&tracker_path(), Some(&bob)).await.status,
        404,
        "cached"
    );
    site.harness.clock.advance_ms(301_000);
    assert_eq!(site.get(&tracker_path(), Some(&bob)).await.status, 200);
    // The stream opens (its body never ends, so only the head is read).
    let request = Request::get(&events)
        .header(header::COOKIE, &bob)
        .body(Body::empty())
        .unwrap();
    let response = site.router().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    drop(response);

    // The channel cannot be read any more (deleted on Discord): hidden again, and
    // the Administrator still sees the tracker, named by its id.
    fake.set_guild_channels(GUILD as u64, Vec::new());
    site.harness.clock.advance_ms(301_000);
    assert_eq!(site.get(&tracker_path(), Some(&bob)).await.status, 404);
    let listed = site.get(&list, Some(&admin)).await;
    assert!(listed.body.contains(&tracker_path()), "{}", listed.body);
    assert!(listed.body.contains("Channel 600"), "{}", listed.body);
    fake.shutdown().await;
}
