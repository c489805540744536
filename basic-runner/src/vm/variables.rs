//! Variables, arrays (`DIM`, `ERASE`, `OPTION BASE`, bounds and memory) and
//! `READ` over the `DATA` items.

use crate::code::Code;
use crate::cp437::{self, Ch};
use crate::error::ErrorCode;
use crate::number;
use crate::op::{ArrayId, ConstId, Op, Slot};

use super::{
    Array, ArrayData, BaseFixed, Fault, Home, OUT_OF_STRING_SPACE, RESUME_AGAIN, Res, Vm, cint,
    cost,
};

impl<'a> Vm<'a> {
    pub(super) fn store_str_slot(&mut self, slot: usize, text: Vec<Ch>, home: Home) -> Res<()> {
        let old_len = self.m.strs.get(slot).map_or(0, Vec::len);
        if text.len() > old_len {
            self.check_memory(text.len() - old_len, OUT_OF_STRING_SPACE)?;
        }
        self.m.memory = (self.m.memory + text.len()).saturating_sub(old_len);
        if let Some(var) = self.m.strs.get_mut(slot) {
            // a variable keeps the buffer it has when the new string fits: `A$=""`
            // before a loop of `A$=A$+"X"` then grows nothing
            if var.capacity() >= text.len() {
                var.clear();
                var.extend_from_slice(&text);
            } else {
                *var = text;
            }
        }
        self.set_home(slot, home);
        Ok(())
    }

    pub(super) fn store_str_elem(
        &mut self,
        arr: usize,
        index: usize,
        text: Vec<Ch>,
        home: Home,
    ) -> Res<()> {
        let Some(Some(Array {
            data: ArrayData::Str(values),
            ..
        })) = self.m.arrays.get_mut(arr)
        else {
            return Err(Fault::Internal);
        };
        let Some(slot) = values.get_mut(index) else {
            return Err(Fault::Internal);
        };
        let old_len = slot.len();
        if text.len() > old_len
            && self.m.memory.saturating_add(text.len() - old_len) > self.limits.max_memory_bytes
        {
            return Err(OUT_OF_STRING_SPACE.into());
        }
        self.m.memory = (self.m.memory + text.len()).saturating_sub(old_len);
        // an empty string is nowhere: no bit for it
        let home = if text.is_empty() { Home::None } else { home };
        *slot = text;
        self.set_elem_home(arr, index, home);
        Ok(())
    }

    pub(super) fn dim(&mut self, arr: u32, dims: u8) -> Res<()> {
        let count = usize::from(dims);
        let start = self.m.num_stack.len().saturating_sub(count);
        let raw: Vec<f64> = self.m.num_stack.split_off(start);
        let mut bounds = Vec::with_capacity(count);
        for value in raw {
            let bound = cint(value)?;
            if bound < 0 {
                return Err(ErrorCode::IllegalFunctionCall.into());
            }
            if bound < i32::from(self.m.option_base) {
                return Err(ErrorCode::SubscriptOutOfRange.into());
            }
            bounds.push(bound as u16);
        }
        if matches!(self.m.arrays.get(arr as usize), Some(Some(_))) {
            return Err(ErrorCode::DuplicateDefinition.into());
        }
        self.create_array(arr, bounds)
    }

    pub(super) fn create_array(&mut self, arr: u32, bounds: Vec<u16>) -> Res<()> {
        let base = self.m.option_base;
        let mut elements: usize = 1;
        for &bound in &bounds {
            let size = usize::from(bound) + 1 - usize::from(base);
            let Some(more) = elements.checked_mul(size) else {
                return Err(self.out_of_memory());
            };
            elements = more;
        }
        let is_str = self
            .code
            .arrays
            .get(arr as usize)
            .ok_or(Fault::Internal)?
            .is_str;
        let bytes = elements.saturating_mul(if is_str { 24 } else { 8 });
        if self.check_memory(bytes, ErrorCode::OutOfMemory).is_err() {
            return Err(self.out_of_memory());
        }
        let gw_bytes = self.gw_array_bytes(arr as usize, bounds.len(), elements);
        self.room_for_array(gw_bytes)?;
        self.charge(cost::elements(elements));
        let data = if is_str {
            ArrayData::Str(vec![Vec::new(); elements])
        } else {
            ArrayData::Num(vec![0.0; elements])
        };
        self.m.memory += bytes;
        self.m.array_bytes = self.m.array_bytes.saturating_add(gw_bytes);
        let Some(entry) = self.m.arrays.get_mut(arr as usize) else {
            return Err(Fault::Internal);
        };
        *entry = Some(Array { bounds, base, data });
        self.forget_elem_homes(arr as usize);
        if self.m.base_fixed == BaseFixed::No {
            self.m.base_fixed = BaseFixed::ByArray;
        }
        Ok(())
    }

    /// Pops `dims` indices and returns the flat element index, dimensioning the
    /// array (0..10 in each dimension) on its first use.
    pub(super) fn element(&mut self, arr: u32, dims: u8) -> Res<usize> {
        self.element_at::<true>(arr, dims)
    }

    /// The element the `dims` indices on top of the stack name, the array made
    /// if it is implicit; the indices are popped when `POP` (a const, so that
    /// the loads and stores compile to the code they had before `CheckElem`).
    fn element_at<const POP: bool>(&mut self, arr: u32, dims: u8) -> Res<usize> {
        let count = usize::from(dims);
        let start = self
            .m
            .num_stack
            .len()
            .checked_sub(count)
            .ok_or(Fault::Internal)?;
        if matches!(self.m.arrays.get(arr as usize), Some(None)) {
            if self.implicit_array_hands_over(arr, count) {
                return Err(Fault::Retune(RESUME_AGAIN));
            }
            self.create_array(arr, vec![10; count])?;
        }
        let Some(Some(array)) = self.m.arrays.get(arr as usize) else {
            return Err(Fault::Internal);
        };
        if array.bounds.len() != count {
            self.m.num_stack.truncate(start);
            return Err(ErrorCode::SubscriptOutOfRange.into());
        }
        let base = i32::from(array.base);
        let mut flat: usize = 0;
        let indices = self.m.num_stack.get(start..).unwrap_or_default();
        for (&value, &bound) in indices.iter().zip(&array.bounds) {
            let index = cint(value)?;
            if index < base || index > i32::from(bound) {
                // GW-BASIC takes a negative subscript for an illegal argument
                return Err(if index < 0 {
                    ErrorCode::IllegalFunctionCall.into()
                } else {
                    ErrorCode::SubscriptOutOfRange.into()
                });
            }
            let size = usize::from(bound) + 1 - array.base as usize;
            flat = flat * size + (index - base) as usize;
        }
        if POP {
            self.m.num_stack.truncate(start);
        }
        Ok(flat)
    }

    /// The DATA item the next `READ` takes; the caller moves past it once read.
    pub(super) fn current_data(&self) -> Res<&'a crate::code::DataEntry> {
        let code: &'a Code = self.code;
        code.data
            .get(self.m.data_ptr as usize)
            .ok_or(Fault::Basic(ErrorCode::OutOfData))
    }

    /// Moves past the `DATA` item just read. Text after it (`1X`, `"AB"C`) is
    /// GW-BASIC's `Syntax error` at the DATA line (`TRMNOK` → `DATSNE`,
    /// GWMAIN.ASM), raised once the item is stored, as `READ` stores what
    /// the reader made before it looks at what follows (`STRDN2`).
    fn read_next(&mut self, rest: bool, line: u32) {
        self.m.data_ptr += 1;
        if rest {
            self.m.read_fault = Some(line);
        }
    }

    /// Strings and array elements in and out of variables, `DIM`/`ERASE`,
    /// `OPTION BASE`, and `READ`/`RESTORE` over the `DATA` items.
    pub(super) fn variable_op(&mut self, op: Op) -> Res<()> {
        match op {
            Op::Str(ConstId(id)) => {
                let text = self
                    .code
                    .strings
                    .get(id as usize)
                    .cloned()
                    .unwrap_or_default();
                self.m.str_stack.push(text);
                self.loaded_string(false);
            }
            Op::LoadStr(Slot(slot)) => {
                let text = self.m.strs.get(slot as usize).cloned().unwrap_or_default();
                self.m.str_stack.push(text);
                let in_space = self.in_space(slot as usize);
                self.loaded_string(in_space);
            }
            Op::StoreStr(Slot(slot)) => {
                // a string variable's first store in the checking loop (off
                // the hot path, so the plain loop pays a flag's test here)
                if self.m.checking && self.first_str_store(slot) {
                    return self.ready_new_str(op);
                }
                let text = self.pop_str();
                let home = self.placed(self.m.str_stack.len(), text.len())?;
                self.store_str_slot(slot as usize, text, home)?;
                self.hand_over_after_call()?;
            }
            Op::LoadElemNum(ArrayId(arr), dims) => {
                let index = self.element(arr, dims)?;
                let value = match self.m.arrays.get(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Num(values),
                        ..
                    })) => values.get(index).copied().unwrap_or(0.0),
                    _ => return Err(Fault::Internal),
                };
                self.push(value);
            }
            Op::LoadElemStr(ArrayId(arr), dims) => {
                let index = self.element(arr, dims)?;
                let text = match self.m.arrays.get(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Str(values),
                        ..
                    })) => values.get(index).cloned().unwrap_or_default(),
                    _ => return Err(Fault::Internal),
                };
                self.m.str_stack.push(text);
                let in_space = !self.elem_in_text(arr as usize, index);
                self.loaded_string(in_space);
            }
            Op::StoreElemNum(ArrayId(arr), dims, ty) => {
                let value = self.pop();
                // the element first, as GW-BASIC finds it before the value
                let index = match self.element(arr, dims) {
                    Ok(index) => index,
                    Err(fault) => {
                        // to be run again in the checking loop, as it was
                        if fault == Fault::Retune(RESUME_AGAIN) {
                            self.push(value);
                        }
                        return Err(fault);
                    }
                };
                let value = self.convert(value, ty)?;
                match self.m.arrays.get_mut(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Num(values),
                        ..
                    })) => {
                        if let Some(slot) = values.get_mut(index) {
                            *slot = value;
                        }
                    }
                    _ => return Err(Fault::Internal),
                }
            }
            Op::StoreElemStr(ArrayId(arr), dims) => {
                // the element first, as GW-BASIC finds it before the string:
                // nothing may fail after the string's room is taken, and
                // nothing is changed if it is to run again
                let index = match self.element(arr, dims) {
                    Ok(index) => index,
                    Err(fault) => {
                        // GW-BASIC's LET finds the element (PTRGET) before it
                        // works out the string, so a string built here for
                        // an element that fails was never made: its room
                        // comes back as for a string used up
                        if fault != Fault::Retune(RESUME_AGAIN) {
                            self.pop_used_str();
                        }
                        return Err(fault);
                    }
                };
                let text = self.pop_str();
                let home = self.placed(self.m.str_stack.len(), text.len())?;
                self.store_str_elem(arr as usize, index, text, home)?;
                self.hand_over_after_call()?;
            }
            Op::CheckElem(ArrayId(arr), dims) => {
                self.element_at::<false>(arr, dims)?;
            }
            Op::Dim(ArrayId(arr), dims) => {
                self.dim(arr, dims)?;
                self.note_growth();
                self.hand_over_after_call()?;
            }
            Op::Erase(ArrayId(arr)) => {
                let Some(entry) = self.m.arrays.get_mut(arr as usize) else {
                    return Err(Fault::Internal);
                };
                let Some(array) = entry.take() else {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                };
                self.forget_elem_homes(arr as usize);
                self.m.memory = self.m.memory.saturating_sub(array.bytes());
                let gw_bytes = self.gw_array_bytes(arr as usize, array.bounds.len(), array.len());
                self.m.array_bytes = self.m.array_bytes.saturating_sub(gw_bytes);
                self.charge(cost::elements(array.len()));
                if self.m.base_fixed == BaseFixed::ByArray
                    && self.m.arrays.iter().all(Option::is_none)
                {
                    self.m.base_fixed = BaseFixed::No;
                }
            }
            Op::ReadBegin => self.m.read_mark = Some(self.m.data_ptr),
            Op::ReadNum(double_target) => {
                let entry = self.current_data()?;
                // GW-BASIC's reader (`FIN`, `FINDBL` for a double variable:
                // `NUMINS`, GWMAIN.ASM) starts at a quote as at any other
                // character that is not a digit: 0, and the text after it
                let item = if entry.quoted {
                    Ok(number::ItemNumber {
                        value: 0.0,
                        double: double_target,
                        rest: true,
                    })
                } else {
                    number::read_item(&cp437::to_bytes(&entry.text), double_target)
                };
                // the `&` reader's own errors (`OCTCNS`, GWEVAL.ASM: `OVERR`,
                // `SNERR`) are at the line of the READ, which is `CURLIN`
                let item = match item {
                    Ok(item) => item,
                    Err(number::RadixFault::Overflow) => return Err(ErrorCode::Overflow.into()),
                    Err(number::RadixFault::Digit) => return Err(ErrorCode::SyntaxError.into()),
                };
                // The reader overflows in the number's own type, printing
                // `Overflow` once however many digits go past the range (it
                // reads in once-only overflow mode), and goes on with that type's
                // largest value; storing a double's into a single variable
                // overflows again (a second `Overflow`), a single's into a double
                // does not. Under ON ERROR, `TRAPER` (MATH1.ASM) makes it error
                // 6 at the READ's line (`CURLIN`; only a malformed item is
                // blamed on its DATA line), before the store.
                let max = if item.double {
                    number::DBL_MAX
                } else {
                    number::SNG_MAX
                };
                if item.value.abs() > max && self.m.on_error.is_some() {
                    return Err(ErrorCode::Overflow.into());
                }
                let value = if item.double {
                    self.dbl(item.value)?
                } else {
                    self.sng(item.value)?
                };
                self.read_next(item.rest, entry.line);
                self.push(value);
            }
            Op::ReadStr => {
                let entry = self.current_data()?;
                self.read_next(entry.stray_after_quote, entry.line);
                self.m.str_stack.push(entry.text.clone());
                self.loaded_string(false);
            }
            Op::ReadCheck(last) => {
                if let Some(line) = self.m.read_fault.take() {
                    return Err(Fault::BasicAtLine(ErrorCode::SyntaxError, line));
                }
                if last {
                    self.m.read_mark = None;
                }
            }
            Op::Restore(index) => self.m.data_ptr = index,
            Op::OptionBase(base) => {
                if self.m.base_fixed != BaseFixed::No && base != self.m.option_base {
                    return Err(ErrorCode::DuplicateDefinition.into());
                }
                self.m.option_base = base;
                self.m.base_fixed = BaseFixed::ByOptionBase;
            }
            _ => return Err(Fault::Internal),
        }
        Ok(())
    }
}
