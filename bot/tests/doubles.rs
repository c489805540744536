//! Engines with exactly known behaviour, so the core's tests can reach every path
//! (page breaks, long output, errors, limits) without depending on a real program.

use std::collections::BTreeMap;
use std::sync::Arc;

use tavern::engine::{
    GenFailure, GenFailureKind, GenSession, GenState, GenStep, Generators, ProgramCheck,
    ProgramText, SyntaxError,
};

/// A line-based script standing in for BASIC:
/// `PRINT text` (with `$VAR` substituted), `PAGE` (a page break), `INPUT prompt VAR`,
/// `REPEAT n text` (n lines), `RECORD K=v;K2=$VAR`, `FAIL message`, `LIMIT message`.
pub struct ScriptGenerators;

#[derive(serde::Serialize, serde::Deserialize)]
struct Snapshot {
    hash: String,
    pc: usize,
    vars: BTreeMap<String, String>,
    pending: Option<String>,
    records: Vec<Vec<(String, String)>>,
}

struct ScriptSession {
    lines: Vec<String>,
    state: Snapshot,
}

impl Generators for ScriptGenerators {
    /// `REFUSED` anywhere refuses the program; each line starting with `BAD` is a
    /// syntax error at that line (numbered from 10 in steps of 10).
    fn check(&self, source: &str) -> Result<ProgramCheck, GenFailure> {
        if let Some(index) = source.lines().position(|line| line.contains("REFUSED")) {
            return Err(GenFailure {
                kind: GenFailureKind::Load,
                message: format!(
                    "OPEN is not allowed here (file and device I/O) in {}",
                    (index + 1) * 10
                ),
                output: String::new(),
            });
        }
        let syntax_errors = source
            .lines()
            .enumerate()
            .filter(|(_, line)| line.starts_with("BAD"))
            .map(|(index, line)| SyntaxError {
                line: ((index + 1) * 10) as u32,
                column: 1,
                message: format!("cannot read {line:?}"),
            })
            .collect();
        Ok(ProgramCheck {
            lines: source.lines().count(),
            syntax_errors,
        })
    }

    fn start(&self, program: &ProgramText, _seed: u64) -> Result<Box<dyn GenSession>, GenFailure> {
        if program.source.contains("REFUSED") {
            return Err(GenFailure {
                kind: GenFailureKind::Load,
                message: "OPEN is not allowed in 10".to_owned(),
                output: String::new(),
            });
        }
        Ok(Box::new(ScriptSession {
            lines: program.source.lines().map(str::to_owned).collect(),
            state: Snapshot {
                hash: program.hash.clone(),
                pc: 0,
                vars: BTreeMap::new(),
                pending: None,
                records: Vec::new(),
            },
        }))
    }

    fn restore(
        &self,
        program: &ProgramText,
        snapshot: &str,
    ) -> Result<Box<dyn GenSession>, GenFailure> {
        let state: Snapshot = serde_json::from_str(snapshot).map_err(|error| GenFailure {
            kind: GenFailureKind::Restore,
            message: error.to_string(),
            output: String::new(),
        })?;
        if state.hash != program.hash {
            return Err(GenFailure {
                kind: GenFailureKind::Restore,
                message: "another program".to_owned(),
                output: String::new(),
            });
        }
        Ok(Box::new(ScriptSession {
            lines: program.source.lines().map(str::to_owned).collect(),
            state,
        }))
    }
}

impl ScriptSession {
    fn substitute(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for (name, value) in &self.state.vars {
            out = out.replace(&format!("${name}"), value);
        }
        out
    }
}

impl GenSession for ScriptSession {
    fn resume(&mut self, input: Option<&str>) -> Result<GenStep, GenFailure> {
        if let (Some(var), Some(input)) = (self.state.pending.take(), input) {
            self.state.vars.insert(var, input.to_owned());
        }
        let mut output = String::new();
        while let Some(line) = self.lines.get(self.state.pc).cloned() {
            self.state.pc += 1;
            let (word, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
            match word {
                "PRINT" => {
                    output.push_str(&self.substitute(rest));
                    output.push('\n');
                }
                "PAGE" => output.push('\x0c'),
                "REPEAT" => {
                    let (count, text) = rest.split_once(' ').unwrap_or((rest, ""));
                    for index in 0..count.parse::<usize>().unwrap_or(0) {
                        output.push_str(&format!("{index:04} {text}\n"));
                    }
                }
                "INPUT" => {
                    let (prompt, var) = rest.rsplit_once(' ').unwrap_or((rest, "X"));
                    let prompt = format!("{}? ", self.substitute(prompt));
                    output.push_str(&prompt);
                    self.state.pending = Some(var.to_owned());
                    return Ok(GenStep {
                        output,
                        state: GenState::NeedsInput { prompt },
                    });
                }
                "RECORD" => {
                    let fields = rest
                        .split(';')
                        .filter_map(|pair| pair.split_once('='))
                        .map(|(key, value)| (key.to_owned(), self.substitute(value)))
                        .collect();
                    self.state.records.push(fields);
                }
                "FAIL" | "LIMIT" => {
                    return Err(GenFailure {
                        kind: if word == "FAIL" {
                            GenFailureKind::Runtime
                        } else {
                            GenFailureKind::Limit
                        },
                        message: rest.to_owned(),
                        output,
                    });
                }
                _ => {}
            }
        }
        Ok(GenStep {
            output,
            state: GenState::Finished {
                records: self.state.records.clone(),
                variables: self
                    .state
                    .vars
                    .iter()
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect(),
            },
        })
    }

    fn snapshot(&self) -> Result<String, GenFailure> {
        serde_json::to_string(&self.state).map_err(|error| GenFailure {
            kind: GenFailureKind::Restore,
            message: error.to_string(),
            output: String::new(),
        })
    }
}

/// The generator the core tests run by default: three questions over two pages.
pub const CHARGEN: &str = "\
PRINT WELCOME TO THE TEST GENERATOR
PRINT @everyone <@123> cannot ping
INPUT WHAT IS YOUR NAME NAME
PRINT HELLO $NAME
PAGE
PRINT STRENGTH 17
INPUT CLASS (1=FIGHTER 2=MAGIC USER 3=CLERIC 4=THIEF 5=ELF 6=DWARF) CLASS
INPUT GENDER GENDER
PRINT FAREWELL $NAME
RECORD NAME=$NAME;CLASS=$CLASS;GENDER=$GENDER;STR=17;GOLD=120 GP
";

/// Programs: the default `chargen` first, then programs for the odd paths.
pub fn programs() -> Vec<ProgramText> {
    vec![
        ProgramText::new("chargen", CHARGEN),
        ProgramText::new(
            "long",
            "REPEAT 400 A LINE OF OUTPUT THAT FILLS THE SCREEN\nINPUT NAME NAME\nREPEAT 3000 THE END IS NEAR\nRECORD NAME=$NAME",
        ),
        ProgramText::new(
            "crash",
            "PRINT ROLLING\nINPUT NAME NAME\nPRINT ALMOST\nFAIL Subscript out of range in 4350",
        ),
        ProgramText::new("loop", "PRINT SPINNING\nLIMIT Too many steps in 100"),
        ProgramText::new("refused", "REFUSED"),
        ProgramText::new(
            "instant",
            "PRINT NO QUESTIONS\nRECORD NAME=Quick;HP=4\nRECORD NAME=Quick;HP=5",
        ),
        ProgramText::new("plain", "INPUT NAME N\nPRINT BYE"),
    ]
}

pub fn engines() -> tavern::core::Engines {
    tavern::core::Engines {
        dice: tavern::engine::real_dice(&tavern::config::Config::default()),
        generators: Arc::new(ScriptGenerators),
        builtin_programs: programs(),
    }
}
