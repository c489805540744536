//! `/init` (replies, refusals, the tracker, the end
//! question, the event lines) through the core, within Discord's limits for the
//! longest names; the encounters page of `/help`.

use tavern::core::{Message, OptionValue, Reply, Request, RequestKind};

use crate::encounter::{button, init, press, said, table, tracker};
use crate::harness::{ALICE, BOB, GUILD, Harness, Sent, text};

/// A request by `user` whose Discord speaks `locale`, in a server whose Discord
/// speaks `server`.
fn request_in(
    table: &Harness,
    user: i64,
    locale: &str,
    server: &str,
    kind: RequestKind,
) -> Request {
    let mut request = table.request(user, Some(GUILD), kind);
    request.locale = Some(locale.to_owned());
    request.guild_locale = Some(server.to_owned());
    request
}

/// In a German server, as a German user.
async fn de(table: &mut Harness, user: i64, kind: RequestKind) -> Sent {
    let request = request_in(table, user, "de", "de", kind);
    // A minute apart, so that no rate limit answers instead.
    table.clock.advance_ms(60_000);
    table.send(&request).await
}

/// The private answer's text.
fn private(sent: &Sent) -> &Message {
    let answer = sent
        .replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Interaction(message) | Reply::Update(message) if message.ephemeral => {
                Some(message)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no private answer in {:#?}", sent.replies));
    assert!(answer.ephemeral);
    answer
}

fn content(sent: &Sent) -> String {
    said(sent)
}

fn tracker_text(sent: &Sent) -> String {
    tracker(sent)
        .map(|message| message.content.clone())
        .unwrap_or_default()
}

fn button_labels(sent: &Sent) -> Vec<String> {
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
        .filter_map(|component| match component {
            tavern::core::Component::Button(button) => Some(button.label.clone()),
            _ => None,
        })
        .collect()
}

/// A German table fights: every public answer, the tracker and its buttons, the GM's
/// list and the end in German.
#[tokio::test]
async fn a_german_table_fights_in_german() {
    let mut table = table().await;
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
    // (who, what, in the public answer, in the tracker)
    let steps: Vec<(i64, RequestKind, &[&str], &[&str])> = vec![
        (
            ALICE,
            init("begin", &[]),
            &["**Alice** beginnt eine Begegnung. Spieler: `/initiative beitreten`."],
            &[
                "**Initiative** · noch nicht begonnen: **Weiter** startet Runde 1 · SL Alice",
                "Noch niemand da",
            ],
        ),
        (
            BOB,
            init("join", &[("init", text("20"))]),
            &["**Bram** tritt als `Bram` bei: Initiative 20, TP 12/12."],
            &["  20 Bram 12/12 RK 5"],
        ),
        (
            ALICE,
            add,
            &["Hinzugefügt: `Orc` mit Initiative 10 (verdeckt)."],
            &["  10 Orc  munter"],
        ),
        (
            ALICE,
            init("next", &[]),
            &["[Runde 1] Bram"],
            &[
                "**Initiative** · Runde 1 · SL Alice",
                "▶ 20 Bram 12/12 RK 5",
            ],
        ),
        (
            BOB,
            init(
                "effect",
                &[("targets", text("Orc")), ("effect", text("Poison"))],
            ),
            &["Bob wendet **Poison** an.", "* Poison auf Orc: munter"],
            &["  10 Orc  munter  Poison 2"],
        ),
        (
            BOB,
            init("hp", &[("target", text("Bram")), ("amount", text("-2d4"))]),
            &["Bob würfelt -2d4 (", "* Bram: 12 → "],
            &["▶ 20 Bram "],
        ),
        (
            BOB,
            init("next", &[]),
            &["[Runde 1] Orc", "* Poison auf Orc: munter"],
            &["▶ 10 Orc  munter  Poison 1"],
        ),
        (ALICE, init("next", &[]), &["[Runde 2] Bram"], &["Runde 2"]),
        (
            ALICE,
            init("next", &[]),
            &[
                "[Runde 2] Orc",
                "* Poison auf Orc: angeschlagen",
                "* Poison endet bei Orc.",
            ],
            &["▶ 10 Orc  angeschlagen\n"],
        ),
        (
            ALICE,
            init("prev", &[]),
            &["[Runde 2] Bram"],
            &["▶ 20 Bram "],
        ),
    ];
    for (user, kind, answer, shown) in steps {
        let sent = de(&mut table, user, kind).await;
        let answer_text = content(&sent);
        for part in answer {
            assert!(answer_text.contains(part), "{part} in {answer_text}");
        }
        let tracker = tracker_text(&sent);
        for line in shown {
            assert!(tracker.contains(line), "{line} in {tracker}");
        }
        if !shown.is_empty() {
            assert_eq!(
                button_labels(&sent),
                ["Weiter", "Zurück", "Beenden"],
                "{tracker}"
            );
        }
        assert!(!answer_text.contains(" on "), "English in {answer_text}");
    }
    let list = de(&mut table, ALICE, init("list", &[])).await;
    let list = &list.interaction().content;
    assert!(
        list.starts_with("**Initiative (Sicht der Spielleitung)** · Runde 2"),
        "{list}"
    );
    assert!(list.contains("Orc  4/10 RK 13 (verdeckt)"), "{list}");
    // The end: the question and its buttons privately, the summary publicly.
    let question = de(&mut table, ALICE, init("end", &[])).await;
    assert!(
        private(&question)
            .content
            .starts_with("Die Begegnung beenden? Die Trefferpunkte jedes Charakters"),
        "{}",
        private(&question).content
    );
    assert_eq!(
        button_labels(&question),
        ["Begegnung beenden", "Weitermachen"]
    );
    let cancel = button(&question, "Weitermachen");
    let kept = de(&mut table, ALICE, press(&cancel)).await;
    assert_eq!(private(&kept).content, "Die Begegnung geht weiter.");
    let question = de(&mut table, ALICE, init("end", &[])).await;
    let confirm = button(&question, "Begegnung beenden");
    let ended = de(&mut table, ALICE, press(&confirm)).await;
    assert_eq!(private(&ended).content, "Die Begegnung ist beendet.");
    let channel: Vec<&str> = ended
        .channel_messages()
        .into_iter()
        .map(|message| message.content.as_str())
        .collect();
    assert!(
        channel
            .iter()
            .any(|text| text.starts_with("**Die Begegnung ist vorbei** nach 2 Runden. In die Charaktere zurückgeschrieben: Bram TP ")),
        "{channel:?}"
    );
    let last = ended
        .replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Edit { message, .. } => Some(message.content.as_str()),
            _ => None,
        })
        .expect("the tracker's last state");
    assert!(last.ends_with("\n*Beendet.*"), "{last}");
    // Once it is over, a press says so in German.
    let late = de(&mut table, ALICE, press(&confirm)).await;
    assert_eq!(private(&late).content, "Diese Begegnung ist beendet.");
}

/// Refusals and errors are private, in the asker's language.
#[tokio::test]
async fn refusals_in_german() {
    let mut table = table().await;
    let none = de(&mut table, BOB, init("next", &[])).await;
    assert_eq!(
        private(&none).content,
        "In diesem Kanal läuft keine Begegnung. `/initiative beginnen` startet eine."
    );
    de(&mut table, ALICE, init("begin", &[])).await;
    de(&mut table, BOB, init("join", &[("init", text("20"))])).await;
    let cases: Vec<(i64, RequestKind, &str)> = vec![
        (
            ALICE,
            init("begin", &[]),
            "In diesem Kanal läuft schon eine Begegnung; ihre Spielleitung beendet sie mit `/initiative beenden`.",
        ),
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
            "Nur die Spielleitung (Alice) oder Server-Admins können Monster hinzufügen.",
        ),
        (
            BOB,
            init("prev", &[]),
            "Nur die Spielleitung (Alice) oder Server-Admins können einen Zug zurückgehen.",
        ),
        (
            BOB,
            init("end", &[]),
            "Nur die Spielleitung (Alice) oder Server-Admins können die Begegnung beenden.",
        ),
        (
            BOB,
            init("next", &[]),
            "Du kannst nicht den Zug von jemand anderem beenden",
        ),
        (
            BOB,
            init("hp", &[("target", text("Bram")), ("amount", text("7"))]),
            "Schreib den Betrag als `-7` (Schaden), `+2d4` (Heilung) oder `=12` (setzen).",
        ),
        (
            BOB,
            init("hp", &[("target", text("Bram")), ("amount", text("-2d"))]),
            "Der Betrag `2d` lässt sich nicht würfeln: ",
        ),
        (
            ALICE,
            init("hp", &[("target", text("Nobody")), ("amount", text("-1"))]),
            "Es ist nichts passiert: niemand in dieser Begegnung heißt Nobody.",
        ),
        (
            ALICE,
            init("prev", &[]),
            "Es ist nichts passiert: es gibt keinen früheren Zug.",
        ),
        (
            ALICE,
            init(
                "effect",
                &[("targets", text("Bram")), ("effect", text("Nope"))],
            ),
            "Die Effektdatei dieses Servers hat keinen Effekt `Nope` (`/effekt liste` zeigt sie).",
        ),
        (
            ALICE,
            init(
                "cure",
                &[("target", text("Bram")), ("effect", text("Poison"))],
            ),
            "Es ist nichts passiert: auf Bram liegt kein Poison.",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("***")),
                    ("init", text("1")),
                    ("hp", text("3")),
                ],
            ),
            "Der Name eines Monsters braucht Buchstaben oder Ziffern",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("1d")),
                    ("hp", text("3")),
                ],
            ),
            "Die Initiative `1d` lässt sich nicht würfeln: ",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Bram")),
                    ("init", text("1")),
                    ("hp", text("3")),
                ],
            ),
            "Es wurde niemand hinzugefügt: es gibt schon einen Beteiligten namens Bram",
        ),
        (
            BOB,
            init("join", &[]),
            "**Bram** ist schon in dieser Begegnung.",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("1")),
                    ("hp", text("0")),
                ],
            ),
            "Ein Monster beginnt mit 1 Trefferpunkt oder mehr, nicht mit 0. Nichts wurde hinzugefügt",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("1")),
                    ("hp", text("3")),
                    ("count", OptionValue::Integer(-3)),
                ],
            ),
            "`anzahl` fügt 1 bis 20 Monster hinzu, nicht -3. Nichts wurde hinzugefügt.",
        ),
        (
            ALICE,
            init(
                "add",
                &[
                    ("name", text("Wolf")),
                    ("init", text("1")),
                    ("hp", text("3")),
                    ("ac", OptionValue::Integer(-101)),
                ],
            ),
            "`rk` ist eine Rüstungsklasse von -100 bis 100, nicht -101. Nichts wurde hinzugefügt.",
        ),
    ];
    for (user, kind, refusal) in cases {
        let sent = de(&mut table, user, kind).await;
        let answer = private(&sent);
        assert!(
            answer.content.contains(refusal),
            "{refusal} in {}",
            answer.content
        );
        assert!(tracker(&sent).is_none(), "nothing changed for {refusal}");
    }
}

/// A German player in an English server reads refusals in German, while the table's
/// events and tracker stay English; and the reverse.
#[tokio::test]
async fn private_in_the_users_language_public_in_the_servers() {
    let mut table = table().await;
    let english_server = |table: &Harness, user, kind| request_in(table, user, "de", "en-US", kind);
    let begin = english_server(&table, ALICE, init("begin", &[]));
    let begun = table.send(&begin).await;
    assert!(
        content(&begun).contains("begins an encounter"),
        "{}",
        content(&begun)
    );
    let join = english_server(&table, BOB, init("join", &[("init", text("20"))]));
    table.send(&join).await;
    let next = english_server(&table, BOB, init("next", &[]));
    let refused = table.send(&next).await;
    assert!(
        private(&refused)
            .content
            .starts_with("Du kannst nicht den Zug von jemand anderem beenden"),
        "{}",
        private(&refused).content
    );
    let next = english_server(&table, ALICE, init("next", &[]));
    let moved = table.send(&next).await;
    assert!(
        content(&moved).contains("[round 1] Bram"),
        "{}",
        content(&moved)
    );
    assert_eq!(button_labels(&moved), ["Next", "Previous", "End"]);
    // An English GM in a German server: the tracker German, her list English.
    let list = request_in(&table, ALICE, "en-US", "de", init("list", &[]));
    let list = table.send(&list).await;
    assert!(
        list.interaction()
            .content
            .starts_with("**Initiative (GM view)** · round 1"),
        "{}",
        list.interaction().content
    );
    let next = request_in(&table, ALICE, "en-US", "de", init("next", &[]));
    let moved = table.send(&next).await;
    assert!(
        content(&moved).contains("[Runde 2] Bram"),
        "{}",
        content(&moved)
    );
    assert!(tracker_text(&moved).contains("Runde 2 · SL Alice"));
}

/// The longest names (a 32-character GM, twenty monsters with the longest names a
/// count allows, the longest dice for their hit points) keep every German answer and
/// the tracker within Discord's limits: the harness checks each reply.
#[tokio::test]
async fn the_longest_german_encounter_fits() {
    let mut table = table().await;
    let gm = "G".repeat(32);
    let mut begin = request_in(&table, ALICE, "de", "de", init("begin", &[]));
    begin.user.name = gm.clone();
    table.send(&begin).await;
    let name = "M".repeat(29);
    for _ in 0..2 {
        let add = init(
            "add",
            &[
                ("name", text(&name)),
                ("init", text("1d20+1d20+1d20+1d20+1d20+1d20+1d20+1d20")),
                (
                    "hp",
                    text("1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4+1d4"),
                ),
                ("count", OptionValue::Integer(20)),
            ],
        );
        let mut add = request_in(&table, ALICE, "de", "de", add);
        add.user.name = gm.clone();
        let sent = table.send(&add).await;
        for reply in &sent.replies {
            if let Reply::Interaction(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. } = reply
            {
                assert!(message.content.chars().count() <= 2000);
            }
        }
    }
    let mut list = request_in(&table, ALICE, "de", "de", init("list", &[]));
    list.user.name = gm;
    let sent = table.send(&list).await;
    let list = &sent.interaction().content;
    assert!(list.chars().count() <= 2000, "{}", list.chars().count());
    assert!(list.contains(&format!("SL {}", "G".repeat(32))), "{list}");
}

/// `/help init`: the encounters page in the user's language, its button on a
/// second row (Discord allows five to a row).
#[tokio::test]
async fn the_encounters_page_of_help() {
    let mut table = Harness::new().await;
    let cases = [
        (
            "de",
            "**Begegnungen** verfolgen Initiative, Trefferpunkte und Effekte",
            &[
                "`/initiative beginnen`",
                "`/effekt installieren`",
                "**Weiter**",
            ][..],
            "Begegnungen",
        ),
        (
            "en-US",
            "**Encounters** track initiative, hit points and effects",
            &["`/init begin`", "`/effect install`", "**Next**"][..],
            "Encounters",
        ),
    ];
    for (locale, start, pieces, label) in cases {
        let help = crate::harness::command("help", &[], &[("topic", text("init"))]);
        let request = request_in(&table, BOB, locale, "en-US", help);
        let sent = table.send(&request).await;
        let page = sent.interaction();
        assert!(page.ephemeral);
        assert!(page.content.starts_with(start), "{}", page.content);
        for piece in pieces {
            assert!(page.content.contains(piece), "{piece} in {}", page.content);
        }
        assert!(page.content.chars().count() <= 2_000);
        assert_eq!(page.components.len(), 2);
        assert_eq!(page.components[0].0.len(), 5);
        assert!(matches!(
            &page.components[1].0[..],
            [tavern::core::Component::Button(button)] if button.label == label && button.disabled
        ));
    }
}

/// The console's own words in its language: a German console marks private answers
/// `(nur für dich)` and names its buttons and mistakes in German; an English one
/// keeps `(only you)`.
#[test]
fn the_console_speaks_its_language() {
    use crate::cli::{stdout, tavern};
    let dir = crate::support::TempDir::new("console-b4");
    let db = dir.path("tavern.db");
    let db = db.to_str().expect("a UTF-8 path");
    let typed = "/help init\n/press Nope\n/roll 1d4 repeat:viele\n/tanzen\n/help\n";
    let cases = [
        (
            "de",
            [
                "(nur für dich) **Begegnungen** verfolgen",
                "[buttons: Würfel | Makros & @Werte | Charaktere | NSCs | Chancen] (/press LABEL)",
                "Keinen Button namens „Nope“; es gibt: Würfel,",
                "anzahl muss eine ganze Zahl sein, nicht \"viele\".",
                "Unbekannter Befehl /tanzen. Versuch es mit /hilfe.",
                "Befehle:\n  /würfeln ausdruck:… [zweck:…] [privat:…] [anzahl:…] [an:…]  Würfeln: ",
                "\n  /press LABEL  drückt einen Button, angezeigt als [buttons: …]\n",
            ],
        ),
        (
            "en",
            [
                "(only you) **Encounters** track",
                "[buttons: Dice | Macros & @fields | Characters | NPCs | Odds] (/press LABEL)",
                "No button called \"Nope\"; there are: Dice,",
                "repeat must be a whole number, not \"viele\".",
                "Unknown command /tanzen. Try /help.",
                "Commands:\n  /roll expr:… [label:…] [private:…] [repeat:…] [to:…]  Roll dice: ",
                "\n  /press LABEL  press a button shown as [buttons: …]\n",
            ],
        ),
    ];
    for (lang, expected) in cases {
        let output = tavern(&["console", "--db", db, "--lang", lang], typed);
        let shown = stdout(&output);
        for piece in expected {
            assert!(shown.contains(piece), "{lang}: {piece} in {shown}");
        }
    }
}

/// The German console takes the names its answers tell a German user to type
/// (`/generator starten`, `zweck:`, a choice's German name), and the English ones.
#[test]
fn the_german_console_takes_the_german_names() {
    use crate::cli::{stdout, tavern};
    let dir = crate::support::TempDir::new("console-german-names");
    let db = dir.path("tavern.db");
    let db = db.to_str().expect("a UTF-8 path");
    // (typed, a piece of the answer)
    let cases = [
        (
            "/würfeln 1d1+1 zweck:Probe",
            "**Probe**: 1d1 (**1**) + 1 = **2**",
        ),
        (
            "/roll 1d1+2 label:Test",
            "**Test**: 1d1 (**1**) + 2 = **3**",
        ),
        (
            "/Würfeln 1d1 privat:ja",
            "(nur für dich) 1d1 (**1**) = **1**",
        ),
        (
            "/würfeln 1d1 anzahl:zwei",
            "anzahl muss eine ganze Zahl sein",
        ),
        ("/hilfe thema:chancen", "**Chancen**"),
        ("/hilfe", "Befehle:\n  /würfeln ausdruck:…"),
        (
            "/initiative beginnen",
            "beginnt eine Begegnung. Spieler: `/initiative beitreten`",
        ),
        (
            "/initiative tanzen",
            "/initiative kennt: beginnen, beitreten,",
        ),
        (
            "/generator programm zeigen",
            "name fehlt: gib es als name:… oder als ersten Wert an.",
        ),
        (
            "/generator programm",
            "/generator programm kennt: hinzufügen, liste,",
        ),
        (
            "/einstellungen sprache sprache:automatisch",
            "derzeit also auf Deutsch",
        ),
        ("/einstellungen sprache englisch", "hier auf Englisch"),
    ];
    let typed: String = cases.iter().map(|(line, _)| format!("{line}\n")).collect();
    let output = tavern(&["console", "--db", db, "--lang", "de"], &typed);
    let shown = stdout(&output);
    for (line, piece) in cases {
        assert!(shown.contains(piece), "{line}: {piece} in {shown}");
    }
}

/// Through the fake Discord: a German user whose prompt the channel refuses reads
/// the notice in German, with Discord's German name of the permission.
#[tokio::test(flavor = "multi_thread")]
async fn a_refused_prompt_is_reported_in_the_users_language() {
    use crate::e2e::support::{CHANNEL, Tavern, alice};
    use fake_discord::{Opt, permissions};
    let tavern = Tavern::start().await;
    let posting =
        permissions::VIEW_CHANNEL | permissions::READ_MESSAGE_HISTORY | permissions::ATTACH_FILES;
    tavern.fake.set_bot_permissions(CHANNEL, posting);
    let german = alice().with_locale("de");
    let start = tavern.slash(&german, "chargen", vec![Opt::subcommand("start", vec![])]);
    let notice = tavern
        .fake
        .wait_message(|m| m.interaction_id == Some(start) && m.content.contains("Berechtigung"))
        .await
        .expect("a private notice naming the permission");
    assert!(notice.is_ephemeral(), "{}", notice.content);
    assert_eq!(
        notice.content,
        "Ich kann in diesem Kanal nichts posten: mir fehlt hier die Berechtigung \
         **Nachrichten senden**. Bitte Server-Admins, sie mir in diesem Kanal zu geben. \
         Die Sitzung ist beendet; starte sie dann neu."
    );
    tavern.settled().await;
    tavern.fake.take_violations();
    tavern.stop().await;
}
