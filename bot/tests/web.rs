//! The web dashboard (`tavern web`), driven in-process through its router: every
//! route without a session, with another user's session and ids, without the CSRF
//! token or from another origin; escaping; the pages over the same core operations
//! as the commands; sessions (logout, everywhere, expiry, the development login).

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use fake_discord::{FakeConfig, FakeDiscord, OAuthApp, OAuthGuild, OAuthUser};
use tavern::config::WebConfig;
use tavern::core::Permissions;
use tavern::core::User;
use tavern::storage::Storage;
use tavern::web::{
    CONTENT_SECURITY_POLICY, WebOptions, hash_session_id, router, seal_token, serve_on,
    start_session, unseal_token,
};

use crate::fields::character;
use crate::harness::{ALICE, BOB, GUILD};
use crate::on_both_backends;
use crate::web_support::{Answer, ORIGIN, Site, cookie_of, encode, options};

/// A server only Bob is in.
const BOBS_GUILD: i64 = 501;

impl Site {
    async fn alice(&self) -> String {
        self.login(ALICE, &[(GUILD, 0)]).await
    }
}

/// Every page (GET) and every form (POST) of the dashboard, with ids in Alice's
/// server; `{c}` is a character id.
const PAGES: &[&str] = &[
    "/servers",
    "/servers/500/characters",
    "/servers/500/characters/{c}",
    "/servers/500/macros",
    "/servers/500/encounters",
    "/servers/500/settings",
];
const FORMS: &[&str] = &[
    "/logout",
    "/logout/everywhere",
    "/servers/500/characters/{c}/use",
    "/servers/500/characters/{c}/delete",
    "/servers/500/characters/answer",
    "/servers/500/macros",
    "/servers/500/macros/delete",
    "/servers/500/settings/language",
];

async fn with_characters(site: &Site) {
    let storage = &site.harness.storage;
    storage
        .finish_session(
            None,
            &[
                character(
                    1,
                    ALICE,
                    "Udo",
                    &[("NAME", "Udo"), ("STR", "17"), ("HP", "6")],
                ),
                character(2, BOB, "Brom", &[("NAME", "Brom"), ("STR", "9")]),
            ],
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn without_a_session_pages_go_to_the_login_and_forms_are_refused() {
    let site = Site::new().await;
    with_characters(&site).await;
    for page in PAGES {
        let path = page.replace("{c}", "1");
        let answer = site.get(&path, None).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "GET {path}");
        assert_eq!(answer.location(), "/", "GET {path}");
        // A cookie that names no session is no session.
        let answer = site.get(&path, Some("tavern_session=forged")).await;
        assert_eq!(answer.location(), "/", "GET {path} with a forged cookie");
    }
    for form in FORMS {
        let path = form.replace("{c}", "1");
        let answer = site
            .post(&path, None, &[("csrf", "x"), ("name", "a")])
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "POST {path}");
    }
    assert_eq!(
        site.harness
            .storage
            .characters_of(ALICE, GUILD)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn every_form_without_this_sessions_token_or_from_another_origin_is_refused() {
    let site = Site::new().await;
    with_characters(&site).await;
    let alice = site.alice().await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let bobs_token = site.csrf(&bob).await;
    let token = site.csrf(&alice).await;
    for form in FORMS {
        let path = form.replace("{c}", "1");
        let fields = [
            ("name", "fireball"),
            ("expr", "8d6"),
            ("custom_id", "tv1:cd:1"),
        ];
        let answer = site.post(&path, Some(&alice), &fields).await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "POST {path} without a token"
        );
        let with_bobs = [
            ("csrf", bobs_token.as_str()),
            ("name", "fireball"),
            ("expr", "8d6"),
        ];
        let answer = site.post(&path, Some(&alice), &with_bobs).await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "POST {path} with Bob's token"
        );
        let with_token = [
            ("csrf", token.as_str()),
            ("name", "fireball"),
            ("expr", "8d6"),
        ];
        let answer = site
            .post_from(
                &path,
                Some(&alice),
                &with_token,
                Some("https://evil.example"),
            )
            .await;
        assert_eq!(
            answer.status,
            StatusCode::FORBIDDEN,
            "POST {path} from another origin"
        );
    }
    // Nothing changed: the session lives, the macro and the character are not there.
    assert_eq!(
        site.get("/servers", Some(&alice)).await.status,
        StatusCode::OK
    );
    let storage = &site.harness.storage;
    assert!(
        storage
            .macros_visible(GUILD, ALICE)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(storage.characters_of(ALICE, GUILD).await.unwrap().len(), 1);
    assert!(
        storage
            .active_character(GUILD, ALICE)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn another_users_character_and_another_server_are_not_found() {
    let site = Site::new().await;
    with_characters(&site).await;
    let alice = site.alice().await;
    let token = site.csrf(&alice).await;
    // Bob's character (2) in Alice's server, an unknown character, Bob's server.
    let paths = [
        ("/servers/500/characters/2", true),
        ("/servers/500/characters/999", true),
        ("/servers/501/characters", false),
        ("/servers/501/characters/1", false),
        ("/servers/501/macros", false),
    ];
    for (path, _) in paths {
        assert_eq!(
            site.get(path, Some(&alice)).await.status,
            StatusCode::NOT_FOUND,
            "GET {path}"
        );
    }
    let forms = [
        "/servers/500/characters/2/use",
        "/servers/500/characters/2/delete",
        "/servers/501/characters/1/use",
        "/servers/501/characters/answer",
        "/servers/501/macros",
        "/servers/501/macros/delete",
    ];
    for path in forms {
        let fields = [
            ("csrf", token.as_str()),
            ("name", "fireball"),
            ("expr", "8d6"),
        ];
        let answer = site.post(path, Some(&alice), &fields).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "POST {path}");
        assert!(!answer.body.contains("Brom"), "POST {path}");
    }
    assert!(
        site.harness
            .storage
            .active_character(GUILD, ALICE)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        site.harness
            .storage
            .macros_visible(BOBS_GUILD, ALICE)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        site.harness
            .storage
            .characters_of(BOB, GUILD)
            .await
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn macros_are_set_and_deleted_as_macro_set_does() {
    let site = Site::new().await;
    let alice = site.alice().await;
    let token = site.csrf(&alice).await;
    let set = |name: &'static str, expr: &'static str, scope: &'static str| {
        [
            ("csrf", token.clone()),
            ("name", name.to_owned()),
            ("expr", expr.to_owned()),
            ("scope", scope.to_owned()),
        ]
    };
    let post = |fields: [(&'static str, String); 4]| {
        let site = &site;
        let alice = alice.clone();
        async move {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            site.post("/servers/500/macros", Some(&alice), &fields)
                .await
        }
    };
    let saved = post(set("fireball", "8d6 fire", "me")).await;
    assert_eq!(saved.status, StatusCode::OK);
    assert!(saved.body.contains("fireball"), "{}", saved.body);
    let storage = &site.harness.storage;
    let rows = storage.macros_visible(GUILD, ALICE).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].expr.as_str(), rows[0].owner_id),
        ("8d6 fire", ALICE)
    );
    assert_eq!(rows[0].created_by_name, "Alice");
    // The core's refusals, word for word as /macro set gives them.
    for (name, expr, scope) in [
        ("2d6", "1d4", "me"),
        ("bad", "1d", "me"),
        ("shared", "1d8", "server"),
    ] {
        let answer = post(set(name, expr, scope)).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert!(
            answer.body.contains("class=\"notice\""),
            "{name}: {}",
            answer.body
        );
        assert_eq!(
            storage.macros_visible(GUILD, ALICE).await.unwrap().len(),
            1,
            "{name}"
        );
    }
    // Manage Server may set server macros.
    let admin = site
        .login(ALICE, &[(GUILD, Permissions::MANAGE_GUILD)])
        .await;
    let admin_token = site.csrf(&admin).await;
    let fields = [
        ("csrf", admin_token.as_str()),
        ("name", "shared"),
        ("expr", "1d8"),
        ("scope", "server"),
    ];
    site.post("/servers/500/macros", Some(&admin), &fields)
        .await;
    let rows = storage.macros_visible(GUILD, BOB).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0].is_server());
    // The list shows both, each with its delete form; deleting goes through the core.
    let page = site.get("/servers/500/macros", Some(&alice)).await;
    assert!(
        page.body.contains("8d6 fire") && page.body.contains("1d8"),
        "{}",
        page.body
    );
    let fields = [
        ("csrf", token.as_str()),
        ("name", "shared"),
        ("scope", "server"),
    ];
    site.post("/servers/500/macros/delete", Some(&alice), &fields)
        .await;
    assert_eq!(
        storage.macros_visible(GUILD, BOB).await.unwrap().len(),
        1,
        "not an admin"
    );
    let fields = [
        ("csrf", token.as_str()),
        ("name", "fireball"),
        ("scope", "me"),
    ];
    site.post("/servers/500/macros/delete", Some(&alice), &fields)
        .await;
    assert_eq!(storage.macros_visible(GUILD, ALICE).await.unwrap().len(), 1);
    assert!(storage.macros_visible(GUILD, ALICE).await.unwrap()[0].is_server());
}

#[tokio::test]
async fn what_users_wrote_is_escaped() {
    let site = Site::new().await;
    let alice = site.alice().await;
    let token = site.csrf(&alice).await;
    let hostile = "<script>alert(1)</script>";
    // A name the core refuses is echoed in its answer; a description is stored.
    let attempts = [
        [
            ("csrf", token.as_str()),
            ("name", hostile),
            ("expr", "1d6"),
            ("description", ""),
        ],
        [
            ("csrf", token.as_str()),
            ("name", "ok"),
            ("expr", "1d6"),
            ("description", hostile),
        ],
    ];
    for fields in attempts {
        let answer = site
            .post("/servers/500/macros", Some(&alice), &fields)
            .await;
        assert_eq!(answer.status, StatusCode::OK);
        assert!(!answer.body.contains("<script"), "{}", answer.body);
        assert!(answer.body.contains("&lt;script&gt;"), "{}", answer.body);
    }
    let page = site.get("/servers/500/macros", Some(&alice)).await;
    assert!(!page.body.contains("<script") && page.body.contains("&lt;script&gt;alert(1)"));
    // A character's name too.
    site.harness
        .storage
        .finish_session(
            None,
            &[character(3, ALICE, "<b onmouseover=x>", &[("STR", "10")])],
        )
        .await
        .unwrap();
    for path in ["/servers/500/characters", "/servers/500/characters/3"] {
        let page = site.get(path, Some(&alice)).await;
        assert_eq!(page.status, StatusCode::OK, "{path}");
        assert!(
            !page.body.contains("<b onmouseover"),
            "{path}: {}",
            page.body
        );
        assert!(page.body.contains("&lt;b onmouseover=x&gt;"), "{path}");
    }
}

#[tokio::test]
async fn characters_list_sheet_play_and_delete_through_the_core() {
    let site = Site::new().await;
    with_characters(&site).await;
    let alice = site.alice().await;
    let list = site.get("/servers/500/characters", Some(&alice)).await;
    assert!(
        list.body.contains("href=\"/servers/500/characters/1\""),
        "{}",
        list.body
    );
    assert!(!list.body.contains("Brom"));
    // The sheet is /character show's: fields with modifiers, then the transcript.
    let sheet = site.get("/servers/500/characters/1", Some(&alice)).await;
    assert_eq!(sheet.status, StatusCode::OK);
    assert!(sheet.body.contains("STR  17 (+2)"), "{}", sheet.body);
    assert!(sheet.body.contains("class=\"transcript\""));
    let token = sheet.csrf();
    let played = site
        .post(
            "/servers/500/characters/1/use",
            Some(&alice),
            &[("csrf", &token)],
        )
        .await;
    assert_eq!(played.status, StatusCode::OK);
    let storage = &site.harness.storage;
    assert_eq!(
        storage
            .active_character(GUILD, ALICE)
            .await
            .unwrap()
            .map(|row| row.id),
        Some(1)
    );
    // Delete asks first (the core's question, its buttons as forms) …
    let question = site
        .post(
            "/servers/500/characters/1/delete",
            Some(&alice),
            &[("csrf", &token)],
        )
        .await;
    assert_eq!(storage.characters_of(ALICE, GUILD).await.unwrap().len(), 1);
    let marker = "name=\"custom_id\" value=\"";
    let ids: Vec<&str> = question
        .body
        .match_indices(marker)
        .map(|(at, _)| {
            let rest = &question.body[at + marker.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(ids.len(), 2, "{}", question.body);
    // Bob cannot answer Alice's question, whatever the id.
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let bobs_token = site.csrf(&bob).await;
    let fields = [("csrf", bobs_token.as_str()), ("custom_id", ids[0])];
    site.post("/servers/500/characters/answer", Some(&bob), &fields)
        .await;
    assert_eq!(storage.characters_of(ALICE, GUILD).await.unwrap().len(), 1);
    // Anything but a delete question's button is not an answer here.
    let fields = [("csrf", token.as_str()), ("custom_id", "tv1:rr:1")];
    let refused = site
        .post("/servers/500/characters/answer", Some(&alice), &fields)
        .await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND);
    // … and Alice's "Delete" deletes, once.
    let fields = [("csrf", token.as_str()), ("custom_id", ids[0])];
    let deleted = site
        .post("/servers/500/characters/answer", Some(&alice), &fields)
        .await;
    assert_eq!(deleted.status, StatusCode::OK);
    assert!(
        storage
            .characters_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_empty(),
        "{}",
        deleted.body
    );
    assert_eq!(storage.characters_of(BOB, GUILD).await.unwrap().len(), 1);
}

#[tokio::test]
async fn logout_ends_the_session_and_everywhere_ends_every_session_of_the_user() {
    let site = Site::new().await;
    let first = site.alice().await;
    let second = site.alice().await;
    let third = site.alice().await;
    let bob = site.login(BOB, &[(GUILD, 0)]).await;
    let token = site.csrf(&first).await;
    let out = site
        .post("/logout", Some(&first), &[("csrf", &token)])
        .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    let cleared = out
        .headers
        .get(header::SET_COOKIE)
        .unwrap()
        .to_str()
        .unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(site.get("/servers", Some(&first)).await.location(), "/");
    assert_eq!(
        site.get("/servers", Some(&second)).await.status,
        StatusCode::OK
    );
    let token = site.csrf(&second).await;
    site.post("/logout/everywhere", Some(&second), &[("csrf", &token)])
        .await;
    for gone in [&second, &third] {
        assert_eq!(site.get("/servers", Some(gone)).await.location(), "/");
    }
    assert_eq!(
        site.get("/servers", Some(&bob)).await.status,
        StatusCode::OK
    );
    // Sessions expire: a week by default.
    site.harness.clock.advance_ms(7 * 24 * 3_600_000);
    assert_eq!(site.get("/servers", Some(&bob)).await.location(), "/");
}

#[tokio::test]
async fn the_development_login_only_when_asked_only_on_loopback_and_marked() {
    let site = Site::new().await;
    let home = site.get("/", None).await;
    assert!(!home.body.contains("/login/dev"));
    assert_eq!(
        site.post("/login/dev", None, &[]).await.status,
        StatusCode::NOT_FOUND
    );
    for address in ["0.0.0.0:8080", "192.168.1.2:80", "[::]:8080"] {
        let refused = WebOptions::new(&WebConfig::default(), address.parse().unwrap(), true);
        assert!(refused.is_err(), "{address}");
    }
    assert!(WebOptions::new(&WebConfig::default(), "[::1]:8080".parse().unwrap(), true).is_ok());

    let site = Site::with(options(true)).await;
    let home = site.get("/", None).await;
    assert!(home.body.contains("action=\"/login/dev\"") && home.body.contains("class=\"dev\""));
    let earlier = site.alice().await;
    let mut request = Request::post("/login/dev").header(header::ORIGIN, ORIGIN);
    request = request.header(header::COOKIE, &earlier);
    let login = site.send(request.body(Body::empty()).unwrap()).await;
    assert_eq!(
        (login.status, login.location()),
        (StatusCode::SEE_OTHER, "/servers")
    );
    let set_cookie = login
        .headers
        .get(header::SET_COOKIE)
        .unwrap()
        .to_str()
        .unwrap();
    assert!(set_cookie.contains("HttpOnly") && set_cookie.contains("SameSite=Lax"));
    assert!(!set_cookie.contains("Secure"), "plain http on loopback");
    let session = cookie_of(set_cookie);
    assert_ne!(session, earlier, "a login rotates the session");
    assert_eq!(site.get("/servers", Some(&earlier)).await.location(), "/");
    let servers = site.get("/servers", Some(&session)).await;
    assert!(servers.body.contains("/servers/1/macros") && servers.body.contains("class=\"dev\""));
    // A login from another site is refused.
    let foreign = site
        .post_from("/login/dev", None, &[], Some("https://evil.example"))
        .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn security_headers_body_limit_language_and_secure_cookies() {
    let site = Site::new().await;
    let alice = site.alice().await;
    for path in [
        "/",
        "/servers",
        "/servers/500/macros",
        "/nowhere",
        "/style.css",
    ] {
        let answer = site.get(path, Some(&alice)).await;
        let csp = answer.headers.get(header::CONTENT_SECURITY_POLICY).unwrap();
        assert_eq!(csp, CONTENT_SECURITY_POLICY, "{path}");
        assert_eq!(
            answer.headers.get(header::X_CONTENT_TYPE_OPTIONS).unwrap(),
            "nosniff"
        );
        assert!(
            !answer.body.contains("<script") && !answer.body.contains("style="),
            "{path}"
        );
    }
    assert_eq!(
        site.get("/nowhere", None).await.status,
        StatusCode::NOT_FOUND
    );
    let style = site.get("/style.css", None).await;
    assert!(
        style
            .headers
            .get(header::CONTENT_TYPE)
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("text/css")
    );
    // A body past the limit is refused before any handler reads it.
    let token = site.csrf(&alice).await;
    let huge = "1".repeat(tavern::web::MAX_BODY_BYTES);
    let fields = [
        ("csrf", token.as_str()),
        ("name", "big"),
        ("expr", huge.as_str()),
    ];
    let answer = site
        .post("/servers/500/macros", Some(&alice), &fields)
        .await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    // The reader's language.
    let request = Request::get("/servers")
        .header(header::COOKIE, &alice)
        .header(header::ACCEPT_LANGUAGE, "de-DE,de;q=0.9,en;q=0.8");
    let german = site.send(request.body(Body::empty()).unwrap()).await;
    assert!(german.body.contains("Überall abmelden") && german.body.contains("lang=\"de\""));
    // An https public URL makes the cookie Secure.
    let config = WebConfig {
        public_url: Some("https://tavern.example.org/".to_owned()),
        ..WebConfig::default()
    };
    let secure =
        Site::with(WebOptions::new(&config, "0.0.0.0:8080".parse().unwrap(), false).unwrap()).await;
    let user = User {
        id: ALICE,
        name: "Alice".to_owned(),
    };
    let set_cookie = start_session(&secure.web, user, &[], false).await.unwrap();
    assert!(set_cookie.ends_with("; Secure"), "{set_cookie}");
}

on_both_backends!(sessions_are_stored_hashed_and_expire);
async fn sessions_are_stored_hashed_and_expire(storage: Storage) {
    let row = tavern::storage::WebSessionRow {
        id_hash: "ab".repeat(32),
        user_id: ALICE,
        user_name: "Alice".to_owned(),
        guilds: "[]".to_owned(),
        csrf_token: "t".to_owned(),
        dev_login: 0,
        created_at: 1_000,
        expires_at: 2_000,
        sealed_token: Some("sealed".to_owned()),
        guilds_at: 1_000,
        locale: Some("de".to_owned()),
    };
    storage.create_web_session(&row).await.unwrap();
    let other = tavern::storage::WebSessionRow {
        id_hash: "cd".repeat(32),
        user_id: BOB,
        ..row.clone()
    };
    storage.create_web_session(&other).await.unwrap();
    assert_eq!(
        storage.web_session(&row.id_hash, 1_999).await.unwrap(),
        Some(row.clone())
    );
    assert_eq!(
        storage.web_session(&row.id_hash, 2_000).await.unwrap(),
        None
    );
    assert_eq!(storage.delete_web_sessions_of(ALICE).await.unwrap(), 1);
    assert_eq!(
        storage.web_session(&other.id_hash, 1_500).await.unwrap(),
        Some(other.clone())
    );
    // The servers read again from Discord replace those of the login.
    storage
        .update_web_session_guilds(&other.id_hash, "[1]", 1_600)
        .await
        .unwrap();
    let again = storage.web_session(&other.id_hash, 1_700).await.unwrap();
    assert_eq!(
        again.map(|row| (row.guilds, row.guilds_at)),
        Some(("[1]".to_owned(), 1_600))
    );
    assert_eq!(storage.purge_web_sessions(2_000).await.unwrap(), 1);
    assert!(!storage.delete_web_session(&other.id_hash).await.unwrap());
    // A member's roles: kept, then replaced by a later read.
    assert_eq!(storage.web_member_roles(GUILD, ALICE).await.unwrap(), None);
    for (roles, at) in [("[7]", 10), ("[]", 20)] {
        storage
            .set_web_member_roles(GUILD, ALICE, roles, at)
            .await
            .unwrap();
        assert_eq!(
            storage.web_member_roles(GUILD, ALICE).await.unwrap(),
            Some((roles.to_owned(), at))
        );
    }
}

// ----- Log in with Discord, through the real server and the fake Discord -----

const CLIENT_ID: u64 = 4_242;
const CLIENT_SECRET: &str = "s3cret";
const BOT_TOKEN: &str = "bot-token";
/// The server's Tavern role.
const TAVERN_ROLE: u64 = 77;

/// The dashboard on 127.0.0.1 beside a fake Discord that knows Alice (in Alice's
/// server, without Manage Server) and Bob (in his own server).
struct Live {
    site: Site,
    fake: FakeDiscord,
    base: String,
    http: reqwest::Client,
    server: tokio::task::JoinHandle<()>,
}

/// A browser's cookie jar, one cookie per name (the dashboard's are few).
#[derive(Default, Clone)]
struct Jar(Vec<(String, String)>);

impl Jar {
    fn take(&mut self, headers: &reqwest::header::HeaderMap) {
        for value in headers.get_all(reqwest::header::SET_COOKIE) {
            let pair = value.to_str().unwrap().split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            self.0.retain(|(known, _)| known != name);
            if !value.is_empty() {
                self.0.push((name.to_owned(), value.to_owned()));
            }
        }
    }

    fn header(&self) -> String {
        self.0
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }
}

struct Got {
    status: u16,
    location: String,
    set_cookies: Vec<String>,
    body: String,
}

fn alice_guilds(permissions: u64, roles: Vec<u64>) -> Vec<OAuthGuild> {
    vec![OAuthGuild {
        id: GUILD as u64,
        name: "The Tavern".to_owned(),
        permissions,
        roles,
    }]
}

impl Live {
    async fn start() -> Live {
        Live::with_secret(CLIENT_SECRET).await
    }

    /// `secret` is the client secret the dashboard is configured with.
    async fn with_secret(secret: &str) -> Live {
        let fake = FakeDiscord::start(FakeConfig {
            token: Some(BOT_TOKEN.to_owned()),
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
        fake.add_oauth_user(OAuthUser {
            id: ALICE as u64,
            username: "Alice".to_owned(),
            locale: "en-US".to_owned(),
            guilds: alice_guilds(0, vec![TAVERN_ROLE]),
        });
        fake.add_oauth_user(OAuthUser {
            id: BOB as u64,
            username: "Bob".to_owned(),
            locale: "de".to_owned(),
            guilds: vec![OAuthGuild {
                id: BOBS_GUILD as u64,
                name: "Bob's Keep".to_owned(),
                permissions: Permissions::MANAGE_GUILD,
                roles: Vec::new(),
            }],
        });
        let config = WebConfig {
            client_id: Some(CLIENT_ID),
            client_secret: Some(secret.to_owned()),
            discord_url: fake.api_base(),
            ..WebConfig::default()
        };
        let options = WebOptions::new(&config, address, false)
            .unwrap()
            .with_discord(&config, Some(BOT_TOKEN.to_owned()))
            .unwrap();
        let site = Site::with(options).await;
        let server = serve_on(listener, router(site.web.clone()));
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Live {
            site,
            fake,
            base,
            http,
            server,
        }
    }

    /// GET `url` (a path of the dashboard, or a whole URL) as a browser with `jar`.
    async fn get(&self, url: &str, jar: &mut Jar) -> Got {
        let url = if url.starts_with("http") {
            url.to_owned()
        } else {
            format!("{}{url}", self.base)
        };
        let request = self.http.get(&url).header("cookie", jar.header());
        self.send(request, jar).await
    }

    async fn post(&self, path: &str, jar: &mut Jar, form: &[(&str, &str)]) -> Got {
        let request = self
            .http
            .post(format!("{}{path}", self.base))
            .header("cookie", jar.header())
            .header("origin", &self.base)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(encode(form));
        self.send(request, jar).await
    }

    async fn send(&self, request: reqwest::RequestBuilder, jar: &mut Jar) -> Got {
        let response = request.send().await.unwrap();
        jar.take(response.headers());
        let header = |name| {
            response
                .headers()
                .get_all(name)
                .iter()
                .map(|value| value.to_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        };
        let location = header(reqwest::header::LOCATION).join("");
        let set_cookies = header(reqwest::header::SET_COOKIE);
        Got {
            status: response.status().as_u16(),
            location,
            set_cookies,
            body: response.text().await.unwrap(),
        }
    }

    /// `/login` and the fake's page up to the press of "Authorize as `user`": the
    /// callback URL Discord sends the browser back to.
    async fn to_callback(&self, jar: &mut Jar, user: i64) -> String {
        let login = self.get("/login", jar).await;
        assert_eq!(login.status, 303, "/login goes to Discord");
        let page = self.get(&login.location, jar).await;
        assert_eq!(page.status, 200, "the fake's authorize page: {}", page.body);
        assert!(page.body.contains(&format!("authorize-{user}")));
        let query = login.location.split_once('?').unwrap().1;
        let mut form: Vec<(String, String)> = query
            .split('&')
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap();
                (name.to_owned(), decode(value))
            })
            .collect();
        form.push(("user_id".to_owned(), user.to_string()));
        let granted = self
            .http
            .post(format!("{}/oauth2/authorize", self.fake.api_base()))
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(granted.status().as_u16(), 302);
        let location = granted.headers()[reqwest::header::LOCATION]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(location.starts_with(&format!("{}/login/callback?code=", self.base)));
        location
    }

    /// The whole login of `user`: the browser's jar with its session.
    async fn login(&self, user: i64) -> Jar {
        let mut jar = Jar::default();
        let callback = self.to_callback(&mut jar, user).await;
        let back = self.get(&callback, &mut jar).await;
        assert_eq!(back.status, 303, "the callback logs in: {}", back.body);
        assert_eq!(back.location, "/servers");
        jar
    }

    async fn shutdown(self) {
        self.server.abort();
        self.fake.shutdown().await;
    }
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

#[tokio::test]
async fn logging_in_with_discord_state_pkce_and_a_rotated_session() {
    let live = Live::start().await;
    let mut jar = Jar::default();
    let home = live.get("/", &mut jar).await;
    assert!(home.body.contains("href=\"/login\""), "{}", home.body);

    let login = live.get("/login", &mut jar).await;
    assert_eq!(login.status, 303);
    let to = &login.location;
    assert!(to.starts_with(&format!("{}/oauth2/authorize?", live.fake.api_base())));
    for part in [
        "response_type=code",
        "client_id=4242",
        "scope=identify%20guilds",
        "code_challenge_method=S256",
        "code_challenge=",
        "state=",
    ] {
        assert!(to.contains(part), "{part} in {to}");
    }
    let flow = &login.set_cookies[0];
    for attribute in ["tavern_oauth=", "HttpOnly", "SameSite=Lax", "Path=/login"] {
        assert!(flow.contains(attribute), "{attribute} in {flow}");
    }
    assert!(!flow.contains("Secure"), "plain http: no Secure");

    // A planted session id is not kept: the login gives a new one.
    jar.0
        .push(("tavern_session".to_owned(), "planted".to_owned()));
    let callback = live.to_callback(&mut jar, ALICE).await;
    let back = live.get(&callback, &mut jar).await;
    assert_eq!((back.status, back.location.as_str()), (303, "/servers"));
    let session = back
        .set_cookies
        .iter()
        .find(|cookie| cookie.starts_with("tavern_session="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(session.contains(attribute), "{attribute} in {session}");
    }
    assert_ne!(jar.get("tavern_session"), Some("planted"));
    assert_eq!(
        jar.get("tavern_oauth"),
        None,
        "the flow's cookie is cleared"
    );

    let servers = live.get("/servers", &mut jar).await;
    assert_eq!(servers.status, 200);
    assert!(servers.body.contains("The Tavern") && servers.body.contains("Alice"));
    assert!(!servers.body.contains("Bob&#39;s Keep"));
    live.shutdown().await;
}

/// The Discord token of a login is not in the table in clear: sealed under the
/// cookie's id, it opens with that id and that row only, and still reads the
/// user's servers again once they age.
#[tokio::test]
async fn the_discord_token_is_kept_sealed_under_the_cookies_id() {
    let live = Live::start().await;
    let mut alice = live.login(ALICE).await;
    let id = alice.get("tavern_session").unwrap().to_owned();
    let id_hash = hash_session_id(&id);
    let storage = live.site.harness.storage.clone();
    let row = storage.web_session(&id_hash, 0).await.unwrap().unwrap();
    let sealed = row
        .sealed_token
        .clone()
        .expect("a Discord login keeps its token");
    let token = unseal_token(&id, &id_hash, &sealed).expect("the cookie's id opens it");
    assert!(!token.is_empty());
    assert!(!sealed.contains(&token), "the token is not stored in clear");
    assert_eq!(unseal_token("another-id", &id_hash, &sealed), None);
    assert_eq!(unseal_token(&id, &"0".repeat(64), &sealed), None);
    let mut flipped = sealed.into_bytes();
    let last = flipped.len() - 1;
    flipped[last] = if flipped[last] == b'A' { b'B' } else { b'A' };
    assert_eq!(
        unseal_token(&id, &id_hash, &String::from_utf8(flipped).unwrap()),
        None
    );
    // Two seals of one token differ (a fresh nonce each).
    assert_ne!(
        seal_token(&id, &id_hash, &token),
        seal_token(&id, &id_hash, &token)
    );
    // Once the servers age, the unsealed token reads them again from Discord.
    let mut renamed = alice_guilds(0, vec![TAVERN_ROLE]);
    renamed[0].name = "The Renamed Tavern".to_owned();
    live.fake.set_oauth_guilds(ALICE as u64, renamed);
    live.site.harness.clock.advance_ms(301_000);
    let servers = live.get("/servers", &mut alice).await;
    assert!(
        servers.body.contains("The Renamed Tavern"),
        "{}",
        servers.body
    );
    live.shutdown().await;
}

/// Each way a login is refused: no session starts, the browser is told to try again.
#[tokio::test]
async fn a_login_discord_or_the_dashboard_refuses_starts_no_session() {
    type Tamper = fn(&Live, &mut Jar, String) -> String;
    let cases: &[(&str, Tamper, u16)] = &[
        (
            "another state",
            |_, _, url| url.replace("state=", "state=x"),
            400,
        ),
        (
            "no flow cookie (a forged link)",
            |_, jar, url| {
                jar.0.retain(|(name, _)| name != "tavern_oauth");
                url
            },
            400,
        ),
        (
            "a wrong PKCE verifier",
            |_, jar, url| {
                let flow = jar.get("tavern_oauth").unwrap().to_owned();
                let state = flow.split_once('.').unwrap().0.to_owned();
                jar.0.retain(|(name, _)| name != "tavern_oauth");
                jar.0.push((
                    "tavern_oauth".to_owned(),
                    format!("{state}.{}", "v".repeat(43)),
                ));
                url
            },
            502,
        ),
        (
            "an expired code",
            |live, _, url| {
                live.fake
                    .advance_time(fake_discord::CODE_LIFETIME + std::time::Duration::from_secs(1));
                url
            },
            502,
        ),
        (
            "cancelled at Discord",
            |_, _, url| {
                let (base, query) = url.split_once('?').unwrap();
                let state = query.split('&').find(|p| p.starts_with("state=")).unwrap();
                format!("{base}?error=access_denied&{state}")
            },
            200,
        ),
    ];
    for (what, tamper, status) in cases {
        let live = Live::start().await;
        let mut jar = Jar::default();
        let callback = live.to_callback(&mut jar, ALICE).await;
        let callback = tamper(&live, &mut jar, callback);
        let back = live.get(&callback, &mut jar).await;
        assert_eq!(back.status, *status, "{what}: {}", back.body);
        assert_eq!(jar.get("tavern_session"), None, "{what}: no session");
        assert_eq!(live.get("/servers", &mut jar).await.location, "/", "{what}");
        live.shutdown().await;
    }

    // A code serves once: the same callback again (its flow cookie kept) fails.
    let live = Live::start().await;
    let mut jar = Jar::default();
    let callback = live.to_callback(&mut jar, ALICE).await;
    let kept = jar.clone();
    assert_eq!(live.get(&callback, &mut jar).await.status, 303);
    let mut replay = kept;
    let again = live.get(&callback, &mut replay).await;
    assert_eq!(again.status, 502, "a reused code");
    assert_eq!(replay.get("tavern_session"), None);
    live.shutdown().await;

    // The dashboard configured with the wrong client secret cannot log anyone in.
    let live = Live::with_secret("wrong").await;
    let mut jar = Jar::default();
    let callback = live.to_callback(&mut jar, ALICE).await;
    assert_eq!(live.get(&callback, &mut jar).await.status, 502);
    assert_eq!(jar.get("tavern_session"), None);
    live.shutdown().await;
}

/// The fake's token endpoint refuses as Discord does, in Discord's shapes.
#[tokio::test]
async fn the_fake_discord_refuses_what_discord_refuses() {
    let live = Live::start().await;
    let redirect = format!("{}/login/callback", live.base);
    let verifier = "v".repeat(43);
    let challenge = {
        use base64::Engine as _;
        use sha2::Digest as _;
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(sha2::Sha256::digest(verifier.as_bytes()))
    };
    let authorize = format!("{}/oauth2/authorize", live.fake.api_base());
    let grant = |redirect_uri: String| {
        let request = live.http.post(&authorize).form(&[
            ("client_id", CLIENT_ID.to_string()),
            ("redirect_uri", redirect_uri),
            ("response_type", "code".to_owned()),
            ("scope", "identify guilds".to_owned()),
            ("state", "s".to_owned()),
            ("code_challenge", challenge.clone()),
            ("code_challenge_method", "S256".to_owned()),
            ("user_id", ALICE.to_string()),
        ]);
        async move { request.send().await.unwrap() }
    };
    // An unregistered redirect URI is refused on the page, never redirected to.
    let refused = grant("https://evil.example/cb".to_owned()).await;
    assert_eq!(refused.status().as_u16(), 400);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Invalid OAuth2 redirect_uri")
    );

    let token = format!("{}/api/oauth2/token", live.fake.api_base());
    // (what is changed, client secret, redirect_uri, verifier, status, error, description)
    let cases = [
        (
            "nothing",
            CLIENT_SECRET,
            redirect.as_str(),
            verifier.as_str(),
            200,
            "",
            "",
        ),
        (
            "the secret",
            "wrong",
            redirect.as_str(),
            verifier.as_str(),
            401,
            "invalid_client",
            "",
        ),
        (
            "the redirect URI",
            CLIENT_SECRET,
            "http://127.0.0.1:1/cb",
            verifier.as_str(),
            400,
            "invalid_grant",
            "Invalid \"redirect_uri\" in request.",
        ),
        (
            "the verifier",
            CLIENT_SECRET,
            redirect.as_str(),
            &"w".repeat(43),
            400,
            "invalid_grant",
            "Invalid \"code_verifier\" in request.",
        ),
    ];
    for (what, secret, redirect_uri, code_verifier, status, error, description) in cases {
        let granted = grant(redirect.clone()).await;
        let location = granted.headers()["location"].to_str().unwrap().to_owned();
        let code = location
            .split("code=")
            .nth(1)
            .unwrap()
            .split('&')
            .next()
            .unwrap()
            .to_owned();
        let exchange = || {
            live.http
                .post(&token)
                .basic_auth(CLIENT_ID, Some(secret))
                .form(&[
                    ("grant_type", "authorization_code"),
                    ("code", code.as_str()),
                    ("redirect_uri", redirect_uri),
                    ("code_verifier", code_verifier),
                ])
                .send()
        };
        let answer = exchange().await.unwrap();
        assert_eq!(answer.status().as_u16(), status, "{what}");
        let body: serde_json::Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
        if status == 200 {
            assert_eq!(body["token_type"], "Bearer");
            assert_eq!(body["scope"], "identify guilds");
            // Used once, the code is gone.
            let again = exchange().await.unwrap();
            assert_eq!(again.status().as_u16(), 400, "a reused code");
            let body: serde_json::Value =
                serde_json::from_str(&again.text().await.unwrap()).unwrap();
            assert_eq!(body["error"], "invalid_grant");
            continue;
        }
        assert_eq!(body["error"], error, "{what}");
        if !description.is_empty() {
            assert_eq!(body["error_description"], description, "{what}");
        }
    }
    live.shutdown().await;
}

/// Who may change what is decided from Discord: Manage Server, or the server's
/// Tavern role read through the bot's token (kept briefly); the servers a user is in
/// are read again when the cache ages, and a user who left sees the server no more.
#[tokio::test]
async fn the_tavern_role_and_the_servers_come_from_discord_and_are_cached_briefly() {
    let live = Live::start().await;
    let storage = live.site.harness.storage.clone();
    let server_macros = || async {
        storage
            .macros_visible(GUILD, ALICE)
            .await
            .unwrap()
            .into_iter()
            .filter(|row| row.is_server())
            .map(|row| row.name)
            .collect::<Vec<_>>()
    };
    let mut alice = live.login(ALICE).await;
    let token = live.get("/servers", &mut alice).await;
    let token = Answer {
        status: StatusCode::OK,
        headers: HeaderMap::new(),
        body: token.body,
    }
    .csrf();
    let set = |name: &'static str| {
        [
            ("csrf", token.clone()),
            ("name", name.to_owned()),
            ("expr", "2d6".to_owned()),
            ("scope", "server".to_owned()),
        ]
    };
    let post = |jar: &mut Jar, form: [(&'static str, String); 4]| {
        let form: Vec<(&str, String)> = form.into_iter().collect();
        let pairs: Vec<(&str, &str)> = form.iter().map(|(n, v)| (*n, v.as_str())).collect();
        let encoded = encode(&pairs);
        let request = live
            .http
            .post(format!("{}/servers/{GUILD}/macros", live.base))
            .header("cookie", jar.header())
            .header("origin", &live.base)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(encoded);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    // No Tavern role set: Alice (no Manage Server) may not.
    assert_eq!(post(&mut alice, set("before")).await, 200);
    assert!(server_macros().await.is_empty());
    // The server's Tavern role is hers on Discord: now she may.
    storage
        .set_macro_role(GUILD, Some(TAVERN_ROLE as i64), ALICE, 0)
        .await
        .unwrap();
    assert_eq!(post(&mut alice, set("withrole")).await, 200);
    assert_eq!(server_macros().await, ["withrole"]);
    let member_reads = || {
        live.fake
            .requests()
            .iter()
            .filter(|request| request.path == format!("/guilds/{GUILD}/members/{ALICE}"))
            .map(|request| request.authorization.clone().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(member_reads(), [format!("Bot {BOT_TOKEN}")]);
    // The role is taken away on Discord: the cache holds it until it ages.
    live.fake
        .set_oauth_guilds(ALICE as u64, alice_guilds(0, Vec::new()));
    assert_eq!(post(&mut alice, set("cached")).await, 200);
    assert_eq!(member_reads().len(), 1, "read once while fresh");
    live.site.harness.clock.advance_ms(301_000);
    assert_eq!(post(&mut alice, set("afterwards")).await, 200);
    let mut names = server_macros().await;
    names.sort();
    assert_eq!(names, ["cached", "withrole"]);
    // Alice leaves the server on Discord: once the servers age, it is not hers.
    assert_eq!(
        live.get(&format!("/servers/{GUILD}/macros"), &mut alice)
            .await
            .status,
        200
    );
    live.fake.set_oauth_guilds(ALICE as u64, Vec::new());
    live.site.harness.clock.advance_ms(301_000);
    assert_eq!(
        live.get(&format!("/servers/{GUILD}/macros"), &mut alice)
            .await
            .status,
        404
    );
    live.shutdown().await;
}

/// Through the real server and a Discord login: every page and form without a
/// session, with another user's session, with another server's ids, and without
/// the CSRF token.
#[tokio::test]
async fn every_route_through_the_real_server_checks_who_asks() {
    let live = Live::start().await;
    with_characters(&live.site).await;
    let mut alice = live.login(ALICE).await;
    let mut bob = live.login(BOB).await;
    let mut nobody = Jar::default();
    let bobs_token = Answer {
        status: StatusCode::OK,
        headers: HeaderMap::new(),
        body: live.get("/servers", &mut bob).await.body,
    }
    .csrf();
    for page in PAGES {
        let path = page.replace("{c}", "1");
        assert_eq!(
            live.get(&path, &mut nobody).await.location,
            "/",
            "GET {path}"
        );
        assert_eq!(live.get(&path, &mut alice).await.status, 200, "GET {path}");
        let status = live.get(&path, &mut bob).await.status;
        if path != "/servers" {
            assert_eq!(status, 404, "GET {path} as Bob");
        }
        let theirs = path.replace("/500/", "/501/");
        if theirs != path {
            assert_eq!(
                live.get(&theirs, &mut alice).await.status,
                404,
                "GET {theirs}"
            );
        }
    }
    for form in FORMS {
        let path = form.replace("{c}", "1");
        let fields = [("name", "x"), ("expr", "1d4"), ("custom_id", "tv1:cd:1")];
        assert_eq!(
            live.post(&path, &mut nobody, &fields).await.status,
            401,
            "POST {path}"
        );
        assert_eq!(
            live.post(&path, &mut alice, &fields).await.status,
            403,
            "POST {path} without a token"
        );
        if path.starts_with("/servers/") {
            let mut with_token = vec![("csrf", bobs_token.as_str())];
            with_token.extend(fields);
            assert_eq!(
                live.post(&path, &mut bob, &with_token).await.status,
                404,
                "POST {path} as Bob"
            );
        }
    }
    assert_eq!(
        live.site
            .harness
            .storage
            .characters_of(ALICE, GUILD)
            .await
            .unwrap()
            .len(),
        1
    );
    live.shutdown().await;
}
