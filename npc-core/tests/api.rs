//! The Rust API the bot uses: prompts as data, storing a waiting conversation,
//! rollback of stopped turns (Z2), the step budget's exact boundary (Z1).

use std::sync::atomic::AtomicBool;

use npc_core::{
    Conversation, EndReason, Event, Limits, MenuChoice, Prompt, TradeItem, Turn, World, load,
    load_cancellable, load_with,
};

const SHOP: &str = r#"
CONV c_shop { NATIVE { HAIL r_hail HEAL r_heal BUY r_buy ASK r_ask HOW r_how } }
CONV c_second { }
RESP r_hail { SAY "Welcome." }
RESP r_heal {
  MENU { "Heal" 30 { SAY "Better." CHANGE_PARM 2 +1 } "Done" { BREAK } }
  SAY "Bye for now."
}
RESP r_buy { TRADE { t_iron_helm 80 t_arrow 3 } }
RESP r_ask { GET_YES_NO { SET_FLAG 9 } { } }
RESP r_how { GET_AMOUNT }
"#;

fn lines(turn: &Turn) -> Vec<String> {
    turn.events.iter().map(Event::to_line).collect()
}

#[test]
fn prompts_are_data() {
    let script = load(SHOP).expect("loads");
    let mut world = World::default();
    let (mut talk, turn) =
        Conversation::start(&script, "hawk", "c_shop", "Hawknoz", &mut world).expect("starts");
    assert_eq!(lines(&turn), ["[talk Hawknoz]", "Hawknoz: Welcome."]);
    assert_eq!(turn.prompt, Prompt::Keyword);

    let turn = talk.input(&script, "heal", &mut world);
    let expected_menu = vec![
        MenuChoice {
            label: "Heal".to_string(),
            cost: Some(30),
        },
        MenuChoice {
            label: "Done".to_string(),
            cost: None,
        },
    ];
    assert_eq!(turn.prompt, Prompt::Menu(expected_menu.clone()));
    assert_eq!(talk.prompt(&script), Prompt::Menu(expected_menu));
    let turn = talk.input(&script, "done", &mut world);
    assert_eq!(turn.prompt, Prompt::Keyword);

    let turn = talk.input(&script, "buy", &mut world);
    assert_eq!(
        turn.prompt,
        Prompt::Trade(vec![
            TradeItem {
                tag: "t_iron_helm".to_string(),
                name: "iron helm".to_string(),
                price: 80,
                sell_price: 20,
            },
            TradeItem {
                tag: "t_arrow".to_string(),
                name: "arrow".to_string(),
                price: 3,
                sell_price: 0,
            },
        ])
    );
    assert_eq!(
        talk.input(&script, "done", &mut world).prompt,
        Prompt::Keyword
    );
    assert_eq!(talk.input(&script, "ask", &mut world).prompt, Prompt::YesNo);
    assert_eq!(
        talk.input(&script, "no", &mut world).prompt,
        Prompt::Keyword
    );
    assert_eq!(
        talk.input(&script, "how", &mut world).prompt,
        Prompt::Amount
    );
    assert_eq!(
        talk.input(&script, "17", &mut world).prompt,
        Prompt::Keyword
    );
    assert_eq!(talk.amount(), 17);
    let turn = talk.input(&script, "bye", &mut world);
    assert_eq!(turn.prompt, Prompt::Ended(EndReason::Bye));
    assert!(turn.is_over() && talk.is_over());

    // After the end, input does nothing and leaving says nothing.
    let after = talk.input(&script, "heal", &mut world);
    assert!(after.events.is_empty());
    assert_eq!(after.prompt, Prompt::Ended(EndReason::Bye));
    assert!(talk.leave().is_empty());
}

#[test]
fn a_stored_conversation_resumes_after_a_restart() {
    let script = load(SHOP).expect("loads");
    let inputs = ["heal", "heal", "HEAL", "done", "ask", "yes"];

    // Uninterrupted.
    let mut world = World {
        gold: 70,
        ..World::default()
    };
    let (mut talk, _) =
        Conversation::start(&script, "hawk", "c_shop", "Hawknoz", &mut world).expect("starts");
    let straight: Vec<Vec<String>> = inputs
        .iter()
        .map(|line| lines(&talk.input(&script, line, &mut world)))
        .collect();

    // Stored as JSON between every turn, script loaded anew each time.
    let mut stored_world = serde_json::to_string(&World {
        gold: 70,
        ..World::default()
    })
    .expect("world serializes");
    let mut world: World = serde_json::from_str(&stored_world).expect("world restores");
    let (talk, _) =
        Conversation::start(&script, "hawk", "c_shop", "Hawknoz", &mut world).expect("starts");
    let mut stored_talk = serde_json::to_string(&talk).expect("conversation serializes");
    stored_world = serde_json::to_string(&world).expect("world serializes");
    let mut resumed = Vec::new();
    for line in inputs {
        let script = load(SHOP).expect("loads again");
        let mut talk: Conversation = serde_json::from_str(&stored_talk).expect("restores");
        let mut world: World = serde_json::from_str(&stored_world).expect("restores");
        resumed.push(lines(&talk.input(&script, line, &mut world)));
        stored_talk = serde_json::to_string(&talk).expect("serializes");
        stored_world = serde_json::to_string(&world).expect("serializes");
    }
    assert_eq!(resumed, straight);
    let world: World = serde_json::from_str(&stored_world).expect("restores");
    assert_eq!(world.gold, 10);
    assert_eq!(world.param(2), 2);
    assert!(world.flags.is_set("c_shop", 9));
}

#[test]
fn a_conversation_stored_against_another_script_ends_with_an_error() {
    let script = load(SHOP).expect("loads");
    let mut world = World::default();
    let (mut talk, _) =
        Conversation::start(&script, "hawk", "c_shop", "Hawknoz", &mut world).expect("starts");
    talk.input(&script, "heal", &mut world);
    let changed = load(&SHOP.replace("Better.", "Much better.")).expect("loads");
    let before = world.clone();
    let turn = talk.input(&changed, "heal", &mut world);
    assert_eq!(turn.prompt, Prompt::Ended(EndReason::Error));
    assert_eq!(
        lines(&turn),
        [
            "[error] the stored conversation does not fit this script",
            "[end error]"
        ]
    );
    assert_eq!(world, before);
}

#[test]
fn a_stopped_turn_leaves_the_world_untouched() {
    let mut source = String::from(
        "CONV c { NATIVE { RUN r_run } }\nRESP r_run { SET_FLAG 1 GIVE_ITEM t_gem CHANGE_PARM GOLD -5 $r_1 }\n",
    );
    for level in 1..14 {
        source.push_str(&format!(
            "RESP r_{level} {{ $r_{next} $r_{next} }}\n",
            next = level + 1
        ));
    }
    source.push_str("RESP r_14 { SAY \"x\" }\n");
    let script = load(&source).expect("loads");
    let mut world = World {
        gold: 10,
        ..World::default()
    };
    let (mut talk, _) = Conversation::start(&script, "n", "c", "N", &mut world).expect("starts");
    let before = world.clone();
    let turn = talk.input(&script, "run", &mut world);
    assert_eq!(turn.prompt, Prompt::Ended(EndReason::Error));
    assert_eq!(turn.events.len(), 2);
    assert_eq!(world, before);
    assert!(talk.is_over());
}

/// A raised cancel flag stops a turn at its next statement, as a runaway is
/// stopped: the world stays as it was and the conversation ends with an error; a
/// flag that stays down changes nothing.
#[test]
fn a_raised_cancel_flag_stops_the_turn() {
    let script = load(&straight_line(100)).expect("loads");
    let lowered = AtomicBool::new(false);
    let raised = AtomicBool::new(true);
    let mut world = World::default();
    let (mut talk, _) =
        Conversation::start_cancellable(&script, "n", "c", "N", &mut world, Some(&lowered))
            .expect("starts");
    let mut finished = talk.clone();
    let turn = finished.input_cancellable(&script, "go", &mut world.clone(), Some(&lowered));
    assert_eq!(turn.prompt, Prompt::Keyword);

    let before = world.clone();
    let turn = talk.input_cancellable(&script, "go", &mut world, Some(&raised));

    assert_eq!(turn.prompt, Prompt::Ended(EndReason::Error));
    assert_eq!(
        lines(&turn),
        ["[error] the turn was cancelled", "[end error]"]
    );
    assert_eq!(world, before);
    // a flag raised before the greeting stops HAIL
    let hail = load("CONV c { NATIVE { HAIL r_hail } }\nRESP r_hail { SET_FLAG 1 SAY \"Hi.\" }")
        .expect("loads");
    let mut world = World::default();
    let (talk, turn) =
        Conversation::start_cancellable(&hail, "n", "c", "N", &mut world, Some(&raised))
            .expect("starts");
    assert_eq!(
        lines(&turn),
        ["[talk N]", "[error] the turn was cancelled", "[end error]"]
    );
    assert_eq!(world, World::default());
    assert!(talk.is_over());
}

/// A raised flag stops a script's load with one error saying so (the NPC loader
/// checks it before each definition and between its phases); a lowered one loads
/// the script as `load_with` does.
#[test]
fn a_cancelled_script_load_loads_nothing() {
    let limits = Limits::default();
    let loaded = load_cancellable(SHOP, &limits, &AtomicBool::new(false)).expect("loads");
    assert_eq!(loaded.hash(), load(SHOP).expect("loads").hash());
    let errors = load_cancellable(SHOP, &limits, &AtomicBool::new(true)).unwrap_err();
    let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(said, ["line 1: loading was cancelled"]);
    assert_eq!(errors[0].kind, npc_core::LoadErrorKind::Cancelled);
    assert_eq!(errors[0].detail.id, npc_core::MessageId::LoadCancelled);
}

/// A keyword response of `statements` statements, nothing else in the turn.
fn straight_line(statements: usize) -> String {
    format!(
        "CONV c {{ NATIVE {{ GO r_go }} }}\nRESP r_go {{ {} }}",
        "SET_FLAG 1 ".repeat(statements)
    )
}

fn ends_of(source: &str, limits: &Limits) -> Prompt {
    let script = load_with(source, limits).expect("loads");
    let mut world = World::default();
    let (mut talk, _) = Conversation::start(&script, "n", "c", "N", &mut world).expect("starts");
    talk.input(&script, "go", &mut world).prompt
}

#[test]
fn the_step_budget_allows_exactly_ten_thousand_statements() {
    let limits = Limits::default();
    assert_eq!(limits.max_steps, 10_000);
    assert_eq!(ends_of(&straight_line(10_000), &limits), Prompt::Keyword);
    assert_eq!(
        ends_of(&straight_line(10_001), &limits),
        Prompt::Ended(EndReason::Error)
    );
}

#[test]
fn the_step_budget_resets_at_every_prompt() {
    let limits = Limits {
        max_steps: 4,
        ..Limits::default()
    };
    // Four statements, a prompt, four more: fine.
    let source = "CONV c { NATIVE { GO r_go } }\nRESP r_go { SET_FLAG 1 SET_FLAG 1 SET_FLAG 1 GET_AMOUNT SET_FLAG 1 SET_FLAG 1 SET_FLAG 1 SET_FLAG 1 }";
    let script = load_with(source, &limits).expect("loads");
    let mut world = World::default();
    let (mut talk, _) = Conversation::start(&script, "n", "c", "N", &mut world).expect("starts");
    assert_eq!(talk.input(&script, "go", &mut world).prompt, Prompt::Amount);
    assert_eq!(talk.input(&script, "1", &mut world).prompt, Prompt::Keyword);
}

#[test]
fn too_much_output_in_one_turn_is_stopped_like_a_runaway() {
    let limits = Limits {
        max_turn_output_bytes: 100,
        ..Limits::default()
    };
    let long = "x".repeat(60);
    let source =
        format!("CONV c {{ NATIVE {{ GO r_go }} }}\nRESP r_go {{ SAY \"{long}\" SAY \"{long}\" }}");
    let script = load_with(&source, &limits).expect("loads");
    let mut world = World::default();
    let (mut talk, _) = Conversation::start(&script, "n", "c", "N", &mut world).expect("starts");
    let turn = talk.input(&script, "go", &mut world);
    assert_eq!(
        lines(&turn),
        [
            "[error] the script said more than 100 bytes in one turn",
            "[end error]"
        ]
    );
}

#[test]
fn unknown_conversations_are_refused_and_tags_listed_in_file_order() {
    let script = load(SHOP).expect("loads");
    assert_eq!(script.conversations(), ["c_shop", "c_second"]);
    assert!(script.has_conversation("c_second"));
    let mut world = World::default();
    let error = Conversation::start(&script, "n", "c_nope", "N", &mut world)
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("the script has no conversation `c_nope`")
    );
    assert_eq!(world, World::default());
}

#[test]
fn leaving_a_waiting_conversation_ends_it_without_bye() {
    let script = load(SHOP).expect("loads");
    let mut world = World::default();
    let (mut talk, _) =
        Conversation::start(&script, "hawk", "c_shop", "Hawknoz", &mut world).expect("starts");
    talk.input(&script, "ask", &mut world);
    assert_eq!(
        talk.leave(),
        [Event::End {
            reason: EndReason::Left
        }]
    );
    assert_eq!(talk.prompt(&script), Prompt::Ended(EndReason::Left));
}

#[test]
fn every_event_renders_its_transcript_line() {
    let npc = || "Hawknoz".to_string();
    let table: Vec<(Event, &str)> = vec![
        (Event::Talk { npc: npc() }, "[talk Hawknoz]"),
        (
            Event::Say {
                npc: npc(),
                text: "<@1> hi".to_string(),
            },
            "Hawknoz: <@1> hi",
        ),
        (Event::AskYesNo, "[yes/no]"),
        (Event::AskAmount, "[amount]"),
        (
            Event::Menu {
                choices: vec![
                    MenuChoice {
                        label: "A".to_string(),
                        cost: None,
                    },
                    MenuChoice {
                        label: "B".to_string(),
                        cost: Some(30),
                    },
                ],
            },
            "[menu] A | B (30 gold)",
        ),
        (
            Event::Trade {
                items: vec![TradeItem {
                    tag: "t_iron_helm".to_string(),
                    name: "iron helm".to_string(),
                    price: 80,
                    sell_price: 20,
                }],
            },
            "[trade] iron helm 80",
        ),
        (Event::NoReply, "* No reply."),
        (Event::TurnAway { npc: npc() }, "* Hawknoz turns away."),
        (Event::Attack { npc: npc() }, "* Hawknoz attacks!"),
        (Event::Joined { npc: npc() }, "* Hawknoz joins your party."),
        (
            Event::AlreadyMember { npc: npc() },
            "* Hawknoz is already in your party.",
        ),
        (Event::PartyFull, "* No room in party!"),
        (
            Event::Received {
                item: "key".to_string(),
                count: 2,
            },
            "* You receive 2 key.",
        ),
        (Event::AnswerYesOrNo, "* Please answer yes or no."),
        (Event::ChooseAnOption, "* Please choose an option."),
        (
            Event::CannotAfford {
                what: "Heal".to_string(),
            },
            "* You cannot afford Heal.",
        ),
        (
            Event::Bought {
                item: "arrow".to_string(),
                quantity: 3,
                gold: 9,
            },
            "* You buy 3 arrow for 9 gold.",
        ),
        (
            Event::Sold {
                item: "arrow".to_string(),
                quantity: 3,
                gold: 0,
            },
            "* You sell 3 arrow for 0 gold.",
        ),
        (
            Event::DoesNotSell {
                npc: npc(),
                what: "swords".to_string(),
            },
            "* Hawknoz does not sell swords.",
        ),
        (
            Event::WillNotBuy {
                npc: npc(),
                item: "gem".to_string(),
            },
            "* Hawknoz will not buy gem.",
        ),
        (
            Event::HaveNone {
                item: "gem".to_string(),
            },
            "* You have no gem.",
        ),
        (Event::NothingBought, "* Nothing bought."),
        (Event::NothingSold, "* Nothing sold."),
        (Event::NotATradeCommand, "* Say buy, sell or done."),
        (
            Event::Error {
                message: "boom".to_string(),
            },
            "[error] boom",
        ),
        (
            Event::End {
                reason: EndReason::TurnAway,
            },
            "[end turn_away]",
        ),
    ];
    for (event, line) in table {
        assert_eq!(event.to_line(), line);
        assert_eq!(event.to_string(), line);
    }
    let reasons: Vec<&str> = [
        EndReason::Bye,
        EndReason::TurnAway,
        EndReason::Attack,
        EndReason::Join,
        EndReason::Exit,
        EndReason::Left,
        EndReason::Error,
    ]
    .iter()
    .map(|r| r.as_str())
    .collect();
    assert_eq!(
        reasons,
        [
            "bye",
            "turn_away",
            "attack",
            "join",
            "exit",
            "left",
            "error"
        ]
    );
}

#[test]
fn the_engine_never_changes_activity() {
    let script =
        load("CONV c { NATIVE { GO r } }\nRESP r { CHECK_PARM ACTIVITY = 7 { SAY \"busy\" } { } }")
            .expect("loads");
    let mut world = World {
        activity: 7,
        ..World::default()
    };
    let (mut talk, _) = Conversation::start(&script, "n", "c", "N", &mut world).expect("starts");
    let turn = talk.input(&script, "go", &mut world);
    assert_eq!(lines(&turn), ["N: busy"]);
    assert_eq!(world.activity, 7);
}

#[test]
fn world_summary_and_display_names() {
    let mut world = World::default();
    world.set_item_count("t_b", 2);
    world.set_item_count("t_a", 1);
    world.set_item_count("t_gone", 0);
    world.party = vec!["zed".to_string(), "amy".to_string()];
    world.flags.set("c_z", 3, true);
    world.flags.set("c_a", 1, true);
    world.flags.set("c_a", 0, true);
    world.flags.set("c_x", 4, true);
    world.flags.set("c_x", 4, false);
    world.flags.set("any", 129, true);
    world.set_param(10, 2);
    world.set_param(2, -1);
    world.set_param(3, 0);
    assert_eq!(
        world.state_summary(),
        "gold=0 food=0 items=t_a:1,t_b:2 party=amy,zed flags=c_a:0,1;c_z:3;global:129 parms=2:-1,10:2"
    );
    assert_eq!(
        npc_core::item_display_name("t_light_potion"),
        "light potion"
    );
    assert_eq!(npc_core::item_display_name("sword"), "sword");
    assert_eq!(npc_core::item_display_name("t_t_x"), "t x");
}

#[test]
fn keyword_for_names_the_keyword_a_line_finds() {
    let script = load(
        r#"
        CONV c_main { IMPORT { c_town } NATIVE { HAIL r JOB r "ÉPÉE" r } }
        CONV c_town { NATIVE { WEATHER r DEFAULT r } }
        RESP r { SAY "." }
        "#,
    )
    .expect("loads");
    let cases = [
        ("job", Some("JOB")),
        ("  Job, please", Some("JOB")),
        ("jobs", None),
        ("weathervane", Some("WEATHER")),
        ("épée!", Some("ÉPÉE")),
        ("hail", Some("HAIL")),
        ("nonsense", None),
        ("???", None),
        ("", None),
    ];
    for (line, expected) in cases {
        assert_eq!(script.keyword_for("c_main", line), expected, "{line:?}");
    }
    assert_eq!(script.keyword_for("c_town", "job"), None);
    assert_eq!(script.keyword_for("c_none", "job"), None);
}
