//! Record maps through serenity (issue 13): a listing in the 1983 style (a loop, a
//! closing `CLEAR`, no `RECORD`) installed from the CDN with its map, one run that
//! makes three characters, `@STR` in a roll, a map changed afterwards relabelling
//! them, and a bad map refused with the reason.

use fake_discord::{Invoker, Opt, SentMessage};

use crate::e2e::support::{
    ALICE, GUILD, Setup, Tavern, admin, answer_button, ask, ask_sub, assert_has, assert_starts,
};
use crate::record_maps::{ANSWERS, LISTING, MAP};

/// `/chargen program ACTION options…` as the admin.
async fn program(tavern: &Tavern, action: &str, options: Vec<Opt>) -> SentMessage {
    ask(
        tavern,
        &admin(),
        "chargen",
        vec![Opt::group(
            "program",
            vec![Opt::subcommand(action, options)],
        )],
    )
    .await
}

/// Starts `dmps` and answers its prompts with `answers`, each through the "Answer"
/// button's modal, then waits for the summary.
async fn run(tavern: &Tavern, who: &Invoker, answers: &[&str]) -> SentMessage {
    let since = tavern.newest_message_id();
    let started = ask_sub(
        tavern,
        who,
        "chargen",
        "start",
        vec![Opt::string("program", "dmps")],
    )
    .await;
    assert_starts(&started, "Started `dmps`");
    let mut seen = Vec::new();
    for answer in answers {
        let prompt = tavern
            .fake
            .wait_message(|message| answer_button(message).is_some() && !seen.contains(&message.id))
            .await
            .expect("a prompt");
        tavern.settled().await;
        tavern.answer_with_modal(who, &prompt, answer).await;
        seen.push(prompt.id);
    }
    tavern
        .fake
        .wait_message(|message| message.id > since && message.content.contains("has ended."))
        .await
        .expect("the summary")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_listing_without_record_makes_three_characters_through_its_map() {
    let tavern = Tavern::start_with(Setup::busy()).await;
    let file = tavern.fake.add_attachment("dmps.bas", LISTING);
    let refused = program(
        &tavern,
        "add",
        vec![
            Opt::string("name", "dmps"),
            Opt::attachment("file", &file),
            Opt::string("map", "at 4180 STR=ST HP=HP"),
        ],
    )
    .await;
    assert_has(
        &refused,
        "`dmps` was not installed: its map does not fit: `HP=HP`: the program never assigns `HP`",
    );
    let installed = program(
        &tavern,
        "add",
        vec![
            Opt::string("name", "dmps"),
            Opt::attachment("file", &file),
            Opt::string("map", "at 4180 NAME=NA$ STR=PT"),
        ],
    )
    .await;
    assert_starts(&installed, "Installed `dmps`");

    let summary = run(&tavern, &admin(), &ANSWERS).await;
    // Each was shown when taken; the end says what the run stored.
    assert_has(
        &summary,
        "`dmps` has ended. 3 characters were stored: **Ann**, **Bo**, **Cy**.",
    );
    let names: Vec<String> = tavern
        .storage
        .characters_of(ALICE as i64, GUILD as i64)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.name)
        .collect();
    assert_eq!(names, ["Ann", "Bo", "Cy"]);

    // The first map took the hit points for STR; the right one relabels Bo.
    let wrong = ask_sub(
        &tavern,
        &admin(),
        "character",
        "show",
        vec![Opt::string("name", "Bo")],
    )
    .await;
    assert_has(&wrong, "STR  6 (-1)");
    let fixed = program(
        &tavern,
        "map",
        vec![Opt::string("name", "dmps"), Opt::string("map", MAP)],
    )
    .await;
    assert_has(&fixed, "maps its characters with");
    let sheet = ask_sub(
        &tavern,
        &admin(),
        "character",
        "show",
        vec![Opt::string("name", "Bo")],
    )
    .await;
    assert_starts(&sheet, "**Bo**, made with `dmps`");
    assert_has(&sheet, "RACE   Dwarf\nLEVEL  1\nHP     6\nSTR    12 (0)\n");
    assert_has(&sheet, "Gold 20 · Food 0");
    assert_eq!(sheet.attachments.len(), 1, "the transcript");

    ask_sub(
        &tavern,
        &admin(),
        "character",
        "use",
        vec![Opt::string("name", "Bo")],
    )
    .await;
    let rolled = ask(
        &tavern,
        &admin(),
        "roll",
        vec![Opt::string("expr", "1d1 + @STR + @GOLD")],
    )
    .await;
    assert_has(&rolled, "= **33**");

    let list = program(&tavern, "list", vec![]).await;
    assert_has(&list, &format!("map: `{MAP}`"));
    tavern.stop().await;
}
