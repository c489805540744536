//! What a host keeps of a program that does not hand its characters over with
//! `RECORD`: the variables at a chosen line (every time it is about to run) and
//! the variables as they were the last time they were alive (before `CLEAR` or
//! `RUN` wiped them, or at the end).
//!
//! Values are written as [`crate::Session::variables`] writes them; array elements
//! are named with their subscripts (`A(1)`, `C$(2,3)`). A capture is bounded: at
//! most [`MAX_ELEMENTS_PER_ARRAY`] elements of each array and
//! [`MAX_CAPTURED_VALUES`] values in all.

use serde::{Deserialize, Serialize};

use crate::code::Code;
use crate::cp437;
use crate::number::{self, NumTy};
use crate::vm::{ArrayData, Machine};

/// Elements of one array a capture keeps (the first ones, in subscript order).
pub const MAX_ELEMENTS_PER_ARRAY: usize = 256;
/// Values one capture keeps in all (scalars first, then array elements).
pub const MAX_CAPTURED_VALUES: usize = 2048;

/// The variables at one moment of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    /// The BASIC line about to run when the capture was taken.
    pub line: u32,
    /// Scalars sorted by name, then array elements, each array in subscript order.
    pub variables: Vec<(String, String)>,
}

/// Every scalar variable (sorted by name) and, with `arrays`, the elements of the
/// dimensioned arrays, within the bounds above.
pub(crate) fn variables(machine: &Machine, code: &Code, arrays: bool) -> Vec<(String, String)> {
    let mut variables: Vec<(String, String)> = code
        .num_vars
        .iter()
        .zip(&machine.nums)
        .filter(|((name, _), _)| !name.starts_with('~'))
        .map(|((name, ty), value)| (name.clone(), number::format_plain(*value, *ty)))
        .chain(
            code.str_vars
                .iter()
                .zip(&machine.strs)
                .filter(|(name, _)| !name.starts_with('~'))
                .map(|(name, value)| (name.clone(), cp437::decode(value))),
        )
        .collect();
    variables.sort();
    variables.truncate(MAX_CAPTURED_VALUES);
    if !arrays {
        return variables;
    }
    for (info, array) in code.arrays.iter().zip(&machine.arrays) {
        let Some(array) = array else {
            continue;
        };
        if info.name.starts_with('~') {
            continue;
        }
        let room = MAX_CAPTURED_VALUES.saturating_sub(variables.len());
        let take = room.min(MAX_ELEMENTS_PER_ARRAY);
        let ty = num_ty_of(&info.name);
        let (base, name) = (usize::from(array.base), info.name.as_str());
        let values: Vec<String> = match &array.data {
            ArrayData::Num(values) => values
                .iter()
                .take(take)
                .map(|value| number::format_plain(*value, ty))
                .collect(),
            ArrayData::Str(values) => values.iter().take(take).map(|v| cp437::decode(v)).collect(),
        };
        for (flat, value) in values.into_iter().enumerate() {
            variables.push((element_name(name, &array.bounds, base, flat), value));
        }
    }
    variables
}

/// How many values differ from what `CLEAR` leaves (0 and the empty string).
pub(crate) fn alive_count(variables: &[(String, String)]) -> usize {
    variables
        .iter()
        .filter(|(_, value)| !value.is_empty() && value != "0")
        .count()
}

fn num_ty_of(name: &str) -> NumTy {
    match name.chars().last() {
        Some('%') => NumTy::Int,
        Some('#') => NumTy::Dbl,
        _ => NumTy::Sng,
    }
}

/// `A(2,3)` for the `flat`-th element of an array (the first subscript varies slowest).
fn element_name(name: &str, bounds: &[u16], base: usize, flat: usize) -> String {
    let mut subscripts = vec![0usize; bounds.len()];
    let mut rest = flat;
    for (slot, &bound) in subscripts.iter_mut().zip(bounds).rev() {
        let size = (usize::from(bound) + 1).saturating_sub(base).max(1);
        *slot = base + rest % size;
        rest /= size;
    }
    let list: Vec<String> = subscripts.iter().map(usize::to_string).collect();
    format!("{name}({})", list.join(","))
}

#[cfg(test)]
mod tests {
    use super::element_name;

    #[test]
    fn element_names_follow_the_subscripts() {
        assert_eq!(element_name("A", &[3], 0, 2), "A(2)");
        assert_eq!(element_name("A$", &[2, 3], 0, 5), "A$(1,1)");
        assert_eq!(element_name("B", &[2, 3], 1, 4), "B(2,2)");
    }
}
