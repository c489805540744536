//! Discord's rules for what the bot sends, as pure functions over the request JSON.
//!
//! Every limit here is one the real API enforces with `400 {"code": 50035}` (or a
//! notification it would send); the values come from Discord's API documentation.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use crate::config::MentionPolicy;
use crate::payloads::permissions as permission;
use crate::records::{Ping, Rule};

pub(crate) const FLAG_EPHEMERAL: u64 = 1 << 6;
pub(crate) const FLAG_LOADING: u64 = 1 << 7;
const FLAG_COMPONENTS_V2: u64 = 1 << 15;
pub(crate) const MESSAGE_CONTENT_INTENT: u64 = 1 << 15;

const MAX_CONTENT_CHARS: usize = 2000;
const MAX_EMBEDS: usize = 10;
const MAX_EMBED_TOTAL_CHARS: usize = 6000;
const MAX_EMBED_FIELDS: usize = 25;
const MAX_ACTION_ROWS: usize = 5;
const MAX_BUTTONS_PER_ROW: usize = 5;
const MAX_COMPONENTS_V2: usize = 40;
const MAX_SELECT_OPTIONS: usize = 25;
const MAX_CUSTOM_ID_CHARS: usize = 100;
const MAX_BUTTON_LABEL_CHARS: usize = 80;
const MAX_AUTOCOMPLETE_CHOICES: usize = 25;
const MAX_MODAL_TITLE_CHARS: usize = 45;
const MAX_TEXT_INPUT_LABEL_CHARS: usize = 45;
const MAX_TEXT_INPUT_LENGTH: u64 = 4000;
const MAX_TEXT_INPUT_PLACEHOLDER_CHARS: usize = 100;
const MAX_SELECT_OPTION_CHARS: usize = 100;
const MAX_SELECT_PLACEHOLDER_CHARS: usize = 150;
const MAX_SELECT_VALUES: u64 = 25;
pub(crate) const MAX_CHOICE_CHARS: usize = 100;
const MAX_ATTACHMENTS: usize = 10;
const MAX_ATTACHMENT_DESCRIPTION_CHARS: usize = 1024;
/// Discord's upload limit for a file in a server without boosts (`attachment_size_limit`).
pub(crate) const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Gateway intents that decide which events a session receives.
const GUILDS_INTENT: u64 = 1;
const GUILD_MESSAGES_INTENT: u64 = 1 << 9;
const DIRECT_MESSAGES_INTENT: u64 = 1 << 12;

/// Interaction types (the `type` of an INTERACTION_CREATE).
pub(crate) const INTERACTION_COMMAND: u64 = 2;
pub(crate) const INTERACTION_COMPONENT: u64 = 3;
pub(crate) const INTERACTION_AUTOCOMPLETE: u64 = 4;
pub(crate) const INTERACTION_MODAL_SUBMIT: u64 = 5;

/// Callback types.
pub(crate) const RESPONSE_MESSAGE: u64 = 4;
pub(crate) const RESPONSE_DEFERRED_MESSAGE: u64 = 5;
pub(crate) const RESPONSE_DEFERRED_UPDATE: u64 = 6;
pub(crate) const RESPONSE_UPDATE: u64 = 7;
pub(crate) const RESPONSE_AUTOCOMPLETE: u64 = 8;
pub(crate) const RESPONSE_MODAL: u64 = 9;

/// One broken rule in a request body, placed as Discord's error answer places it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) rule: Rule,
    /// Dot path into the body, e.g. `components.0.components.1.custom_id`.
    pub(crate) path: String,
    /// Discord's error code string, e.g. `BASE_TYPE_MAX_LENGTH`.
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl Problem {
    pub(crate) fn new(
        rule: Rule,
        path: impl Into<String>,
        code: &'static str,
        message: String,
    ) -> Self {
        Problem {
            rule,
            path: path.into(),
            code,
            message,
        }
    }
}

pub(crate) fn char_len(value: Option<&Value>) -> usize {
    value
        .and_then(Value::as_str)
        .map_or(0, |text| text.chars().count())
}

pub(crate) fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn max_length(rule: Rule, path: String, len: usize, max: usize) -> Option<Problem> {
    if len <= max {
        return None;
    }
    let message = format!("Must be {max} or fewer in length (got {len}).");
    Some(Problem::new(rule, path, "BASE_TYPE_MAX_LENGTH", message))
}

/// Checks the message fields present in `body` (a create, an edit, or callback data).
pub(crate) fn check_message(body: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let content_len = char_len(body.get("content"));
    problems.extend(max_length(
        Rule::ContentTooLong,
        "content".into(),
        content_len,
        MAX_CONTENT_CHARS,
    ));
    check_embeds(array(body.get("embeds")), &mut problems);
    let flags = body.get("flags").and_then(Value::as_u64).unwrap_or(0);
    check_components(array(body.get("components")), flags, &mut problems);
    problems
}

/// A new message needs something to show.
pub(crate) fn check_not_empty(body: &Value, files: usize) -> Option<Problem> {
    let has_content = char_len(body.get("content")) > 0;
    let has_embeds = !array(body.get("embeds")).is_empty();
    let has_components = !array(body.get("components")).is_empty();
    let has_sticker = !array(body.get("sticker_ids")).is_empty();
    if has_content || has_embeds || has_components || has_sticker || files > 0 {
        return None;
    }
    let message = "Cannot send an empty message".to_owned();
    Some(Problem::new(
        Rule::EmptyMessage,
        "",
        "MESSAGE_EMPTY",
        message,
    ))
}

fn check_embeds(embeds: &[Value], problems: &mut Vec<Problem>) {
    if embeds.len() > MAX_EMBEDS {
        let message = format!("Must be {MAX_EMBEDS} or fewer in length.");
        problems.push(Problem::new(
            Rule::EmbedLimit,
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            message,
        ));
    }
    let mut total = 0;
    for (index, embed) in embeds.iter().enumerate() {
        let at = |field: &str| format!("embeds.{index}.{field}");
        let limited = [
            ("title", embed.get("title"), 256),
            ("description", embed.get("description"), 4096),
            ("footer.text", embed.pointer("/footer/text"), 2048),
            ("author.name", embed.pointer("/author/name"), 256),
        ];
        for (field, value, max) in limited {
            let len = char_len(value);
            total += len;
            problems.extend(max_length(Rule::EmbedLimit, at(field), len, max));
        }
        let fields = array(embed.get("fields"));
        if fields.len() > MAX_EMBED_FIELDS {
            let message = format!("Must be {MAX_EMBED_FIELDS} or fewer in length.");
            problems.push(Problem::new(
                Rule::EmbedLimit,
                at("fields"),
                "BASE_TYPE_MAX_LENGTH",
                message,
            ));
        }
        for (field_index, field) in fields.iter().enumerate() {
            for (key, max) in [("name", 256), ("value", 1024)] {
                let len = char_len(field.get(key));
                total += len;
                let path = at(&format!("fields.{field_index}.{key}"));
                problems.extend(max_length(Rule::EmbedLimit, path, len, max));
            }
        }
    }
    if total > MAX_EMBED_TOTAL_CHARS {
        let message =
            format!("Embed size exceeds maximum size of {MAX_EMBED_TOTAL_CHARS} (got {total}).");
        problems.push(Problem::new(
            Rule::EmbedLimit,
            "embeds",
            "MAX_EMBED_SIZE_EXCEEDED",
            message,
        ));
    }
}

fn is_select(kind: u64) -> bool {
    matches!(kind, 3 | 5 | 6 | 7 | 8)
}

fn check_components(rows: &[Value], flags: u64, problems: &mut Vec<Problem>) {
    let components_v2 = flags & FLAG_COMPONENTS_V2 != 0;
    if components_v2 {
        let total = count_components(rows);
        if total > MAX_COMPONENTS_V2 {
            let message =
                format!("Must be {MAX_COMPONENTS_V2} or fewer components in total (got {total}).");
            problems.push(Problem::new(
                Rule::ComponentLayout,
                "components",
                "BASE_TYPE_MAX_LENGTH",
                message,
            ));
        }
    } else if rows.len() > MAX_ACTION_ROWS {
        let message = format!(
            "Must be {MAX_ACTION_ROWS} or fewer in length (got {}).",
            rows.len()
        );
        problems.push(Problem::new(
            Rule::ComponentLayout,
            "components",
            "BASE_TYPE_MAX_LENGTH",
            message,
        ));
    }
    let mut seen_ids = HashSet::new();
    for (row_index, row) in rows.iter().enumerate() {
        let row_kind = row.get("type").and_then(Value::as_u64).unwrap_or(0);
        if row_kind != 1 && !components_v2 {
            let message = format!("Component type {row_kind} must be inside an action row.");
            problems.push(Problem::new(
                Rule::ComponentLayout,
                format!("components.{row_index}"),
                "UNION_TYPE_CHOICES",
                message,
            ));
            continue;
        }
        let children = array(row.get("components"));
        if row_kind == 1 && children.is_empty() {
            let message = format!("Must be between 1 and {MAX_BUTTONS_PER_ROW} in length (got 0).");
            problems.push(Problem::new(
                Rule::ComponentLayout,
                format!("components.{row_index}.components"),
                "BASE_TYPE_BAD_LENGTH",
                message,
            ));
        }
        let selects = children.iter().filter(|c| is_select(kind_of(c))).count();
        if selects > 0 && children.len() > 1 {
            let message = "A select menu must be alone in its action row.".to_owned();
            problems.push(Problem::new(
                Rule::ComponentLayout,
                format!("components.{row_index}.components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                message,
            ));
        }
        if children.len() > MAX_BUTTONS_PER_ROW {
            let message = format!(
                "Must be {MAX_BUTTONS_PER_ROW} or fewer in length (got {}).",
                children.len()
            );
            problems.push(Problem::new(
                Rule::ComponentLayout,
                format!("components.{row_index}.components"),
                "BASE_TYPE_MAX_LENGTH",
                message,
            ));
        }
        for (child_index, child) in children.iter().enumerate() {
            let path = format!("components.{row_index}.components.{child_index}");
            check_component(child, &path, &mut seen_ids, problems);
        }
    }
}

fn kind_of(component: &Value) -> u64 {
    component.get("type").and_then(Value::as_u64).unwrap_or(0)
}

fn count_components(components: &[Value]) -> usize {
    components
        .iter()
        .map(|c| 1 + count_components(array(c.get("components"))))
        .sum()
}

fn check_component(
    component: &Value,
    path: &str,
    seen_ids: &mut HashSet<String>,
    problems: &mut Vec<Problem>,
) {
    let kind = kind_of(component);
    let style = component.get("style").and_then(Value::as_u64).unwrap_or(0);
    let needs_custom_id = match kind {
        2 => !matches!(style, 5 | 6),
        _ => is_select(kind),
    };
    if kind == 4 {
        let message = "Text inputs are only allowed in modals.".to_owned();
        problems.push(Problem::new(
            Rule::ComponentLayout,
            path,
            "UNION_TYPE_CHOICES",
            message,
        ));
    }
    if needs_custom_id {
        check_custom_id(
            component.get("custom_id"),
            &format!("{path}.custom_id"),
            seen_ids,
            problems,
        );
    }
    if kind == 2 {
        check_button(component, style, path, problems);
    }
    if is_select(kind) {
        check_select(component, kind, path, problems);
    }
}

fn check_button(button: &Value, style: u64, path: &str, problems: &mut Vec<Problem>) {
    let label_len = char_len(button.get("label"));
    problems.extend(max_length(
        Rule::ButtonLabel,
        format!("{path}.label"),
        label_len,
        MAX_BUTTON_LABEL_CHARS,
    ));
    // A premium button (style 6) shows its SKU; every other needs something to show.
    let has_emoji = button.get("emoji").is_some_and(|emoji| !emoji.is_null());
    if style != 6 && label_len == 0 && !has_emoji {
        let message = "A button needs a label or an emoji.".to_owned();
        problems.push(Problem::new(
            Rule::ButtonLabel,
            format!("{path}.label"),
            "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
            message,
        ));
    }
}

fn check_select(select: &Value, kind: u64, path: &str, problems: &mut Vec<Problem>) {
    let mut bad = |field: String, code: &'static str, message: String| {
        problems.push(Problem::new(Rule::SelectOptions, field, code, message));
    };
    let placeholder_len = char_len(select.get("placeholder"));
    if placeholder_len > MAX_SELECT_PLACEHOLDER_CHARS {
        bad(
            format!("{path}.placeholder"),
            "BASE_TYPE_MAX_LENGTH",
            format!(
                "Must be {MAX_SELECT_PLACEHOLDER_CHARS} or fewer in length (got {placeholder_len})."
            ),
        );
    }
    let min_values = select
        .get("min_values")
        .and_then(Value::as_u64)
        .unwrap_or(1);
    let max_values = select
        .get("max_values")
        .and_then(Value::as_u64)
        .unwrap_or(1);
    if min_values > MAX_SELECT_VALUES {
        bad(
            format!("{path}.min_values"),
            "NUMBER_TYPE_MAX",
            format!("Must be {MAX_SELECT_VALUES} or less."),
        );
    }
    if max_values == 0 || max_values > MAX_SELECT_VALUES {
        bad(
            format!("{path}.max_values"),
            "NUMBER_TYPE_MAX",
            format!("Must be between 1 and {MAX_SELECT_VALUES}."),
        );
    }
    if min_values > max_values {
        bad(
            format!("{path}.min_values"),
            "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX",
            format!(
                "min_values ({min_values}) must not be greater than max_values ({max_values})."
            ),
        );
    }
    // Only a string select lists its options; the others pick users, roles or channels.
    if kind != 3 {
        return;
    }
    let options = array(select.get("options"));
    if options.is_empty() || options.len() > MAX_SELECT_OPTIONS {
        bad(
            format!("{path}.options"),
            "BASE_TYPE_BAD_LENGTH",
            format!(
                "Must be between 1 and {MAX_SELECT_OPTIONS} in length (got {}).",
                options.len()
            ),
        );
    } else if max_values > options.len() as u64 {
        bad(
            format!("{path}.max_values"),
            "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
            format!(
                "max_values ({max_values}) must not exceed the number of options ({}).",
                options.len()
            ),
        );
    }
    for (index, option) in options.iter().enumerate() {
        for (key, min) in [("label", 1), ("value", 1), ("description", 0)] {
            let len = char_len(option.get(key));
            if len < min || len > MAX_SELECT_OPTION_CHARS {
                bad(
                    format!("{path}.options.{index}.{key}"),
                    "BASE_TYPE_BAD_LENGTH",
                    format!(
                        "Must be between {min} and {MAX_SELECT_OPTION_CHARS} in length (got {len})."
                    ),
                );
            }
        }
    }
}

/// Checks the files of a message: at most 10 in all (`total`, kept and new), and each
/// attachment's description within 1,024 characters.
pub(crate) fn check_attachments(body: &Value, total: usize) -> Vec<Problem> {
    let mut problems = Vec::new();
    if total > MAX_ATTACHMENTS {
        problems.push(Problem::new(
            Rule::AttachmentLimit,
            "attachments",
            "BASE_TYPE_MAX_LENGTH",
            format!("Must be {MAX_ATTACHMENTS} or fewer in length (got {total})."),
        ));
    }
    for (index, attachment) in array(body.get("attachments")).iter().enumerate() {
        problems.extend(max_length(
            Rule::AttachmentLimit,
            format!("attachments.{index}.description"),
            char_len(attachment.get("description")),
            MAX_ATTACHMENT_DESCRIPTION_CHARS,
        ));
    }
    problems
}

/// The first upload over Discord's size limit, as a sentence (Discord answers it with
/// `413`, code 40005, before it reads the rest).
pub(crate) fn file_too_large<'a>(
    uploads: impl IntoIterator<Item = (&'a str, u64)>,
) -> Option<String> {
    uploads
        .into_iter()
        .find(|(_, size)| *size > MAX_FILE_BYTES)
        .map(|(name, size)| {
            format!("file `{name}` has {size} bytes, over the limit of {MAX_FILE_BYTES}")
        })
}

/// What a bot needs in a channel to post `body` there, given whether the channel is a
/// thread and whether files come with it, as Discord checks it: the missing permission
/// and Discord's error code (50001 Missing Access, 50013 Missing Permissions).
pub(crate) fn missing_permission(
    granted: u64,
    is_thread: bool,
    body: &Value,
    has_files: bool,
) -> Option<(&'static str, u32)> {
    if granted & permission::VIEW_CHANNEL == 0 {
        return Some(("View Channel", 50001));
    }
    let (send, send_name) = if is_thread {
        (
            permission::SEND_MESSAGES_IN_THREADS,
            "Send Messages in Threads",
        )
    } else {
        (permission::SEND_MESSAGES, "Send Messages")
    };
    if granted & send == 0 {
        return Some((send_name, 50013));
    }
    let is_reply = body.get("message_reference").is_some_and(|r| !r.is_null());
    if is_reply && granted & permission::READ_MESSAGE_HISTORY == 0 {
        return Some(("Read Message History", 50013));
    }
    if has_files && granted & permission::ATTACH_FILES == 0 {
        return Some(("Attach Files", 50013));
    }
    None
}

/// Whether a session with `intents` receives `event` (Discord sends only what a bot
/// asked for; interactions and the session's own events always arrive).
pub(crate) fn intents_allow(intents: u64, event: &str, data: &Value) -> bool {
    let in_guild = data.get("guild_id").is_some_and(|id| !id.is_null());
    let needed = match event {
        "MESSAGE_CREATE" | "MESSAGE_UPDATE" | "MESSAGE_DELETE" | "MESSAGE_DELETE_BULK" => {
            if in_guild {
                GUILD_MESSAGES_INTENT
            } else {
                DIRECT_MESSAGES_INTENT
            }
        }
        _ if event.starts_with("GUILD_")
            || event.starts_with("CHANNEL_")
            || event.starts_with("THREAD_") =>
        {
            GUILDS_INTENT
        }
        _ => return true,
    };
    intents & needed != 0
}

fn check_custom_id(
    custom_id: Option<&Value>,
    path: &str,
    seen_ids: &mut HashSet<String>,
    problems: &mut Vec<Problem>,
) {
    let id = custom_id.and_then(Value::as_str).unwrap_or("");
    let len = id.chars().count();
    if len == 0 || len > MAX_CUSTOM_ID_CHARS {
        let message = format!("Must be between 1 and {MAX_CUSTOM_ID_CHARS} in length (got {len}).");
        problems.push(Problem::new(
            Rule::CustomIdLength,
            path,
            "BASE_TYPE_BAD_LENGTH",
            message,
        ));
        return;
    }
    if !seen_ids.insert(id.to_owned()) {
        let message = format!("Component custom id `{id}` is not unique in this message.");
        problems.push(Problem::new(
            Rule::CustomIdDuplicate,
            path,
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            message,
        ));
    }
}

/// Checks the `data` of an autocomplete result (callback type 8).
pub(crate) fn check_autocomplete(data: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let choices = array(data.get("choices"));
    if choices.len() > MAX_AUTOCOMPLETE_CHOICES {
        let message = format!(
            "Must be {MAX_AUTOCOMPLETE_CHOICES} or fewer in length (got {}).",
            choices.len()
        );
        problems.push(Problem::new(
            Rule::AutocompleteChoices,
            "data.choices",
            "BASE_TYPE_MAX_LENGTH",
            message,
        ));
    }
    for (index, choice) in choices.iter().enumerate() {
        let name_len = char_len(choice.get("name"));
        if name_len == 0 || name_len > MAX_CHOICE_CHARS {
            problems.push(Problem::new(
                Rule::AutocompleteChoices,
                format!("data.choices.{index}.name"),
                "BASE_TYPE_BAD_LENGTH",
                format!("Must be between 1 and {MAX_CHOICE_CHARS} in length (got {name_len})."),
            ));
        }
        // Integer and number values have no length; a string value has Discord's limit.
        problems.extend(max_length(
            Rule::AutocompleteChoices,
            format!("data.choices.{index}.value"),
            char_len(choice.get("value")),
            MAX_CHOICE_CHARS,
        ));
    }
    problems
}

/// Checks the `data` of a modal (callback type 9).
pub(crate) fn check_modal(data: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let title_len = char_len(data.get("title"));
    if title_len == 0 || title_len > MAX_MODAL_TITLE_CHARS {
        let message =
            format!("Must be between 1 and {MAX_MODAL_TITLE_CHARS} in length (got {title_len}).");
        problems.push(Problem::new(
            Rule::ModalInvalid,
            "data.title",
            "BASE_TYPE_BAD_LENGTH",
            message,
        ));
    }
    let mut seen_ids = HashSet::new();
    let mut modal_id_problems = Vec::new();
    check_custom_id(
        data.get("custom_id"),
        "data.custom_id",
        &mut seen_ids,
        &mut modal_id_problems,
    );
    problems.extend(modal_id_problems.into_iter().map(|p| Problem {
        rule: Rule::ModalInvalid,
        ..p
    }));
    seen_ids.clear();
    let rows = array(data.get("components"));
    if rows.is_empty() || rows.len() > MAX_ACTION_ROWS {
        let message = format!(
            "Must be between 1 and {MAX_ACTION_ROWS} in length (got {}).",
            rows.len()
        );
        problems.push(Problem::new(
            Rule::ModalInvalid,
            "data.components",
            "BASE_TYPE_BAD_LENGTH",
            message,
        ));
    }
    for (row_index, row) in rows.iter().enumerate() {
        let inputs = array(row.get("components"));
        let at = format!("data.components.{row_index}.components");
        let [input] = inputs else {
            let message = "Each modal row holds exactly one text input.".to_owned();
            problems.push(Problem::new(
                Rule::ModalInvalid,
                at,
                "UNION_TYPE_CHOICES",
                message,
            ));
            continue;
        };
        if kind_of(input) != 4 {
            let message = format!("Component type {} is not a text input.", kind_of(input));
            problems.push(Problem::new(
                Rule::ModalInvalid,
                at,
                "UNION_TYPE_CHOICES",
                message,
            ));
            continue;
        }
        let mut input_problems = Vec::new();
        check_custom_id(
            input.get("custom_id"),
            &format!("{at}.0.custom_id"),
            &mut seen_ids,
            &mut input_problems,
        );
        let label_len = char_len(input.get("label"));
        if label_len == 0 || label_len > MAX_TEXT_INPUT_LABEL_CHARS {
            let message = format!(
                "Must be between 1 and {MAX_TEXT_INPUT_LABEL_CHARS} in length (got {label_len})."
            );
            input_problems.push(Problem::new(
                Rule::ModalInvalid,
                format!("{at}.0.label"),
                "BASE_TYPE_BAD_LENGTH",
                message,
            ));
        }
        problems.extend(max_length(
            Rule::ModalInvalid,
            format!("{at}.0.placeholder"),
            char_len(input.get("placeholder")),
            MAX_TEXT_INPUT_PLACEHOLDER_CHARS,
        ));
        let min = input.get("min_length").and_then(Value::as_u64);
        let max = input.get("max_length").and_then(Value::as_u64);
        if let (Some(min), Some(max)) = (min, max)
            && min > max
        {
            input_problems.push(Problem::new(
                Rule::ModalInvalid,
                format!("{at}.0.min_length"),
                "TEXT_INPUT_MIN_LENGTH_GREATER_THAN_MAX",
                format!("min_length ({min}) must not be greater than max_length ({max})."),
            ));
        }
        if max == Some(0) {
            input_problems.push(Problem::new(
                Rule::ModalInvalid,
                format!("{at}.0.max_length"),
                "NUMBER_TYPE_MIN",
                "Must be 1 or more.".to_owned(),
            ));
        }
        for key in ["min_length", "max_length"] {
            let Some(length) = input.get(key).and_then(Value::as_u64) else {
                continue;
            };
            if length > MAX_TEXT_INPUT_LENGTH {
                let message = format!("Must be {MAX_TEXT_INPUT_LENGTH} or less.");
                input_problems.push(Problem::new(
                    Rule::ModalInvalid,
                    format!("{at}.0.{key}"),
                    "NUMBER_TYPE_MAX",
                    message,
                ));
            }
        }
        problems.extend(input_problems.into_iter().map(|p| Problem {
            rule: Rule::ModalInvalid,
            ..p
        }));
    }
    problems
}

/// Which callback types an interaction type may answer with.
pub(crate) fn response_allowed(interaction_type: u64, response_type: u64) -> bool {
    match interaction_type {
        INTERACTION_COMMAND => matches!(
            response_type,
            RESPONSE_MESSAGE | RESPONSE_DEFERRED_MESSAGE | RESPONSE_MODAL
        ),
        INTERACTION_COMPONENT => matches!(
            response_type,
            RESPONSE_MESSAGE
                | RESPONSE_DEFERRED_MESSAGE
                | RESPONSE_DEFERRED_UPDATE
                | RESPONSE_UPDATE
                | RESPONSE_MODAL
        ),
        INTERACTION_AUTOCOMPLETE => response_type == RESPONSE_AUTOCOMPLETE,
        INTERACTION_MODAL_SUBMIT => matches!(
            response_type,
            RESPONSE_MESSAGE
                | RESPONSE_DEFERRED_MESSAGE
                | RESPONSE_DEFERRED_UPDATE
                | RESPONSE_UPDATE
        ),
        _ => false,
    }
}

/// Discord's answer to an invalid form body: code 50035 with the errors nested by path.
pub(crate) fn form_error(problems: &[Problem]) -> Value {
    let mut errors = Map::new();
    for problem in problems {
        let keys: Vec<&str> = problem
            .path
            .split('.')
            .filter(|key| !key.is_empty())
            .collect();
        let error = json!({ "code": problem.code, "message": problem.message });
        insert_error(&mut errors, &keys, error);
    }
    json!({ "code": 50035, "message": "Invalid Form Body", "errors": errors })
}

fn insert_error(node: &mut Map<String, Value>, keys: &[&str], error: Value) {
    let Some((first, rest)) = keys.split_first() else {
        let list = node
            .entry("_errors")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(error);
        }
        return;
    };
    let child = node
        .entry((*first).to_owned())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(child) = child {
        insert_error(child, rest, error);
    }
}

/// The mentions in `content` that Discord would notify, given `allowed_mentions`
/// (`None`: the field was not sent, so everything mentioned pings) and whether the message
/// is a reply.
pub(crate) fn pings(content: &str, allowed_mentions: Option<&Value>, is_reply: bool) -> Vec<Ping> {
    let mentioned = mentions_in(content);
    let Some(allowed) = allowed_mentions else {
        let mut pings = mentioned;
        if is_reply {
            pings.push(Ping::RepliedUser);
        }
        return pings;
    };
    let parse: Vec<&str> = array(allowed.get("parse"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let listed = |key: &str, id: u64| {
        array(allowed.get(key))
            .iter()
            .any(|v| snowflake(v) == Some(id))
    };
    let mut pings: Vec<Ping> = mentioned
        .into_iter()
        .filter(|ping| match *ping {
            Ping::Everyone => parse.contains(&"everyone"),
            Ping::User(id) => parse.contains(&"users") || listed("users", id),
            Ping::Role(id) => parse.contains(&"roles") || listed("roles", id),
            Ping::RepliedUser => false,
        })
        .collect();
    let replied_user = allowed
        .get("replied_user")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if is_reply && replied_user {
        pings.push(Ping::RepliedUser);
    }
    pings
}

/// The pings that `policy` forbids, as a sentence, if any.
pub(crate) fn forbidden_pings(policy: MentionPolicy, pings: &[Ping]) -> Option<String> {
    let forbidden: Vec<&Ping> = match policy {
        MentionPolicy::AllowAll => Vec::new(),
        MentionPolicy::ForbidEveryone => pings.iter().filter(|p| **p == Ping::Everyone).collect(),
        MentionPolicy::ForbidAll => pings.iter().collect(),
    };
    if forbidden.is_empty() {
        return None;
    }
    Some(format!(
        "the message would ping {forbidden:?} (set allowed_mentions)"
    ))
}

fn mentions_in(content: &str) -> Vec<Ping> {
    let mut found = Vec::new();
    if content.contains("@everyone") || content.contains("@here") {
        found.push(Ping::Everyone);
    }
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let (is_role, digits_from) = match rest.as_bytes().first() {
            Some(b'&') => (true, 1),
            Some(b'!') => (false, 1),
            _ => (false, 0),
        };
        let tail = &rest[digits_from..];
        let digits_len = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits_len == 0 || tail.as_bytes().get(digits_len) != Some(&b'>') {
            continue;
        }
        let Ok(id) = tail[..digits_len].parse::<u64>() else {
            continue;
        };
        let ping = if is_role {
            Ping::Role(id)
        } else {
            Ping::User(id)
        };
        if !found.contains(&ping) {
            found.push(ping);
        }
    }
    found
}

/// Whether `content` mentions the user `user_id` with `<@id>` or `<@!id>`.
pub(crate) fn mentions_user(content: &str, user_id: u64) -> bool {
    mentions_in(content).contains(&Ping::User(user_id))
}

/// A snowflake sent as a string (Discord's way) or a number.
pub(crate) fn snowflake(value: &Value) -> Option<u64> {
    match value {
        Value::String(text) => text.parse().ok(),
        Value::Number(number) => number.as_u64(),
        _ => None,
    }
}

/// Empties what Discord withholds from a bot without the MESSAGE_CONTENT intent.
pub(crate) fn blank_message_content(message: &mut Value) {
    let Value::Object(fields) = message else {
        return;
    };
    fields.insert("content".into(), Value::String(String::new()));
    for key in ["embeds", "attachments", "components"] {
        fields.insert(key.into(), Value::Array(Vec::new()));
    }
    fields.remove("poll");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(problems: &[Problem]) -> Vec<Rule> {
        problems.iter().map(|p| p.rule).collect()
    }

    fn button(custom_id: &str) -> Value {
        json!({"type": 2, "style": 1, "label": "go", "custom_id": custom_id})
    }

    fn row(children: Vec<Value>) -> Value {
        json!({"type": 1, "components": children})
    }

    fn select(options: Vec<Value>) -> Value {
        json!({"type": 3, "custom_id": "s", "options": options})
    }

    #[test]
    fn attachment_rules() {
        let described =
            |len: usize| json!({"attachments": [{"id": 0, "description": "d".repeat(len)}]});
        assert_eq!(rules(&check_attachments(&described(1024), 10)), vec![]);
        assert_eq!(
            rules(&check_attachments(&described(1025), 1)),
            vec![Rule::AttachmentLimit]
        );
        assert_eq!(
            rules(&check_attachments(&json!({}), 11)),
            vec![Rule::AttachmentLimit]
        );
        assert_eq!(file_too_large([("a.png", MAX_FILE_BYTES)]), None);
        assert!(
            file_too_large([("a.png", 1), ("b.png", MAX_FILE_BYTES + 1)])
                .is_some_and(|m| m.contains("b.png"))
        );
    }

    #[test]
    fn channel_permissions_table() {
        use permission::*;
        let all = VIEW_CHANNEL
            | SEND_MESSAGES
            | SEND_MESSAGES_IN_THREADS
            | READ_MESSAGE_HISTORY
            | ATTACH_FILES;
        let reply = json!({"content": "x", "message_reference": {"message_id": "1"}});
        let plain = json!({"content": "x"});
        type Case<'a> = (u64, bool, &'a Value, bool, Option<(&'a str, u32)>);
        let table: Vec<Case> = vec![
            (all, false, &reply, true, None),
            (
                all & !VIEW_CHANNEL,
                false,
                &plain,
                false,
                Some(("View Channel", 50001)),
            ),
            (
                all & !SEND_MESSAGES,
                false,
                &plain,
                false,
                Some(("Send Messages", 50013)),
            ),
            (all & !SEND_MESSAGES, true, &plain, false, None),
            (
                all & !SEND_MESSAGES_IN_THREADS,
                true,
                &plain,
                false,
                Some(("Send Messages in Threads", 50013)),
            ),
            (all & !READ_MESSAGE_HISTORY, false, &plain, false, None),
            (
                all & !READ_MESSAGE_HISTORY,
                false,
                &reply,
                false,
                Some(("Read Message History", 50013)),
            ),
            (
                all & !ATTACH_FILES,
                false,
                &plain,
                true,
                Some(("Attach Files", 50013)),
            ),
        ];
        for (granted, thread, body, files, expected) in table {
            assert_eq!(
                missing_permission(granted, thread, body, files),
                expected,
                "{granted:b} {body}"
            );
        }
    }

    #[test]
    fn intents_decide_which_events_arrive() {
        let guild = json!({"guild_id": "5"});
        let dm = json!({});
        assert!(intents_allow(
            GUILD_MESSAGES_INTENT,
            "MESSAGE_CREATE",
            &guild
        ));
        assert!(!intents_allow(
            DIRECT_MESSAGES_INTENT,
            "MESSAGE_CREATE",
            &guild
        ));
        assert!(intents_allow(DIRECT_MESSAGES_INTENT, "MESSAGE_CREATE", &dm));
        assert!(!intents_allow(GUILD_MESSAGES_INTENT, "MESSAGE_UPDATE", &dm));
        assert!(!intents_allow(0, "GUILD_CREATE", &guild));
        assert!(intents_allow(GUILDS_INTENT, "GUILD_CREATE", &guild));
        assert!(intents_allow(0, "INTERACTION_CREATE", &guild));
        assert!(intents_allow(0, "READY", &dm));
    }

    #[test]
    fn message_rules_table() {
        let long_id = "x".repeat(101);
        let table: Vec<(&str, Value, Vec<Rule>)> = vec![
            (
                "2000 chars is fine",
                json!({"content": "é".repeat(2000)}),
                vec![],
            ),
            (
                "2001 chars",
                json!({"content": "a".repeat(2001)}),
                vec![Rule::ContentTooLong],
            ),
            (
                "custom id 100",
                json!({"components": [row(vec![button(&"x".repeat(100))])]}),
                vec![],
            ),
            (
                "custom id 101",
                json!({"components": [row(vec![button(&long_id)])]}),
                vec![Rule::CustomIdLength],
            ),
            (
                "empty custom id",
                json!({"components": [row(vec![button("")])]}),
                vec![Rule::CustomIdLength],
            ),
            (
                "duplicate custom id across rows",
                json!({"components": [row(vec![button("a")]), row(vec![button("a")])]}),
                vec![Rule::CustomIdDuplicate],
            ),
            (
                "link button needs no id",
                json!({"components": [row(vec![json!({"type": 2, "style": 5, "url": "https://x", "label": "x"})])]}),
                vec![],
            ),
            (
                "six buttons in a row",
                json!({"components": [row((0..6).map(|i| button(&i.to_string())).collect())]}),
                vec![Rule::ComponentLayout],
            ),
            (
                "six rows",
                json!({"components": (0..6).map(|i| row(vec![button(&i.to_string())])).collect::<Vec<_>>()}),
                vec![Rule::ComponentLayout],
            ),
            (
                "button outside a row",
                json!({"components": [button("a")]}),
                vec![Rule::ComponentLayout],
            ),
            (
                "label 81",
                json!({"components": [row(vec![json!({"type": 2, "style": 1, "custom_id": "a", "label": "l".repeat(81)})])]}),
                vec![Rule::ButtonLabel],
            ),
            (
                "select with 26 options",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "options": (0..26).map(|i| json!({"label": i.to_string(), "value": i.to_string()})).collect::<Vec<_>>()})])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "select sharing its row",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}), button("b")])]}),
                vec![Rule::ComponentLayout],
            ),
            (
                "empty action row",
                json!({"components": [row(vec![])]}),
                vec![Rule::ComponentLayout],
            ),
            (
                "button without label or emoji",
                json!({"components": [row(vec![json!({"type": 2, "style": 1, "custom_id": "a"})])]}),
                vec![Rule::ButtonLabel],
            ),
            (
                "button with an emoji only",
                json!({"components": [row(vec![json!({"type": 2, "style": 1, "custom_id": "a", "emoji": {"name": "🎲"}})])]}),
                vec![],
            ),
            (
                "select option label 100, value 100, description 100",
                json!({"components": [row(vec![select(vec![json!({"label": "l".repeat(100), "value": "v".repeat(100), "description": "d".repeat(100)})])])]}),
                vec![],
            ),
            (
                "select option label 101 and empty value",
                json!({"components": [row(vec![select(vec![json!({"label": "l".repeat(101), "value": ""})])])]}),
                vec![Rule::SelectOptions, Rule::SelectOptions],
            ),
            (
                "select option description 101",
                json!({"components": [row(vec![select(vec![json!({"label": "l", "value": "v", "description": "d".repeat(101)})])])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "select placeholder 151",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "placeholder": "p".repeat(151), "options": [{"label": "a", "value": "a"}]})])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "select min_values over max_values",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "min_values": 2, "max_values": 1, "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}]})])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "select max_values above its options",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "max_values": 2, "options": [{"label": "a", "value": "a"}]})])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "select max_values 0",
                json!({"components": [row(vec![json!({"type": 3, "custom_id": "s", "min_values": 0, "max_values": 0, "options": [{"label": "a", "value": "a"}]})])]}),
                vec![Rule::SelectOptions],
            ),
            (
                "11 embeds",
                json!({"embeds": (0..11).map(|_| json!({"title": "t"})).collect::<Vec<_>>()}),
                vec![Rule::EmbedLimit],
            ),
            (
                "embed title 257",
                json!({"embeds": [{"title": "t".repeat(257)}]}),
                vec![Rule::EmbedLimit],
            ),
            (
                "embed field value 1025",
                json!({"embeds": [{"fields": [{"name": "n", "value": "v".repeat(1025)}]}]}),
                vec![Rule::EmbedLimit],
            ),
            (
                "embeds over 6000 in all",
                json!({"embeds": [{"description": "d".repeat(4000)}, {"description": "d".repeat(2001)}]}),
                vec![Rule::EmbedLimit],
            ),
        ];
        for (name, body, expected) in table {
            assert_eq!(rules(&check_message(&body)), expected, "{name}");
        }
    }

    #[test]
    fn components_v2_counts_all_components() {
        let many: Vec<Value> = (0..41)
            .map(|i| json!({"type": 10, "content": i.to_string()}))
            .collect();
        let body = json!({"flags": FLAG_COMPONENTS_V2, "components": many});
        assert_eq!(rules(&check_message(&body)), vec![Rule::ComponentLayout]);
    }

    #[test]
    fn empty_message_is_refused_unless_a_file_comes() {
        assert!(check_not_empty(&json!({"content": ""}), 0).is_some());
        assert!(check_not_empty(&json!({"content": ""}), 1).is_none());
        assert!(check_not_empty(&json!({"content": "hi"}), 0).is_none());
    }

    #[test]
    fn autocomplete_and_modal_rules() {
        let choices: Vec<Value> = (0..26)
            .map(|i| json!({"name": i.to_string(), "value": i.to_string()}))
            .collect();
        assert_eq!(
            rules(&check_autocomplete(&json!({"choices": choices[..25]}))),
            vec![]
        );
        assert_eq!(
            rules(&check_autocomplete(&json!({"choices": choices}))),
            vec![Rule::AutocompleteChoices]
        );
        let choice = |name: usize, value: usize| json!({"choices": [{"name": "n".repeat(name), "value": "v".repeat(value)}]});
        assert_eq!(rules(&check_autocomplete(&choice(100, 100))), vec![]);
        assert_eq!(
            rules(&check_autocomplete(&choice(101, 100))),
            vec![Rule::AutocompleteChoices]
        );
        assert_eq!(
            rules(&check_autocomplete(&choice(100, 101))),
            vec![Rule::AutocompleteChoices]
        );
        assert_eq!(
            rules(&check_autocomplete(&choice(0, 1))),
            vec![Rule::AutocompleteChoices]
        );
        assert_eq!(
            rules(&check_autocomplete(
                &json!({"choices": [{"name": "n", "value": 12345}]})
            )),
            vec![]
        );
        let text_input = |extra: Value| {
            let mut input = json!({"type": 4, "custom_id": "answer", "label": "Name?", "style": 1});
            for (key, value) in extra.as_object().unwrap() {
                input[key] = value.clone();
            }
            json!({"custom_id": "m", "title": "Answer", "components": [row(vec![input])]})
        };
        let table = [
            (json!({"placeholder": "p".repeat(100)}), vec![]),
            (
                json!({"placeholder": "p".repeat(101)}),
                vec![Rule::ModalInvalid],
            ),
            (json!({"min_length": 5, "max_length": 5}), vec![]),
            (
                json!({"min_length": 6, "max_length": 5}),
                vec![Rule::ModalInvalid],
            ),
            (json!({"max_length": 0}), vec![Rule::ModalInvalid]),
        ];
        for (extra, expected) in table {
            assert_eq!(
                rules(&check_modal(&text_input(extra.clone()))),
                expected,
                "{extra}"
            );
        }
        let input = |max: u64| json!({"type": 4, "custom_id": "answer", "label": "Name?", "style": 1, "max_length": max});
        let modal = |max: u64| json!({"custom_id": "m", "title": "Answer", "components": [row(vec![input(max)])]});
        assert_eq!(rules(&check_modal(&modal(4000))), vec![]);
        assert_eq!(rules(&check_modal(&modal(4001))), vec![Rule::ModalInvalid]);
        assert_eq!(
            rules(&check_modal(
                &json!({"custom_id": "m", "title": "t", "components": []})
            )),
            vec![Rule::ModalInvalid]
        );
    }

    #[test]
    fn response_types_per_interaction_type() {
        assert!(response_allowed(INTERACTION_COMMAND, RESPONSE_MODAL));
        assert!(!response_allowed(INTERACTION_COMMAND, RESPONSE_UPDATE));
        assert!(!response_allowed(INTERACTION_MODAL_SUBMIT, RESPONSE_MODAL));
        assert!(!response_allowed(
            INTERACTION_AUTOCOMPLETE,
            RESPONSE_DEFERRED_MESSAGE
        ));
        assert!(response_allowed(
            INTERACTION_AUTOCOMPLETE,
            RESPONSE_AUTOCOMPLETE
        ));
        assert!(response_allowed(
            INTERACTION_COMPONENT,
            RESPONSE_DEFERRED_UPDATE
        ));
    }

    #[test]
    fn form_error_nests_paths() {
        let problems = check_message(&json!({"content": "a".repeat(2001)}));
        let error = form_error(&problems);
        assert_eq!(error["code"], 50035);
        assert_eq!(
            error["errors"]["content"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
    }

    #[test]
    fn pings_table() {
        let none = json!({"parse": []});
        let users = json!({"parse": ["users"]});
        let listed = json!({"parse": [], "users": ["42"], "replied_user": true});
        let table: Vec<(&str, Option<&Value>, bool, Vec<Ping>)> = vec![
            ("@everyone hi", None, false, vec![Ping::Everyone]),
            ("@everyone hi", Some(&none), false, vec![]),
            (
                "<@42> and <@!43> and <@&7>",
                None,
                false,
                vec![Ping::User(42), Ping::User(43), Ping::Role(7)],
            ),
            ("<@42> and <@&7>", Some(&users), false, vec![Ping::User(42)]),
            (
                "<@42> <@43>",
                Some(&listed),
                true,
                vec![Ping::User(42), Ping::RepliedUser],
            ),
            ("plain reply", None, true, vec![Ping::RepliedUser]),
            ("plain reply", Some(&none), true, vec![]),
            ("<@x> <@12", None, false, vec![]),
        ];
        for (content, allowed, is_reply, expected) in table {
            assert_eq!(pings(content, allowed, is_reply), expected, "{content}");
        }
    }

    #[test]
    fn policies_decide_which_pings_are_violations() {
        let some = [Ping::User(1)];
        let everyone = [Ping::Everyone];
        assert!(forbidden_pings(MentionPolicy::ForbidEveryone, &some).is_none());
        assert!(forbidden_pings(MentionPolicy::ForbidEveryone, &everyone).is_some());
        assert!(forbidden_pings(MentionPolicy::ForbidAll, &some).is_some());
        assert!(forbidden_pings(MentionPolicy::AllowAll, &everyone).is_none());
    }

    #[test]
    fn blanking_empties_content_fields() {
        let mut message = json!({"content": "secret", "embeds": [{}], "attachments": [{}], "components": [{}], "poll": {}, "id": "1"});
        blank_message_content(&mut message);
        assert_eq!(
            message,
            json!({"content": "", "embeds": [], "attachments": [], "components": [], "id": "1"})
        );
    }
}
