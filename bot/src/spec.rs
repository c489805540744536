//! The shape of a slash command's registration ([`CommandSpec`] with its options,
//! subcommands and groups) and the builders command modules write their specs with.
//! Each spec lives in its command's module; the command table lists them, and
//! the Discord adapter registers that list (one bulk overwrite) and the console parses
//! typed lines against it.

/// A top-level command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// Options of a command without subcommands.
    pub options: Vec<OptionSpec>,
    pub subcommands: Vec<SubcommandSpec>,
    /// Subcommand groups: `/chargen program add` is group `program`, subcommand `add`.
    pub groups: Vec<GroupSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub subcommands: Vec<SubcommandSpec>,
}

impl GroupSpec {
    pub fn subcommand(&self, name: &str) -> Option<&SubcommandSpec> {
        self.subcommands.iter().find(|sub| sub.name == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubcommandSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub options: Vec<OptionSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: OptionKind,
    pub required: bool,
    pub autocomplete: bool,
    /// The only values Discord lets a user pick (none: free text).
    pub choices: &'static [&'static str],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    String {
        max_length: u16,
    },
    Integer {
        min: i64,
        max: i64,
    },
    Boolean,
    /// An uploaded file.
    Attachment,
    /// A role of the server.
    Role,
    /// A text channel of the server.
    Channel,
}

impl CommandSpec {
    pub fn subcommand(&self, name: &str) -> Option<&SubcommandSpec> {
        self.subcommands.iter().find(|sub| sub.name == name)
    }

    pub fn group(&self, name: &str) -> Option<&GroupSpec> {
        self.groups.iter().find(|group| group.name == name)
    }
}

pub(crate) fn string(name: &'static str, description: &'static str, max_length: u16) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::String { max_length },
        required: false,
        autocomplete: false,
        choices: &[],
    }
}

impl OptionSpec {
    pub(crate) fn required(mut self) -> OptionSpec {
        self.required = true;
        self
    }

    pub(crate) fn autocomplete(mut self) -> OptionSpec {
        self.autocomplete = true;
        self
    }

    pub(crate) fn choices(mut self, choices: &'static [&'static str]) -> OptionSpec {
        self.choices = choices;
        self
    }
}

pub(crate) fn attachment(name: &'static str, description: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::Attachment,
        required: false,
        autocomplete: false,
        choices: &[],
    }
}

pub(crate) fn sub(
    name: &'static str,
    description: &'static str,
    options: Vec<OptionSpec>,
) -> SubcommandSpec {
    SubcommandSpec {
        name,
        description,
        options,
    }
}

/// `scope: server | me`, offered as a choice.
pub(crate) fn scope(description: &'static str) -> OptionSpec {
    string("scope", description, 6).choices(&["me", "server"])
}
