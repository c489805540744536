//! The machine's state between runs, which a snapshot stores: variables,
//! arrays, stacks, frames, the generator and the trapping state.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::capture::{self, Capture};
use crate::code::Code;
use crate::cp437::Ch;
use crate::error::LimitKind;
use crate::limits::Limits;
use crate::number::NumTy;
use crate::rnd::Rnd;
use crate::segment::FREE_AT_START;
use crate::using::UsingPlace;

use super::{Event, Output, Res, Vm};

/// A finished character handed to the host by the `RECORD` statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterRecord {
    /// Field names and values in the order the program gave them.
    pub fields: Vec<(String, String)>,
}

impl CharacterRecord {
    /// The value of a field, by name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Frame {
    For {
        var: u32,
        ty: NumTy,
        limit: f64,
        step: f64,
        body: u32,
        /// Where the matching `NEXT` continues (after its variable): GW-BASIC
        /// keeps the text position of the `NEXT` its `FOR` found, and any other
        /// `NEXT` meeting this loop is `NEXT without FOR`. 0 (a snapshot from
        /// before the field) accepts any `NEXT`.
        #[serde(default)]
        exit: u32,
    },
    Gosub {
        ret: u32,
    },
    While {
        start: u32,
    },
    Fn {
        ret: u32,
        saved_nums: Vec<(u32, f64)>,
        saved_strs: Vec<(u32, Vec<Ch>)>,
        /// Where each saved string was (`saved_strs`' order).
        #[serde(default)]
        saved_homes: Vec<Home>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum ArrayData {
    Num(Vec<f64>),
    Str(Vec<Vec<Ch>>),
}

/// Serialized by `packed.rs`, compactly.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Array {
    /// The highest index of each dimension.
    pub(crate) bounds: Vec<u16>,
    pub(crate) base: u8,
    pub(crate) data: ArrayData,
}

impl Array {
    /// The number of elements.
    pub(super) fn len(&self) -> usize {
        match &self.data {
            ArrayData::Num(values) => values.len(),
            ArrayData::Str(values) => values.len(),
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match &self.data {
            ArrayData::Num(values) => values.len() * 8,
            ArrayData::Str(values) => {
                values.len() * 24 + values.iter().map(Vec::len).sum::<usize>()
            }
        }
    }
}

/// What fixed the array base, if anything has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) enum BaseFixed {
    #[default]
    No,
    ByOptionBase,
    ByArray,
}

/// The whole state of a running program (everything but the program itself).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Machine {
    pub(crate) pc: u32,
    pub(crate) nums: Vec<f64>,
    pub(crate) strs: Vec<Vec<Ch>>,
    pub(crate) arrays: Vec<Option<Array>>,
    pub(crate) num_stack: Vec<f64>,
    pub(crate) str_stack: Vec<Vec<Ch>>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) data_ptr: u32,
    pub(crate) active_defs: Vec<Option<u32>>,
    pub(crate) option_base: u8,
    /// Whether the array base is fixed: `OPTION BASE` ran, or an array was
    /// made (which fixes base 0 until `ERASE` removes every array). Another
    /// `OPTION BASE` with a different base is then `Duplicate Definition`.
    #[serde(default)]
    pub(crate) base_fixed: BaseFixed,
    pub(crate) width: u16,
    pub(crate) column: u16,
    /// Where the running `PRINT USING` is in its format: kept in a snapshot,
    /// as `INPUT$` in a value waits in the middle of the statement.
    #[serde(default)]
    pub(crate) using: UsingPlace,
    pub(crate) rnd: Rnd,
    pub(crate) memory: usize,
    pub(crate) steps: u64,
    pub(crate) records: Vec<CharacterRecord>,
    /// `ON ERROR GOTO`'s handler.
    pub(crate) on_error: Option<u32>,
    /// While a handler runs: where `RESUME` and `RESUME NEXT` continue.
    pub(crate) handling: Option<(u32, u32)>,
    /// `TRON` is on: each line run writes `[N]`.
    #[serde(default)]
    pub(crate) trace: bool,
    /// GW-BASIC's `DEF` table, each letter's type code (0 single, 1 integer,
    /// 2 double, 3 string), kept only in a program with a statement the
    /// compiler could not type once (see `Ext::DefCase`).
    #[serde(default)]
    pub(crate) def_types: [u8; 26],
    /// `KEY ON`: the function-key line takes row 25, so `LOCATE 25` is Illegal
    /// function call. Off at the start, as when GW-BASIC is started with the
    /// program named on its command line (it then clears the key line).
    #[serde(default)]
    pub(crate) key_line: bool,
    /// The keys typed ahead: what the lines typed for `INPUT$` held beyond
    /// what it took, for the next `INPUT$` or `INKEY$`.
    #[serde(default)]
    pub(crate) keys: Vec<Ch>,
    /// How many times in a row `INKEY$` has found no key (see `INKEY_PATIENCE`).
    #[serde(default)]
    pub(crate) inkey_misses: u32,
    /// `ERR` and `ERL`.
    pub(crate) err: u8,
    pub(crate) erl: u32,
    /// The first instruction of the line the host captures at (see `capture.rs`).
    #[serde(default)]
    pub(crate) capture_pc: Option<u32>,
    #[serde(default)]
    pub(crate) captures: Vec<Capture>,
    /// The variables before the last `CLEAR` or `RUN` that wiped live ones.
    #[serde(default)]
    pub(crate) last_alive: Option<Vec<(String, String)>>,
    /// The host's signal that the run is no longer wanted (see
    /// [`crate::Session::set_cancel`]); not part of a snapshot.
    #[serde(skip)]
    pub(crate) cancel: Option<Arc<AtomicBool>>,
    /// Steps the instruction just run costs beyond its one (see `cost.rs`),
    /// taken from the budget by the run loop.
    #[serde(skip)]
    pub(crate) charged: u64,
    /// Whether the run loop checks each numeric store for a variable still to
    /// be made (`dispatch.rs`, `run`), and how many stored-to ones are not made.
    #[serde(skip)]
    pub(crate) checking: bool,
    #[serde(skip)]
    pub(crate) unmade: usize,
    /// The plain loop must hand over after this instruction (`space.rs`).
    #[serde(skip)]
    pub(crate) crossed: bool,
    /// While a `READ` statement runs: where its `DATA` items started. GW-BASIC
    /// moves `DATPTR` only when the statement ends (`RESFIN`), so an error in
    /// it leaves the items as they were: the next `READ` starts there again.
    #[serde(default)]
    pub(crate) read_mark: Option<u32>,
    /// The `DATA` line of a `READ` item with text after it: its `Syntax error`
    /// comes once the item is stored (`Op::ReadCheck`).
    #[serde(default)]
    pub(crate) read_fault: Option<u32>,
    /// The string variable the checking loop found room for, whose store it
    /// runs again (`space.rs`, `ready_new_str`).
    #[serde(skip)]
    pub(crate) str_ready: Option<u32>,
    /// GW-BASIC's `CURLIN` where it is not the line running, and the line it
    /// is held in. `RESUME` and `RESUME NEXT` set `CURLIN` to `ERRLIN`
    /// (`RESTXT`, GWMAIN.ASM), which for a bad `DATA` item is the `DATA` line
    /// (`DATSNE`), and only a line's start (`GONE4`) sets it again: until then
    /// the rest of the line names that line for its errors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) curlin: Option<(u32, u32)>,
    /// GW-BASIC's data segment (`space.rs`): which numeric variables were
    /// given a 0 (GW-BASIC makes a variable when it is first given a value, and
    /// one holding anything but 0 has been), where each string variable's
    /// characters are, the bytes of the arrays, and the bytes the string space
    /// holds (live strings, temporaries and garbage).
    #[serde(default)]
    pub(crate) num_made: Vec<bool>,
    #[serde(default)]
    pub(crate) str_home: Vec<Home>,
    /// For each string array, a bit for each element whose characters are in
    /// the program text (a literal, a `DATA` item), as GW-BASIC leaves them
    /// there; the other elements' are in the string space. An array with no
    /// such element has no bits (older snapshots: every element counted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) elems_in_text: Vec<Vec<u64>>,
    /// Which user functions a `DEF FN` has made an entry for.
    #[serde(default)]
    pub(crate) fns_made: Vec<bool>,
    /// A function of the arrays, counted again on restore (`fit_segment`).
    #[serde(skip)]
    pub(crate) array_bytes: usize,
    #[serde(default)]
    pub(crate) string_space: usize,
    /// The segment's top and its stack's bytes as a `CLEAR` set them (`None`:
    /// GW-BASIC's own, `segment::SEGMENT_TOP` and `STACK_AT_START`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) segment_sizes: Option<(u16, u16)>,
    /// The bytes free with no program under those sizes, counted again on
    /// restore (`fit_segment`).
    #[serde(skip, default = "free_at_start")]
    pub(crate) free_at_start: usize,
    /// Below how many stack entries another always fits (`Vm::check_depth`);
    /// 0, when the stack's size is new, until the next check works it out.
    #[serde(skip)]
    pub(crate) safe_frames: usize,
    /// The string on the stack the string space got last: (depth, length).
    #[serde(skip)]
    pub(crate) last_temp: Option<(usize, usize)>,
    /// A string pushed from the program text or a variable: (depth, whether its
    /// characters are in the string space).
    #[serde(skip)]
    pub(crate) last_load: Option<(usize, bool)>,
}

/// Where a string variable's characters are in GW-BASIC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) enum Home {
    /// Not made yet.
    #[default]
    None,
    /// In the program text (a literal or a `DATA` item), or empty: no string space.
    Text,
    /// In the string space.
    Space,
}

impl Machine {
    pub(crate) fn new(code: &Code, rnd: Rnd) -> Machine {
        Machine {
            pc: 0,
            nums: vec![0.0; code.num_vars.len()],
            strs: vec![Vec::new(); code.str_vars.len()],
            arrays: vec![None; code.arrays.len()],
            num_stack: Vec::with_capacity(64),
            str_stack: Vec::with_capacity(16),
            frames: Vec::new(),
            data_ptr: 0,
            active_defs: vec![None; code.fn_names.len()],
            option_base: 0,
            base_fixed: BaseFixed::No,
            width: 80,
            column: 0,
            using: UsingPlace::default(),
            rnd,
            memory: 0,
            steps: 0,
            records: Vec::new(),
            keys: Vec::new(),
            inkey_misses: 0,
            on_error: None,
            handling: None,
            trace: false,
            def_types: [0; 26],
            key_line: false,
            err: 0,
            erl: 0,
            capture_pc: None,
            captures: Vec::new(),
            last_alive: None,
            cancel: None,
            charged: 0,
            checking: false,
            unmade: 0,
            crossed: false,
            read_mark: None,
            str_ready: None,
            curlin: None,
            read_fault: None,
            num_made: vec![false; code.num_vars.len()],
            str_home: vec![Home::None; code.str_vars.len()],
            elems_in_text: Vec::new(),
            fns_made: vec![false; code.fn_names.len()],
            array_bytes: 0,
            string_space: 0,
            segment_sizes: None,
            free_at_start: FREE_AT_START,
            safe_frames: 0,
            last_temp: None,
            last_load: None,
        }
    }

    /// Keeps the variables before `CLEAR` or `RUN` wipes them, when any is alive;
    /// returns how many values it wrote out (what it cost).
    pub(super) fn remember_alive(&mut self, code: &Code) -> usize {
        let variables = capture::variables(self, code, true);
        let written = variables.len();
        if capture::alive_count(&variables) > 0 {
            self.last_alive = Some(variables);
        }
        written
    }

    /// Elements of every array made, what wiping them all costs.
    pub(super) fn array_elements(&self) -> usize {
        self.arrays.iter().flatten().map(Array::len).sum()
    }

    /// The line GW-BASIC names for an error at `pc`: inside a user function, the
    /// line that called it.
    pub(crate) fn error_line(&self, code: &Code, pc: u32) -> Option<u32> {
        let caller = self.frames.iter().find_map(|frame| match frame {
            Frame::Fn { ret, .. } => Some(ret.saturating_sub(1)),
            _ => None,
        });
        let line = code.line_of(caller.unwrap_or(pc));
        match self.curlin {
            Some((named, held)) if line == Some(held) => Some(named),
            _ => line,
        }
    }

    /// Runs until an event or a fault; `budget` is the number of instructions allowed.
    pub(crate) fn run(
        &mut self,
        code: &Code,
        out: &mut Output,
        limits: &Limits,
        budget: u64,
        budget_limit: LimitKind,
    ) -> Res<Event> {
        let mut vm = Vm {
            m: self,
            code,
            out,
            limits,
        };
        match vm.run(budget, budget_limit) {
            Err(super::Fault::AwaitKeys) => Ok(Event::Input(super::KEYS_WAIT)),
            result => result,
        }
    }

    pub(crate) fn clear(&mut self, code: &Code) {
        self.nums.iter_mut().for_each(|n| *n = 0.0);
        self.strs.iter_mut().for_each(Vec::clear);
        self.arrays.iter_mut().for_each(|a| *a = None);
        self.frames.clear();
        self.num_stack.clear();
        self.str_stack.clear();
        self.data_ptr = 0;
        self.curlin = None;
        self.active_defs = vec![None; code.fn_names.len()];
        self.option_base = 0;
        self.base_fixed = BaseFixed::No;
        self.memory = 0;
        self.num_made.iter_mut().for_each(|made| *made = false);
        self.str_home.iter_mut().for_each(|home| *home = Home::None);
        self.elems_in_text.clear();
        self.fns_made.iter_mut().for_each(|made| *made = false);
        self.array_bytes = 0;
        self.string_space = 0;
        // CLEAR and RUN set every letter back to single (CLEARC's LOPDFT)
        self.def_types = [0; 26];
        self.last_temp = None;
        self.last_load = None;
        self.rnd.clear();
        self.on_error = None;
        self.handling = None;
        self.err = 0;
        self.erl = 0;
    }
}

/// GW-BASIC's bytes free with no program, before any `CLEAR` sets sizes.
fn free_at_start() -> usize {
    FREE_AT_START
}
