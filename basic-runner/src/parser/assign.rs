//! Parses the assignments: `LET` and a plain assignment, the `MID$`
//! statement, and `LSET`/`RSET`, which write into the string a variable holds.

use super::*;

impl Parser {
    pub(super) fn assignment(&mut self) -> PResult<StmtKind> {
        if self.peek() == Some(&Tok::Kw(Kw::MidS)) {
            self.pos += 1;
            return self.mid_assignment();
        }
        let target = self.lvalue()?;
        self.expect(&Tok::Eq, Expected::Code("=".to_owned()))?;
        let value = self.expr()?;
        Ok(StmtKind::Let(target, value))
    }

    pub(super) fn mid_assignment(&mut self) -> PResult<StmtKind> {
        self.expect(&Tok::LParen, Expected::Code("(".to_owned()))?;
        let target = self.lvalue()?;
        self.expect(&Tok::Comma, Expected::Code(",".to_owned()))?;
        let start = self.expr()?;
        let len = if self.eat(&Tok::Comma) {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(&Tok::RParen, Expected::Code(")".to_owned()))?;
        self.expect(&Tok::Eq, Expected::Code("=".to_owned()))?;
        let value = self.expr()?;
        Ok(StmtKind::MidAssign {
            target,
            start,
            len,
            value,
        })
    }

    /// `LSET`/`RSET` (DSKCOM.ASM's `LSETA`): the variable is found before
    /// the `=` is read, so a bad `=` or value comes after its lookup.
    pub(super) fn justify(&mut self, right: bool) -> PResult<StmtKind> {
        let target = self.lvalue()?;
        let looked_up = StmtKind::Justify {
            target: target.clone(),
            value: None,
            right,
        };
        let value = self
            .expect(&Tok::Eq, Expected::Code("=".to_owned()))
            .and_then(|()| self.expr())
            .map_err(|error| error.with_partial(looked_up))?;
        Ok(StmtKind::Justify {
            target,
            value: Some(value),
            right,
        })
    }
}
