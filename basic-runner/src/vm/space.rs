//! GW-BASIC's string space: strings take the room that program text,
//! variables and arrays leave in GW-BASIC's data segment (`segment.rs`), a
//! string that does not fit after a garbage collection is `Out of string
//! space`, and `FRE` reports what is left as GW-BASIC does.
//!
//! As in GW-BASIC, every new string (`+`, a string function, `INPUT`, a copy
//! of another variable's string) takes string space; a string from the program
//! text (a literal, a `DATA` item) takes none, in a variable or an array
//! element, nor does a copy of one; `SWAP` moves strings without copying them,
//! and `MID$` assignment first copies a string from the text into the string
//! space (GW-BASIC does not write into its program); a replaced string stays as
//! garbage until a collection, which runs when a string does not fit and at
//! `FRE("")`; a new string that is dropped before anything else was made (a
//! printed `A$+B$`) gives its room back at once. The count is one number,
//! kept as strings are made; a collection recounts it from the variables.
//! A program whose text, variables and arrays outgrow GW-BASIC's segment (a
//! `DIM` GW-BASIC refuses runs here, and so does a listing longer than GW-BASIC
//! could load) leaves GW-BASIC's model: only the sandbox's memory limit then
//! bounds its strings.

use crate::code::{Code, Param};
use crate::cp437::Ch;
use crate::op::{Op, Slot};
use crate::segment::{self, SEGMENT_TOP, STACK_AT_START};

use super::{
    Array, ArrayData, Fault, Home, Machine, OUT_OF_STRING_SPACE, RESUME_AGAIN, RESUME_NEXT, Res,
    Vm, cost,
};

impl Vm<'_> {
    /// Bytes of the scalar variables made so far.
    fn scalar_bytes(&self) -> usize {
        let made = self.m.num_made.iter().chain(std::iter::repeat(&false));
        let nums = self.m.nums.iter().zip(made).enumerate();
        let nums = nums.filter(|(_, (value, made))| **made || **value != 0.0);
        let strs = self.m.str_home.iter().enumerate();
        let strs = strs.filter(|(_, home)| **home != Home::None);
        let fns = self
            .m
            .fns_made
            .iter()
            .enumerate()
            .filter(|(_, made)| **made);
        nums.map(|(slot, _)| self.code.num_var_bytes(slot))
            .sum::<usize>()
            + strs
                .map(|(slot, _)| self.code.str_var_bytes(slot))
                .sum::<usize>()
            + fns
                .map(|(func, _)| self.code.fn_entry_bytes(func))
                .sum::<usize>()
    }

    /// A `DEF FN` runs: GW-BASIC makes the function's entry and its
    /// parameters' variables (they keep their values).
    pub(super) fn made_fn(&mut self, func: usize, params: &[Param]) {
        if let Some(made) = self.m.fns_made.get_mut(func) {
            *made = true;
        }
        for param in params {
            match *param {
                Param::Num(Slot(slot), _) => self.made_num(slot, 0.0),
                Param::Str(Slot(slot)) => {
                    if self.m.str_home.get(slot as usize) == Some(&Home::None) {
                        self.set_home(slot as usize, Home::Text);
                    }
                }
            }
        }
    }

    /// Room for strings beside the text, the variables and the arrays; `None`
    /// once these outgrew GW-BASIC's segment.
    fn string_room(&self) -> Option<usize> {
        let used = self.code.text_bytes + self.scalar_bytes() + self.m.array_bytes;
        self.m.free_at_start.checked_sub(used)
    }

    /// Takes `n` bytes of string space for a new string, collecting the
    /// garbage first when they are not free (GW-BASIC's `GETSPA`).
    pub(super) fn claim(&mut self, n: usize) -> Res<()> {
        self.claim_with(n, false)
    }

    /// [`Self::claim`] for an instruction that has changed nothing yet
    /// (`restartable`): when its string would leave too little room for the
    /// variables still to be made, the plain run loop stops here and the
    /// checking one runs the instruction again (`dispatch.rs`, `run`).
    #[inline(always)]
    pub(super) fn claim_with(&mut self, n: usize, restartable: bool) -> Res<()> {
        let wanted = self.m.string_space.saturating_add(n);
        // the room left were every variable made is a lower bound, so the
        // common case needs no count of the variables made
        let fixed = self.code.text_bytes + self.code.all_scalar_bytes + self.m.array_bytes;
        if wanted <= self.m.free_at_start.saturating_sub(fixed) {
            self.m.string_space = wanted;
            return Ok(());
        }
        self.claim_near_full(n, restartable)
    }

    /// [`Self::claim_with`] where the segment may be full: out of line, so
    /// that `AppendConst`'s hot arm keeps only the common case.
    #[inline(never)]
    fn claim_near_full(&mut self, n: usize, restartable: bool) -> Res<()> {
        let wanted = self.m.string_space.saturating_add(n);
        let Some(room) = self.string_room() else {
            self.m.string_space = wanted;
            return Ok(());
        };
        // this string takes the segment to where a new variable might not fit
        if restartable && !self.m.checking && self.m.unmade > 0 {
            return Err(Fault::Retune(RESUME_AGAIN));
        }
        if wanted > room {
            self.collect();
            if self.m.string_space.saturating_add(n) > room {
                return Err(OUT_OF_STRING_SPACE.into());
            }
        }
        self.m.string_space += n;
        self.note_growth();
        Ok(())
    }

    /// Whether the segment is so full that a variable still to be made might
    /// not fit (text, every scalar made, arrays and strings past its size,
    /// and the program not already past it, where nothing is checked).
    pub(super) fn at_risk(&self) -> bool {
        let fixed = self.code.text_bytes + self.code.all_scalar_bytes + self.m.array_bytes;
        fixed.saturating_add(self.m.string_space) > self.m.free_at_start
            && self.string_room().is_some()
    }

    /// In the plain loop with variables still to make: must the checking one
    /// take over?
    fn hands_over(&self) -> bool {
        !self.m.checking && self.m.unmade > 0 && self.at_risk()
    }

    /// Strings or arrays grew: in the plain loop, when that puts the variables
    /// still to make at risk, the instruction hands over when it is done
    /// (`hand_over_after`).
    pub(super) fn note_growth(&mut self) {
        if self.hands_over() {
            self.m.crossed = true;
        }
    }

    /// An array made by its first use (10 to a side): in the plain loop with
    /// variables still to make, when it puts them at risk, the checking loop
    /// runs the instruction again (it has changed nothing yet).
    #[cold]
    #[inline(never)]
    pub(super) fn implicit_array_hands_over(&self, arr: u32, dims: usize) -> bool {
        if self.m.checking || self.m.unmade == 0 {
            return false;
        }
        let side = 11 - usize::from(self.m.option_base);
        let elements = side.saturating_pow(u32::try_from(dims).unwrap_or(u32::MAX));
        let bytes = self.gw_array_bytes(arr as usize, dims, elements);
        let fixed = self.code.text_bytes + self.code.all_scalar_bytes + self.m.array_bytes;
        fixed
            .saturating_add(bytes)
            .saturating_add(self.m.string_space)
            > self.m.free_at_start
            && self.string_room().is_some()
    }

    /// The end of an instruction that may have grown the strings or arrays:
    /// the checking loop goes on after it when `note_growth` said so.
    pub(super) fn hand_over_after(&mut self) -> Res<()> {
        if std::mem::take(&mut self.m.crossed) {
            return Err(Fault::Retune(RESUME_NEXT));
        }
        Ok(())
    }

    /// [`Self::hand_over_after`] as a call: inlined into `variable_op`, it made
    /// the array elements' instructions dearer.
    #[inline(never)]
    pub(super) fn hand_over_after_call(&mut self) -> Res<()> {
        self.hand_over_after()
    }

    /// Room in GW-BASIC's segment for a new array of `bytes`: where the text,
    /// the variables and the arrays would still fit the segment but the
    /// strings leave too little beside them, also after a garbage collection,
    /// it is GW-BASIC's `Out of memory` (7). An array that would not fit even
    /// without strings takes the program past GW-BASIC's segment, where only
    /// the memory limit bounds it (Ahl's *Mastermind*'s `DIM` runs).
    pub(super) fn room_for_array(&mut self, bytes: usize) -> Res<()> {
        let Some(left) = self.string_room().and_then(|room| room.checked_sub(bytes)) else {
            return Ok(());
        };
        if self.m.string_space <= left {
            return Ok(());
        }
        self.collect();
        if self.m.string_space <= left {
            return Ok(());
        }
        Err(self.out_of_memory())
    }

    /// GW-BASIC's garbage collection: the string space keeps the strings the
    /// variables and array elements hold, but for those in the program text.
    fn collect(&mut self) {
        let homes = self.m.strs.iter().zip(&self.m.str_home).enumerate();
        let scalars: usize = homes
            .filter(|(slot, (_, home))| **home == Home::Space && self.code.is_program_str(*slot))
            .map(|(_, (text, _))| text.len())
            .sum();
        let mut elements = 0;
        let mut counted = 0;
        for (arr, array) in self.m.arrays.iter().enumerate() {
            let Some(Array {
                data: ArrayData::Str(values),
                ..
            }) = array
            else {
                continue;
            };
            counted += values.len();
            let in_text = self.m.elems_in_text.get(arr).map_or(&[][..], Vec::as_slice);
            elements += values
                .iter()
                .enumerate()
                .filter(|(index, _)| !bit(in_text, *index))
                .map(|(_, text)| text.len())
                .sum::<usize>();
        }
        self.charge(cost::elements(counted.saturating_add(self.m.strs.len())));
        self.m.string_space = scalars + elements;
        self.m.last_temp = None;
    }

    /// `FRE`: the bytes free in GW-BASIC's segment, after a garbage collection
    /// for `FRE("")`; past GW-BASIC's segment, what is left of the sandbox's
    /// memory limit.
    pub(super) fn free_bytes(&mut self, collect: bool) -> usize {
        if collect {
            self.collect();
        }
        match self.string_room() {
            Some(room) => room.saturating_sub(self.m.string_space),
            None => self.limits.max_memory_bytes.saturating_sub(self.m.memory),
        }
    }

    /// The string just pushed is new: it takes string space.
    pub(super) fn made_string(&mut self) -> Res<()> {
        let depth = self.m.str_stack.len().saturating_sub(1);
        let len = self.m.str_stack.last().map_or(0, Vec::len);
        self.claim(len)?;
        self.m.last_temp = Some((depth, len));
        self.m.last_load = None;
        Ok(())
    }

    /// The string just pushed comes from the program text or a variable.
    pub(super) fn loaded_string(&mut self, in_space: bool) {
        let depth = self.m.str_stack.len().saturating_sub(1);
        self.m.last_load = Some((depth, in_space));
        if self.m.last_temp.is_some_and(|(at, _)| at == depth) {
            self.m.last_temp = None;
        }
    }

    /// Pops a string that is used up (printed, measured, compared): if it is
    /// the string made last, its room is given back (GW-BASIC's `FRETMP`).
    pub(super) fn pop_used_str(&mut self) -> Vec<Ch> {
        let text = self.pop_str();
        let depth = self.m.str_stack.len();
        if self.m.last_temp == Some((depth, text.len())) {
            self.m.string_space = self.m.string_space.saturating_sub(text.len());
            self.m.last_temp = None;
        }
        text
    }

    /// Where a string popped from `depth` goes when a variable takes it: the
    /// string just made is taken as it is, one from the program text stays
    /// there, any other is copied into the string space.
    pub(super) fn placed(&mut self, depth: usize, len: usize) -> Res<Home> {
        let temp = self.m.last_temp.take();
        let load = self.m.last_load.take();
        if len == 0 {
            return Ok(Home::Text);
        }
        if temp == Some((depth, len)) {
            return Ok(Home::Space);
        }
        if load == Some((depth, false)) {
            return Ok(Home::Text);
        }
        self.claim(len)?;
        Ok(Home::Space)
    }

    /// `Builtin::ToSpace`: the string on top, just loaded, takes string space
    /// when it is in the program text.
    pub(super) fn copy_into_space(&mut self) -> Res<()> {
        let depth = self.m.str_stack.len().saturating_sub(1);
        let len = self.m.str_stack.last().map_or(0, Vec::len);
        if len > 0 && self.m.last_load == Some((depth, false)) {
            self.claim(len)?;
            self.m.last_load = Some((depth, true));
        }
        Ok(())
    }

    /// `Builtin::Moving`: the string on top, just loaded from a variable whose
    /// string is in the string space, goes to the next store as it is.
    pub(super) fn moving(&mut self) {
        let depth = self.m.str_stack.len().saturating_sub(1);
        let len = self.m.str_stack.last().map_or(0, Vec::len);
        if self.m.last_load == Some((depth, true)) {
            self.m.last_temp = Some((depth, len));
        }
    }

    /// A string copied into the string space (a typed line).
    pub(super) fn copied(&mut self, len: usize) -> Res<Home> {
        if len == 0 {
            return Ok(Home::Text);
        }
        self.claim(len)?;
        Ok(Home::Space)
    }

    /// A string variable now holds a string kept in `home`.
    pub(super) fn set_home(&mut self, slot: usize, home: Home) {
        if let Some(at) = self.m.str_home.get_mut(slot) {
            *at = home;
        }
    }

    /// Whether a string array element's characters are in the program text.
    pub(super) fn elem_in_text(&self, arr: usize, index: usize) -> bool {
        self.m
            .elems_in_text
            .get(arr)
            .is_some_and(|bits| bit(bits, index))
    }

    /// A string array element now holds a string kept in `home`.
    pub(super) fn set_elem_home(&mut self, arr: usize, index: usize, home: Home) {
        let in_text = home == Home::Text;
        if !in_text && !self.elem_in_text(arr, index) {
            return;
        }
        if self.m.elems_in_text.len() <= arr {
            self.m.elems_in_text.resize(arr + 1, Vec::new());
        }
        let Some(bits) = self.m.elems_in_text.get_mut(arr) else {
            return;
        };
        let (word, mask) = (index / 64, 1u64 << (index % 64));
        if bits.len() <= word {
            bits.resize(word + 1, 0);
        }
        if let Some(word) = bits.get_mut(word) {
            if in_text {
                *word |= mask;
            } else {
                *word &= !mask;
            }
        }
    }

    /// A string array made anew or erased holds no string from the text.
    pub(super) fn forget_elem_homes(&mut self, arr: usize) {
        if let Some(bits) = self.m.elems_in_text.get_mut(arr) {
            *bits = Vec::new();
        }
    }

    /// The string slot's string is in the string space.
    pub(super) fn in_space(&self, slot: usize) -> bool {
        self.m.str_home.get(slot) == Some(&Home::Space)
    }

    /// A numeric variable is given `value`: GW-BASIC makes it then. A variable
    /// not made holds 0, so one holding anything else is made; only a 0 needs
    /// the flag, which keeps the loops' stores to one comparison.
    #[inline(always)]
    pub(super) fn made_num(&mut self, slot: u32, value: f64) {
        if value == 0.0
            && let Some(made) = self.m.num_made.get_mut(slot as usize)
        {
            *made = true;
        }
    }

    /// How many numeric variables an instruction stores to are not made yet,
    /// and so which run loop runs (`dispatch.rs`, `run`).
    pub(super) fn count_unmade(&mut self) {
        let code = self.code;
        let m = &mut *self.m;
        m.num_made.resize(m.nums.len(), false);
        // a variable holding anything but 0 has been given it, so it is made
        for (made, value) in m.num_made.iter_mut().zip(&m.nums) {
            *made |= *value != 0.0;
        }
        let made = |slot: &&u32| m.num_made.get(**slot as usize) == Some(&true);
        let unmade_strs = code
            .stored_strings
            .iter()
            .filter(|slot| m.str_home.get(**slot as usize) == Some(&Home::None))
            .count();
        m.unmade = code
            .stored_scalars
            .iter()
            .filter(|slot| !made(slot))
            .count()
            + unmade_strs;
        m.crossed = false;
        self.m.checking = self.m.unmade > 0 && self.at_risk();
    }

    /// A store in the checking loop: to a made variable as in the plain loop,
    /// else through `store_new`.
    #[inline(always)]
    pub(super) fn checked_store(&mut self, slot: u32, value: f64, next: usize) -> Res<()> {
        if self.m.num_made.get(slot as usize) == Some(&false) {
            return self.store_new(slot, value, next);
        }
        if let Some(var) = self.m.nums.get_mut(slot as usize) {
            *var = value;
        }
        Ok(())
    }

    /// A store to a variable not made yet: it is made first, and once none is
    /// left to make, the plain loop takes over after this instruction (`next`
    /// is where it goes on).
    #[cold]
    #[inline(never)]
    fn store_new(&mut self, slot: u32, value: f64, next: usize) -> Res<()> {
        self.make_scalar(slot)?;
        if let Some(var) = self.m.nums.get_mut(slot as usize) {
            *var = value;
        }
        if self.m.unmade == 0 || !self.at_risk() {
            return Err(Fault::Retune(next as u32));
        }
        Ok(())
    }

    /// GW-BASIC's first store to a numeric variable makes it (`PTRGET` finds no
    /// entry and moves the arrays up for one), which needs room in the segment:
    /// `REASON` (BIMISC.ASM) collects the string garbage when the arrays would
    /// reach the strings, and else it is Out of memory (7), the variable not
    /// made and not stored to.
    pub(super) fn make_scalar(&mut self, slot: u32) -> Res<()> {
        if self.m.num_made.get(slot as usize) != Some(&false) {
            return Ok(());
        }
        self.room_for_scalar(self.code.num_var_bytes(slot as usize))?;
        if let Some(made) = self.m.num_made.get_mut(slot as usize) {
            *made = true;
        }
        self.m.unmade = self.m.unmade.saturating_sub(1);
        Ok(())
    }

    /// `SWAP` finds a plain variable with `PTRGET`, which makes it when it
    /// is new (`Ext::SwapMake`); returns whether it was.
    pub(super) fn make_for_swap(&mut self, slot: u32, is_str: bool) -> Res<bool> {
        let index = slot as usize;
        if is_str {
            if self.m.str_home.get(index) != Some(&Home::None) {
                return Ok(false);
            }
            self.make_str_scalar(slot)?;
            self.set_home(index, Home::Text);
            return Ok(true);
        }
        let value = self.m.nums.get(index).copied().unwrap_or(0.0);
        if self.m.num_made.len() < self.m.nums.len() {
            self.m.num_made.resize(self.m.nums.len(), false);
        }
        if value != 0.0 || self.m.num_made.get(index) != Some(&false) {
            return Ok(false);
        }
        self.make_scalar(slot)?;
        Ok(true)
    }

    /// Whether a store to the string slot `var` is its first, whose room the
    /// checking loop has not found yet.
    #[inline(always)]
    pub(super) fn first_str_store(&self, var: u32) -> bool {
        self.m.str_home.get(var as usize) == Some(&Home::None) && self.m.str_ready != Some(var)
    }

    /// A store in the checking loop to a string variable not made yet
    /// (`StoreStr`, `AppendConst`, `AppendVar`): GW-BASIC makes a string
    /// variable at its first store as it does a numeric one (`PTRGET`'s
    /// `SMKVAR`, BIPTRG.ASM: its descriptor's entry, `REASON` first), so
    /// without room for it, also after a collection, it is Out of memory (7)
    /// and nothing is stored. With room, the checking loop runs the store
    /// again as it is (`str_ready`), which makes the variable: no second
    /// path to the stores, whose inlining the plain loop's speed hangs on.
    #[cold]
    #[inline(never)]
    pub(super) fn ready_new_str(&mut self, op: Op) -> Res<()> {
        let slot = match op {
            Op::StoreStr(Slot(slot))
            | Op::AppendConst(Slot(slot), _)
            | Op::AppendVar(Slot(slot), _) => slot,
            _ => return Err(Fault::Internal),
        };
        if let Err(fault) = self.room_for_scalar(self.code.str_var_bytes(slot as usize)) {
            // GW-BASIC's LET makes the variable (`PTRGET`) before it works out
            // the value, so a string built for it was never made: its room
            // comes back as for a string used up
            if matches!(op, Op::StoreStr(_)) {
                self.pop_used_str();
            }
            return Err(fault);
        }
        self.m.str_ready = Some(slot);
        Err(Fault::Retune(RESUME_AGAIN))
    }

    /// `INPUT` or `LINE INPUT` is about to give the string slot its answer: a
    /// variable not made yet is made first, as `PTRGET` makes it (`SMKVAR`,
    /// BIPTRG.ASM) before the answer is copied, so without room for it, also
    /// after a collection, it is Out of memory (7) and nothing is stored. The
    /// store that follows makes it (its home is set), so the run loop's count
    /// of variables still to make is left for its next hand-over.
    pub(super) fn make_str_scalar(&mut self, slot: u32) -> Res<()> {
        if self.m.str_home.get(slot as usize) != Some(&Home::None) {
            return Ok(());
        }
        self.room_for_scalar(self.code.str_var_bytes(slot as usize))
    }

    /// Room for a new variable of `bytes` beside the strings, collecting the
    /// garbage first when there is too little. A program already past
    /// GW-BASIC's segment (an array took it there) is bound by the memory limit
    /// alone.
    fn room_for_scalar(&mut self, bytes: usize) -> Res<()> {
        // were every variable made, the strings would still fit: no count needed
        let fixed = self.code.text_bytes + self.code.all_scalar_bytes + self.m.array_bytes;
        if fixed.saturating_add(self.m.string_space) <= self.m.free_at_start {
            return Ok(());
        }
        let Some(room) = self.string_room() else {
            return Ok(());
        };
        if self.m.string_space.saturating_add(bytes) > room {
            self.collect();
            if self.m.string_space.saturating_add(bytes) > room {
                return Err(self.out_of_memory());
            }
        }
        Ok(())
    }

    /// `CLEAR`'s sizes, popped when given (the stack's on top): the segment's
    /// top and the stack's bytes, each left out keeping what it was, are
    /// checked as GW-BASIC's `CLEART` (BIMISC.ASM) checks them, before
    /// anything is cleared (Out of memory), and then set.
    pub(super) fn clear_sizes(&mut self, top: bool, stack: bool) -> Res<()> {
        if !top && !stack {
            return Ok(());
        }
        let (was_top, was_stack) = self
            .m
            .segment_sizes
            .map_or((SEGMENT_TOP, STACK_AT_START), |(top, stack)| {
                (usize::from(top), usize::from(stack))
            });
        // the host checked both as words (Ext::CheckedArg)
        let stack_size = if stack {
            self.pop() as usize
        } else {
            was_stack
        };
        let top_size = if top { self.pop() as usize } else { was_top };
        let Some(free) = segment::free_with_sizes(top_size, stack_size, self.code.text_bytes)
        else {
            return Err(self.out_of_memory());
        };
        self.m.segment_sizes = if (top_size, stack_size) == (SEGMENT_TOP, STACK_AT_START) {
            None
        } else {
            Some((
                u16::try_from(top_size).unwrap_or(u16::MAX),
                u16::try_from(stack_size).unwrap_or(u16::MAX),
            ))
        };
        self.m.free_at_start = free;
        // the stack's size may be new: the next level works its room out
        self.m.safe_frames = 0;
        Ok(())
    }

    /// Bytes GW-BASIC's array of `elements` takes.
    pub(super) fn gw_array_bytes(&self, arr: usize, dims: usize, elements: usize) -> usize {
        gw_array_bytes(self.code, arr, dims, elements)
    }
}

/// Bit `index` of a bit set kept as words.
fn bit(bits: &[u64], index: usize) -> bool {
    bits.get(index / 64)
        .is_some_and(|word| word >> (index % 64) & 1 == 1)
}

fn gw_array_bytes(code: &Code, arr: usize, dims: usize, elements: usize) -> usize {
    let name = code.arrays.get(arr).map_or("", |info| info.name.as_str());
    let value = match name.chars().last() {
        Some('$') => segment::STR_DESCRIPTOR,
        Some('%') => 2,
        Some('#') => 8,
        _ => 4,
    };
    segment::array_bytes(name, dims, elements, value)
}

impl Machine {
    /// Fills in what a snapshot from before the string space lacks: which
    /// variables exist (a string held is taken as made, in the string space)
    /// and the bytes of the arrays.
    pub(crate) fn fit_segment(&mut self, code: &Code) {
        let (top, stack) = self
            .segment_sizes
            .map_or((SEGMENT_TOP, STACK_AT_START), |(top, stack)| {
                (usize::from(top), usize::from(stack))
            });
        // sizes a CLEAR could not have set count as GW-BASIC's own
        self.free_at_start =
            segment::free_with_sizes(top, stack, 0).unwrap_or(segment::FREE_AT_START);
        self.num_made.resize(self.nums.len(), false);
        self.fns_made.resize(code.fn_names.len(), false);
        // no more bits than the arrays have elements
        self.elems_in_text.truncate(self.arrays.len());
        for (bits, array) in self.elems_in_text.iter_mut().zip(&self.arrays) {
            bits.truncate(array.as_ref().map_or(0, |array| array.len().div_ceil(64)));
        }
        if self.str_home.len() != self.strs.len() {
            self.str_home = self
                .strs
                .iter()
                .map(|text| {
                    if text.is_empty() {
                        Home::None
                    } else {
                        Home::Space
                    }
                })
                .collect();
        }
        self.array_bytes = self
            .arrays
            .iter()
            .enumerate()
            .filter_map(|(arr, array)| {
                let array = array.as_ref()?;
                Some(gw_array_bytes(code, arr, array.bounds.len(), array.len()))
            })
            .sum();
    }
}
