//! `/init attack` and `/init save` through serenity and the fake Discord (issue 26),
//! on SQLite and PostgreSQL, in English and German: a monster attacks another, a
//! fire save every target fails (a ward takes 5 off, named) and one the target makes
//! (half damage); a monster brought to 0 is out of the fight and rolls no save. The
//! bonuses and DCs leave nothing to chance but a natural 1 or 20, and the seeded
//! generator decides those the same way on every run and backend.

use fake_discord::{Invoker, Opt};

use crate::e2e::support::{Setup, Tavern, admin, ask_sub};

const EFFECTS: &str = "ELEMENTS { FIRE SLASH }
EFFECT FireWard { target_type Character; subject Protections; value +5; method (FIRE);
    duration -1 }
";

/// One command, its whole answer in each language, and the tracker after it.
struct Step {
    sub: &'static str,
    options: fn() -> Vec<Opt>,
    english: &'static str,
    german: &'static str,
    /// Pieces of the tracker after it (the same in both languages).
    tracker: &'static [&'static str],
}

const STEPS: &[Step] = &[
    Step {
        sub: "attack",
        options: || {
            vec![
                Opt::string("targets", "Goblin"),
                Opt::string("attacker", "Orc"),
                Opt::string("hit", "+100"),
                Opt::string("damage", "6"),
                Opt::string("means", "SLASH"),
            ]
        },
        english: "Alice attacks with **Orc**.
```
* Orc attacks Goblin: to hit 1d20 (12) + 100 = 112 vs AC 10: hit
* Damage 6 slash
* Goblin: 30 → 24 hit points
```",
        german: "Alice greift mit **Orc** an.
```
* Orc greift Goblin an: 1d20 (12) + 100 = 112 zum Treffen gegen RK 10: getroffen
* Schaden 6 Slash
* Goblin: 30 → 24 Trefferpunkte
```",
        tracker: &["Goblin 24/30", "Orc 30/30"],
    },
    Step {
        sub: "save",
        options: || {
            vec![
                Opt::string("targets", "Orc, Goblin"),
                Opt::integer("dc", 100),
                Opt::string("ability", "DEX"),
                Opt::string("damage", "10"),
                Opt::string("means", "FIRE"),
            ]
        },
        english: "Alice calls for a **DEX** save, DC 100. Damage 10 fire, half on a success.
```
* Orc saves (DEX) 1d20 (11) + 0 = 11 vs DC 100: failure
* Orc: 30 → 20 hit points
* Goblin saves (DEX) 1d20 (5) + 0 = 5 vs DC 100: failure
* Goblin's FireWard takes 5 off.
* Goblin: 24 → 19 hit points
```",
        german: "Alice verlangt einen Rettungswurf auf **DEX**, SG 100. Schaden 10 Fire, halb bei Erfolg.
```
* Orc würfelt (DEX) 1d20 (11) + 0 = 11 gegen SG 100: Misserfolg
* Orc: 30 → 20 Trefferpunkte
* Goblin würfelt (DEX) 1d20 (5) + 0 = 5 gegen SG 100: Misserfolg
* Bei Goblin hält FireWard 5 ab.
* Goblin: 24 → 19 Trefferpunkte
```",
        tracker: &["Goblin 19/30", "Orc 20/30"],
    },
    Step {
        sub: "save",
        options: || {
            vec![
                Opt::string("targets", "Orc"),
                Opt::integer("dc", 1),
                Opt::string("ability", "DEX"),
                Opt::string("damage", "10"),
                Opt::string("means", "FIRE"),
            ]
        },
        english: "Alice calls for a **DEX** save, DC 1. Damage 10 fire, half on a success.
```
* Orc saves (DEX) 1d20 (17) + 0 = 17 vs DC 1: success
* Orc: 20 → 15 hit points
```",
        german: "Alice verlangt einen Rettungswurf auf **DEX**, SG 1. Schaden 10 Fire, halb bei Erfolg.
```
* Orc würfelt (DEX) 1d20 (17) + 0 = 17 gegen SG 1: Erfolg
* Orc: 20 → 15 Trefferpunkte
```",
        tracker: &["Goblin 19/30", "Orc 15/30"],
    },
    Step {
        sub: "attack",
        options: || {
            vec![
                Opt::string("targets", "Orc"),
                Opt::string("attacker", "Goblin"),
                Opt::string("hit", "+100"),
                Opt::string("damage", "40"),
            ]
        },
        english: "Alice attacks with **Goblin**.
```
* Goblin attacks Orc: to hit 1d20 (17) + 100 = 117 vs AC 10: hit
* Damage 40
* Orc: 15 → 0 hit points
* Orc is down.
```",
        german: "Alice greift mit **Goblin** an.
```
* Goblin greift Orc an: 1d20 (17) + 100 = 117 zum Treffen gegen RK 10: getroffen
* Schaden 40
* Orc: 15 → 0 Trefferpunkte
* Orc geht zu Boden.
```",
        tracker: &["Goblin 19/30", "Orc 0/30"],
    },
    // A monster at 0 hit points is out of the fight: no save, nothing taken.
    Step {
        sub: "save",
        options: || {
            vec![
                Opt::string("targets", "Orc, Goblin"),
                Opt::integer("dc", 100),
                Opt::string("ability", "DEX"),
                Opt::string("damage", "4"),
            ]
        },
        english: "Alice calls for a **DEX** save, DC 100. Damage 4, half on a success.
```
* Orc is at 0 hit points, out of the fight: no save.
* Goblin saves (DEX) 1d20 (18) + 0 = 18 vs DC 100: failure
* Goblin: 19 → 15 hit points
```",
        german: "Alice verlangt einen Rettungswurf auf **DEX**, SG 100. Schaden 4, halb bei Erfolg.
```
* Orc hat 0 Trefferpunkte und ist aus dem Kampf: kein Rettungswurf.
* Goblin würfelt (DEX) 1d20 (18) + 0 = 18 gegen SG 100: Misserfolg
* Goblin: 19 → 15 Trefferpunkte
```",
        tracker: &["Goblin 15/30", "Orc 0/30"],
    },
];

/// The GM, speaking `lang` in a server of the same language.
fn gm(lang: &str) -> Invoker {
    admin().with_locale(lang).with_guild_locale(lang)
}

async fn fight(tavern: Tavern, lang: &str) {
    let german = lang == "de";
    let gm = gm(lang);
    let installed = ask_sub(
        &tavern,
        &gm,
        "effect",
        "install",
        vec![Opt::string("code", EFFECTS)],
    )
    .await;
    assert!(!installed.is_ephemeral() || installed.content.contains("FireWard"));
    ask_sub(&tavern, &gm, "init", "begin", vec![]).await;
    for (name, init) in [("Orc", "10"), ("Goblin", "5")] {
        let added = ask_sub(
            &tavern,
            &gm,
            "init",
            "add",
            vec![
                Opt::string("name", name),
                Opt::string("init", init),
                Opt::string("hp", "30"),
                Opt::integer("ac", 10),
            ],
        )
        .await;
        assert!(added.content.contains(name), "{}", added.content);
    }
    let warded = ask_sub(
        &tavern,
        &gm,
        "init",
        "effect",
        vec![
            Opt::string("targets", "Goblin"),
            Opt::string("effect", "FireWard"),
        ],
    )
    .await;
    assert!(warded.content.contains("FireWard"), "{}", warded.content);
    for step in STEPS {
        let answer = ask_sub(&tavern, &gm, "init", step.sub, (step.options)()).await;
        tavern.settled().await;
        let said = answer.content.replace('\\', "");
        assert!(!answer.is_ephemeral(), "{said}");
        let expected = if german { step.german } else { step.english };
        assert_eq!(said, expected, "{lang}");
        let tracker = tavern
            .fake
            .messages_in(crate::e2e::support::CHANNEL)
            .into_iter()
            .rfind(|message| !message.deleted && message.content.starts_with("**Initiative"))
            .expect("the tracker");
        // The tracker pads its columns.
        let rows = tracker
            .content
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for shown in step.tracker {
            assert!(
                rows.contains(shown),
                "{lang}: {shown:?} in\n{}",
                tracker.content
            );
        }
    }
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn attacks_and_saves_in_english_and_german() {
    for lang in ["en-US", "de"] {
        fight(Tavern::start_with(Setup::busy()).await, lang).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn attacks_and_saves_the_same_on_postgres() {
    for lang in ["en-US", "de"] {
        let Some(setup) = Setup::busy()
            .on_postgres(&format!("combat_e2e_{}", &lang[..2]))
            .await
        else {
            return;
        };
        fight(Tavern::start_with(setup).await, lang).await;
    }
}
