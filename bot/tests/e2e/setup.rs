//! Start-up: the command registration, shard ranges, intents and the Http guard.

use fake_discord::{GatewayRecord, Opt};
use serde_json::Value;
use tavern::config::Config;
use tavern::discord::{Bot, DiscordOptions};

use crate::e2e::support::{GUILD, Setup, TOKEN, Tavern, alice};

fn names(commands: &[Value]) -> Vec<&str> {
    commands
        .iter()
        .filter_map(|command| command["name"].as_str())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn all_commands_are_registered_globally_with_one_bulk_overwrite() {
    let tavern = Tavern::start().await;
    let put = tavern
        .fake
        .wait_request(super::support::CONNECT, |request| {
            request.method == "PUT" && request.path.ends_with("/commands")
        })
        .await
        .expect("a bulk overwrite");
    assert_eq!(
        put.path,
        format!(
            "/applications/{}/commands",
            tavern.fake.config().application_id
        ),
        "the application id comes from READY"
    );
    let registered = tavern.fake.commands(None);
    let specs: Vec<&str> = tavern
        .core
        .command_specs()
        .iter()
        .map(|spec| spec.name)
        .collect();
    assert_eq!(names(&registered), specs, "the whole table, in its order");
    let command = |name: &str| {
        registered
            .iter()
            .find(|command| command["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is not registered"))
    };

    // The table, option by option: /roll's expression is required and autocompleted,
    // /chargen's and /character's subcommands carry their options.
    let roll = command("roll");
    assert_eq!(roll["options"][0]["name"], "expr");
    assert_eq!(roll["options"][0]["type"], 3);
    assert_eq!(roll["options"][0]["required"], true);
    assert_eq!(roll["options"][0]["autocomplete"], true);
    assert_eq!(roll["options"][3]["name"], "repeat");
    assert_eq!(roll["options"][3]["min_value"], 1);
    assert_eq!(roll["options"][3]["max_value"], 20);
    let chargen = command("chargen");
    let subcommands: Vec<&str> = chargen["options"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|sub| sub["type"] == 1)
        .map(|sub| sub["name"].as_str().unwrap())
        .collect();
    assert_eq!(subcommands[..4], ["start", "answer", "cancel", "status"]);
    assert_eq!(chargen["options"][1]["options"][0]["name"], "text");
    assert_eq!(command("character")["options"][1]["name"], "show");
    // `/chargen program add|list|remove|default|show|map` is a subcommand group.
    let program = chargen["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|option| option["name"] == "program")
        .expect("/chargen program is registered");
    assert_eq!(program["type"], 2, "a subcommand group");
    let actions: Vec<&str> = program["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|sub| sub["name"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["add", "list", "remove", "default", "show", "map"]);
    let add = &program["options"][0];
    assert_eq!(add["type"], 1);
    assert_eq!(add["options"][1]["name"], "file");
    assert_eq!(add["options"][1]["type"], 11, "an attachment");
    // `scope` is picked from two choices, named in German for German clients; the
    // values stay what the core reads.
    let scope = &command("macro")["options"][0]["options"][3];
    assert_eq!(scope["name"], "scope");
    assert_eq!(
        scope["choices"],
        serde_json::json!([
            {"name": "me", "value": "me", "name_localizations": {"de": "meins"}},
            {"name": "server", "value": "server", "name_localizations": {"de": "des Servers"}},
        ])
    );
    // Every level carries its German name and description (issue 18).
    assert_eq!(
        roll["name_localizations"],
        serde_json::json!({"de": "würfeln"})
    );
    assert_eq!(
        roll["description_localizations"]["de"],
        "Würfeln: 1d20+5, 4d6kh3, 8d6 Feuer …"
    );
    assert_eq!(roll["options"][0]["name_localizations"]["de"], "ausdruck");
    assert_eq!(program["name_localizations"]["de"], "programm");
    assert_eq!(add["name_localizations"]["de"], "hinzufügen");
    assert_eq!(add["options"][1]["name_localizations"]["de"], "datei");
    // /npc activity takes negative codes too: no minimum of 0.
    let code = &command("npc")["options"][3]["options"][1];
    assert_eq!(code["name"], "code");
    assert!(code["min_value"].is_null(), "{code}");
    assert_eq!(code["max_value"], i64::from(i32::MAX));
    // /config macro-role takes a Role option.
    assert_eq!(command("config")["options"][1]["options"][0]["type"], 8);

    // A new gateway session (a non-resumable invalidation) brings a second READY, but
    // the commands are registered once per process.
    let first = super::support::latest_session(&tavern.fake);
    assert!(tavern.fake.invalidate_session(0, false));
    tavern
        .fake
        .wait_gateway(super::support::CONNECT, |record| {
            matches!(record, GatewayRecord::Ready { session_id, .. } if *session_id != first)
        })
        .await
        .expect("a second READY");
    tavern
        .fake
        .wait_ready(0, super::support::CONNECT)
        .await
        .unwrap();
    let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "1d6")]);
    tavern.callback(roll).await;
    assert_eq!(tavern.requests_to("PUT", "/commands"), 1);
    assert!(tavern.bot().commands_registered());
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_development_guild_gets_guild_commands() {
    let mut setup = Setup::default();
    setup.config.discord.dev_guild_id = Some(GUILD);
    setup.config.discord.application_id = Some(setup.fake.application_id);
    let tavern = Tavern::start_with(setup).await;
    tavern
        .fake
        .wait_request(super::support::CONNECT, |request| request.method == "PUT")
        .await
        .expect("a bulk overwrite");
    let guild_commands = tavern.fake.commands(Some(GUILD));
    assert_eq!(guild_commands.len(), tavern.core.command_specs().len());
    assert_eq!(
        names(&guild_commands)[..3],
        ["roll", "chargen", "character"]
    );
    assert!(tavern.fake.commands(None).is_empty());
    assert_eq!(
        tavern.requests_to("PUT", &format!("/guilds/{GUILD}/commands")),
        1
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_process_running_a_later_shard_range_does_not_register() {
    // Two shards in all; this process runs shard 1 only (`start = end = 1`, the end
    // inclusive) and leaves the registration to the process that runs shard 0.
    let mut setup = Setup::default();
    setup.fake.shard_count = 2;
    setup.config.shards.total = 2;
    setup.config.shards.start = 1;
    setup.config.shards.end = 1;
    let tavern = Tavern::start_with(setup).await;
    let identified: Vec<[u32; 2]> = tavern
        .fake
        .gateway_log()
        .iter()
        .filter_map(|record| match record {
            GatewayRecord::Identify { shard, .. } => Some(*shard),
            _ => None,
        })
        .collect();
    assert_eq!(identified, [[1, 2]]);
    // A guild routed to shard 1 is served by this process.
    let guild = (1u64 << 22) | 5;
    assert_eq!(tavern.fake.shard_for_guild(guild), 1);
    let who = fake_discord::Invoker::member(42, guild, 9_000);
    let roll = tavern.slash(&who, "roll", vec![Opt::string("expr", "2d6")]);
    assert_eq!(tavern.callback(roll).await.kind, 4);
    assert_eq!(tavern.requests_to("PUT", "/commands"), 0);
    assert!(!tavern.bot().commands_registered());
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_message_content_intent_is_asked_for_only_when_configured() {
    let quiet = Tavern::start().await;
    let mut setup = Setup::default();
    setup.config.discord.message_content_intent = true;
    let curious = Tavern::start_with(setup).await;
    for (tavern, expected) in [(&quiet, 0), (&curious, 1 << 15)] {
        let intents = tavern
            .fake
            .gateway_log()
            .iter()
            .find_map(|record| match record {
                GatewayRecord::Identify { intents, .. } => Some(*intents),
                _ => None,
            })
            .expect("an IDENTIFY");
        assert_eq!(intents & (1 << 15), expected);
        // GUILD_MESSAGES and DIRECT_MESSAGES, for replies to prompts.
        assert_eq!(intents & ((1 << 9) | (1 << 12)), (1 << 9) | (1 << 12));
    }
    quiet.stop().await;
    curious.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_api_base_off_loopback_is_refused_before_any_request() {
    let dir = crate::support::TempDir::new("e2e-guard");
    let storage = crate::support::sqlite_storage(&dir).await;
    let core = std::sync::Arc::new(tavern::core::Core::new(
        storage.clone(),
        super::support::engines(),
        tavern::core::CoreSettings::default(),
        std::sync::Arc::new(tavern::core::limits::SystemClock),
        Some(1),
    ));
    for base in [
        "https://discord.com",
        "http://10.1.2.3:8080",
        "http://example.com",
    ] {
        let mut config = Config::default();
        config.discord.api_base = Some(base.to_owned());
        let options = DiscordOptions::from_config(&config, TOKEN);
        let Err(error) = Bot::connect(core.clone(), options).await else {
            panic!("{base} was accepted");
        };
        assert!(error.to_string().contains("api_base"), "{base}: {error:#}");
    }
    storage.close().await;
}
