//! HTML built by hand: every text that is not a literal of this module goes through
//! [`escape`], and pages carry no inline script and no inline style (the CSP forbids both).

use crate::i18n::{self, Lang};

/// `text` safe inside an element or a double-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// What the page header shows about who is logged in.
pub struct Header<'a> {
    pub user_name: &'a str,
    pub csrf: &'a str,
    pub dev_login: bool,
}

/// A whole page: `body` is HTML already escaped.
pub fn page(lang: Lang, title: &str, header: Option<&Header<'_>>, body: &str) -> String {
    page_with_head(lang, title, header, "", body)
}

/// [`page`] with `head` (trusted HTML: a script element, a meta refresh) in `<head>`.
pub fn page_with_head(
    lang: Lang,
    title: &str,
    header: Option<&Header<'_>>,
    head: &str,
    body: &str,
) -> String {
    let mut nav = String::new();
    if let Some(header) = header {
        nav.push_str(&format!(
            "<nav><a href=\"/servers\">{servers}</a> <span class=\"who\">{who}</span> \
             <form method=\"post\" action=\"/logout\">{csrf}<button>{logout}</button></form> \
             <form method=\"post\" action=\"/logout/everywhere\">{csrf}<button>{everywhere}</button></form></nav>",
            servers = escape(&i18n::tr(lang, "web-servers")),
            who = escape(header.user_name),
            csrf = csrf_field(header.csrf),
            logout = escape(&i18n::tr(lang, "web-logout")),
            everywhere = escape(&i18n::tr(lang, "web-logout-everywhere")),
        ));
        if header.dev_login {
            nav.push_str(&format!(
                "<p class=\"dev\">{}</p>",
                escape(&i18n::tr(lang, "web-dev-login-banner"))
            ));
        }
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · Tavern</title><link rel=\"stylesheet\" href=\"/style.css\">{head}</head>\
         <body><header><strong>Tavern</strong> {nav}</header><main><h1>{title}</h1>{body}</main></body></html>\n",
        lang = lang.code(),
        title = escape(title),
    )
}

/// The hidden field every form of a session carries.
pub fn csrf_field(token: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        escape(token)
    )
}

/// A text the core answered (markdown as typed), shown as it is.
pub fn notice(text: &str) -> String {
    format!("<pre class=\"notice\">{}</pre>", escape(text))
}
