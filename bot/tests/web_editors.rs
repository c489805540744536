//! The admins' editors of the web dashboard (issue 25): generators (check, save,
//! record map, default, try), NPC scripts and the effect file (check, save, play),
//! driven in-process through the router. Every route is tried without a session,
//! with another user's session, as a member who may not administer, with another
//! server's ids and without the CSRF token; a refused form stores nothing.

use axum::http::StatusCode;
use tavern::console::{Console, ConsoleIdentity, LineOutcome};
use tavern::core::{Permissions, User};
use tavern::i18n::Lang;

use crate::harness::{ALICE, BOB, GUILD};
use crate::programs::BROKEN;
use crate::web_support::{Answer, Site, encode};

/// A server only Bob is in (and administers).
const BOBS_GUILD: i64 = 501;
const ADMIN: u64 = Permissions::MANAGE_GUILD;

/// A listing that asks a name and records a character.
const SHORT: &str = "10 INPUT \"NAME\"; N$\n20 RECORD \"NAME\", N$, \"HP\", 7\n";
/// A listing without RECORD, for a record map.
const CAPTURED: &str = "10 INPUT \"NAME\"; NA$\n20 ST = 12\n30 PRINT \"DONE\"\n40 END\n";
const GUARD: &str = "CONV c_guard { NATIVE { HAIL r_hail PASS r_pass } }\n\
     RESP r_hail { SAY \"Halt!\" }\n\
     RESP r_pass { CHECK_FLAG 130 { SAY \"Go on.\" } { SAY \"Pay 5.\" TAKE_GOLD 5 SET_FLAG 130 } }\n";
const EFFECTS: &str = include_str!("../../npc-core/scripts/effects.ghul");

impl Site {
    /// Alice, administering the test server.
    async fn admin(&self) -> (String, String) {
        let cookie = self.login(ALICE, &[(GUILD, ADMIN)]).await;
        let csrf = self.get("/servers", Some(&cookie)).await.hidden("csrf");
        (cookie, csrf)
    }

    async fn post_raw(&self, path: &str, cookie: Option<&str>, body: String) -> Answer {
        self.post_raw_in("en", path, cookie, body).await
    }

    /// Saves a listing as the admin: the page.
    async fn save(&self, (cookie, csrf): &(String, String), name: &str, source: &str) -> Answer {
        let path = format!("/servers/{GUILD}/programs/edit");
        let form = [
            ("csrf", csrf.as_str()),
            ("name", name),
            ("source", source),
            ("action", "save"),
        ];
        self.post(&path, Some(cookie), &form).await
    }

    async fn installed(&self, name: &str) -> Option<tavern::storage::ProgramRow> {
        self.harness
            .storage
            .installed_program(GUILD, name)
            .await
            .unwrap()
    }
}

/// The console's player as the test server's admin, typing one line.
async fn console_line(site: &Site, line: &str) -> String {
    let identity = ConsoleIdentity {
        user: User {
            id: ALICE,
            name: "Alice".to_owned(),
        },
        guild_id: GUILD,
        channel_id: 600,
        lang: Lang::En,
    };
    let mut console = Console::new(site.harness.core.clone(), identity);
    match console.line(line).await {
        LineOutcome::Output(text) => text,
        LineOutcome::Quit => "<quit>".to_owned(),
    }
}

/// Every editor page (GET) and form (POST), with ids in the test server.
const PAGES: &[&str] = &[
    "/servers/500/programs",
    "/servers/500/programs/new",
    "/servers/500/programs/short",
    "/servers/500/npcs",
    "/servers/500/npcs/new",
    "/servers/500/npcs/guard",
    "/servers/500/effects",
];
const FORMS: &[&str] = &[
    "/servers/500/programs/edit",
    "/servers/500/programs/default",
    "/servers/500/programs/short/try",
    "/servers/500/npcs/edit",
    "/servers/500/effects",
];

/// What a refused form would have changed, if it were not refused.
fn form_fields<'a>(path: &str, csrf: &'a str) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![("csrf", csrf)];
    if path.ends_with("programs/edit") {
        fields.extend([("name", "intruder"), ("source", SHORT), ("action", "save")]);
    } else if path.ends_with("default") {
        fields.push(("name", "short"));
    } else if path.contains("npcs") {
        fields.extend([("name", "intruder"), ("source", GUARD), ("action", "save")]);
    } else if path.ends_with("effects") {
        fields.extend([("source", EFFECTS), ("action", "save")]);
    }
    fields
}

/// Nothing a refused form could have stored is there.
async fn nothing_stored(site: &Site) {
    let storage = &site.harness.storage;
    assert!(site.installed("intruder").await.is_none());
    assert!(
        storage
            .npc_script(GUILD, "intruder")
            .await
            .unwrap()
            .is_none()
    );
    assert!(storage.effect_library(GUILD).await.unwrap().is_none());
    assert_eq!(storage.default_program(GUILD).await.unwrap(), None);
}

#[tokio::test]
async fn every_editor_route_refuses_strangers_and_stores_nothing() {
    let site = Site::new().await;
    let admin = site.admin().await;
    assert!(
        site.save(&admin, "short", SHORT)
            .await
            .body
            .contains("Installed")
    );
    let npc = site
        .post(
            &format!("/servers/{GUILD}/npcs/edit"),
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("name", "guard"),
                ("source", GUARD),
                ("action", "save"),
            ],
        )
        .await;
    assert!(npc.body.contains("guard"), "{}", npc.body);
    assert!(
        site.harness
            .storage
            .npc_script(GUILD, "guard")
            .await
            .unwrap()
            .is_some()
    );

    // Bob administers his own server only; Carol is a member here without rights.
    let bob = site.login(BOB, &[(BOBS_GUILD, ADMIN)]).await;
    let bob_csrf = site.get("/servers", Some(&bob)).await.hidden("csrf");
    let member = site.login(BOB, &[(GUILD, 0)]).await;
    let member_csrf = site.get("/servers", Some(&member)).await.hidden("csrf");
    for page in PAGES {
        let alone = site.get(page, None).await;
        assert!(alone.status.is_redirection(), "{page}: {}", alone.status);
        assert_eq!(alone.location(), "/", "{page}");
        assert_eq!(
            site.get(page, Some(&bob)).await.status,
            StatusCode::NOT_FOUND,
            "{page}"
        );
        let elsewhere = page.replace("/500/", "/501/");
        let status = site.get(&elsewhere, Some(&bob)).await.status;
        // Bob's own server has neither Alice's program nor her NPC.
        let own = page.ends_with("/short") || page.ends_with("/guard");
        let expected = if own {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::OK
        };
        assert_eq!(status, expected, "{elsewhere}");
        assert_eq!(
            site.get(&elsewhere, Some(&admin.0)).await.status,
            StatusCode::NOT_FOUND
        );
        let refused = site.get(page, Some(&member)).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{page}");
        assert!(
            refused.body.contains("Only members with Manage Server"),
            "{page}"
        );
        assert_eq!(
            site.get(page, Some(&admin.0)).await.status,
            StatusCode::OK,
            "{page}"
        );
    }
    for form in FORMS {
        let alone = site.post(form, None, &form_fields(form, "x")).await;
        assert_eq!(alone.status, StatusCode::UNAUTHORIZED, "{form}");
        let other = site
            .post(form, Some(&bob), &form_fields(form, &bob_csrf))
            .await;
        assert_eq!(other.status, StatusCode::NOT_FOUND, "{form}");
        let member_answer = site
            .post(form, Some(&member), &form_fields(form, &member_csrf))
            .await;
        assert_eq!(member_answer.status, StatusCode::FORBIDDEN, "{form}");
        let no_token = form_fields(form, "");
        let tokenless = site.post(form, Some(&admin.0), &no_token[1..]).await;
        assert_eq!(tokenless.status, StatusCode::FORBIDDEN, "{form}");
        let forged = site
            .post(form, Some(&admin.0), &form_fields(form, "forged"))
            .await;
        assert_eq!(forged.status, StatusCode::FORBIDDEN, "{form}");
        // Alice's own token is no good in Bob's server.
        let elsewhere = form.replace("/500/", "/501/");
        let answer = site
            .post(&elsewhere, Some(&admin.0), &form_fields(form, &admin.1))
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{elsewhere}");
        nothing_stored(&site).await;
    }
    // A GET changes nothing and runs nothing: the forms are POST only.
    let get_form = site.get("/servers/500/programs/edit", Some(&admin.0)).await;
    assert_eq!(get_form.status, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn check_marks_every_syntax_error_and_refusal_at_its_line() {
    let site = Site::new().await;
    let (cookie, csrf) = site.admin().await;
    let path = format!("/servers/{GUILD}/programs/edit");
    let check = |source: &'static str, map: &'static str| {
        let form = [
            ("csrf", csrf.clone()),
            ("name", "broken".to_owned()),
            ("source", source.to_owned()),
            ("map", map.to_owned()),
            ("action", "check".to_owned()),
        ];
        let (cookie, path, site) = (&cookie, &path, &site);
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            site.post(path, Some(cookie), &form).await
        }
    };
    let page = check(BROKEN, "").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("2 syntax errors"), "{}", page.body);
    assert!(
        page.body
            .contains("Row 5 (line 50), column 19:</span> expected an expression"),
        "{}",
        page.body
    );
    // The row itself, the caret under column 19.
    assert!(
        page.body.contains(&format!(
            "<pre class=\"row\">50 PRINT &quot;NEVER&quot; +\n{}^</pre>",
            " ".repeat(18)
        )),
        "{}",
        page.body
    );
    assert!(page.body.contains("Row 6 (line 60)"), "{}", page.body);
    // The editor keeps the listing, with a line-number gutter.
    assert!(
        page.body
            .contains("<pre class=\"gutter\" aria-hidden=\"true\">1\n2\n3\n4\n5\n6\n")
    );
    assert!(
        page.body.contains("60 IF N$ THEN THEN\n</textarea>"),
        "{}",
        page.body
    );

    let refused = check(
        "10 PRINT 1\n20 OPEN \"X\" FOR OUTPUT AS #1\n30 KILL \"Y\"\n",
        "",
    )
    .await;
    assert!(
        refused.body.contains("Why it cannot be installed"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("Row 2 (line 20),"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("OPEN is not allowed here"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("Row 3 (line 30),"),
        "{}",
        refused.body
    );

    let clean = check(SHORT, "").await;
    assert!(
        clean
            .body
            .contains("The listing loads: 2 lines, no syntax errors.")
    );
    let fits = check(CAPTURED, "at 30 NAME=NA$ STR=ST").await;
    assert!(
        fits.body.contains("The record map fits: at 30"),
        "{}",
        fits.body
    );
    let misfit = check(CAPTURED, "at 35 NAME=NA$").await;
    assert!(
        misfit
            .body
            .contains("The record map does not fit the listing:"),
        "{}",
        misfit.body
    );
    assert!(
        site.installed("broken").await.is_none(),
        "a check stores nothing"
    );
}

#[tokio::test]
async fn save_installs_as_the_command_does_and_the_console_sees_it() {
    let site = Site::new().await;
    let admin = site.admin().await;
    // The servers page leads to the editors (they were reached only by URL).
    let servers = site.get("/servers", Some(&admin.0)).await.body;
    for editor in ["programs", "npcs", "effects"] {
        let link = format!("href=\"/servers/{GUILD}/{editor}\"");
        assert!(servers.contains(&link), "{link} in {servers}");
    }
    let saved = site.save(&admin, "short", SHORT).await;
    assert!(
        saved.body.contains("Installed `short` (2 lines"),
        "{}",
        saved.body
    );
    let listed = console_line(&site, "/chargen program list").await;
    assert!(listed.contains("short"), "{listed}");
    let run = console_line(&site, "/chargen start program:short").await;
    assert!(run.contains("NAME"), "{run}");

    // Syntax errors: not stored until confirmed, then stored with them.
    let unconfirmed = site.save(&admin, "dmps", BROKEN).await;
    assert!(
        unconfirmed
            .body
            .contains("Not saved: the listing has syntax errors")
    );
    assert!(unconfirmed.body.contains("Row 5 (line 50), column 19"));
    assert!(site.installed("dmps").await.is_none());
    let form = [
        ("csrf", admin.1.as_str()),
        ("name", "dmps"),
        ("source", BROKEN),
        ("action", "save"),
        ("confirmed", "1"),
    ];
    let path = format!("/servers/{GUILD}/programs/edit");
    let confirmed = site.post(&path, Some(&admin.0), &form).await;
    assert!(
        confirmed
            .body
            .contains("Installed `dmps` (6 lines, 2 syntax errors accepted)"),
        "{}",
        confirmed.body
    );
    let programs = site
        .harness
        .storage
        .installed_programs(GUILD)
        .await
        .unwrap();
    let dmps = programs
        .iter()
        .find(|program| program.name == "dmps")
        .unwrap();
    assert_eq!(dmps.syntax_errors, 2);

    // A browser's CRLF lines are stored as the command stores a file's.
    site.save(&admin, "crlf", &SHORT.replace('\n', "\r\n"))
        .await;
    assert_eq!(site.installed("crlf").await.unwrap().source, SHORT);

    // A record map that does not fit keeps the listing out; one that fits is stored.
    let map_form = |map: &'static str| {
        [
            ("csrf", admin.1.clone()),
            ("name", "cap".to_owned()),
            ("source", CAPTURED.to_owned()),
            ("map", map.to_owned()),
            ("action", "save".to_owned()),
        ]
    };
    let misfit = map_form("at 35 NAME=NA$");
    let misfit: Vec<(&str, &str)> = misfit.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let refused = site.post(&path, Some(&admin.0), &misfit).await;
    assert!(refused.body.contains("does not fit"), "{}", refused.body);
    assert!(site.installed("cap").await.is_none());
    let fits = map_form("at 30 NAME=NA$ STR=ST");
    let fits: Vec<(&str, &str)> = fits.iter().map(|(k, v)| (*k, v.as_str())).collect();
    site.post(&path, Some(&admin.0), &fits).await;
    assert_eq!(
        site.installed("cap").await.unwrap().record_map,
        "at 30 NAME=NA$ STR=ST"
    );
    // The same listing with another map: `/chargen program map`, which brings the
    // characters along; a map that does not fit keeps the old one.
    let remapped = map_form("at 40 NAME=NA$");
    let remapped: Vec<(&str, &str)> = remapped.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let answer = site.post(&path, Some(&admin.0), &remapped).await;
    assert!(
        answer
            .body
            .contains("`cap` maps its characters with `at 40 NAME=NA$` now."),
        "{}",
        answer.body
    );
    assert!(
        answer
            .body
            .contains("Characters it made already read their fields")
    );
    let misfit = site.post(&path, Some(&admin.0), &misfit).await;
    assert!(
        misfit.body.contains("The map was not saved: the program has no line 35. `cap` keeps its map `at 40 NAME=NA$`."),
        "{}",
        misfit.body
    );
    assert_eq!(
        site.installed("cap").await.unwrap().record_map,
        "at 40 NAME=NA$"
    );

    // Refusals the command gives: a shipped name, a bad name.
    let shipped = site.save(&admin, "chargen", SHORT).await;
    assert!(
        shipped
            .body
            .contains("is the name of a program that ships with Tavern; choose another."),
        "{}",
        shipped.body
    );
    assert!(site.installed("chargen").await.is_none());
    let spaced = site.save(&admin, "no spaces", SHORT).await;
    assert!(
        spaced.body.contains("cannot be a program name"),
        "{}",
        spaced.body
    );
    assert!(site.installed("no spaces").await.is_none());

    // The default program, through `/chargen program default`.
    let default = site
        .post(
            &format!("/servers/{GUILD}/programs/default"),
            Some(&admin.0),
            &[("csrf", &admin.1), ("name", "short")],
        )
        .await;
    assert!(
        default.body.contains("runs `short` here now"),
        "{}",
        default.body
    );
    assert_eq!(
        site.harness
            .storage
            .default_program(GUILD)
            .await
            .unwrap()
            .as_deref(),
        Some("short")
    );
    let list = site.get("/servers/500/programs", Some(&admin.0)).await;
    assert!(
        list.body.contains("short</a> <strong>default</strong>"),
        "{}",
        list.body
    );
}

#[tokio::test]
async fn try_runs_the_generator_to_the_end_and_stores_nothing() {
    let site = Site::new().await;
    let admin = site.admin().await;
    site.save(&admin, "short", SHORT).await;
    let path = format!("/servers/{GUILD}/programs/short/try");
    let first = site
        .post(&path, Some(&admin.0), &[("csrf", &admin.1)])
        .await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.contains("NAME?"), "{}", first.body);
    assert!(first.body.contains("name=\"answer\""), "{}", first.body);
    let seed = first.hidden("seed");
    let answers = first.hidden("answers");
    assert_eq!(answers, "[]");
    let end = site
        .post(
            &path,
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("seed", &seed),
                ("answers", &answers),
                ("answer", "Ann <b>"),
            ],
        )
        .await;
    assert!(end.body.contains("The program ended."), "{}", end.body);
    assert!(
        end.body.contains("<th>NAME</th><td>Ann &lt;b&gt;</td>"),
        "{}",
        end.body
    );
    assert!(end.body.contains("<th>HP</th><td>7</td>"), "{}", end.body);
    let characters = site
        .harness
        .storage
        .characters_of(ALICE, GUILD)
        .await
        .unwrap();
    assert!(characters.is_empty(), "a try stores no character");

    // A record map applies to what the run captured.
    let fits = [
        ("csrf", admin.1.as_str()),
        ("name", "cap"),
        ("source", CAPTURED),
        ("map", "at 30 NAME=NA$ STR=ST"),
        ("action", "save"),
    ];
    site.post(
        &format!("/servers/{GUILD}/programs/edit"),
        Some(&admin.0),
        &fits,
    )
    .await;
    let captured = site
        .post(
            &format!("/servers/{GUILD}/programs/cap/try"),
            Some(&admin.0),
            &[("csrf", &admin.1), ("seed", "1"), ("answers", "[\"Bea\"]")],
        )
        .await;
    assert!(
        captured.body.contains("<th>NAME</th><td>Bea</td>"),
        "{}",
        captured.body
    );
    assert!(
        captured.body.contains("<th>STR</th><td>12</td>"),
        "{}",
        captured.body
    );

    // A run-time error is named, not a failure of the page.
    site.save(&admin, "oops", "10 PRINT 1/0\n20 X = Y(99)\n")
        .await;
    let failed = site
        .post(
            &format!("/servers/{GUILD}/programs/oops/try"),
            Some(&admin.0),
            &[("csrf", &admin.1)],
        )
        .await;
    assert_eq!(failed.status, StatusCode::OK);
    assert!(failed.body.contains("The run stopped:"), "{}", failed.body);
}

/// "Try it" on the editor runs the listing in the text area, unsaved: the draft
/// travels with each step, nothing is installed or stored, and the way back brings
/// the draft, not the saved listing.
#[tokio::test]
async fn try_runs_the_unsaved_draft_in_the_text_area_and_stores_nothing() {
    let site = Site::new().await;
    let admin = site.admin().await;
    site.save(&admin, "short", SHORT).await;
    let edit = format!("/servers/{GUILD}/programs/edit");
    let draft = SHORT.replace("\"HP\", 7", "\"HP\", 9");
    let editor = site
        .get(&format!("/servers/{GUILD}/programs/short"), Some(&admin.0))
        .await;
    assert!(
        editor.body.contains("name=\"action\" value=\"try\""),
        "{}",
        editor.body
    );
    let first = site
        .post(
            &edit,
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("name", "short"),
                ("source", &draft),
                ("map", ""),
                ("action", "try"),
            ],
        )
        .await;
    assert_eq!(first.status, StatusCode::OK);
    assert!(first.body.contains("NAME?"), "{}", first.body);
    assert_eq!(first.hidden("source"), draft);
    let (seed, answers) = (first.hidden("seed"), first.hidden("answers"));
    let end = site
        .post(
            &edit,
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("action", "try"),
                ("name", "short"),
                ("source", &draft),
                ("map", ""),
                ("seed", &seed),
                ("answers", &answers),
                ("answer", "Ann"),
            ],
        )
        .await;
    assert!(end.body.contains("The program ended."), "{}", end.body);
    assert!(
        end.body.contains("<th>HP</th><td>9</td>"),
        "the draft ran: {}",
        end.body
    );
    assert!(end.body.contains("Back to the editor with this listing"));
    // Nothing stored: the saved listing is the old one, no character was made.
    assert_eq!(site.installed("short").await.unwrap().source, SHORT);
    let storage = &site.harness.storage;
    assert!(
        storage
            .characters_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_empty()
    );
    // A draft never saved under any name runs too; one over the listing limit does not.
    let unnamed = site
        .post(
            &edit,
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("source", "10 PRINT \"HI\"\n"),
                ("action", "try"),
            ],
        )
        .await;
    assert!(
        unnamed.body.contains("<pre class=\"screen\">HI"),
        "{}",
        unnamed.body
    );
    assert!(
        unnamed.body.contains("The program ended."),
        "{}",
        unnamed.body
    );
    assert!(site.installed("").await.is_none());
    let limit = site.harness.core.settings().max_program_bytes;
    let huge = format!("10 REM {}\n", "x".repeat(limit));
    let refused = site
        .post(
            &edit,
            Some(&admin.0),
            &[("csrf", &admin.1), ("source", &huge), ("action", "try")],
        )
        .await;
    assert!(
        refused.body.contains("The run stopped:"),
        "{}",
        refused.body
    );
}

#[tokio::test]
async fn npc_and_effect_editors_check_save_and_play() {
    let site = Site::new().await;
    let (cookie, csrf) = site.admin().await;
    let npc_path = format!("/servers/{GUILD}/npcs/edit");
    let broken = "CONV c { NATIVE { HAIL r } }\n\nRESP q { SAY \"x\" }\n";
    let checked = site
        .post(
            &npc_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("name", "guard"),
                ("source", broken),
                ("action", "check"),
            ],
        )
        .await;
    assert!(checked.body.contains("load error"), "{}", checked.body);
    assert!(checked.body.contains("Line 1, column"), "{}", checked.body);
    assert!(
        checked.body.contains("unknown response `r` in NATIVE"),
        "{}",
        checked.body
    );
    assert!(
        checked
            .body
            .contains("<pre class=\"row\">CONV c { NATIVE { HAIL r } }\n")
    );
    let not_saved = site
        .post(
            &npc_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("name", "guard"),
                ("source", broken),
                ("action", "save"),
            ],
        )
        .await;
    assert!(not_saved.body.contains("Not saved"), "{}", not_saved.body);
    assert!(
        site.harness
            .storage
            .npc_script(GUILD, "guard")
            .await
            .unwrap()
            .is_none()
    );

    let played = site
        .post(
            &npc_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("name", "guard"),
                ("source", GUARD),
                ("action", "play"),
                (
                    "play",
                    "@gold 7\r\n@talk guard c_guard The Guard\r\npass\r\npass\r\n",
                ),
            ],
        )
        .await;
    assert!(
        played.body.contains(
            "The Guard: Halt!\n&gt; pass\nThe Guard: Pay 5.\n&gt; pass\nThe Guard: Go on."
        ),
        "{}",
        played.body
    );
    assert!(
        site.harness
            .storage
            .npc_script(GUILD, "guard")
            .await
            .unwrap()
            .is_none()
    );

    let saved = site
        .post(
            &npc_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("name", "guard"),
                ("source", GUARD),
                ("action", "save"),
            ],
        )
        .await;
    assert!(
        saved
            .body
            .contains("Installed **Guard** (`guard`; conversations `c_guard`)"),
        "{}",
        saved.body
    );
    let row = site
        .harness
        .storage
        .npc_script(GUILD, "guard")
        .await
        .unwrap()
        .unwrap();
    // Stored as `/npc install code:` stores it: the code block trimmed.
    assert_eq!(row.source, GUARD.trim_end());
    let listed = console_line(&site, "/npc list").await;
    assert!(listed.contains("guard"), "{listed}");
    let page = site.get("/servers/500/npcs/guard", Some(&cookie)).await;
    assert!(
        page.body.contains("RESP r_hail { SAY &quot;Halt!&quot; }"),
        "{}",
        page.body
    );

    // The effect file.
    let effects_path = format!("/servers/{GUILD}/effects");
    let bad = site
        .post(
            &effects_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("source", "EFFECT A { }\n"),
                ("action", "check"),
            ],
        )
        .await;
    assert!(
        bad.body.contains("EFFECT A has no `target_type`"),
        "{}",
        bad.body
    );
    assert!(bad.body.contains("Line 1, column"), "{}", bad.body);
    let played = site
        .post(
            &effects_path,
            Some(&cookie),
            &[
                ("csrf", &csrf),
                ("source", EFFECTS),
                ("action", "play"),
                ("play", "@add Ana init=15 hp=30\n@apply Fireball Ana\n"),
            ],
        )
        .await;
    assert!(
        played
            .body
            .contains("* Fireball on Ana: HitPoints 30 -&gt; 12"),
        "{}",
        played.body
    );
    assert!(
        site.harness
            .storage
            .effect_library(GUILD)
            .await
            .unwrap()
            .is_none()
    );
    let saved = site
        .post(
            &effects_path,
            Some(&cookie),
            &[("csrf", &csrf), ("source", EFFECTS), ("action", "save")],
        )
        .await;
    assert!(
        saved
            .body
            .contains("Installed this server&#39;s effect file"),
        "{}",
        saved.body
    );
    let library = site
        .harness
        .storage
        .effect_library(GUILD)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(library.source.trim_end(), EFFECTS.trim_end());
}

#[tokio::test]
async fn a_listing_with_textarea_and_script_tags_stays_text() {
    let site = Site::new().await;
    let admin = site.admin().await;
    let hostile = "10 REM </textarea><script>alert(1)</script>\n20 PRINT \"<b>\"\n";
    let saved = site.save(&admin, "hostile", hostile).await;
    assert!(saved.body.contains("Installed"), "{}", saved.body);
    let page = site
        .get("/servers/500/programs/hostile", Some(&admin.0))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(!page.body.contains("<script>"), "{}", page.body);
    assert_eq!(page.body.matches("</textarea>").count(), 1, "{}", page.body);
    assert!(
        page.body
            .contains("10 REM &lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    );
    // The marked rows of a check escape the listing too.
    let broken = "10 PRINT \"</textarea>\" +\n";
    let checked = site
        .post(
            "/servers/500/programs/edit",
            Some(&admin.0),
            &[
                ("csrf", &admin.1),
                ("name", "x"),
                ("source", broken),
                ("action", "check"),
            ],
        )
        .await;
    assert!(
        checked
            .body
            .contains("<pre class=\"row\">10 PRINT &quot;&lt;/textarea&gt;&quot; +")
    );
    assert_eq!(checked.body.matches("</textarea>").count(), 1);
}

#[tokio::test]
async fn the_body_limit_is_the_listing_limit() {
    let site = Site::new().await;
    let admin = site.admin().await;
    let max = site.harness.core.settings().max_program_bytes;
    // Just over the listing limit: the command's refusal, nothing stored.
    let line = "10 REM xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n";
    let big = line.repeat(max / line.len() + 1);
    let saved = site.save(&admin, "big", &big).await;
    assert_eq!(saved.status, StatusCode::OK);
    assert!(
        saved
            .body
            .contains(&format!("The listing is larger than {max} bytes")),
        "{}",
        saved.body
    );
    assert!(site.installed("big").await.is_none());
    // Far beyond what any listing at the limit encodes to: refused unread.
    let huge = format!(
        "csrf={}&name=huge&action=save&source={}",
        admin.1,
        "A".repeat(max * 4)
    );
    let answer = site
        .post_raw("/servers/500/programs/edit", Some(&admin.0), huge)
        .await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    // Other forms keep the small limit.
    let macro_form = format!("csrf={}&name=m&expr={}", admin.1, "1".repeat(64 * 1024));
    let answer = site
        .post_raw("/servers/500/macros", Some(&admin.0), macro_form)
        .await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn the_marks_speak_the_readers_language() {
    let site = Site::new().await;
    let (cookie, csrf) = site.admin().await;
    let form = [
        ("csrf", csrf.as_str()),
        ("name", "kaputt"),
        ("source", BROKEN),
        ("action", "check"),
    ];
    let page = site
        .post_raw_in(
            "de-DE,de;q=0.9",
            "/servers/500/programs/edit",
            Some(&cookie),
            encode(&form),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("<html lang=\"de\">"), "{}", page.body);
    assert!(page.body.contains("2 Syntaxfehler"), "{}", page.body);
    assert!(
        page.body.contains("Zeile 5 (BASIC-Zeile 50), Spalte 19:"),
        "{}",
        page.body
    );
    assert!(page.body.contains(">Prüfen</button>"), "{}", page.body);
}
