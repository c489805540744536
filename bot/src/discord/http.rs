//! Building serenity's `Http`, and the guard that keeps a test configuration from
//! reaching the real Discord.
//!
//! `[discord] api_base` points the bot at a fake Discord through `HttpBuilder::proxy`.
//! serenity's rate limiter rebuilds every request without the proxy, so a proxy only
//! works with the rate limiter off; and with the rate limiter off, nothing may leave
//! this machine. [`HttpPlan::check`] refuses both mistakes before any `Http` exists.

use serenity::all::{ApplicationId, CreateAllowedMentions, Http, HttpBuilder};

/// Why an HTTP configuration is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HttpGuardError {
    /// serenity's rate limiter ignores the proxy: requests would go to discord.com.
    #[error(
        "api_base is set but the rate limiter is on; serenity's rate limiter ignores the \
         proxy and would call discord.com"
    )]
    RateLimiterWithProxy,
    /// Without the rate limiter, the proxy must be on this machine.
    #[error(
        "api_base {0} is not on loopback; api_base is for tests against a local fake \
         Discord (http://127.0.0.1:PORT)"
    )]
    NotLoopback(String),
    /// `GET /gateway` did not answer from the api_base, and serenity fell back to the
    /// real gateway.
    #[error(
        "the gateway {0} is not on loopback although api_base is set (did GET /gateway \
         fail?); refusing to connect to the real Discord"
    )]
    GatewayNotLoopback(String),
    /// serenity appends paths to the base; a query or fragment would break every route.
    #[error("api_base {0} must be a plain http://HOST:PORT base without query or fragment")]
    Malformed(String),
}

/// How the `Http` will reach Discord.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpPlan {
    /// The base replacing `https://discord.com` (tests only).
    pub proxy: Option<String>,
    pub ratelimiter_disabled: bool,
}

impl HttpPlan {
    /// The plan for a configured `api_base`: production keeps the rate limiter; a fake
    /// Discord needs it off.
    pub fn for_api_base(api_base: Option<&str>) -> HttpPlan {
        match api_base {
            Some(base) => HttpPlan {
                proxy: Some(base.trim_end_matches('/').to_owned()),
                ratelimiter_disabled: true,
            },
            None => HttpPlan {
                proxy: None,
                ratelimiter_disabled: false,
            },
        }
    }

    /// Refuses a proxy with the rate limiter on, and a proxy off loopback.
    pub fn check(&self) -> Result<(), HttpGuardError> {
        let Some(proxy) = &self.proxy else {
            return Ok(());
        };
        if !self.ratelimiter_disabled {
            return Err(HttpGuardError::RateLimiterWithProxy);
        }
        if proxy.contains(['?', '#']) {
            return Err(HttpGuardError::Malformed(proxy.clone()));
        }
        match loopback_host(proxy, "http://") {
            Some(true) => Ok(()),
            Some(false) => Err(HttpGuardError::NotLoopback(proxy.clone())),
            None => Err(HttpGuardError::Malformed(proxy.clone())),
        }
    }

    /// With a proxy, the gateway serenity was given must be on loopback too: when
    /// `GET /gateway` fails, serenity silently falls back to the real gateway.
    pub fn check_gateway(&self, gateway_url: &str) -> Result<(), HttpGuardError> {
        if self.proxy.is_none() {
            return Ok(());
        }
        match loopback_host(gateway_url, "ws://") {
            Some(true) => Ok(()),
            _ => Err(HttpGuardError::GatewayNotLoopback(gateway_url.to_owned())),
        }
    }
}

/// Whether `url` (with the given scheme) names a loopback host; `None` when it is not
/// a plain `scheme://host[:port][/path]` URL.
fn loopback_host(url: &str, scheme: &str) -> Option<bool> {
    let authority = url.strip_prefix(scheme)?.split('/').next().unwrap_or("");
    if authority.contains('@') {
        return None;
    }
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    Some(
        host.eq_ignore_ascii_case("localhost")
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback()),
    )
}

/// The bot's `Http`: checked plan, no mention allowed by default, and the application
/// id when configured (otherwise serenity takes it from READY).
pub fn build_http(
    token: &str,
    api_base: Option<&str>,
    application_id: Option<u64>,
) -> Result<Http, HttpGuardError> {
    let plan = HttpPlan::for_api_base(api_base);
    plan.check()?;
    let mut builder = HttpBuilder::new(token)
        .default_allowed_mentions(CreateAllowedMentions::new())
        .ratelimiter_disabled(plan.ratelimiter_disabled);
    if let Some(proxy) = plan.proxy {
        builder = builder.proxy(proxy);
    }
    if let Some(id) = application_id.filter(|id| *id != 0) {
        builder = builder.application_id(ApplicationId::new(id));
    }
    Ok(builder.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_checked() {
        let table: &[(Option<&str>, Result<(), HttpGuardError>)] = &[
            (None, Ok(())),
            (Some("http://127.0.0.1:4000"), Ok(())),
            (Some("http://127.0.0.1:4000/"), Ok(())),
            (Some("http://localhost:80"), Ok(())),
            (Some("http://[::1]:4000"), Ok(())),
            (
                Some("https://discord.com"),
                Err(HttpGuardError::Malformed("https://discord.com".into())),
            ),
            (
                Some("http://discord.com"),
                Err(HttpGuardError::NotLoopback("http://discord.com".into())),
            ),
            (
                Some("http://10.0.0.1:80"),
                Err(HttpGuardError::NotLoopback("http://10.0.0.1:80".into())),
            ),
            (
                Some("http://127.0.0.1@evil.example:80"),
                Err(HttpGuardError::Malformed(
                    "http://127.0.0.1@evil.example:80".into(),
                )),
            ),
            (
                Some("http://127.0.0.1:80?x=1"),
                Err(HttpGuardError::Malformed("http://127.0.0.1:80?x=1".into())),
            ),
        ];
        for (base, expected) in table {
            assert_eq!(&HttpPlan::for_api_base(*base).check(), expected, "{base:?}");
        }
    }

    #[test]
    fn a_proxy_with_the_rate_limiter_on_is_refused() {
        let plan = HttpPlan {
            proxy: Some("http://127.0.0.1:4000".into()),
            ratelimiter_disabled: false,
        };
        assert_eq!(plan.check(), Err(HttpGuardError::RateLimiterWithProxy));
        assert!(build_http("token", Some("http://example.com"), None).is_err());
    }

    #[test]
    fn with_a_proxy_the_gateway_must_be_local_too() {
        let local = HttpPlan::for_api_base(Some("http://127.0.0.1:4000"));
        assert_eq!(local.check_gateway("ws://127.0.0.1:4000/ws"), Ok(()));
        assert_eq!(
            local.check_gateway("wss://gateway.discord.gg"),
            Err(HttpGuardError::GatewayNotLoopback(
                "wss://gateway.discord.gg".into()
            ))
        );
        let production = HttpPlan::for_api_base(None);
        assert_eq!(production.check_gateway("wss://gateway.discord.gg"), Ok(()));
    }
}
