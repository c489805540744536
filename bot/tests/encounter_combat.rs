//! `/init attack` and `/init save` through the core, seeded: the D&D 5e SRD's rules
//! (hits against AC, natural 20 critical with doubled dice, natural 1 a miss, saves
//! with half damage), damage through the effect engine (immunities, protections),
//! hidden targets, monsters' stored attacks and saves, and both languages.

use tavern::core::{OptionValue, Reply};

use crate::encounter::{
    as_user, button, in_language, init, press, said, stored_engine, table_with, tracker,
};
use crate::harness::{ALICE, BOB, Harness, Sent, text};

const EFFECTS: &str = "ELEMENTS { POISON FIRE SLASH MAGIC }
EFFECT FireWard { target_type Character; subject Protections; value +5; method (FIRE);
    duration 10; cumulative no }
EFFECT PoisonImmunity { target_type Character; subject Immunity; value +POISON;
    method (MAGIC); duration -1 }
EFFECT Burning { target_type Character; subject HitPoints; value -1; method (FIRE);
    duration 2 }
EFFECT Fireball { target_type Character; subject HitPoints; value -8d6; method (FIRE);
    save DEX 15 }
EFFECT Venom { target_type Character; subject HitPoints; value -1; method (POISON);
    duration 2; save con 12 none }
";

/// Alice's encounter with Bob's Bram (HP 12, AC 5) at 20 and the monsters given as
/// (name, hp, ac, hidden, attack, save).
async fn fight(monsters: &[(&str, i64, i64, bool, &str, &str)]) -> Harness {
    let mut table = table_with(EFFECTS, 3).await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    as_user(&mut table, BOB, init("join", &[("init", text("20"))])).await;
    for (name, hp, ac, hidden, attack, save) in monsters {
        let mut options = vec![
            ("name", text(name)),
            ("init", text("10")),
            ("hp", text(&hp.to_string())),
            ("ac", OptionValue::Integer(*ac)),
            ("hidden", OptionValue::Boolean(*hidden)),
        ];
        if !attack.is_empty() {
            options.push(("attack", text(attack)));
        }
        if !save.is_empty() {
            options.push(("save", text(save)));
        }
        let added = as_user(&mut table, ALICE, init("add", &options)).await;
        assert!(tracker(&added).is_some(), "{}", added.all_text());
    }
    table
}

fn attack(options: &[(&str, &str)]) -> tavern::core::RequestKind {
    let options: Vec<(&str, OptionValue)> = options
        .iter()
        .map(|(name, value)| (*name, text(value)))
        .collect();
    init("attack", &options)
}

/// One attack line read back: `* A attacks T: to hit EXPR (d) = TOTAL[ vs AC N]: OUTCOME`.
struct AttackLine {
    natural: i64,
    total: i64,
    outcome: String,
}

fn attack_line(line: &str) -> AttackLine {
    let (_, rest) = line
        .split_once(": to hit ")
        .unwrap_or_else(|| panic!("{line}"));
    let (roll, outcome) = rest.rsplit_once(": ").unwrap();
    let roll = roll.split(" vs AC").next().unwrap();
    let (dice, total) = roll.rsplit_once(" = ").unwrap();
    let inside = dice.split_once('(').unwrap().1.split(')').next().unwrap();
    // With advantage, the kept die is the one not struck out.
    let natural = inside
        .split(", ")
        .find(|die| !die.starts_with('~'))
        .unwrap()
        .trim_matches('*')
        .parse()
        .unwrap_or_else(|_| panic!("{line}"));
    AttackLine {
        natural,
        total: total.trim_matches('*').parse().unwrap(),
        outcome: outcome.to_owned(),
    }
}

/// The damage a damage line says was dealt (its last number).
fn dealt(line: &str) -> i64 {
    let before_means = line.rsplit_once(' ').unwrap().0;
    before_means
        .rsplit(' ')
        .next()
        .unwrap()
        .trim_matches('*')
        .parse()
        .unwrap_or_else(|_| panic!("{line}"))
}

/// The public answer: the first interaction message (a GM's private numbers follow).
fn public(sent: &Sent) -> String {
    sent.replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Interaction(message) => Some(message.content.replace('\\', "")),
            _ => None,
        })
        .unwrap_or_default()
}

fn lines(sent: &Sent) -> Vec<String> {
    public(sent)
        .lines()
        .map(str::to_owned)
        .filter(|line| line.starts_with("* "))
        .collect()
}

/// Eighty attacks at a dummy of AC 15: every outcome follows the rule, a hit's damage
/// comes off its hit points, a critical hit adds a second roll of the dice, and the
/// seeded run meets a natural 20 and a natural 1.
#[tokio::test]
async fn attacks_hit_crit_and_miss_by_the_srd() {
    let mut table = fight(&[("Dummy", 2_000, 15, false, "", "")]).await;
    let (mut crits, mut fumbles, mut hits, mut misses) = (0, 0, 0, 0);
    let mut hp = 2_000;
    for round in 0..80 {
        let kind = attack(&[
            ("targets", "dummy"),
            ("hit", "1d20+4"),
            ("damage", "1d8+2"),
            ("means", "SLASH"),
        ]);
        // Some with advantage, some with disadvantage (which keeps a 1 either die shows).
        let kind = match round % 4 {
            3 => with_flag(kind, "advantage", true),
            1 => with_flag(kind, "disadvantage", true),
            _ => kind,
        };
        // A minute between attacks, so that no rate limit answers instead.
        table.clock.advance_ms(60_000);
        let sent = as_user(&mut table, ALICE, kind).await;
        let got = lines(&sent);
        assert!(!got.is_empty(), "{}", sent.all_text());
        let rolled = attack_line(&got[0]);
        assert!(
            got[0].starts_with("* Alice attacks Dummy: to hit "),
            "{got:?}"
        );
        let expected = match rolled.natural {
            20 => "natural 20, critical hit",
            1 => "natural 1, miss",
            _ if rolled.total >= 15 => "hit",
            _ => "miss",
        };
        assert_eq!(rolled.outcome, expected, "{got:?}");
        match expected {
            "natural 20, critical hit" => {
                crits += 1;
                assert!(got[1].contains(", critical dice +"), "{got:?}");
            }
            "natural 1, miss" => fumbles += 1,
            "hit" => hits += 1,
            _ => misses += 1,
        }
        if expected.ends_with("miss") {
            assert_eq!(got.len(), 1, "{got:?}");
            continue;
        }
        let damage = dealt(&got[1]);
        assert!(got[1].ends_with(" slash"), "{got:?}");
        let range = if crits > 0 && expected.contains("critical") {
            4..=18
        } else {
            3..=10
        };
        assert!(range.contains(&damage), "{got:?}");
        assert_eq!(
            got[2],
            format!("* Dummy: {hp} → {} hit points", hp - damage)
        );
        hp -= damage;
    }
    assert!(
        crits > 0 && fumbles > 0 && hits > 0 && misses > 0,
        "{crits} {fumbles} {hits} {misses}"
    );
    let engine = stored_engine(&table).await;
    assert_eq!(engine.combatant("Dummy").unwrap().hp, hp);
}

fn with_flag(
    kind: tavern::core::RequestKind,
    name: &str,
    value: bool,
) -> tavern::core::RequestKind {
    let tavern::core::RequestKind::Command(mut command) = kind else {
        return kind;
    };
    command.options.push(tavern::core::CommandOption {
        name: name.to_owned(),
        value: OptionValue::Boolean(value),
    });
    tavern::core::RequestKind::Command(command)
}

/// Damage goes through the effect engine: a poison-immune target takes none, a fire
/// ward takes 5 off (and is named), and several targets are attacked at once, each
/// with its own roll.
#[tokio::test]
async fn immunities_and_protections_meet_an_attack() {
    let mut table = fight(&[
        ("Orc", 30, -50, false, "", ""),
        ("Goblin", 30, -50, false, "", ""),
    ])
    .await;
    for effect in ["PoisonImmunity", "FireWard"] {
        as_user(
            &mut table,
            ALICE,
            init(
                "effect",
                &[("targets", text("Orc")), ("effect", text(effect))],
            ),
        )
        .await;
    }
    // (means, damage, what the Orc's lines hold, what the Goblin's hold)
    let cases = [
        (
            "POISON",
            "6",
            "* Orc is immune to poison.",
            "* Goblin: 30 → 24 hit points",
        ),
        (
            "FIRE",
            "8",
            "* Orc's FireWard takes 5 off.\n* Orc: 30 → 27 hit points",
            "* Goblin: 24 → 16 hit points",
        ),
        (
            "fire|slash",
            "3",
            "* Orc's FireWard takes 3 off.",
            "* Goblin: 16 → 13 hit points",
        ),
    ];
    for (means, damage, orc, goblin) in cases {
        let sent = as_user(
            &mut table,
            ALICE,
            attack(&[
                ("targets", "Orc, goblin"),
                ("hit", "+0"),
                ("damage", damage),
                ("means", means),
            ]),
        )
        .await;
        let answer = said(&sent);
        for expected in [orc, goblin] {
            // A natural 1 misses whatever the AC: the seeded run has none here.
            assert!(answer.contains(expected), "{expected} in {answer}");
        }
        assert_eq!(answer.matches(": to hit ").count(), 2, "{answer}");
    }
    // An element the effect file does not declare is refused before anything rolls.
    let refused = as_user(
        &mut table,
        ALICE,
        attack(&[
            ("targets", "Orc"),
            ("hit", "+0"),
            ("damage", "5"),
            ("means", "ACID"),
        ]),
    )
    .await;
    let answer = refused.interaction();
    assert!(answer.ephemeral);
    assert_eq!(
        answer.content,
        "This server's effect file declares no element `ACID`. Known: POISON, FIRE, SLASH, MAGIC."
    );
}

/// Saves: each target rolls with its own modifier; a failure takes the whole damage
/// (and the effect), a success half, or none with `half:false`.
#[tokio::test]
async fn saves_take_full_or_half_damage() {
    let mut table = fight(&[
        ("Nimble", 40, 10, false, "", "DEX+30"),
        ("Clumsy", 40, 10, false, "", "dex-30"),
    ])
    .await;
    let save = |half: bool, effect: Option<&str>| {
        let mut options = vec![
            ("targets", text("Nimble, Clumsy")),
            ("dc", OptionValue::Integer(15)),
            ("ability", text("dex")),
            ("damage", text("8d6")),
            ("means", text("FIRE")),
            ("half", OptionValue::Boolean(half)),
        ];
        if let Some(effect) = effect {
            options.push(("effect", text(effect)));
        }
        init("save", &options)
    };
    let sent = as_user(&mut table, ALICE, save(true, Some("Burning"))).await;
    let answer = said(&sent);
    let damage: i64 = answer
        .split("Damage 8d6 (")
        .nth(1)
        .and_then(|rest| rest.split(") = ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .map(|total| total.trim_matches('*').parse().unwrap())
        .unwrap_or_else(|| panic!("{answer}"));
    assert!(
        answer.contains("Alice calls for a **DEX** save, DC 15."),
        "{answer}"
    );
    assert!(
        answer.contains("half on a success. On a failure: **Burning**."),
        "{answer}"
    );
    assert!(answer.contains("* Nimble saves (DEX) 1d20 ("), "{answer}");
    assert!(answer.contains(") + 30 = "), "{answer}");
    assert!(answer.contains("vs DC 15: success"), "{answer}");
    assert!(answer.contains("* Clumsy saves (DEX) 1d20 ("), "{answer}");
    assert!(answer.contains(") - 30 = "), "{answer}");
    assert!(answer.contains("vs DC 15: failure"), "{answer}");
    let half = damage / 2;
    assert!(
        answer.contains(&format!("* Nimble: 40 → {} hit points", 40 - half)),
        "{answer}"
    );
    let burnt = (40 - damage).max(0);
    assert!(
        answer.contains(&format!("* Clumsy: 40 → {burnt} hit points")),
        "{answer}"
    );
    let engine = stored_engine(&table).await;
    let clumsy = engine.combatant("Clumsy").unwrap();
    assert_eq!(clumsy.effects.len(), 1, "the failure's effect");
    assert!(engine.combatant("Nimble").unwrap().effects.is_empty());
    // Without half damage a success takes nothing.
    let sent = as_user(&mut table, ALICE, save(false, None)).await;
    let answer = said(&sent);
    assert!(answer.contains("none on a success."), "{answer}");
    assert!(!answer.contains("* Nimble: HitPoints"), "{answer}");
    // Missing pieces are asked for.
    for (options, refusal) in [
        (
            vec![
                ("targets", text("Nimble")),
                ("dc", OptionValue::Integer(10)),
                ("ability", text("luck")),
            ],
            "Name the ability",
        ),
        (
            vec![
                ("targets", text("Nimble")),
                ("dc", OptionValue::Integer(10)),
                ("ability", text("WIS")),
            ],
            "Give the `damage`",
        ),
    ] {
        let sent = as_user(&mut table, ALICE, init("save", &options)).await;
        assert!(
            sent.interaction().content.starts_with(refusal),
            "{}",
            sent.interaction().content
        );
    }
}

/// A command's options.
type Options = Vec<(&'static str, OptionValue)>;

/// An effect whose file declares its save (issue 26): `/init save effect:Fireball`
/// takes the ability, the DC, half or none and, for instant hit point damage, the
/// damage and its method from the file; typed options win. Any other effect with a
/// save is taken by the failures, as declared. Whole answers, seeded.
#[tokio::test]
async fn an_effect_of_the_file_brings_its_save() {
    let mut table = fight(&[
        ("Nimble", 100, 10, false, "", "DEX+30 CON+30"),
        ("Clumsy", 100, 10, false, "", "dex-30 con-30"),
    ])
    .await;
    let save = |options: &[(&str, OptionValue)]| {
        let mut all = vec![("targets", text("Nimble, Clumsy"))];
        all.extend(options.iter().cloned());
        init("save", &all)
    };
    // (options, the whole public answer, the effects each then holds)
    let cases: Vec<(Options, &str, [usize; 2])> = vec![
        (
            vec![("effect", text("Fireball"))],
            "Alice casts **Fireball**: a **DEX** save, DC 15. Damage 8d6 (6, 5, 1, 5, 3, 4, 5, 4) = 33 fire, half on a success.
```
* Nimble saves (DEX) 1d20 (19) + 30 = 49 vs DC 15: success
* Nimble: 100 → 84 hit points
* Clumsy saves (DEX) 1d20 (4) - 30 = -26 vs DC 15: failure
* Clumsy: 100 → 67 hit points
```",
            [0, 0],
        ),
        (
            vec![
                ("effect", text("Fireball")),
                ("ability", text("CON")),
                ("dc", OptionValue::Integer(1)),
                ("half", OptionValue::Boolean(false)),
            ],
            "Alice casts **Fireball**: a **CON** save, DC 1. Damage 8d6 (4, 5, 3, 6, 1, 4, 5, 5) = 33 fire, none on a success.
```
* Nimble saves (CON) 1d20 (5) + 30 = 35 vs DC 1: success
* Clumsy saves (CON) 1d20 (1) - 30 = -29 vs DC 1: failure
* Clumsy: 67 → 34 hit points
```",
            [0, 0],
        ),
        (
            vec![("effect", text("Venom"))],
            "Alice calls for a **CON** save, DC 12. On a failure: **Venom**.
```
* Nimble saves (CON) 1d20 (11) + 30 = 41 vs DC 12: success
* Clumsy saves (CON) 1d20 (5) - 30 = -25 vs DC 12: failure
* Venom on Clumsy: 34 → 33 hit points
```",
            [0, 1],
        ),
        (
            vec![("effect", text("Burning")), ("ability", text("DEX"))],
            "Give the save's difficulty class (`dc:15`).",
            [0, 1],
        ),
    ];
    for (options, expected, holding) in cases {
        let sent = as_user(&mut table, ALICE, save(&options)).await;
        let answer = said(&sent);
        assert_eq!(answer, expected, "{options:?}");
        let engine = stored_engine(&table).await;
        for (name, effects) in ["Nimble", "Clumsy"].into_iter().zip(holding) {
            let held = engine.combatant(name).unwrap().effects.len();
            assert_eq!(held, effects, "{name} after {options:?}");
        }
    }
}

/// A character saves with its `@…_MOD`: Bram's DEX 16 gives +2 (the sheet's table).
#[tokio::test]
async fn a_character_saves_with_its_modifier() {
    let mut table = fight(&[]).await;
    let sent = as_user(
        &mut table,
        ALICE,
        init(
            "save",
            &[
                ("targets", text("Bram")),
                ("dc", OptionValue::Integer(12)),
                ("ability", text("Dexterity")),
                ("damage", text("4")),
            ],
        ),
    )
    .await;
    let answer = said(&sent);
    let expected = tavern::core::fields::ability_modifier(16);
    assert!(
        answer.contains("* Bram saves (DEX) 1d20 (")
            && answer.contains(&format!(") + {expected} = ")),
        "{answer}"
    );
}

/// A hidden target's AC and hit points stay off the public lines; the GM gets them
/// privately. A hidden monster's own rolls show only their totals.
#[tokio::test]
async fn hidden_numbers_only_in_the_gm_view() {
    let mut table = fight(&[("Shade", 30, 13, true, "+7 2d6+1 SLASH", "")]).await;
    as_user(&mut table, ALICE, init("next", &[])).await;
    // Bob on his turn attacks the hidden Shade.
    let sent = as_user(
        &mut table,
        BOB,
        attack(&[("targets", "Shade"), ("hit", "+50"), ("damage", "5")]),
    )
    .await;
    let answer = said(&sent);
    assert!(
        answer.contains("* Bram attacks Shade: to hit 1d20 ("),
        "{answer}"
    );
    assert!(answer.contains(") + 50 = "), "{answer}");
    assert!(!answer.contains("AC 13"), "{answer}");
    assert!(answer.contains("* Shade: healthy"), "{answer}");
    assert!(!answer.contains("25"), "{answer}");
    // Bob is no GM: no private numbers for him.
    assert_eq!(
        sent.replies
            .iter()
            .filter(|r| matches!(r, Reply::Interaction(_)))
            .count(),
        1
    );
    as_user(&mut table, BOB, init("next", &[])).await;
    // The Shade's turn: the GM attacks with its stored attack.
    let sent = as_user(&mut table, ALICE, attack(&[("targets", "Bram")])).await;
    let answer = public(&sent);
    assert!(answer.contains("Alice attacks with **Shade**."), "{answer}");
    assert!(answer.contains("* Shade attacks Bram: to hit "), "{answer}");
    assert!(
        !answer.contains("+ 7"),
        "the Shade's bonus stays hidden: {answer}"
    );
    let private = sent
        .replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Interaction(message) if message.ephemeral => Some(message.content.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("the GM's numbers in {:#?}", sent.replies));
    assert!(
        private.starts_with("**With the hidden numbers**"),
        "{private}"
    );
    assert!(
        private.contains("* Shade attacks Bram: to hit 1d20 ("),
        "{private}"
    );
    assert!(private.contains(") + 7 = "), "{private}");
    assert!(private.contains("vs AC 5"), "{private}");
}

/// Permissions: a player attacks only with their own combatant, on their turn or at
/// their own; a monster's stored attack and saves are checked when it is added.
#[tokio::test]
async fn players_attack_with_their_own_and_monsters_are_checked() {
    let mut table = fight(&[("Orc", 15, 13, false, "+5 1d12+3 SLASH", "DEX+1")]).await;
    let cases = [
        (
            attack(&[("targets", "Orc"), ("hit", "+1"), ("damage", "1")]),
            "You can attack only",
        ),
        (
            attack(&[("targets", "Bram"), ("attacker", "Orc")]),
            "You can attack only",
        ),
    ];
    for (kind, refusal) in cases {
        let sent = as_user(&mut table, BOB, kind).await;
        assert!(sent.interaction().ephemeral);
        assert!(
            sent.interaction().content.starts_with(refusal),
            "{}",
            sent.interaction().content
        );
        assert!(tracker(&sent).is_none());
    }
    let no_attack = as_user(
        &mut table,
        ALICE,
        attack(&[("targets", "Orc"), ("attacker", "Bram")]),
    )
    .await;
    assert!(
        no_attack
            .interaction()
            .content
            .starts_with("Give `hit` and `damage`")
    );
    for (option, value, refusal) in [
        ("attack", "+5", "Write a monster's attack"),
        ("attack", "+5 1d6 ACID", "declares no element `ACID`"),
        ("save", "LUCK+2", "Write a monster's save bonuses"),
    ] {
        let sent = as_user(
            &mut table,
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("3")),
                    ("hp", text("5")),
                    (option, text(value)),
                ],
            ),
        )
        .await;
        assert!(
            sent.interaction().content.contains(refusal),
            "{}",
            sent.interaction().content
        );
    }
    // The GM attacks with the Orc by name; its stored attack rolls.
    let sent = as_user(
        &mut table,
        ALICE,
        attack(&[("targets", "Bram"), ("attacker", "orc")]),
    )
    .await;
    assert!(
        said(&sent).contains("* Orc attacks Bram: to hit 1d20 ("),
        "{}",
        said(&sent)
    );
    assert!(said(&sent).contains(") + 5 = "), "{}", said(&sent));
}

/// The same attack and save read in German.
#[tokio::test]
async fn attacks_and_saves_in_german() {
    let mut table = fight(&[("Ork", 30, -50, false, "", "DEX-30")]).await;
    let sent = in_language(
        &mut table,
        ALICE,
        "de",
        attack(&[
            ("targets", "Ork"),
            ("hit", "+0"),
            ("damage", "4"),
            ("means", "SLASH"),
        ]),
    )
    .await;
    let answer = said(&sent);
    assert!(answer.contains("* Alice greift Ork an: 1d20 ("), "{answer}");
    // The seeded roll is a natural 20: a fixed damage has no dice to double.
    assert!(
        answer.contains("zum Treffen gegen RK -50: natürliche 20, kritischer Treffer"),
        "{answer}"
    );
    assert!(answer.contains("* Schaden 4 Slash"), "{answer}");
    assert!(answer.contains("* Ork: 30 → 26 Trefferpunkte"), "{answer}");
    let sent = in_language(
        &mut table,
        ALICE,
        "de",
        init(
            "save",
            &[
                ("targets", text("Ork")),
                ("dc", OptionValue::Integer(10)),
                ("ability", text("DEX")),
                ("damage", text("6")),
            ],
        ),
    )
    .await;
    let answer = said(&sent);
    assert!(
        answer.contains("Alice verlangt einen Rettungswurf auf **DEX**, SG 10."),
        "{answer}"
    );
    assert!(answer.contains("gegen SG 10: Misserfolg"), "{answer}");
    assert!(answer.contains("* Ork: 26 → 20 Trefferpunkte"), "{answer}");
}

/// A fight at 0 hit points: Orc and the hidden Shade (monsters) and Bob's Bram (a
/// character) brought to 0 by Alice, Goblin (HP 30, AC 10) standing.
async fn three_at_zero() -> Harness {
    let mut table = fight(&[
        ("Orc", 30, 10, false, "", ""),
        ("Shade", 20, 10, true, "", ""),
        ("Goblin", 30, 10, false, "", ""),
    ])
    .await;
    for target in ["Orc", "Shade", "Bram"] {
        let downed = as_user(
            &mut table,
            ALICE,
            init("hp", &[("target", text(target)), ("amount", text("=0"))]),
        )
        .await;
        assert!(!downed.interaction().ephemeral, "{}", said(&downed));
    }
    table
}

/// `/init save` at 0 hit points (SRD 5e): a monster is dead, out of the fight, and
/// rolls no save (its line says so, a hidden one's too); Bob's Bram, a character, is
/// unconscious: a DEX save fails without a roll and takes the damage, a WIS save he
/// rolls as usual. Whole answers, seeded, in English and German.
#[tokio::test]
async fn at_zero_hit_points_monsters_are_out_and_characters_fail_str_and_dex() {
    // (language, the DEX save's answer, the WIS save's answer)
    let cases = [
        (
            "en",
            "Alice calls for a **DEX** save, DC 10. Damage 6, half on a success.\n\
             ```\n\
             * Orc is at 0 hit points, out of the fight: no save.\n\
             * Shade is at 0 hit points, out of the fight: no save.\n\
             * Bram is unconscious and fails the DEX save without rolling: failure\n\
             * Goblin saves (DEX) 1d20 (17) + 0 = 17 vs DC 10: success\n\
             * Goblin: 30 → 27 hit points\n\
             ```",
            "Alice calls for a **WIS** save, DC 30. Damage 6, half on a success.\n\
             ```\n\
             * Bram saves (WIS) 1d20 (17) + 0 = 17 vs DC 30: failure\n\
             ```",
        ),
        (
            "de",
            "Alice verlangt einen Rettungswurf auf **DEX**, SG 10. Schaden 6, halb bei Erfolg.\n\
             ```\n\
             * Orc hat 0 Trefferpunkte und ist aus dem Kampf: kein Rettungswurf.\n\
             * Shade hat 0 Trefferpunkte und ist aus dem Kampf: kein Rettungswurf.\n\
             * Bram ist bewusstlos, der Rettungswurf auf DEX misslingt ohne Wurf: Misserfolg\n\
             * Goblin würfelt (DEX) 1d20 (17) + 0 = 17 gegen SG 10: Erfolg\n\
             * Goblin: 30 → 27 Trefferpunkte\n\
             ```",
            "Alice verlangt einen Rettungswurf auf **WIS**, SG 30. Schaden 6, halb bei Erfolg.\n\
             ```\n\
             * Bram würfelt (WIS) 1d20 (17) + 0 = 17 gegen SG 30: Misserfolg\n\
             ```",
        ),
    ];
    for (lang, dex, wis) in cases {
        let mut table = three_at_zero().await;
        let save = |ability: &str, dc: i64, targets: &str| {
            init(
                "save",
                &[
                    ("targets", text(targets)),
                    ("dc", OptionValue::Integer(dc)),
                    ("ability", text(ability)),
                    ("damage", text("6")),
                ],
            )
        };
        let sent = in_language(
            &mut table,
            ALICE,
            lang,
            save("DEX", 10, "Orc, Shade, Bram, Goblin"),
        )
        .await;
        assert_eq!(public(&sent), dex, "{lang}");
        let sent = in_language(&mut table, ALICE, lang, save("WIS", 30, "Bram")).await;
        assert_eq!(public(&sent), wis, "{lang}");
        // Nothing rolled for the dead, nothing taken: they stay as they were.
        let engine = stored_engine(&table).await;
        for (name, hp) in [("Orc", 0), ("Shade", 0), ("Bram", 0), ("Goblin", 27)] {
            assert_eq!(engine.combatant(name).unwrap().hp, hp, "{lang} {name}");
        }
    }
}

/// `/init attack` at 0 hit points: a monster there is dead and out of the fight, so
/// nothing rolls against it and one line says so (a hidden one's too, in the GM's
/// view as well); the other targets are attacked as usual, with the dice they would
/// have had without the dead among the targets. Bob's Bram, a character at 0, is
/// attacked as before (the SRD's automatic critical needs a distance the tracker
/// does not know). Whole answers, seeded, in English and German.
#[tokio::test]
async fn at_zero_hit_points_a_monster_is_not_attacked_and_a_character_is() {
    // (language, the answer with the dead among the targets)
    let cases = [
        (
            "en",
            "```\n\
             * Orc is at 0 hit points, out of the fight: no attack roll.\n\
             * Shade is at 0 hit points, out of the fight: no attack roll.\n\
             * Alice attacks Bram: to hit 1d20 (17) + 10 = 27 vs AC 5: hit\n\
             * Damage 1d6 (1) = 1 slash\n\
             * Alice attacks Goblin: to hit 1d20 (4) + 10 = 14 vs AC 10: hit\n\
             * Damage 1d6 (2) = 2 slash\n\
             * Goblin: 30 → 28 hit points\n\
             ```",
        ),
        (
            "de",
            "```\n\
             * Orc hat 0 Trefferpunkte und ist aus dem Kampf: kein Angriffswurf.\n\
             * Shade hat 0 Trefferpunkte und ist aus dem Kampf: kein Angriffswurf.\n\
             * Alice greift Bram an: 1d20 (17) + 10 = 27 zum Treffen gegen RK 5: getroffen\n\
             * Schaden 1d6 (1) = 1 Slash\n\
             * Alice greift Goblin an: 1d20 (4) + 10 = 14 zum Treffen gegen RK 10: getroffen\n\
             * Schaden 1d6 (2) = 2 Slash\n\
             * Goblin: 30 → 28 Trefferpunkte\n\
             ```",
        ),
    ];
    for (lang, expected) in cases {
        let mut answers = Vec::new();
        // The same fight twice: once with the dead among the targets, once without.
        for targets in ["Orc, Shade, Bram, Goblin", "Bram, Goblin"] {
            let mut table = three_at_zero().await;
            let sent = in_language(
                &mut table,
                ALICE,
                lang,
                attack(&[
                    ("targets", targets),
                    ("hit", "+10"),
                    ("damage", "1d6"),
                    ("means", "SLASH"),
                ]),
            )
            .await;
            answers.push(lines(&sent));
            let engine = stored_engine(&table).await;
            // Nothing taken by the dead; Bram, hit, stays at 0 (hit points stop there).
            for (name, hp) in [("Orc", 0), ("Shade", 0), ("Bram", 0), ("Goblin", 28)] {
                assert_eq!(engine.combatant(name).unwrap().hp, hp, "{lang} {name}");
            }
            if targets.starts_with("Orc") {
                assert_eq!(public(&sent), expected, "{lang}");
            }
        }
        // Without the two out lines, the answers are the same roll for roll.
        assert_eq!(answers[0][2..], answers[1][..], "{lang}");
    }
}

/// Options as typed: `(name, value)`.
type Typed<'a> = &'a [(&'a str, &'a str)];

/// A macro may hold a whole attack (`to hit # damage MEANS`): the GM's for a monster,
/// a player's with their character's fields; typed options still win, and a macro
/// that is missing or holds no attack is refused.
#[tokio::test]
async fn a_macro_may_hold_an_attack() {
    let mut table = fight(&[("Orc", 40, 1, false, "", "")]).await;
    let macros = [
        (ALICE, "orcaxe", "+5 # 1d12+3 SLASH"),
        (ALICE, "plain", "1d20+5"),
        (BOB, "axe", "1d20+@STR_MOD # 1d8+@STR_MOD SLASH"),
    ];
    for (user, name, expr) in macros {
        let set = tavern::core::RequestKind::Command(tavern::core::Command {
            name: "macro".to_owned(),
            subcommand: vec!["set".to_owned()],
            options: vec![
                tavern::core::CommandOption {
                    name: "name".to_owned(),
                    value: text(name),
                },
                tavern::core::CommandOption {
                    name: "expr".to_owned(),
                    value: text(expr),
                },
            ],
        });
        let saved = as_user(&mut table, user, set).await;
        assert!(
            saved.interaction().content.contains(name),
            "{}",
            saved.interaction().content
        );
    }
    // Bram's turn: Bob attacks with his own macro.
    as_user(&mut table, ALICE, init("next", &[])).await;
    let cases: &[(i64, Typed<'_>, &str)] = &[
        (
            BOB,
            &[("targets", "Orc"), ("macro", "axe")],
            "* Bram attacks Orc: to hit 1d20 (",
        ),
        (
            ALICE,
            &[
                ("targets", "Bram"),
                ("attacker", "Orc"),
                ("macro", "orcaxe"),
            ],
            "* Orc attacks Bram: to hit 1d20 (",
        ),
        (
            ALICE,
            &[
                ("targets", "Bram"),
                ("attacker", "Orc"),
                ("macro", "$orcaxe"),
                ("hit", "+9"),
            ],
            ") + 9 = ",
        ),
    ];
    for (user, options, expected) in cases {
        table.clock.advance_ms(60_000);
        let sent = as_user(&mut table, *user, attack(options)).await;
        assert!(
            said(&sent).contains(expected),
            "{options:?}: {}",
            said(&sent)
        );
    }
    let held = as_user(
        &mut table,
        ALICE,
        attack(&[
            ("targets", "Bram"),
            ("attacker", "Orc"),
            ("macro", "orcaxe"),
        ]),
    )
    .await;
    assert!(said(&held).contains(") + 5 = "), "{}", said(&held));
    let refusals = [
        ("nothing", "There is no macro called `nothing` here"),
        ("plain", "The macro `plain` holds no attack"),
        // Another's personal macro is not one's own.
        ("axe", "There is no macro called `axe` here"),
    ];
    for (name, refusal) in refusals {
        // A table's pace, within the rate limit.
        table.clock.advance_ms(60_000);
        let sent = as_user(
            &mut table,
            ALICE,
            attack(&[("targets", "Bram"), ("attacker", "Orc"), ("macro", name)]),
        )
        .await;
        assert!(sent.interaction().ephemeral);
        assert!(
            sent.interaction().content.starts_with(refusal),
            "{}",
            sent.interaction().content
        );
        assert!(tracker(&sent).is_none());
    }
}

/// Issue 26's new-user pass: a target nobody has is refused before anything rolls
/// (a miss against it used to read as a roll that happened), for attacks and saves,
/// in both languages; nothing is stored.
#[tokio::test]
async fn an_unknown_target_is_refused_before_anything_rolls() {
    let mut table = fight(&[("Orc", 30, 10, false, "", "")]).await;
    let before = stored_engine(&table).await;
    let save = init(
        "save",
        &[
            ("targets", text("Orc, Nobody")),
            ("dc", OptionValue::Integer(10)),
            ("ability", text("DEX")),
            ("damage", text("4")),
        ],
    );
    let attack = attack(&[("targets", "Nobody"), ("hit", "+5"), ("damage", "4")]);
    for (locale, expected) in [
        (
            "en",
            "There is no combatant `Nobody` in this encounter (`/init list` shows them); nothing was rolled.",
        ),
        (
            "de",
            "In dieser Begegnung gibt es keinen Beteiligten `Nobody` (`/initiative liste` zeigt sie); es wurde nichts gewürfelt.",
        ),
    ] {
        for kind in [&attack, &save] {
            let sent = in_language(&mut table, ALICE, locale, kind.clone()).await;
            assert_eq!(said(&sent), expected);
        }
    }
    assert_eq!(stored_engine(&table).await, before);
}

/// On a monster's turn the GM's `/init attack targets:Orc` is the GM rolling at the
/// Orc, not the Orc hitting itself (the default attacker is never a target).
#[tokio::test]
async fn the_attacker_by_default_is_not_its_own_target() {
    let mut table = fight(&[("Orc", 30, 1, false, "+5 1d6 SLASH", "")]).await;
    // Bram (20) first, then the Orc (10).
    for _ in 0..2 {
        as_user(&mut table, ALICE, init("next", &[])).await;
    }
    let at_orc = as_user(
        &mut table,
        ALICE,
        attack(&[("targets", "Orc"), ("hit", "+5"), ("damage", "4")]),
    )
    .await;
    assert!(
        public(&at_orc).starts_with("```\n* Alice attacks Orc: to hit 1d20 ("),
        "{}",
        public(&at_orc)
    );
    // At someone else, the Orc whose turn it is attacks with its own attack.
    let at_bram = as_user(&mut table, ALICE, attack(&[("targets", "Bram")])).await;
    assert!(
        public(&at_bram)
            .starts_with("Alice attacks with **Orc**.\n```\n* Orc attacks Bram: to hit 1d20 ("),
        "{}",
        public(&at_bram)
    );
}

/// `/init save effect:X` for an effect whose file declares no save says so, rather
/// than only asking for an ability.
#[tokio::test]
async fn a_save_with_an_effect_that_declares_none_says_so() {
    let mut table = fight(&[("Orc", 30, 10, false, "", "")]).await;
    let save = |options: &[(&str, OptionValue)]| {
        let mut all = vec![("targets", text("Orc")), ("effect", text("Burning"))];
        all.extend(options.iter().cloned());
        init("save", &all)
    };
    // (options, locale, the answer): with part of the save typed, the rest is asked for.
    let cases: [(Options, &str, &str); 3] = [
        (
            vec![],
            "en",
            "`Burning` declares no save in the effect file: give the `ability` and the `dc`.",
        ),
        (
            vec![],
            "de",
            "`Burning` gibt in der Effektdatei keinen Rettungswurf an: nenne das `attribut` und den `sg`.",
        ),
        (
            vec![("dc", OptionValue::Integer(12))],
            "en",
            "Name the ability to save with: STR, DEX, CON, INT, WIS or CHA.",
        ),
    ];
    for (options, locale, expected) in cases {
        let sent = in_language(&mut table, ALICE, locale, save(&options)).await;
        assert_eq!(said(&sent), expected);
    }
}

/// A 20-target attack is read whole: the lines that do not fit one message follow
/// in further messages (each a whole monospace block within Discord's limit), none
/// cut to "… and N more".
#[tokio::test]
async fn a_twenty_target_attack_is_shown_whole() {
    let mut table = fight(&[]).await;
    as_user(
        &mut table,
        ALICE,
        init(
            "add",
            &[
                ("name", text("Skeleton_Warrior")),
                ("init", text("10")),
                ("hp", text("40")),
                ("count", OptionValue::Integer(20)),
            ],
        ),
    )
    .await;
    let targets: Vec<String> = (1..=20).map(|n| format!("Skeleton_Warrior_{n}")).collect();
    let sent = as_user(
        &mut table,
        ALICE,
        attack(&[
            ("targets", &targets.join(",")),
            ("hit", "+100"),
            ("damage", "2d6+1"),
            ("means", "FIRE|SLASH"),
        ]),
    )
    .await;
    let messages: Vec<&str> = sent
        .replies
        .iter()
        .filter_map(|reply| match reply {
            Reply::Interaction(message) => Some(message.content.as_str()),
            _ => None,
        })
        .collect();
    assert!(messages.len() > 1, "{messages:#?}");
    for message in &messages {
        assert!(message.chars().count() <= 2000, "{message}");
        assert!(message.trim_end().ends_with("```"), "{message}");
        assert!(!message.contains("more"), "{message}");
    }
    let all = messages.join("\n");
    for target in &targets {
        let attacked = format!("* Alice attacks {target}: to hit 1d20 (");
        assert_eq!(all.matches(&attacked).count(), 1, "{target} in {all}");
        let hurt = format!("* {target}: 40 → ");
        assert_eq!(all.matches(&hurt).count(), 1, "{target} in {all}");
    }
}

/// Without an effect file there are no elements: `means` is refused with why (it
/// used to list "Known: ." and nothing), for a monster's attack and an attack; an
/// encounter ended before its first round says so (not "after 0 rounds").
#[tokio::test]
async fn without_an_effect_file_means_are_refused_with_why() {
    let mut table = Harness::new().await;
    as_user(&mut table, ALICE, init("begin", &[])).await;
    let no_means = "This server has no effect file, so damage has no means: leave `means` out, or install one with `/effect install`.";
    let add = init(
        "add",
        &[
            ("name", text("Orc")),
            ("init", text("10")),
            ("hp", text("10")),
            ("attack", text("+5 1d6 SLASH")),
        ],
    );
    assert_eq!(said(&as_user(&mut table, ALICE, add).await), no_means);
    let add = init(
        "add",
        &[
            ("name", text("Orc")),
            ("init", text("10")),
            ("hp", text("10")),
        ],
    );
    assert!(tracker(&as_user(&mut table, ALICE, add).await).is_some());
    let sent = as_user(
        &mut table,
        ALICE,
        attack(&[
            ("targets", "Orc"),
            ("hit", "+5"),
            ("damage", "4"),
            ("means", "FIRE"),
        ]),
    )
    .await;
    assert_eq!(said(&sent), no_means);
    let asked = as_user(&mut table, ALICE, init("end", &[])).await;
    let ended = as_user(
        &mut table,
        ALICE,
        press(&button(&asked, "End the encounter")),
    )
    .await;
    let all = ended.all_text().replace('\\', "");
    assert!(
        all.contains("**The encounter is over** before its first round."),
        "{all}"
    );
}
