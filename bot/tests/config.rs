//! The configuration: the documented example parses, defaults hold, mistakes are
//! refused.

use tavern::config::Config;

#[test]
fn the_example_configuration_parses_to_the_defaults() {
    let text = include_str!("../../config.example.toml");
    let config = Config::from_toml(text).expect("config.example.toml parses");
    assert_eq!(config.database.url, "sqlite://tavern.db");
    assert_eq!(config.chargen.session_expiry_minutes, 24 * 60);
    assert_eq!(config.dice.max_repeat, 20);
    assert_eq!(config.encounters.idle_minutes, 24 * 60);
    assert_eq!(
        tavern::core::CoreSettings::from_config(&config).encounter_idle_ms,
        24 * 3_600_000
    );
    assert_eq!(
        (config.rate_limit.burst, config.rate_limit.per_minute),
        (10, 30)
    );
    assert_eq!(
        (config.shards.total, config.shards.start, config.shards.end),
        (1, 0, 0)
    );
    assert!(config.discord.api_base.is_none());
    let empty = Config::from_toml("").unwrap();
    assert_eq!(empty.database.url, config.database.url);
}

#[test]
fn every_commented_key_of_the_example_is_a_real_key() {
    // Uncommenting a documented key must give a valid file.
    let text = include_str!("../../config.example.toml");
    let uncommented: String = text
        .lines()
        .map(|line| match line.strip_prefix("# ") {
            Some(rest)
                if rest.split_once(" = ").is_some_and(|(key, _)| {
                    !key.is_empty() && key.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')
                }) =>
            {
                rest.split(" #").next().unwrap_or(rest).to_owned()
            }
            _ => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let config = Config::from_toml(&uncommented).expect("the uncommented example parses");
    // The limits it states are the libraries' defaults.
    let defaults = Config::default();
    assert_eq!(
        format!(
            "{:?}",
            tavern::engine::dice::limits_from_config(&config.dice)
        ),
        format!(
            "{:?}",
            tavern::engine::dice::limits_from_config(&defaults.dice)
        ),
    );
    assert_eq!(
        format!(
            "{:?}",
            tavern::engine::basic::limits_from_config(&config.basic)
        ),
        format!(
            "{:?}",
            tavern::engine::basic::limits_from_config(&defaults.basic)
        ),
    );
    assert_eq!(config.discord.application_id, Some(123_456_789_012_345_678));
    assert_eq!(config.basic.max_input_len, Some(255));
    assert_eq!(config.metrics.address.as_deref(), Some("127.0.0.1:9187"));
}

#[test]
fn the_runtime_has_a_thread_per_shard_of_the_process_at_most_a_core_each() {
    // (shards start, end, worker_threads, cores) → threads
    for (start, end, threads, cores, expected) in [
        (0, 0, None, 2, 1),
        (0, 0, None, 16, 1),
        (0, 3, None, 16, 4),
        (4, 7, None, 2, 2),
        (0, 0, Some(3), 2, 3),
        (0, 7, Some(1), 16, 1),
        (0, 0, None, 0, 1),
    ] {
        let mut config = Config::from_toml(&format!(
            "[shards]\ntotal = 8\nstart = {start}\nend = {end}"
        ))
        .expect("a valid configuration");
        config.runtime.worker_threads = threads;
        assert_eq!(
            config.bot_worker_threads(cores),
            expected,
            "shards {start}..={end}, {threads:?}, {cores} cores"
        );
    }
}

#[test]
fn mistakes_are_refused() {
    for (text, needle) in [
        ("[runtime]\nworker_threads = 0", "worker_threads"),
        ("[database]\nurll = \"x\"", "unknown field"),
        (
            "[shards]\ntotal = 2\nstart = 1\nend = 2",
            "end is inclusive",
        ),
        ("[dice]\nmax_repeat = 0", "max_repeat"),
        (
            "[encounters]\nidle_minutes = 0",
            "[encounters] idle_minutes",
        ),
        ("[metrics]\naddress = \"localhost\"", "IP:PORT"),
        (
            "[chargen]\nsession_expiry_minutes = 0",
            "session_expiry_minutes",
        ),
        (
            "[basic]\nmax_output_bytes = 10485761",
            "Discord's file limit",
        ),
        (
            "[web]\ndiscord_url = \"http://discord.example\"",
            "[web] discord_url must be https://",
        ),
        ("[web]\ncache_seconds = 0", "[web] cache_seconds"),
    ] {
        let error = format!("{:#}", Config::from_toml(text).unwrap_err());
        assert!(error.contains(needle), "{text:?}: {error}");
    }
}

#[test]
fn the_database_url_may_come_from_the_environment() {
    let table = [
        (None, "sqlite://tavern.db"),
        (Some(""), "sqlite://tavern.db"),
        (
            Some("postgres://tavern:secret@db:5432/tavern"),
            "postgres://tavern:secret@db:5432/tavern",
        ),
    ];
    for (variable, expected) in table {
        let mut config = Config::default();
        config.apply_env(|name| {
            assert!(
                ["TAVERN_DATABASE_URL", "TAVERN_WEB_CLIENT_SECRET"].contains(&name),
                "{name}"
            );
            variable
                .filter(|_| name == "TAVERN_DATABASE_URL")
                .map(str::to_owned)
        });
        assert_eq!(config.database.url, expected, "{variable:?}");
    }
}

#[test]
fn the_web_client_secret_may_come_from_the_environment() {
    let table = [
        (None, None),
        (Some(" "), None),
        (Some("s3cret\n"), Some("s3cret")),
    ];
    for (variable, expected) in table {
        let mut config = Config::default();
        config.apply_env(|name| {
            variable
                .filter(|_| name == "TAVERN_WEB_CLIENT_SECRET")
                .map(str::to_owned)
        });
        assert_eq!(
            config.web.client_secret.as_deref(),
            expected,
            "{variable:?}"
        );
    }
}
