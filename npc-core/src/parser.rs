//! Parser (rulings G1..G5, X2, M4, M5, B1, B4, B7): tokens to flat tables.
//!
//! Recursive descent, one function per construct; depth is checked before each
//! descent, so the recursion never goes deeper than the nesting limit. After a
//! syntax error the parser skips to the next `CONV`/`RESP` definition, so one
//! broken definition costs one error, and the rest of the file is still checked.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::error::{LoadError, LoadErrorKind, MessageArg, MessageId};
use crate::lexer::{CmpOp, Token, TokenKind};
use crate::limits::Limits;
use crate::script::{BlockId, Choice, EffectRef, Keyword, Menu, Parm, Stmt, Ware, keyword_key};

/// The statement words, for "statement words are upper case" hints (X1).
const STATEMENT_WORDS: &[&str] = &[
    "SAY",
    "TRADE",
    "TURN_AWAY",
    "SET_FLAG",
    "CLEAR_FLAG",
    "TAKE_GOLD",
    "TAKE",
    "CHANGE_PARM",
    "SET_PARM",
    "TAKE_ITEM",
    "GIVE_ITEM",
    "JOIN",
    "ATTACK",
    "GET_AMOUNT",
    "EXIT",
    "GET_YES_NO",
    "CHECK_PARM",
    "CHECK_FLAG",
    "CHECK_ITEM",
    "CHECK_MEMBER",
    "MENU",
    "BREAK",
    "APPLY_EFFECT",
];

const PARAMETER_WORDS: &[&str] = &["AMOUNT", "GOLD", "FOOD", "ACTIVITY"];

/// A definition slot, indexed by its interned tag.
#[derive(Debug, Clone)]
pub(crate) enum Slot<T> {
    /// Referenced but never defined.
    Missing,
    /// Defined, but its body had a syntax error (so references to it are fine).
    Broken,
    Defined(T),
}

#[derive(Debug, Clone)]
pub(crate) struct ConvDraft {
    pub line: u32,
    pub imports: Vec<Site>,
    pub native: Vec<Keyword>,
}

#[derive(Debug, Clone)]
pub(crate) struct RespDraft {
    pub body: BlockId,
    /// Every `$call` in the body, nested ones included, in source order.
    pub calls: Vec<Site>,
}

/// A reference to a tag, with where it was written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Site {
    pub target: u32,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RefKind {
    NativeTarget,
    Import,
    Call,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Reference {
    pub kind: RefKind,
    pub site: Site,
}

#[derive(Debug, Default)]
pub(crate) struct Parsed {
    pub conv_names: Vec<String>,
    pub convs: Vec<Slot<ConvDraft>>,
    pub resp_names: Vec<String>,
    pub resps: Vec<Slot<RespDraft>>,
    pub blocks: Vec<Vec<Stmt>>,
    pub menus: Vec<Menu>,
    pub trades: Vec<Vec<Ware>>,
    pub references: Vec<Reference>,
    /// Every `APPLY_EFFECT` tag with where it was written, in source order.
    pub effect_refs: Vec<EffectRef>,
}

/// Raised after a syntax error has been recorded: unwinds to the definition level.
struct Abort;

type Parse<T> = Result<T, Abort>;

struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
    limits: &'t Limits,
    errors: &'t mut Vec<LoadError>,
    out: Parsed,
    conv_ids: HashMap<String, u32>,
    resp_ids: HashMap<String, u32>,
    depth: u32,
    /// B7 is reported once per definition: the blocks inside a too-deep one
    /// and its siblings at the same depth are the same mistake.
    depth_reported: bool,
    menu_depth: u32,
    /// A statement of the response being read failed (and was skipped).
    broken: bool,
    calls: Vec<Site>,
}

/// The definitions of a script; `None` when the host raised `cancel` (checked before
/// each definition).
pub(crate) fn parse(
    tokens: &[Token],
    limits: &Limits,
    errors: &mut Vec<LoadError>,
    cancel: Option<&AtomicBool>,
) -> Option<Parsed> {
    let mut parser = Parser {
        tokens,
        pos: 0,
        limits,
        errors,
        out: Parsed::default(),
        conv_ids: HashMap::new(),
        resp_ids: HashMap::new(),
        depth: 0,
        depth_reported: false,
        menu_depth: 0,
        broken: false,
        calls: Vec::new(),
    };
    while parser.peek().kind != TokenKind::Eof {
        if crate::is_cancelled(cancel) {
            return None;
        }
        let start = parser.pos;
        parser.depth_reported = false;
        if parser.definition().is_err() {
            parser.recover(start);
        }
    }
    Some(parser.out)
}

impl Parser<'_> {
    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        let index = self.pos.saturating_add(ahead);
        let last = self.tokens.len().saturating_sub(1);
        // The lexer always ends the list with Eof, so `last` is a valid Eof token.
        &self.tokens[index.min(last)]
    }

    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        if self.pos < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    /// Records message `id` with `args` at `token`.
    fn say<const N: usize>(
        &mut self,
        kind: LoadErrorKind,
        token: &Token,
        id: MessageId,
        args: [(&'static str, MessageArg); N],
    ) {
        if self.errors.len() > self.limits.max_errors {
            return;
        }
        self.errors
            .push(LoadError::said(kind, token.line, token.column, id, args));
    }

    /// Records "expected X, found Y" at the current token and aborts the definition;
    /// `expected` is a `want-*` phrase.
    fn expected<T>(&mut self, expected: MessageArg) -> Parse<T> {
        let token = self.peek().clone();
        let found = token.kind.describe();
        let upper = match &token.kind {
            TokenKind::Word(word) => upper_case_hint(word),
            _ => None,
        };
        match upper {
            Some(upper) => self.say(
                LoadErrorKind::Syntax,
                &token,
                MessageId::ExpectedUpperCase,
                [
                    ("expected", expected),
                    ("found", found),
                    ("upper", upper.into()),
                ],
            ),
            None => self.say(
                LoadErrorKind::Syntax,
                &token,
                MessageId::Expected,
                [("expected", expected), ("found", found)],
            ),
        }
        Err(Abort)
    }

    /// Whether the next tokens start a definition: `CONV tag {` or `RESP tag {`.
    fn at_definition_start(&self) -> bool {
        matches!(&self.peek().kind, TokenKind::Word(word) if word == "CONV" || word == "RESP")
            && matches!(self.peek_at(1).kind, TokenKind::Word(_))
            && self.peek_at(2).kind == TokenKind::LBrace
    }

    /// Skips to the next token that starts a definition (`CONV tag {` or `RESP tag {`),
    /// never back to the failed definition's own start.
    fn recover(&mut self, start: usize) {
        if self.pos == start {
            self.advance();
        }
        self.depth = 0;
        self.menu_depth = 0;
        loop {
            if self.peek().kind == TokenKind::Eof || self.at_definition_start() {
                return;
            }
            self.advance();
        }
    }

    fn definition(&mut self) -> Parse<()> {
        match &self.peek().kind {
            TokenKind::Word(word) if word == "CONV" => {
                self.advance();
                self.conversation()
            }
            TokenKind::Word(word) if word == "RESP" => {
                self.advance();
                self.response()
            }
            _ => self.expected(MessageArg::phrase(MessageId::WantDefinition, [])),
        }
    }

    fn tag(&mut self, what: MessageArg) -> Parse<(String, Token)> {
        let token = self.peek().clone();
        match &token.kind {
            TokenKind::Word(word) => {
                let word = word.clone();
                self.advance();
                Ok((word, token))
            }
            _ => self.expected(what),
        }
    }

    fn intern_conv(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.conv_ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.out.convs.len()).unwrap_or(u32::MAX);
        self.out.convs.push(Slot::Missing);
        self.out.conv_names.push(name.to_string());
        self.conv_ids.insert(name.to_string(), id);
        id
    }

    fn intern_resp(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.resp_ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.out.resps.len()).unwrap_or(u32::MAX);
        self.out.resps.push(Slot::Missing);
        self.out.resp_names.push(name.to_string());
        self.resp_ids.insert(name.to_string(), id);
        id
    }

    fn reference(&mut self, kind: RefKind, target: u32, token: &Token) -> Site {
        let site = Site {
            target,
            line: token.line,
            column: token.column,
        };
        self.out.references.push(Reference { kind, site });
        site
    }

    /// Opens a block; `Ok(false)` when it is nested too deep (B7): the error is
    /// recorded and the block's tokens are skipped without descending.
    fn open_brace(&mut self, after: MessageArg) -> Parse<bool> {
        let token = self.peek().clone();
        if token.kind != TokenKind::LBrace {
            return self.expected(MessageArg::phrase(
                MessageId::WantOpenBrace,
                [("after", after)],
            ));
        }
        if self.depth >= self.limits.max_depth {
            if !self.depth_reported {
                self.depth_reported = true;
                let max = self.limits.max_depth.into();
                self.say(
                    LoadErrorKind::TooDeep,
                    &token,
                    MessageId::TooDeep,
                    [("max", max)],
                );
            }
            self.skip_balanced()?;
            return Ok(false);
        }
        self.advance();
        self.depth += 1;
        Ok(true)
    }

    fn close_brace(&mut self, opened: &Token) -> Parse<()> {
        if self.peek().kind == TokenKind::RBrace {
            self.advance();
            self.depth = self.depth.saturating_sub(1);
            return Ok(());
        }
        self.expected(MessageArg::phrase(
            MessageId::WantCloseBrace,
            [("line", opened.line.into())],
        ))
    }

    /// Skips a `{ ... }` group without recursion.
    fn skip_balanced(&mut self) -> Parse<()> {
        let opened = self.advance();
        let mut open: u64 = 1;
        while open > 0 {
            match self.peek().kind {
                TokenKind::LBrace => open += 1,
                TokenKind::RBrace => open -= 1,
                TokenKind::Eof => {
                    return self.expected(MessageArg::phrase(
                        MessageId::WantCloseBrace,
                        [("line", opened.line.into())],
                    ));
                }
                _ => {}
            }
            self.advance();
        }
        Ok(())
    }

    fn conversation(&mut self) -> Parse<()> {
        let (name, name_token) =
            self.tag(MessageArg::phrase(MessageId::WantConversationTag, []))?;
        let id = self.intern_conv(&name);
        let duplicate = !matches!(self.out.convs.get(id as usize), Some(Slot::Missing));
        if duplicate {
            self.say(
                LoadErrorKind::DuplicateTag,
                &name_token,
                MessageId::ConvTwice,
                [("tag", name.as_str().into())],
            );
        }
        let (slot, outcome) = match self.conversation_body(name_token.line) {
            Ok(draft) => (Slot::Defined(draft), Ok(())),
            Err(Abort) => (Slot::Broken, Err(Abort)),
        };
        if !duplicate && let Some(entry) = self.out.convs.get_mut(id as usize) {
            *entry = slot;
        }
        outcome
    }

    fn conversation_body(&mut self, line: u32) -> Parse<ConvDraft> {
        let opened = self.peek().clone();
        if !self.open_brace(MessageArg::phrase(MessageId::AfterConversationTag, []))? {
            return Ok(ConvDraft {
                line,
                imports: Vec::new(),
                native: Vec::new(),
            });
        }
        let mut draft = ConvDraft {
            line,
            imports: Vec::new(),
            native: Vec::new(),
        };
        loop {
            let token = self.peek().clone();
            match &token.kind {
                TokenKind::Word(word) if word == "IMPORT" => {
                    self.advance();
                    self.imports(&mut draft)?;
                }
                TokenKind::Word(word) if word == "NATIVE" => {
                    self.advance();
                    self.natives(&mut draft)?;
                }
                TokenKind::RBrace => break,
                _ => return self.expected(MessageArg::phrase(MessageId::WantConversationPart, [])),
            }
        }
        self.close_brace(&opened)?;
        Ok(draft)
    }

    fn imports(&mut self, draft: &mut ConvDraft) -> Parse<()> {
        let opened = self.peek().clone();
        if !self.open_brace("IMPORT".into())? {
            return Ok(());
        }
        while let TokenKind::Word(name) = &self.peek().kind {
            let name = name.clone();
            let token = self.advance();
            let target = self.intern_conv(&name);
            let site = self.reference(RefKind::Import, target, &token);
            draft.imports.push(site);
        }
        if self.peek().kind != TokenKind::RBrace {
            return self.expected(MessageArg::phrase(MessageId::WantImportEntry, []));
        }
        self.close_brace(&opened)
    }

    fn natives(&mut self, draft: &mut ConvDraft) -> Parse<()> {
        let opened = self.peek().clone();
        if !self.open_brace("NATIVE".into())? {
            return Ok(());
        }
        loop {
            let token = self.peek().clone();
            let text = match &token.kind {
                TokenKind::RBrace => break,
                TokenKind::Word(word) => word.clone(),
                TokenKind::Str(text) => {
                    if text.is_empty() || !text.chars().all(is_keyword_char) {
                        self.say(
                            LoadErrorKind::Syntax,
                            &token,
                            MessageId::BadKeywordString,
                            [("text", text.as_str().into())],
                        );
                    }
                    text.clone()
                }
                _ => return self.expected(MessageArg::phrase(MessageId::WantNativeEntry, [])),
            };
            self.advance();
            let (resp_name, resp_token) = self.tag(MessageArg::phrase(
                MessageId::WantKeywordResponse,
                [("keyword", text.as_str().into())],
            ))?;
            let resp = self.intern_resp(&resp_name);
            self.reference(RefKind::NativeTarget, resp, &resp_token);
            let lower = text.to_lowercase();
            draft.native.push(Keyword {
                key: keyword_key(&text),
                lower,
                text,
                resp,
                line: token.line,
                column: token.column,
            });
        }
        self.close_brace(&opened)
    }

    fn response(&mut self) -> Parse<()> {
        let (name, name_token) = self.tag(MessageArg::phrase(MessageId::WantResponseTag, []))?;
        let id = self.intern_resp(&name);
        let duplicate = !matches!(self.out.resps.get(id as usize), Some(Slot::Missing));
        if duplicate {
            self.say(
                LoadErrorKind::DuplicateTag,
                &name_token,
                MessageId::RespTwice,
                [("tag", name.as_str().into())],
            );
        }
        self.menu_depth = 0;
        self.calls.clear();
        self.broken = false;
        let result = self.block(MessageArg::phrase(MessageId::AfterResponseTag, []));
        let calls = std::mem::take(&mut self.calls);
        let (slot, outcome) = match result {
            // Its errors are reported; the whole-file checks pass it over.
            Ok(_) if self.broken => (Slot::Broken, Ok(())),
            Ok(body) => (Slot::Defined(RespDraft { body, calls }), Ok(())),
            Err(Abort) => (Slot::Broken, Err(Abort)),
        };
        if !duplicate && let Some(entry) = self.out.resps.get_mut(id as usize) {
            *entry = slot;
        }
        outcome
    }

    fn new_block(&mut self, statements: Vec<Stmt>) -> BlockId {
        let id = u32::try_from(self.out.blocks.len()).unwrap_or(u32::MAX);
        self.out.blocks.push(statements);
        id
    }

    /// `{ statement* }`.
    fn block(&mut self, after: MessageArg) -> Parse<BlockId> {
        let opened = self.peek().clone();
        if !self.open_brace(after)? {
            return Ok(self.new_block(Vec::new()));
        }
        let mut statements = Vec::new();
        loop {
            match self.peek().kind {
                TokenKind::RBrace => break,
                TokenKind::Eof => {
                    return self.expected(MessageArg::phrase(
                        MessageId::WantCloseBrace,
                        [("line", opened.line.into())],
                    ));
                }
                _ => match self.statement() {
                    Ok(Some(statement)) => statements.push(statement),
                    Ok(None) => {}
                    // At the end of the file there is nothing left to check.
                    Err(abort) if self.peek().kind == TokenKind::Eof => return Err(abort),
                    // A missing `}`: the next definition starts here; it is its own.
                    Err(abort) if self.at_definition_start() => return Err(abort),
                    // The error is recorded; the next statement is checked too, so one
                    // run reports every error of a definition.
                    Err(_) => {
                        self.broken = true;
                        self.skip_statement();
                    }
                },
            }
        }
        self.close_brace(&opened)?;
        Ok(self.new_block(statements))
    }

    /// Skips the rest of a statement that failed to parse: up to the next statement
    /// word or call, or the `}` that closes the block, stepping over nested blocks.
    fn skip_statement(&mut self) {
        let mut nesting = 0usize;
        let start = self.pos;
        loop {
            let kind = self.peek().kind.clone();
            let at_start = self.pos == start;
            match kind {
                TokenKind::Eof => return,
                _ if self.at_definition_start() => return,
                TokenKind::RBrace if nesting == 0 => return,
                TokenKind::Word(word)
                    if nesting == 0 && !at_start && STATEMENT_WORDS.contains(&word.as_str()) =>
                {
                    return;
                }
                TokenKind::Call(_) if nesting == 0 && !at_start => return,
                TokenKind::LBrace => nesting += 1,
                TokenKind::RBrace => nesting -= 1,
                _ => {}
            }
            self.advance();
        }
    }

    fn two_blocks(&mut self, after: &str) -> Parse<(BlockId, BlockId)> {
        let yes = self.block(after.into())?;
        let no = self.block(MessageArg::phrase(
            MessageId::AfterFirstBlock,
            [("statement", after.into())],
        ))?;
        Ok((yes, no))
    }

    fn statement(&mut self) -> Parse<Option<Stmt>> {
        let token = self.peek().clone();
        let word = match &token.kind {
            TokenKind::Word(word) => word.clone(),
            TokenKind::Call(tag) => {
                let tag = tag.clone();
                self.advance();
                let target = self.intern_resp(&tag);
                let site = self.reference(RefKind::Call, target, &token);
                self.calls.push(site);
                return Ok(Some(Stmt::Call(target)));
            }
            _ => return self.expected(MessageArg::phrase(MessageId::WantStatement, [])),
        };
        if !STATEMENT_WORDS.contains(&word.as_str()) {
            return self.expected(MessageArg::phrase(MessageId::WantStatement, []));
        }
        self.advance();
        let statement = match word.as_str() {
            "SAY" => match &self.peek().kind {
                TokenKind::Str(text) => {
                    let text = text.clone();
                    self.advance();
                    Stmt::Say(text)
                }
                _ => return self.expected(MessageArg::phrase(MessageId::WantSayText, [])),
            },
            "TRADE" => return self.trade(),
            "TURN_AWAY" => Stmt::TurnAway,
            "JOIN" => Stmt::Join,
            "ATTACK" => Stmt::Attack,
            "GET_AMOUNT" => Stmt::GetAmount,
            "EXIT" => Stmt::Exit,
            "BREAK" => {
                if self.menu_depth == 0 {
                    self.say(
                        LoadErrorKind::BreakOutsideMenu,
                        &token,
                        MessageId::BreakOutsideMenu,
                        [],
                    );
                }
                Stmt::Break
            }
            "SET_FLAG" => Stmt::SetFlag(self.flag("SET_FLAG")?),
            "CLEAR_FLAG" => Stmt::ClearFlag(self.flag("CLEAR_FLAG")?),
            "TAKE_GOLD" => Stmt::TakeGold(self.optional_count("TAKE_GOLD", 0)?),
            "TAKE" => {
                // `TAKE GOLD`, or gold's parameter id as Nazghul's data writes it
                // (`TAKE -2`, what its GOLD macro expands to).
                let next = self.peek().clone();
                match &next.kind {
                    TokenKind::Word(word) if word == "GOLD" => {}
                    TokenKind::Int(Some(-2)) => {}
                    TokenKind::Int(Some(id)) => self.say(
                        LoadErrorKind::BadValue,
                        &next,
                        MessageId::TakeGoldOnly,
                        [("id", (*id).into())],
                    ),
                    _ => return self.expected(MessageArg::phrase(MessageId::WantTakeGold, [])),
                }
                self.advance();
                Stmt::TakeGold(self.optional_count("TAKE GOLD", 0)?)
            }
            "CHANGE_PARM" => {
                let parm = self.parameter("CHANGE_PARM", true)?;
                let (delta, _) = self.integer(MessageArg::phrase(MessageId::WantDelta, []))?;
                Stmt::ChangeParm(parm, delta.unwrap_or(0))
            }
            "SET_PARM" => {
                let parm = self.parameter("SET_PARM", true)?;
                let (value, value_token) =
                    self.integer(MessageArg::phrase(MessageId::WantSetValue, []))?;
                if value.is_some_and(|v| v < 0) {
                    self.say(
                        LoadErrorKind::BadValue,
                        &value_token,
                        MessageId::SetParmNegative,
                        [],
                    );
                }
                Stmt::SetParm(parm, value.unwrap_or(0).max(0))
            }
            "TAKE_ITEM" => {
                let (item, _) = self.tag(MessageArg::phrase(
                    MessageId::WantItemTag,
                    [("statement", "TAKE_ITEM".into())],
                ))?;
                Stmt::TakeItem(item, self.optional_count("TAKE_ITEM", 1)?.unwrap_or(1))
            }
            "APPLY_EFFECT" => {
                let (effect, effect_token) =
                    self.tag(MessageArg::phrase(MessageId::WantEffectTag, []))?;
                self.out.effect_refs.push(EffectRef {
                    tag: effect.clone(),
                    line: effect_token.line,
                    column: effect_token.column,
                });
                Stmt::ApplyEffect(effect)
            }
            "GIVE_ITEM" => {
                let (item, _) = self.tag(MessageArg::phrase(
                    MessageId::WantItemTag,
                    [("statement", "GIVE_ITEM".into())],
                ))?;
                Stmt::GiveItem(item, self.optional_count("GIVE_ITEM", 1)?.unwrap_or(1))
            }
            "GET_YES_NO" => {
                let (yes, no) = self.two_blocks("GET_YES_NO")?;
                Stmt::GetYesNo(yes, no)
            }
            "CHECK_PARM" => {
                let parm = self.parameter("CHECK_PARM", false)?;
                let op = self.operator("CHECK_PARM")?;
                let (value, _) = self.integer(MessageArg::phrase(
                    MessageId::WantComparedInteger,
                    [("statement", "CHECK_PARM".into())],
                ))?;
                let (yes, no) = self.two_blocks("CHECK_PARM")?;
                Stmt::CheckParm(parm, op, value.unwrap_or(0), yes, no)
            }
            "CHECK_FLAG" => {
                let flag = self.flag("CHECK_FLAG")?;
                let (yes, no) = self.two_blocks("CHECK_FLAG")?;
                Stmt::CheckFlag(flag, yes, no)
            }
            "CHECK_ITEM" => {
                let (item, _) = self.tag(MessageArg::phrase(
                    MessageId::WantItemTag,
                    [("statement", "CHECK_ITEM".into())],
                ))?;
                let (op, value) = if matches!(self.peek().kind, TokenKind::Op(_)) {
                    let op = self.operator("CHECK_ITEM")?;
                    let (value, _) = self.integer(MessageArg::phrase(
                        MessageId::WantComparedInteger,
                        [("statement", "CHECK_ITEM".into())],
                    ))?;
                    (op, value.unwrap_or(0))
                } else {
                    (CmpOp::Ge, 1)
                };
                let (yes, no) = self.two_blocks("CHECK_ITEM")?;
                Stmt::CheckItem(item, op, value, yes, no)
            }
            "CHECK_MEMBER" => {
                let (npc, _) = self.tag(MessageArg::phrase(MessageId::WantNpcTag, []))?;
                let (yes, no) = self.two_blocks("CHECK_MEMBER")?;
                Stmt::CheckMember(npc, yes, no)
            }
            "MENU" => return self.menu(&token),
            _ => return self.expected(MessageArg::phrase(MessageId::WantStatement, [])),
        };
        Ok(Some(statement))
    }

    fn integer(&mut self, expected: MessageArg) -> Parse<(Option<i32>, Token)> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Int(value) => {
                self.advance();
                Ok((value, token))
            }
            _ => self.expected(expected),
        }
    }

    /// An optional count after TAKE_GOLD / TAKE_ITEM / GIVE_ITEM, at least `minimum`.
    fn optional_count(&mut self, statement: &str, minimum: i32) -> Parse<Option<i32>> {
        let token = self.peek().clone();
        let TokenKind::Int(value) = token.kind else {
            return Ok(None);
        };
        self.advance();
        let Some(value) = value else { return Ok(None) };
        if value < minimum {
            self.say(
                LoadErrorKind::BadValue,
                &token,
                MessageId::CountTooSmall,
                [
                    ("statement", statement.into()),
                    ("minimum", minimum.into()),
                    ("value", value.into()),
                ],
            );
            return Ok(Some(minimum));
        }
        Ok(Some(value))
    }

    fn flag(&mut self, statement: &str) -> Parse<u8> {
        let (value, token) = self.integer(MessageArg::phrase(
            MessageId::WantFlag,
            [("statement", statement.into())],
        ))?;
        let Some(value) = value else { return Ok(0) };
        match u8::try_from(value) {
            Ok(flag) => Ok(flag),
            Err(_) => {
                self.say(
                    LoadErrorKind::FlagRange,
                    &token,
                    MessageId::FlagRange,
                    [("flag", value.into())],
                );
                Ok(0)
            }
        }
    }

    fn operator(&mut self, statement: &str) -> Parse<CmpOp> {
        match self.peek().kind {
            TokenKind::Op(op) => {
                self.advance();
                Ok(op)
            }
            _ => self.expected(MessageArg::phrase(
                MessageId::WantOperator,
                [("statement", statement.into())],
            )),
        }
    }

    /// A parameter id (G3); `writing` refuses ACTIVITY.
    fn parameter(&mut self, statement: &str, writing: bool) -> Parse<Parm> {
        let token = self.peek().clone();
        let parm = match &token.kind {
            TokenKind::Int(None) => Parm::Script(0),
            TokenKind::Int(Some(id)) => match *id {
                -1 => Parm::Amount,
                -2 => Parm::Gold,
                -3 => Parm::Food,
                -4 => Parm::Activity,
                id if id >= 0 => Parm::Script(id),
                id => {
                    self.say(
                        LoadErrorKind::BadValue,
                        &token,
                        MessageId::ReservedParameter,
                        [("id", id.into())],
                    );
                    Parm::Script(0)
                }
            },
            TokenKind::Word(word) if word == "AMOUNT" => Parm::Amount,
            TokenKind::Word(word) if word == "GOLD" => Parm::Gold,
            TokenKind::Word(word) if word == "FOOD" => Parm::Food,
            TokenKind::Word(word) if word == "ACTIVITY" => Parm::Activity,
            _ => {
                return self.expected(MessageArg::phrase(
                    MessageId::WantParameter,
                    [("statement", statement.into())],
                ));
            }
        };
        self.advance();
        if writing && parm == Parm::Activity {
            self.say(
                LoadErrorKind::BadValue,
                &token,
                MessageId::ActivityReadOnly,
                [("statement", statement.into())],
            );
        }
        Ok(parm)
    }

    fn trade(&mut self) -> Parse<Option<Stmt>> {
        let opened = self.peek().clone();
        if !self.open_brace("TRADE".into())? {
            return Ok(None);
        }
        let mut wares: Vec<Ware> = Vec::new();
        loop {
            let token = self.peek().clone();
            let tag = match &token.kind {
                TokenKind::RBrace => break,
                TokenKind::Word(tag) => tag.clone(),
                _ => return self.expected(MessageArg::phrase(MessageId::WantTradeEntry, [])),
            };
            self.advance();
            let (price, price_token) = self.integer(MessageArg::phrase(
                MessageId::WantPrice,
                [("item", tag.as_str().into())],
            ))?;
            if price.is_some_and(|p| p < 0) {
                self.say(
                    LoadErrorKind::BadValue,
                    &price_token,
                    MessageId::NegativePrice,
                    [("item", tag.as_str().into())],
                );
            }
            if wares.iter().any(|ware| ware.tag == tag) {
                self.say(
                    LoadErrorKind::BadValue,
                    &token,
                    MessageId::WareTwice,
                    [("item", tag.as_str().into())],
                );
            }
            wares.push(Ware {
                name: crate::item_display_name(&tag),
                tag,
                price: price.unwrap_or(0).max(0),
            });
        }
        self.close_brace(&opened)?;
        let id = u32::try_from(self.out.trades.len()).unwrap_or(u32::MAX);
        self.out.trades.push(wares);
        Ok(Some(Stmt::Trade(id)))
    }

    fn menu(&mut self, menu_token: &Token) -> Parse<Option<Stmt>> {
        let opened = self.peek().clone();
        if !self.open_brace("MENU".into())? {
            return Ok(None);
        }
        let mut choices: Vec<Choice> = Vec::new();
        let mut seen_labels: Vec<String> = Vec::new();
        loop {
            let token = self.peek().clone();
            let label = match &token.kind {
                TokenKind::RBrace => break,
                TokenKind::Str(label) => label.clone(),
                _ => return self.expected(MessageArg::phrase(MessageId::WantMenuEntry, [])),
            };
            self.advance();
            self.check_label(&label, &token, &mut seen_labels);
            let cost = match self.peek().kind {
                TokenKind::Int(value) => {
                    let cost_token = self.advance();
                    if value.is_some_and(|c| c < 0) {
                        self.say(
                            LoadErrorKind::BadValue,
                            &cost_token,
                            MessageId::NegativeCost,
                            [("label", label.as_str().into())],
                        );
                    }
                    Some(value.unwrap_or(0).max(0))
                }
                _ => None,
            };
            self.menu_depth += 1;
            let body = self.block(MessageArg::phrase(
                MessageId::AfterChoice,
                [("label", label.as_str().into())],
            ));
            self.menu_depth = self.menu_depth.saturating_sub(1);
            choices.push(Choice {
                label,
                cost,
                body: body?,
            });
        }
        self.close_brace(&opened)?;
        if choices.is_empty() {
            self.say(LoadErrorKind::BadMenu, menu_token, MessageId::MenuEmpty, []);
        }
        if choices.len() > self.limits.max_menu_choices {
            let max = self.limits.max_menu_choices.into();
            self.say(
                LoadErrorKind::BadMenu,
                menu_token,
                MessageId::MenuTooManyChoices,
                [("count", choices.len().into()), ("max", max)],
            );
        }
        let id = u32::try_from(self.out.menus.len()).unwrap_or(u32::MAX);
        self.out.menus.push(Menu {
            line: menu_token.line,
            column: menu_token.column,
            choices,
        });
        Ok(Some(Stmt::Menu(id)))
    }

    fn check_label(&mut self, label: &str, token: &Token, seen: &mut Vec<String>) {
        let length = label.chars().count();
        if label.trim().is_empty() {
            self.say(LoadErrorKind::BadMenu, token, MessageId::MenuLabelEmpty, []);
        }
        if length > self.limits.max_label_chars {
            let max = self.limits.max_label_chars.into();
            self.say(
                LoadErrorKind::BadMenu,
                token,
                MessageId::MenuLabelTooLong,
                [("length", length.into()), ("max", max)],
            );
        }
        let folded = fold_label(label);
        if seen.contains(&folded) {
            self.say(
                LoadErrorKind::BadMenu,
                token,
                MessageId::MenuLabelTwice,
                [("label", label.into())],
            );
        } else {
            seen.push(folded);
        }
    }
}

/// A character allowed in a keyword (X2, K1): a Unicode letter or digit, or `_`.
pub(crate) fn is_keyword_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// How labels are compared (M2): trimmed, Unicode lower case.
pub(crate) fn fold_label(label: &str) -> String {
    label.trim().to_lowercase()
}

/// "(words are case-sensitive: write `SAY`)" when a word is a known word in the wrong case.
fn upper_case_hint(word: &str) -> Option<String> {
    let upper = word.to_ascii_uppercase();
    if upper == word {
        return None;
    }
    let known = STATEMENT_WORDS
        .iter()
        .chain(PARAMETER_WORDS)
        .chain(&["CONV", "RESP", "IMPORT", "NATIVE"])
        .any(|known| *known == upper);
    known.then_some(upper)
}
