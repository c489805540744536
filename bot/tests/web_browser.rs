//! The dashboard in a real browser (issue 25): Chromium headless through WebDriver
//! (Debian's `chromium` and `chromium-driver`; `.ci/run` installs them when missing),
//! against the dashboard on loopback and the fake Discord, in English and in German
//! (the fake's users have those Discord locales): log in through the fake's OAuth
//! page, open the characters, save a macro and roll it from the core as the bot
//! would, follow an encounter while `/init next` runs, write a generator in the
//! editor (a syntax error checked and marked at its row, fixed, saved, tried to
//! its end), run it through the console's core and see the character it stored
//! there (`/character show`) and on the characters page. Every page gets an
//! accessibility check (a label on every field, every control reachable by
//! keyboard, text contrast at least 4.5:1) and a screenshot under
//! `target/web-screenshots/` (looked at by a person; kept as CI artifacts).
//!
//! Without `chromedriver` on the PATH the test says so and returns.
//!
//! The WebDriver client is the dozen W3C endpoints this needs, over the reqwest the
//! bot already has: no client crate.

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use base64::Engine as _;
use fake_discord::{FakeConfig, FakeDiscord, GuildChannel, OAuthApp, OAuthGuild, OAuthUser};
use serde_json::{Value, json};
use tavern::config::WebConfig;
use tavern::console::{Console, ConsoleIdentity, LineOutcome};
use tavern::core::{OptionValue, Permissions, User};
use tavern::i18n::Lang;
use tavern::web::{Web, WebOptions, router, serve_on};

use crate::encounter::{as_user, init, table};
use crate::fields::character;
use crate::harness::{ALICE, BOB, CHANNEL, GUILD, Harness, command, text};

const CLIENT_ID: u64 = 4_343;
const CLIENT_SECRET: &str = "browser-secret";
/// Discord's View Channel bit.
const VIEW_CHANNEL: u64 = 1 << 10;
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The channel the console plays the generator in (not the encounter's).
const CONSOLE_CHANNEL: i64 = 600;

/// The generator as first typed: row 3 ends in a `+` with nothing after it.
const GENERATOR_BROKEN: &str = "10 INPUT \"NAME\"; N$\n20 INPUT \"CLASS\"; C$\n\
     30 PRINT \"WELCOME\" +\n40 RECORD \"NAME\", N$, \"CLASS\", C$, \"HP\", 7\n";
/// The row with the error, as the editor shows it.
const BROKEN_ROW: &str = "30 PRINT \"WELCOME\" +";
/// The generator fixed.
const GENERATOR: &str = "10 INPUT \"NAME\"; N$\n20 INPUT \"CLASS\"; C$\n\
     30 PRINT \"WELCOME\"\n40 RECORD \"NAME\", N$, \"CLASS\", C$, \"HP\", 7\n";

/// Every field labelled, every control reachable by keyboard and named, every text
/// at least 4.5:1 against its background (WCAG AA): the problems found.
const ACCESSIBILITY: &str = r#"
const problems = [];
for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
  if (!(el.labels && el.labels.length) && !el.getAttribute('aria-label')) {
    problems.push('no label: ' + el.outerHTML.slice(0, 80));
  }
}
for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')) {
  if (el.tabIndex < 0 || el.disabled) problems.push('not reachable: ' + el.outerHTML.slice(0, 80));
  if ((el.tagName === 'A' || el.tagName === 'BUTTON') && !el.textContent.trim()) {
    problems.push('no name: ' + el.outerHTML.slice(0, 80));
  }
}
const rgb = (s) => s.match(/[\d.]+/g).map(Number);
const lum = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => {
    v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const background = (el) => {
  for (; el; el = el.parentElement) {
    const c = rgb(getComputedStyle(el).backgroundColor);
    if (c.length < 4 || c[3] > 0) return c;
  }
  return [255, 255, 255];
};
for (const el of document.querySelectorAll('body *')) {
  const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!text) continue;
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  if (ratio < 4.5) problems.push('contrast ' + ratio.toFixed(2) + ': ' + el.tagName + ' ' + el.textContent.trim().slice(0, 40));
}
return problems;
"#;

/// Resolves with the tracker's text once it is no longer `arguments[0]`.
const TRACKER_CHANGE: &str = r#"
const before = arguments[0];
const done = arguments[arguments.length - 1];
const tracker = document.getElementById('tracker');
if (tracker.innerText !== before) { done(tracker.innerText); return; }
new MutationObserver(() => {
  if (tracker.innerText !== before) done(tracker.innerText);
}).observe(tracker, { childList: true, subtree: true, characterData: true });
"#;

/// The chromedriver process, ended when the test ends, failed or not.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `chromedriver` on a port it picked, and the port (read from its first lines).
async fn start_driver() -> Option<(Driver, u16)> {
    let spawned = Command::new("chromedriver")
        .arg("--port=0")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(error) => {
            println!(
                "skipped: cannot start chromedriver ({error}); \
                 install it with `apt-get install -y chromium chromium-driver`"
            );
            return None;
        }
    };
    let stdout = child.stdout.take()?;
    let port = tokio::task::spawn_blocking(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find_map(|line| {
                line.split("started successfully on port ")
                    .nth(1)
                    .and_then(|rest| rest.trim_end_matches('.').parse::<u16>().ok())
            })
    })
    .await
    .ok()
    .flatten();
    match port {
        Some(port) => Some((Driver(child), port)),
        None => {
            println!("skipped: chromedriver did not say its port");
            let _ = child.kill();
            None
        }
    }
}

/// One browser: a WebDriver session.
struct Browser {
    http: reqwest::Client,
    session: String,
}

impl Browser {
    /// A fresh browser (no cookies) whose interface language is `lang`.
    async fn open(port: u16, lang: &str) -> Browser {
        let http = reqwest::Client::new();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"args": [
                "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--window-size=1000,800",
                format!("--lang={lang}"),
            ], "prefs": {"intl.accept_languages": lang}},
        }}});
        let request = http
            .post(format!("http://127.0.0.1:{port}/session"))
            .header("content-type", "application/json")
            .body(capabilities.to_string());
        let answer = json_of(request).await;
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {answer}"))
            .to_owned();
        Browser {
            http,
            session: format!("http://127.0.0.1:{port}/session/{session}"),
        }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Value) -> Value {
        let request = self.http.request(method, format!("{}{path}", self.session));
        let request = match body {
            Value::Null => request,
            body => request
                .header("content-type", "application/json")
                .body(body.to_string()),
        };
        let answer = json_of(request).await;
        if answer["value"]["error"].is_string() {
            panic!("WebDriver {path}: {answer}");
        }
        answer["value"].clone()
    }

    async fn go(&self, url: &str) {
        self.call(reqwest::Method::POST, "/url", json!({ "url": url }))
            .await;
    }

    async fn url(&self) -> String {
        let url = self.call(reqwest::Method::GET, "/url", Value::Null).await;
        url.as_str().unwrap_or("").to_owned()
    }

    async fn find(&self, css: &str) -> String {
        let found = self
            .call(
                reqwest::Method::POST,
                "/element",
                json!({"using": "css selector", "value": css}),
            )
            .await;
        found[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_owned()
    }

    /// The element command `action` (click, value, clear) on the first `css`.
    async fn on_element(&self, css: &str, action: &str, body: Value) {
        let element = self.find(css).await;
        self.call(
            reqwest::Method::POST,
            &format!("/element/{element}/{action}"),
            body,
        )
        .await;
    }

    async fn click(&self, css: &str) {
        self.on_element(css, "click", json!({})).await;
    }

    async fn type_into(&self, css: &str, typed: &str) {
        self.on_element(css, "value", json!({ "text": typed }))
            .await;
    }

    async fn clear(&self, css: &str) {
        self.on_element(css, "clear", json!({})).await;
    }

    async fn run(&self, script: &str, args: Value) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/sync",
            json!({"script": script, "args": args}),
        )
        .await
    }

    async fn run_async(&self, script: &str, args: Value) -> Value {
        self.call(
            reqwest::Method::POST,
            "/execute/async",
            json!({"script": script, "args": args}),
        )
        .await
    }

    /// The text of the first `css`, once there is one (the page a click leads to
    /// may still be loading: the driver's implicit wait finds it).
    async fn text(&self, css: &str) -> String {
        self.find(css).await;
        let script = "return document.querySelector(arguments[0]).innerText;";
        let value = self.run(script, json!([css])).await;
        value.as_str().unwrap_or("").to_owned()
    }

    /// The page's accessibility problems and a screenshot named `name`.
    async fn check_and_keep(&self, name: &str) {
        let problems = self.run(ACCESSIBILITY, json!([])).await;
        assert_eq!(problems, json!([]), "accessibility of {name}");
        let shot = self
            .call(reqwest::Method::GET, "/screenshot", Value::Null)
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot.as_str().unwrap())
            .unwrap();
        let folder = screenshots();
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(format!("{name}.png")), png).unwrap();
    }

    async fn close(self) {
        let _ = self.http.delete(&self.session).send().await;
    }
}

/// `user`'s console on `core`, typing `lines` one after another: what the last said.
async fn console_lines(table: &Harness, user: i64, lang: &str, lines: &[&str]) -> String {
    let identity = ConsoleIdentity {
        user: User {
            id: user,
            name: format!("user{user}"),
        },
        guild_id: GUILD,
        channel_id: CONSOLE_CHANNEL,
        lang: if lang == "de" { Lang::De } else { Lang::En },
    };
    let mut console = Console::new(table.core.clone(), identity);
    let mut said = String::new();
    for line in lines {
        table.clock.advance_ms(5_000);
        said.push_str(&format!("> {line}\n"));
        match console.line(line).await {
            LineOutcome::Output(text) => said.push_str(&text),
            LineOutcome::Quit => said.push_str("<quit>\n"),
        };
    }
    said
}

/// The JSON answer of a WebDriver request.
async fn json_of(request: reqwest::RequestBuilder) -> Value {
    let bytes = request.send().await.unwrap().bytes().await.unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

fn screenshots() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")));
    target.join("web-screenshots")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_logs_in_reads_characters_saves_a_macro_and_follows_an_encounter() {
    let Some((_driver, port)) = start_driver().await else {
        return;
    };
    let mut table = table().await;
    let fake = FakeDiscord::start(FakeConfig {
        token: Some("bot-token".to_owned()),
        ..FakeConfig::default()
    })
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let base = format!("http://{address}");
    fake.set_oauth_app(OAuthApp {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET.to_owned(),
        redirect_uris: vec![format!("{base}/login/callback")],
    });
    for (id, name, locale) in [(ALICE, "Alice", "en-US"), (BOB, "Bob", "de")] {
        fake.add_oauth_user(OAuthUser {
            id: id as u64,
            username: name.to_owned(),
            locale: locale.to_owned(),
            guilds: vec![OAuthGuild {
                id: GUILD as u64,
                name: "The Tavern".to_owned(),
                // As Discord gives them: @everyone's View Channel folded in.
                permissions: Permissions::MANAGE_GUILD | VIEW_CHANNEL,
                roles: Vec::new(),
            }],
        });
    }
    // The tracker's channel, as the bot's token reads it (the list names it).
    fake.set_guild_channels(
        GUILD as u64,
        vec![GuildChannel::text(CHANNEL as u64, "battle-map")],
    );
    let config = WebConfig {
        client_id: Some(CLIENT_ID),
        client_secret: Some(CLIENT_SECRET.to_owned()),
        discord_url: fake.api_base(),
        ..WebConfig::default()
    };
    let options = WebOptions::new(&config, address, false)
        .unwrap()
        .with_discord(&config, Some("bot-token".to_owned()))
        .unwrap();
    let web = Web::new(table.core.clone(), table.clock.clone(), options);
    let server = serve_on(listener, router(web));
    table
        .storage
        .finish_session(
            None,
            &[character(
                1,
                ALICE,
                "Udo",
                &[("NAME", "Udo"), ("STR", "17"), ("HP", "6")],
            )],
        )
        .await
        .unwrap();
    // Alice runs an encounter in the channel; Bram (Bob's) and an Orc fight.
    as_user(&mut table, ALICE, init("begin", &[])).await;
    as_user(&mut table, BOB, init("join", &[("init", text("20"))])).await;
    let orc = [
        ("name", text("Orc")),
        ("init", text("10")),
        ("hp", text("10")),
        ("hidden", OptionValue::Boolean(true)),
    ];
    as_user(&mut table, ALICE, init("add", &orc)).await;

    for (user, lang, macro_name) in [(ALICE, "en", "atken"), (BOB, "de", "atkde")] {
        let browser = Browser::open(port, lang).await;
        browser
            .call(
                reqwest::Method::POST,
                "/timeouts",
                json!({"script": 30_000, "implicit": 30_000}),
            )
            .await;
        browser.go(&format!("{base}/")).await;
        // Before the login, the browser's language.
        let html_lang = browser
            .run("return document.documentElement.lang;", json!([]))
            .await;
        assert_eq!(html_lang, json!(lang));
        browser.check_and_keep(&format!("{lang}-1-login")).await;
        browser.click("a.login").await;
        // The fake's page: grant as this user.
        browser.click(&format!("#authorize-{user}")).await;
        // The redirects may outlast the click: the driver waits for the servers page.
        browser.find("main a[href$='/settings']").await;
        assert_eq!(browser.url().await, format!("{base}/servers"), "{lang}");
        // After it, the Discord locale's.
        let html_lang = browser
            .run("return document.documentElement.lang;", json!([]))
            .await;
        assert_eq!(html_lang, json!(lang));
        browser.check_and_keep(&format!("{lang}-2-servers")).await;

        browser
            .go(&format!("{base}/servers/{GUILD}/characters"))
            .await;
        browser
            .check_and_keep(&format!("{lang}-3-characters"))
            .await;
        if user == ALICE {
            browser.click("main a[href$='/characters/1']").await;
            assert!(browser.text("pre.sheet").await.contains("Udo"));
            browser.check_and_keep(&format!("{lang}-4-character")).await;
        }

        browser.go(&format!("{base}/servers/{GUILD}/macros")).await;
        browser.type_into("input[name=name]", macro_name).await;
        browser.type_into("input[name=expr]", "1d20+5").await;
        browser.click("form[action$='/macros'] button").await;
        browser.check_and_keep(&format!("{lang}-5-macros")).await;
        assert!(
            browser.text("table").await.contains(macro_name),
            "the macro is listed"
        );
        // Rolled as the bot rolls it.
        let roll = command("roll", &[], &[("expr", text(macro_name))]);
        let rolled = as_user(&mut table, user, roll).await;
        let said = rolled.all_text();
        assert!(said.contains(&format!("`${macro_name}`: (1d20 ")), "{said}");
        assert!(said.contains("+ 5)"), "{said}");

        browser
            .go(&format!("{base}/servers/{GUILD}/settings"))
            .await;
        browser.check_and_keep(&format!("{lang}-6-settings")).await;

        browser
            .go(&format!("{base}/servers/{GUILD}/encounters"))
            .await;
        browser
            .check_and_keep(&format!("{lang}-7-encounters"))
            .await;
        browser
            .click(&format!("main a[href$='/encounters/{CHANNEL}']"))
            .await;
        let before = browser.text("#tracker").await;
        browser.check_and_keep(&format!("{lang}-8-encounter")).await;
        // The GM ends the turn in Discord; the open page follows without a reload.
        as_user(&mut table, ALICE, init("next", &[])).await;
        let after = browser.run_async(TRACKER_CHANGE, json!([before])).await;
        let after = after.as_str().unwrap_or("").to_owned();
        assert!(after.contains('▶'), "{after}");
        assert_ne!(after, before);
        browser
            .check_and_keep(&format!("{lang}-9-encounter-next"))
            .await;

        generator_steps(&browser, &base, &table, user, lang).await;
        browser.close().await;
    }
    server.abort();
}

/// The generator editor, reached from the servers page: a listing with a syntax
/// error checked and marked at its row, fixed, saved and tried to its end (a try
/// stores nothing); then the saved program run in the console's core, where the
/// character it stored is shown, and the characters page lists it.
async fn generator_steps(browser: &Browser, base: &str, table: &Harness, user: i64, lang: &str) {
    let (program, hero, class) = if lang == "de" {
        ("helden", "Greta", "Magierin")
    } else {
        ("heroes", "Ann", "Ranger")
    };
    browser.go(&format!("{base}/servers")).await;
    browser
        .click(&format!("main a[href$='/servers/{GUILD}/programs']"))
        .await;
    browser.click("main a[href$='/programs/new']").await;
    browser.type_into("input[name=name]", program).await;
    browser.type_into("textarea#source", GENERATOR_BROKEN).await;
    browser.click("button[value=check]").await;
    // The error at its row (the listing's third, BASIC line 30), the row shown with
    // the caret under the column after the `+`.
    let place = browser.text("ol.marks li.mark .place").await;
    let expected = if lang == "de" {
        "Zeile 3 (BASIC-Zeile 30), Spalte 21:"
    } else {
        "Row 3 (line 30), column 21:"
    };
    assert_eq!(place, expected, "{lang}");
    let row = browser.text("ol.marks li.mark pre.row").await;
    let caret = format!("{BROKEN_ROW}\n{}^", " ".repeat(BROKEN_ROW.len()));
    assert_eq!(row, caret, "{lang}");
    assert_eq!(
        browser
            .run(
                "return document.querySelectorAll('ol.marks li.mark').length;",
                json!([])
            )
            .await,
        json!(1),
        "{lang}: one error"
    );
    // The check kept the listing as typed in the text area.
    let kept = browser
        .run(
            "return document.querySelector('textarea#source').value;",
            json!([]),
        )
        .await;
    assert_eq!(
        kept.as_str().map(|text| text.replace("\r\n", "\n")),
        Some(GENERATOR_BROKEN.to_owned()),
        "{lang}"
    );
    browser.check_and_keep(&format!("{lang}-10-editor")).await;

    browser.clear("textarea#source").await;
    browser.type_into("textarea#source", GENERATOR).await;
    browser.click("button[value=save]").await;
    // Saved, the editor offers the installed program's try.
    let try_start = format!("form[action$='/programs/{program}/try'] button");
    browser.find(&try_start).await;
    let marks = browser
        .run(
            "return document.querySelectorAll('ol.marks').length;",
            json!([]),
        )
        .await;
    assert_eq!(marks, json!(0), "{lang}: the fixed listing has no marks");
    browser.check_and_keep(&format!("{lang}-11-saved")).await;

    browser.click(&try_start).await;
    let mut given: Vec<&str> = Vec::new();
    for (number, answer) in [hero, class].into_iter().enumerate() {
        // Each step's page carries the answers so far: wait for this one's.
        let so_far = serde_json::to_string(&given).unwrap();
        browser
            .find(&format!("input[name=answers][value='{so_far}']"))
            .await;
        if number == 0 {
            browser.check_and_keep(&format!("{lang}-12-try")).await;
        }
        browser.type_into("input[name=answer]", answer).await;
        browser.click("form:has(input[name=answer]) button").await;
        given.push(answer);
    }
    let record = browser.text("table.record").await;
    assert!(record.contains(hero), "{lang}: {record}");
    assert!(record.contains(class), "{lang}: {record}");
    assert!(record.contains('7'), "{lang}: {record}");
    browser.check_and_keep(&format!("{lang}-13-try-end")).await;

    // The try stored nothing; the saved program, run in the bot, stores the character.
    let before = console_lines(table, user, lang, &[&format!("/character show {hero}")]).await;
    assert!(
        !before.contains(&format!("**{hero}**,")),
        "{lang}: a try stores nothing: {before}"
    );
    let start = format!("/chargen start program:{program}");
    let finished = console_lines(table, user, lang, &[&start, hero, class]).await;
    assert!(
        finished.contains(&format!("**{hero}**")),
        "{lang}: {finished}"
    );
    let sheet = console_lines(table, user, lang, &[&format!("/character show {hero}")]).await;
    assert!(
        sheet.contains(&format!("\n**{hero}**, ")),
        "{lang}: {sheet}"
    );
    assert!(sheet.contains(&format!("`{program}`")), "{lang}: {sheet}");
    assert!(sheet.contains(class), "{lang}: {sheet}");

    browser
        .go(&format!("{base}/servers/{GUILD}/characters"))
        .await;
    let listed = browser.text("main").await;
    assert!(
        listed.contains(&format!("{hero} ({program})")),
        "{lang}: {listed}"
    );
    browser
        .check_and_keep(&format!("{lang}-14-characters-after"))
        .await;
}
