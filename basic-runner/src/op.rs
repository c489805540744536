//! The bytecode: a compact stack machine in the spirit of seed 001.
//!
//! Numbers live on one stack (as `f64`; the compiler knows each one's BASIC type
//! and picks the typed instruction), strings on another. Variables are resolved to
//! slots at compile time, so the VM never looks a name up. `Ext` instructions
//! are the host calls: output, input, random numbers and character records are the
//! only ways out of the sandbox.

use serde::{Deserialize, Serialize};

use crate::error::ErrorCode;
pub use crate::number::NumTy;

/// An index into the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pc(pub u32);

/// A scalar variable: an index into the numeric or the string variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Slot(pub u32);

/// An array variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ArrayId(pub u32);

/// A string constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConstId(pub u32);

/// A side table entry (`FOR` and `WHILE` targets, `ON` jump tables, `INPUT` forms,
/// user functions and their definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableId(pub u32);

/// A built-in function with a fixed stack effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `ABS`.
    Abs,
    /// `SGN`.
    Sgn,
    /// `INT`: rounds down.
    Int,
    /// `FIX`: rounds toward zero.
    Fix,
    /// `SIN`.
    Sin,
    /// `COS`.
    Cos,
    /// `TAN`.
    Tan,
    /// `ATN`.
    Atn,
    /// `EXP`.
    Exp,
    /// `LOG`.
    Log,
    /// `SQR`.
    Sqr,
    /// `CINT`: round to a 16-bit integer.
    Cint,
    /// `CSNG`: round to single precision.
    Csng,
    /// `LEN`.
    Len,
    /// `LEFT$`.
    Left,
    /// `RIGHT$`.
    Right,
    /// `MID$(s, n)`.
    Mid2,
    /// `MID$(s, n, m)`.
    Mid3,
    /// `CHR$`.
    Chr,
    /// `ASC`.
    Asc,
    /// `STR$` of a single or integer.
    StrSng,
    /// `STR$` of a double.
    StrDbl,
    /// A number as a character record shows it (no leading space), single.
    PlainSng,
    /// A number as a character record shows it, double.
    PlainDbl,
    /// `VAL` typed at run time, as GW-BASIC types it by the text read: pushes the
    /// value, then 1 if it is a double (more than 7 digits, `D`, `#`) else 0.
    ValTyped,
    /// Arithmetic on values typed at run time (`VAL(A$)+1`), each operand and
    /// the result a value and its type flag as `ValTyped` pushes them.
    Typed(TypedOp),
    /// `STR$` of a value and its type flag as `ValTyped` pushes them.
    StrTyped,
    /// `INSTR(a, b)`.
    Instr2,
    /// `INSTR(n, a, b)`.
    Instr3,
    /// `STRING$(n, code)`.
    StringCode,
    /// `STRING$(n, s)`.
    StringStr,
    /// `SPACE$`.
    Space,
    /// `HEX$`.
    Hex,
    /// `OCT$`.
    Oct,
    /// `CVI`, `CVS`, `CVD`: a number from its bytes (Microsoft Binary Format).
    Cv(NumTy),
    /// `MKI$`, `MKS$`, `MKD$`: a number's bytes (the number already of that type).
    Mk(NumTy),
    /// `POS`: the output column, from 1.
    Pos,
    /// `FRE(x)`: the bytes free in GW-BASIC's segment.
    Fre,
    /// `FRE("")`: the same after a garbage collection.
    FreStr,
    /// `LEN(a$)` of a variable, read in place.
    LenOf(Slot),
    /// `LEFT$(a$, n)` of a variable, taking only the characters kept (no copy
    /// of the whole string on the stack).
    LeftOf(Slot),
    /// `RIGHT$(a$, n)` of a variable, likewise.
    RightOf(Slot),
    /// `MID$(a$, n)` of a variable, likewise.
    Mid2Of(Slot),
    /// `MID$(a$, n, m)` of a variable, likewise.
    Mid3Of(Slot),
    /// `ERR`: the number of the error being handled.
    Err,
    /// `ERL`: the line of the error being handled.
    Erl,
    /// `MID$(s, n) = t`: pops s, n, t and pushes the changed s.
    MidSet2,
    /// `MID$(s, n, m) = t`: pops s, n, m, t and pushes the changed s.
    MidSet3,
    /// `MID$(s, n) = s` with the same variable: GW-BASIC copies byte by byte
    /// within the one string, so the copy reads bytes it has already written.
    MidSetSame2,
    /// `MID$(s, n, m) = s` with the same variable.
    MidSetSame3,
    /// `INPUT$(n)`: pops n and pushes the first n keys typed ahead (as many
    /// are there: `Ext::AwaitKeys` waited for them).
    InputKeys,
    /// `INKEY$`: pushes the first key typed ahead, or `""`.
    Inkey,
    /// `LSET s = t`: pops s and t and pushes t cut or blank-padded on the
    /// right to the length of s.
    Lset,
    /// `RSET s = t`: likewise, padded on the left.
    Rset,
    /// The string just loaded for a `MID$` assignment: one from the program
    /// text is copied into the string space first (GW-BASIC does not write
    /// into its program), so it takes room there now.
    ToSpace,
    /// The string just loaded for a `SWAP`: moved, not copied, so the store
    /// that takes it claims no string space for it.
    Moving,
}

/// An operation of [`Builtin::Typed`]: GW-BASIC's `VAL` gives a double for
/// more than 7 digits, and the type carries through the arithmetic around it
/// (`VAL("123456789")+1` is 123456790), so these pick single or double
/// arithmetic by their operands' flags. The unary ones keep the flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypedOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// Negation.
    Neg,
    /// `ABS`.
    Abs,
    /// `INT`.
    Int,
    /// `FIX`.
    Fix,
}

/// The range an argument read and dropped must be in (`COLOR`'s, `LOCATE`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArgRange {
    /// A byte, 0-255.
    Byte,
    /// `WIDTH`'s rows: 25, the only height of the text screen here.
    Rows,
    /// `COLOR`'s foreground on the text screen: 0-31 (16-31 blink).
    Foreground,
    /// `COLOR`'s background and border on the text screen: 0-15.
    Background,
    /// An argument past the last a statement takes (`COLOR`'s fourth): read
    /// as a byte, then Illegal function call whatever it is.
    Unused,
    /// `LOCATE`'s row: 1-25.
    Row,
    /// `LOCATE`'s column: 1 to the screen's width.
    Column,
    /// `LOCATE`'s cursor switch: 0 or 1.
    Cursor,
    /// `LOCATE`'s cursor start and stop scan lines: 0-31.
    ScanLine,
    /// `CLS`'s mode: 0-2.
    ClsMode,
    /// `CLEAR`'s first argument, a relic GW-BASIC reads and ignores (`INTID2`,
    /// BIMISC.ASM): an integer, Illegal function call when negative.
    ClearDummy,
    /// `CLEAR`'s top of the segment (`GETMPM`): read as `POKE`'s address is
    /// (`FRMQNT`, -32768 to 65535), Illegal function call when 0 or past the
    /// highest GW-BASIC has (`MAXMEM`); left on the stack for `Op::Clear`.
    MemorySize,
    /// `CLEAR`'s stack size: read as the top is, Illegal function call when
    /// 0; left on the stack for `Op::Clear`.
    StackSize,
    /// `MID$`'s start: a byte, and Illegal function call when 0 (`GETBYT`,
    /// then `FCERR`, BISTRS.ASM), read before its length.
    Start,
    /// Any integer: the Overflow of an integer `FOR` variable's start, where
    /// the loop has no `NEXT` and the start is never stored.
    Integer,
}

/// How a `PRINT USING` ends (GW-BASIC's PRINUS, BIPRTU.ASM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UsingEnd {
    /// The statement ends after the last value: the format's text up to its
    /// next field or its end is printed, then the line ends.
    Line,
    /// A `;` or `,` after the last value: the text up to the next field or
    /// the end, and the line goes on.
    Stay,
    /// Text after the last value (`FNSTRF`'s Syntax error): nothing more.
    Cut,
    /// A value that does not parse: the format is scanned to the field it
    /// would fill, starting over as for any value, before the value's error.
    Broken,
    /// No `;` after the format: it has been evaluated and found a string
    /// (PRINUS: `FRMCHK`, `CHKSTR`, then `SYNCHR`), and nothing else is done.
    FormatOnly,
}

/// A host call: the only instructions that reach outside the VM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ext {
    /// Print a number of the given type as `PRINT` does (sign, digits, space).
    PrintNum(NumTy),
    /// Print a value and its type flag as `Builtin::ValTyped` pushes them.
    PrintTyped,
    /// Print a string.
    PrintStr,
    /// `PRINT ,`: move to the next 14-column zone.
    PrintComma,
    /// `TAB(n)`.
    PrintTab,
    /// `SPC(n)`.
    PrintSpc,
    /// End a `PRINT` line (a line filled to the width gets GW-BASIC's extra line break).
    PrintNewline,
    /// End a `WRITE` line.
    WriteNewline,
    /// `WRITE` a number (no spaces around it).
    WriteNum(NumTy),
    /// `WRITE` a string (in quotes).
    WriteStr,
    /// `WRITE`'s comma.
    WriteComma,
    /// `CLS`: a page break.
    Cls,
    /// Pop an argument GW-BASIC reads and range-checks (`COLOR`'s, `LOCATE`'s):
    /// Illegal function call outside its range, otherwise dropped.
    CheckedArg(ArgRange),
    /// Check the number on top of the stack as `CheckedArg` does and leave
    /// it there: an argument GW-BASIC checks before it reads the next one.
    CheckTop(ArgRange),
    /// `PRINT USING`'s start: Illegal function call for an empty format (on
    /// top of the string stack, where it stays until `UsingEnd`).
    UsingBegin,
    /// Before a `PRINT USING` value is evaluated: print the format's text up
    /// to the field for it, starting the format over at its end (Illegal
    /// function call when a pass found no field), as GW-BASIC scans before
    /// it reads the value.
    UsingScan,
    /// Print the number on top of the stack, of this type, in the field found.
    UsingNum(NumTy),
    /// Print the string on top of the stack in the field found.
    UsingStr,
    /// The end of a `PRINT USING`: drops the format.
    UsingEnd(UsingEnd),
    /// `INPUT` into the targets of a form; array indices are on the number stack.
    Input(TableId),
    /// `RND` with no argument.
    Rnd,
    /// `RND(x)`.
    RndArg,
    /// `RANDOMIZE x`, where x has the given type.
    Randomize(NumTy),
    /// `RANDOMIZE` with no number: seeds silently.
    RandomizeDefault,
    /// Before `INPUT$(n)`, n on top: the session waits for a line of keys
    /// while fewer than n are typed ahead (the pc stays here).
    AwaitKeys,
    /// Before `INKEY$`: with no key typed ahead after `INKEY_PATIENCE`
    /// empty answers in a row, the session waits for a line (its first
    /// character is the key): a loop polling for a key waits for a message.
    AwaitKey,
    /// `TIMER`: a session-determined number of seconds (no clock reaches the sandbox).
    Timer,
    /// Hand the host a character record of this many name/value string pairs.
    Record(u32),
    /// `TRON` (true) and `TROFF` (false).
    Trace(bool),
    /// `KEY ON` (true) and `KEY OFF` (false): whether the function-key line
    /// takes the screen's last row (`LOCATE`'s row check).
    KeyLine(bool),
    /// The start of a line, in a program that uses `TRON`: writes `[N]` while
    /// tracing is on.
    TraceLine(u32),
    /// The start of the line with this number, one with a `READ` or `FOR`, in
    /// a program that uses `RESUME`: GW-BASIC's `CURLIN` is this line again
    /// (see `Machine::curlin`).
    LineStart(u32),
    /// `DEFINT`/`DEFSNG`/`DEFDBL`/`DEFSTR` in a program whose statements
    /// dispatch on the run-time table (`DefCase`): sets the letters in the
    /// mask (bit 0 is A) to the type code (0 single, 1 integer, 2 double,
    /// 3 string).
    DefType(u8, u32),
    /// Push 1 + the position, in the table's list, of the type codes the
    /// table's letters have now: an `ON` selector among a statement's
    /// copies, one compiled for each way GW-BASIC's table can type its names
    /// there (0, falling through to the first copy, for none).
    DefCase(TableId),
    /// Before a user function's argument: Undefined user function unless the
    /// function with this index is defined, Syntax error unless it has a
    /// parameter for the argument (at least this many). GW-BASIC finds the
    /// function first and reads an argument for each parameter.
    FnDefined(u32, u8),
    /// After a user function call's argument (the call's table entry, the
    /// argument's index): Type mismatch unless the parameter it goes to is of
    /// its kind, and a number made the parameter's type (Overflow). GW-BASIC
    /// coerces each argument (`DOCNVF` in `FNDOER`) before it looks for the
    /// `,` or `)` after it.
    FnArg(TableId, u8),
    /// `SWAP`'s plain variable (its slot, whether a string, whether the
    /// second): made when new (Out of memory without room), and the second
    /// one made new is then Illegal function call.
    SwapMake(Slot, bool, bool),
}

/// A typed arithmetic operation inside a fused instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arith {
    /// Integer `+`.
    AddInt,
    /// Integer `-`.
    SubInt,
    /// Single `+`.
    AddSng,
    /// Single `-`.
    SubSng,
    /// Single `*`.
    MulSng,
    /// Single `/`.
    DivSng,
    /// Double `+`.
    AddDbl,
    /// Double `-`.
    SubDbl,
    /// Double `*`.
    MulDbl,
    /// Double `/`.
    DivDbl,
}

impl Arith {
    /// The fused form of a plain arithmetic instruction.
    pub(crate) fn of(op: &Op) -> Option<Arith> {
        Some(match op {
            Op::AddInt => Arith::AddInt,
            Op::SubInt => Arith::SubInt,
            Op::AddSng => Arith::AddSng,
            Op::SubSng => Arith::SubSng,
            Op::MulSng => Arith::MulSng,
            Op::DivSng => Arith::DivSng,
            Op::AddDbl => Arith::AddDbl,
            Op::SubDbl => Arith::SubDbl,
            Op::MulDbl => Arith::MulDbl,
            Op::DivDbl => Arith::DivDbl,
            _ => return None,
        })
    }
}

/// A numeric comparison inside a fused branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `=`.
    Eq,
    /// `<>`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
}

impl Cmp {
    /// The fused form of a plain comparison instruction.
    pub(crate) fn of(op: &Op) -> Option<Cmp> {
        Some(match op {
            Op::Eq => Cmp::Eq,
            Op::Ne => Cmp::Ne,
            Op::Lt => Cmp::Lt,
            Op::Le => Cmp::Le,
            Op::Gt => Cmp::Gt,
            Op::Ge => Cmp::Ge,
            _ => return None,
        })
    }

    /// Whether `a cmp b` holds.
    #[inline(always)]
    pub(crate) fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// One VM instruction. Every operand is typed; jump targets are [`Pc`]s the verifier checks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push a number.
    Num(f64),
    /// Push a string constant.
    Str(ConstId),
    /// Drop the top number.
    PopNum,
    /// Push a numeric variable.
    LoadNum(Slot),
    /// Pop into a numeric variable as it is (double, or a value already of the variable's type).
    StoreNum(Slot),
    /// Pop into a single variable, rounding to single precision.
    StoreSng(Slot),
    /// Pop into an integer variable (`CINT`; overflow is an error).
    StoreInt(Slot),
    /// Push a string variable.
    LoadStr(Slot),
    /// Pop into a string variable.
    StoreStr(Slot),
    /// Pop `dims` indices, push the numeric array element.
    LoadElemNum(ArrayId, u8),
    /// Pop `dims` indices, push the string array element.
    LoadElemStr(ArrayId, u8),
    /// Pop a value and `dims` indices into a numeric element (converted to `NumTy`).
    StoreElemNum(ArrayId, u8, NumTy),
    /// Check the `dims` indices on the stack against the array (making an
    /// implicit one), leaving them there: a `LET` to an element whose value
    /// may fail finds the element first, as GW-BASIC's `PTRGET` does.
    CheckElem(ArrayId, u8),
    /// Pop a string and `dims` indices into a string element.
    StoreElemStr(ArrayId, u8),
    /// Pop `dims` bounds and dimension the array.
    Dim(ArrayId, u8),
    /// Remove an array.
    Erase(ArrayId),
    /// Integer addition (the result may leave the 16-bit range, as a single does).
    AddInt,
    /// Integer subtraction.
    SubInt,
    /// Single addition.
    AddSng,
    /// Single subtraction.
    SubSng,
    /// Single multiplication.
    MulSng,
    /// Single division.
    DivSng,
    /// Double addition.
    AddDbl,
    /// Double subtraction.
    SubDbl,
    /// Double multiplication.
    MulDbl,
    /// Double division.
    DivDbl,
    /// `^` with a single result.
    Pow,
    /// `^` with an integer exponent (repeated multiplication, as GW-BASIC does it).
    PowInt,
    /// Negation.
    Neg,
    /// `\`: integer division.
    IntDiv,
    /// `MOD`.
    Mod,
    /// `NOT` on a 16-bit integer.
    Not,
    /// `AND` on 16-bit integers.
    And,
    /// `OR` on 16-bit integers.
    Or,
    /// `XOR` on 16-bit integers.
    Xor,
    /// `EQV` on 16-bit integers.
    Eqv,
    /// `IMP` on 16-bit integers.
    Imp,
    /// Numeric `=` (true is -1).
    Eq,
    /// Numeric `<>`.
    Ne,
    /// Numeric `<`.
    Lt,
    /// Numeric `<=`.
    Le,
    /// Numeric `>`.
    Gt,
    /// Numeric `>=`.
    Ge,
    /// String `=`.
    StrEq,
    /// String `<>`.
    StrNe,
    /// String `<`.
    StrLt,
    /// String `<=`.
    StrLe,
    /// String `>`.
    StrGt,
    /// String `>=`.
    StrGe,
    /// String `+`.
    Concat,
    /// Round the top number to single precision.
    ToSng,
    /// Round the top number to an integer (`CINT`, overflow is an error).
    ToInt,
    /// A built-in function.
    Call(Builtin),
    /// Jump.
    Jump(Pc),
    /// Pop a number; jump if it is zero.
    JumpIfFalse(Pc),
    /// Push a return address and jump.
    Gosub(Pc),
    /// Return to the statement after the last `GOSUB`.
    Return,
    /// Drop the last `GOSUB` and jump.
    ReturnTo(Pc),
    /// Pop a selector and jump (or `GOSUB`) through an `ON` table.
    On(TableId),
    /// Pop limit and step; start a `FOR` loop described by the table entry.
    ForInit(TableId),
    /// `NEXT` for the named variable (whose type is given).
    Next(Slot, NumTy),
    /// `NEXT` without a variable: the innermost loop.
    NextAny,
    /// Pop a condition; enter or leave a `WHILE` loop described by the table entry.
    While(TableId),
    /// Go back to the innermost `WHILE`.
    Wend,
    /// Make a `DEF FN` definition the current one for its function.
    DefFn(TableId),
    /// Call a user function; its arguments are on the stacks.
    CallFn(TableId),
    /// Return from a user function's body.
    FnReturn,
    /// Start a `READ` statement: remember where the `DATA` items stand, as
    /// GW-BASIC keeps its `DATPTR` until the statement ends.
    ReadBegin,
    /// Push the next `DATA` item as a number (read in double for a double
    /// variable).
    ReadNum(bool),
    /// Push the next `DATA` item as a string.
    ReadStr,
    /// After a `READ` item's store: the `Syntax error` of text after the item,
    /// if any; `true` ends the statement.
    ReadCheck(bool),
    /// Point `READ` at a `DATA` item.
    Restore(u32),
    /// `ON ERROR GOTO line`: errors jump to the handler.
    OnError(Pc),
    /// `ON ERROR GOTO 0`: errors stop the program again.
    OnErrorOff,
    /// `RESUME`: run the failed statement again.
    Resume,
    /// `RESUME NEXT`: go on after the failed statement.
    ResumeNext,
    /// `RESUME line`.
    ResumeAt(Pc),
    /// `ERROR n`: pop n and raise that error.
    RaiseNumber,
    /// `OPTION BASE`.
    OptionBase(u8),
    /// Pop the output width.
    Width,
    /// `CLEAR`: reset variables, arrays, stacks and `DATA`; with `top` and
    /// `stack`, pops the sizes given (the stack's on top) and sets them first.
    Clear { top: bool, stack: bool },
    /// `RUN`: clear and jump.
    Run(Pc),
    /// `STOP`: print `Break in N` and end.
    Stop,
    /// `END`.
    End,
    /// Raise a run-time error.
    Raise(ErrorCode),
    /// A host call.
    Ext(Ext),
    /// Fused: `top = top OP k` with a constant operand.
    ArithK(Arith, f64),
    /// Fused: `top = top OP v` with a variable operand.
    ArithV(Arith, Slot),
    /// Fused: `v = v OP k` in place (`K = K + 1`), the result kept as the operation rounds it.
    Update(Slot, Arith, f64),
    /// Fused: `v% = v% OP k` in place for an integer variable (`CINT`, overflow is an error).
    UpdateInt(Slot, Arith, f64),
    /// Fused: push `v OP k` (a variable and a constant).
    LoadArithK(Slot, Arith, f64),
    /// Fused: `v = k` for a constant already of the variable's type.
    SetNum(Slot, f64),
    /// Fused: start a `FOR` loop whose limit and step are pooled constants.
    ForConst {
        /// The loop's table entry.
        table: TableId,
        /// The limit's index in the constant pool.
        limit: u32,
        /// The step's index in the constant pool.
        step: u32,
    },
    /// Fused: `a$ = a$ + "k"` in place.
    AppendConst(Slot, ConstId),
    /// Fused: `a$ = a$ + b$` in place.
    AppendVar(Slot, Slot),
    /// Fused: pop two numbers and jump if the comparison holds (`true`) or fails (`false`).
    Branch(Cmp, bool, Pc),
    /// Fused: compare a variable with a pooled constant and jump if the comparison
    /// holds (`when`) or fails.
    BranchVarK {
        /// The variable.
        var: Slot,
        /// The constant's index in the pool.
        k: u32,
        /// The comparison.
        cmp: Cmp,
        /// Jump when the comparison's result equals this.
        when: bool,
        /// Where to jump.
        target: Pc,
    },
}

/// How an instruction changes the stacks and where control goes, for the verifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Effect {
    pub(crate) num_pop: u32,
    pub(crate) num_push: u32,
    pub(crate) str_pop: u32,
    pub(crate) str_push: u32,
}

const fn effect(num_pop: u32, num_push: u32, str_pop: u32, str_push: u32) -> Effect {
    Effect {
        num_pop,
        num_push,
        str_pop,
        str_push,
    }
}

impl Builtin {
    /// Whether the function makes a new string (which takes string space).
    pub(crate) fn makes_string(self) -> bool {
        use Builtin::*;
        matches!(
            self,
            Left | Right
                | Mid2
                | Mid3
                | LeftOf(_)
                | RightOf(_)
                | Mid2Of(_)
                | Mid3Of(_)
                | Chr
                | StrSng
                | StrDbl
                | StrTyped
                | PlainSng
                | PlainDbl
                | Space
                | Hex
                | Oct
                | Mk(_)
                | StringCode
                | StringStr
                | InputKeys
                | Inkey
        )
    }

    /// The string variable the function reads in place, if any.
    pub(crate) fn reads(self) -> Option<Slot> {
        use Builtin::*;
        match self {
            LenOf(slot) | LeftOf(slot) | RightOf(slot) | Mid2Of(slot) | Mid3Of(slot) => Some(slot),
            _ => None,
        }
    }

    fn effect(self) -> Effect {
        use Builtin::*;
        match self {
            Err | Erl | LenOf(_) => effect(0, 1, 0, 0),
            LeftOf(_) | RightOf(_) | Mid2Of(_) => effect(1, 0, 0, 1),
            Mid3Of(_) => effect(2, 0, 0, 1),
            Abs | Sgn | Int | Fix | Sin | Cos | Tan | Atn | Exp | Log | Sqr | Cint | Csng | Pos
            | Fre => effect(1, 1, 0, 0),
            Len | Asc | Cv(_) | FreStr => effect(0, 1, 1, 0),
            ValTyped => effect(0, 2, 1, 0),
            Typed(TypedOp::Add | TypedOp::Sub | TypedOp::Mul | TypedOp::Div) => effect(4, 2, 0, 0),
            Typed(_) => effect(2, 2, 0, 0),
            StrTyped => effect(2, 0, 0, 1),
            Left | Right | Mid2 => effect(1, 0, 1, 1),
            Mid3 => effect(2, 0, 1, 1),
            Chr | StrSng | StrDbl | PlainSng | PlainDbl | Space | Hex | Oct | Mk(_) => {
                effect(1, 0, 0, 1)
            }
            Instr2 => effect(0, 1, 2, 0),
            Instr3 => effect(1, 1, 2, 0),
            StringCode => effect(2, 0, 0, 1),
            StringStr => effect(1, 0, 1, 1),
            MidSet2 | MidSetSame2 => effect(1, 0, 2, 1),
            MidSet3 | MidSetSame3 => effect(2, 0, 2, 1),
            Lset | Rset => effect(0, 0, 2, 1),
            InputKeys => effect(1, 0, 0, 1),
            Inkey => effect(0, 0, 0, 1),
            ToSpace | Moving => effect(0, 0, 1, 1),
        }
    }
}

/// The variable an instruction gives a value to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Written {
    Num(Slot),
    Str(Slot),
    Elem(ArrayId),
}

impl Op {
    /// The variable this instruction stores into, if it stores (`FOR`'s and
    /// `INPUT`'s targets are in their tables, not here).
    pub(crate) fn written(&self) -> Option<Written> {
        match *self {
            Op::StoreNum(slot)
            | Op::StoreSng(slot)
            | Op::StoreInt(slot)
            | Op::Update(slot, ..)
            | Op::UpdateInt(slot, ..)
            | Op::SetNum(slot, _)
            | Op::Next(slot, _) => Some(Written::Num(slot)),
            Op::StoreStr(slot) | Op::AppendConst(slot, _) | Op::AppendVar(slot, _) => {
                Some(Written::Str(slot))
            }
            Op::StoreElemNum(id, ..) | Op::StoreElemStr(id, _) => Some(Written::Elem(id)),
            _ => None,
        }
    }

    /// The stack effect of the instruction.
    pub(crate) fn effect(&self) -> Effect {
        use Op::*;
        let dims = |d: &u8| u32::from(*d);
        match self {
            Num(_) | LoadNum(_) => effect(0, 1, 0, 0),
            Str(_) | LoadStr(_) => effect(0, 0, 0, 1),
            PopNum | StoreNum(_) | StoreSng(_) | StoreInt(_) | JumpIfFalse(_) | On(_)
            | While(_) | Width | RaiseNumber => effect(1, 0, 0, 0),
            OnError(_) | OnErrorOff | Resume | ResumeNext | ResumeAt(_) => effect(0, 0, 0, 0),
            StoreStr(_) => effect(0, 0, 1, 0),
            LoadElemNum(_, d) => effect(dims(d), 1, 0, 0),
            LoadElemStr(_, d) => effect(dims(d), 0, 0, 1),
            StoreElemNum(_, d, _) => effect(dims(d) + 1, 0, 0, 0),
            StoreElemStr(_, d) => effect(dims(d), 0, 1, 0),
            CheckElem(_, d) => effect(dims(d), dims(d), 0, 0),
            Dim(_, d) => effect(dims(d), 0, 0, 0),
            AddInt | SubInt | AddSng | SubSng | MulSng | DivSng | AddDbl | SubDbl | MulDbl
            | DivDbl | Pow | PowInt | IntDiv | Mod | And | Or | Xor | Eqv | Imp | Eq | Ne | Lt
            | Le | Gt | Ge => effect(2, 1, 0, 0),
            Neg | Not | ToSng | ToInt | ArithK(..) | ArithV(..) => effect(1, 1, 0, 0),
            LoadArithK(..) => effect(0, 1, 0, 0),
            SetNum(..) | ForConst { .. } => effect(0, 0, 0, 0),
            Update(..) | UpdateInt(..) | BranchVarK { .. } | AppendConst(..) | AppendVar(..) => {
                effect(0, 0, 0, 0)
            }
            Branch(..) => effect(2, 0, 0, 0),
            StrEq | StrNe | StrLt | StrLe | StrGt | StrGe => effect(0, 1, 2, 0),
            Concat => effect(0, 0, 2, 1),
            Call(builtin) => builtin.effect(),
            ForInit(_) => effect(2, 0, 0, 0),
            ReadNum(_) => effect(0, 1, 0, 0),
            ReadStr => effect(0, 0, 0, 1),
            Ext(ext) => match ext {
                // the sizes stay for `Op::Clear`
                self::Ext::CheckedArg(ArgRange::MemorySize | ArgRange::StackSize) => {
                    effect(1, 1, 0, 0)
                }
                self::Ext::PrintNum(_)
                | self::Ext::UsingNum(_)
                | self::Ext::WriteNum(_)
                | self::Ext::PrintTab
                | self::Ext::PrintSpc
                | self::Ext::CheckedArg(_)
                | self::Ext::Randomize(_) => effect(1, 0, 0, 0),
                self::Ext::PrintStr
                | self::Ext::WriteStr
                | self::Ext::UsingStr
                | self::Ext::UsingEnd(_) => effect(0, 0, 1, 0),
                self::Ext::PrintTyped => effect(2, 0, 0, 0),
                self::Ext::Rnd | self::Ext::Timer | self::Ext::DefCase(_) => effect(0, 1, 0, 0),
                self::Ext::RndArg | self::Ext::CheckTop(_) => effect(1, 1, 0, 0),
                self::Ext::Record(n) => effect(0, 0, n.saturating_mul(2), 0),
                // Input pops its indices itself; the compiler balances them (see verify)
                _ => effect(0, 0, 0, 0),
            },
            Erase(_) | Jump(_) | Gosub(_) | Return | ReturnTo(_) | Next(..) | NextAny | Wend
            | DefFn(_) | CallFn(_) | FnReturn | Restore(_) | OptionBase(_) | Run(_) | ReadBegin
            | ReadCheck(_) | Stop | End | Raise(_) => effect(0, 0, 0, 0),
            Clear { top, stack } => effect(u32::from(*top) + u32::from(*stack), 0, 0, 0),
        }
    }

    /// Whether control can fall through to the next instruction.
    pub(crate) fn falls_through(&self) -> bool {
        !matches!(
            self,
            Op::Jump(_)
                | Op::Return
                | Op::ReturnTo(_)
                | Op::Run(_)
                | Op::Stop
                | Op::End
                | Op::Raise(_)
                | Op::FnReturn
                | Op::Resume
                | Op::ResumeNext
                | Op::ResumeAt(_)
                | Op::RaiseNumber
        )
    }

    /// The static jump target, mutable, for relocation.
    pub(crate) fn target_mut(&mut self) -> Option<&mut Pc> {
        match self {
            Op::Jump(pc)
            | Op::JumpIfFalse(pc)
            | Op::Gosub(pc)
            | Op::ReturnTo(pc)
            | Op::Run(pc)
            | Op::OnError(pc)
            | Op::ResumeAt(pc)
            | Op::Branch(_, _, pc)
            | Op::BranchVarK { target: pc, .. } => Some(pc),
            _ => None,
        }
    }

    /// Whether execution resumes at the next instruction from elsewhere (a
    /// `RETURN`, `NEXT`, a function's end, or input arriving).
    pub(crate) fn resumes_after(&self) -> bool {
        matches!(
            self,
            Op::Gosub(_)
                | Op::On(_)
                | Op::ForInit(_)
                | Op::ForConst { .. }
                | Op::CallFn(_)
                | Op::Ext(Ext::Input(_))
        )
    }

    /// The static jump target, if any.
    pub(crate) fn target(&self) -> Option<Pc> {
        let mut op = *self;
        op.target_mut().copied()
    }
}
