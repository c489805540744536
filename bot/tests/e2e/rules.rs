//! Discord's rules and Tavern's promises: the 3-second acknowledgement, modals as
//! first responses, no pings, friendly internal errors, expiry notices.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use fake_discord::{Opt, Origin, Ping, permissions};
use tavern::engine::Engines;
use tavern::engine::basic::{BasicEngine, limits_from_config};
use tavern::engine::{GenFailure, GenSession, Generators, ProgramCheck, ProgramText};
use tavern::storage::NewProgram;

use crate::e2e::support::{
    ALICE, CHANNEL, GUILD, How, PINGING_PROGRAM, Setup, Tavern, alice, answer_button,
};

/// A door the test holds shut while a generator "computes": each `let_one_through`
/// lets one waiting (or the next) engine call pass.
#[derive(Default)]
struct Gate {
    permits: Mutex<u32>,
    changed: Condvar,
}

impl Gate {
    fn let_one_through(&self) {
        *self.permits.lock().unwrap() += 1;
        self.changed.notify_all();
    }

    fn wait(&self) {
        let mut permits = self.permits.lock().unwrap();
        while *permits == 0 {
            permits = self.changed.wait(permits).unwrap();
        }
        *permits -= 1;
    }
}

/// The BASIC engine, except that a program containing `SLOW` waits at the gate to
/// start and to resume, as a long BASIC computation would.
struct SlowGenerators(Arc<Gate>, BasicEngine);

impl Generators for SlowGenerators {
    fn check(&self, source: &str) -> Result<ProgramCheck, GenFailure> {
        self.1.check(source)
    }

    fn start(&self, program: &ProgramText, seed: u64) -> Result<Box<dyn GenSession>, GenFailure> {
        if program.source.contains("SLOW") {
            // A blocking engine call, as a real one is; the runtime moves its other
            // work off this thread meanwhile.
            tokio::task::block_in_place(|| self.0.wait());
        }
        self.1.start(program, seed)
    }

    fn restore(
        &self,
        program: &ProgramText,
        snapshot: &str,
    ) -> Result<Box<dyn GenSession>, GenFailure> {
        if program.source.contains("SLOW") {
            tokio::task::block_in_place(|| self.0.wait());
        }
        self.1.restore(program, snapshot)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_slow_answer_is_deferred_within_three_seconds_and_edited_later() {
    let gate = Arc::new(Gate::default());
    let mut engines: Engines = crate::doubles::engines();
    let basic = BasicEngine::new(limits_from_config(&crate::doubles::test_config().basic));
    engines.generators = Arc::new(SlowGenerators(gate.clone(), basic));
    engines.builtin_programs.push(ProgramText::new(
        "slow",
        "10 REM SLOW\n20 PRINT \"DEEP THOUGHT\"\n30 INPUT \"NAME\"; N$\n40 RECORD \"NAME\", N$\n",
    ));
    let tavern = Tavern::start_with(Setup {
        engines,
        ..Setup::default()
    })
    .await;

    let start = tavern.slash(
        &alice(),
        "chargen",
        vec![Opt::subcommand(
            "start",
            vec![Opt::string("program", "slow")],
        )],
    );
    // The generator is still held: the adapter acknowledged on its own, in time.
    let deferred = tavern.callback(start).await;
    assert_eq!(deferred.kind, 5, "{deferred:?}");
    assert_eq!(
        deferred.data["flags"], 64,
        "/chargen start defers privately"
    );

    // Discord's clock runs past the 3 seconds; the deferred token is good for 15 min.
    tavern.fake.advance_time(Duration::from_secs(5));
    gate.let_one_through();
    let answer = tavern.answer(start).await;
    assert_eq!(answer.origin, Origin::InteractionResponse);
    assert!(answer.is_ephemeral());
    assert!(
        answer.content.starts_with("Started `slow`."),
        "{}",
        answer.content
    );
    let prompt = tavern.prompt_after(&[]).await;
    assert!(
        prompt.content.contains("DEEP THOUGHT\nNAME? "),
        "{}",
        prompt.content
    );
    let callbacks = tavern
        .fake
        .callbacks()
        .iter()
        .filter(|callback| callback.interaction_id == start)
        .count();
    assert_eq!(callbacks, 1, "one acknowledgement, then an edit");

    // The answer's modal opens at once; its slow submit is acknowledged quietly (type
    // 6), and the prompt is edited and the run finished after the deadline.
    let submitted = tavern.answer_with_modal(&alice(), &prompt, "Udo").await;
    assert_eq!(tavern.callback(submitted).await.kind, 6);
    tavern.fake.advance_time(Duration::from_secs(5));
    gate.let_one_through();
    let summary = tavern.summary(CHANNEL).await;
    assert!(
        summary.content.contains("**Udo** is ready"),
        "{}",
        summary.content
    );
    let answered = tavern.fake.message(prompt.id).unwrap();
    assert!(
        answered.content.ends_with("NAME? Udo\n```"),
        "{}",
        answered.content
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_answer_button_opens_its_modal_without_the_database() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;
    // The session disappears behind the button's back.
    let session = tavern.alices_session().await.unwrap();
    assert!(
        tavern
            .storage
            .delete_session(session.id, None)
            .await
            .unwrap()
    );

    let button = answer_button(&prompt).unwrap();
    let opened = tavern
        .callback(tavern.press(&alice(), &prompt, &button))
        .await;
    assert_eq!(opened.kind, 9, "the modal opens from the button alone");
    assert_eq!(
        opened.data["components"][0]["components"][0]["label"],
        "WHAT IS YOUR NAME?"
    );
    // The submit is where the session is checked.
    let submitted = tavern.answer_with_modal(&alice(), &prompt, "Udo").await;
    let refused = tavern.answer(submitted).await;
    assert!(refused.is_ephemeral());
    assert_eq!(refused.content, "That character generator has ended.");
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn nothing_the_bot_sends_can_ping() {
    // `Setup` runs the fake with the strictest policy: any ping is a violation.
    let tavern = Tavern::start().await;
    tavern
        .storage
        .install_program(&NewProgram {
            id: 77,
            guild_id: GUILD as i64,
            name: "pings".to_owned(),
            source: PINGING_PROGRAM.to_owned(),
            source_hash: tavern::engine::program_hash(PINGING_PROGRAM),
            installed_by: ALICE as i64,
            installed_by_name: "Alice".to_owned(),
            line_count: 4,
            syntax_errors: 0,
            now: 0,
            record_map: String::new(),
        })
        .await
        .unwrap();
    let loud = alice().with_name("@everyone");

    let roll = tavern.slash(
        &loud,
        "roll",
        vec![
            Opt::string("expr", "1d20"),
            Opt::string("label", "@everyone <@43> @here"),
        ],
    );
    let answer = tavern.answer(roll).await;
    assert!(
        answer.content.contains("@everyone <@43> @here"),
        "{}",
        answer.content
    );
    let again = tavern.press(&loud, &answer, &answer.custom_ids()[0]);
    assert!(
        tavern
            .answer(again)
            .await
            .content
            .starts_with("@everyone rolls again")
    );

    let start = tavern.slash(
        &loud,
        "chargen",
        vec![Opt::subcommand(
            "start",
            vec![Opt::string("program", "pings")],
        )],
    );
    tavern.answer(start).await;
    let prompt = tavern.prompt_after(&[]).await;
    assert!(
        prompt
            .content
            .contains("@everyone @here <@42> <@&7> are summoned")
    );
    // The answer is echoed into the prompt and printed by the program.
    tavern.reply(&loud, &prompt, "@everyone <@43>", true);
    let summary = tavern.summary(CHANNEL).await;
    assert!(
        summary.content.contains("@everyone <@43>"),
        "{}",
        summary.content
    );
    let printed = tavern
        .fake
        .wait_message(|message| message.content.contains("@everyone meet @everyone <@43>"))
        .await
        .expect("the program's output");
    assert_eq!(printed.origin, Origin::Channel);

    let messages = tavern.fake.messages();
    assert!(messages.len() >= 6);
    for message in &messages {
        assert_eq!(message.pings, Vec::<Ping>::new(), "{}", message.content);
        assert!(message.allowed_mentions.is_some(), "{}", message.content);
    }
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_internal_error_shows_an_id_and_nothing_else() {
    let tavern = Tavern::start().await;
    // The database goes away under the running bot.
    tavern.storage.close().await;
    let start = tavern.slash(&alice(), "chargen", vec![Opt::subcommand("start", vec![])]);
    let answer = tavern.answer(start).await;
    assert!(answer.is_ephemeral());
    let text = &answer.content;
    let id = text
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no error id in {text}"));
    assert_eq!(id.len(), 8);
    assert!(id.chars().all(|ch| ch.is_ascii_hexdigit()), "{text}");
    assert!(
        text.starts_with("Something went wrong on our side."),
        "{text}"
    );
    assert!(
        !text.to_lowercase().contains("pool"),
        "no internal detail: {text}"
    );
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_session_ends_with_a_notice() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;

    // A day passes without an answer (the default expiry), then the sweeper runs.
    tavern.clock.advance_ms(24 * 3_600_000 + 1);
    let sent = tavern.bot().sweep().await.expect("the sweep runs");
    assert_eq!(sent, 2, "a notice and the closed prompt");
    let notice = tavern
        .fake
        .wait_message(|message| message.content.contains("ended after 24 h"))
        .await
        .expect("an expiry notice");
    assert_eq!(notice.channel_id, CHANNEL);
    assert!(
        notice
            .content
            .starts_with("The character generator of Alice")
    );
    let closed = tavern.fake.message(prompt.id).unwrap();
    assert!(closed.content.ends_with("(expired)"));
    assert!(closed.custom_ids().is_empty());
    assert_eq!(
        tavern.bot().sweep().await.unwrap(),
        0,
        "nothing expires twice"
    );

    // A new run starts cleanly afterwards.
    tavern.chargen_run(&alice(), None, How::Modal).await;
    tavern.stop().await;
}

/// Every permission the bot needs to post prompts.
const ALL_POSTING: u64 = permissions::VIEW_CHANNEL
    | permissions::SEND_MESSAGES
    | permissions::READ_MESSAGE_HISTORY
    | permissions::ATTACH_FILES;

#[tokio::test(flavor = "multi_thread")]
async fn a_prompt_the_channel_refuses_is_reported_privately_and_ends_the_session() {
    let tavern = Tavern::start().await;
    let table = [
        (
            ALL_POSTING & !permissions::SEND_MESSAGES,
            "**Send Messages**",
        ),
        (ALL_POSTING & !permissions::VIEW_CHANNEL, "**View Channel**"),
    ];
    for (granted, named) in table {
        tavern.fake.set_bot_permissions(CHANNEL, granted);
        let start = tavern.slash(&alice(), "chargen", vec![Opt::subcommand("start", vec![])]);
        let notice = tavern
            .fake
            .wait_message(|m| m.interaction_id == Some(start) && m.content.contains("permission"))
            .await
            .expect("a private notice naming the permission");
        assert!(notice.is_ephemeral(), "{}", notice.content);
        assert!(notice.content.contains(named), "{}", notice.content);
        assert!(
            notice.content.contains("The session has ended"),
            "{}",
            notice.content
        );
        tavern.settled().await;
        assert!(
            tavern.alices_session().await.is_none(),
            "no session waits on an unseen prompt"
        );
        let refused: Vec<_> = tavern
            .fake
            .take_violations()
            .into_iter()
            .map(|v| v.rule)
            .collect();
        assert_eq!(refused, vec![fake_discord::Rule::MissingPermissions]);
    }
    // Granted again, a new start posts its prompt.
    tavern.fake.set_bot_permissions(CHANNEL, ALL_POSTING);
    let prompt = tavern.start_chargen(&alice()).await;
    assert_eq!(prompt.channel_id, CHANNEL);
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn replies_to_messages_say_they_may_be_gone_by_then() {
    let tavern = Tavern::start().await;
    let prompt = tavern.start_chargen(&alice()).await;
    // A reply Discord hides from the bot gets a hint, itself a reply.
    let reply = tavern.reply(&alice(), &prompt, "Udo", false);
    let answer = tavern.reply_to(reply).await;
    assert_eq!(
        answer
            .message_reference
            .as_ref()
            .map(|r| r["fail_if_not_exists"].clone()),
        Some(serde_json::json!(false))
    );
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}
