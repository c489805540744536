//! Issue 14's benchmark in the bot: one `/init next` through the core the console
//! drives (real engines, a SQLite file), on an encounter of 50 combatants each
//! holding 20 recurring effects. Each iteration is the whole command: read the row,
//! load the library (cached), run the engine, store the state in one transaction,
//! render the events and the tracker. Beside it (issue 26), one `/init attack` on
//! 20 of those combatants: 20 to-hit rolls against their AC, damage on each hit
//! through the effect engine, the same one transaction and rendering.
//!
//! ```text
//! cargo bench -p tavern --bench encounter
//! ```

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use tavern::config::Config;
use tavern::core::limits::SystemClock;
use tavern::core::{
    Command, CommandOption, Core, CoreSettings, Member, OptionValue, Permissions, Reply, Request,
    RequestKind, User,
};
use tavern::storage::{EffectLibraryRow, Storage, StorageOptions, sqlite_url_for_path};

const GUILD: i64 = 1;
const CHANNEL: i64 = 2;

fn library() -> String {
    let mut source = String::from("ELEMENTS { POISON MAGIC }\n");
    for index in 0..20 {
        source.push_str(&format!(
            "EFFECT Effect{index:02} {{ target_type Character; subject Speed; value +1; \
             method (MAGIC); duration -1 }}\n"
        ));
    }
    source
}

fn init(sub: &str, options: &[(&str, OptionValue)]) -> Request {
    Request {
        user: User {
            id: 7,
            name: "GM".to_owned(),
        },
        guild_id: Some(GUILD),
        channel_id: CHANNEL,
        locale: None,
        guild_locale: None,
        member: Some(Member {
            permissions: Permissions::ALL,
            roles: vec![],
        }),
        kind: RequestKind::Command(Command {
            name: "init".to_owned(),
            subcommand: vec![sub.to_owned()],
            options: options
                .iter()
                .map(|(name, value)| CommandOption {
                    name: (*name).to_owned(),
                    value: value.clone(),
                })
                .collect(),
        }),
    }
}

fn text(value: &str) -> OptionValue {
    OptionValue::String(value.to_owned())
}

fn content(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) => Some(message.content.clone()),
            _ => None,
        })
        .collect()
}

async fn setup(path: &std::path::Path) -> Core {
    let storage = Storage::open(
        &sqlite_url_for_path(&path.to_string_lossy()),
        &StorageOptions::default(),
    )
    .await
    .expect("the database opens");
    let source = library();
    storage
        .set_effect_library(&EffectLibraryRow {
            guild_id: GUILD,
            source,
            effect_count: 20,
            installed_by: 7,
            installed_by_name: "GM".to_owned(),
            installed_at: 0,
        })
        .await
        .expect("the library is stored");
    let config = Config::default();
    let settings = CoreSettings {
        rate_burst: u32::MAX,
        rate_per_minute: u32::MAX,
        ..CoreSettings::from_config(&config)
    };
    let engines = tavern::engine::real_engines(&config).expect("the engines start");
    let core = Core::new(storage, engines, settings, Arc::new(SystemClock), Some(1));
    core.handle(&init("begin", &[])).await;
    let mut names = Vec::new();
    for (group, count) in [("A", 20), ("B", 20), ("C", 10)] {
        core.handle(&init(
            "add",
            &[
                ("name", text(group)),
                ("init", text("1d20")),
                // Enough hit points that no attack of the bench kills anyone: every
                // iteration does the same work.
                ("hp", text("100000000")),
                ("ac", OptionValue::Integer(12)),
                ("count", OptionValue::Integer(count)),
            ],
        ))
        .await;
        names.extend((1..=count).map(|index| format!("{group}_{index}")));
    }
    let targets = names.join(", ");
    for index in 0..20 {
        let applied = core
            .handle(&init(
                "effect",
                &[
                    ("targets", text(&targets)),
                    ("effect", text(&format!("Effect{index:02}"))),
                ],
            ))
            .await;
        assert!(content(&applied).contains(": speed "), "{applied:?}");
    }
    core
}

fn next(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let path =
        std::env::temp_dir().join(format!("tavern-encounter-bench-{}.db", std::process::id()));
    let core = runtime.block_on(setup(&path));
    let request = init("next", &[]);
    let first = runtime.block_on(core.handle(&request));
    assert!(content(&first).contains("[round 1]"), "{first:?}");
    c.bench_function("/init next, 50 combatants x 20 recurring effects", |b| {
        b.iter(|| runtime.block_on(core.handle(&request)))
    });
    drop(core);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// `/init attack` by `A_1` on `B_1` … `B_20`: the GM attacks with a bonus and damage
/// by a declared means, so protections and immunities are looked at on every hit.
fn attack(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let path = std::env::temp_dir().join(format!(
        "tavern-encounter-attack-bench-{}.db",
        std::process::id()
    ));
    let core = runtime.block_on(setup(&path));
    let targets: Vec<String> = (1..=20).map(|index| format!("B_{index}")).collect();
    let request = init(
        "attack",
        &[
            ("targets", text(&targets.join(", "))),
            ("attacker", text("A_1")),
            ("hit", text("+5")),
            ("damage", text("1d8+3")),
            ("means", text("MAGIC")),
        ],
    );
    let first = runtime.block_on(core.handle(&request));
    // The events of 20 targets are cut to fit one message: the first is there.
    assert!(
        content(&first).contains("* A_1 attacks B_1: to hit"),
        "{first:?}"
    );
    c.bench_function("/init attack, 20 targets, in the same encounter", |b| {
        b.iter(|| runtime.block_on(core.handle(&request)))
    });
    drop(core);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).without_plots();
    targets = next, attack
}
criterion_main!(benches);
