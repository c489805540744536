//! Parses the arguments of the statements GW-BASIC reads with `SCNINT` and
//! friends (`COLOR`, `CLS`, `LOCATE`) and of `CLEAR`: each value is checked as
//! it is read, and what follows a value decides between Illegal function call
//! and Syntax error.

use super::*;

impl Parser {
    /// `COLOR`'s arguments (any may be left out: `COLOR ,1`), to be range-checked;
    /// an argument that does not parse fails after the arguments before it are
    /// checked, as each is read and checked in turn. Text after an argument is
    /// Illegal function call once the arguments before it are checked
    /// (`scnint_end`).
    ///
    /// The text screen's colours (`SETCLR`, IBM's own code, not in the
    /// published source) are checked as PC-BASIC checks them: a foreground
    /// 0-31, a background and a border 0-15, and a fourth value none.
    pub(super) fn color_arguments(&mut self) -> PResult<StmtKind> {
        const RANGES: [ArgRange; 3] = [
            ArgRange::Foreground,
            ArgRange::Background,
            ArgRange::Background,
        ];
        let mut arguments = Vec::new();
        let mut position = 0;
        while !self.at_stmt_end() {
            if self.eat(&Tok::Comma) {
                position += 1;
                continue;
            }
            let range = RANGES.get(position).copied().unwrap_or(ArgRange::Unused);
            match self.expr() {
                Ok(argument) => arguments.push((range, argument)),
                Err(error) => {
                    return Err(error.with_partial(StmtKind::CheckedArgs(arguments)));
                }
            }
            self.scnint_end(&arguments)?;
            if self.eat(&Tok::Comma) {
                position += 1;
            }
        }
        Ok(StmtKind::CheckedArgs(arguments))
    }

    /// After an argument of `COLOR`, `LOCATE`, `WIDTH` or `CLS`: GW-BASIC reads
    /// each with `SCNINT` (GWSTS.ASM), which takes only the statement's end, a
    /// comma or `)` after the value and jumps to `FCERR` at anything else, so
    /// `COLOR 1 X` is Illegal function call (5), after the values read so far
    /// are checked (`GETBYT`). PC-BASIC says Syntax error there but for `WIDTH`.
    pub(super) fn scnint_end(&self, arguments: &[(ArgRange, Expr)]) -> PResult<()> {
        if self.at_stmt_end() || self.peek() == Some(&Tok::Comma) {
            return Ok(());
        }
        Err(Box::new(ParseFailure {
            col: self.col(),
            problem: Box::new(SyntaxProblem::Expected(Expected::Code(",".to_owned()))),
            code: ErrorCode::IllegalFunctionCall,
            partial: Some(Box::new(StmtKind::CheckedArgs(arguments.to_vec()))),
            before: Vec::new(),
        }))
    }

    /// `CLS [n]` (GWSTS.ASM: `SCNINT`, then `EOSCHK`): the mode, if given, is a
    /// byte that GW-BASIC 3.2x takes only as 0, 1 or 2; a comma may follow it.
    pub(super) fn cls_argument(&mut self) -> PResult<StmtKind> {
        if self.at_stmt_end() || self.eat(&Tok::Comma) {
            return Ok(StmtKind::Cls(None));
        }
        let mode = self.expr()?;
        self.scnint_end(&[(ArgRange::ClsMode, mode.clone())])?;
        self.eat(&Tok::Comma);
        Ok(StmtKind::Cls(Some(mode)))
    }

    /// `LOCATE`'s five arguments (row, column, cursor, start, stop; any may be
    /// left out), each range-checked in turn when it runs. A comma may follow the
    /// fifth. Text after it (a sixth value) is `EOSCHK`'s Syntax error
    /// (GWSTS.ASM, `LOCATE`), which comes after the row and the column were
    /// checked as they were read and the other three read as bytes (`SCNINT`),
    /// but before `CSRATR` checks those three.
    pub(super) fn locate_arguments(&mut self) -> PResult<StmtKind> {
        const RANGES: [ArgRange; 5] = [
            ArgRange::Row,
            ArgRange::Column,
            ArgRange::Cursor,
            ArgRange::ScanLine,
            ArgRange::ScanLine,
        ];
        let mut arguments = Vec::new();
        for range in RANGES {
            if self.at_stmt_end() {
                break;
            }
            if self.peek() != Some(&Tok::Comma) {
                arguments.push((range, self.expr()?));
                self.scnint_end(&arguments)?;
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        if !self.at_stmt_end() {
            let read = arguments
                .into_iter()
                .map(|(range, argument)| match range {
                    ArgRange::Row | ArgRange::Column => (range, argument),
                    _ => (ArgRange::Byte, argument),
                })
                .collect();
            return self
                .error(SyntaxProblem::Expected(Expected::EndOfStatement))
                .map_err(|error: ParseError| error.with_partial(StmtKind::CheckedArgs(read)));
        }
        Ok(StmtKind::CheckedArgs(arguments))
    }

    /// `CLEAR [n][,[m][,s]]` as GW-BASIC's `CLEAR` (BIMISC.ASM) reads it: a
    /// comma may stand for an argument left out, and each argument given is
    /// checked before anything is cleared: the top of the segment, then the
    /// stack's size (which the VM then sets, `Op::Clear`).
    pub(super) fn clear_arguments(&mut self) -> PResult<StmtKind> {
        let mut arguments = Vec::new();
        if self.at_stmt_end() {
            return Ok(StmtKind::Clear(arguments));
        }
        if self.peek() != Some(&Tok::Comma) {
            arguments.push((ArgRange::ClearDummy, self.expr()?));
            if self.at_stmt_end() {
                return Ok(StmtKind::Clear(arguments));
            }
        }
        // CSKPCM, then CLEARS: a comma and an optional size, twice
        for range in [ArgRange::MemorySize, ArgRange::StackSize] {
            self.expect(&Tok::Comma, Expected::Code(",".to_string()))?;
            if self.at_stmt_end() {
                break;
            }
            if self.peek() != Some(&Tok::Comma) {
                arguments.push((range, self.expr()?));
                if self.at_stmt_end() {
                    break;
                }
            }
        }
        Ok(StmtKind::Clear(arguments))
    }
}
