//! The REST API under `/api/v10` and the CDN route, answered from the shared state.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::body::{Body, to_bytes};
use axum::extract::{Form, FromRequest, Multipart, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::gateway::gateway_url;
use crate::oauth;
use crate::payloads::{MessageParts, cdn_file_json, message_json, timestamp_now, user_json};
use crate::records::{Callback, CdnFile, Origin, RecordedRequest, Rule, SentMessage};
use crate::registration;
use crate::rules::{self, FLAG_EPHEMERAL, FLAG_LOADING, Problem, snowflake};
use crate::state::{Ctx, Inner, InteractionState, Shared};

pub(crate) const MAX_BODY_BYTES: usize = 25 * 1024 * 1024;

/// A request as the router sees it.
struct Incoming {
    method: String,
    path: String,
    query: Option<String>,
    authorization: Option<String>,
    body: Value,
    uploads: Vec<(String, String, Vec<u8>)>,
}

impl Incoming {
    fn source(&self) -> String {
        format!("{} {}", self.method, self.path)
    }
}

/// What the router answers.
struct Reply {
    status: u16,
    body: Option<Value>,
    headers: Vec<(&'static str, String)>,
}

impl Reply {
    fn json(status: u16, body: Value) -> Self {
        Reply {
            status,
            body: Some(body),
            headers: Vec::new(),
        }
    }
    fn ok(body: Value) -> Self {
        Reply::json(200, body)
    }
    fn no_content() -> Self {
        Reply {
            status: 204,
            body: None,
            headers: Vec::new(),
        }
    }
    fn error(status: u16, code: u32, message: &str) -> Self {
        Reply::json(status, json!({"code": code, "message": message}))
    }
    fn error_code(&self) -> Option<u32> {
        self.body
            .as_ref()?
            .get("code")?
            .as_u64()
            .map(|code| code as u32)
    }
}

pub(crate) async fn handle(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    if let Some(rest) = path.strip_prefix("/attachments/") {
        return serve_file(&shared, rest);
    }
    if oauth::is_oauth(
        &path,
        header_text(&request, header::AUTHORIZATION).as_deref(),
    ) {
        return answer_oauth(&shared, request).await;
    }
    let incoming = match read_request(request).await {
        Ok(incoming) => incoming,
        Err(message) => return (StatusCode::BAD_REQUEST, message).into_response(),
    };
    let reply = shared.with(|inner, ctx| {
        let reply = route(inner, ctx, &incoming);
        let files = inner.requests_files_pending.drain(..).collect();
        inner.requests.push(RecordedRequest {
            method: incoming.method.clone(),
            path: incoming.path.clone(),
            query: incoming.query.clone(),
            authorization: incoming.authorization.clone(),
            body: incoming.body.clone(),
            files,
            status: reply.status,
        });
        reply
    });
    respond(&shared, &incoming, reply)
}

/// The OAuth side: the query's and the form body's fields, then `oauth::handle`.
async fn answer_oauth(shared: &Shared, request: Request) -> Response {
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let authorization = header_text(&request, header::AUTHORIZATION);
    let mut params: HashMap<String, String> = Query::try_from_uri(request.uri())
        .map(|Query(params)| params)
        .unwrap_or_default();
    if method == "POST" {
        match Form::<HashMap<String, String>>::from_request(request, &()).await {
            Ok(Form(body)) => params.extend(body),
            Err(rejection) => return rejection.into_response(),
        }
    }
    let request = oauth::OAuthRequest {
        method,
        path,
        params,
        authorization,
    };
    shared.with(|inner, _| oauth::handle(inner, &request))
}

async fn read_request(request: Request) -> Result<Incoming, String> {
    let method = request.method().as_str().to_owned();
    let uri = request.uri().clone();
    let full_path = uri.path();
    let path = full_path
        .strip_prefix("/api/v10")
        .unwrap_or(full_path)
        .to_owned();
    let query = uri.query().map(str::to_owned);
    let authorization = header_text(&request, header::AUTHORIZATION);
    let content_type = header_text(&request, header::CONTENT_TYPE).unwrap_or_default();
    let mut incoming = Incoming {
        method,
        path,
        query,
        authorization,
        body: Value::Null,
        uploads: Vec::new(),
    };
    if content_type.starts_with("multipart/form-data") {
        let mut multipart = Multipart::from_request(request, &())
            .await
            .map_err(|e| e.to_string())?;
        while let Some(field) = multipart.next_field().await.map_err(|e| e.to_string())? {
            let name = field.name().unwrap_or_default().to_owned();
            let filename = field.file_name().map(str::to_owned);
            let mime = field.content_type().map(str::to_owned);
            let bytes = field.bytes().await.map_err(|e| e.to_string())?;
            if name == "payload_json" {
                incoming.body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            } else if let Some(filename) = filename {
                let mime = mime.unwrap_or_else(|| content_type_for(&filename).to_owned());
                incoming.uploads.push((filename, mime, bytes.to_vec()));
            }
        }
        return Ok(incoming);
    }
    let bytes = to_bytes(request.into_body(), MAX_BODY_BYTES)
        .await
        .map_err(|e| e.to_string())?;
    incoming.body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok(incoming)
}

fn header_text(request: &Request, name: header::HeaderName) -> Option<String> {
    request
        .headers()
        .get(name)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

fn respond(shared: &Shared, incoming: &Incoming, reply: Reply) -> Response {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = match reply.body {
        Some(body) => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response(),
        None => (status, Body::empty()).into_response(),
    };
    let mut headers = reply.headers;
    if shared.config.rate_limit_headers && reply.status != 429 {
        headers.extend(rate_limit_headers(&incoming.path));
    }
    for (name, value) in headers {
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}

/// Headers shaped like Discord's, for a bucket per top-level resource.
fn rate_limit_headers(path: &str) -> Vec<(&'static str, String)> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64();
    let bucket: String = path.split('/').take(3).collect::<Vec<_>>().join("-");
    vec![
        ("x-ratelimit-limit", "5".to_owned()),
        ("x-ratelimit-remaining", "4".to_owned()),
        ("x-ratelimit-reset", format!("{:.3}", now + 1.0)),
        ("x-ratelimit-reset-after", "1.000".to_owned()),
        ("x-ratelimit-bucket", format!("fake{bucket}")),
    ]
}

fn serve_file(shared: &Shared, rest: &str) -> Response {
    let id = rest.split('/').next().and_then(|id| id.parse::<u64>().ok());
    let file = id.and_then(|id| shared.read(|inner| inner.files.get(&id).cloned()));
    match file {
        Some((meta, bytes)) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, meta.content_type)],
            bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such attachment").into_response(),
    }
}

/// The MIME type the CDN answers for a file name.
pub(crate) fn content_type_for(filename: &str) -> &'static str {
    let extension = filename
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "bas" | "ghul" | "txt" | "md" => "text/plain; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

/// Stores a file for the CDN route and returns its record.
pub(crate) fn store_file(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    filename: &str,
    content_type: &str,
    bytes: Vec<u8>,
) -> CdnFile {
    let id = inner.next_id();
    let file = CdnFile {
        id,
        filename: filename.to_owned(),
        size: bytes.len() as u64,
        content_type: content_type.to_owned(),
        url: format!("{}/attachments/{id}/{filename}", ctx.base_url),
    };
    inner.files.insert(id, (file.clone(), bytes));
    file
}

fn route(inner: &mut Inner, ctx: &Ctx<'_>, req: &Incoming) -> Reply {
    let segments: Vec<&str> = req.path.trim_start_matches('/').split('/').collect();
    if let Some(reply) = scripted_rate_limit(inner, req) {
        if let ["interactions", id, _, "callback"] = segments.as_slice() {
            record_callback(inner, id.parse().unwrap_or(0), &req.body, &reply);
        }
        return reply;
    }
    let token_routes = matches!(segments.first(), Some(&"interactions" | &"webhooks"));
    if !token_routes && !authorized(ctx, req.authorization.as_deref()) {
        inner.violate(
            Rule::Unauthorized,
            &req.source(),
            "missing or wrong bot token",
        );
        return Reply::error(401, 0, "401: Unauthorized");
    }
    let uploads = req
        .uploads
        .iter()
        .map(|(name, _, bytes)| (name.as_str(), bytes.len() as u64));
    if let Some(detail) = rules::file_too_large(uploads) {
        inner.violate(Rule::AttachmentLimit, &req.source(), detail);
        let reply = Reply::error(413, 40005, "Request entity too large");
        if let ["interactions", id, _, "callback"] = segments.as_slice() {
            record_callback(inner, id.parse().unwrap_or(0), &req.body, &reply);
        }
        return reply;
    }
    let method = req.method.as_str();
    let app = ctx.config.application_id.to_string();
    match (method, segments.as_slice()) {
        ("GET", ["gateway"]) => Reply::ok(json!({"url": gateway_url(ctx.base_url)})),
        ("GET", ["gateway", "bot"]) => Reply::ok(json!({
            "url": gateway_url(ctx.base_url),
            "shards": inner.shards.len(),
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        })),
        ("GET", ["users", "@me"]) => Reply::ok(bot_user(ctx)),
        ("POST", ["users", "@me", "channels"]) => dm_channel(inner, &req.body),
        (_, ["applications", app_id, "commands", rest @ ..]) if *app_id == app => {
            commands(inner, ctx, req, None, rest)
        }
        (
            _,
            [
                "applications",
                app_id,
                "guilds",
                guild,
                "commands",
                rest @ ..,
            ],
        ) if *app_id == app => {
            let guild = guild.parse().ok();
            commands(inner, ctx, req, guild, rest)
        }
        ("POST", ["interactions", id, token, "callback"]) => callback(inner, ctx, req, id, token),
        (_, ["webhooks", app_id, token, rest @ ..]) if *app_id == app => {
            webhook(inner, ctx, req, token, rest)
        }
        ("POST", ["channels", channel, "messages"]) => {
            create_channel_message(inner, ctx, req, channel)
        }
        (_, ["channels", channel, "messages", message]) => {
            channel_message(inner, ctx, req, channel, message)
        }
        ("POST", ["channels", _, "typing"]) => Reply::no_content(),
        ("GET", ["guilds", guild, "channels"]) => {
            let channels = guild
                .parse()
                .ok()
                .and_then(|guild| inner.guild_channels.of_guild(guild));
            channels.map_or_else(|| Reply::error(404, 10004, "Unknown Guild"), Reply::ok)
        }
        ("GET", ["channels", channel]) => {
            let channel = channel
                .parse()
                .ok()
                .and_then(|channel| inner.guild_channels.channel(channel));
            channel.map_or_else(|| Reply::error(404, 10003, "Unknown Channel"), Reply::ok)
        }
        ("GET", ["guilds", guild, "members", user]) => {
            let member = guild
                .parse()
                .ok()
                .zip(user.parse().ok())
                .and_then(|(guild, user)| inner.oauth.member(guild, user));
            member.map_or_else(|| Reply::error(404, 10007, "Unknown Member"), Reply::ok)
        }
        _ => {
            inner.violate(
                Rule::UnknownRoute,
                &req.source(),
                "the fake does not serve this route",
            );
            Reply::error(404, 0, "Unknown route (fake)")
        }
    }
}

fn authorized(ctx: &Ctx<'_>, authorization: Option<&str>) -> bool {
    let Some(expected) = &ctx.config.token else {
        return true;
    };
    authorization.and_then(|value| value.strip_prefix("Bot ")) == Some(expected.as_str())
}

fn scripted_rate_limit(inner: &mut Inner, req: &Incoming) -> Option<Reply> {
    let index = inner
        .rate_limits
        .iter()
        .position(|limit| limit.remaining > 0 && req.path.contains(&limit.path_contains))?;
    let limit = &mut inner.rate_limits[index];
    limit.remaining -= 1;
    let (retry_after, global) = (limit.retry_after, limit.global);
    let body = json!({"message": "You are being rate limited.", "retry_after": retry_after, "global": global, "code": 0});
    let mut reply = Reply::json(429, body);
    reply.headers = vec![
        ("retry-after", format!("{}", retry_after.ceil() as u64)),
        ("x-ratelimit-limit", "1".to_owned()),
        ("x-ratelimit-remaining", "0".to_owned()),
        ("x-ratelimit-reset-after", format!("{retry_after:.3}")),
        (
            "x-ratelimit-scope",
            if global { "global" } else { "user" }.to_owned(),
        ),
    ];
    if global {
        reply
            .headers
            .push(("x-ratelimit-global", "true".to_owned()));
    }
    Some(reply)
}

fn bot_user(ctx: &Ctx<'_>) -> Value {
    let mut user = user_json(ctx.config.bot_user_id, &ctx.config.bot_username, true);
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    user
}

fn dm_channel(inner: &mut Inner, body: &Value) -> Reply {
    let Some(user_id) = body.get("recipient_id").and_then(snowflake) else {
        return Reply::error(400, 50035, "Invalid Form Body");
    };
    let channel_id = match inner.dm_channels.get(&user_id) {
        Some(id) => *id,
        None => {
            let id = inner.next_id();
            inner.dm_channels.insert(user_id, id);
            id
        }
    };
    Reply::ok(json!({
        "id": channel_id.to_string(),
        "type": 1,
        "last_message_id": null,
        "recipients": [user_json(user_id, &format!("user{user_id}"), false)],
    }))
}

/// Application commands: bulk overwrite (PUT), create (POST), list (GET), and one command
/// by id (GET, PATCH, DELETE).
fn commands(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    req: &Incoming,
    guild: Option<u64>,
    rest: &[&str],
) -> Reply {
    let method = req.method.as_str();
    match (method, rest) {
        ("GET", []) => Reply::ok(Value::Array(
            inner.commands.get(&guild).cloned().unwrap_or_default(),
        )),
        ("PUT", []) => {
            let Some(wanted) = req.body.as_array() else {
                return Reply::error(400, 50035, "Invalid Form Body");
            };
            // Discord refuses the whole overwrite for one bad command.
            let problems: Vec<Problem> = wanted
                .iter()
                .enumerate()
                .flat_map(|(index, command)| {
                    registration::check_command(command)
                        .into_iter()
                        .map(move |mut problem| {
                            problem.path = format!("{index}.{}", problem.path);
                            problem
                        })
                })
                .collect();
            if !problems.is_empty() {
                return refuse(inner, "PUT /commands", &problems);
            }
            let existing = inner.commands.get(&guild).cloned().unwrap_or_default();
            let mut stored = Vec::new();
            for command in wanted {
                let same_name = existing
                    .iter()
                    .find(|c| c.get("name") == command.get("name"));
                let id = same_name.and_then(|c| c.get("id")).and_then(snowflake);
                stored.push(complete_command(inner, ctx, command, guild, id));
            }
            inner.commands.insert(guild, stored.clone());
            Reply::ok(Value::Array(stored))
        }
        ("POST", []) => {
            let problems = registration::check_command(&req.body);
            if !problems.is_empty() {
                return refuse(inner, "POST /commands", &problems);
            }
            let list = inner.commands.get(&guild).cloned().unwrap_or_default();
            let position = list
                .iter()
                .position(|c| c.get("name") == req.body.get("name"));
            let id = position
                .and_then(|at| list[at].get("id"))
                .and_then(snowflake);
            let command = complete_command(inner, ctx, &req.body, guild, id);
            let list = inner.commands.entry(guild).or_default();
            match position {
                Some(at) => list[at] = command.clone(),
                None => list.push(command.clone()),
            }
            Reply::json(if position.is_some() { 200 } else { 201 }, command)
        }
        (_, [id]) => {
            let list = inner.commands.entry(guild).or_default();
            let Some(at) = list
                .iter()
                .position(|c| c.get("id").and_then(Value::as_str) == Some(id))
            else {
                return Reply::error(404, 10063, "Unknown application command");
            };
            match method {
                "GET" => Reply::ok(list[at].clone()),
                "DELETE" => {
                    list.remove(at);
                    Reply::no_content()
                }
                "PATCH" => {
                    if let (Value::Object(stored), Value::Object(changes)) =
                        (&mut list[at], &req.body)
                    {
                        for (key, value) in changes {
                            stored.insert(key.clone(), value.clone());
                        }
                    }
                    Reply::ok(list[at].clone())
                }
                _ => Reply::error(405, 0, "405: Method Not Allowed"),
            }
        }
        _ => Reply::error(405, 0, "405: Method Not Allowed"),
    }
}

/// What Discord adds to a command it stores.
fn complete_command(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    command: &Value,
    guild: Option<u64>,
    id: Option<u64>,
) -> Value {
    let id = id.unwrap_or_else(|| inner.next_id());
    let mut stored = command.clone();
    let Value::Object(fields) = &mut stored else {
        return stored;
    };
    fields.insert("id".into(), json!(id.to_string()));
    fields.insert(
        "application_id".into(),
        json!(ctx.config.application_id.to_string()),
    );
    fields.insert("version".into(), json!(inner.next_id().to_string()));
    fields.entry("type").or_insert(json!(1));
    fields.entry("options").or_insert(json!([]));
    fields.entry("description").or_insert(json!(""));
    fields
        .entry("default_member_permissions")
        .or_insert(Value::Null);
    fields.entry("nsfw").or_insert(json!(false));
    if let Some(guild) = guild {
        fields.insert("guild_id".into(), json!(guild.to_string()));
    }
    stored
}

fn message_flags(body: &Value) -> u64 {
    body.get("flags").and_then(Value::as_u64).unwrap_or(0)
}

/// Records each problem as a violation and answers Discord's 400.
fn refuse(inner: &mut Inner, source: &str, problems: &[Problem]) -> Reply {
    for problem in problems {
        inner.violate(
            problem.rule,
            source,
            format!("{}: {}", problem.path, problem.message),
        );
    }
    Reply::json(400, rules::form_error(problems))
}

fn check_new_message(body: &Value, files: usize) -> Vec<Problem> {
    let mut problems = rules::check_message(body);
    problems.extend(rules::check_not_empty(body, files));
    problems.extend(rules::check_attachments(body, files));
    problems
}

/// How many files a message has after an edit that uploads `uploads` new ones (see
/// [`edit_attachments`]).
fn files_after_edit(existing: &[CdnFile], body: &Value, uploads: usize) -> usize {
    let mut kept = existing.to_vec();
    edit_attachments(&mut kept, body, Vec::new());
    kept.len() + uploads
}

/// Applies an edit's files as Discord does: an `attachments` array in the body lists
/// the existing attachments to keep (by id; new uploads are listed by their index), so
/// an existing file it leaves out is removed; without the array every file is kept.
fn edit_attachments(attachments: &mut Vec<CdnFile>, body: &Value, uploaded: Vec<CdnFile>) {
    if let Some(listed) = body.get("attachments").and_then(Value::as_array) {
        let kept: Vec<String> = listed
            .iter()
            .filter_map(|attachment| match &attachment["id"] {
                Value::String(id) => Some(id.clone()),
                Value::Number(id) => Some(id.to_string()),
                _ => None,
            })
            .collect();
        attachments.retain(|file| kept.contains(&file.id.to_string()));
    }
    attachments.extend(uploaded);
}

fn store_uploads(inner: &mut Inner, ctx: &Ctx<'_>, req: &Incoming) -> Vec<CdnFile> {
    let files: Vec<CdnFile> = req
        .uploads
        .iter()
        .map(|(filename, mime, bytes)| store_file(inner, ctx, filename, mime, bytes.clone()))
        .collect();
    inner.requests_files_pending.extend(files.iter().cloned());
    files
}

/// How a new message comes to be.
struct NewMessage<'a> {
    origin: Origin,
    channel_id: u64,
    interaction_id: Option<u64>,
    body: &'a Value,
    files: Vec<CdnFile>,
    flags: u64,
    source: String,
}

fn create_message(inner: &mut Inner, ctx: &Ctx<'_>, new: NewMessage<'_>) -> u64 {
    let id = inner.next_id();
    let reference = new
        .body
        .get("message_reference")
        .filter(|r| !r.is_null())
        .cloned();
    let kind = match (new.origin, &reference) {
        (Origin::Channel, Some(_)) => 19,
        (Origin::Channel, None) => 0,
        _ => 20,
    };
    let parts = MessageParts {
        id,
        channel_id: new.channel_id,
        author: bot_user(ctx),
        content: "",
        kind,
        mentions: Vec::new(),
        attachments: &new.files,
    };
    let mut object = message_json(parts);
    if new.origin != Origin::Channel {
        object["webhook_id"] = json!(ctx.config.application_id.to_string());
        object["application_id"] = json!(ctx.config.application_id.to_string());
    }
    if let Some(reference) = &reference {
        object["message_reference"] = reference.clone();
    }
    let message = SentMessage {
        id,
        channel_id: new.channel_id,
        origin: new.origin,
        interaction_id: new.interaction_id,
        content: String::new(),
        embeds: Vec::new(),
        components: Vec::new(),
        allowed_mentions: None,
        flags: new.flags,
        message_reference: reference,
        attachments: new.files,
        pings: Vec::new(),
        edits: 0,
        deleted: false,
        object,
    };
    inner.messages.insert(id, message);
    write_message(inner, ctx, id, new.body, &new.source, false);
    id
}

/// Applies the message fields present in `body` to message `id`, and checks its pings.
fn write_message(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    id: u64,
    body: &Value,
    source: &str,
    is_edit: bool,
) {
    let Some(message) = inner.messages.get_mut(&id) else {
        return;
    };
    if let Some(content) = body.get("content").and_then(Value::as_str) {
        message.content = content.to_owned();
    }
    if let Some(embeds) = body.get("embeds").and_then(Value::as_array) {
        message.embeds = embeds.clone();
    }
    if let Some(components) = body.get("components").and_then(Value::as_array) {
        message.components = components.clone();
    }
    message.allowed_mentions = body
        .get("allowed_mentions")
        .filter(|v| !v.is_null())
        .cloned();
    if is_edit {
        message.edits += 1;
        message.object["edited_timestamp"] = json!(timestamp_now());
    }
    message.object["content"] = json!(message.content);
    message.object["embeds"] = json!(message.embeds);
    message.object["components"] = json!(message.components);
    message.object["flags"] = json!(message.flags);
    message.object["attachments"] = json!(
        message
            .attachments
            .iter()
            .map(cdn_file_json)
            .collect::<Vec<_>>()
    );
    // Edits are counted like new messages: stricter than Discord, which notifies only
    // on creation, so a test cannot pass by pinging through an edit of a deferred reply.
    let is_reply = message.message_reference.is_some();
    message.pings = rules::pings(
        &message.content,
        message.allowed_mentions.as_ref(),
        is_reply,
    );
    if let Some(detail) = rules::forbidden_pings(ctx.config.mention_policy, &message.pings) {
        inner.violate(Rule::WouldPing, source, detail);
    }
}

fn create_channel_message(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    req: &Incoming,
    channel: &str,
) -> Reply {
    let Ok(channel_id) = channel.parse::<u64>() else {
        return Reply::error(404, 10003, "Unknown Channel");
    };
    if let Some(reply) = forbidden(inner, req, channel_id, !req.uploads.is_empty()) {
        return reply;
    }
    let mut problems = check_new_message(&req.body, req.uploads.len());
    let body = match reply_target(inner, &req.body) {
        Ok(body) => body,
        Err(problem) => {
            problems.push(problem);
            req.body.clone()
        }
    };
    if !problems.is_empty() {
        return refuse(inner, &req.source(), &problems);
    }
    let files = store_uploads(inner, ctx, req);
    let new = NewMessage {
        origin: Origin::Channel,
        channel_id,
        interaction_id: None,
        body: &body,
        files,
        flags: message_flags(&req.body) & !FLAG_EPHEMERAL,
        source: req.source(),
    };
    let id = create_message(inner, ctx, new);
    Reply::ok(inner.messages[&id].object.clone())
}

fn channel_message(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    req: &Incoming,
    channel: &str,
    message: &str,
) -> Reply {
    let found = message.parse::<u64>().ok().filter(|id| {
        inner
            .messages
            .get(id)
            .is_some_and(|m| !m.deleted && m.channel_id.to_string() == channel)
    });
    let Some(id) = found else {
        return Reply::error(404, 10008, "Unknown Message");
    };
    let channel_id = channel.parse::<u64>().unwrap_or(0);
    if let Some(reply) = forbidden(inner, req, channel_id, false) {
        return reply;
    }
    edit_get_delete(inner, ctx, req, id)
}

/// Discord's 403 for a channel message where the bot lacks a permission the request
/// needs (only PATCH, GET and DELETE of its own messages need View Channel alone).
fn forbidden(inner: &mut Inner, req: &Incoming, channel_id: u64, has_files: bool) -> Option<Reply> {
    let channel = *inner.channels.get(&channel_id)?;
    let (missing, code) = if req.method == "POST" {
        rules::missing_permission(channel.permissions, channel.is_thread, &req.body, has_files)?
    } else if channel.permissions & crate::payloads::permissions::VIEW_CHANNEL == 0 {
        ("View Channel", 50001)
    } else {
        return None;
    };
    let detail = format!("the bot lacks {missing} in channel {channel_id}");
    inner.violate(Rule::MissingPermissions, &req.source(), detail);
    let message = if code == 50001 {
        "Missing Access"
    } else {
        "Missing Permissions"
    };
    Some(Reply::error(403, code, message))
}

/// The body of a channel message as Discord takes it: a reply to a message that is gone
/// is refused, unless it says `fail_if_not_exists: false`, when it is sent as a plain
/// message.
fn reply_target(inner: &Inner, body: &Value) -> Result<Value, Problem> {
    let Some(reference) = body.get("message_reference").filter(|r| !r.is_null()) else {
        return Ok(body.clone());
    };
    let target = reference.get("message_id").and_then(snowflake);
    let exists = target.is_some_and(|id| {
        inner.user_messages.get(&id) == Some(&false)
            || inner.messages.get(&id).is_some_and(|m| !m.deleted)
    });
    if exists {
        return Ok(body.clone());
    }
    let must_exist = reference
        .get("fail_if_not_exists")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    if must_exist {
        return Err(Problem {
            rule: Rule::UnknownReference,
            path: "message_reference".into(),
            code: "REPLIES_UNKNOWN_MESSAGE",
            message: "Unknown message".into(),
        });
    }
    let mut plain = body.clone();
    if let Value::Object(fields) = &mut plain {
        fields.remove("message_reference");
    }
    Ok(plain)
}

/// GET, PATCH or DELETE of a message the bot sent.
fn edit_get_delete(inner: &mut Inner, ctx: &Ctx<'_>, req: &Incoming, id: u64) -> Reply {
    match req.method.as_str() {
        "GET" => Reply::ok(inner.messages[&id].object.clone()),
        "DELETE" => {
            if let Some(message) = inner.messages.get_mut(&id) {
                message.deleted = true;
            }
            Reply::no_content()
        }
        "PATCH" => {
            let existing = &inner.messages[&id].attachments;
            let mut problems = rules::check_message(&req.body);
            problems.extend(rules::check_attachments(
                &req.body,
                files_after_edit(existing, &req.body, req.uploads.len()),
            ));
            if !problems.is_empty() {
                return refuse(inner, &req.source(), &problems);
            }
            let files = store_uploads(inner, ctx, req);
            if let Some(message) = inner.messages.get_mut(&id) {
                edit_attachments(&mut message.attachments, &req.body, files);
                if message.flags & FLAG_LOADING != 0 {
                    message.flags &= !FLAG_LOADING;
                }
            }
            write_message(inner, ctx, id, &req.body, &req.source(), true);
            Reply::ok(inner.messages[&id].object.clone())
        }
        _ => Reply::error(405, 0, "405: Method Not Allowed"),
    }
}

fn record_callback(inner: &mut Inner, interaction_id: u64, body: &Value, reply: &Reply) {
    inner.callbacks.push(Callback {
        interaction_id,
        kind: body.get("type").and_then(Value::as_u64).unwrap_or(0),
        data: body.get("data").cloned().unwrap_or(Value::Null),
        status: reply.status,
        error_code: reply.error_code(),
        received_at: std::time::Instant::now(),
    });
}

fn callback(inner: &mut Inner, ctx: &Ctx<'_>, req: &Incoming, id: &str, token: &str) -> Reply {
    let interaction_id = id.parse::<u64>().unwrap_or(0);
    let reply = answer_callback(inner, ctx, req, interaction_id, token);
    record_callback(inner, interaction_id, &req.body, &reply);
    reply
}

fn answer_callback(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    req: &Incoming,
    interaction_id: u64,
    token: &str,
) -> Reply {
    let source = req.source();
    let unknown = || Reply::error(404, 10062, "Unknown interaction");
    let Some(state) = inner
        .interactions
        .get(&interaction_id)
        .filter(|s| s.token == token)
        .cloned()
    else {
        inner.violate(
            Rule::UnknownInteraction,
            &source,
            "no interaction with this id and token was sent",
        );
        return unknown();
    };
    if state.acked.is_some() {
        inner.violate(
            Rule::AlreadyAcknowledged,
            &source,
            "a second callback for one interaction",
        );
        return Reply::error(400, 40060, "Interaction has already been acknowledged.");
    }
    let Some(sent_at) = state.sent_at else {
        inner.violate(
            Rule::UnknownInteraction,
            &source,
            "the interaction is still queued, the bot cannot know it",
        );
        return unknown();
    };
    let elapsed = inner.now().saturating_duration_since(sent_at);
    if elapsed > ctx.config.interaction_deadline {
        let detail = format!(
            "first callback {elapsed:?} after the interaction, deadline {:?}",
            ctx.config.interaction_deadline
        );
        inner.violate(Rule::InteractionDeadline, &source, detail);
        return unknown();
    }
    let kind = req.body.get("type").and_then(Value::as_u64).unwrap_or(0);
    let data = req.body.get("data").cloned().unwrap_or(Value::Null);
    if !rules::response_allowed(state.kind, kind) {
        let message = format!(
            "callback type {kind} is not allowed for interaction type {}",
            state.kind
        );
        let problem = Problem {
            rule: Rule::ResponseTypeNotAllowed,
            path: "type".into(),
            code: "INTERACTION_RESPONSE_TYPE_INVALID",
            message,
        };
        return refuse(inner, &source, &[problem]);
    }
    let problems = match kind {
        rules::RESPONSE_MESSAGE => check_new_message(&data, req.uploads.len()),
        rules::RESPONSE_UPDATE => {
            let existing = state
                .component_message
                .and_then(|id| inner.messages.get(&id))
                .map_or(&[][..], |m| m.attachments.as_slice());
            let mut problems = rules::check_message(&data);
            problems.extend(rules::check_attachments(
                &data,
                files_after_edit(existing, &data, req.uploads.len()),
            ));
            problems
        }
        rules::RESPONSE_AUTOCOMPLETE => rules::check_autocomplete(&data),
        rules::RESPONSE_MODAL => rules::check_modal(&data),
        _ => Vec::new(),
    };
    if !problems.is_empty() {
        return refuse(inner, &source, &problems);
    }
    let original = match kind {
        rules::RESPONSE_MESSAGE | rules::RESPONSE_DEFERRED_MESSAGE => {
            let deferred = kind == rules::RESPONSE_DEFERRED_MESSAGE;
            let ephemeral = message_flags(&data) & FLAG_EPHEMERAL;
            let placeholder = json!({"allowed_mentions": {"parse": []}});
            let new = NewMessage {
                origin: Origin::InteractionResponse,
                channel_id: state.channel_id,
                interaction_id: Some(interaction_id),
                body: if deferred { &placeholder } else { &data },
                files: if deferred {
                    Vec::new()
                } else {
                    store_uploads(inner, ctx, req)
                },
                flags: if deferred {
                    ephemeral | FLAG_LOADING
                } else {
                    message_flags(&data)
                },
                source: source.clone(),
            };
            Some(create_message(inner, ctx, new))
        }
        rules::RESPONSE_DEFERRED_UPDATE => state.component_message,
        rules::RESPONSE_UPDATE => {
            if let Some(id) = state
                .component_message
                .filter(|id| inner.messages.contains_key(id))
            {
                let files = store_uploads(inner, ctx, req);
                if let Some(message) = inner.messages.get_mut(&id) {
                    edit_attachments(&mut message.attachments, &data, files);
                }
                write_message(inner, ctx, id, &data, &source, true);
            }
            state.component_message
        }
        _ => None,
    };
    if let Some(stored) = inner.interactions.get_mut(&interaction_id) {
        stored.acked = Some(kind);
        stored.original = original;
        stored.defer_pending = kind == rules::RESPONSE_DEFERRED_MESSAGE;
    }
    Reply::no_content()
}

/// Follow-ups and edits through an interaction token: `POST /webhooks/{app}/{token}`,
/// `.../messages/@original` and `.../messages/{id}`.
fn webhook(inner: &mut Inner, ctx: &Ctx<'_>, req: &Incoming, token: &str, rest: &[&str]) -> Reply {
    let source = req.source();
    let found = inner
        .interactions
        .iter()
        .find(|(_, s)| s.token == token)
        .map(|(id, s)| (*id, s.clone()));
    let Some((interaction_id, state)) = found else {
        inner.violate(
            Rule::UnknownInteraction,
            &source,
            "no interaction has this token",
        );
        return Reply::error(404, 10015, "Unknown Webhook");
    };
    if let Some(reply) = token_expired(inner, ctx, &state, &source) {
        return reply;
    }
    if state.acked.is_none() {
        inner.violate(
            Rule::UnknownMessage,
            &source,
            "follow-up or edit before the interaction was acknowledged",
        );
        return Reply::error(404, 10015, "Unknown Webhook");
    }
    match (req.method.as_str(), rest) {
        ("POST", []) => followup(inner, ctx, req, interaction_id, &state),
        (_, ["messages", "@original"]) => {
            let Some(id) = state
                .original
                .filter(|id| inner.messages.get(id).is_some_and(|m| !m.deleted))
            else {
                inner.violate(
                    Rule::UnknownMessage,
                    &source,
                    "there is no original response to this interaction",
                );
                return Reply::error(404, 10008, "Unknown Message");
            };
            if req.method == "PATCH"
                && let Some(stored) = inner.interactions.get_mut(&interaction_id)
            {
                stored.defer_pending = false;
            }
            edit_get_delete(inner, ctx, req, id)
        }
        (_, ["messages", message]) => {
            let found = message.parse::<u64>().ok().filter(|id| {
                inner
                    .messages
                    .get(id)
                    .is_some_and(|m| !m.deleted && m.interaction_id == Some(interaction_id))
            });
            let Some(id) = found else {
                inner.violate(
                    Rule::UnknownMessage,
                    &source,
                    "no such follow-up of this interaction",
                );
                return Reply::error(404, 10008, "Unknown Message");
            };
            edit_get_delete(inner, ctx, req, id)
        }
        _ => {
            inner.violate(
                Rule::UnknownRoute,
                &source,
                "the fake does not serve this webhook route",
            );
            Reply::error(404, 0, "Unknown route (fake)")
        }
    }
}

fn token_expired(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    state: &InteractionState,
    source: &str,
) -> Option<Reply> {
    let sent_at = state.sent_at?;
    let age = inner.now().saturating_duration_since(sent_at);
    if age <= ctx.config.token_lifetime {
        return None;
    }
    inner.violate(
        Rule::TokenExpired,
        source,
        format!("interaction token used {age:?} after the interaction"),
    );
    Some(Reply::error(401, 50027, "Invalid Webhook Token"))
}

/// A follow-up; the first one after a type-5 defer replaces the "thinking" placeholder
/// (Discord's deprecated behaviour: it edits the original, ignoring the ephemeral flag).
fn followup(
    inner: &mut Inner,
    ctx: &Ctx<'_>,
    req: &Incoming,
    interaction_id: u64,
    state: &InteractionState,
) -> Reply {
    let source = req.source();
    let problems = check_new_message(&req.body, req.uploads.len());
    if !problems.is_empty() {
        return refuse(inner, &source, &problems);
    }
    let original = state.original.filter(|id| inner.messages.contains_key(id));
    if let (true, Some(id)) = (state.defer_pending, original) {
        if let Some(stored) = inner.interactions.get_mut(&interaction_id) {
            stored.defer_pending = false;
        }
        let files = store_uploads(inner, ctx, req);
        if let Some(message) = inner.messages.get_mut(&id) {
            message.flags &= !FLAG_LOADING;
            edit_attachments(&mut message.attachments, &req.body, files);
        }
        write_message(inner, ctx, id, &req.body, &source, true);
        return Reply::ok(inner.messages[&id].object.clone());
    }
    let files = store_uploads(inner, ctx, req);
    let new = NewMessage {
        origin: Origin::Followup,
        channel_id: state.channel_id,
        interaction_id: Some(interaction_id),
        body: &req.body,
        files,
        flags: message_flags(&req.body),
        source,
    };
    let id = create_message(inner, ctx, new);
    Reply::ok(inner.messages[&id].object.clone())
}
