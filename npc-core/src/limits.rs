//! Every bound that keeps a script or a player line from hanging or exhausting the host (Z3).

/// Bounds on loading and running scripts. `Limits::default()` holds the rulings' values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest script accepted, in bytes.
    pub max_source_bytes: usize,
    /// Load errors reported before the checker stops listing them.
    pub max_errors: usize,
    /// Deepest nesting of `{ }` blocks, the RESP or CONV body counting as 1 (B7: 64).
    pub max_depth: u32,
    /// Statements run between two prompts (Z1: 10,000).
    pub max_steps: u32,
    /// Bytes of rendered events one turn may produce; a turn beyond it is stopped like a runaway.
    pub max_turn_output_bytes: usize,
    /// Most companions in a party (E4: 8).
    pub max_party: usize,
    /// Most choices in one MENU (M5: Discord's select limit, 25).
    pub max_menu_choices: usize,
    /// Longest MENU label in characters (M5: 100).
    pub max_label_chars: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_source_bytes: 1 << 20,
            max_errors: 200,
            max_depth: 64,
            max_steps: 10_000,
            max_turn_output_bytes: 1 << 20,
            max_party: 8,
            max_menu_choices: 25,
            max_label_chars: 100,
        }
    }
}
