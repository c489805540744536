//! The command specs as the core's modules name them: the types and builders live in
//! [`crate::spec`] (below `core`, so `i18n` reads them without reaching up);
//! [`command_specs`] lists every command the table holds.

pub use crate::spec::*;

/// Every command, in registration order (the table in [`super::table`]);
/// `max_repeat` bounds `/roll`'s `repeat`.
pub fn command_specs(max_repeat: u32) -> Vec<CommandSpec> {
    let settings = super::CoreSettings {
        max_repeat,
        ..super::CoreSettings::default()
    };
    super::table::COMMANDS
        .iter()
        .map(|entry| (entry.spec)(&settings))
        .collect()
}
