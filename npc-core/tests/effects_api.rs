//! The effect engine's Rust API: an encounter stored as JSON mid-combat goes on
//! exactly as one kept in memory; a command stopped by the step budget changes
//! nothing (Z1, Z2); and properties: no effect file and no directive stream can
//! panic, hang or grow without bound.

use npc_core::effects::{
    CombatantSpec, EffectErrorKind, EffectEvent, EffectLimits, EffectPlay, EffectSave, Encounter,
    HpChange, Protectors, Subject, check_effects, load_effects, load_effects_with, play_effects,
};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const SAMPLE: &str = include_str!("../scripts/effects.ghul");

fn spec(name: &str, initiative: i64, hp: i64) -> CombatantSpec {
    CombatantSpec {
        name: name.to_string(),
        initiative,
        hp,
        stats: vec![(Subject::Strength, 12)],
        ..CombatantSpec::default()
    }
}

/// Three turns of a fight, as event lines, continuing `encounter` with `rng`.
fn fight(
    library: &npc_core::effects::EffectLibrary,
    encounter: &mut Encounter,
    rng: &mut ChaCha8Rng,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut record = |events: Vec<npc_core::effects::EffectEvent>| {
        lines.extend(events.iter().map(ToString::to_string));
    };
    record(encounter.next(library, rng).unwrap());
    record(
        encounter
            .apply(library, "Fireball", &["Orc", "Slime"], rng)
            .unwrap(),
    );
    record(encounter.next(library, rng).unwrap());
    record(
        encounter
            .hp(library, "Slime", HpChange::Offset(-4), rng)
            .unwrap(),
    );
    record(encounter.next(library, rng).unwrap());
    lines
}

#[test]
fn an_encounter_stored_as_json_goes_on_the_same() {
    let library = load_effects(SAMPLE).unwrap();
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (name, initiative, hp) in [("Ana", 15, 30), ("Orc", 12, 15), ("Slime", 10, 20)] {
        encounter
            .add(&library, &spec(name, initiative, hp))
            .unwrap();
    }
    encounter
        .apply(&library, "Poison", &["Orc"], &mut rng)
        .unwrap();
    encounter
        .apply(&library, "Weakness", &["Ana"], &mut rng)
        .unwrap();
    encounter
        .apply(&library, "SlimeSplit", &["Slime"], &mut rng)
        .unwrap();
    encounter.next(&library, &mut rng).unwrap();

    let stored = serde_json::to_string(&encounter).unwrap();
    let mut restored: Encounter = serde_json::from_str(&stored).unwrap();
    assert_eq!(restored, encounter);

    let mut rng_restored = rng.clone();
    let in_memory = fight(&library, &mut encounter, &mut rng);
    let after_restart = fight(&library, &mut restored, &mut rng_restored);
    assert_eq!(in_memory, after_restart);
    assert_eq!(restored, encounter);
    assert!(!in_memory.is_empty());
    assert_eq!(encounter.round(), 2);
    assert_eq!(encounter.current(), Some("Ana"));
    let ana = encounter.combatant("Ana").unwrap();
    assert_eq!(ana.int(Subject::Strength), Some(10), "Weakness is a layer");
}

#[test]
fn a_command_stopped_by_the_step_budget_changes_nothing() {
    let limits = EffectLimits {
        max_steps: 12,
        ..EffectLimits::default()
    };
    let library = load_effects_with(
        "EFFECT Bleed { target_type Character; subject HitPoints; value -1; duration -1 }\n",
        &limits,
    )
    .unwrap();
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let names: Vec<String> = (0..11).map(|i| format!("C{i}")).collect();
    for name in &names {
        encounter.add(&library, &spec(name, 1, 10)).unwrap();
    }
    let targets: Vec<&str> = names.iter().map(String::as_str).collect();
    // 11 applications fit in 12 steps; 13 do not.
    encounter
        .apply(&library, "Bleed", &targets, &mut rng)
        .unwrap();
    let before = encounter.clone();
    let mut thirteen = targets.clone();
    thirteen.extend(["C0", "C1"]);
    let error = encounter
        .apply(&library, "Bleed", &thirteen, &mut rng)
        .unwrap_err();
    assert_eq!(error.kind, EffectErrorKind::StepBudget);
    assert_eq!(
        error.to_string(),
        "the command needed more than 12 steps; nothing was changed"
    );
    assert_eq!(encounter, before);

    // A turn start (one step) with twelve recurring effects (twelve more).
    for _ in 0..11 {
        encounter
            .apply(&library, "Bleed", &["C0"], &mut rng)
            .unwrap();
    }
    let before = encounter.clone();
    let error = encounter.next(&library, &mut rng).unwrap_err();
    assert_eq!(error.kind, EffectErrorKind::StepBudget);
    assert_eq!(encounter, before);
    assert_eq!(encounter.round(), 0);
}

#[test]
fn errors_change_nothing() {
    let library = load_effects(SAMPLE).unwrap();
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    encounter.add(&library, &spec("Ana", 1, 10)).unwrap();
    let before = encounter.clone();
    let cases = [
        encounter
            .apply(&library, "Nope", &["Ana"], &mut rng)
            .unwrap_err()
            .kind,
        encounter
            .apply(&library, "Fireball", &["Ana", "Nobody"], &mut rng)
            .unwrap_err()
            .kind,
        encounter
            .add(&library, &spec("Ana", 1, 1))
            .unwrap_err()
            .kind,
        encounter
            .add(&library, &spec("two words", 1, 1))
            .unwrap_err()
            .kind,
        encounter.remove("Nobody").unwrap_err().kind,
    ];
    assert_eq!(
        cases,
        [
            EffectErrorKind::UnknownEffect,
            EffectErrorKind::UnknownCombatant,
            EffectErrorKind::BadName,
            EffectErrorKind::BadName,
            EffectErrorKind::UnknownCombatant,
        ]
    );
    assert_eq!(encounter, before);
    assert_eq!(
        Encounter::new().next(&library, &mut rng).unwrap_err().kind,
        EffectErrorKind::Empty
    );
}

#[test]
fn cure_and_prev_for_the_tracker() {
    let library = load_effects(SAMPLE).unwrap();
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    encounter.add(&library, &spec("Ana", 2, 10)).unwrap();
    encounter.add(&library, &spec("Bo", 1, 10)).unwrap();
    encounter
        .apply(&library, "Weakness", &["Ana"], &mut rng)
        .unwrap();
    assert_eq!(
        encounter.combatant("Ana").unwrap().int(Subject::Strength),
        Some(10)
    );
    let lines: Vec<String> = encounter
        .remove_effect("Ana", "Weakness")
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(lines, ["* Weakness removed from Ana."]);
    assert_eq!(
        encounter.combatant("Ana").unwrap().int(Subject::Strength),
        Some(12)
    );
    assert_eq!(
        encounter
            .remove_effect("Ana", "Weakness")
            .unwrap_err()
            .to_string(),
        "Ana holds no Weakness"
    );

    assert_eq!(
        encounter.prev().unwrap_err().kind,
        EffectErrorKind::NoEarlierTurn
    );
    encounter.next(&library, &mut rng).unwrap();
    encounter.next(&library, &mut rng).unwrap();
    encounter.next(&library, &mut rng).unwrap();
    assert_eq!((encounter.round(), encounter.current()), (2, Some("Ana")));
    let back = encounter.prev().unwrap();
    assert_eq!(back[0].to_string(), "[round 1] Bo");
    assert_eq!(encounter.current(), Some("Bo"));
    encounter.prev().unwrap();
    assert_eq!((encounter.round(), encounter.current()), (1, Some("Ana")));
    assert!(encounter.prev().is_err());
}

/// Words and symbols of the effect language, plus near misses.
const VOCABULARY: &[&str] = &[
    "ELEMENTS",
    "EFFECT",
    "{",
    "}",
    "(",
    ")",
    "|",
    "&",
    "~",
    ";",
    "\n",
    "//",
    "/*",
    "*/",
    "target_type",
    "subject",
    "value",
    "method",
    "duration",
    "cumulative",
    "multi",
    "probability",
    "hook",
    "target_method",
    "mode",
    "source",
    "Character",
    "Effect",
    "Tile",
    "HitPoints",
    "Strength",
    "Flags",
    "Immunity",
    "Protections",
    "Dead",
    "LoseTurn",
    "Species",
    "Existence",
    "new",
    "false",
    "true",
    "invert",
    "yes",
    "no",
    "HpReduced",
    "Effected",
    "recurring",
    "while_active",
    "FIRE",
    "ICE",
    "A",
    "-3d6",
    "+1",
    "=2",
    "*2",
    "/0",
    "/2",
    "+FIRE",
    "-(FIRE|ICE)",
    "&FIRE",
    "=()",
    "1d4",
    "-1",
    "0",
    "3",
    "0.5",
    "1.0",
    "@X",
    "$m",
    "10000d10000",
    "9223372036854775807",
    "-9223372036854775808",
];

/// Directives near the protocol, over the sample library's effects and a few names.
const DIRECTIVES: &[&str] = &[
    "@add Ana init=15 hp=30 str=12 protect=BURN:3",
    "@add Orc init=12 hp=15 ac=13 immune=POISON",
    "@add Slime init=10 hp=20",
    "@add Big init=1 hp=9223372036854775807",
    "@apply Fireball Ana,Orc,Slime",
    "@apply Poison Orc",
    "@apply CurePoison Orc,Ana",
    "@apply FireWard Ana",
    "@apply PoisonImmunity Slime",
    "@apply SlimeSplit Slime,Slime#2,Orc",
    "@apply Stun Ana,Slime",
    "@apply Weakness Orc",
    "@apply Heal Slime#2,Big",
    "@hp Slime -5",
    "@hp Slime#2 -100",
    "@hp Big =-9223372036854775808",
    "@hp Ana +2d4",
    "@next",
    "@next",
    "@next",
    "@remove Orc",
    "@remove Slime#3",
    "@dice max",
    "@dice min",
    "@dice seed 3",
    "@chance always",
    "@chance never",
    "@chance seed 9",
    "@state",
    "@bogus",
    "text",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn raw_text_never_panics(text in "\\PC{0,400}") {
        let errors = check_effects(&text);
        prop_assert!(errors.len() <= 201);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(VOCABULARY), 0..120)) {
        let source = tokens.join(" ");
        let errors = check_effects(&source);
        prop_assert!(errors.len() <= 201);
        let transcript = play_effects(&source, "@add A init=1 hp=5\n@next\n@state\n");
        prop_assert!(transcript.len() < 100_000);
    }

    #[test]
    fn directive_streams_never_panic_and_stay_bounded(
        lines in prop::collection::vec(prop::sample::select(DIRECTIVES), 0..80),
        noise in "\\PC{0,60}",
    ) {
        let mut session = EffectPlay::new(SAMPLE).unwrap();
        let mut total = 0usize;
        for line in lines.iter().copied().chain([noise.as_str()]) {
            let out = session.line(line);
            // Every command is bounded by the step budget and 50 combatants.
            prop_assert!(out.len() < 1_000_000, "{} bytes for {line}", out.len());
            total += out.len();
        }
        prop_assert!(session.encounter().len() <= 50);
        prop_assert!(total < 10_000_000);
        // The encounter survives a JSON round trip at any point.
        let stored = serde_json::to_string(session.encounter()).unwrap();
        let restored: Encounter = serde_json::from_str(&stored).unwrap();
        prop_assert_eq!(&restored, session.encounter());
    }
}

#[test]
fn carried_effects_leave_one_encounter_and_tick_in_the_next() {
    let library = load_effects(SAMPLE).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut first = Encounter::new();
    first.add(&library, &spec("Ana", 10, 30)).unwrap();
    first.apply(&library, "Poison", &["Ana"], &mut rng).unwrap();
    first
        .apply(&library, "Weakness", &["Ana"], &mut rng)
        .unwrap();
    let shown = first.combatant("Ana").unwrap();
    let base = first.base("Ana").unwrap();
    // The base is what a host writes back: the layer undone, the poison's hurt kept.
    assert_eq!(
        (shown.int(Subject::Strength), base.int(Subject::Strength)),
        (Some(10), Some(12))
    );
    assert_eq!((shown.hp, base.hp), (28, 28));
    let carried = first.carried("Ana").unwrap();
    let kept: serde_json::Value = serde_json::to_value(&carried).unwrap();
    let carried: npc_core::effects::CarriedEffects = serde_json::from_value(kept).unwrap();
    let tags: Vec<String> = carried.views().into_iter().map(|view| view.tag).collect();
    assert_eq!(tags, ["Poison", "Weakness"]);

    let mut second = Encounter::new();
    second.add(&library, &spec("Ana", 10, base.hp)).unwrap();
    let attached = second.attach_carried(&library, "Ana", &carried).unwrap();
    assert_eq!(attached, ["Poison", "Weakness"]);
    assert_eq!(
        second.combatant("Ana").unwrap().int(Subject::Strength),
        Some(10),
        "the layer applies again"
    );
    let lines: Vec<String> = second
        .next(&library, &mut rng)
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        ["[round 1] Ana", "* Poison on Ana: HitPoints 28 -> 26"]
    );

    // An effect the library no longer declares is dropped.
    let smaller = load_effects(
        "ELEMENTS { POISON }\nEFFECT Poison { target_type Character; subject HitPoints; \
         value -2; method (POISON); duration 3 }\n",
    )
    .unwrap();
    let mut third = Encounter::new();
    third.add(&smaller, &spec("Ana", 10, 20)).unwrap();
    let attached = third.attach_carried(&smaller, "Ana", &carried).unwrap();
    assert_eq!(attached, ["Poison"]);
    assert!(third.attach_carried(&smaller, "Nobody", &carried).is_err());
}

/// The dice of an effect's value come with its change as data (`EffectRoll`), so a
/// host can show the roll: per target, before protections; a fixed value and a
/// direct change carry none.
#[test]
fn an_effects_dice_are_reported_with_its_change() {
    let library = load_effects(
        "ELEMENTS { BURN HOLY POISON }
         EFFECT Fireball { target_type Character; subject HitPoints; value -3d6; method (BURN) }
         EFFECT Heal { target_type Character; subject HitPoints; value +2d4+2; method (HOLY) }
         EFFECT Bleed { target_type Character; subject HitPoints; value -1d4; duration 2 }
         EFFECT Poison { target_type Character; subject HitPoints; value -2; method (POISON) }
         EFFECT Ward { target_type Character; subject Protections; value +2; method (BURN) }",
    )
    .unwrap();
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (name, initiative) in [("Ana", 3), ("Orc", 2)] {
        encounter
            .add(&library, &spec(name, initiative, 100))
            .unwrap();
    }
    encounter
        .apply(&library, "Ward", &["Orc"], &mut rng)
        .unwrap();
    // (a command's events; the roll's expression, its number of dice and what is
    // added to them; the hit points lost, from the roll's total)
    type Lost = fn(i64) -> i64;
    type Dice = Option<(&'static str, usize, i64)>;
    let cases: Vec<(Vec<EffectEvent>, Dice, Lost)> = vec![
        (
            encounter
                .apply(&library, "Fireball", &["Ana"], &mut rng)
                .unwrap(),
            Some(("3d6", 3, 0)),
            |total| total,
        ),
        (
            // The roll is before the Ward takes 2 off.
            encounter
                .apply(&library, "Fireball", &["Orc"], &mut rng)
                .unwrap(),
            Some(("3d6", 3, 0)),
            |total| total - 2,
        ),
        (
            encounter
                .apply(&library, "Heal", &["Ana"], &mut rng)
                .unwrap(),
            Some(("2d4+2", 2, 2)),
            |total| -total,
        ),
        (
            encounter
                .apply(&library, "Bleed", &["Ana"], &mut rng)
                .unwrap(),
            Some(("1d4", 1, 0)),
            |total| total,
        ),
        (
            // Bleed recurs at Ana's turn start with a roll of its own.
            encounter.next(&library, &mut rng).unwrap(),
            Some(("1d4", 1, 0)),
            |total| total,
        ),
        (
            encounter
                .apply(&library, "Poison", &["Ana"], &mut rng)
                .unwrap(),
            None,
            |_| 2,
        ),
        (
            encounter
                .hp(&library, "Ana", HpChange::Offset(-5), &mut rng)
                .unwrap(),
            None,
            |_| 5,
        ),
    ];
    for (events, expected, lost) in cases {
        let Some(EffectEvent::IntChange {
            before,
            after,
            roll,
            ..
        }) = events
            .iter()
            .find(|event| matches!(event, EffectEvent::IntChange { .. }))
            .cloned()
        else {
            panic!("no change in {events:?}");
        };
        match (expected, roll) {
            (None, None) => assert_eq!(before - after, lost(0), "{events:?}"),
            (Some((expr, count, modifier)), Some(roll)) => {
                assert_eq!(roll.expr, expr);
                assert_eq!(roll.dice.len(), count, "{roll:?}");
                assert_eq!(roll.dice.iter().sum::<i64>() + modifier, roll.total);
                assert_eq!(before - after, lost(roll.total), "{events:?}");
            }
            (expected, roll) => panic!("expected {expected:?}, got {roll:?} in {events:?}"),
        }
    }
}

/// `Encounter::damage` (an attack's or a failed save's damage, rolled by the host)
/// goes through I1 and P1 as an effect of that method does: (means, amount, the
/// lines it gives).
#[test]
fn host_damage_meets_immunity_and_protections() {
    let library = load_effects(SAMPLE).unwrap();
    let cases: [(&[&str], i64, &[&str]); 7] = [
        (&[], 4, &["* Orc: HitPoints 15 -> 11"]),
        (&["EDGED_WEAPON"], 6, &["* Orc: HitPoints 15 -> 9"]),
        (&["POISON"], 6, &["* Orc is immune to POISON."]),
        // Immune only when every means is in the set.
        (
            &["POISON", "EDGED_WEAPON"],
            6,
            &["* Orc: HitPoints 15 -> 9"],
        ),
        (
            &["BURN"],
            8,
            &["* BURN reduced by 5 on Orc.", "* Orc: HitPoints 15 -> 12"],
        ),
        (
            &["BURN"],
            3,
            &["* BURN reduced by 3 on Orc.", "* Orc: HitPoints 15 -> 15"],
        ),
        (
            &["EDGED_WEAPON"],
            40,
            &["* Orc: HitPoints 15 -> 0", "* Orc is down."],
        ),
    ];
    for (means, amount, lines) in cases {
        let mut encounter = Encounter::new();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        encounter.add(&library, &spec("Orc", 10, 15)).unwrap();
        for effect in ["FireWard", "PoisonImmunity"] {
            encounter
                .apply(&library, effect, &["Orc"], &mut rng)
                .unwrap();
        }
        let means: Vec<String> = means.iter().map(|m| m.to_string()).collect();
        let label = means.join("|");
        let events = encounter
            .damage(&library, "Orc", amount, &means, &label, &mut rng)
            .unwrap();
        let got: Vec<String> = events.iter().map(ToString::to_string).collect();
        assert_eq!(got, lines, "{means:?} {amount}");
    }
    // An undeclared means or combatant changes nothing.
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    encounter.add(&library, &spec("Orc", 10, 15)).unwrap();
    let before = encounter.clone();
    for (target, means, kind) in [
        ("Orc", "ACID", EffectErrorKind::UnknownElement),
        ("Nobody", "BURN", EffectErrorKind::UnknownCombatant),
    ] {
        let error = encounter
            .damage(&library, target, 5, &[means.to_string()], means, &mut rng)
            .unwrap_err();
        assert_eq!(error.kind, kind);
        assert_eq!(encounter, before);
    }
}

/// P1's reduction says which protection took the damage off: the element, and who
/// gave it (the effects by tag, the combatant's own declared protection), through
/// the host's damage and through an effect alike, and after the encounter is stored
/// as JSON: (own protection against BURN, effects applied, the reduction's element
/// and givers).
#[test]
fn a_reduction_names_who_gave_the_protection() {
    let library = load_effects(SAMPLE).unwrap();
    let given = |own: bool, effects: &[&str]| Protectors {
        own,
        effects: effects.iter().map(|tag| tag.to_string()).collect(),
    };
    let cases: [(i64, &[&str], Protectors); 3] = [
        (0, &["FireWard"], given(false, &["FireWard"])),
        (2, &[], given(true, &[])),
        (2, &["FireWard"], given(true, &["FireWard"])),
    ];
    for (own, effects, expected) in cases {
        let mut encounter = Encounter::new();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut knight = spec("Knight", 10, 30);
        if own > 0 {
            knight.protect = vec![("BURN".to_string(), own)];
        }
        encounter.add(&library, &knight).unwrap();
        for effect in effects {
            encounter
                .apply(&library, effect, &["Knight"], &mut rng)
                .unwrap();
        }
        let json = serde_json::to_string(&encounter).unwrap();
        let mut encounter: Encounter = serde_json::from_str(&json).unwrap();
        let burn = vec!["MAGIC".to_string(), "BURN".to_string()];
        let by_damage = encounter
            .damage(&library, "Knight", 9, &burn, "MAGIC|BURN", &mut rng)
            .unwrap();
        let by_effect = encounter
            .apply(&library, "Fireball", &["Knight"], &mut rng)
            .unwrap();
        for events in [by_damage, by_effect] {
            let reduced = events.iter().find_map(|event| match event {
                EffectEvent::Reduced {
                    element,
                    protectors,
                    ..
                } => Some((element.as_str(), protectors.clone())),
                _ => None,
            });
            assert_eq!(
                reduced,
                Some(("BURN", expected.clone())),
                "{own} {effects:?}"
            );
        }
    }
}

/// Dice that raise a cancel flag at their first draw: the host's deadline passing
/// in the middle of a command, driven by the command itself (no clock).
struct RaisesAtFirstDraw<'f> {
    flag: &'f std::sync::atomic::AtomicBool,
    dice: ChaCha8Rng,
}

impl rand::RngCore for RaisesAtFirstDraw<'_> {
    fn next_u32(&mut self) -> u32 {
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
        self.dice.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
        self.dice.next_u64()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.flag.store(true, std::sync::atomic::Ordering::Relaxed);
        self.dice.fill_bytes(dest);
    }
}

/// A flag raised while a command runs (by its first dice roll) stops the command
/// at its next step, and the encounter is as it was (Z2); the same command with a
/// flag that stays down completes. For an application to several targets and for
/// a turn start whose recurring effects roll.
#[test]
fn a_command_cancelled_midway_changes_nothing() {
    use std::sync::atomic::AtomicBool;
    let library = load_effects(
        "EFFECT Bleed { target_type Character; subject HitPoints; value -1d4; duration -1 }\n\
         EFFECT Burn { target_type Character; subject HitPoints; value -1d6; duration -1 }\n",
    )
    .unwrap();
    let mut encounter = Encounter::new();
    for name in ["A", "B", "C"] {
        encounter.add(&library, &spec(name, 1, 50)).unwrap();
    }
    let lowered = AtomicBool::new(false);
    let mut kept = encounter.clone();
    let done = kept
        .apply_cancellable(
            &library,
            "Bleed",
            &["A", "B", "C"],
            &mut ChaCha8Rng::seed_from_u64(3),
            Some(&lowered),
        )
        .unwrap();
    assert!(!done.is_empty());
    assert_ne!(kept, encounter);

    let raised = AtomicBool::new(false);
    let before = encounter.clone();
    let mut dice = RaisesAtFirstDraw {
        flag: &raised,
        dice: ChaCha8Rng::seed_from_u64(3),
    };
    let error = encounter
        .apply_cancellable(
            &library,
            "Bleed",
            &["A", "B", "C"],
            &mut dice,
            Some(&raised),
        )
        .unwrap_err();
    assert_eq!(error.kind, EffectErrorKind::Cancelled);
    assert_eq!(
        error.to_string(),
        "the command was cancelled; nothing was changed"
    );
    assert_eq!(encounter, before);

    // A's turn start makes its Bleed recur (a roll), then its Burn would.
    kept.apply_cancellable(
        &library,
        "Burn",
        &["A"],
        &mut ChaCha8Rng::seed_from_u64(5),
        Some(&lowered),
    )
    .unwrap();
    let mut ticking = kept.clone();
    ticking
        .next_cancellable(&library, &mut ChaCha8Rng::seed_from_u64(4), Some(&lowered))
        .unwrap();
    assert_ne!(ticking, kept);
    let raised = AtomicBool::new(false);
    let before = kept.clone();
    let mut dice = RaisesAtFirstDraw {
        flag: &raised,
        dice: ChaCha8Rng::seed_from_u64(4),
    };
    let error = kept
        .next_cancellable(&library, &mut dice, Some(&raised))
        .unwrap_err();
    assert_eq!(error.kind, EffectErrorKind::Cancelled);
    assert_eq!(kept, before);
    assert_eq!(kept.round(), 0);
}

/// A raised flag stops an effect file's load with one error saying so; a lowered
/// one loads the library as `load_effects` does.
#[test]
fn a_cancelled_effect_load_loads_nothing() {
    use npc_core::effects::load_effects_cancellable;
    use std::sync::atomic::AtomicBool;
    let limits = EffectLimits::default();
    let loaded = load_effects_cancellable(SAMPLE, &limits, &AtomicBool::new(false)).unwrap();
    assert_eq!(loaded.hash(), load_effects(SAMPLE).unwrap().hash());
    let errors = load_effects_cancellable(SAMPLE, &limits, &AtomicBool::new(true)).unwrap_err();
    let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(said, ["line 1: loading was cancelled"]);
    assert_eq!(errors[0].kind, npc_core::LoadErrorKind::Cancelled);
}

/// `save ABILITY DC [half|none]`: the host reads it with the damage of an instant hit
/// point effect (rolled once by the host, so a success can take half) and the
/// method's elements; another effect's save carries no damage.
#[test]
fn an_effect_declares_its_save() {
    let library = load_effects(
        "ELEMENTS { FIRE POISON }
EFFECT Fireball { target_type Character; subject HitPoints; value -8d6; method (FIRE);
    save dex 15 }
EFFECT Venom { target_type Character; subject HitPoints; value -2; method (POISON);
    duration 3; save CON 12 none }
EFFECT Heal { target_type Character; subject HitPoints; value +2d4 }
",
    )
    .expect("the library loads");
    let save = |ability: &str, dc, half, damage: Option<&str>| EffectSave {
        ability: ability.to_owned(),
        dc,
        half,
        damage: damage.map(str::to_owned),
    };
    let cases = [
        (
            "Fireball",
            Some((save("DEX", 15, true, Some("8d6")), vec!["FIRE".to_owned()])),
        ),
        (
            "Venom",
            Some((save("CON", 12, false, None), vec!["POISON".to_owned()])),
        ),
        ("Heal", None),
        ("Nothing", None),
    ];
    for (tag, expected) in cases {
        let found = library.save(tag).map(|(save, means)| (save.clone(), means));
        assert_eq!(found, expected, "{tag}");
    }
}

/// Every refusal of the engine carries the arguments its message names, so a host
/// words it from the error alone; its English is the template filled with them.
#[test]
fn every_refusal_carries_its_arguments() {
    use npc_core::MessageArg;
    use npc_core::effects::{EffectError, EffectMessageId};
    const SOURCE: &str = "ELEMENTS { ACID }\n\
        EFFECT Thorns { target_type Character; subject HitPoints; value -1; hook HpReduced }\n\
        EFFECT Bite { target_type Character; subject HitPoints; value -3 }\n\
        EFFECT Huge { target_type Character; subject HitPoints; value 9223372036854775807+1d6 }\n\
        EFFECT Mark { target_type Character; subject Strength; value +1; duration 5 }\n";
    let limits = EffectLimits {
        max_combatants: 2,
        max_attached: 2,
        max_name_len: 8,
        ..EffectLimits::default()
    };
    let library = load_effects_with(SOURCE, &limits).unwrap();
    let tight = EffectLimits {
        max_steps: 1,
        ..limits.clone()
    };
    let tight = load_effects_with(SOURCE, &tight).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut two = Encounter::new();
    two.add(&library, &spec("Ana", 10, 30)).unwrap();
    two.add(&library, &spec("Orc", 5, 30)).unwrap();
    let mut marked = two.clone();
    for _ in 0..2 {
        marked.apply(&library, "Mark", &["Ana"], &mut rng).unwrap();
    }
    let mut thorny = two.clone();
    thorny
        .apply(&library, "Thorns", &["Orc"], &mut rng)
        .unwrap();
    let long = "x".repeat(limits.max_name_len + 1);
    let mut acid = spec("Slime", 1, 5);
    acid.immune = vec!["ICE".to_string()];
    let raised = std::sync::atomic::AtomicBool::new(true);
    let fresh = Encounter::new();
    type Made = Result<Vec<EffectEvent>, EffectError>;
    /// The kind and id a command must give, the command, the arguments it must carry.
    type Case<'a> = (
        EffectErrorKind,
        EffectMessageId,
        Made,
        &'a [(&'a str, &'a str)],
    );
    let cases: Vec<Case> = vec![
        (
            EffectErrorKind::BadName,
            EffectMessageId::BadName,
            fresh.clone().add(&library, &spec(&long, 1, 1)),
            &[("max", "8")],
        ),
        (
            EffectErrorKind::BadName,
            EffectMessageId::NameTaken,
            two.clone().add(&library, &spec("Ana", 1, 1)),
            &[("name", "Ana"), ("max", "8")],
        ),
        (
            EffectErrorKind::Full,
            EffectMessageId::Full,
            two.clone().add(&library, &spec("Bo", 1, 1)),
            &[("max", "2")],
        ),
        (
            EffectErrorKind::UnknownElement,
            EffectMessageId::UnknownElement,
            fresh.clone().add(&library, &acid),
            &[("element", "ICE")],
        ),
        (
            EffectErrorKind::UnknownEffect,
            EffectMessageId::UnknownEffect,
            two.clone().apply(&library, "Nope", &["Ana"], &mut rng),
            &[("effect", "Nope")],
        ),
        (
            EffectErrorKind::UnknownEffect,
            EffectMessageId::NotHeld,
            two.clone().remove_effect("Ana", "Mark"),
            &[("name", "Ana"), ("effect", "Mark")],
        ),
        (
            EffectErrorKind::Empty,
            EffectMessageId::Empty,
            fresh.clone().next(&library, &mut rng),
            &[],
        ),
        (
            EffectErrorKind::NoEarlierTurn,
            EffectMessageId::NoEarlierTurn,
            two.clone().prev(),
            &[],
        ),
        (
            EffectErrorKind::UnknownCombatant,
            EffectMessageId::UnknownCombatant,
            two.clone()
                .apply(&library, "Bite", &["Ana", "Nobody"], &mut rng),
            &[("name", "Nobody")],
        ),
        (
            EffectErrorKind::StepBudget,
            EffectMessageId::StepBudget,
            two.clone().apply(&tight, "Bite", &["Ana", "Orc"], &mut rng),
            &[("max", "1")],
        ),
        (
            EffectErrorKind::Cancelled,
            EffectMessageId::Cancelled,
            two.clone()
                .apply_cancellable(&library, "Bite", &["Ana"], &mut rng, Some(&raised)),
            &[],
        ),
        (
            EffectErrorKind::Dice,
            EffectMessageId::Dice,
            two.clone().apply(&library, "Huge", &["Ana"], &mut rng),
            &[("effect", "Huge"), ("reason", "")],
        ),
        (
            EffectErrorKind::HookDepth,
            EffectMessageId::HookDepth,
            thorny.clone().apply(&library, "Bite", &["Orc"], &mut rng),
            &[("max", "4")],
        ),
        (
            EffectErrorKind::TooManyEffects,
            EffectMessageId::TooManyEffects,
            marked.clone().apply(&library, "Mark", &["Ana"], &mut rng),
            &[("name", "Ana"), ("max", "2")],
        ),
    ];
    let mut seen = Vec::new();
    for (kind, id, made, args) in cases {
        let error = made.expect_err(id.name());
        assert_eq!((error.kind, error.id), (kind, id), "{}", error.message);
        seen.push(id);
        let template = id.english_template();
        let names: Vec<&str> = error.args.iter().map(|(name, _)| name.as_str()).collect();
        let wanted: Vec<&str> = template
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .collect();
        for name in wanted {
            assert!(names.contains(&name), "{}: lacks {name}", id.name());
        }
        for (name, value) in args {
            let Some(arg) = error.arg(name) else {
                panic!("{} lacks {name}", id.name());
            };
            // An empty value stands for "any": a limit from the defaults, a reason.
            if !value.is_empty() {
                assert_eq!(arg.to_string(), *value, "{}: {name}", id.name());
            }
            if *name == "reason" {
                assert!(matches!(
                    arg,
                    MessageArg::DiceReason {
                        reason: Some(_),
                        ..
                    }
                ));
            }
        }
        let mut english = template.to_string();
        for (name, value) in &error.args {
            english = english.replace(&format!("{{{name}}}"), &value.to_string());
        }
        assert_eq!(error.message, english, "{}", id.name());
    }
    let mut all = EffectMessageId::ALL.to_vec();
    all.retain(|id| !seen.contains(id));
    assert!(all.is_empty(), "ids no case makes: {all:?}");
}
