//! What every web test module shares: the dashboard in-process over a test harness
//! (`Site`), a session for a user in chosen servers, GET and POST as a browser sends
//! them, and the answer with its status, headers and body.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use tavern::config::WebConfig;
use tavern::core::User;
use tavern::web::{SessionGuild, Web, WebOptions, router, start_session};
use tower::ServiceExt as _;

use crate::harness::{ALICE, Harness};

/// The public origin of the in-process dashboard: forms carry it in `Origin`.
pub(crate) const ORIGIN: &str = "http://127.0.0.1:8080";

/// The dashboard over a harness's core and clock.
pub(crate) struct Site {
    pub(crate) harness: Harness,
    pub(crate) web: Web,
}

/// An answer of the dashboard.
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn location(&self) -> &str {
        self.headers
            .get(header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .unwrap_or("")
    }

    /// The CSRF token the page's forms carry.
    pub(crate) fn csrf(&self) -> String {
        self.hidden("csrf")
    }

    /// The value of the first hidden field `name` of the page.
    pub(crate) fn hidden(&self, name: &str) -> String {
        let marker = format!("name=\"{name}\" value=\"");
        let start = self.body.find(&marker).expect("the field") + marker.len();
        let end = self.body[start..].find('"').unwrap();
        self.body[start..start + end]
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
    }
}

/// The dashboard's options on [`ORIGIN`], without Discord.
pub(crate) fn options(dev_login: bool) -> WebOptions {
    WebOptions::new(
        &WebConfig::default(),
        ORIGIN[7..].parse().unwrap(),
        dev_login,
    )
    .unwrap()
}

impl Site {
    /// The macros tests' harness behind a dashboard without Discord.
    pub(crate) async fn new() -> Site {
        Site::with(options(false)).await
    }

    pub(crate) async fn with(options: WebOptions) -> Site {
        let harness = Harness::with_settings(crate::macros::settings()).await;
        Site::on(harness, options)
    }

    /// `harness` (an encounter table, …) behind a dashboard with `options`.
    pub(crate) fn on(harness: Harness, options: WebOptions) -> Site {
        let web = Web::new(harness.core.clone(), harness.clock.clone(), options);
        Site { harness, web }
    }

    pub(crate) fn router(&self) -> Router {
        router(self.web.clone())
    }

    /// A session for `user` in `guilds` (id, permission bits): its cookie.
    pub(crate) async fn login(&self, user: i64, guilds: &[(i64, u64)]) -> String {
        let guilds: Vec<SessionGuild> = guilds
            .iter()
            .map(|&(id, permissions)| SessionGuild {
                id,
                name: format!("Server {id}"),
                permissions,
            })
            .collect();
        let name = if user == ALICE { "Alice" } else { "Bob" };
        let user = User {
            id: user,
            name: name.to_owned(),
        };
        let set_cookie = start_session(&self.web, user, &guilds, false)
            .await
            .unwrap();
        cookie_of(&set_cookie)
    }

    pub(crate) async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.router().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 22)
            .await
            .unwrap();
        Answer {
            status,
            headers,
            body: String::from_utf8(bytes.to_vec()).unwrap(),
        }
    }

    pub(crate) async fn get(&self, path: &str, cookie: Option<&str>) -> Answer {
        let mut request = Request::get(path);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        self.send(request.body(Body::empty()).unwrap()).await
    }

    /// A form from this origin.
    pub(crate) async fn post(
        &self,
        path: &str,
        cookie: Option<&str>,
        form: &[(&str, &str)],
    ) -> Answer {
        self.post_from(path, cookie, form, Some(ORIGIN)).await
    }

    /// A form with `origin` in `Origin` (none: a client that sends none).
    pub(crate) async fn post_from(
        &self,
        path: &str,
        cookie: Option<&str>,
        form: &[(&str, &str)],
        origin: Option<&str>,
    ) -> Answer {
        let mut request =
            Request::post(path).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        if let Some(origin) = origin {
            request = request.header(header::ORIGIN, origin);
        }
        self.send(request.body(Body::from(encode(form))).unwrap())
            .await
    }

    /// A form body already encoded, from a browser that prefers `language`.
    pub(crate) async fn post_raw_in(
        &self,
        language: &str,
        path: &str,
        cookie: Option<&str>,
        body: String,
    ) -> Answer {
        let mut request = Request::post(path)
            .header(header::ACCEPT_LANGUAGE, language)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ORIGIN, ORIGIN);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        self.send(request.body(Body::from(body)).unwrap()).await
    }

    /// The CSRF token of a session, read from a page as a browser would.
    pub(crate) async fn csrf(&self, cookie: &str) -> String {
        self.get("/servers", Some(cookie)).await.csrf()
    }
}

/// `name=value` of a `Set-Cookie` header.
pub(crate) fn cookie_of(set_cookie: &str) -> String {
    set_cookie.split(';').next().unwrap().to_owned()
}

/// A form as `application/x-www-form-urlencoded`.
pub(crate) fn encode(form: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish()
}
