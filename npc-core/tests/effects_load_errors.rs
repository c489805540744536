//! Every load-time check of the effect language, each error with its line, all
//! errors of a file in one run; and `APPLY_EFFECT` checked against a library.

use npc_core::effects::{EffectLimits, check_effects, load_effects, load_effects_with};
use npc_core::{Event, Limits, LoadErrorKind, load, load_against};

fn lines(source: &str) -> String {
    check_effects(source)
        .iter()
        .map(|error| format!("{error}\n"))
        .collect()
}

/// (source, every error line `tavern effects check` prints).
const CASES: &[(&str, &str)] = &[
    // required fields, reported at the EFFECT line
    (
        "EFFECT A {\n  method ()\n}\n",
        "line 1: EFFECT A has no `target_type` (target_type, subject and value are required)\n\
         line 1: EFFECT A has no `subject` (target_type, subject and value are required)\n\
         line 1: EFFECT A has no `value` (target_type, subject and value are required)\n",
    ),
    // a field twice
    (
        "EFFECT A {\n target_type Character\n subject HitPoints\n value -1\n value -2\n}\n",
        "line 5: field `value` is given twice in EFFECT A (first on line 4)\n",
    ),
    // wrong value type for the subject, for each subject type
    (
        "ELEMENTS { FIRE }\n\
         EFFECT A { target_type Character; subject HitPoints; value true }\n\
         EFFECT B { target_type Character; subject Immunity; value 3 }\n\
         EFFECT C { target_type Character; subject Dead; value +1 }\n\
         EFFECT D { target_type Character; subject Species; value (FIRE) }\n\
         EFFECT E { target_type Character; subject Existence; value true }\n\
         EFFECT F { target_type Effect; subject Existence; value new }\n\
         EFFECT G { target_type Character; subject Flags; value ~FIRE }\n",
        "line 2: value `true` does not fit subject HitPoints (INT: +N, -N, =N, *N, /N or N, N an integer or dice)\n\
         line 3: value `3` does not fit subject Immunity (SET: +S, -S, &S, =S or ~, S a set of elements such as (MAGIC|BURN))\n\
         line 4: value `+1` does not fit subject Dead (BOOL: true, false or invert)\n\
         line 5: value `(FIRE)` does not fit subject Species (TAG: =tag or tag)\n\
         line 6: value `true` does not fit subject Existence (existence: new or false)\n\
         line 7: value `new` does not fit subject Existence of target type Effect (false removes the matching effects)\n\
         line 8: value `~FIRE` does not fit subject Flags (SET: +S, -S, &S, =S or ~, S a set of elements such as (MAGIC|BURN))\n",
    ),
    // unknown element (in a method and in a value) and unknown subject
    (
        "ELEMENTS { FIRE }\n\
         EFFECT A { target_type Character; subject HitPoints; value -1; method (FIRE|ICE) }\n\
         EFFECT B { target_type Character; subject Immunity; value +MUD }\n\
         EFFECT C { target_type Character; subject Luck; value +1 }\n",
        "line 2: unknown element `ICE` (declare it in ELEMENTS)\n\
         line 3: unknown element `MUD` (declare it in ELEMENTS)\n\
         line 4: unknown subject `Luck` (subjects: HitPoints, ManaPoints, Strength, Dexterity, Intelligence, Wisdom, Constitution, Charisma, ArmorClass, Experience, Level, Speed, Field0, Field1, Field2, Field3, Field4, Field5, Field6, Field7, Field8, Field9, Flags, Immunity, Alignment, Protections, Dead, LoseTurn, Occupation, Species, Existence)\n",
    ),
    // division by zero
    (
        "EFFECT A { target_type Character; subject Speed; value /0 }\n",
        "line 1: division by zero: `/0`\n",
    ),
    // unsupported target types list what is supported
    (
        "EFFECT A { target_type Tile; subject HitPoints; value -1 }\n\
         EFFECT B { target_type Dragon; subject HitPoints; value -1 }\n\
         EFFECT C { target_type Effect; subject HitPoints; value -1 }\n",
        "line 1: target type `Tile` needs a map, and Tavern has no map (supported: Character, Effect)\n\
         line 2: unknown target type `Dragon` (supported: Character, Effect)\n\
         line 3: target type Effect has only the subject Existence, not `HitPoints`\n",
    ),
    // dice expressions dice-core refuses, fields, macros and labels
    (
        "EFFECT A { target_type Character; subject HitPoints; value -3d }\n\
         EFFECT B { target_type Character; subject HitPoints; value +1d8+@LEVEL }\n\
         EFFECT C { target_type Character; subject HitPoints; value -$fire }\n\
         EFFECT D { target_type Character; subject HitPoints; value -1d6 fire }\n\
         EFFECT E { target_type Character; subject HitPoints; value -1; duration 1d }\n",
        "line 1: dice expression `3d` is refused: expected the sides of the dice (a number, `%`, `F`, `(` or `{`) at the end\n\
         line 2: `1d8+@LEVEL`: `@` fields and `$` macros are not allowed in effects\n\
         line 3: `$fire`: `@` fields and `$` macros are not allowed in effects\n\
         line 4: dice expression `1d6 fire` has a label; write only the expression\n\
         line 5: duration: dice expression `1d` is refused: expected the sides of the dice (a number, `%`, `F`, `(` or `{`) at the end\n",
    ),
    // the other fields
    (
        "EFFECT A {\n\
         target_type Character; subject HitPoints; value -1\n\
         cumulative maybe\n\
         multi 2\n\
         probability 1.5\n\
         hook HpRaised\n\
         target_method Tile\n\
         mode sometimes\n\
         source (FIRE)\n\
         colour red\n\
         }\n",
        "line 3: `cumulative` takes yes or no, not `maybe`\n\
         line 4: `multi` takes yes or no, not `2`\n\
         line 5: probability takes a number from 0 to 1 (such as 0.25), not `1.5`\n\
         line 6: unknown hook `HpRaised` (hooks: HpReduced)\n\
         line 7: unknown target_method `Tile` (supported: Effected, the effect's holder)\n\
         line 8: mode takes recurring or while_active, not `sometimes`\n\
         line 9: source takes only `()` (it is accepted and ignored), not `(FIRE)`\n\
         line 10: unknown field `colour` in EFFECT A (fields: target_type, subject, value, method, duration, cumulative, multi, probability, hook, target_method, mode, source, save)\n",
    ),
    // Existence cannot be a layer; a Protections effect needs a method
    (
        "EFFECT A { target_type Character; subject Existence; value new; mode while_active }\n\
         EFFECT B { target_type Character; subject Protections; value +5 }\n",
        "line 1: Existence cannot be while_active: a removal or a clone cannot be undone\n\
         line 2: a Protections effect needs a method naming what it protects against, such as (BURN)\n",
    ),
    // tags: duplicates, one namespace for elements and effects, ELEMENTS once
    (
        "ELEMENTS { FIRE FIRE }\n\
         EFFECT FIRE { target_type Character; subject HitPoints; value -1 }\n\
         EFFECT A { target_type Character; subject HitPoints; value -1 }\n\
         EFFECT A { target_type Character; subject HitPoints; value -2 }\n\
         ELEMENTS { ICE }\n",
        "line 1: `FIRE` is declared twice (first on line 1)\n\
         line 2: `FIRE` is already an element (line 1); elements and effects share one namespace\n\
         line 4: EFFECT `A` is defined twice (first on line 3)\n\
         line 5: ELEMENTS is declared twice (first on line 1); declare every element in one list\n",
    ),
    // syntax: a stray word with a case hint, a missing brace, an unclosed comment
    (
        "effect A { target_type Character; subject HitPoints; value -1 }\n\
         EFFECT B { target_type Character; subject HitPoints; value -1\n\
         EFFECT C { target_type Character; subject HitPoints; value -1 }\n\
         EFFECT D { target_type Character; subject HitPoints; value\n\
         }\n\
         /* never closed\n",
        "line 1: expected ELEMENTS or EFFECT, found `effect` (words are case-sensitive: write `EFFECT`)\n\
         line 3: expected `}` to close EFFECT B opened on line 2, found `EFFECT`\n\
         line 4: EFFECT D has no `value` (target_type, subject and value are required)\n\
         line 4: field `value` needs a value on the same line\n\
         line 6: unterminated comment: expected `*/`, found end of file\n",
    ),
];

#[test]
fn every_check_reports_its_line() {
    let mut failures = Vec::new();
    for (source, expected) in CASES {
        let actual = lines(source);
        if actual != *expected {
            failures.push(format!(
                "--- source\n{source}--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_sample_library_loads() {
    let source = include_str!("../scripts/effects.ghul");
    let library = load_effects(source).expect("scripts/effects.ghul loads");
    assert!(library.has_effect("Fireball"));
    assert!(library.has_element("BURN"));
    assert!(
        library
            .declaration("Poison")
            .unwrap()
            .starts_with("EFFECT Poison {")
    );
}

#[test]
fn size_limits_are_load_errors() {
    let limits = EffectLimits::default();
    let huge = "/".repeat(limits.max_source_bytes + 1);
    let errors = check_effects(&huge);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].kind, LoadErrorKind::TooLarge);

    let effects: String = (0..=limits.max_effects)
        .map(|i| format!("EFFECT E{i} {{ target_type Character; subject Speed; value +1 }}\n"))
        .collect();
    let errors = check_effects(&effects);
    assert_eq!(
        errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![format!(
            "line {}: more than 256 effects in one file",
            limits.max_effects + 1
        )]
    );

    let elements: String = (0..=limits.max_elements)
        .map(|i| format!("X{i}\n"))
        .collect();
    let errors = check_effects(&format!("ELEMENTS {{\n{elements}}}\n"));
    assert_eq!(
        errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![format!(
            "line {}: more than 256 elements",
            limits.max_elements + 2
        )]
    );

    let deep = format!(
        "ELEMENTS {{ A }}\nEFFECT E {{ target_type Character; subject HitPoints; value -1; method {}A{} }}\n",
        "(".repeat(40),
        ")".repeat(40)
    );
    let errors = check_effects(&deep);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].to_string().starts_with("line 2: set `"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0]
            .to_string()
            .ends_with("is nested deeper than 16 levels")
    );

    let name = "N".repeat(limits.max_name_len + 1);
    let errors = check_effects(&format!("ELEMENTS {{ {name} }}\n"));
    assert_eq!(errors[0].kind, LoadErrorKind::TooLarge);

    // The error list is capped, then summarised.
    let small = EffectLimits {
        max_errors: 3,
        ..EffectLimits::default()
    };
    let many = "x\n".repeat(10);
    let errors = load_effects_with(&many, &small).unwrap_err();
    assert_eq!(errors.len(), 4);
    assert_eq!(errors[3].kind, LoadErrorKind::TooManyErrors);
}

#[test]
fn set_expressions_evaluate_with_precedence() {
    // `&` binds tighter than `|`; `~` complements within the file's elements.
    let source = "ELEMENTS { A B C }\n\
        EFFECT S { target_type Character; subject Flags; value =(A|B&C) }\n\
        EFFECT T { target_type Character; subject Flags; value =~(A|B) }\n\
        EFFECT U { target_type Character; subject Flags; value =() }\n";
    let transcript = npc_core::effects::play_effects(
        source,
        "@add X init=1 hp=1\n@apply S X\n@apply T X\n@apply U X\n",
    );
    assert_eq!(
        transcript,
        "> @add X init=1 hp=1\n> @apply S X\n* S on X: Flags = {A}\n\
         > @apply T X\n* T on X: Flags = {C}\n> @apply U X\n* U on X: Flags = {}\n"
    );
}

#[test]
fn apply_effect_is_checked_against_the_library() {
    let library = load_effects(
        "ELEMENTS { HOLY }\nEFFECT Cure { target_type Character; subject HitPoints; value +5 }\n",
    )
    .unwrap();
    let script = "CONV c { NATIVE { HAIL r } }\n\
        RESP r {\n  APPLY_EFFECT Cure\n  APPLY_EFFECT Smite\n  say \"x\"\n}\n";
    let errors = load_against(script, &Limits::default(), &library).unwrap_err();
    assert_eq!(
        errors.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![
            "line 4: unknown effect `Smite` in APPLY_EFFECT (the effect library has no such effect)",
            "line 5: expected a response statement or `}`, found `say` (words are case-sensitive: write `SAY`)",
        ]
    );

    // Without a library the script loads, and lists what it applies, so the
    // host can check it when a library is installed later.
    let script = "CONV c { NATIVE { HAIL r } }\nRESP r { APPLY_EFFECT Cure APPLY_EFFECT Smite }\n";
    let loaded = load(script).unwrap();
    let applied: Vec<&str> = loaded
        .applied_effects()
        .iter()
        .map(|e| e.tag.as_str())
        .collect();
    assert_eq!(applied, ["Cure", "Smite"]);
    let unknown: Vec<String> = loaded
        .unknown_effects(&library)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        unknown,
        ["line 2: unknown effect `Smite` in APPLY_EFFECT (the effect library has no such effect)"]
    );
    assert!(
        load_against(
            "CONV c { NATIVE { HAIL r } }\nRESP r { APPLY_EFFECT Cure }\n",
            &Limits::default(),
            &library
        )
        .is_ok()
    );

    // APPLY_EFFECT without a tag is a syntax error.
    let errors = load("RESP r { APPLY_EFFECT }\n").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "line 1: expected an effect tag after APPLY_EFFECT, found `}`"
    );
}

#[test]
fn apply_effect_asks_the_host() {
    let transcript = npc_core::play(
        "CONV c { NATIVE { HAIL r } }\nRESP r { SAY \"Be healed.\" APPLY_EFFECT Cure }\n",
        "@talk avra c Avra\nbye\n",
    );
    assert_eq!(
        transcript,
        "[talk Avra]\nAvra: Be healed.\n[apply_effect Cure]\n> bye\n[end bye]\n"
    );
    let script = load("CONV c { NATIVE { HAIL r } }\nRESP r { APPLY_EFFECT Cure }\n").unwrap();
    let mut world = npc_core::World::default();
    let (_, turn) =
        npc_core::Conversation::start(&script, "avra", "c", "Avra", &mut world).unwrap();
    assert!(turn.events.contains(&Event::ApplyEffect {
        npc: "Avra".to_string(),
        effect: "Cure".to_string()
    }));
}

/// Every message id of an effect file, by a file that says it: the error carries the
/// id, and its English is the message.
#[test]
fn every_effect_message_id_is_said() {
    let small = EffectLimits {
        max_effects: 1,
        max_elements: 1,
        max_name_len: 2,
        max_set_depth: 1,
        ..EffectLimits::default()
    };
    let hp = |value: &str| {
        format!(
            "ELEMENTS {{ A }}\nEFFECT E {{\ntarget_type Character\nsubject HitPoints\n{value}\n}}"
        )
    };
    let on = |subject: &str, value: &str| {
        format!("EFFECT E {{\ntarget_type Character\nsubject {subject}\nvalue {value}\n}}")
    };
    // (file, loaded under the small limits, the id it says)
    let values = [
        (hp("value x"), false, "value-misfit"),
        (hp("value x"), false, "forms-integer"),
        (on("Immunity", "x"), false, "forms-set"),
        (on("Dead", "x"), false, "forms-bool"),
        (on("Species", "1x"), false, "forms-tag"),
        (on("Existence", "x"), false, "forms-existence"),
        (hp("value /0"), false, "division-by-zero"),
        (
            "EFFECT E {\ntarget_type Effect\nsubject Existence\nvalue new\n}".to_owned(),
            false,
            "existence-of-effect",
        ),
        (hp("value +@STR"), false, "number-with-field"),
        (hp("value 1d6 # fire"), false, "dice-labelled"),
        (hp("value 1d"), false, "dice-refused"),
        (hp("value 1\nmethod A B"), false, "set-unexpected"),
        (hp("value 1\nmethod ((A))"), true, "set-too-deep"),
        (hp("value 1\nmethod (A"), false, "set-unclosed"),
        (hp("value 1\nmethod B"), false, "unknown-element"),
        (hp("value 1\nmethod #"), false, "set-bad-start"),
        (hp("value 1\nmethod A|"), false, "set-ends-early"),
        (hp("value 1\nduration @STR"), false, "duration"),
    ];
    let cases: &[(&str, bool, &str)] = &[
        ("# x", false, "effect-expected-declaration"),
        (
            "effect X { }",
            false,
            "effect-expected-declaration-upper-case",
        ),
        ("ELEMENTS { A }\nELEMENTS { B }", false, "elements-twice"),
        ("EFFECT A { }\nEFFECT B { }", true, "too-many-effects"),
        ("EFFECT A { }\nEFFECT A { }", false, "effect-twice"),
        ("ELEMENTS { A }\nEFFECT A { }", false, "effect-is-element"),
        ("ELEMENTS A", false, "elements-without-brace"),
        ("ELEMENTS { A", false, "elements-unclosed"),
        ("ELEMENTS { # }", false, "elements-bad-entry"),
        ("ELEMENTS { ABC }", true, "element-name-too-long"),
        ("ELEMENTS { A A }", false, "element-twice"),
        ("ELEMENTS { A B }", true, "too-many-elements"),
        ("EFFECT { }", false, "effect-without-tag"),
        ("EFFECT ABC { }", true, "effect-tag-too-long"),
        ("EFFECT A x", false, "effect-without-brace"),
        ("EFFECT A { # }", false, "effect-bad-entry"),
        ("EFFECT A {\nEFFECT B { }", false, "effect-unclosed-before"),
        ("EFFECT A {", false, "effect-unclosed"),
        ("EFFECT A {\ncolour red\n}", false, "unknown-field"),
        (
            "EFFECT A {\nhook HpReduced\nhook HpReduced\n}",
            false,
            "field-twice",
        ),
        ("EFFECT A {\nhook\n}", false, "field-without-value"),
        ("EFFECT A { }", false, "missing-field"),
        ("EFFECT A {\ntarget_type Tile\n}", false, "map-target-type"),
        (
            "EFFECT A {\ntarget_type Moon\n}",
            false,
            "unknown-target-type",
        ),
        ("EFFECT A {\nsubject Nope\n}", false, "unknown-subject"),
        (
            "EFFECT A {\ntarget_type Effect\nsubject HitPoints\n}",
            false,
            "effect-target-subject",
        ),
        ("EFFECT A {\ncumulative maybe\n}", false, "yes-or-no"),
        ("EFFECT A {\nprobability 2\n}", false, "bad-probability"),
        ("EFFECT A {\nsave DEX\n}", false, "bad-save"),
        ("EFFECT A {\nsave LUCK 15\n}", false, "bad-save"),
        ("EFFECT A {\nsave DEX 101\n}", false, "bad-save"),
        ("EFFECT A {\nsave DEX 15 quarter\n}", false, "bad-save"),
        ("EFFECT A {\nhook Other\n}", false, "unknown-hook"),
        (
            "EFFECT A {\ntarget_method Self\n}",
            false,
            "unknown-target-method",
        ),
        ("EFFECT A {\nsource x\n}", false, "bad-source"),
        (
            "EFFECT A {\ntarget_type Character\nsubject Existence\nvalue remove\nmode while_active\n}",
            false,
            "existence-while-active",
        ),
        (
            "EFFECT A {\ntarget_type Character\nsubject HitPoints\nvalue 1\nmode sometimes\n}",
            false,
            "bad-mode",
        ),
        (
            "EFFECT A {\ntarget_type Character\nsubject Protections\nvalue 1\n}",
            false,
            "protections-without-method",
        ),
    ];
    let values: Vec<(&str, bool, &str)> = values
        .iter()
        .map(|(source, limited, id)| (source.as_str(), *limited, *id))
        .collect();
    for (source, limited, id) in cases.iter().chain(&values) {
        let limits = if *limited {
            small.clone()
        } else {
            EffectLimits::default()
        };
        let errors = load_effects_with(source, &limits).err().unwrap_or_default();
        fn says(message: &npc_core::LoadMessage, id: &str) -> bool {
            message.id.name() == id
                || message.args.iter().any(|(_, arg)| {
                    matches!(arg, npc_core::MessageArg::Phrase(phrase) if says(phrase, id))
                })
        }
        let found = errors.iter().find(|error| says(&error.detail, id));
        let Some(error) = found else {
            panic!("{source:?}: no {id} in {errors:#?}");
        };
        let detail = &error.detail;
        assert_eq!(error.message, detail.english(), "{source:?}");
    }
}
