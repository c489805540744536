//! `/init` through the core: a fight over two rounds with an effect wearing off, a
//! hidden monster as players and the GM see it, permissions, stale and double
//! presses, a restart mid-encounter, and what a character keeps afterwards.

use tavern::core::{
    Component, CoreSettings, Member, Message, OptionValue, Permissions, Reply, RequestKind,
};
use tavern::storage::{EffectLibraryRow, NewCharacter};

use crate::harness::{ALICE, BOB, GUILD, Harness, Hold, START_MS, Sent, command, text};

/// A third member, neither GM nor player.
const CAROL: i64 = 13;

const EFFECTS: &str = "ELEMENTS { POISON MAGIC }
EFFECT Poison { target_type Character; subject HitPoints; value -2; method (POISON);
    duration 2; cumulative no }
EFFECT Bless { target_type Character; subject Strength; value +1; method (MAGIC);
    duration -1; mode while_active }
EFFECT Heal { target_type Character; subject HitPoints; value +1d4; duration 0 }
EFFECT Fireball { target_type Character; subject HitPoints; value -3d6; method (MAGIC) }
EFFECT Stun { target_type Character; subject LoseTurn; value true; method (MAGIC); duration 1 }
";

pub(crate) fn init(sub: &str, options: &[(&str, OptionValue)]) -> RequestKind {
    command("init", &[sub], options)
}

pub(crate) async fn as_user(table: &mut Harness, user: i64, kind: RequestKind) -> Sent {
    let request = table.request(user, Some(GUILD), kind);
    table.send(&request).await
}

/// A table with the effect file installed and Bob's character Bram (HP 12 of 12,
/// DEX 16, AC 5, STR 10) played in the guild.
pub(crate) async fn table() -> Harness {
    table_with(EFFECTS, 5).await
}

/// [`table`] with another effect file of `count` effects.
pub(crate) async fn table_with(effects: &str, count: i64) -> Harness {
    let table = Harness::new().await;
    table
        .storage
        .set_effect_library(&EffectLibraryRow {
            guild_id: GUILD,
            source: effects.to_owned(),
            effect_count: count,
            installed_by: ALICE,
            installed_by_name: "Alice".to_owned(),
            installed_at: START_MS,
        })
        .await
        .unwrap();
    table
        .storage
        .finish_session(
            None,
            &[NewCharacter {
                id: 77,
                owner_id: BOB,
                guild_id: GUILD,
                name: "Bram".to_owned(),
                program: "chargen".to_owned(),
                program_hash: "h".to_owned(),
                fields: r#"[["NAME","Bram"],["HP","12"],["DEX","16"],["AC","5"],["STR","10"]]"#
                    .to_owned(),
                transcript: String::new(),
                gold: 0,
                food: 0,
                now: START_MS,
                capture: String::new(),
                numbered: false,
            }],
        )
        .await
        .unwrap();
    table
        .storage
        .set_active_character(GUILD, BOB, 77, START_MS)
        .await
        .unwrap();
    table
}

/// Begins (Alice is the GM), Bram joins at 20, a hidden Orc at 10 with 10 HP.
async fn fight() -> Harness {
    let mut table = table().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    as_user(&mut table, BOB, init("join", &[("init", text("20"))])).await;
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
    as_user(&mut table, ALICE, add).await;
    table
}

/// The tracker as this answer left it (a new message, an edit or the pressed one).
pub(crate) fn tracker(sent: &Sent) -> Option<&Message> {
    sent.replies.iter().find_map(|reply| match reply {
        Reply::Channel { message, .. } | Reply::Edit { message, .. } | Reply::Update(message)
            if message.content.starts_with("**Initiative") =>
        {
            Some(message)
        }
        _ => None,
    })
}

/// The custom id of a button in any reply.
pub(crate) fn button(sent: &Sent, label: &str) -> String {
    sent.replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. }
            | Reply::Update(message) => Some(message),
            _ => None,
        })
        .flat_map(|message| message.components.iter().flat_map(|row| row.0.iter()))
        .find_map(|component| match component {
            Component::Button(button) if button.label == label => Some(button.custom_id.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {label} button in {:#?}", sent.replies))
}

pub(crate) fn press(custom_id: &str) -> RequestKind {
    RequestKind::Button {
        custom_id: custom_id.to_owned(),
        message_id: 1,
    }
}

/// The channel's encounter as stored.
pub(crate) async fn stored_engine(table: &Harness) -> npc_core::effects::Encounter {
    let row = table
        .storage
        .encounter_in_channel(crate::harness::CHANNEL)
        .await
        .unwrap()
        .expect("an encounter in the channel");
    serde_json::from_str(&row.state).unwrap()
}

/// The public answer of a command (its events), markdown escapes taken out.
pub(crate) fn said(sent: &Sent) -> String {
    sent.replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) => Some(message.content.replace('\\', "")),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn two_rounds_with_an_effect_wearing_off_and_a_hidden_monster() {
    let mut table = fight().await;
    let next = init("next", &[]);
    let steps: Vec<(i64, RequestKind, &[&str], &[&str])> = vec![
        (
            ALICE,
            next.clone(),
            &["[round 1] Bram"],
            &["▶ 20 Bram 12/12 AC 5"],
        ),
        (
            // Bob acts on the Orc during his own turn; the Orc's numbers stay hidden.
            BOB,
            init(
                "effect",
                &[("targets", text("Orc")), ("effect", text("Poison"))],
            ),
            &["Poison on Orc: healthy"],
            &["  10 Orc  healthy  Poison 2"],
        ),
        (
            BOB,
            next.clone(),
            &["[round 1] Orc", "Poison on Orc: healthy"],
            &["▶ 10 Orc  healthy  Poison 1"],
        ),
        (ALICE, next.clone(), &["[round 2] Bram"], &["round 2"]),
        (
            ALICE,
            next.clone(),
            &[
                "[round 2] Orc",
                "Poison on Orc: bloodied",
                "Poison wears off Orc.",
            ],
            &["▶ 10 Orc  bloodied\n"],
        ),
    ];
    for (user, kind, events, shown) in steps {
        let sent = as_user(&mut table, user, kind).await;
        let answer = said(&sent);
        let tracker = tracker(&sent)
            .expect("the tracker is redrawn")
            .content
            .clone();
        for event in events {
            assert!(answer.contains(event), "{event} in {answer}");
        }
        for line in shown {
            assert!(tracker.contains(line), "{line} in {tracker}");
        }
        assert!(!answer.contains("/10"), "hidden numbers leak: {answer}");
    }
    // The GM's private list has the numbers.
    let gm = as_user(&mut table, ALICE, init("list", &[])).await;
    let list = gm.interaction();
    assert!(list.ephemeral);
    assert!(
        list.content.contains("Orc  4/10 AC 13 (hidden)"),
        "{}",
        list.content
    );
    let player = as_user(&mut table, BOB, init("list", &[])).await;
    assert!(player.interaction().content.contains("Orc  bloodied"));
    assert!(!player.interaction().content.contains("4/10"));
}

#[tokio::test]
async fn the_tracker_is_one_message_edited_in_place() {
    let mut table = table().await;
    let begun = as_user(&mut table, ALICE, init("begin", &[])).await;
    let tracker_id = begun.prompt_message.expect("the tracker is tracked");
    assert!(matches!(&begun.replies[1], Reply::Channel { .. }));
    let joined = as_user(&mut table, BOB, init("join", &[("init", text("3d6"))])).await;
    let edited = joined
        .replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Edit { message_id, .. } => Some(*message_id),
            _ => None,
        })
        .expect("an edit");
    assert_eq!(edited, tracker_id);
    // The initiative roll is shown.
    assert!(
        said(&joined).contains("joins as `Bram`: initiative 3d6 ("),
        "{}",
        said(&joined)
    );
    assert!(said(&joined).contains("HP 12/12"));
}

#[tokio::test]
async fn permissions_refuse_privately() {
    let mut table = fight().await;
    let manager = |kind: RequestKind, table: &Harness| {
        let mut request = table.request(CAROL, Some(GUILD), kind);
        request.member = Some(Member {
            permissions: Permissions(Permissions::MANAGE_GUILD),
            roles: vec![],
        });
        request
    };
    let cases: Vec<(i64, RequestKind, &str)> = vec![
        (
            CAROL,
            init("next", &[]),
            "You cannot end someone else's turn",
        ),
        (BOB, init("next", &[]), "You cannot end someone else's turn"),
        (
            BOB,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("1")),
                    ("hp", text("3")),
                ],
            ),
            "Only the GM (Alice)",
        ),
        (BOB, init("prev", &[]), "Only the GM (Alice)"),
        (BOB, init("end", &[]), "Only the GM (Alice)"),
        (
            CAROL,
            init("hp", &[("target", text("Bram")), ("amount", text("-3"))]),
            "You cannot change",
        ),
        (
            BOB,
            init("hp", &[("target", text("Orc")), ("amount", text("-3"))]),
            "You cannot change",
        ),
        (
            BOB,
            init("remove", &[("target", text("Orc"))]),
            "You cannot remove",
        ),
        (
            BOB,
            init("hp", &[("target", text("Bram")), ("amount", text("7"))]),
            "Write the amount as",
        ),
        (ALICE, init("begin", &[]), "An encounter already runs"),
        (
            ALICE,
            init(
                "effect",
                &[("targets", text("Orc")), ("effect", text("Nope"))],
            ),
            "has no effect `Nope`",
        ),
        (
            ALICE,
            init("hp", &[("target", text("Nobody")), ("amount", text("-1"))]),
            "no combatant named Nobody",
        ),
    ];
    for (user, kind, refusal) in cases {
        let sent = as_user(&mut table, user, kind).await;
        let answer = sent.interaction();
        assert!(answer.ephemeral, "{refusal}");
        assert!(
            answer.content.contains(refusal),
            "{refusal} in {}",
            answer.content
        );
        assert!(tracker(&sent).is_none(), "nothing changed for {refusal}");
    }
    // A player's own combatant is theirs; a server manager is a GM.
    let own = as_user(
        &mut table,
        BOB,
        init("hp", &[("target", text("Bram")), ("amount", text("-2d4"))]),
    )
    .await;
    assert!(said(&own).contains("Bob rolls -2d4 ("), "{}", said(&own));
    assert!(said(&own).contains("* Bram: 12 → "), "{}", said(&own));
    let request = manager(init("next", &[]), &table);
    let managed = table.send(&request).await;
    assert!(
        said(&managed).contains("[round 1] Bram"),
        "{}",
        said(&managed)
    );
    // Bob may end his own turn.
    let ended = as_user(&mut table, BOB, init("next", &[])).await;
    assert!(said(&ended).contains("[round 1] Orc"));
}

#[tokio::test]
async fn stale_and_double_presses_apply_once() {
    let mut table = fight().await;
    let started = as_user(&mut table, ALICE, init("next", &[])).await;
    let next = button(&started, "Next");
    let first = as_user(&mut table, ALICE, press(&next)).await;
    assert!(matches!(first.replies[0], Reply::Update(_)));
    assert!(said(&first).contains("[round 1] Orc"));
    // The same button again (a double press, or an older tracker) is refused.
    let second = as_user(&mut table, ALICE, press(&next)).await;
    assert!(second.interaction().ephemeral);
    assert!(second.interaction().content.contains("has moved on"));
    let engine = stored_engine(&table).await;
    assert_eq!(engine.current(), Some("Orc"));
    // A forged or foreign id is stale too.
    let forged = as_user(&mut table, ALICE, press("tv1:in:zzzz:0")).await;
    assert!(forged.interaction().content.contains("has ended"));
}

#[tokio::test]
async fn a_restarted_core_continues_the_encounter() {
    let mut table = fight().await;
    let started = as_user(&mut table, ALICE, init("next", &[])).await;
    let tracker_id = table
        .storage
        .encounter_in_channel(crate::harness::CHANNEL)
        .await
        .unwrap()
        .unwrap()
        .message_id
        .expect("the tracker's id is stored");
    let next = button(&started, "Next");
    // A new process on the same database, with another seed.
    let mut restarted = Harness::on(table.storage.clone(), CoreSettings::default(), 99);
    let pressed = as_user(&mut restarted, ALICE, press(&next)).await;
    assert!(
        said(&pressed).contains("[round 1] Orc"),
        "{}",
        said(&pressed)
    );
    let edited = as_user(&mut restarted, ALICE, init("next", &[])).await;
    assert!(
        edited.replies.iter().any(
            |reply| matches!(reply, Reply::Edit { message_id, .. } if *message_id == tracker_id)
        )
    );
    assert!(said(&edited).contains("[round 2] Bram"));
}

#[tokio::test]
async fn ending_writes_back_and_effects_follow_the_character() {
    let mut table = fight().await;
    as_user(&mut table, ALICE, init("next", &[])).await;
    as_user(
        &mut table,
        BOB,
        init(
            "effect",
            &[("targets", text("Bram, Orc")), ("effect", text("Bless"))],
        ),
    )
    .await;
    as_user(
        &mut table,
        BOB,
        init("hp", &[("target", text("Bram")), ("amount", text("-5"))]),
    )
    .await;
    // The end asks first; Cancel keeps going, a stale question is refused.
    let asked = as_user(&mut table, ALICE, init("end", &[])).await;
    assert!(asked.interaction().ephemeral);
    let cancel = button(&asked, "Keep going");
    let kept = as_user(&mut table, ALICE, press(&cancel)).await;
    assert!(
        matches!(&kept.replies[0], Reply::Update(message) if message.content.contains("goes on"))
    );
    let asked = as_user(&mut table, ALICE, init("end", &[])).await;
    let confirm = button(&asked, "End the encounter");
    let refused = as_user(&mut table, BOB, press(&confirm)).await;
    assert!(refused.interaction().content.contains("Only the GM"));
    let ended = as_user(&mut table, ALICE, press(&confirm)).await;
    let summary = ended.all_text().replace('\\', "");
    assert!(summary.contains("The encounter is over"), "{summary}");
    assert!(summary.contains("Bram HP 7, keeps Bless"), "{summary}");
    assert!(
        table
            .storage
            .encounter_in_channel(crate::harness::CHANNEL)
            .await
            .unwrap()
            .is_none()
    );
    let again = as_user(&mut table, ALICE, press(&confirm)).await;
    assert!(again.interaction().content.contains("has ended"));

    // The sheet shows the written-back HP (the layer undone: STR stays 10) and Bless.
    let sheet = as_user(&mut table, BOB, command("character", &["show"], &[])).await;
    let content = &sheet.interaction().content;
    assert!(content.contains("HP   7"), "{content}");
    assert!(content.contains("STR  10"), "{content}");
    assert!(
        content.contains("Effects: Bless (until removed)"),
        "{content}"
    );

    // Joining a new encounter: HP 7 of 12, Bless back on (STR 11 while it lasts).
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let joined = as_user(&mut table, BOB, init("join", &[("init", text("5"))])).await;
    assert!(
        said(&joined).contains("HP 7/12, still under Bless"),
        "{}",
        said(&joined)
    );
    let engine = stored_engine(&table).await;
    let bram = engine.combatant("Bram").unwrap();
    assert_eq!((bram.hp, bram.max_hp), (7, 12));
    assert_eq!(bram.int(npc_core::effects::Subject::Strength), Some(11));
    // Once seated, not twice.
    let twice = as_user(&mut table, BOB, init("join", &[])).await;
    assert!(
        twice
            .interaction()
            .content
            .contains("is in this encounter already")
    );
}

#[tokio::test]
async fn monsters_come_in_groups_and_leave() {
    let mut table = table().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let added = as_user(
        &mut table,
        ALICE,
        init(
            "add",
            &[
                ("name", text("Cave Goblin")),
                ("init", text("12")),
                ("hp", text("2d6")),
                ("count", OptionValue::Integer(3)),
            ],
        ),
    )
    .await;
    let answer = said(&added);
    assert!(answer.contains("`Cave_Goblin_1` (HP 2d6 ("), "{answer}");
    assert!(answer.contains("`Cave_Goblin_3`"), "{answer}");
    let tracker_text = tracker(&added).unwrap().content.clone();
    assert!(tracker_text.contains("Cave_Goblin_2"), "{tracker_text}");
    let removed = as_user(
        &mut table,
        ALICE,
        init("remove", &[("target", text("Cave_Goblin_2"))]),
    )
    .await;
    assert!(said(&removed).contains("Cave_Goblin_2 leaves the encounter."));
    assert!(!tracker(&removed).unwrap().content.contains("Cave_Goblin_2"));
    // Autocomplete offers combatants (the last of a comma list) and effects.
    let RequestKind::Command(typing) = init(
        "effect",
        &[
            ("targets", text("Cave_Goblin_1, cave")),
            ("effect", text("p")),
        ],
    ) else {
        panic!("a command");
    };
    for (focused, wanted) in [
        (
            "targets",
            vec![
                "Cave_Goblin_1, Cave_Goblin_1",
                "Cave_Goblin_1, Cave_Goblin_3",
            ],
        ),
        ("effect", vec!["Poison"]),
    ] {
        let request = table.request(
            ALICE,
            Some(GUILD),
            RequestKind::Autocomplete {
                command: typing.clone(),
                focused: focused.to_owned(),
            },
        );
        let replies = table.core.handle(&request).await;
        let Reply::Choices(choices) = &replies[0] else {
            panic!("choices");
        };
        let values: Vec<&str> = choices.iter().map(|choice| choice.value.as_str()).collect();
        assert_eq!(values, wanted);
    }
}

/// A GM types a combatant as it reads (`cave goblin 1` for `Cave_Goblin_1`); an
/// exact name wins, and a spelling that fits two combatants or none is unknown.
#[tokio::test]
async fn targets_are_found_as_they_are_typed() {
    let mut table = table().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    for (name, count) in [("Cave Goblin", 2), ("orc", 1), ("Orc", 1)] {
        as_user(
            &mut table,
            ALICE,
            init(
                "add",
                &[
                    ("name", text(name)),
                    ("init", text("12")),
                    ("hp", text("10")),
                    ("count", OptionValue::Integer(count)),
                ],
            ),
        )
        .await;
    }
    // (typed target, what the answer says)
    let cases = [
        ("cave goblin 1", "Cave_Goblin_1: 10 → 9 hit points"),
        ("  CAVE_GOBLIN_2 ", "Cave_Goblin_2: 10 → 9 hit points"),
        ("orc", "orc: 10 → 9 hit points"),
        ("Orc", "Orc: 10 → 9 hit points"),
        ("ORC", "no combatant named ORC"),
        ("cave goblin", "no combatant named cave goblin"),
    ];
    hit_each_once(&mut table, &cases).await;
}

/// Alice (the GM) takes 1 hit point from each typed target; each answer says what
/// its case expects.
async fn hit_each_once(table: &mut Harness, cases: &[(&str, &str)]) {
    for (typed, expected) in cases {
        let hit = as_user(
            table,
            ALICE,
            init("hp", &[("target", text(typed)), ("amount", text("-1"))]),
        )
        .await;
        let answer = said(&hit);
        assert!(answer.contains(expected), "{typed}: {answer}");
    }
}

/// A player who has only seen the tracker types a name glued (`cavegoblin1` for
/// `Cave_Goblin_1`): found when one combatant reads so without its `_` and `-`.
#[tokio::test]
async fn targets_typed_without_underscores_are_found() {
    let mut table = table().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    for (name, count) in [("Cave Goblin", 2), ("Ogre-1", 1), ("Ogre_1", 1)] {
        let add = [
            ("name", text(name)),
            ("init", text("12")),
            ("hp", text("10")),
            ("count", OptionValue::Integer(count)),
        ];
        as_user(&mut table, ALICE, init("add", &add)).await;
    }
    // (typed target, what the answer says)
    let cases = [
        ("CaveGoblin1", "Cave_Goblin_1: 10 → 9 hit points"),
        ("cave-goblin2", "Cave_Goblin_2: 10 → 9 hit points"),
        ("cavegoblin", "no combatant named cavegoblin"),
        ("ogre1", "no combatant named ogre1"),
    ];
    hit_each_once(&mut table, &cases).await;
}

#[tokio::test]
async fn a_removed_character_is_written_back_and_free_to_join_elsewhere() {
    let mut table = fight().await;
    as_user(&mut table, ALICE, init("next", &[])).await;
    as_user(
        &mut table,
        BOB,
        init(
            "effect",
            &[("targets", text("Bram")), ("effect", text("Poison"))],
        ),
    )
    .await;
    // Bob takes his own character out; Carol may not.
    let refused = as_user(
        &mut table,
        CAROL,
        init("remove", &[("target", text("Bram"))]),
    )
    .await;
    assert!(
        refused
            .interaction()
            .content
            .starts_with("You cannot remove")
    );
    let removed = as_user(&mut table, BOB, init("remove", &[("target", text("Bram"))])).await;
    assert!(
        said(&removed).contains("* Bram leaves the encounter."),
        "{}",
        said(&removed)
    );
    let kept = table
        .storage
        .character_effects(77)
        .await
        .unwrap()
        .expect("written back");
    assert_eq!(kept.fields, r#"[["HP","10"]]"#);
    assert!(kept.effects.contains("Poison"), "{}", kept.effects);
    // Seated nowhere now: he may join again (the poison ticks on).
    let joined = as_user(&mut table, BOB, init("join", &[("init", text("1"))])).await;
    assert!(
        said(&joined).contains("HP 10/12, still under Poison"),
        "{}",
        said(&joined)
    );
}

#[tokio::test]
async fn cure_prev_and_the_trackers_end_button() {
    let mut table = fight().await;
    let started = as_user(&mut table, ALICE, init("next", &[])).await;
    as_user(
        &mut table,
        BOB,
        init(
            "effect",
            &[("targets", text("Orc")), ("effect", text("Poison"))],
        ),
    )
    .await;
    // Cure offers what the target holds; it removes it, and a second cure finds nothing.
    let RequestKind::Command(typing) =
        init("cure", &[("target", text("Orc")), ("effect", text(""))])
    else {
        panic!("a command");
    };
    let request = table.request(
        BOB,
        Some(GUILD),
        RequestKind::Autocomplete {
            command: typing,
            focused: "effect".to_owned(),
        },
    );
    let replies = table.core.handle(&request).await;
    assert!(
        matches!(&replies[0], Reply::Choices(choices) if choices.len() == 1 && choices[0].value == "Poison")
    );
    let cured = as_user(
        &mut table,
        BOB,
        init(
            "cure",
            &[("target", text("Orc")), ("effect", text("Poison"))],
        ),
    )
    .await;
    assert!(
        said(&cured).contains("* Poison removed from Orc."),
        "{}",
        said(&cured)
    );
    let again = as_user(
        &mut table,
        BOB,
        init(
            "cure",
            &[("target", text("Orc")), ("effect", text("Poison"))],
        ),
    )
    .await;
    assert!(
        again.interaction().content.contains("Orc holds no Poison"),
        "{}",
        again.interaction().content
    );
    // Previous goes back a turn (GM), with nothing undone; before round 1 there is none.
    as_user(&mut table, ALICE, init("next", &[])).await;
    let back = as_user(&mut table, ALICE, init("prev", &[])).await;
    assert!(said(&back).contains("[round 1] Bram"), "{}", said(&back));
    // Going back says what it undoes: the turn only.
    assert!(
        said(&back).starts_with("Back one turn. Only the turn moves: damage, healing"),
        "{}",
        said(&back)
    );
    let first = as_user(&mut table, ALICE, init("prev", &[])).await;
    assert!(
        first
            .interaction()
            .content
            .contains("there is no earlier turn")
    );
    // The tracker's End asks privately, like /init end.
    let end = button(&started, "End");
    let asked = as_user(&mut table, ALICE, press(&end)).await;
    assert!(
        asked.interaction().content.contains("has moved on"),
        "the tracker it was on is old"
    );
    let fresh = as_user(&mut table, ALICE, init("list", &[])).await;
    assert!(fresh.interaction().ephemeral);
    let row = table
        .storage
        .encounter_in_channel(crate::harness::CHANNEL)
        .await
        .unwrap()
        .unwrap();
    let end = tavern::core::encounter::InitId::new(
        tavern::core::encounter::InitAction::End,
        row.id,
        row.step,
    )
    .encode();
    let asked = as_user(&mut table, ALICE, press(&end)).await;
    assert!(asked.interaction().ephemeral);
    assert!(
        asked
            .interaction()
            .content
            .starts_with("End the encounter?")
    );
    let refused = as_user(&mut table, BOB, press(&end)).await;
    assert!(refused.interaction().content.contains("Only the GM"));
}

/// `user`'s request in `locale` (theirs and the server's), a minute after the last
/// so that no rate limit answers instead.
pub(crate) async fn in_language(
    table: &mut Harness,
    user: i64,
    locale: &str,
    kind: RequestKind,
) -> Sent {
    let mut request = table.request(user, Some(GUILD), kind);
    request.locale = Some(locale.to_owned());
    request.guild_locale = Some(locale.to_owned());
    table.clock.advance_ms(60_000);
    table.send(&request).await
}

/// `* Fireball 3d6 (a,b,c) = T on Orc: 30 → A hit points` read back: the dice, the
/// total and the value after.
fn fireball_roll(line: &str, on: &str) -> (Vec<i64>, i64, i64) {
    let rest = line
        .strip_prefix("* Fireball 3d6 (")
        .unwrap_or_else(|| panic!("{line}"));
    let (dice, rest) = rest.split_once(") = ").unwrap();
    let (total, rest) = rest.split_once(on).unwrap();
    let after = rest.split(' ').next().unwrap();
    let dice = dice.split(',').map(|die| die.parse().unwrap()).collect();
    (dice, total.parse().unwrap(), after.parse().unwrap())
}

/// Event lines say what happened, in both languages: the dice an effect rolled, a
/// stun in words, and no line for a change that changes nothing (a downed Orc's
/// poison every turn).
#[tokio::test]
async fn event_lines_show_the_dice_and_say_what_happened() {
    let effect = |targets: &str, effect: &str| {
        init(
            "effect",
            &[("targets", text(targets)), ("effect", text(effect))],
        )
    };
    let hp = |target: &str, amount: &str| {
        init("hp", &[("target", text(target)), ("amount", text(amount))])
    };
    let add = init(
        "add",
        &[
            ("name", text("Orc")),
            ("init", text("10")),
            ("hp", text("30")),
        ],
    );
    // (locale, how the fireball's line goes on after its total, what is said)
    let languages: [(&str, &str, &[&str]); 2] = [
        (
            "en",
            " on Orc: 30 → ",
            &[
                "* Heal 1d4 (",
                " on Bram: 7 → ",
                "* Stun: Orc is stunned and loses the turn.",
                "* Orc loses the turn.",
                "* Orc is down and skips the turn.",
            ],
        ),
        (
            "de",
            " auf Orc: 30 → ",
            &[
                "* Heal 1d4 (",
                " auf Bram: 7 → ",
                "* Stun: Orc ist betäubt und setzt den Zug aus.",
                "* Orc verliert den Zug.",
                "* Orc liegt am Boden und setzt den Zug aus.",
            ],
        ),
    ];
    for (locale, fireball_on, expected) in languages {
        let mut table = table().await;
        let steps = [
            (ALICE, init("begin", &[])),
            (BOB, init("join", &[("init", text("20"))])),
            (ALICE, add.clone()),
            (ALICE, init("next", &[])),
            (ALICE, effect("Orc", "Fireball")),
            (ALICE, hp("Bram", "-5")),
            (ALICE, effect("Bram", "Heal")),
            (ALICE, effect("Orc", "Stun")),
            (ALICE, init("next", &[])),
            (ALICE, hp("Orc", "=0")),
            (ALICE, effect("Orc", "Poison")),
            (ALICE, init("next", &[])),
        ];
        let mut transcript = Vec::new();
        for (user, kind) in steps {
            let sent = in_language(&mut table, user, locale, kind).await;
            transcript.push(said(&sent));
        }
        let transcript = transcript.join("\n");
        let fireball = transcript
            .lines()
            .find(|line| line.starts_with("* Fireball"))
            .unwrap_or_else(|| panic!("no fireball in {transcript}"));
        let (dice, total, after) = fireball_roll(fireball, fireball_on);
        assert_eq!(dice.len(), 3, "{fireball}");
        assert!(dice.iter().all(|die| (1..=6).contains(die)), "{fireball}");
        assert_eq!(dice.iter().sum::<i64>(), total, "{fireball}");
        assert_eq!(after, 30 - total, "{fireball}");
        for line in expected {
            assert!(transcript.contains(line), "{line} in {transcript}");
        }
        for engine_word in ["LoseTurn", "Setzt aus", "= true", " 0 → 0", "HitPoints"] {
            assert!(
                !transcript.contains(engine_word),
                "{engine_word} in {transcript}"
            );
        }
    }
}

/// `/init add` refuses numbers a monster cannot have, saying the allowed range and
/// adding nothing, and says when a roll's hit points had to be raised to 1.
#[tokio::test]
async fn monster_numbers_out_of_range_are_refused_or_said() {
    // (options besides name and init, the answer says, monsters added, one's HP)
    type Options = Vec<(&'static str, OptionValue)>;
    let cases: Vec<(Options, &str, usize, Option<&str>)> = vec![
        (
            vec![("hp", text("0"))],
            "A monster starts with 1 hit point or more, not 0. Nothing was added",
            0,
            None,
        ),
        (
            vec![("hp", text("-5"))],
            "A monster starts with 1 hit point or more, not -5. Nothing was added",
            0,
            None,
        ),
        (
            vec![("hp", text("7")), ("count", OptionValue::Integer(1000))],
            "`count` adds 1 to 20 monsters, not 1000. Nothing was added.",
            0,
            None,
        ),
        (
            vec![("hp", text("7")), ("count", OptionValue::Integer(0))],
            "`count` adds 1 to 20 monsters, not 0. Nothing was added.",
            0,
            None,
        ),
        (
            vec![("hp", text("7")), ("count", OptionValue::Integer(-3))],
            "`count` adds 1 to 20 monsters, not -3. Nothing was added.",
            0,
            None,
        ),
        (
            vec![("hp", text("7")), ("ac", OptionValue::Integer(500))],
            "`ac` is an armour class from -100 to 100, not 500. Nothing was added.",
            0,
            None,
        ),
        (
            // 1d4-5 rolls -4 to -1: the monster gets 1, and the answer says so.
            vec![("hp", text("1d4-5"))],
            ": raised to 1)",
            1,
            Some("Orc 1/1"),
        ),
        (
            vec![("hp", text("7")), ("count", OptionValue::Integer(20))],
            "`Orc_20` (HP 7)",
            20,
            Some("Orc_1  7/7"),
        ),
    ];
    for (options, answer, added, shown) in cases {
        let mut table = table().await;
        as_user(&mut table, ALICE, init("begin", &[])).await;
        let mut all = vec![("name", text("Orc")), ("init", text("10"))];
        all.extend(options.iter().cloned());
        let sent = as_user(&mut table, ALICE, init("add", &all)).await;
        let said = said(&sent);
        assert!(said.contains(answer), "{options:?}: {said}");
        assert_eq!(sent.interaction().ephemeral, added == 0, "{options:?}");
        let engine = stored_engine(&table).await;
        assert_eq!(engine.len(), added, "{options:?}: {said}");
        if let Some(line) = shown {
            let tracker = tracker(&sent).expect("the tracker").content.clone();
            assert!(tracker.contains(line), "{line} in {tracker}");
        }
    }
}

/// An encounter nobody changes for `[encounters] idle_minutes` ends at the sweep as
/// `/init end` does (characters written back, the channel told); one changed since
/// is left alone.
#[tokio::test]
async fn an_idle_encounter_ends_at_the_sweep_and_writes_back() {
    let mut table = fight().await;
    as_user(&mut table, ALICE, init("next", &[])).await;
    as_user(
        &mut table,
        BOB,
        init("hp", &[("target", text("Bram")), ("amount", text("-4"))]),
    )
    .await;
    let idle = CoreSettings::default().encounter_idle_ms;
    assert_eq!(idle, 24 * 3_600_000);
    // Just short of the time: it goes on.
    table.clock.advance_ms(idle - 1);
    let early = table.core.sweep().await.unwrap();
    assert!(early.is_empty(), "{early:#?}");
    assert!(stored_engine(&table).await.combatant("Bram").is_some());
    table.clock.advance_ms(1);
    let swept = table.core.sweep().await.unwrap();
    let sent = table.deliver(swept).await;
    let all = sent.all_text().replace('\\', "");
    assert!(
        all.contains("**This encounter ended** after 24 hours without a change."),
        "{all}"
    );
    assert!(
        all.contains("**The encounter is over** after 1 round."),
        "{all}"
    );
    assert!(all.contains("Bram HP 8"), "{all}");
    assert!(
        sent.replies.iter().all(|reply| matches!(
            reply,
            Reply::Channel { channel_id, .. } | Reply::Edit { channel_id, .. }
                if *channel_id == crate::harness::CHANNEL
        )),
        "{:#?}",
        sent.replies
    );
    assert!(
        table
            .storage
            .encounter_in_channel(crate::harness::CHANNEL)
            .await
            .unwrap()
            .is_none()
    );
    let kept = table.storage.character_effects(77).await.unwrap().unwrap();
    assert_eq!(kept.fields, r#"[["HP","8"]]"#);
    // Bram is free again, and a second sweep finds nothing.
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let joined = as_user(&mut table, BOB, init("join", &[("init", text("5"))])).await;
    assert!(said(&joined).contains("HP 8/12"), "{}", said(&joined));
    assert!(table.core.sweep().await.unwrap().is_empty());
}

/// The idle notice in German, and in minutes when the time is not whole hours.
#[tokio::test]
async fn the_idle_notice_speaks_the_servers_language() {
    let settings = CoreSettings {
        encounter_idle_ms: 90 * 60_000,
        ..CoreSettings::default()
    };
    let mut table = Harness::with_settings(settings).await;
    in_language(&mut table, ALICE, "de", init("begin", &[])).await;
    table.clock.advance_ms(90 * 60_000);
    let swept = table.core.sweep().await.unwrap();
    let all = table.deliver(swept).await.all_text();
    assert!(
        all.contains(
            "**Diese Begegnung wurde beendet**, nachdem sie 90 Minuten lang unverändert blieb."
        ),
        "{all}"
    );
}

#[tokio::test]
async fn a_seated_character_is_not_deleted_until_it_leaves() {
    let mut table = table().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let delete = || command("character", &["delete"], &[("name", text("Bram"))]);
    // A question asked before joining is refused at the press as well.
    let asked = as_user(&mut table, BOB, delete()).await;
    as_user(&mut table, BOB, init("join", &[("init", text("5"))])).await;
    let refused = as_user(&mut table, BOB, delete()).await;
    assert_eq!(
        refused.interaction().content,
        "**Bram** sits in an encounter, so it was not deleted: delete it once it has left \
         the fight (removed, or the encounter ended)."
    );
    assert!(refused.button("Delete").is_none());
    let pressed = as_user(
        &mut table,
        BOB,
        RequestKind::Button {
            custom_id: asked.button("Delete").unwrap(),
            message_id: 1,
        },
    )
    .await;
    assert!(
        pressed.texts().join("\n").contains("sits in an encounter"),
        "{:?}",
        pressed.texts()
    );
    let still = table.storage.character_named(BOB, GUILD, "Bram").await;
    assert!(still.unwrap().is_some());
    // Once it has left, it goes.
    as_user(
        &mut table,
        ALICE,
        init("remove", &[("target", text("Bram"))]),
    )
    .await;
    let asked = as_user(&mut table, BOB, delete()).await;
    let pressed = as_user(
        &mut table,
        BOB,
        RequestKind::Button {
            custom_id: asked.button("Delete").unwrap(),
            message_id: 1,
        },
    )
    .await;
    assert!(pressed.texts().join("\n").contains("Deleted **Bram**"));
}

/// Two changes of one encounter at once: both read it at the same step, then wait
/// for the engine worker (the test holds the only one) to load the server's newly
/// installed effect file. The one that claims the step first is stored
/// (`turn::write`); the other is refused and stores nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_changes_at_once_apply_once() {
    let mut table = Harness::with_settings(CoreSettings {
        engine_workers: 1,
        // Long enough that no change gives up while the test holds the worker.
        engine_time_limit: std::time::Duration::from_secs(600),
        ..CoreSettings::default()
    })
    .await;
    let library = |source: &str| EffectLibraryRow {
        guild_id: GUILD,
        source: source.to_owned(),
        effect_count: 5,
        installed_by: ALICE,
        installed_by_name: "Alice".to_owned(),
        installed_at: START_MS,
    };
    table
        .storage
        .set_effect_library(&library(EFFECTS))
        .await
        .unwrap();
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let add = init(
        "add",
        &[
            ("name", text("Orc")),
            ("init", text("10")),
            ("hp", text("10")),
        ],
    );
    as_user(&mut table, ALICE, add).await;
    // A file the process has not loaded yet: each change loads it on the worker.
    let revised = format!("{EFFECTS}// revised\n");
    table
        .storage
        .set_effect_library(&library(&revised))
        .await
        .unwrap();

    let channel = crate::harness::CHANNEL;
    let before = table
        .storage
        .encounter_in_channel(channel)
        .await
        .unwrap()
        .unwrap();

    let hold = Hold::start(&table.core).await;
    let hit = |amount: &str| {
        let kind = init("hp", &[("target", text("Orc")), ("amount", text(amount))]);
        table.request(ALICE, Some(GUILD), kind)
    };
    let first = hold.queue(hit("-3")).await;
    let second = hold.queue(hit("-4")).await;
    hold.let_go().await;
    let said = |replies: Vec<Reply>| -> Vec<String> {
        replies
            .into_iter()
            .filter_map(|reply| match reply {
                Reply::Interaction(message) | Reply::Channel { message, .. } => {
                    Some(message.content)
                }
                _ => None,
            })
            .collect()
    };
    // Either may claim the step first; the other is refused.
    let answers = [said(first.await.unwrap()), said(second.await.unwrap())];
    let raced = ["Someone changed the encounter at the same moment; nothing was done. Try again."];
    let refused = answers.iter().filter(|said| *said == &raced).count();
    assert_eq!(refused, 1, "{answers:#?}");
    let hp = if answers[0] == raced { 6 } else { 7 };
    let winner = if hp == 7 { &answers[0] } else { &answers[1] };
    let line = format!("Orc: 10 → {hp} hit points");
    assert!(
        winner.iter().any(|text| text.contains(&line)),
        "{answers:#?}"
    );
    let row = table
        .storage
        .encounter_in_channel(channel)
        .await
        .unwrap()
        .expect("the encounter goes on");
    assert_eq!(row.step, before.step + 1);
    assert!(
        row.state.contains(&format!("\"HitPoints\":{hp}")),
        "{}",
        row.state
    );
    assert!(!row.state.contains("\"HitPoints\":3"), "{}", row.state);
}

/// A `/init next` whose effect steps outlast the engine workers' time limit (issue
/// 24): the user is told what took too long, and nothing of the turn is stored. The
/// limit is zero, so the turn's job times out whatever the machine's speed.
#[tokio::test]
async fn a_next_past_the_time_limit_stores_nothing_and_says_so() {
    let mut table = Harness::with_settings(CoreSettings {
        engine_time_limit: std::time::Duration::ZERO,
        ..CoreSettings::default()
    })
    .await;
    // Without an effect file nothing else runs on a worker: only the turn meets the limit.
    as_user(&mut table, ALICE, init("begin", &[])).await;
    for (name, initiative) in [("Orc", "10"), ("Imp", "20")] {
        let add = init(
            "add",
            &[
                ("name", text(name)),
                ("init", text(initiative)),
                ("hp", text("10")),
            ],
        );
        as_user(&mut table, ALICE, add).await;
    }
    let stored = |table: &Harness| {
        let storage = table.storage.clone();
        async move {
            let row = storage
                .encounter_in_channel(crate::harness::CHANNEL)
                .await
                .unwrap()
                .expect("the encounter goes on");
            (row.step, row.state, row.seats)
        }
    };
    let before = stored(&table).await;

    let sent = as_user(&mut table, ALICE, init("next", &[])).await;

    assert_eq!(
        sent.all_text(),
        "Working out the encounter's effects took too long: I stopped waiting after 0 s. \
         Try something smaller."
    );
    assert_eq!(stored(&table).await, before);
}
