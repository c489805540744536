//! Logging: `tracing` with an env filter (`RUST_LOG` wins over the configuration),
//! human-readable or JSON lines, always on stderr so stdout stays the program's.

use tracing_subscriber::EnvFilter;

use crate::config::LogConfig;

/// Installs the global subscriber. `quiet_default` keeps the console's terminal clean
/// (warnings only) unless a filter is asked for.
pub fn init(log: &LogConfig, json: bool, quiet_default: bool) -> anyhow::Result<()> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(filter) if !filter.trim().is_empty() => EnvFilter::try_new(filter)?,
        _ if quiet_default && log.filter == LogConfig::default().filter => EnvFilter::new("warn"),
        _ => EnvFilter::try_new(&log.filter)?,
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let result = if json || log.json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    result.map_err(|error| anyhow::anyhow!("cannot install the logger: {error}"))
}
