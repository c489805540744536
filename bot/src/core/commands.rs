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
}

impl CommandSpec {
    pub fn subcommand(&self, name: &str) -> Option<&SubcommandSpec> {
        self.subcommands.iter().find(|sub| sub.name == name)
    }

    pub fn group(&self, name: &str) -> Option<&GroupSpec> {
        self.groups.iter().find(|group| group.name == name)
    }
}

fn string(name: &'static str, description: &'static str, max_length: u16) -> OptionSpec {
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
    fn required(mut self) -> OptionSpec {
        self.required = true;
        self
    }

    fn autocomplete(mut self) -> OptionSpec {
        self.autocomplete = true;
        self
    }

    fn choices(mut self, choices: &'static [&'static str]) -> OptionSpec {
        self.choices = choices;
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
        choices: &[],
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
                    choices: &[],
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
                    choices: &[],
                },
            ],
            subcommands: vec![],
            groups: vec![],
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
            groups: vec![GroupSpec {
                name: "program",
                description: "Generator programs of this server (server admins)",
                subcommands: vec![
                    sub(
                        "add",
                        "Install or replace a BASIC program (.bas file, code, or paste it)",
                        vec![
                            string("name", "The program's name: letters, digits, - and _", 32)
                                .required(),
                            attachment("file", "The .bas listing"),
                            string("code", "The listing, as a code block", 6000),
                            string(
                                "map",
                                "How its variables become a character: at 4180 NAME=NA$ STR=ST",
                                1000,
                            ),
                        ],
                    ),
                    sub("list", "List the generator programs here", vec![]),
                    sub(
                        "remove",
                        "Remove an installed program",
                        vec![
                            string("name", "The program's name", 32)
                                .required()
                                .autocomplete(),
                        ],
                    ),
                    sub(
                        "default",
                        "The program /chargen start runs (leave out: the shipped one)",
                        vec![string("name", "The program's name", 32).autocomplete()],
                    ),
                    sub(
                        "show",
                        "Show an installed program, its record map and its listing",
                        vec![
                            string("name", "The program's name", 32)
                                .required()
                                .autocomplete(),
                        ],
                    ),
                    sub(
                        "map",
                        "Set how a program's variables become a character (empty: none)",
                        vec![
                            string("name", "The program's name", 32)
                                .required()
                                .autocomplete(),
                            string(
                                "map",
                                "at LINE FIELD=VARIABLE … (e.g. at 4180 NAME=NA$ STR=ST)",
                                1000,
                            ),
                        ],
                    ),
                ],
            }],
        },
        CommandSpec {
            name: "character",
            description: "Your stored characters",
            options: vec![],
            subcommands: vec![
                sub("list", "List your characters here", vec![]),
                sub(
                    "show",
                    "Show a character (without a name: the one you play here, else your newest)",
                    vec![string("name", "The character's name", 100).autocomplete()],
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
                sub(
                    "use",
                    "Play this character here: its fields work in rolls (@STR_MOD)",
                    vec![
                        string("name", "The character's name", 100)
                            .required()
                            .autocomplete(),
                    ],
                ),
            ],
            groups: vec![],
        },
        CommandSpec {
            name: "macro",
            description: "Named rolls: yours, or the server's ($fireball in any roll)",
            options: vec![],
            subcommands: vec![
                sub(
                    "set",
                    "Create or change a macro",
                    vec![
                        string("name", "Letters, digits and _, e.g. fireball", 32).required(),
                        string("expr", "The dice expression, e.g. 8d6 fire", 500).required(),
                        string("description", "What it is for", 100),
                        scope("Whose macro: me (default) or server"),
                    ],
                ),
                sub(
                    "show",
                    "Show a macro, who made it and when",
                    vec![
                        string("name", "The macro's name", 32)
                            .required()
                            .autocomplete(),
                    ],
                ),
                sub("list", "List the macros you can use here", vec![]),
                sub(
                    "delete",
                    "Delete a macro",
                    vec![
                        string("name", "The macro's name", 32)
                            .required()
                            .autocomplete(),
                        scope("Whose macro: yours if you have one, else the server's"),
                    ],
                ),
            ],
            groups: vec![],
        },
        CommandSpec {
            name: "config",
            description: "This server's Tavern settings",
            options: vec![],
            subcommands: vec![
                sub("show", "Show this server's settings", vec![]),
                sub(
                    "macro-role",
                    "The role that may manage server macros and programs (none: clear)",
                    vec![OptionSpec {
                        name: "role",
                        description: "The role (leave out to clear)",
                        kind: OptionKind::Role,
                        required: false,
                        autocomplete: false,
                        choices: &[],
                    }],
                ),
            ],
            groups: vec![],
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
                            choices: &[],
                        },
                    ],
                ),
            ],
            groups: vec![],
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
            groups: vec![],
        },
        CommandSpec {
            name: "odds",
            description: "Exact chances of a roll, with a chart: 4d6kh3, 1d20+5 target 15 …",
            options: vec![
                string(
                    "expr",
                    "The dice expression, e.g. 4d6kh3 or 10d10cs>=8",
                    1000,
                )
                .required()
                .autocomplete(),
                OptionSpec {
                    name: "target",
                    description: "Show the chance to roll at least this",
                    kind: OptionKind::Integer {
                        min: -1_000_000_000,
                        max: 1_000_000_000,
                    },
                    required: false,
                    autocomplete: false,
                    choices: &[],
                },
            ],
            subcommands: vec![],
            groups: vec![],
        },
        help_spec(),
    ]
}

/// `/help [topic]`: the private guide (see `help.rs`).
fn help_spec() -> CommandSpec {
    CommandSpec {
        name: "help",
        description: "How to roll and what Tavern can do (only you see it)",
        options: vec![
            string(
                "topic",
                "Which page: roll (the default), macros, chargen, npc, odds",
                10,
            )
            .choices(super::help::TOPICS),
        ],
        subcommands: vec![],
        groups: vec![],
    }
}

/// `scope: server | me`, offered as a choice.
fn scope(description: &'static str) -> OptionSpec {
    string("scope", description, 6).choices(&["me", "server"])
}
