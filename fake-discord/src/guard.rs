//! The check that keeps a test's bot from reaching the real Discord.

use std::fmt;

/// Why an Http configuration is unsafe for tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpGuardError {
    /// serenity's rate limiter rebuilds each request without the proxy, so requests would
    /// go to `https://discord.com`.
    RateLimiterOn,
    /// The proxy is not on loopback.
    NotLoopback(String),
}

impl fmt::Display for HttpGuardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpGuardError::RateLimiterOn => write!(
                f,
                "api_base is set but the rate limiter is on; serenity's rate limiter ignores the proxy \
                 and would call discord.com (use ratelimiter_disabled(true) with proxy)"
            ),
            HttpGuardError::NotLoopback(base) => {
                write!(
                    f,
                    "api_base {base} is not on loopback (expected http://127.0.0.1:PORT)"
                )
            }
        }
    }
}

impl std::error::Error for HttpGuardError {}

/// Checks the two settings that make serenity's `HttpBuilder::proxy` safe in tests: the
/// base is on loopback and the rate limiter is disabled.
///
/// The bot calls it where it builds its `Http` whenever an `api_base` is configured:
///
/// ```
/// # fn build(api_base: &str) -> Result<(), fake_discord::HttpGuardError> {
/// fake_discord::guard_http(api_base, true)?;
/// // hb = hb.proxy(api_base).ratelimiter_disabled(true);
/// # Ok(()) }
/// # build("http://127.0.0.1:4000").unwrap();
/// ```
pub fn guard_http(api_base: &str, ratelimiter_disabled: bool) -> Result<(), HttpGuardError> {
    if !ratelimiter_disabled {
        return Err(HttpGuardError::RateLimiterOn);
    }
    let host_and_port = api_base.strip_prefix("http://").unwrap_or("");
    let host = match host_and_port.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => host_and_port.split([':', '/']).next().unwrap_or(""),
    };
    let loopback = host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        return Err(HttpGuardError::NotLoopback(api_base.to_owned()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_table() {
        let table = [
            ("http://127.0.0.1:4000", true, None),
            ("http://127.5.0.1:4000/", true, None),
            ("http://localhost:4000", true, None),
            ("http://[::1]:4000", true, None),
            (
                "http://127.0.0.1:4000",
                false,
                Some(HttpGuardError::RateLimiterOn),
            ),
            (
                "https://discord.com",
                true,
                Some(HttpGuardError::NotLoopback("https://discord.com".into())),
            ),
            (
                "http://10.0.0.1:80",
                true,
                Some(HttpGuardError::NotLoopback("http://10.0.0.1:80".into())),
            ),
        ];
        for (base, disabled, expected) in table {
            assert_eq!(guard_http(base, disabled).err(), expected, "{base}");
        }
    }
}
