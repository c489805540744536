//! `/npc`, `/talk`, the conversations in the channel
//! and `/effect`. Private answers and forms speak the member's language; the
//! conversation's messages, buttons and menus the server's. The authors' words
//! (SAY texts, item and menu names) stay as written; npc-core's load errors are
//! worded by their message id, and German players may say the NPC's words in German.

use tavern::core::{OptionValue, Permissions, Reply, Request, RequestKind};
use tavern::i18n::{self, Lang};

use crate::harness::{ALICE, BOB, GUILD, Sent, command, text};
use crate::npc::{
    Table, button, buttons, character, choose, install, modal, press, reply_to, said, selects,
    submit, talk,
};

/// Who sends: a member with their Discord language, in a server with its own.
#[derive(Clone, Copy)]
struct Who {
    user: i64,
    locale: &'static str,
    guild_locale: Option<&'static str>,
    admin: bool,
}

/// A German admin in a server whose Discord is English.
const GERMAN_ADMIN: Who = Who {
    user: ALICE,
    locale: "de",
    guild_locale: Some("en-US"),
    admin: true,
};

/// The same member without the right to change the server's things, and in DMs.
const GERMAN_MEMBER: Who = Who {
    admin: false,
    ..GERMAN_ADMIN
};
const GERMAN_IN_DMS: Who = Who {
    guild_locale: None,
    ..GERMAN_ADMIN
};

/// Alice and Bob, German, in a German server.
const ALICE_DE: Who = Who {
    user: ALICE,
    locale: "de",
    guild_locale: Some("de"),
    admin: false,
};
const BOB_DE: Who = Who {
    user: BOB,
    ..ALICE_DE
};

impl Who {
    fn request(self, table: &Table, kind: RequestKind) -> Request {
        let guild = self.guild_locale.map(|_| GUILD);
        let mut request = table.harness.request(self.user, guild, kind);
        request.locale = Some(self.locale.to_owned());
        request.guild_locale = self.guild_locale.map(str::to_owned);
        if self.admin && guild.is_some() {
            request.member = Some(tavern::core::Member {
                permissions: Permissions(Permissions::MANAGE_GUILD),
                roles: vec![],
            });
        }
        request
    }
}

async fn send(table: &mut Table, who: Who, kind: RequestKind) -> Sent {
    table.harness.clock.advance_ms(1);
    let request = who.request(table, kind);
    table.harness.send(&request).await
}

fn attachment(file: &str, size: u64) -> OptionValue {
    OptionValue::Attachment {
        filename: file.to_owned(),
        url: format!("https://cdn.test/{file}"),
        size,
    }
}

fn npc(sub: &str, options: &[(&str, OptionValue)]) -> RequestKind {
    command("npc", &[sub], options)
}

/// How an answer must read: all of it, or how it starts.
enum Expect {
    Is(&'static str),
    Starts(&'static str),
}

impl Expect {
    fn check(&self, case: &str, got: &str) {
        let ok = match self {
            Expect::Is(expected) => got == *expected,
            Expect::Starts(expected) => got.starts_with(expected),
        };
        assert!(ok, "{case}: {got:?}");
    }
}

/// What a member sends and how the private answer must read.
type Case = (&'static str, Who, RequestKind, Expect);

/// Sends each case in turn (later ones see what earlier ones changed).
async fn answer_privately(table: &mut Table, cases: Vec<Case>) {
    for (case, who, kind, expect) in cases {
        let sent = send(table, who, kind).await;
        let answer = sent.interaction();
        assert!(answer.ephemeral, "{case}");
        expect.check(case, &answer.content);
    }
}

#[tokio::test]
async fn npc_admin_answers_in_german() {
    use Expect::{Is, Starts};
    let mut table = Table::new().await;
    let name = |value: &str| ("name", text(value));
    let cases: Vec<Case> = vec![
        (
            "empty list",
            GERMAN_MEMBER,
            npc("list", &[]),
            Is(
                "Hier lebt noch kein NSC. Server-Admins installieren einen mit \
                `/nsc installieren`.",
            ),
        ),
        (
            "in DMs",
            GERMAN_IN_DMS,
            npc("list", &[]),
            Is("NSCs leben auf Servern: Sprich dort mit ihnen."),
        ),
        (
            "not an admin",
            GERMAN_MEMBER,
            install("hawknoz", "shopkeeper.ghul"),
            Is(
                "Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein \
                Server-Admin per `/einstellungen makro-rolle` festlegt) können NSCs installieren, entfernen oder ändern.",
            ),
        ),
        (
            "installed",
            GERMAN_ADMIN,
            install("hawknoz", "shopkeeper.ghul"),
            Is(
                "**Hawknoz** ist installiert (`hawknoz`; Gespräche `c_hawknoz`, \
                `c_townsfolk`). Angesprochen wird der NSC mit `/reden nsc:hawknoz`.",
            ),
        ),
        (
            "replaced",
            GERMAN_ADMIN,
            install("hawknoz", "shopkeeper.ghul"),
            Starts("**Hawknoz** ist ersetzt (`hawknoz`;"),
        ),
        (
            "bad name",
            GERMAN_ADMIN,
            npc("install", &[name("old maud"), ("code", text("CONV c {}"))]),
            Is(
                "`old maud` taugt nicht als Name eines NSC: Nimm 1 bis 32 Buchstaben, \
                Ziffern oder `_`, beginnend mit einem Buchstaben (Skripte nennen den Namen \
                in CHECK_MEMBER). Einen längeren Namen gibst du mit `anzeigename` an.",
            ),
        ),
        (
            "display name too long",
            GERMAN_ADMIN,
            npc(
                "install",
                &[
                    name("maud"),
                    ("display", text(&"M".repeat(33))),
                    ("code", text("CONV c {}")),
                ],
            ),
            Is("Der Anzeigename muss 1 bis 32 Zeichen lang sein."),
        ),
        (
            "not a .ghul file",
            GERMAN_ADMIN,
            npc(
                "install",
                &[name("x"), ("file", attachment("notes.txt", 10))],
            ),
            Is("`notes.txt` ist kein `.ghul`-Skript."),
        ),
        (
            "file and code",
            GERMAN_ADMIN,
            npc(
                "install",
                &[
                    name("x"),
                    ("file", attachment("healer.ghul", 10)),
                    ("code", text("CONV c {}")),
                ],
            ),
            Is("Gib das Skript entweder als Datei oder als Code an, nicht beides."),
        ),
        (
            "no script",
            GERMAN_ADMIN,
            npc("install", &[name("x")]),
            Is("Hänge das Skript als `.ghul`-Datei an (`datei`) oder füge es als `code` ein."),
        ),
        (
            "too large",
            GERMAN_ADMIN,
            npc(
                "install",
                &[name("x"), ("file", attachment("big.ghul", 10_000_000))],
            ),
            Is("Das Skript ist größer als 262.144 Bytes."),
        ),
        (
            "not UTF-8",
            GERMAN_ADMIN,
            npc(
                "install",
                &[name("x"), ("file", attachment("latin1.ghul", 2))],
            ),
            Is("Das Skript ist kein UTF-8-Text."),
        ),
        (
            "unreadable",
            GERMAN_ADMIN,
            npc(
                "install",
                &[name("x"), ("file", attachment("missing.ghul", 2))],
            ),
            Starts("Ich konnte das Skript nicht lesen: "),
        ),
        (
            // npc-core's errors in German, with their lines; the script's words stay.
            "load errors",
            GERMAN_ADMIN,
            install("broken", "broken.ghul"),
            Is(
                "`broken` wurde nicht installiert: Das Skript hat 2 Fehler.\n```\n\
                CONV c { NATIVE { HAIL r_missing } }\n                       ^\n\
                Zeile 1: NATIVE nennt die unbekannte Antwort `r_missing`\n\n\
                RESP r { say \"hi\" }\n         ^\n\
                Zeile 2: Erwartet wird eine Anweisung der Antwort oder `}`, gefunden wurde \
                `say` (Groß- und Kleinschreibung zählt: schreib `SAY`)\n```",
            ),
        ),
        (
            "activity",
            GERMAN_ADMIN,
            npc(
                "activity",
                &[name("hawknoz"), ("code", OptionValue::Integer(-2))],
            ),
            Is(
                "`hawknoz` hat jetzt den Aktivitätscode -2; laufende Gespräche merken es ab \
                der nächsten Antwort.",
            ),
        ),
        (
            "activity out of range",
            GERMAN_ADMIN,
            npc(
                "activity",
                &[
                    name("hawknoz"),
                    ("code", OptionValue::Integer(5_000_000_000)),
                ],
            ),
            Is("Der Aktivitätscode muss in 32 Bit passen."),
        ),
        (
            "list",
            GERMAN_MEMBER,
            npc("list", &[]),
            Is("NSCs hier (1):\n- **Hawknoz** (`hawknoz`), Aktivität -2\n\
                Sprich mit einem über `/reden nsc:NAME`."),
        ),
        (
            "no such NPC",
            GERMAN_ADMIN,
            npc("remove", &[name("nobody")]),
            Is("Hier gibt es keinen NSC namens `nobody`. `/nsc liste` zeigt, wer hier lebt."),
        ),
        (
            "unknown subcommand",
            GERMAN_ADMIN,
            npc("fly", &[]),
            // One answer for every command the table dispatches by subcommand.
            Is("`/nsc fly` gibt es nicht."),
        ),
        (
            "removed",
            GERMAN_ADMIN,
            npc("remove", &[name("hawknoz")]),
            Is(
                "`hawknoz` ist entfernt. Seine offenen Gespräche sind beendet; was an Flags \
                und Parametern erspielt wurde, bleibt.",
            ),
        ),
    ];
    answer_privately(&mut table, cases).await;
}

#[tokio::test]
async fn a_conversation_speaks_the_servers_language_and_answers_privately_in_the_players() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    table.install("avra", "healer.ghul").await;

    let refused = send(&mut table, ALICE_DE, talk("hawknoz")).await;
    assert_eq!(
        refused.interaction().content,
        "Um mit Hawknoz zu reden, brauchst du hier einen Charakter: Erstelle einen mit \
         `/generator starten`."
    );
    character(table.storage(), 1, ALICE, "Udo", 120).await;
    let no_conv = command(
        "talk",
        &[],
        &[("npc", text("hawknoz")), ("conv", text("nope"))],
    );
    let refused = send(&mut table, ALICE_DE, no_conv).await;
    assert_eq!(
        refused.interaction().content,
        "Hawknoz hat kein Gespräch `nope`; es gibt: `c_hawknoz`, `c_townsfolk`."
    );

    // The greeting: private German, public German (the server's Discord language).
    let hail = send(&mut table, ALICE_DE, talk("hawknoz")).await;
    assert_eq!(
        hail.interaction().content,
        "Du sprichst mit Hawknoz als **Udo**. Antworte mit den Buttons unter der Nachricht \
         von Hawknoz oder per Antwort auf sie."
    );
    assert_eq!(
        said(&hail),
        "*Alice spricht Hawknoz an.*\nHawknoz: Welcome to my forge, stranger."
    );
    assert_eq!(buttons(&hail), ["Hawknoz fragen…", "Tschüss"]);
    let ask = send(
        &mut table,
        ALICE_DE,
        press(button(&hail, "Hawknoz fragen…")),
    )
    .await;
    let form = modal(&ask);
    assert_eq!(
        (form.title.as_str(), form.inputs[0].label.as_str()),
        ("Gespräch mit Hawknoz", "Fragen nach…")
    );
    assert_eq!(
        form.inputs[0].placeholder.as_deref(),
        Some("Ein Wort, z. B. name, job, trade – oder tschüss")
    );

    // Someone else's buttons, in Bob's language.
    let foreign = send(&mut table, BOB_DE, press(button(&hail, "Tschüss"))).await;
    assert_eq!(
        foreign.interaction().content,
        "Das ist das Gespräch von Alice; beginne dein eigenes mit `/reden`."
    );

    // A trade: the wares and the hint, selects, buttons and forms.
    let shop = send(&mut table, ALICE_DE, submit(&form, "wares")).await;
    assert!(
        said(&shop).ends_with(
            "*Zu verkaufen:* iron helm 80 Gold · short sword 40 Gold · arrow 3 Gold · \
             light potion 10 Gold\n\
             *Sag kaufe WARE [N], verkaufe WARE [N] oder fertig.*\n\
             *Dein Gold:* 120 · *du kannst verkaufen:* nichts, was hier angekauft wird"
        ),
        "{}",
        said(&shop)
    );
    assert_eq!(
        buttons(&shop),
        ["Kaufen…", "Verkaufen…", "Fertig", "Weggehen"]
    );
    let select = &selects(&shop)[0];
    assert_eq!(
        select.placeholder,
        "Wähle eine Ware, dann Kaufen oder Verkaufen"
    );
    let descriptions: Vec<_> = select
        .options
        .iter()
        .map(|option| option.description.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        descriptions,
        [
            "80 Gold; Rückkauf für 20",
            "40 Gold; Rückkauf für 10",
            "3 Gold",
            "10 Gold; Rückkauf für 2"
        ]
    );
    let hint = send(&mut table, ALICE_DE, press(button(&shop, "Kaufen…"))).await;
    assert_eq!(
        hint.interaction().content,
        "Wähle zuerst eine Ware aus der Liste."
    );
    send(&mut table, ALICE_DE, choose(&shop, "short sword")).await;
    let opened = send(&mut table, ALICE_DE, press(button(&shop, "Kaufen…"))).await;
    let form = modal(&opened);
    assert_eq!(
        (form.title.as_str(), form.inputs[0].label.as_str()),
        ("short sword: wie viele kaufen?", "Anzahl (je 40 Gold)")
    );
    let typo = send(&mut table, ALICE_DE, submit(&form, "viele")).await;
    assert_eq!(
        typo.interaction().content,
        "Gib die Anzahl als ganze Zahl an, z. B. 3."
    );
    let bought = send(&mut table, ALICE_DE, submit(&form, "2")).await;
    // The player's line is what the NPC understood: its trade words stay.
    assert_eq!(
        said(&bought),
        "> **Alice:** buy short sword 2\n*Du kaufst 2× short sword für 80 Gold.*\n\
         *Dein Gold:* 40 · *du kannst verkaufen:* 2× short sword (je 10 Gold)"
    );
    let stale = send(&mut table, ALICE_DE, press(button(&shop, "Fertig"))).await;
    assert_eq!(
        stale.interaction().content,
        "Diese Frage ist schon beantwortet."
    );
    let lines = [
        (
            "buy arrow 20",
            "*Du kaufst 13× arrow für 39 Gold.* *Dein Gold reicht für 13 von 20.*",
        ),
        (
            "sell arrow",
            "*Hawknoz kauft arrow nicht an: Es kostet 3 Gold, und Hawknoz zahlt ein Viertel \
             davon, abgerundet: nichts.*",
        ),
        (
            "sell gem",
            "*Hawknoz kauft gem nicht an: Hawknoz kauft nur zurück, was Hawknoz selbst \
             verkauft.*",
        ),
        (
            "sell short sword 1",
            "*Du verkaufst 1× short sword für 10 Gold.*",
        ),
        ("dance", "*Sag kaufe, verkaufe oder fertig.*"),
    ];
    let mut last = bought;
    for (line, expected) in lines {
        let sent = send(
            &mut table,
            ALICE_DE,
            reply_to(last.prompt_message.unwrap(), line),
        )
        .await;
        assert!(said(&sent).contains(expected), "{line}: {}", said(&sent));
        last = sent;
    }
    let walked = send(&mut table, ALICE_DE, press(button(&last, "Weggehen"))).await;
    let Reply::Edit { message, .. } = &walked.replies[0] else {
        panic!("an edit: {:#?}", walked.replies);
    };
    assert!(message.content.ends_with("\n*Alice geht davon.*"));
    let ended = send(&mut table, ALICE_DE, press(button(&last, "Fertig"))).await;
    assert_eq!(
        ended.interaction().content,
        "Dieses Gespräch ist beendet. `/reden` beginnt ein neues."
    );

    // Yes/no, a menu with costs, an amount.
    let hail = send(&mut table, ALICE_DE, talk("avra")).await;
    let asked = send(
        &mut table,
        ALICE_DE,
        reply_to(hail.prompt_message.unwrap(), "heal"),
    )
    .await;
    assert!(
        said(&asked).ends_with("\n*Ja oder nein?*"),
        "{}",
        said(&asked)
    );
    assert_eq!(buttons(&asked), ["Ja", "Nein", "Weggehen"]);
    let menu = send(&mut table, ALICE_DE, press(button(&asked, "Ja"))).await;
    assert!(
        said(&menu).ends_with(
            "*Wähle:* Heal (30 Gold) · Cure poison (50 Gold) · Bless (100 Gold) · Donate · Done"
        ),
        "{}",
        said(&menu)
    );
    let select = &selects(&menu)[0];
    assert_eq!(select.placeholder, "Auswählen…");
    assert_eq!(select.options[0].description.as_deref(), Some("30 Gold"));
    let healed = send(&mut table, ALICE_DE, choose(&menu, "Heal")).await;
    let poor = send(&mut table, ALICE_DE, choose(&healed, "Bless")).await;
    assert!(
        said(&poor).contains("*Du kannst dir Bless nicht leisten.*"),
        "{}",
        said(&poor)
    );
    let donate = send(&mut table, ALICE_DE, choose(&poor, "Donate")).await;
    assert!(
        said(&donate).ends_with("\n*Wie viel?*"),
        "{}",
        said(&donate)
    );
    assert_eq!(buttons(&donate), ["Antworten…", "Weggehen"]);
    let opened = send(&mut table, ALICE_DE, press(button(&donate, "Antworten…"))).await;
    let form = modal(&opened);
    assert_eq!(
        (
            form.title.as_str(),
            form.inputs[0].label.as_str(),
            form.inputs[0].placeholder.as_deref()
        ),
        (
            "Gespräch mit Avra",
            "Wie viel?",
            Some("eine ganze Zahl, z. B. 10")
        )
    );
    let given = send(&mut table, ALICE_DE, submit(&form, "1")).await;
    let done = send(&mut table, ALICE_DE, choose(&given, "Done")).await;
    assert!(
        said(&done).ends_with("Avra: Go in peace."),
        "{}",
        said(&done)
    );
}

#[tokio::test]
async fn a_german_player_in_an_english_server_reads_the_table_in_english() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    let german_in_english = Who {
        guild_locale: Some("en-US"),
        ..ALICE_DE
    };
    let hail = send(&mut table, german_in_english, talk("avra")).await;
    assert!(
        hail.interaction()
            .content
            .starts_with("Du sprichst mit Avra als **Udo**."),
        "{}",
        hail.interaction().content
    );
    assert_eq!(
        said(&hail),
        "*Alice talks to Avra.*\nAvra: Peace be with you, traveler."
    );
    assert_eq!(buttons(&hail), ["Ask Avra…", "Bye"]);
    // The form is the player's own: German.
    let ask = send(
        &mut table,
        german_in_english,
        press(button(&hail, "Ask Avra…")),
    )
    .await;
    assert_eq!(modal(&ask).title, "Gespräch mit Avra");

    // The reverse: an English player at a table set to German reads German in the
    // channel and English in private.
    let english_in_german = Who {
        user: BOB,
        locale: "en-US",
        guild_locale: Some("de"),
        admin: false,
    };
    character(table.storage(), 2, BOB, "Hilde", 10).await;
    let hail = send(&mut table, english_in_german, talk("avra")).await;
    assert!(
        hail.interaction()
            .content
            .starts_with("You talk to Avra as **Hilde**."),
        "{}",
        hail.interaction().content
    );
    assert!(said(&hail).starts_with("*Bob spricht Avra an.*"));
    assert_eq!(buttons(&hail), ["Avra fragen…", "Tschüss"]);
}

#[tokio::test]
async fn an_idle_conversation_ends_in_the_servers_stored_language() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    let set = command("config", &["language"], &[("language", text("de"))]);
    send(&mut table, GERMAN_ADMIN, set).await;
    // Alice's Discord and the server's are English; the server chose German.
    let english = Who {
        locale: "en-US",
        guild_locale: Some("en-US"),
        ..ALICE_DE
    };
    let hail = send(&mut table, english, talk("avra")).await;
    assert!(said(&hail).starts_with("*Alice spricht Avra an.*"));
    table.harness.clock.advance_ms(16 * 60_000);
    let notices = table.harness.core.sweep().await.unwrap();
    let [Reply::Edit { message, .. }] = notices.as_slice() else {
        panic!("one edit: {notices:#?}");
    };
    assert!(
        message.content.ends_with("\n*Alice geht davon.*"),
        "{}",
        message.content
    );
}

/// An innkeeper who asks yes or no, trades and says goodbye, and a second
/// conversation whose author made `tschuess` a keyword of their own.
const INNKEEPER: &str = r#"
CONV c_wirt { NATIVE { HAIL r_hail ROOM r_room WARES r_wares BYE r_bye } }
CONV c_eigen { NATIVE { HAIL r_hail TSCHUESS r_own BYE r_bye } }
RESP r_hail { SAY "Welcome." }
RESP r_bye { SAY "Farewell." }
RESP r_own { SAY "Tschuess is my own word." }
RESP r_room { SAY "A room?" GET_YES_NO { SAY "Good." } { SAY "Pity." } }
RESP r_wares { TRADE { t_arrow 4 t_sword 40 } SAY "Come again." }
"#;

/// A line a player types in reply to the NPC, and what the channel then reads
/// (a part of it).
type Line = (&'static str, &'static str);

/// `who` talks to the innkeeper through `conv`, line by line, each a reply to the
/// NPC's last message.
async fn converse(table: &mut Table, who: Who, conv: &str, lines: &[Line]) {
    let start = command("talk", &[], &[("npc", text("wirt")), ("conv", text(conv))]);
    let mut last = send(table, who, start).await;
    for (line, expected) in lines {
        let message = last
            .prompt_message
            .unwrap_or_else(|| panic!("{line}: the conversation is over: {}", said(&last)));
        let sent = send(table, who, reply_to(message, line)).await;
        assert!(said(&sent).contains(expected), "{line}: {}", said(&sent));
        last = sent;
    }
}

#[tokio::test]
async fn german_players_say_the_npcs_words_in_german() {
    let mut table = Table::new().await;
    let install = npc(
        "install",
        &[("name", text("wirt")), ("code", text(INNKEEPER))],
    );
    send(&mut table, GERMAN_ADMIN, install).await;
    character(table.storage(), 1, ALICE, "Udo", 200).await;
    character(table.storage(), 2, BOB, "Hilde", 200).await;

    // A German player at a German table: each German word where the NPC waits for
    // it, any case, with or without umlauts; English still works.
    let german: &[Line] = &[
        ("room", "*Ja oder nein?*"),
        ("vielleicht", "*Bitte antworte mit „ja“ oder „nein“.*"),
        ("JA", "Good."),
        ("room", "A room?"),
        ("Nein", "Pity."),
        ("room", "A room?"),
        ("j", "Good."),
        ("room", "A room?"),
        ("n", "Pity."),
        ("room", "A room?"),
        ("yes", "Good."),
        // At the keyword prompt `ja` is just a word the innkeeper does not know.
        ("ja", "*Keine Antwort.*"),
        (
            "wares",
            "*Sag kaufe WARE [N], verkaufe WARE [N] oder fertig.*",
        ),
        // The player's line stays as typed; the NPC understood `buy arrow 3`.
        (
            "kaufe arrow 3",
            "> **Alice:** kaufe arrow 3\n*Du kaufst 3× arrow für 12 Gold.*",
        ),
        ("Kaufen  sword", "*Du kaufst 1× sword für 40 Gold.*"),
        ("verkaufe sword", "*Du verkaufst 1× sword für 10 Gold.*"),
        ("VERKAUFEN arrow 2", "*Du verkaufst 2× arrow für 2 Gold.*"),
        ("buy arrow 1", "*Du kaufst 1× arrow für 4 Gold.*"),
        ("sell arrow", "*Du verkaufst 1× arrow für 1 Gold.*"),
        // Trading waits for trade words only.
        ("tschüss", "*Sag kaufe, verkaufe oder fertig.*"),
        ("ja", "*Sag kaufe, verkaufe oder fertig.*"),
        ("Fertig", "Come again."),
        ("wares", "*Zu verkaufen:*"),
        ("done", "Come again."),
        ("Tschüß!", "Farewell."),
    ];
    converse(&mut table, ALICE_DE, "c_wirt", german).await;
    for farewell in ["tschüss", "Tschüs", "TSCHUESS", "tschuss Wirt", "bye"] {
        converse(&mut table, ALICE_DE, "c_wirt", &[(farewell, "Farewell.")]).await;
    }

    // The author's own keyword wins over the German farewell (by the engine's
    // four-letter rule, so `tschüss` finds TSCHUESS); `bye` still leaves.
    let own_keyword: &[Line] = &[
        ("tschüss", "Tschuess is my own word."),
        ("Tschuess", "Tschuess is my own word."),
        ("bye", "Farewell."),
    ];
    converse(&mut table, ALICE_DE, "c_eigen", own_keyword).await;

    // A German player at an English table reads English hints and may still say
    // German words; an English player at a German table reads German hints, so the
    // German words work for them too. English players at an English table: the
    // engine's words only, as ever.
    let german_in_english = Who {
        guild_locale: Some("en-US"),
        ..ALICE_DE
    };
    let english_in_german = Who {
        locale: "en-US",
        ..BOB_DE
    };
    let english = Who {
        guild_locale: Some("en-US"),
        ..english_in_german
    };
    let mixed_and_english: [(Who, &[Line]); 3] = [
        (
            german_in_english,
            &[
                ("room", "*Yes or no?*"),
                ("ja", "Good."),
                ("wares", "*Say buy ITEM [N], sell ITEM [N] or done.*"),
                ("kaufe arrow", "*You buy 1 arrow for 4 gold.*"),
                ("fertig", "Come again."),
                ("tschuess", "Farewell."),
            ],
        ),
        (
            english_in_german,
            &[
                ("room", "*Ja oder nein?*"),
                ("nein", "Pity."),
                ("wares", "*Zu verkaufen:*"),
                ("verkaufe arrow", "*Davon hast du nichts: arrow.*"),
                ("buy arrow 2", "*Du kaufst 2× arrow für 8 Gold.*"),
                ("verkaufe arrow", "*Du verkaufst 1× arrow für 1 Gold.*"),
                ("done", "Come again."),
                ("tschüs", "Farewell."),
            ],
        ),
        (
            english,
            &[
                ("tschüss", "*No reply.*"),
                ("room", "*Yes or no?*"),
                ("ja", "*Please answer yes or no.*"),
                ("Y", "Good."),
                ("wares", "*Say buy ITEM [N], sell ITEM [N] or done.*"),
                ("kaufe arrow", "*Say buy, sell or done.*"),
                ("fertig", "*Say buy, sell or done.*"),
                ("DONE", "Come again."),
                ("tschüss", "*No reply.*"),
                ("Bye", "Farewell."),
            ],
        ),
    ];
    for (who, lines) in mixed_and_english {
        converse(&mut table, who, "c_wirt", lines).await;
    }
}

const EFFECTS: &str = include_str!("../../npc-core/scripts/effects.ghul");

#[tokio::test]
async fn effect_answers_in_german() {
    use Expect::{Is, Starts};
    let mut table = Table::new().await;
    let effect = |sub: &str, options: &[(&str, OptionValue)]| command("effect", &[sub], options);
    let code = |source: &str| ("code", text(source));
    let cases: Vec<Case> = vec![
        (
            "no file",
            GERMAN_MEMBER,
            effect("list", &[]),
            Is(
                "Dieser Server hat keine Effektdatei. Server-Admins installieren eine mit \
                `/effekt installieren`.",
            ),
        ),
        (
            "in DMs",
            GERMAN_IN_DMS,
            effect("list", &[]),
            Is("Das gehört zu einem Server; nutze es dort."),
        ),
        (
            "not an admin",
            GERMAN_MEMBER,
            effect("install", &[code(EFFECTS)]),
            Is(
                "Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein \
                Server-Admin per `/einstellungen makro-rolle` festlegt) können Effekte installieren oder entfernen.",
            ),
        ),
        (
            "not a .ghul file",
            GERMAN_ADMIN,
            effect("install", &[("file", attachment("notes.txt", 10))]),
            Is("`notes.txt` ist keine `.ghul`-Effektdatei."),
        ),
        (
            "load errors",
            GERMAN_ADMIN,
            effect("install", &[code("EFFECT Cold { subject Nope value 1 }")]),
            Is(
                "`effects` wurde nicht installiert: Die Effektdatei hat 3 Fehler.\n```\n\
                EFFECT Cold { subject Nope value 1 }\n^\n\
                Zeile 1: EFFECT Cold hat kein `target_type` (target_type, subject und value \
                sind Pflicht)\n\n\
                EFFECT Cold { subject Nope value 1 }\n^\n\
                Zeile 1: EFFECT Cold hat kein `value` (target_type, subject und value sind \
                Pflicht)\n\n\
                EFFECT Cold { subject Nope value 1 }\n                     ^\n\
                Zeile 1: Unbekanntes subject `Nope value 1` (bekannt: HitPoints, ManaPoints, \
                Strength, Dexterity, Intelligence, Wisdom, Constitution, Charisma, ArmorClass, \
                Experience, Level, Speed, Field0, Field1, Field2, Field3, Field4, Field5, \
                Field6, Field7, Field8, Field9, Flags, Immunity, Alignment, Protections, Dead, \
                LoseTurn, Occupation, Species, Existence)\n```",
            ),
        ),
        (
            // A value that fits no form of its subject, and a dice expression
            // dice-core refuses (its reason worded as dice errors are), in German.
            "value errors",
            GERMAN_ADMIN,
            effect(
                "install",
                &[code(
                    "EFFECT Cold {\ntarget_type Character\nsubject HitPoints\nvalue x\n}\n\
                     EFFECT Hot {\ntarget_type Character\nsubject HitPoints\nvalue 1d\n}",
                )],
            ),
            Is(
                "`effects` wurde nicht installiert: Die Effektdatei hat 2 Fehler.\n```\n\
                value x\n     ^\nZeile 4: Der Wert `x` passt nicht zum subject HitPoints (INT: \
                +N, -N, =N, *N, /N oder N, N eine ganze Zahl oder Würfel)\n\n\
                value 1d\n     ^\nZeile 9: Der Würfelausdruck `1d` wird abgelehnt: Am Ende fehlt \
                etwas: ich erwarte die Seitenzahl der Würfel (eine Zahl, `%`, `F`, `(` oder \
                `{`)\n```",
            ),
        ),
        (
            "installed",
            GERMAN_ADMIN,
            effect("install", &[code(EFFECTS)]),
            Is(
                "Die Effektdatei dieses Servers ist installiert: 9 Effekte (Fireball, \
                Poison, CurePoison, FireWard, PoisonImmunity, SlimeSplit, Stun, Weakness, \
                Heal) und 5 Elemente.",
            ),
        ),
        (
            "replaced",
            GERMAN_ADMIN,
            effect("install", &[code(EFFECTS)]),
            Starts("Die Effektdatei dieses Servers ist ersetzt: 9 Effekte"),
        ),
        (
            "list",
            GERMAN_MEMBER,
            effect("list", &[]),
            Starts("Die Effekte dieses Servers (installiert von Alice am "),
        ),
        (
            "no such effect",
            GERMAN_MEMBER,
            effect("show", &[("name", text("Nope"))]),
            Starts("Es gibt keinen Effekt `Nope`; die Effekte sind: Fireball, Poison"),
        ),
        (
            "remove what",
            GERMAN_ADMIN,
            effect("remove", &[]),
            Is(
                "Nenne den Effekt, der weg soll, oder sag `alles:True`, um die ganze Datei \
                zu entfernen.",
            ),
        ),
        (
            "removed one",
            GERMAN_ADMIN,
            effect("remove", &[("name", text("Fireball"))]),
            Is("Der Effekt `Fireball` ist entfernt."),
        ),
        (
            "unknown subcommand",
            GERMAN_ADMIN,
            effect("fly", &[]),
            // One answer for every command the table dispatches by subcommand.
            Is("`/effekt fly` gibt es nicht."),
        ),
        (
            "removed all",
            GERMAN_ADMIN,
            effect("remove", &[("everything", OptionValue::Boolean(true))]),
            Is("Die Effektdatei dieses Servers ist entfernt."),
        ),
    ];
    answer_privately(&mut table, cases).await;
    let listed = send(&mut table, GERMAN_MEMBER, effect("list", &[])).await;
    assert!(
        listed
            .interaction()
            .content
            .starts_with("Dieser Server hat keine Effektdatei.")
    );

    // The paste form, and an NPC left without its effect.
    let form = send(&mut table, GERMAN_ADMIN, effect("install", &[])).await;
    let form = modal(&form);
    assert_eq!(
        (form.title.as_str(), form.inputs[0].label.as_str()),
        ("Effektdatei", "ELEMENTS- und EFFECT-Deklarationen")
    );
    let empty = send(&mut table, GERMAN_ADMIN, submit(&form, "  ")).await;
    assert_eq!(empty.interaction().content, "Die Effektdatei ist leer.");
    send(&mut table, GERMAN_ADMIN, submit(&form, EFFECTS)).await;
    let caster = "CONV c { NATIVE { HAIL r } }\nRESP r { APPLY_EFFECT Stun SAY \"Hm.\" }\n";
    let installed = send(
        &mut table,
        GERMAN_ADMIN,
        npc("install", &[("name", text("caster")), code(caster)]),
    )
    .await;
    assert!(
        installed
            .interaction()
            .content
            .starts_with("**Caster** ist installiert")
    );
    let removed = send(
        &mut table,
        GERMAN_ADMIN,
        effect("remove", &[("name", text("Stun"))]),
    )
    .await;
    assert_eq!(
        removed.interaction().content,
        "Der Effekt `Stun` ist entfernt.\nDiese NSCs wenden Effekte an, die in der Datei \
         fehlen und darum nichts mehr bewirken: `caster`."
    );
}

// ----- Discord's limits with the longest inputs -----

/// The longest name, display name and player name Discord and Tavern allow, each
/// made of characters Discord's markdown needs escaped (so twice as long shown).
fn longest(chars: usize) -> String {
    "*_".repeat(chars / 2)
}

/// Every message of `npc.ftl` and `effect.ftl` that fills a component, a form or a
/// file's description, with its longest arguments, within Discord's limit for that
/// place, in both languages (cutting is a last resort, never the plan).
#[test]
fn every_labelled_text_fits_its_place_in_both_languages() {
    let npc_display = "W".repeat(60); // the Ask button takes 60 characters of the name
    let item = "I".repeat(20);
    let price = i64::from(i32::MAX);
    let cases = [
        (
            "npc-button-ask",
            vec![("npc", npc_display.as_str().into())],
            80,
        ),
        ("npc-button-bye", vec![], 80),
        ("npc-button-yes", vec![], 80),
        ("npc-button-no", vec![], 80),
        ("npc-button-answer", vec![], 80),
        ("npc-button-buy", vec![], 80),
        ("npc-button-sell", vec![], 80),
        ("npc-button-done", vec![], 80),
        ("npc-button-leave", vec![], 80),
        ("npc-menu-placeholder", vec![], 150),
        ("npc-trade-placeholder", vec![], 150),
        ("npc-option-cost", vec![("price", price.into())], 100),
        (
            "npc-option-sells-back",
            vec![("price", price.into()), ("sell_price", price.into())],
            100,
        ),
        ("npc-modal-title", vec![("npc", "W".repeat(32).into())], 45),
        ("npc-ask-label", vec![], 45),
        ("npc-ask-placeholder", vec![], 100),
        ("npc-amount-label", vec![], 45),
        ("npc-amount-placeholder", vec![], 100),
        ("npc-quantity-label", vec![("price", price.into())], 45),
        ("effect-paste-title", vec![], 45),
        ("effect-paste-label", vec![], 45),
        ("npc-too-long-description", vec![], 1024),
        ("npc-load-file-description", vec![], 1024),
        // Names a ware of any length and is cut by design; its own words leave room
        // for a name of 20 characters.
        (
            "npc-quantity-title",
            vec![("item", item.as_str().into()), ("action", "sell".into())],
            45,
        ),
    ];
    for lang in Lang::ALL {
        for (key, args, limit) in &cases {
            let shown = i18n::tr_args(lang, key, args);
            let count = shown.chars().count();
            assert!(
                (1..=*limit).contains(&count),
                "{lang:?} {key}: {count} > {limit}: {shown}"
            );
        }
    }
}

/// A conversation and the admin commands through the core with the longest names:
/// nothing reaches Discord's limits by being cut (the harness checks the limits
/// themselves), so each answer still ends as the catalogue wrote it.
#[tokio::test]
async fn the_longest_names_fit_without_cuts_in_german() {
    let mut table = Table::new().await;
    let npc_name = format!("n{}", "x".repeat(31));
    let display = longest(32);
    let source = include_str!("../../npc-core/scripts/healer.ghul");
    let installed = send(
        &mut table,
        GERMAN_ADMIN,
        npc(
            "install",
            &[
                ("name", text(&npc_name)),
                ("display", text(&display)),
                ("code", text(source)),
            ],
        ),
    )
    .await;
    let answer = &installed.interaction().content;
    assert!(
        answer.ends_with(&format!(
            "Angesprochen wird der NSC mit `/reden nsc:{npc_name}`."
        )),
        "{answer}"
    );
    let player = longest(32);
    character(table.storage(), 1, ALICE, &longest(64), 1_000_000_000).await;
    // Alice under the longest display name Discord allows.
    let request_name = |table: &Table, kind: RequestKind| {
        let mut request = ALICE_DE.request(table, kind);
        request.user.name = player.clone();
        request
    };
    let request = request_name(&table, talk(&npc_name));
    table.harness.clock.advance_ms(1);
    let hail = table.harness.send(&request).await;
    let answer = &hail.interaction().content;
    assert!(answer.ends_with("oder per Antwort auf sie."), "{answer}");
    let ask = format!("{} fragen…", display);
    assert!(buttons(&hail).contains(&ask), "{:?}", buttons(&hail));
    let request = request_name(&table, press(button(&hail, &ask)));
    let form = modal(&table.harness.send(&request).await);
    assert_eq!(form.title, format!("Gespräch mit {display}"));
    let request = request_name(&table, reply_to(hail.prompt_message.unwrap(), "heal"));
    let asked = table.harness.send(&request).await;
    let request = request_name(&table, press(button(&asked, "Ja")));
    let menu = table.harness.send(&request).await;
    let shown = said(&menu);
    assert!(shown.ends_with("Donate · Done"), "{shown}");
    let select = selects(&menu).into_iter().next().expect("a menu");
    let descriptions: Vec<_> = select
        .options
        .iter()
        .filter_map(|option| option.description.as_deref())
        .collect();
    assert_eq!(descriptions, ["30 Gold", "50 Gold", "100 Gold"]);
    assert_eq!(buttons(&menu), ["Weggehen"]);
}

/// `/effect list` of a large file, installed by a member with the longest name:
/// the declarations give way to the heading, the footer stays whole.
#[tokio::test]
async fn the_longest_effect_list_fits_without_cuts_in_german() {
    let mut table = Table::new().await;
    let elements: Vec<String> = (0..40).map(|n| format!("ELEMENT_{n:02}")).collect();
    let mut source = format!("ELEMENTS {{ {} }}\n", elements.join(" "));
    for n in 0..80 {
        source.push_str(&format!(
            "EFFECT Effect{n:02} {{\n target_type Character\n subject HitPoints\n value -{n}\n method ({})\n duration 3\n}}\n",
            elements[n % 40]
        ));
    }
    let install = command("effect", &["install"], &[("code", text(&source))]);
    let mut request = GERMAN_ADMIN.request(&table, install);
    request.user.name = longest(32);
    let installed = table.harness.send(&request).await;
    assert!(
        installed.interaction().content.contains("80 Effekte"),
        "{}",
        installed.interaction().content
    );
    for who in [
        GERMAN_MEMBER,
        Who {
            locale: "en-US",
            ..GERMAN_MEMBER
        },
    ] {
        let listed = send(&mut table, who, command("effect", &["list"], &[])).await;
        let content = &listed.interaction().content;
        let footer = if who.locale == "de" {
            "\n`/effekt zeigen name` zeigt einen davon ganz."
        } else {
            "\n`/effect show name` shows one whole."
        };
        assert!(content.ends_with(footer), "{content}");
        assert!(content.chars().count() <= 2000);
    }
}

/// Discord gives a typed reply neither the user's nor the server's locale: on a
/// server left on auto, the turn speaks the server's Discord locale as its last
/// interaction gave it, as a button turn does.
#[tokio::test]
async fn a_typed_reply_on_an_auto_server_speaks_the_servers_last_known_locale() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 120).await;
    let hail = send(&mut table, ALICE_DE, talk("hawknoz")).await;
    table.harness.clock.advance_ms(1);
    // As the Discord adapter builds a reply: no locales at all.
    let mut reply = table.harness.request(
        ALICE,
        Some(GUILD),
        reply_to(hail.prompt_message.unwrap(), "bye"),
    );
    reply.locale = None;
    reply.guild_locale = None;
    let sent = table.harness.send(&reply).await;
    assert_eq!(buttons(&hail), ["Hawknoz fragen…", "Tschüss"]);
    assert!(
        said(&sent).starts_with("> **Alice:** bye"),
        "{}",
        said(&sent)
    );
    assert!(
        !said(&sent).contains("The conversation is over"),
        "{}",
        said(&sent)
    );
    assert!(
        said(&sent).contains("*Das Gespräch ist zu Ende.*"),
        "{}",
        said(&sent)
    );
}

/// Every message id of npc-core's load errors has its text in both catalogues; the
/// English texts say what npc-core's English says, and the German ones are German,
/// with every variable.
#[test]
fn every_load_error_message_has_a_text_in_both_languages() {
    use npc_core::{LoadErrorKind, LoadMessage, MessageArg, MessageId};
    use tavern::core::scripts::{load_message, load_message_key};
    for lang in Lang::ALL {
        assert!(
            i18n::has_message(lang, "npc-load-dice-reason-unknown"),
            "{lang:?}"
        );
    }
    for id in MessageId::ALL {
        let key = load_message_key(*id);
        for lang in Lang::ALL {
            assert!(i18n::has_message(lang, &key), "{key} in {lang:?}");
        }
        // Every parameter the template names, as a number every language writes alike.
        let template = id.english_template();
        let args: Vec<(String, MessageArg)> = template
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}'))
            .filter(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            })
            .map(|(name, _)| (name.to_owned(), MessageArg::Integer(7)))
            .collect();
        let detail = LoadMessage {
            id: *id,
            args: args.clone(),
        };
        let error = npc_core::LoadError {
            line: 3,
            column: 1,
            kind: LoadErrorKind::Syntax,
            message: detail.english(),
            detail: detail.clone(),
        };
        let english = load_message(Lang::En, &error);
        assert_eq!(english, detail.english(), "{key}");
        let german = load_message(Lang::De, &error);
        // A phrase with no words of its own (a token in backticks) reads alike.
        let own_words = args
            .iter()
            .fold(template.to_owned(), |rest, (name, _)| {
                rest.replace(&format!("{{{name}}}"), "")
            })
            .chars()
            .any(|c| c.is_ascii_alphabetic());
        if own_words {
            assert_ne!(german, english, "{key}: German, not English");
        }
        // Fluent shows a variable it lacks as `{$name}`.
        assert!(
            !german.contains("{$") && !german.contains("npc-load"),
            "{key}: {german}"
        );
        let sevens = |text: &str| text.matches('7').count();
        assert_eq!(
            sevens(&german),
            sevens(&english),
            "{key}: every variable: {german}"
        );
    }
}
