//! `/roll` through serenity: answered at once, errors in private, the "roll again"
//! button, autocomplete, the per-user limit, DMs.

use fake_discord::{Invoker, Opt, Origin};

use crate::e2e::support::{Tavern, alice, bob, content, is_ephemeral, no_mentions};

#[tokio::test(flavor = "multi_thread")]
async fn a_roll_is_answered_at_once_with_a_roll_again_button() {
    let tavern = Tavern::start().await;
    let roll = tavern.slash(
        &alice(),
        "roll",
        vec![Opt::string("expr", "4d6+2"), Opt::string("label", "stats")],
    );
    let callback = tavern.callback(roll).await;
    assert_eq!(callback.kind, 4, "a roll is not deferred");
    assert!(!is_ephemeral(&callback));
    let text = content(&callback);
    assert!(text.starts_with("**stats**: 4d6 ("), "{text}");
    assert!(text.contains(") + 2 = **"), "{text}");
    assert_eq!(callback.data["allowed_mentions"], no_mentions());

    let answer = tavern.answer(roll).await;
    assert_eq!(answer.origin, Origin::InteractionResponse);
    let again = answer.custom_ids();
    assert_eq!(again.len(), 1);
    assert!(again[0].starts_with("tv1:r:"), "{again:?}");

    // Bob presses Alice's button: a new roll, in his name.
    let press = tavern.press(&bob(), &answer, &again[0]);
    let rerolled = tavern.callback(press).await;
    assert_eq!(rerolled.kind, 4);
    assert!(
        content(&rerolled).starts_with("Bob rolls again, **stats**: 4d6 ("),
        "{}",
        content(&rerolled)
    );
    let second = tavern.answer(press).await;
    assert_eq!(
        second.custom_ids(),
        again,
        "the new roll can be rolled again too"
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_expression_is_answered_privately_with_a_caret() {
    let tavern = Tavern::start().await;
    let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "2d6+x")]);
    let callback = tavern.callback(roll).await;
    assert_eq!(callback.kind, 4);
    assert!(is_ephemeral(&callback));
    assert_eq!(
        content(&callback),
        "I can't roll that:\n```\n2d6+x\n    ^ unexpected `x`; expected a value (a number, dice, `(`, `{` or a function)\n```"
    );
    assert!(
        callback.data["components"]
            .as_array()
            .is_none_or(Vec::is_empty)
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn private_and_repeated_rolls() {
    let tavern = Tavern::start().await;
    let roll = tavern.slash(
        &alice(),
        "roll",
        vec![
            Opt::string("expr", "1d20"),
            Opt::boolean("private", true),
            Opt::integer("repeat", 3),
        ],
    );
    let callback = tavern.callback(roll).await;
    assert!(is_ephemeral(&callback));
    let text = content(&callback);
    assert!(text.starts_with("×3\n1. 1d20 ("), "{text}");
    assert_eq!(text.lines().count(), 4, "{text}");
    let answer = tavern.answer(roll).await;
    let press = tavern.press(&alice(), &answer, &answer.custom_ids()[0]);
    assert!(is_ephemeral(&tavern.callback(press).await));
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn autocomplete_suggests_programs_and_characters() {
    let tavern = Tavern::start().await;
    let typing = tavern.fake.interaction_autocomplete(
        &alice(),
        "chargen",
        vec![Opt::subcommand(
            "start",
            vec![Opt::string("program", "c").focused()],
        )],
    );
    let id = tavern.fake.dispatch_interaction(typing);
    let callback = tavern.callback(id).await;
    assert_eq!(callback.kind, 8);
    let choices: Vec<&str> = callback.data["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|choice| choice["value"].as_str().unwrap())
        .collect();
    assert_eq!(choices, ["chargen", "crash"]);

    // Nothing to suggest is an empty list, still an autocomplete answer.
    let typing = tavern.fake.interaction_autocomplete(
        &alice(),
        "character",
        vec![Opt::subcommand(
            "show",
            vec![Opt::string("name", "Zz").focused()],
        )],
    );
    let callback = tavern
        .callback(tavern.fake.dispatch_interaction(typing))
        .await;
    assert_eq!(callback.kind, 8);
    assert_eq!(callback.data["choices"], serde_json::json!([]));
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn too_many_rolls_at_once_get_a_private_answer() {
    let tavern = Tavern::start().await;
    // The default limit: ten at once.
    let mut last = None;
    for _ in 0..11 {
        let roll = tavern.slash(&alice(), "roll", vec![Opt::string("expr", "1d6")]);
        last = Some(tavern.callback(roll).await);
    }
    let limited = last.unwrap();
    assert!(is_ephemeral(&limited));
    assert!(
        content(&limited).starts_with("Easy there, adventurer!"),
        "{}",
        content(&limited)
    );
    // Someone else is not affected.
    let roll = tavern.slash(&bob(), "roll", vec![Opt::string("expr", "1d6")]);
    assert!(!is_ephemeral(&tavern.callback(roll).await));
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn rolls_work_in_direct_messages() {
    let tavern = Tavern::start().await;
    let dm = Invoker::dm(44, 9_100).with_name("Dora");
    let roll = tavern.slash(&dm, "roll", vec![Opt::string("expr", "3d8")]);
    let callback = tavern.callback(roll).await;
    assert_eq!(callback.kind, 4);
    assert!(content(&callback).starts_with("3d8 ("));
    let answer = tavern.answer(roll).await;
    assert_eq!(answer.channel_id, 9_100);
    let press = tavern.press(&dm, &answer, &answer.custom_ids()[0]);
    assert!(content(&tavern.callback(press).await).starts_with("Dora rolls again"));
    tavern.stop().await;
}
