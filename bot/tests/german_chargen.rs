//! In German: `/chargen`, `/chargen program` and `/character`
//! through the core. A German member in a German server (`locale` and `guild_locale`
//! `de`) goes through each command's representative answers, in a table per command;
//! then the longest inputs (names at their maximum lengths, a long user name, many
//! syntax errors) must still fit Discord's limits in German.

use std::sync::Arc;
use tavern::core::fit::{
    ATTACHMENT_DESCRIPTION_CHARS, BUTTON_LABEL_CHARS, CONTENT_CHARS, INPUT_LABEL_CHARS,
    MODAL_TITLE_CHARS,
};

use basic_runner::Limits;
use tavern::core::{Core, Permissions, Reply, Request, RequestKind};
use tavern::engine::basic::BasicEngine;
use tavern::engine::{
    GenFailure, GenReason, GenSession, Generators, ProgramCheck, ProgramText, SandboxLimit,
};
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
            step(ALICE, chargen("start", &[("program", "refused")]), &["`refused` lässt sich nicht ausführen: OPEN ist hier nicht erlaubt (Zugriff auf Dateien und Geräte) in Zeile 20. Es wurde nichts gespeichert."]),
            step(ALICE, chargen("start", &[("program", "retyped")]), &["`retyped` lässt sich nicht ausführen: DEFINT ist hier nicht erlaubt (ein Name, den es typisiert, hat hier je nach Weg des Programmlaufs einen anderen Typ) in Zeile 20. Es wurde nichts gespeichert."]),
            step(ALICE, chargen("start", &[("program", "loop")]), &["`loop` wurde an einer Grenze der Sandbox angehalten: Schrittgrenze erreicht (100.000 Schritte pro Eingabe) in Zeile 100. Es wurde nichts gespeichert.", "SPINNING\nSchrittgrenze erreicht (100.000 Schritte pro Eingabe) in Zeile 100\n```"]),
            step(ALICE, chargen("start", &[]), &["`chargen` läuft. Antworte mit dem Button **Antworten**, mit einer Antwort auf die Frage oder mit `/generator antworten`.", "[Antworten]", "WHAT IS YOUR NAME?"]),
            step(ALICE, chargen("start", &[]), &["Hier läuft schon ein Charaktergenerator von dir (`chargen`), er wartet auf `WHAT IS YOUR NAME?`."]),
            step(ALICE, chargen("status", &[]), &["Dein Charaktergenerator `chargen` läuft seit 0 s. Bisher gab es noch keine Antwort. Er wartet auf:", "Ohne Antwort bleibt er noch 24 h lang offen.", "[Antworten]"]),
            step(ALICE, chargen("answer", &[("text", &"x".repeat(256))]), &["Diese Antwort ist zu lang: höchstens 255 Zeichen."]),
            step(ALICE, chargen("answer", &[("text", "Udo")]), &["Beantwortet: `Udo`.", "HELLO Udo"]),
            step(ALICE, chargen("wat", &[]), &["`/generator wat` gibt es nicht."]),
        ],
    )
    .await;
    // The prompt's button opens the form in German, and Bob may not answer it.
    let answer = sent[11].button("Antworten").expect("the Answer button");
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
                "Würfle mit seinen Werten, z. B. `/würfeln 1d20 + @STR_MOD` (`/charakter zeigen` listet sie). Ein Wurf nutzt den Charakter, den du mit `/charakter spielen NAME` gewählt hast, sonst deinen neuesten.",
            ]),
            step(ALICE, chargen("start", &[]), &["`chargen` läuft."]),
            step(ALICE, chargen("cancel", &[]), &["Dein Charaktergenerator (`chargen`) ist beendet. Es wurde nichts gespeichert.", "(abgebrochen)"]),
            step(ALICE, chargen("start", &[("program", "instant")]), &["`instant` ist durchgelaufen."]),
        ],
    )
    .await;
}

/// An unanswered session ends with a notice in the server's chosen language, which
/// the sweep reads without a request; under auto, the server's Discord locale as its
/// last interaction gave it (English here, though the player is German).
#[tokio::test]
async fn the_expiry_notice_speaks_the_servers_language() {
    let mut harness = Harness::with_settings(settings()).await;
    let mut in_english_server = german(ALICE, chargen("start", &[]));
    in_english_server.guild_locale = Some("en-US".to_owned());
    harness.send(&in_english_server).await;
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
             Antwort. Es wurde nichts gespeichert. `/generator starten` beginnt einen neuen.",
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
            step(ALICE, program("add", &[("name", "broken"), ("code", BROKEN)]), &["`broken` hat 2 Syntaxfehler:\n```\nZeile 50, Spalte 19: Erwartet wurde ein Ausdruck\nZeile 60, Spalte 19: Mit THEN kann keine Anweisung beginnen\n```", "So installieren, wie es ist?", "[Trotzdem installieren]", "[Abbrechen]"]),
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
            step(ALICE, character("wat", &[]), &["`/charakter wat` gibt es nicht."]),
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

/// Generators that fail every call with one failure: for the reasons a real run
/// cannot reach (limits `basic-runner` no longer stops at, its own bugs, a stored
/// session it cannot read).
struct Failing(GenFailure);

impl Generators for Failing {
    fn check(&self, _source: &str) -> Result<ProgramCheck, GenFailure> {
        Err(self.0.clone())
    }

    fn start(&self, _program: &ProgramText, _seed: u64) -> Result<Box<dyn GenSession>, GenFailure> {
        Err(self.0.clone())
    }

    fn restore(
        &self,
        _program: &ProgramText,
        _snapshot: &str,
    ) -> Result<Box<dyn GenSession>, GenFailure> {
        Err(self.0.clone())
    }
}

/// The engine of one case: the real one with tiny limits, or a scripted failure.
#[derive(Clone)]
enum Engine {
    Real(Limits),
    Scripted(GenReason, &'static str),
}

/// How a case reaches the engine: `/chargen start` of the program `p`, an answer to
/// its first question, or installing it with `/chargen program add`.
enum Via {
    Start,
    Answer(&'static str),
    Install,
}

/// A harness whose only program is `p` with `source`, run by `engine`.
async fn harness_with(engine: Engine, source: &str) -> Harness {
    let mut harness = Harness::with_settings(settings()).await;
    let generators: Arc<dyn Generators> = match engine {
        Engine::Real(limits) => Arc::new(BasicEngine::new(limits)),
        Engine::Scripted(reason, message) => Arc::new(Failing(GenFailure {
            reason,
            message: message.to_owned(),
            output: String::new(),
        })),
    };
    let engines = tavern::engine::Engines {
        dice: tavern::engine::real_dice(&crate::doubles::test_config()),
        generators,
        builtin_programs: vec![ProgramText::new("p", source)],
    };
    harness.core = Arc::new(Core::new(
        harness.storage.clone(),
        engines,
        settings(),
        harness.clock.clone(),
        Some(5),
    ));
    harness
}

/// Words of the English reasons that German must not show (GW-BASIC's own
/// `Line buffer overflow` and BASIC keywords stay, being the program's).
const ENGLISH: &[&str] = &[
    "reached",
    "limit",
    " per ",
    " the ",
    " is ",
    "allowed",
    "source",
    "characters",
    "bytes",
    "levels",
    "Internal error",
    "internal",
    "saved state",
    "Nothing",
    "stopped",
    "cannot",
    "snapshot",
    "compiler failed",
];

/// `request` through `via`: what the case's last request produced.
async fn send_via(
    harness: &mut Harness,
    via: &Via,
    request: impl Fn(RequestKind) -> Request,
    source: &str,
) -> Sent {
    match via {
        Via::Start => {
            harness
                .send(&request(chargen("start", &[("program", "p")])))
                .await
        }
        Via::Answer(text) => {
            let started = harness
                .send(&request(chargen("start", &[("program", "p")])))
                .await;
            assert!(started.prompt_message.is_some(), "{:#?}", started.replies);
            harness
                .send(&request(chargen("answer", &[("text", text)])))
                .await
        }
        Via::Install => {
            harness
                .send(&request(program("add", &[("name", "q"), ("code", source)])))
                .await
        }
    }
}

/// One reason: the engine, the listing, how it is reached, and what German and
/// English answers hold.
type ReasonCase = (
    Engine,
    String,
    Via,
    &'static [&'static str],
    &'static [&'static str],
);

/// Every sandbox limit and every reason a listing cannot load, said in German to a
/// German table and in English to an English one, with its numbers; the channel's
/// transcript ends with the limit in the table's language.
#[tokio::test]
async fn sandbox_reasons_speak_the_players_language() {
    const LOOP: &str = "10 PRINT \"SPIN\"\n20 GOTO 20\n";
    let limits = |change: fn(&mut Limits)| {
        let mut limits = Limits::default();
        change(&mut limits);
        Engine::Real(limits)
    };
    let long_line = format!("10 REM{}\n", "X".repeat(300));
    let unnumbered_long = format!("10 REM\n'{}\n", "X".repeat(300));
    let many = "10 REM\n20 REM\n30 REM\n";
    let cases: Vec<ReasonCase> = vec![
        (
            limits(|l| l.max_steps_per_resume = 1500),
            LOOP.to_owned(),
            Via::Start,
            &[
                "`p` wurde an einer Grenze der Sandbox angehalten: Schrittgrenze erreicht (1500 Schritte pro Eingabe) in Zeile 20. Es wurde nichts gespeichert.",
                "SPIN\nSchrittgrenze erreicht (1500 Schritte pro Eingabe) in Zeile 20\n```",
            ],
            &[
                "`p` stopped at a limit of the sandbox: Step limit reached (1500 steps per input) in 20. Nothing was stored.",
                "SPIN\nStep limit reached (1500 steps per input) in 20\n```",
            ],
        ),
        (
            limits(|l| l.max_steps_per_session = 25_000),
            LOOP.to_owned(),
            Via::Start,
            &[
                "Schrittgrenze erreicht (25.000 Schritte pro Sitzung) in Zeile 20. Es wurde",
                "SPIN\nSchrittgrenze erreicht (25.000 Schritte pro Sitzung) in Zeile 20\n```",
            ],
            &[
                "Step limit reached (25000 steps per session) in 20. Nothing",
                "SPIN\nStep limit reached (25000 steps per session) in 20\n```",
            ],
        ),
        (
            limits(|l| l.max_output_bytes_per_resume = 12),
            "10 PRINT \"SPAM\"\n20 GOTO 10\n".to_owned(),
            Via::Start,
            &[
                "Ausgabegrenze erreicht (12 Bytes pro Eingabe) in Zeile 10. Es wurde",
                "SPAM\nSPAM\nSP\nAusgabegrenze erreicht (12 Bytes pro Eingabe) in Zeile 10\n```",
            ],
            &[
                "Output limit reached (12 bytes per input) in 10. Nothing",
                "SPAM\nSPAM\nSP\nOutput limit reached (12 bytes per input) in 10\n```",
            ],
        ),
        (
            limits(|l| l.max_records = 1),
            "10 RECORD \"NAME\", \"X\"\n20 GOTO 10\n".to_owned(),
            Via::Start,
            &[
                "Charaktergrenze erreicht (1 Charakter) in Zeile 10. **X** wurde gespeichert.",
                "```\nCharaktergrenze erreicht (1 Charakter) in Zeile 10\n```",
            ],
            &[
                "Record limit reached (1 character) in 10. **X** was stored.",
                "```\nRecord limit reached (1 character) in 10\n```",
            ],
        ),
        (
            limits(|l| l.max_input_len = 4),
            "10 INPUT \"NAME\"; N$\n20 PRINT N$\n".to_owned(),
            Via::Answer("Siegfried"),
            &[
                "Eingabe zu lang (höchstens 4 Zeichen). Es wurde",
                "```\nEingabe zu lang (höchstens 4 Zeichen)\n```",
            ],
            &[
                "Input too long (the limit is 4 characters). Nothing",
                "```\nInput too long (the limit is 4 characters)\n```",
            ],
        ),
        (
            Engine::Scripted(
                GenReason::Limit {
                    limit: SandboxLimit::Memory,
                    value: 65_536,
                    line: Some(40),
                },
                "Memory limit reached (65536 bytes) in 40",
            ),
            LOOP.to_owned(),
            Via::Start,
            &[
                "Speichergrenze erreicht (65.536 Bytes) in Zeile 40. Es wurde",
                "```\nSpeichergrenze erreicht (65.536 Bytes) in Zeile 40\n```",
            ],
            &[
                "Memory limit reached (65536 bytes) in 40. Nothing",
                "```\nMemory limit reached (65536 bytes) in 40\n```",
            ],
        ),
        (
            Engine::Scripted(
                GenReason::Limit {
                    limit: SandboxLimit::Nesting,
                    value: 32,
                    line: None,
                },
                "Nesting limit reached (32 GOSUB/FOR/WHILE/FN levels)",
            ),
            LOOP.to_owned(),
            Via::Start,
            &[
                "Verschachtelungsgrenze erreicht (32 Ebenen GOSUB/FOR/WHILE/FN). Es wurde",
                "```\nVerschachtelungsgrenze erreicht (32 Ebenen GOSUB/FOR/WHILE/FN)\n```",
            ],
            &[
                "Nesting limit reached (32 GOSUB/FOR/WHILE/FN levels). Nothing",
                "```\nNesting limit reached (32 GOSUB/FOR/WHILE/FN levels)\n```",
            ],
        ),
        (
            Engine::Scripted(GenReason::Internal, "Internal error in the BASIC VM"),
            LOOP.to_owned(),
            Via::Start,
            &[
                "`p` wurde mit einem Fehler beendet: Interner Fehler des BASIC-Interpreters (ein Fehler in Tavern, nicht im Programm). Es wurde",
            ],
            &[
                "`p` stopped with an error: Internal error in the BASIC interpreter (a bug in Tavern, not in the program). Nothing",
            ],
        ),
        (
            Engine::Scripted(
                GenReason::Restore,
                "not a session snapshot: expected value at line 1 column 1",
            ),
            LOOP.to_owned(),
            Via::Start,
            &[
                "`p` ließ sich nicht fortsetzen: Sein gespeicherter Stand ist nicht lesbar. Es wurde nichts gespeichert.",
            ],
            &["`p` could not be resumed: its saved state could not be read. Nothing was stored."],
        ),
        // Every reason a listing cannot load, as /chargen program add and /chargen start say it.
        (
            limits(|l| l.max_program_bytes = 20),
            many.repeat(2),
            Via::Install,
            &["`q` wurde nicht installiert: Das Programm hat 41 Bytes; erlaubt sind 20 Bytes."],
            &["`q` was not installed: program is 41 bytes; the limit is 20."],
        ),
        (
            limits(|l| l.max_program_lines = 2),
            many.to_owned(),
            Via::Install,
            &["`q` wurde nicht installiert: Das Programm hat mehr als 2 Zeilen."],
            &["`q` was not installed: program has more than 2 lines."],
        ),
        (
            limits(|_| {}),
            long_line.clone(),
            Via::Install,
            &[
                "`q` wurde nicht installiert: Line buffer overflow in 10: Die Zeile hat 306 Zeichen, in eine Zeile passen höchstens 255.",
            ],
            &[
                "`q` was not installed: Line buffer overflow in 10: the line is 306 characters, a line holds at most 255.",
            ],
        ),
        (
            limits(|_| {}),
            unnumbered_long,
            Via::Install,
            &[
                "`q` wurde nicht installiert: Line buffer overflow: Zeile 2 des Listings hat 301 Zeichen, in eine Zeile passen höchstens 255.",
            ],
            &[
                "`q` was not installed: Line buffer overflow on line 2 of the source: the line is 301 characters, a line holds at most 255.",
            ],
        ),
        (
            limits(|_| {}),
            "10 PRINT 1\nPRINT 2\n".to_owned(),
            Via::Install,
            &["`q` wurde nicht installiert: Zeile 2 des Listings hat keine Zeilennummer."],
            &["`q` was not installed: line 2 of the source has no line number."],
        ),
        (
            limits(|_| {}),
            "10 PRINT 1\n\n70000 PRINT 2\n".to_owned(),
            Via::Install,
            &[
                "`q` wurde nicht installiert: Die Zeilennummer 70000 in Zeile 3 des Listings ist größer als 65529.",
            ],
            &["`q` was not installed: line number 70000 on line 3 of the source is above 65529."],
        ),
        (
            limits(|_| {}),
            "10 PRINT 1\n20 POKE 1, 2\n".to_owned(),
            Via::Install,
            &[
                "`q` wurde nicht installiert: POKE ist hier nicht erlaubt (direkter Speicherzugriff) in Zeile 20.",
            ],
            &["`q` was not installed: POKE is not allowed here (direct memory access) in 20."],
        ),
        (
            limits(|_| {}),
            "10 PRINT 1\n20 X$ = DATE$\n".to_owned(),
            Via::Start,
            &[
                "`p` lässt sich nicht ausführen: DATE$ ist hier nicht erlaubt (Datum und Uhrzeit) in Zeile 20. Es wurde nichts gespeichert.",
            ],
            &["`p` cannot run: DATE$ is not allowed here (the clock) in 20. Nothing was stored."],
        ),
        (
            Engine::Scripted(
                GenReason::Load {
                    problem: basic_runner::LoadErrorDetail::Internal,
                    line: Some(10),
                    refusals: Vec::new(),
                },
                "internal compiler error: stack underflow (pc 3)",
            ),
            LOOP.to_owned(),
            Via::Install,
            &[
                "`q` wurde nicht installiert: Der BASIC-Compiler ist daran gescheitert (ein Fehler in Tavern, nicht im Listing).",
            ],
            &[
                "`q` was not installed: the BASIC compiler failed on it (a bug in Tavern, not in the listing).",
            ],
        ),
    ];
    for (engine, source, via, german_texts, english_texts) in cases {
        let engines_message = match &engine {
            Engine::Scripted(_, message) => *message,
            Engine::Real(_) => "",
        };
        let mut harness = harness_with(engine.clone(), &source).await;
        let in_german = send_via(&mut harness, &via, |kind| german(ALICE, kind), &source).await;
        fits(&in_german);
        let said = everything(&in_german);
        for wanted in german_texts {
            assert!(said.contains(wanted), "wanted {wanted:?} in:\n{said}");
        }
        for english in ENGLISH {
            assert!(!said.contains(english), "{english:?} in German:\n{said}");
        }
        if !engines_message.is_empty() {
            assert!(
                !said.contains(engines_message),
                "the engine's English in:\n{said}"
            );
        }
        let mut harness = harness_with(engine, &source).await;
        let in_english = |kind| {
            let mut request = german(ALICE, kind);
            request.locale = Some("en-US".to_owned());
            request.guild_locale = Some("en-US".to_owned());
            request
        };
        let said = everything(&send_via(&mut harness, &via, in_english, &source).await);
        for wanted in english_texts {
            assert!(said.contains(wanted), "wanted {wanted:?} in:\n{said}");
        }
    }
}

/// Each kind of syntax error explained in both languages: English as basic-runner
/// words it, German without English words, BASIC text as written.
#[test]
fn syntax_errors_in_both_languages() {
    use basic_runner::{Expected, SyntaxProblem};
    use tavern::core::gen_reason::syntax_problem;
    let code = |text: &str| text.to_owned();
    let cases = [
        (
            SyntaxProblem::Expected(Expected::Expression),
            "Erwartet wurde ein Ausdruck",
        ),
        (
            SyntaxProblem::Expected(Expected::Statement),
            "Erwartet wurde eine Anweisung",
        ),
        (
            SyntaxProblem::Expected(Expected::EndOfStatement),
            "Erwartet wurde das Ende der Anweisung",
        ),
        (
            SyntaxProblem::Expected(Expected::ValueToPrint),
            "Erwartet wurde ein Wert zum Ausgeben",
        ),
        (
            SyntaxProblem::Expected(Expected::LineNumber),
            "Erwartet wurde eine Zeilennummer",
        ),
        (
            SyntaxProblem::Expected(Expected::Letter),
            "Erwartet wurde ein Buchstabe",
        ),
        (
            SyntaxProblem::Expected(Expected::VariableName),
            "Erwartet wurde ein Variablenname",
        ),
        (
            SyntaxProblem::Expected(Expected::SemicolonAfterUsingFormat),
            "Erwartet wurde ; nach dem Format von PRINT USING",
        ),
        (
            SyntaxProblem::Expected(Expected::SeparatorAfterPrompt),
            "Erwartet wurde ; oder , nach dem Fragetext",
        ),
        (
            SyntaxProblem::Expected(Expected::SemicolonAfterPrompt),
            "Erwartet wurde ; nach dem Fragetext",
        ),
        (
            SyntaxProblem::Expected(Expected::CommaAndFieldValue),
            "Erwartet wurde , und der Wert des Felds",
        ),
        (
            SyntaxProblem::Expected(Expected::Code(code("TO"))),
            "Erwartet wurde TO",
        ),
        (
            SyntaxProblem::Expected(Expected::Either(code("THEN"), code("GOTO"))),
            "Erwartet wurde THEN oder GOTO",
        ),
        (
            SyntaxProblem::CannotStartStatement(code("THEN")),
            "Mit THEN kann keine Anweisung beginnen",
        ),
        (
            SyntaxProblem::NotInExpression(code("GOTO")),
            "GOTO kann nicht in einem Ausdruck stehen",
        ),
        (
            SyntaxProblem::TooManySubscripts(255),
            "Mehr als 255 Indizes",
        ),
        (
            SyntaxProblem::NestedTooDeeply,
            "Der Ausdruck ist zu tief verschachtelt",
        ),
        (SyntaxProblem::TooComplex, "Der Ausdruck ist zu komplex"),
        (
            SyntaxProblem::ArgumentCount {
                keyword: code("MID$"),
                min: 2,
                max: 3,
            },
            "MID$ braucht 2 bis 3 Argumente",
        ),
        (
            SyntaxProblem::OneArgument(code("RND")),
            "RND braucht genau ein Argument",
        ),
    ];
    for (problem, german) in cases {
        assert_eq!(syntax_problem(Lang::En, &problem), problem.describe());
        assert_eq!(syntax_problem(Lang::De, &problem), german);
        for english in [
            " the ",
            "expected",
            " or ",
            "cannot",
            "takes",
            "than",
            "expression",
        ] {
            assert!(!german.contains(english), "{english:?} in {german:?}");
        }
    }
}

/// A stored session the real engine cannot restore: the player hears why in their
/// language, without basic-runner's English (which goes to the log), and no
/// transcript follows for the step that never ran.
#[tokio::test]
async fn a_session_that_cannot_be_restored_says_so_in_german() {
    let mut harness = Harness::with_settings(settings()).await;
    let started = harness.send(&german(ALICE, chargen("start", &[]))).await;
    assert!(started.prompt_message.is_some());
    sqlx::query("UPDATE chargen_sessions SET state = 'not json'")
        .execute(harness.storage.pool())
        .await
        .unwrap();
    let answered = harness
        .send(&german(ALICE, chargen("answer", &[("text", "Udo")])))
        .await;
    fits(&answered);
    let said = everything(&answered);
    assert!(
        said.ends_with(
            "\n`chargen` ließ sich nicht fortsetzen: Sein gespeicherter Stand ist nicht \
             lesbar. Es wurde nichts gespeichert."
        ),
        "{said}"
    );
    assert!(!said.contains("snapshot"), "{said}");
}
