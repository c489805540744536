//! The house's arrows, read from the source tree (issue 24): shared code lives in rooms
//! below the command modules, so imports point one way.
//!
//! - `engine/` and `i18n/` never reach up into `core` (they sit below it);
//! - the rooms of `core` (guards, dates, names, roll preparation, …) import no command
//!   module;
//! - no command module reaches into another: no import, no path, and no call of a
//!   method another command module adds to `Context` (a call needs no import, so the
//!   methods are read too; a room calling one is refused as well); shared work is a
//!   room's;
//! - no circle of imports spans command modules;
//! - no `.rs` file of the workspace is over 1,500 lines.
//!
//! The import graph is built from the text of `bot/src/core/`: `super::X` and
//! `crate::core::X` paths (and `use` groups of them), comments left out. A module
//! folder (`encounter/`) is one node. The methods are read as rustfmt lays them out:
//! `impl Context {` and its closing `}` at the start of a line, each method four
//! spaces in.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Shared concerns below the commands: they may import each other, never a command.
const ROOMS: &[&str] = &[
    "access",
    "authoring",
    "characters",
    "combatants",
    "context",
    "custom_id",
    "dates",
    "fields",
    "fit",
    "gen_reason",
    "language",
    "limits",
    "live",
    "macro_advantage",
    "macro_choices",
    "model",
    "naming",
    "playing",
    "prepare",
    "record_map",
    "reply_routes",
    "roll_line",
    "scripts",
    "turn",
];

/// The command table and its public face: above every command (it lists them), so
/// neither a room nor a command in the graph.
const REGISTRY: &[&str] = &["table", "commands"];

/// The longest a source file may be.
const MAX_FILE_LINES: usize = 1500;

/// Files over the limit whose split waits for work in progress on them (issue 24):
/// each may not grow past the length it had when listed, and leaves the list once
/// split.
const NOT_YET_SPLIT: &[(&str, usize)] = &[];

fn bot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                // Build output and the VCS are not source.
                if name != "target" && name != ".git" && name != "node_modules" {
                    pending.push(path);
                }
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text without `//` comments (doc comments name paths that are not imports).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident_char(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || ch == '_'
}

/// The first segments of the paths after each `prefix` (`prefix` then `name` or
/// `{a, b::c, d::{e}}`), where `prefix` is not the tail of a longer path.
fn first_segments(text: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(prefix) {
        let start = from + found;
        from = start + prefix.len();
        let before = text[..start].chars().next_back();
        if before.is_some_and(|ch| is_ident_char(ch) || ch == ':') {
            continue;
        }
        let rest = &text[from..];
        if let Some(group) = rest.strip_prefix('{') {
            names.extend(group_heads(group));
            continue;
        }
        let name: String = rest.chars().take_while(|&ch| is_ident_char(ch)).collect();
        // `super::super::x` from a nested file is read by its own prefix.
        if !name.is_empty() && name != "super" {
            names.insert(name);
        }
    }
    names
}

/// The first segment of each path of a `use` group, up to its closing brace.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_start = true;
    let mut word = String::new();
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                if !word.is_empty() {
                    heads.push(std::mem::take(&mut word));
                }
                at_start = true;
            }
            _ if depth == 0 && at_start && is_ident_char(ch) => word.push(ch),
            _ if depth == 0 && at_start && !word.is_empty() => {
                heads.push(std::mem::take(&mut word));
                at_start = false;
            }
            _ => {}
        }
    }
    if at_start && !word.is_empty() {
        heads.push(word);
    }
    heads
}

/// The top-level modules of `core` (a folder is one) and the modules each imports.
fn core_imports() -> BTreeMap<String, BTreeSet<String>> {
    let core = bot_dir().join("src/core");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&core) {
        let relative = file.strip_prefix(&core).unwrap();
        let parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        let module = parts[0].trim_end_matches(".rs").to_owned();
        if module == "mod" {
            // The root of `core` is above everything it declares.
            continue;
        }
        // How `core` is spelled relative to this file.
        let is_folder_root = parts.len() == 2 && parts[1] == "mod.rs";
        let to_core = match parts.len() {
            1 => "super::".to_owned(),
            _ if is_folder_root => "super::".to_owned(),
            depth => "super::".repeat(depth),
        };
        let text = without_comments(&fs::read_to_string(&file).unwrap());
        let mut imports = first_segments(&text, &to_core);
        imports.extend(first_segments(&text, "crate::core::"));
        graph.entry(module).or_default().extend(imports);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, imports) in &mut graph {
        imports.retain(|import| modules.contains(import) && import != module);
    }
    graph
}

/// Each top-level module of `core` (a folder is one) with its files' text, comments
/// left out; the root (`mod.rs`) is above everything it declares and not among them.
fn core_sources() -> BTreeMap<String, Vec<String>> {
    let core = bot_dir().join("src/core");
    let mut modules: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in rust_files(&core) {
        let relative = file.strip_prefix(&core).unwrap();
        let first = relative.iter().next().unwrap().to_string_lossy();
        let module = first.trim_end_matches(".rs").to_owned();
        if module == "mod" {
            continue;
        }
        let text = without_comments(&fs::read_to_string(&file).unwrap());
        modules.entry(module).or_default().push(text);
    }
    modules
}

/// The methods `text` adds to `Context` that other modules may call: those with a
/// `pub` of any reach (a private one is its module's own, as the compiler holds).
fn visible_context_methods(text: &str) -> Vec<String> {
    let mut methods = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("impl Context {") {
            inside = true;
            continue;
        }
        if line.starts_with('}') {
            inside = false;
            continue;
        }
        let Some(rest) = line.strip_prefix("    pub").filter(|_| inside) else {
            continue;
        };
        // `pub`, `pub(super)`, `pub(crate)`, `pub(in crate::core)`, then the fn.
        let rest = match rest.strip_prefix('(') {
            Some(reach) => reach.split_once(')').map_or("", |(_, after)| after),
            None => rest,
        };
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("async ").unwrap_or(rest);
        let Some(name) = rest.strip_prefix("fn ") else {
            continue;
        };
        let name: String = name.chars().take_while(|&ch| is_ident_char(ch)).collect();
        methods.push(name);
    }
    methods
}

/// Whether `text` calls method `name` (`x.name(`, `x.name::<`, `Context::name`).
fn calls_method(text: &str, name: &str) -> bool {
    let mut from = 0;
    while let Some(found) = text[from..].find(name) {
        let start = from + found;
        from = start + name.len();
        let before = &text[..start];
        let after = &text[from..];
        let is_call = before.ends_with('.') && (after.starts_with('(') || after.starts_with("::<"));
        let is_path = (before.ends_with("Context::") || before.ends_with("Self::"))
            && !after.starts_with(is_ident_char);
        if is_call || is_path {
            return true;
        }
    }
    false
}

/// Command modules: every module of `core` but the rooms and the table.
fn command_modules(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    graph
        .keys()
        .filter(|module| !ROOMS.contains(&module.as_str()) && !REGISTRY.contains(&module.as_str()))
        .cloned()
        .collect()
}

/// Every elementary circle among `nodes` of `graph`, each as a path closed on its
/// first module (smallest first, so each circle is listed once).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>, nodes: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    for start in nodes {
        // Depth-first over an explicit stack: the path so far and the next edges.
        let mut path: Vec<&String> = vec![start];
        let mut stack: Vec<Vec<&String>> = vec![next_of(graph, nodes, start, start)];
        while let Some(next) = stack.last_mut() {
            let Some(node) = next.pop() else {
                stack.pop();
                path.pop();
                continue;
            };
            if node == start {
                let mut names: Vec<&str> = path.iter().map(|name| name.as_str()).collect();
                names.push(start);
                found.push(names.join(" -> "));
                continue;
            }
            if path.contains(&node) {
                continue;
            }
            path.push(node);
            stack.push(next_of(graph, nodes, node, start));
        }
    }
    found
}

/// The modules `node` imports among `nodes`, none smaller than `start` (a circle is
/// found from its smallest module only).
fn next_of<'a>(
    graph: &'a BTreeMap<String, BTreeSet<String>>,
    nodes: &BTreeSet<String>,
    node: &str,
    start: &str,
) -> Vec<&'a String> {
    graph
        .get(node)
        .into_iter()
        .flatten()
        .filter(|next| nodes.contains(*next) && next.as_str() >= start)
        .collect()
}

#[test]
fn engine_and_i18n_never_reach_up_into_core() {
    let mut reaching = Vec::new();
    for folder in ["src/engine", "src/i18n"] {
        for file in rust_files(&bot_dir().join(folder)) {
            let text = without_comments(&fs::read_to_string(&file).unwrap());
            if text.contains("crate::core") {
                reaching.push(file.display().to_string());
            }
        }
    }
    assert!(
        reaching.is_empty(),
        "these files import `crate::core`: {reaching:?}"
    );
}

#[test]
fn rooms_import_no_command_module() {
    let graph = core_imports();
    for room in ROOMS {
        assert!(
            graph.contains_key(*room),
            "the room {room} is gone: update ROOMS"
        );
    }
    let mut upward = Vec::new();
    for (module, imports) in &graph {
        if !ROOMS.contains(&module.as_str()) {
            continue;
        }
        for import in imports {
            if !ROOMS.contains(&import.as_str()) {
                upward.push(format!("{module} -> {import}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "rooms import command modules or the table: {upward:?}"
    );
}

#[test]
fn no_command_module_reaches_into_another() {
    let graph = core_imports();
    let commands = command_modules(&graph);
    let sources = core_sources();
    let mut arrows = Vec::new();
    for (module, imports) in &graph {
        if !commands.contains(module) {
            continue;
        }
        for import in imports.intersection(&commands) {
            arrows.push(format!("{module} -> {import} (a path)"));
        }
    }
    for owner in &commands {
        let methods: Vec<String> = sources[owner]
            .iter()
            .flat_map(|text| visible_context_methods(text))
            .collect();
        // A room calling a command's method points up: it counts as much.
        let callers = sources
            .keys()
            .filter(|caller| *caller != owner && !REGISTRY.contains(&caller.as_str()));
        for caller in callers {
            for method in &methods {
                if sources[caller]
                    .iter()
                    .any(|text| calls_method(text, method))
                {
                    arrows.push(format!("{caller} -> {owner} (calls `{method}`)"));
                }
            }
        }
    }
    assert!(
        arrows.is_empty(),
        "modules reaching into a command module (move what they share into a room): {arrows:#?}"
    );
}

#[test]
fn the_method_reader_sees_visible_methods_and_their_calls() {
    let text = "impl Context {\n    pub(super) async fn shared(&self) {}\n    fn own(&self) {}\n    pub(in crate::core) fn wide(&self) {}\n}\nimpl Other {\n    pub fn other(&self) {}\n}";
    assert_eq!(visible_context_methods(text), vec!["shared", "wide"]);
    assert!(calls_method("self.cx.shared(a)", "shared"));
    assert!(calls_method("cx.shared::<u8>()", "shared"));
    assert!(calls_method("run: Context::shared,", "shared"));
    assert!(!calls_method("fn shared(&self)", "shared"));
    assert!(!calls_method("self.unshared()", "shared"));
}

#[test]
fn no_circle_of_imports_spans_command_modules() {
    let graph = core_imports();
    let commands = command_modules(&graph);
    // The graph reads something: the known command modules are in it.
    for command in ["roll", "macros", "chargen", "encounter", "npc"] {
        assert!(
            commands.contains(command),
            "{command} not found in {commands:?}"
        );
    }
    let found = circles(&graph, &commands);
    assert!(
        found.is_empty(),
        "circles of imports between command modules: {found:#?}"
    );
}

#[test]
fn the_graph_reader_sees_grouped_and_single_imports() {
    let text = without_comments(
        "use super::{a, b::{c, d}, e::f};\nuse super::g::h;\n// use super::hidden;\nsuper::super::up; b_super::no",
    );
    let found = first_segments(&text, "super::");
    let expected: BTreeSet<String> = ["a", "b", "e", "g"].map(String::from).into();
    assert_eq!(found, expected);
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(node, next)| {
        (
            node.to_owned(),
            next.into_iter().map(String::from).collect(),
        )
    })
    .collect();
    let nodes: BTreeSet<String> = graph.keys().cloned().collect();
    assert_eq!(circles(&graph, &nodes), vec!["a -> b -> c -> a"]);
}

#[test]
fn no_source_file_is_over_1500_lines() {
    let workspace = bot_dir().parent().unwrap().to_path_buf();
    let mut long = Vec::new();
    for file in rust_files(&workspace) {
        let lines = fs::read_to_string(&file).unwrap().lines().count();
        let shown = file.strip_prefix(&workspace).unwrap_or(&file);
        let shown = shown.to_string_lossy().replace('\\', "/");
        let limit = NOT_YET_SPLIT
            .iter()
            .find(|(path, _)| *path == shown)
            .map_or(MAX_FILE_LINES, |(_, ceiling)| *ceiling);
        if lines > limit {
            long.push(format!("{shown}: {lines} lines (at most {limit})"));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines: {long:?}"
    );
}
