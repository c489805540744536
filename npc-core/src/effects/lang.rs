//! The effect-file language: `ELEMENTS { ... }` and `EFFECT Tag { field value; ... }`.
//!
//! A hand-written scanner over characters (the conversation lexer's tokens do
//! not fit dice expressions): a field's value is the raw text up to `;`, the end
//! of the line, a comment or an unmatched `}`, and is interpreted only once the
//! whole declaration is read, because fields come in any order and the value's
//! form depends on the subject. Errors never stop the scan: every one is
//! recorded with its line and the scan goes on at the next field or declaration.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use super::model::{
    BoolOp, ElementSet, IntOperator, Mode, Number, SetOperator, Subject, SubjectKind, TargetType,
    ValueSpec,
};
use super::{Effect, EffectLibrary, EffectLimits, EffectSave};
use crate::error::{LoadError, LoadErrorKind, LoadMessage, MessageArg, MessageId};

/// The seed's target types that need a map, refused with the supported list.
const MAP_TARGET_TYPES: &[&str] = &[
    "Mech", "Object", "Party", "Place", "Terrain", "Tile", "Vehicle",
];
const SUPPORTED_TARGET_TYPES: &str = "Character, Effect";
const FIELDS: &[&str] = &[
    "target_type",
    "subject",
    "value",
    "method",
    "duration",
    "cumulative",
    "multi",
    "probability",
    "hook",
    "target_method",
    "mode",
    "source",
    "save",
];

/// A field as written: its raw value text and where it starts.
#[derive(Debug, Clone)]
struct RawField {
    text: String,
    line: u32,
    column: u32,
}

struct RawEffect {
    tag: String,
    line: u32,
    column: u32,
    fields: HashMap<&'static str, RawField>,
    /// Byte range of the declaration, for `EffectLibrary::declaration`.
    start: usize,
    end: usize,
}

struct Scanner<'s> {
    source: &'s str,
    pos: usize,
    line: u32,
    column: u32,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<char> {
        self.source.get(self.pos..)?.chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        let mut chars = self.source.get(self.pos..)?.chars();
        chars.next();
        chars.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    fn at_comment(&self) -> bool {
        self.peek() == Some('/') && matches!(self.peek_second(), Some('/' | '*'))
    }

    /// Skips a comment at the cursor; an unterminated block comment is an error.
    fn skip_comment(&mut self, errors: &mut Vec<LoadError>) {
        let (line, column) = (self.line, self.column);
        self.bump();
        if self.bump() == Some('/') {
            while self.peek().is_some_and(|c| c != '\n') {
                self.bump();
            }
            return;
        }
        while let Some(c) = self.bump() {
            if c == '*' && self.peek() == Some('/') {
                self.bump();
                return;
            }
        }
        errors.push(LoadError::said(
            LoadErrorKind::Syntax,
            line,
            column,
            MessageId::UnterminatedComment,
            [],
        ));
    }

    /// Skips whitespace, `;` and comments.
    fn skip_blank(&mut self, errors: &mut Vec<LoadError>) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() || c == ';' || c == ',' => {
                    self.bump();
                }
                Some('/') if self.at_comment() => self.skip_comment(errors),
                _ => return,
            }
        }
    }

    fn word(&mut self) -> Option<String> {
        if !self
            .peek()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            return None;
        }
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        Some(self.source.get(start..self.pos).unwrap_or("").to_string())
    }

    fn skip_line(&mut self) {
        while self.peek().is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// A field's value: up to `;`, the end of the line, a comment or an unmatched `}`.
    fn value_text(&mut self) -> String {
        let start = self.pos;
        let mut depth: u32 = 0;
        while let Some(c) = self.peek() {
            match c {
                ';' | '\n' => break,
                '/' if self.at_comment() => break,
                '}' if depth == 0 => break,
                '(' | '{' | '[' => depth = depth.saturating_add(1),
                ')' | '}' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
        self.source
            .get(start..self.pos)
            .unwrap_or("")
            .trim()
            .to_string()
    }
}

struct Loader<'l> {
    limits: &'l EffectLimits,
    errors: Vec<LoadError>,
}

impl Loader<'_> {
    /// Records message `id` with `args`.
    fn say(
        &mut self,
        kind: LoadErrorKind,
        (line, column): (u32, u32),
        id: MessageId,
        args: impl IntoIterator<Item = (&'static str, MessageArg)>,
    ) {
        if self.errors.len() <= self.limits.max_errors {
            self.errors
                .push(LoadError::said(kind, line, column, id, args));
        }
    }

    fn full(&self) -> bool {
        self.errors.len() > self.limits.max_errors
    }
}

/// Parses and checks an effect file: the library, or every load error; `None` when
/// the host raised `cancel` (checked before each declaration is read and interpreted).
pub(crate) fn load(
    source: &str,
    limits: &EffectLimits,
    cancel: Option<&AtomicBool>,
) -> Option<Result<EffectLibrary, Vec<LoadError>>> {
    let mut loader = Loader {
        limits,
        errors: Vec::new(),
    };
    let mut scanner = Scanner {
        source,
        pos: 0,
        line: 1,
        column: 1,
    };
    // Element name -> (index, line).
    let mut elements: Vec<String> = Vec::new();
    let mut element_lines: HashMap<String, u32> = HashMap::new();
    let mut elements_line: Option<u32> = None;
    let mut raw_effects: Vec<RawEffect> = Vec::new();
    let mut effect_lines: HashMap<String, u32> = HashMap::new();
    let mut too_many_effects = false;

    loop {
        if crate::is_cancelled(cancel) {
            return None;
        }
        scanner.skip_blank(&mut loader.errors);
        if scanner.peek().is_none() || loader.full() {
            break;
        }
        let (line, column, start) = (scanner.line, scanner.column, scanner.pos);
        let Some(word) = scanner.word() else {
            let found = scanner.peek().unwrap_or(' ');
            loader.say(
                LoadErrorKind::Syntax,
                (line, column),
                MessageId::EffectExpectedDeclaration,
                [("found", found.into())],
            );
            scanner.skip_line();
            continue;
        };
        match word.as_str() {
            "ELEMENTS" => {
                if let Some(first) = elements_line {
                    loader.say(
                        LoadErrorKind::DuplicateTag,
                        (line, column),
                        MessageId::ElementsTwice,
                        [("line", first.into())],
                    );
                }
                elements_line.get_or_insert(line);
                read_elements(
                    &mut scanner,
                    &mut loader,
                    &mut elements,
                    &mut element_lines,
                    &effect_lines,
                );
            }
            "EFFECT" => {
                let Some(effect) = read_effect(&mut scanner, &mut loader, line, column, start)
                else {
                    continue;
                };
                if raw_effects.len() >= limits.max_effects {
                    if !too_many_effects {
                        too_many_effects = true;
                        loader.say(
                            LoadErrorKind::TooLarge,
                            (line, column),
                            MessageId::TooManyEffects,
                            [("max", limits.max_effects.into())],
                        );
                    }
                    continue;
                }
                if let Some(first) = effect_lines.get(&effect.tag) {
                    loader.say(
                        LoadErrorKind::DuplicateTag,
                        (effect.line, effect.column),
                        MessageId::EffectTwice,
                        [
                            ("tag", effect.tag.as_str().into()),
                            ("line", (*first).into()),
                        ],
                    );
                    continue;
                }
                if let Some(first) = element_lines.get(&effect.tag) {
                    loader.say(
                        LoadErrorKind::DuplicateTag,
                        (effect.line, effect.column),
                        MessageId::EffectIsElement,
                        [
                            ("tag", effect.tag.as_str().into()),
                            ("line", (*first).into()),
                        ],
                    );
                    continue;
                }
                effect_lines.insert(effect.tag.clone(), effect.line);
                raw_effects.push(effect);
            }
            other => {
                let upper = other.to_ascii_uppercase();
                if upper == "ELEMENTS" || upper == "EFFECT" {
                    loader.say(
                        LoadErrorKind::Syntax,
                        (line, column),
                        MessageId::EffectExpectedDeclarationUpperCase,
                        [("found", other.into()), ("upper", upper.into())],
                    );
                } else {
                    loader.say(
                        LoadErrorKind::Syntax,
                        (line, column),
                        MessageId::EffectExpectedDeclaration,
                        [("found", other.into())],
                    );
                }
                scanner.skip_line();
            }
        }
    }

    let element_index: HashMap<String, usize> = elements
        .iter()
        .enumerate()
        .map(|(index, name)| (name.clone(), index))
        .collect();
    let mut universe = ElementSet::default();
    for index in 0..elements.len() {
        universe.insert(index);
    }
    let context = Context {
        elements: &element_index,
        universe,
        limits,
    };
    let mut effects = Vec::new();
    for raw in &raw_effects {
        if crate::is_cancelled(cancel) {
            return None;
        }
        if loader.full() {
            break;
        }
        if let Some(effect) = interpret(raw, &context, &mut loader, source) {
            effects.push(effect);
        }
    }
    if !loader.errors.is_empty() {
        return Some(Err(loader.errors));
    }
    let by_tag = effects
        .iter()
        .enumerate()
        .map(|(index, effect): (usize, &Effect)| (effect.tag.clone(), index))
        .collect();
    Some(Ok(EffectLibrary {
        hash: crate::script::stable_hash(source),
        elements,
        element_index,
        effects,
        by_tag,
        limits: limits.clone(),
    }))
}

fn read_elements(
    scanner: &mut Scanner<'_>,
    loader: &mut Loader<'_>,
    elements: &mut Vec<String>,
    element_lines: &mut HashMap<String, u32>,
    effect_lines: &HashMap<String, u32>,
) {
    scanner.skip_blank(&mut loader.errors);
    if scanner.peek() != Some('{') {
        let (line, column) = (scanner.line, scanner.column);
        loader.say(
            LoadErrorKind::Syntax,
            (line, column),
            MessageId::ElementsWithoutBrace,
            [],
        );
        scanner.skip_line();
        return;
    }
    let opened = scanner.line;
    scanner.bump();
    let mut too_many = false;
    loop {
        scanner.skip_blank(&mut loader.errors);
        let (line, column) = (scanner.line, scanner.column);
        match scanner.peek() {
            None => {
                loader.say(
                    LoadErrorKind::Syntax,
                    (line, column),
                    MessageId::ElementsUnclosed,
                    [("line", opened.into())],
                );
                return;
            }
            Some('}') => {
                scanner.bump();
                return;
            }
            _ => {}
        }
        let Some(name) = scanner.word() else {
            let found = scanner.bump().unwrap_or(' ');
            loader.say(
                LoadErrorKind::Syntax,
                (line, column),
                MessageId::WantElement,
                [("found", found.into())],
            );
            continue;
        };
        if name.len() > loader.limits.max_name_len {
            let max = loader.limits.max_name_len.into();
            loader.say(
                LoadErrorKind::TooLarge,
                (line, column),
                MessageId::ElementNameTooLong,
                [("name", name.as_str().into()), ("max", max)],
            );
            continue;
        }
        if let Some(first) = element_lines.get(&name).or_else(|| effect_lines.get(&name)) {
            loader.say(
                LoadErrorKind::DuplicateTag,
                (line, column),
                MessageId::ElementTwice,
                [("name", name.as_str().into()), ("line", (*first).into())],
            );
            continue;
        }
        if elements.len() >= loader.limits.max_elements {
            if !too_many {
                too_many = true;
                let max = loader.limits.max_elements.into();
                loader.say(
                    LoadErrorKind::TooLarge,
                    (line, column),
                    MessageId::TooManyElements,
                    [("max", max)],
                );
            }
            continue;
        }
        element_lines.insert(name.clone(), line);
        elements.push(name);
    }
}

fn read_effect(
    scanner: &mut Scanner<'_>,
    loader: &mut Loader<'_>,
    line: u32,
    column: u32,
    start: usize,
) -> Option<RawEffect> {
    scanner.skip_blank(&mut loader.errors);
    let (tag_line, tag_column) = (scanner.line, scanner.column);
    let Some(tag) = scanner.word() else {
        loader.say(
            LoadErrorKind::Syntax,
            (tag_line, tag_column),
            MessageId::EffectWithoutTag,
            [],
        );
        scanner.skip_line();
        return None;
    };
    if tag.len() > loader.limits.max_name_len {
        let max = loader.limits.max_name_len.into();
        loader.say(
            LoadErrorKind::TooLarge,
            (tag_line, tag_column),
            MessageId::EffectTagTooLong,
            [("tag", tag.as_str().into()), ("max", max)],
        );
    }
    scanner.skip_blank(&mut loader.errors);
    if scanner.peek() != Some('{') {
        loader.say(
            LoadErrorKind::Syntax,
            (scanner.line, scanner.column),
            MessageId::EffectWithoutBrace,
            [("tag", tag.as_str().into())],
        );
        scanner.skip_line();
        return None;
    }
    scanner.bump();
    let mut fields: HashMap<&'static str, RawField> = HashMap::new();
    let mut closed = false;
    loop {
        scanner.skip_blank(&mut loader.errors);
        let (field_line, field_column) = (scanner.line, scanner.column);
        match scanner.peek() {
            None => break,
            Some('}') => {
                scanner.bump();
                closed = true;
                break;
            }
            _ => {}
        }
        let Some(name) = scanner.word() else {
            let found = scanner.peek().unwrap_or(' ');
            loader.say(
                LoadErrorKind::Syntax,
                (field_line, field_column),
                MessageId::WantField,
                [("tag", tag.as_str().into()), ("found", found.into())],
            );
            scanner.bump();
            scanner.value_text();
            continue;
        };
        // A keyword starting the next declaration means this one lost its `}`.
        if name == "EFFECT" || name == "ELEMENTS" {
            loader.say(
                LoadErrorKind::Syntax,
                (field_line, field_column),
                MessageId::EffectUnclosedBefore,
                [
                    ("tag", tag.as_str().into()),
                    ("line", line.into()),
                    ("found", name.as_str().into()),
                ],
            );
            // Rewind so the next declaration is read as such.
            scanner.pos -= name.len();
            scanner.column = field_column;
            return None;
        }
        let value_line = scanner.line;
        let value_column = scanner.column;
        let text = scanner.value_text();
        let Some(&field) = FIELDS.iter().find(|known| **known == name) else {
            loader.say(
                LoadErrorKind::Syntax,
                (field_line, field_column),
                MessageId::UnknownField,
                [
                    ("name", name.as_str().into()),
                    ("tag", tag.as_str().into()),
                    ("fields", FIELDS.join(", ").into()),
                ],
            );
            continue;
        };
        if let Some(first) = fields.get(field) {
            loader.say(
                LoadErrorKind::DuplicateField,
                (field_line, field_column),
                MessageId::FieldTwice,
                [
                    ("field", field.into()),
                    ("tag", tag.as_str().into()),
                    ("line", first.line.into()),
                ],
            );
            continue;
        }
        if text.is_empty() {
            loader.say(
                LoadErrorKind::Syntax,
                (field_line, field_column),
                MessageId::FieldWithoutValue,
                [("field", field.into())],
            );
            continue;
        }
        fields.insert(
            field,
            RawField {
                text,
                line: value_line,
                column: value_column,
            },
        );
    }
    if !closed {
        loader.say(
            LoadErrorKind::Syntax,
            (scanner.line, scanner.column),
            MessageId::EffectUnclosed,
            [("tag", tag.as_str().into()), ("line", line.into())],
        );
        return None;
    }
    Some(RawEffect {
        tag,
        line,
        column,
        fields,
        start,
        end: scanner.pos,
    })
}

/// Records message `id` with `args` at a field's value.
fn field_says<const N: usize>(
    loader: &mut Loader<'_>,
    field: &RawField,
    kind: LoadErrorKind,
    id: MessageId,
    args: [(&'static str, MessageArg); N],
) {
    loader.say(kind, (field.line, field.column), id, args);
}

/// Why a field's value (a method, a value, a duration) is refused.
struct Refusal(LoadMessage);

impl Refusal {
    fn said<const N: usize>(id: MessageId, args: [(&'static str, MessageArg); N]) -> Refusal {
        Refusal(LoadMessage::new(id, args))
    }
}

struct Context<'c> {
    elements: &'c HashMap<String, usize>,
    universe: ElementSet,
    limits: &'c EffectLimits,
}

/// Checks one declaration's fields together; `None` when any is wrong (all reported).
fn interpret(
    raw: &RawEffect,
    context: &Context<'_>,
    loader: &mut Loader<'_>,
    source: &str,
) -> Option<Effect> {
    let errors_before = loader.errors.len();
    let tag = &raw.tag;
    for required in ["target_type", "subject", "value"] {
        if !raw.fields.contains_key(required) {
            loader.say(
                LoadErrorKind::MissingField,
                (raw.line, raw.column),
                MessageId::MissingField,
                [("tag", tag.as_str().into()), ("field", required.into())],
            );
        }
    }
    let field_error = |loader: &mut Loader<'_>, field: &RawField, kind, refusal: Refusal| {
        if loader.errors.len() > loader.limits.max_errors {
            return;
        }
        let Refusal(detail) = refusal;
        loader.errors.push(LoadError::from_message(
            kind,
            field.line,
            field.column,
            detail,
        ));
    };

    let target = raw
        .fields
        .get("target_type")
        .and_then(|field| match field.text.as_str() {
            "Character" => Some(TargetType::Character),
            "Effect" => Some(TargetType::Effect),
            other => {
                let id = if MAP_TARGET_TYPES.contains(&other) {
                    MessageId::MapTargetType
                } else {
                    MessageId::UnknownTargetType
                };
                field_says(
                    loader,
                    field,
                    LoadErrorKind::Unsupported,
                    id,
                    [
                        ("target", other.into()),
                        ("supported", SUPPORTED_TARGET_TYPES.into()),
                    ],
                );
                None
            }
        });

    let subject = raw.fields.get("subject").and_then(|field| {
        let Some(subject) = Subject::from_name(&field.text) else {
            let known: Vec<&str> = Subject::ALL.iter().map(|s| s.name()).collect();
            field_says(
                loader,
                field,
                LoadErrorKind::UnknownTag,
                MessageId::UnknownSubject,
                [
                    ("subject", field.text.as_str().into()),
                    ("subjects", known.join(", ").into()),
                ],
            );
            return None;
        };
        if target == Some(TargetType::Effect) && subject != Subject::Existence {
            field_says(
                loader,
                field,
                LoadErrorKind::BadValue,
                MessageId::EffectTargetSubject,
                [("subject", field.text.as_str().into())],
            );
            return None;
        }
        Some(subject)
    });

    let method = match raw.fields.get("method") {
        Some(field) => match parse_set(&field.text, context, context.limits.max_set_depth) {
            Ok(set) => Some(set),
            Err(message) => {
                field_error(loader, field, LoadErrorKind::BadValue, message);
                None
            }
        },
        None => Some(ElementSet::default()),
    };

    let value = match (raw.fields.get("value"), subject, target) {
        (Some(field), Some(subject), Some(target)) => {
            match parse_value(&field.text, subject, target, context) {
                Ok(value) => Some(value),
                Err(message) => {
                    field_error(loader, field, LoadErrorKind::BadValue, message);
                    None
                }
            }
        }
        _ => None,
    };

    let duration = match raw.fields.get("duration") {
        Some(field) => match parse_number(&field.text, context) {
            Ok(number) => Some(number),
            Err(refusal) => {
                let Refusal(reason) = refusal;
                let refusal = Refusal::said(
                    MessageId::Duration,
                    [("reason", MessageArg::Phrase(Box::new(reason)))],
                );
                field_error(loader, field, LoadErrorKind::BadValue, refusal);
                None
            }
        },
        None => Some(Number::Fixed(0)),
    };

    let mut yes_no = |name: &str| -> Option<bool> {
        let Some(field) = raw.fields.get(name) else {
            return Some(true);
        };
        match field.text.as_str() {
            "yes" | "true" => Some(true),
            "no" | "false" => Some(false),
            other => {
                field_says(
                    loader,
                    field,
                    LoadErrorKind::BadValue,
                    MessageId::YesOrNo,
                    [("field", name.into()), ("value", other.into())],
                );
                None
            }
        }
    };
    let cumulative = yes_no("cumulative");
    let multi = yes_no("multi");

    let probability = match raw.fields.get("probability") {
        Some(field) => match field.text.parse::<f64>() {
            Ok(p) if p.is_finite() && (0.0..=1.0).contains(&p) => Some(p),
            _ => {
                field_says(
                    loader,
                    field,
                    LoadErrorKind::BadValue,
                    MessageId::BadProbability,
                    [("value", field.text.as_str().into())],
                );
                None
            }
        },
        None => Some(1.0),
    };

    let hook = match raw.fields.get("hook") {
        Some(field) if field.text == "HpReduced" => Some(true),
        Some(field) => {
            field_says(
                loader,
                field,
                LoadErrorKind::UnknownTag,
                MessageId::UnknownHook,
                [("hook", field.text.as_str().into())],
            );
            None
        }
        None => Some(false),
    };
    if let Some(field) = raw.fields.get("target_method")
        && field.text != "Effected"
    {
        field_says(
            loader,
            field,
            LoadErrorKind::UnknownTag,
            MessageId::UnknownTargetMethod,
            [("method", field.text.as_str().into())],
        );
    }
    if let Some(field) = raw.fields.get("source")
        && field.text.split_whitespace().collect::<String>() != "()"
    {
        field_says(
            loader,
            field,
            LoadErrorKind::BadValue,
            MessageId::BadSource,
            [("value", field.text.as_str().into())],
        );
    }

    let mode = match (raw.fields.get("mode"), subject) {
        (Some(field), Some(subject)) => match field.text.as_str() {
            "recurring" => Some(Mode::Recurring),
            "while_active" if subject.kind() == SubjectKind::Existence => {
                field_says(
                    loader,
                    field,
                    LoadErrorKind::BadValue,
                    MessageId::ExistenceWhileActive,
                    [],
                );
                None
            }
            "while_active" => Some(Mode::WhileActive),
            other => {
                field_says(
                    loader,
                    field,
                    LoadErrorKind::BadValue,
                    MessageId::BadMode,
                    [("value", other.into())],
                );
                None
            }
        },
        (None, Some(subject)) => Some(match subject.kind() {
            SubjectKind::Int | SubjectKind::Existence => Mode::Recurring,
            _ => Mode::WhileActive,
        }),
        _ => None,
    };

    if subject == Some(Subject::Protections)
        && method.is_some_and(|set| set == ElementSet::default())
        && let Some(field) = raw.fields.get("subject")
    {
        field_says(
            loader,
            field,
            LoadErrorKind::BadValue,
            MessageId::ProtectionsWithoutMethod,
            [],
        );
    }

    let save = match raw.fields.get("save") {
        Some(field) => match parse_save(&field.text) {
            Some(save) => Some(save),
            None => {
                field_says(
                    loader,
                    field,
                    LoadErrorKind::BadValue,
                    MessageId::BadSave,
                    [("value", field.text.as_str().into())],
                );
                None
            }
        },
        None => None,
    };

    if loader.errors.len() != errors_before {
        return None;
    }
    // Damage a save halves: an instant lowering of hit points, as written.
    let save = save.map(|mut save| {
        let instant = matches!(duration, Some(Number::Fixed(0)));
        let lowers_hp = subject == Some(Subject::HitPoints)
            && matches!(value, Some(ValueSpec::Int(IntOperator::Subtract, _)));
        if let (true, true, Some(field)) = (instant, lowers_hp, raw.fields.get("value")) {
            save.damage = Some(field.text.trim().trim_start_matches('-').trim().to_owned());
        }
        save
    });
    let (
        Some(target),
        Some(subject),
        Some(value),
        Some(method),
        Some(duration),
        Some(cumulative),
        Some(multi),
        Some(probability),
        Some(hook),
        Some(mode),
    ) = (
        target,
        subject,
        value,
        method,
        duration,
        cumulative,
        multi,
        probability,
        hook,
        mode,
    )
    else {
        return None;
    };
    let declaration = source.get(raw.start..raw.end).unwrap_or("").to_string();
    Some(Effect {
        tag: tag.clone(),
        target,
        subject,
        value,
        method,
        duration,
        cumulative,
        multi,
        probability,
        hook,
        mode,
        declaration,
        save,
    })
}

/// `save DEX 15`, `save DEX 15 half`, `save WIS 12 none`: the ability (its three
/// letters, any case), the DC (1 to 100) and what a success takes (half the damage,
/// the default, or nothing). `None` when it is not that.
fn parse_save(text: &str) -> Option<EffectSave> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (ability, dc, success) = match words.as_slice() {
        [ability, dc] => (ability, dc, "half"),
        [ability, dc, success] => (ability, dc, *success),
        _ => return None,
    };
    let ability = ability.to_uppercase();
    if !SAVE_ABILITIES.contains(&ability.as_str()) {
        return None;
    }
    let dc = dc.parse::<i64>().ok().filter(|dc| (1..=100).contains(dc))?;
    let half = match success {
        "half" => true,
        "none" => false,
        _ => return None,
    };
    Some(EffectSave {
        ability,
        dc,
        half,
        damage: None,
    })
}

/// The abilities a `save` names.
const SAVE_ABILITIES: [&str; 6] = ["STR", "DEX", "CON", "INT", "WIS", "CHA"];

fn parse_value(
    text: &str,
    subject: Subject,
    target: TargetType,
    context: &Context<'_>,
) -> Result<ValueSpec, Refusal> {
    let wrong = |forms: MessageId| {
        Refusal::said(
            MessageId::ValueMisfit,
            [
                ("value", text.into()),
                ("subject", subject.name().into()),
                ("kind", subject.kind().name().into()),
                ("forms", MessageArg::phrase(forms, [])),
            ],
        )
    };
    let first = text.chars().next().unwrap_or(' ');
    let rest = text.get(first.len_utf8()..).unwrap_or("").trim();
    match subject.kind() {
        SubjectKind::Int | SubjectKind::Protections => {
            let forms = MessageId::FormsInteger;
            let (operator, number_text) = match first {
                '+' => (IntOperator::Add, rest),
                '-' => (IntOperator::Subtract, rest),
                '=' => (IntOperator::Assign, rest),
                '*' => (IntOperator::Multiply, rest),
                '/' => (IntOperator::Divide, rest),
                c if c.is_ascii_digit() || c == '(' || c == 'd' || c == 'D' => {
                    (IntOperator::Assign, text)
                }
                _ => return Err(wrong(forms)),
            };
            if number_text.is_empty() {
                return Err(wrong(forms));
            }
            let number = parse_number(number_text, context).map_err(|message| {
                if number_text.starts_with(|c: char| c.is_ascii_alphabetic())
                    && !number_text.starts_with(['d', 'D'])
                {
                    wrong(forms)
                } else {
                    message
                }
            })?;
            if operator == IntOperator::Divide && matches!(number, Number::Fixed(0)) {
                return Err(Refusal::said(MessageId::DivisionByZero, []));
            }
            Ok(ValueSpec::Int(operator, number))
        }
        SubjectKind::Set => {
            let forms = MessageId::FormsSet;
            if text == "~" {
                return Ok(ValueSpec::Complement);
            }
            let operator = match first {
                '+' => SetOperator::Union,
                '-' => SetOperator::Difference,
                '&' => SetOperator::Intersect,
                '=' => SetOperator::Assign,
                _ => return Err(wrong(forms)),
            };
            if rest.is_empty() {
                return Err(wrong(forms));
            }
            let set = parse_set(rest, context, context.limits.max_set_depth)?;
            Ok(ValueSpec::Set(operator, set))
        }
        SubjectKind::Bool => match text {
            "true" | "=true" => Ok(ValueSpec::Bool(BoolOp::Assign(true))),
            "false" | "=false" => Ok(ValueSpec::Bool(BoolOp::Assign(false))),
            "invert" => Ok(ValueSpec::Bool(BoolOp::Invert)),
            _ => Err(wrong(MessageId::FormsBool)),
        },
        SubjectKind::Tag => {
            let tag = text.strip_prefix('=').unwrap_or(text).trim();
            let valid = tag.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && tag.len() <= context.limits.max_name_len;
            if !valid {
                return Err(wrong(MessageId::FormsTag));
            }
            Ok(ValueSpec::Tag(tag.to_string()))
        }
        SubjectKind::Existence => match (text, target) {
            ("new", TargetType::Character) => Ok(ValueSpec::Clone),
            ("false", _) => Ok(ValueSpec::Destroy),
            (_, TargetType::Character) => Err(wrong(MessageId::FormsExistence)),
            (_, TargetType::Effect) => Err(Refusal::said(
                MessageId::ExistenceOfEffect,
                [("value", text.into())],
            )),
        },
    }
}

/// An integer, or a dice expression dice-core accepts without fields, macros or label.
fn parse_number(text: &str, context: &Context<'_>) -> Result<Number, Refusal> {
    if let Ok(value) = text.parse::<i64>() {
        return Ok(Number::Fixed(value));
    }
    if text.contains('@') || text.contains('$') {
        return Err(Refusal::said(
            MessageId::NumberWithField,
            [("text", text.into())],
        ));
    }
    let expr = dice_core::parse_with(text, &context.limits.dice).map_err(|error| {
        Refusal::said(
            MessageId::DiceRefused,
            [
                ("text", text.into()),
                (
                    "reason",
                    MessageArg::DiceReason {
                        english: error.message().to_string(),
                        reason: Some(Box::new(error.reason().clone())),
                    },
                ),
            ],
        )
    })?;
    if expr.label().is_some() {
        return Err(Refusal::said(
            MessageId::DiceLabelled,
            [("text", text.into())],
        ));
    }
    Ok(Number::Dice(expr))
}

/// A set expression: elements, `()`, `|`, `&`, `~` and parentheses (`&` binds
/// tighter than `|`, as in C). Nesting deeper than `max_depth` is refused.
fn parse_set(text: &str, context: &Context<'_>, max_depth: u32) -> Result<ElementSet, Refusal> {
    let mut parser = SetParser {
        text,
        pos: 0,
        context,
        max_depth,
    };
    let set = parser.union(0)?;
    parser.skip_space();
    if parser.pos < text.len() {
        let rest = text.get(parser.pos..).unwrap_or("");
        return Err(Refusal::said(
            MessageId::SetUnexpected,
            [("rest", rest.into()), ("set", text.into())],
        ));
    }
    Ok(set)
}

struct SetParser<'p> {
    text: &'p str,
    pos: usize,
    context: &'p Context<'p>,
    max_depth: u32,
}

impl SetParser<'_> {
    fn skip_space(&mut self) {
        while let Some(c) = self
            .text
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
            .filter(|c| c.is_whitespace())
        {
            self.pos += c.len_utf8();
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text.get(self.pos..)?.chars().next()
    }

    fn too_deep(&self) -> Refusal {
        Refusal::said(
            MessageId::SetTooDeep,
            [("set", self.text.into()), ("max", self.max_depth.into())],
        )
    }

    fn union(&mut self, depth: u32) -> Result<ElementSet, Refusal> {
        let mut set = self.intersection(depth)?;
        while self.peek() == Some('|') {
            self.pos += 1;
            set = set.union(self.intersection(depth)?);
        }
        Ok(set)
    }

    fn intersection(&mut self, depth: u32) -> Result<ElementSet, Refusal> {
        let mut set = self.unary(depth)?;
        while self.peek() == Some('&') {
            self.pos += 1;
            set = set.intersect(self.unary(depth)?);
        }
        Ok(set)
    }

    fn unary(&mut self, depth: u32) -> Result<ElementSet, Refusal> {
        if depth >= self.max_depth {
            return Err(self.too_deep());
        }
        match self.peek() {
            Some('~') => {
                self.pos += 1;
                let inner = self.unary(depth + 1)?;
                Ok(inner.complement_in(self.context.universe))
            }
            Some('(') => {
                self.pos += 1;
                if self.peek() == Some(')') {
                    self.pos += 1;
                    return Ok(ElementSet::default());
                }
                let inner = self.union(depth + 1)?;
                if self.peek() != Some(')') {
                    return Err(Refusal::said(
                        MessageId::SetUnclosed,
                        [("set", self.text.into())],
                    ));
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let start = self.pos;
                while self
                    .text
                    .get(self.pos..)
                    .and_then(|rest| rest.chars().next())
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.pos += 1;
                }
                let name = self.text.get(start..self.pos).unwrap_or("");
                match self.context.elements.get(name) {
                    Some(&index) => Ok(ElementSet::single(index)),
                    None => Err(Refusal::said(
                        MessageId::UnknownElement,
                        [("name", name.into())],
                    )),
                }
            }
            Some(c) => Err(Refusal::said(
                MessageId::SetBadStart,
                [("set", self.text.into()), ("found", c.into())],
            )),
            None => Err(Refusal::said(
                MessageId::SetEndsEarly,
                [("set", self.text.into())],
            )),
        }
    }
}
