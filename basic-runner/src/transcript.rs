//! Runs a session against a list of input lines and gathers what a terminal shows.

use crate::error::RunError;
use crate::session::{Session, StepState};
use crate::vm::CharacterRecord;

/// How a transcript run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The program ended.
    Finished {
        /// The records it handed over.
        records: Vec<CharacterRecord>,
        /// Its scalar variables at the end.
        variables: Vec<(String, String)>,
    },
    /// The inputs ran out while the program waited at a prompt.
    InputExhausted,
    /// The program stopped with an error (its message is in the text).
    Error(RunError),
}

/// The text of a run and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Transcript {
    /// Everything printed, with each consumed input line after its prompt when
    /// echoing, so the text is what a terminal user would see.
    pub text: String,
    /// How the run ended.
    pub outcome: Outcome,
}

/// Resumes `session` with each line of `inputs` in turn until it finishes, fails
/// or runs out of input. With `echo`, each consumed line and its line break are
/// written after the prompt, as a terminal shows them (no line break after
/// `INPUT;`, see [`Session::input_ends_line`]); without, only the line
/// break the user's Enter produces is left out as well, as a terminal whose echo
/// is off shows it. An error's message ends the text, on a line of its own.
pub fn run_transcript<'a>(
    session: &mut Session,
    inputs: impl IntoIterator<Item = &'a str>,
    echo: bool,
) -> Transcript {
    let mut text = String::new();
    let mut inputs = inputs.into_iter();
    let mut next_input: Option<&str> = None;
    loop {
        match session.resume(next_input) {
            Ok(step) => {
                text.push_str(&step.output);
                match step.state {
                    StepState::Finished { records, variables } => {
                        return Transcript {
                            text,
                            outcome: Outcome::Finished { records, variables },
                        };
                    }
                    StepState::NeedsInput { .. } => {
                        let Some(line) = inputs.next() else {
                            return Transcript {
                                text,
                                outcome: Outcome::InputExhausted,
                            };
                        };
                        if echo && session.input_is_shown() {
                            text.push_str(line);
                            if session.input_ends_line() {
                                text.push('\n');
                            }
                        }
                        next_input = Some(line);
                    }
                }
            }
            Err(error) => {
                text.push_str(&error.transcript());
                return Transcript {
                    text,
                    outcome: Outcome::Error(error),
                };
            }
        }
    }
}
