//! Issue 18, group B2: `/chargen`, `/chargen program` and `/character` in German
//! through the core. A German member in a German server (`locale` and `guild_locale`
//! `de`) goes through each command's representative answers, in a table per command;
//! then the longest inputs (names at their maximum lengths, a long user name, many
//! syntax errors) must still fit Discord's limits in German.

use tavern::core::fit::{
    ATTACHMENT_DESCRIPTION_CHARS, BUTTON_LABEL_CHARS, CONTENT_CHARS, INPUT_LABEL_CHARS,
    MODAL_TITLE_CHARS,
};
use tavern::core::{Permissions, Reply, Request, RequestKind};
use tavern::i18n::Lang;

use crate::harness::{ALICE, BOB, GUILD, Harness, Sent, check_rules, command, text};
use crate::macros::{member_request, settings};

/// `kind` from `user` (Alice manages the server, Bob does not), both on a German
/// Discord, in a server whose Discord language is German.
fn german(user: i64, kind: RequestKind) -> Request {
    let permissions = if user == ALICE {
        Permissions::MANAGE_GUILD
    } else {
        0
    };
    let mut request = member_request(user, permissions, &[], kind);
    request.locale = Some("de".to_owned());
    request.guild_locale = Some("de".to_owned());
    request
}

/// Every text a request produced: contents, button labels, modal titles and labels,
/// attachment names and descriptions.
fn everything(sent: &Sent) -> String {
    let mut parts = Vec::new();
    for reply in &sent.replies {
        match reply {
            Reply::Interaction(message)
            | Reply::Update(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. } => {
                parts.push(message.content.clone());
                for row in &message.components {
                    for component in &row.0 {
                        if let tavern::core::Component::Button(button) = component {
                            parts.push(format!("[{}]", button.label));
                        }
                    }
                }
                for file in &message.attachments {
                    parts.push(format!(
                        "<{}: {}>",
                        file.filename,
                        file.description.clone().unwrap_or_default()
                    ));
                }
            }
            Reply::Modal(modal) => {
                parts.push(format!("«{}»", modal.title));
                parts.extend(modal.inputs.iter().map(|input| input.label.clone()));
            }
            Reply::Choices(_) => {}
        }
    }
    parts.join("\n")
}

/// Discord's limits, checked beyond the harness's rules: attachment descriptions
/// and the exact limits of `fit`.
fn fits(sent: &Sent) {
    check_rules(&sent.replies);
    for reply in &sent.replies {
        match reply {
            Reply::Interaction(message)
            | Reply::Update(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. } => {
                assert!(message.content.chars().count() <= CONTENT_CHARS);
                for file in &message.attachments {
                    let description = file.description.as_deref().unwrap_or("");
                    assert!(description.chars().count() <= ATTACHMENT_DESCRIPTION_CHARS);
                }
                for row in &message.components {
                    for component in &row.0 {
                        if let tavern::core::Component::Button(button) = component {
                            assert!(button.label.chars().count() <= BUTTON_LABEL_CHARS);
                        }
                    }
                }
            }
            Reply::Modal(modal) => {
                assert!(modal.title.chars().count() <= MODAL_TITLE_CHARS);
                for input in &modal.inputs {
                    assert!(input.label.chars().count() <= INPUT_LABEL_CHARS);
                }
            }
            Reply::Choices(_) => {}
        }
    }
}

/// One step of a transcript: who sends what, and the German the answer must hold.
struct Step {
    user: i64,
    kind: RequestKind,
    expected: &'static [&'static str],
}

fn step(user: i64, kind: RequestKind, expected: &'static [&'static str]) -> Step {
    Step {
        user,
        kind,
        expected,
    }
}

async fn run(harness: &mut Harness, steps: Vec<Step>) -> Vec<Sent> {
    let mut all = Vec::new();
    for Step {
        user,
        kind,
        expected,
    } in steps
    {
        let case = format!("{kind:?}");
        let sent = harness.send(&german(user, kind)).await;
        fits(&sent);
        let said = everything(&sent);
        for wanted in expected {
            assert!(
                said.contains(wanted),
                "{case}\nwanted {wanted:?} in:\n{said}"
            );
        }
        all.push(sent);
    }
    all
}

/// `/name sub… option:value…` with text options.
fn slash(name: &str, subcommand: &[&str], options: &[(&str, &str)]) -> RequestKind {
    let options: Vec<(&str, tavern::core::OptionValue)> = options
        .iter()
        .map(|(name, value)| (*name, text(value)))
        .collect();
    command(name, subcommand, &options)
}

fn chargen(sub: &str, options: &[(&str, &str)]) -> RequestKind {
    slash("chargen", &[sub], options)
}

fn program(sub: &str, options: &[(&str, &str)]) -> RequestKind {
    slash("chargen", &["program", sub], options)
}

fn character(sub: &str, options: &[(&str, &str)]) -> RequestKind {
    slash("character", &[sub], options)
}

fn press(custom_id: String) -> RequestKind {
    RequestKind::Button {
        custom_id,
        message_id: 1,
    }
}

/// A German session from start to sheet: refusals, the prompt's button and form,
/// answers, the summary, cancel.
#[tokio::test]
async fn chargen_speaks_german() {
    let mut harness = Harness::with_settings(settings()).await;
    let sent = run(
        &mut harness,
        vec![
            step(ALICE, chargen("status", &[]), &["Hier läuft kein Charaktergenerator von dir. Starte einen mit `/generator starten`."]),
            step(ALICE, chargen("cancel", &[]), &["Hier läuft kein Charaktergenerator von dir."]),
            step(ALICE, chargen("answer", &[("text", "Udo")]), &["Hier läuft kein Charaktergenerator von dir."]),
            step(ALICE, chargen("start", &[("program", "nope")]), &["Hier gibt es kein Generatorprogramm namens `nope`. Programme: `chargen`, `long`"]),
            step(ALICE, chargen("start", &[("program", "refused")]), &["`refused` lässt sich nicht ausführen: OPEN is not allowed here", "Es wurde nichts gespeichert."]),
            step(ALICE, chargen("start", &[("program", "loop")]), &["`loop` wurde an einer Grenze der Sandbox angehalten: Step limit reached", "SPINNING"]),
            step(ALICE, chargen("start", &[]), &["`chargen` läuft. Antworte mit dem Button **Antworten**, mit einer Antwort auf die Frage oder mit `/generator antworten`.", "[Antworten]", "WHAT IS YOUR NAME?"]),
            step(ALICE, chargen("start", &[]), &["Hier läuft schon ein Charaktergenerator von dir (`chargen`), er wartet auf `WHAT IS YOUR NAME?`."]),
            step(ALICE, chargen("status", &[]), &["Dein Charaktergenerator `chargen` läuft schon 0 s lang. Bisher gab es 0 Antworten. Er wartet auf:", "Ohne Antwort bleibt er noch 24 h lang offen.", "[Antworten]"]),
            step(ALICE, chargen("answer", &[("text", &"x".repeat(256))]), &["Diese Antwort ist zu lang: höchstens 255 Zeichen."]),
            step(ALICE, chargen("answer", &[("text", "Udo")]), &["Beantwortet: `Udo`.", "HELLO Udo"]),
            step(ALICE, chargen("wat", &[]), &["`/generator wat` gibt es nicht; versuch starten, antworten, abbrechen oder status."]),
        ],
    )
    .await;
    // The prompt's button opens the form in German, and Bob may not answer it.
    let answer = sent[10].button("Antworten").expect("the Answer button");
    let form = harness.send(&german(ALICE, press(answer.clone()))).await;
    fits(&form);
    assert_eq!(
        everything(&form),
        "«Charaktergenerator: chargen»\nCLASS (1=FIGHTER 2=MAGIC USER 3=CLERIC…"
    );
    let modal = harness
        .core
        .answer_modal(&answer, "```\n?\n```", Some("de"))
        .unwrap();
    assert_eq!(
        (modal.title.as_str(), modal.inputs[0].label.as_str()),
        ("Charaktergenerator", "Deine Antwort")
    );
    let english = harness
        .core
        .answer_modal(&answer, "```\n?\n```", Some("en-US"))
        .unwrap();
    assert_eq!(
        (english.title.as_str(), english.inputs[0].label.as_str()),
        ("Character generator", "Your answer")
    );
    run(
        &mut harness,
        vec![
            step(BOB, press(answer.clone()), &["Das ist der Charaktergenerator von Alice; starte deinen eigenen mit `/generator starten`."]),
            step(ALICE, chargen("answer", &[("text", "1")]), &["Beantwortet: `1`."]),
            step(ALICE, press(answer), &["Diese Frage ist schon beantwortet."]),
            step(ALICE, chargen("answer", &[("text", "M")]), &[
                "**Udo** ist fertig: CLASS 1 · GENDER M · STR 17 · GOLD 120 GP",
                "Den Charakterbogen zeigt `/charakter zeigen Udo`.",
            ]),
            step(ALICE, chargen("start", &[]), &["`chargen` läuft."]),
            step(ALICE, chargen("cancel", &[]), &["Dein Charaktergenerator (`chargen`) ist beendet. Es wurde nichts gespeichert.", "(abgebrochen)"]),
            step(ALICE, chargen("start", &[("program", "instant")]), &["`instant` ist durchgelaufen."]),
        ],
    )
    .await;
}

/// An unanswered session ends with a notice in the server's chosen language, which
/// the sweep reads without a request; English where the server chose auto.
#[tokio::test]
async fn the_expiry_notice_speaks_the_servers_language() {
    let mut harness = Harness::with_settings(settings()).await;
    harness.send(&german(ALICE, chargen("start", &[]))).await;
    harness.clock.advance_ms(24 * 3_600_000);
    let english = harness.core.sweep().await.unwrap();
    check_rules(&english);
    let Some(Reply::Channel { message, .. }) = english.first() else {
        panic!("a notice: {english:?}");
    };
    assert!(
        message
            .content
            .starts_with("The character generator of Alice"),
        "{}",
        message.content
    );

    harness
        .storage
        .set_guild_language(GUILD, Some("de"), ALICE, 0)
        .await
        .unwrap();
    let mut long_name = german(ALICE, chargen("start", &[]));
    long_name.user.name = "Ä".repeat(32);
    harness.send(&long_name).await;
    harness.clock.advance_ms(24 * 3_600_000);
    let german_notices = harness.core.sweep().await.unwrap();
    check_rules(&german_notices);
    let texts: Vec<String> = german_notices
        .iter()
        .filter_map(|reply| match reply {
            Reply::Channel { message, .. } | Reply::Edit { message, .. } => {
                Some(message.content.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        texts[0],
        format!(
            "Der Charaktergenerator von {} (`chargen`) ist abgelaufen: 24 h lang kam keine \
             Antwort. Es wurde nichts gespeichert; `/generator starten` beginnt einen neuen.",
            "Ä".repeat(32)
        )
    );
    assert!(texts[1].ends_with("\n(abgelaufen)"), "{}", texts[1]);
}

const SHORT: &str = "10 INPUT \"NAME\"; N$\n20 RECORD \"NAME\", N$, \"HP\", 7\n";
const BROKEN: &str =
    "10 PRINT \"HELLO\"\n20 INPUT \"NAME\"; N$\n40 END\n50 PRINT \"NEVER\" +\n60 IF N$ THEN THEN\n";

/// Installing, listing, showing, mapping, choosing and removing programs in German.
#[tokio::test]
async fn programs_speak_german() {
    let mut harness = Harness::with_settings(settings()).await;
    let sent = run(
        &mut harness,
        vec![
            step(BOB, program("add", &[("name", "short"), ("code", SHORT)]), &["Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein Server-Admin per `/einstellungen makro-rolle` festlegt) können Generatorprogramme installieren, entfernen oder auswählen."]),
            step(ALICE, program("list", &[]), &["Generatorprogramme auf diesem Server:\n- `chargen` (mit Tavern mitgeliefert) — der Standard\n- `long` (mit Tavern mitgeliefert)"]),
            step(ALICE, program("add", &[("name", "bad name!"), ("code", SHORT)]), &["`bad name!` kann kein Programmname sein: Nimm 1 bis 32 Buchstaben, Ziffern, `-` und `_`."]),
            step(ALICE, program("add", &[("name", "chargen"), ("code", SHORT)]), &["`chargen` ist der Name eines Programms, das mit Tavern mitgeliefert wird; wähl einen anderen."]),
            step(ALICE, program("add", &[("name", "pasted")]), &["«Programm pasted installieren»", "Das BASIC-Listing", "Zuordnung (freiwillig)"]),
            step(ALICE, program("add", &[("name", "short"), ("code", SHORT)]), &["`short` installiert (2 Zeilen). Starte es mit `/generator starten programm:short`; zum Standard machst du es mit `/generator programm standard short`."]),
            step(ALICE, program("add", &[("name", "short"), ("code", SHORT), ("map", "NAME=N$")]), &["`short` ersetzt (2 Zeilen).", "Generatoren, die noch das alte Listing ausführen, enden bei ihrer nächsten Antwort.", "Seine Charaktere werden mit `NAME=N$` zugeordnet."]),
            step(ALICE, program("add", &[("name", "broken"), ("code", BROKEN)]), &["`broken` hat 2 Syntaxfehler:\n```\nZeile 50, Spalte 19: ", "So installieren, wie es ist?", "[Trotzdem installieren]", "[Abbrechen]"]),
            step(ALICE, program("map", &[("name", "short"), ("map", "at 999 NAME=N$")]), &["Die Zuordnung wurde nicht gespeichert: Das Programm hat keine Zeile 999. `short` behält seine Zuordnung `NAME=N$`."]),
            step(ALICE, program("map", &[("name", "short"), ("map", "NAME=N$ NAME=N$")]), &["Das Feld `NAME` ist doppelt zugeordnet"]),
            step(ALICE, program("map", &[("name", "short"), ("map", "HP=ZZ")]), &["`HP=ZZ`: Das Programm weist `ZZ` nie einen Wert zu"]),
            step(ALICE, program("map", &[("name", "short"), ("map", "")]), &["`short` hat jetzt keine Zuordnung mehr. Charaktere, die es schon erschaffen hat, lesen ihre Werte jetzt über die neue Zuordnung"]),
            step(ALICE, program("map", &[("name", "chargen"), ("map", "NAME=N$")]), &["`chargen` wird mit Tavern mitgeliefert und legt seine Charaktere selbst an."]),
            step(ALICE, program("show", &[("name", "short")]), &["`short`: 2 Zeilen, 49 Bytes.", "Keine Zuordnung: Ohne `RECORD`", "<short.bas: Das Listing von short>"]),
            step(ALICE, program("show", &[("name", "chargen")]), &["`chargen` wird mit Tavern mitgeliefert und übergibt seine Charaktere selbst mit `RECORD`."]),
            step(ALICE, program("default", &[("name", "short")]), &["`/generator starten` führt hier jetzt `short` aus."]),
            step(ALICE, program("list", &[]), &["- `short`: 2 Zeilen, 49 Bytes, installiert von **Alice** am 2026-01-01 00:00 UTC — der Standard"]),
            step(ALICE, program("remove", &[("name", "chargen")]), &["`chargen` wird mit Tavern mitgeliefert und kann nicht entfernt werden."]),
            step(ALICE, program("remove", &[("name", "nope")]), &["Hier gibt es kein Programm namens `nope`. `/generator programm liste` zeigt die vorhandenen."]),
            step(ALICE, program("remove", &[("name", "short")]), &["`short` ist entfernt. Generatoren, die es ausführen, enden bei ihrer nächsten Antwort."]),
            step(ALICE, program("wat", &[]), &["`/generator programm wat` gibt es nicht"]),
        ],
    )
    .await;
    // "Cancel" under the syntax errors, then "Install anyway" is stale.
    let install = sent[7].button("Trotzdem installieren").unwrap();
    let cancel = sent[7].button("Abbrechen").unwrap();
    run(
        &mut harness,
        vec![
            step(BOB, press(install.clone()), &["Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein Server-Admin per `/einstellungen makro-rolle` festlegt) können Generatorprogramme installieren."]),
            step(ALICE, press(cancel), &["`broken` wurde nicht installiert."]),
            step(ALICE, press(install), &["Diese Installation wurde schon bestätigt, abgebrochen oder ist abgelaufen; führ `/generator programm hinzufügen` noch einmal aus."]),
        ],
    )
    .await;
}

/// The record map's refusals, one per kind, in both languages: English as before,
/// German as written for the table.
#[test]
fn record_map_errors_in_both_languages() {
    use tavern::core::record_map::parse;
    let cases = [
        (
            "at",
            "`at` needs a line number (`at 4180`)",
            "`at` braucht eine Zeilennummer (`at 4180`)",
        ),
        (
            "at x",
            "`at x`: a line number is digits only, up to 65529",
            "`at x`: Eine Zeilennummer besteht nur aus Ziffern, bis 65529",
        ),
        (
            "STR",
            "`STR` is not FIELD=VARIABLE (write `STR=ST`, without spaces around `=`)",
            "`STR` ist nicht FELD=VARIABLE (schreib `STR=ST`, ohne Leerzeichen um das `=`)",
        ),
        (
            "1A=B",
            "`1A` cannot be a field name: use 1 to 20 letters, digits and `_`, starting with a letter",
            "`1A` kann kein Feldname sein: Nimm 1 bis 20 Buchstaben, Ziffern und `_`, am Anfang einen Buchstaben",
        ),
        (
            "A=1B",
            "`1B` is not a BASIC variable (write `NA$`, `ST` or `A(1)`)",
            "`1B` ist keine BASIC-Variable (schreib `NA$`, `ST` oder `A(1)`)",
        ),
        (
            "",
            "the map is empty: write `at LINE` and/or `FIELD=VARIABLE` pairs",
            "Die Zuordnung ist leer: Schreib `at ZEILE` und/oder Paare `FELD=VARIABLE`",
        ),
    ];
    for (map, english, german) in cases {
        let error = parse(map).expect_err(map);
        assert_eq!(error.text(Lang::En), english, "{map}");
        assert_eq!(error.text(Lang::De), german, "{map}");
    }
    let too_long = parse(&"A=B ".repeat(300)).expect_err("too long");
    assert_eq!(
        too_long.text(Lang::De),
        "Eine Zuordnung hat höchstens 1000 Zeichen"
    );
    let many: Vec<String> = (0..41).map(|index| format!("F{index}=V")).collect();
    let too_many = parse(&many.join(" ")).expect_err("too many");
    assert_eq!(
        too_many.text(Lang::De),
        "Eine Zuordnung hat höchstens 40 Felder"
    );
}

/// Listing, showing, playing and deleting characters in German; the sheet is public,
/// in the server's language.
#[tokio::test]
async fn characters_speak_german() {
    let mut harness = Harness::with_settings(settings()).await;
    run(
        &mut harness,
        vec![
            step(ALICE, character("list", &[]), &["Du hast hier noch keine Charaktere. Erschaffe einen mit `/generator starten`."]),
            step(ALICE, character("show", &[]), &["Du hast hier noch keine Charaktere. Erschaffe einen mit `/generator starten`, dann zeigt ihn `/charakter zeigen`."]),
            step(ALICE, chargen("start", &[]), &[]),
            step(ALICE, chargen("answer", &[("text", "Udo")]), &[]),
            step(ALICE, chargen("answer", &[("text", "1")]), &[]),
            step(ALICE, chargen("answer", &[("text", "M")]), &["**Udo** ist fertig"]),
        ],
    )
    .await;
    harness.clock.advance_ms(3 * 86_400_000);
    let sent = run(
        &mut harness,
        vec![
            step(ALICE, character("list", &[]), &["Deine Charaktere hier (1):\n- **Udo** (chargen, 3 Tage alt)"]),
            step(ALICE, character("show", &[("name", "Nope")]), &["Du hast hier keinen Charakter namens `Nope`. `/charakter liste` zeigt deine."]),
            step(ALICE, character("use", &[("name", "Udo")]), &["Du spielst hier jetzt **Udo**. Seine Werte gelten in jedem Wurf, z. B. `/würfeln 1d20 + @STR_MOD`: `@"]),
            step(ALICE, character("show", &[("name", "Udo")]), &[
                "**Udo**, erschaffen mit `chargen` am 2026-01-01 (du spielst diesen Charakter hier)",
                "Gold 120 · Proviant 0\nInventar: leer\nGruppe: leer\nIn Würfen: `@",
                "<udo.txt: Das Protokoll des Generators für Udo>",
            ]),
            step(ALICE, character("delete", &[("name", "Udo")]), &["**Udo** (erschaffen mit `chargen`) mit allen Werten, Besitztümern und dem Protokoll löschen? Das lässt sich nicht rückgängig machen.", "[Löschen]", "[Abbrechen]"]),
            step(ALICE, character("wat", &[]), &["`/charakter wat` gibt es nicht; versuch liste, zeigen, spielen oder löschen."]),
        ],
    )
    .await;
    let delete = sent[4].button("Löschen").unwrap();
    let keep = sent[4].button("Abbrechen").unwrap();
    run(
        &mut harness,
        vec![
            step(BOB, press(keep.clone()), &["Nur wem der Charakter gehört, kann das beantworten."]),
            step(ALICE, press(keep), &["**Udo** bleibt."]),
            step(ALICE, press(delete), &["Dieses Löschen wurde schon bestätigt, abgebrochen oder ist abgelaufen; führ `/charakter löschen` noch einmal aus."]),
        ],
    )
    .await;
}

/// The longest inputs in German: a program name of 32 characters with more syntax
/// errors than fit one message, a character name of 64 characters (from the longest
/// answer), a sheet, a list and a deletion question of it.
#[tokio::test]
async fn the_longest_inputs_fit_in_german() {
    let mut harness = Harness::with_settings(settings()).await;
    let name = format!("{}z", "a".repeat(31));
    let mut broken = String::from("10 END\n");
    for line in 0..300 {
        broken.push_str(&format!("{} PRINT \"NEVER\" +\n", 20 + line));
    }
    let sent = run(
        &mut harness,
        vec![
            step(
                ALICE,
                program("add", &[("name", &name)]),
                &["«Programm aaaaaaaa"],
            ),
            step(
                ALICE,
                program("add", &[("name", &name), ("code", &broken)]),
                &[
                    "Syntaxfehler:",
                    "weitere: Alle stehen in der angehängten Datei",
                    "-syntaxfehler.txt: Die 300 Syntaxfehler von",
                ],
            ),
        ],
    )
    .await;
    let install = sent[1].button("Trotzdem installieren").unwrap();
    let long_answer = "Ö".repeat(255);
    run(
        &mut harness,
        vec![
            step(
                ALICE,
                press(install),
                &["installiert (301 Zeilen, 300 Syntaxfehler in Kauf genommen)"],
            ),
            step(ALICE, program("show", &[("name", &name)]), &["301 Zeilen"]),
            step(
                ALICE,
                program("list", &[]),
                &["300 Syntaxfehler in Kauf genommen"],
            ),
            step(ALICE, chargen("start", &[]), &[]),
            step(ALICE, chargen("answer", &[("text", &long_answer)]), &[]),
            step(ALICE, chargen("answer", &[("text", "1")]), &[]),
            step(
                ALICE,
                chargen("answer", &[("text", &long_answer)]),
                &["ist fertig"],
            ),
            step(
                ALICE,
                character("list", &[]),
                &["Deine Charaktere hier (1):"],
            ),
            step(ALICE, character("show", &[]), &["erschaffen mit `chargen`"]),
            step(ALICE, chargen("start", &[]), &[]),
            step(ALICE, chargen("status", &[]), &["Er wartet auf:"]),
        ],
    )
    .await;
    let made = harness.storage.characters_of(ALICE, GUILD).await.unwrap();
    assert_eq!(made[0].name.chars().count(), 64, "{}", made[0].name);
    run(
        &mut harness,
        vec![step(
            ALICE,
            character("delete", &[("name", &made[0].name)]),
            &["[Löschen]"],
        )],
    )
    .await;
}
