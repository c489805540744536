//! The slash commands Tavern offers: the one table from which the Discord adapter
//! registers commands (one bulk overwrite) and the console parses typed lines.

/// A top-level command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    pub name: &'static str,
    pub description: &'static str,
    /// Options of a command without subcommands.
    pub options: Vec<OptionSpec>,
    pub subcommands: Vec<SubcommandSpec>,
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
}

impl CommandSpec {
    pub fn subcommand(&self, name: &str) -> Option<&SubcommandSpec> {
        self.subcommands.iter().find(|sub| sub.name == name)
    }
}

fn string(name: &'static str, description: &'static str, max_length: u16) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::String { max_length },
        required: false,
        autocomplete: false,
    }
}

impl OptionSpec {
    fn required(mut self) -> OptionSpec {
        self.required = true;
        self
    }

    fn autocomplete(mut self) -> OptionSpec {
        self.autocomplete = true;
        self
    }
}

fn attachment(name: &'static str, description: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::Attachment,
        required: false,
        autocomplete: false,
    }
}

fn sub(name: &'static str, description: &'static str, options: Vec<OptionSpec>) -> SubcommandSpec {
    SubcommandSpec {
        name,
        description,
        options,
    }
}

/// Every command, in registration order.
pub fn command_specs(max_repeat: u32) -> Vec<CommandSpec> {
    vec![
        CommandSpec {
            name: "roll",
            description: "Roll dice: 1d20+5, 4d6kh3, 8d6 fire …",
            options: vec![
                string(
                    "expr",
                    "The dice expression, e.g. 4d6kh3 or 1d20+5 to hit",
                    1000,
                )
                .required()
                .autocomplete(),
                string("label", "What the roll is for", 100),
                OptionSpec {
                    name: "private",
                    description: "Only you see the result",
                    kind: OptionKind::Boolean,
                    required: false,
                    autocomplete: false,
                },
                OptionSpec {
                    name: "repeat",
                    description: "Roll this many times",
                    kind: OptionKind::Integer {
                        min: 1,
                        max: i64::from(max_repeat),
                    },
                    required: false,
                    autocomplete: false,
                },
            ],
            subcommands: vec![],
        },
        CommandSpec {
            name: "chargen",
            description: "Create a character with a generator program",
            options: vec![],
            subcommands: vec![
                sub(
                    "start",
                    "Start a character generator",
                    vec![
                        string("program", "Which program (default: the server's)", 32)
                            .autocomplete(),
                    ],
                ),
                sub(
                    "answer",
                    "Answer the generator's question",
                    vec![string("text", "Your answer", 255).required()],
                ),
                sub("cancel", "Stop your character generator", vec![]),
                sub(
                    "status",
                    "Show where your character generator stands",
                    vec![],
                ),
            ],
        },
        CommandSpec {
            name: "character",
            description: "Your stored characters",
            options: vec![],
            subcommands: vec![
                sub("list", "List your characters here", vec![]),
                sub(
                    "show",
                    "Show a character",
                    vec![
                        string("name", "The character's name", 100)
                            .required()
                            .autocomplete(),
                    ],
                ),
                sub(
                    "delete",
                    "Delete a character",
                    vec![
                        string("name", "The character's name", 100)
                            .required()
                            .autocomplete(),
                    ],
                ),
            ],
        },
        CommandSpec {
            name: "npc",
            description: "NPCs players can talk to (server admins)",
            options: vec![],
            subcommands: vec![
                sub(
                    "install",
                    "Install or replace an NPC from a GhulScript file or code block",
                    vec![
                        string("name", "The NPC's name: letters, digits, _", 32).required(),
                        attachment("file", "The .ghul script"),
                        string("code", "The script, as a code block", 6000),
                        string("display", "How the NPC is shown (default: the name)", 32),
                    ],
                ),
                sub("list", "List the NPCs of this server", vec![]),
                sub(
                    "remove",
                    "Remove an NPC",
                    vec![
                        string("name", "The NPC's name", 32)
                            .required()
                            .autocomplete(),
                    ],
                ),
                sub(
                    "activity",
                    "Set an NPC's activity code (the script's ACTIVITY)",
                    vec![
                        string("name", "The NPC's name", 32)
                            .required()
                            .autocomplete(),
                        OptionSpec {
                            name: "code",
                            description: "The activity code (0: the default)",
                            kind: OptionKind::Integer {
                                min: i64::from(i32::MIN),
                                max: i64::from(i32::MAX),
                            },
                            required: true,
                            autocomplete: false,
                        },
                    ],
                ),
            ],
        },
        CommandSpec {
            name: "talk",
            description: "Talk to an NPC",
            options: vec![
                string("npc", "Who to talk to", 32)
                    .required()
                    .autocomplete(),
                string(
                    "conv",
                    "Which of its conversations (default: the first)",
                    64,
                )
                .autocomplete(),
            ],
            subcommands: vec![],
        },
    ]
}
