//! What instructions whose work grows with their operands cost in steps, so that
//! the step budget bounds the time a run takes and not only the instructions it
//! runs: `RUN` and `CLEAR` (which write the variables out before wiping them,
//! see `capture.rs`), making and erasing arrays, and `INSTR`. Everything else
//! does a small, bounded amount of work (strings hold at most 255 bytes).
//!
//! An ordinary instruction takes a few nanoseconds; the rates below keep a step
//! of these under about 30 ns on the project's machine (measured: BENCHMARKS.md,
//! "Engine work stops when its time is up"), so the default 10 million steps per
//! input stay under a second.

use super::Vm;

/// Array elements made, erased or wiped per step.
const ELEMENTS_PER_STEP: u64 = 4;

/// Steps for one value `RUN` or `CLEAR` writes out before wiping it (a number
/// formatted or a string decoded, and its name).
const STEPS_PER_WRITTEN_VALUE: u64 = 16;

/// Byte comparisons per step of `INSTR`'s search.
const COMPARISONS_PER_STEP: u64 = 4;

/// The steps of making, erasing or wiping `count` array elements.
pub(super) fn elements(count: usize) -> u64 {
    count as u64 / ELEMENTS_PER_STEP
}

/// The steps of writing out `count` values.
pub(super) fn written_values(count: usize) -> u64 {
    (count as u64).saturating_mul(STEPS_PER_WRITTEN_VALUE)
}

/// The steps of searching `haystack` bytes for `needle` bytes, at worst: the
/// needle compared at each place it fits.
pub(super) fn search(haystack: usize, needle: usize) -> u64 {
    let places = (haystack + 1).saturating_sub(needle) as u64;
    places.saturating_mul(needle as u64) / COMPARISONS_PER_STEP
}

impl<'a> Vm<'a> {
    /// Adds `steps` to what the running instruction costs; the run loop takes
    /// them from the budget when the instruction is done.
    pub(super) fn charge(&mut self, steps: u64) {
        self.m.charged = self.m.charged.saturating_add(steps);
    }

    /// `CLEAR`, and `RUN` before it jumps: remembers the live variables, then
    /// wipes every variable and array.
    pub(super) fn wipe(&mut self) {
        let written = self.m.remember_alive(self.code);
        let scalars = self.m.nums.len() + self.m.strs.len();
        let wiped = self.m.array_elements().saturating_add(scalars);
        self.m.clear(self.code);
        self.charge(written_values(written).saturating_add(elements(wiped)));
    }
}
