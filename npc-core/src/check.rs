//! Install-time checks that need the whole file (B2, B3, B5, B6, K3), and the
//! assembly of the checked tables into a [`Script`].
//!
//! Every graph walk here is iterative: a chain of thousands of calls or imports
//! must not overflow the stack of the host that installs it.

use std::collections::HashMap;

use crate::error::{LoadError, LoadErrorKind, MessageId};
use crate::limits::Limits;
use crate::parser::{Parsed, RefKind, Site, Slot};
use crate::script::{BlockId, Conv, Keyword, Resp, Script, Stmt};

/// Names at most this many tags of a cycle in its message.
const CYCLE_NAMES_SHOWN: usize = 8;

pub(crate) fn check(parsed: &Parsed, errors: &mut Vec<LoadError>) {
    unknown_references(parsed, errors);

    let import_edges: Vec<Vec<Site>> = parsed
        .convs
        .iter()
        .map(|slot| match slot {
            Slot::Defined(draft) => draft.imports.clone(),
            _ => Vec::new(),
        })
        .collect();
    for (site, path) in cycles(&import_edges, &parsed.conv_names) {
        errors.push(LoadError::said(
            LoadErrorKind::ImportCycle,
            site.line,
            site.column,
            MessageId::ImportCycle,
            [("path", path.into())],
        ));
    }

    let call_edges: Vec<Vec<Site>> = parsed
        .resps
        .iter()
        .map(|slot| match slot {
            Slot::Defined(draft) => draft.calls.clone(),
            _ => Vec::new(),
        })
        .collect();
    let resp_names: Vec<String> = parsed.resp_names.iter().map(|n| format!("${n}")).collect();
    for (site, path) in cycles(&call_edges, &resp_names) {
        errors.push(LoadError::said(
            LoadErrorKind::CallCycle,
            site.line,
            site.column,
            MessageId::CallCycle,
            [("path", path.into())],
        ));
    }

    for slot in &parsed.convs {
        if let Slot::Defined(draft) = slot {
            unreachable_keywords(&draft.native, errors);
        }
    }

    endless_menus(parsed, &call_edges, errors);
}

fn unknown_references(parsed: &Parsed, errors: &mut Vec<LoadError>) {
    for reference in &parsed.references {
        let site = reference.site;
        let target = site.target as usize;
        let (missing, name) = match reference.kind {
            RefKind::Import => (
                matches!(parsed.convs.get(target), Some(Slot::Missing)),
                parsed.conv_names.get(target),
            ),
            RefKind::NativeTarget | RefKind::Call => (
                matches!(parsed.resps.get(target), Some(Slot::Missing)),
                parsed.resp_names.get(target),
            ),
        };
        if !missing {
            continue;
        }
        let name = name.map(String::as_str).unwrap_or("?");
        let id = match reference.kind {
            RefKind::Import => MessageId::UnknownConversation,
            RefKind::NativeTarget => MessageId::UnknownNativeResponse,
            RefKind::Call => MessageId::UnknownCalledResponse,
        };
        errors.push(LoadError::said(
            LoadErrorKind::UnknownTag,
            site.line,
            site.column,
            id,
            [("tag", name.into())],
        ));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Color {
    Unvisited,
    OnPath,
    Done,
}

/// Every edge that closes a cycle, with the cycle spelled out (`a -> b -> a`).
fn cycles(edges: &[Vec<Site>], names: &[String]) -> Vec<(Site, String)> {
    let mut found = Vec::new();
    let mut color = vec![Color::Unvisited; edges.len()];
    for root in 0..edges.len() {
        if color.get(root) != Some(&Color::Unvisited) {
            continue;
        }
        color[root] = Color::OnPath;
        let mut path: Vec<(usize, usize)> = vec![(root, 0)];
        while let Some((node, next_edge)) = path.last_mut() {
            let node = *node;
            let Some(site) = edges
                .get(node)
                .and_then(|list| list.get(*next_edge))
                .copied()
            else {
                if let Some(c) = color.get_mut(node) {
                    *c = Color::Done;
                }
                path.pop();
                continue;
            };
            *next_edge += 1;
            let target = site.target as usize;
            match color.get(target) {
                Some(Color::Unvisited) => {
                    color[target] = Color::OnPath;
                    path.push((target, 0));
                }
                Some(Color::OnPath) => {
                    let start = path.iter().position(|&(n, _)| n == target).unwrap_or(0);
                    let members: Vec<usize> = path
                        .get(start..)
                        .unwrap_or(&[])
                        .iter()
                        .map(|&(n, _)| n)
                        .collect();
                    found.push((site, spell_cycle(&members, target, names)));
                }
                _ => {}
            }
        }
    }
    found
}

fn spell_cycle(members: &[usize], back_to: usize, names: &[String]) -> String {
    let name = |index: usize| names.get(index).map(String::as_str).unwrap_or("?");
    let mut parts: Vec<&str> = members
        .iter()
        .take(CYCLE_NAMES_SHOWN)
        .map(|&index| name(index))
        .collect();
    if members.len() > CYCLE_NAMES_SHOWN {
        parts.push("...");
    }
    parts.push(name(back_to));
    parts.join(" -> ")
}

fn is_special(lower: &str) -> bool {
    matches!(lower, "hail" | "default" | "bye")
}

/// K3: a keyword whose first four letters an earlier keyword of the same block
/// already has can never be reached by the player; it is still reached when it
/// is HAIL, DEFAULT or BYE (looked up in full by the engine) and no earlier
/// keyword has that full name.
fn unreachable_keywords(native: &[Keyword], errors: &mut Vec<LoadError>) {
    let mut first_with_key: HashMap<&str, &Keyword> = HashMap::new();
    let mut full_names: HashMap<&str, ()> = HashMap::new();
    for keyword in native {
        if let Some(earlier) = first_with_key.get(keyword.key.as_str()) {
            let engine_reaches =
                is_special(&keyword.lower) && !full_names.contains_key(keyword.lower.as_str());
            if !engine_reaches {
                errors.push(LoadError::said(
                    LoadErrorKind::UnreachableKeyword,
                    keyword.line,
                    keyword.column,
                    MessageId::UnreachableKeyword,
                    [
                        ("keyword", keyword.text.as_str().into()),
                        ("earlier", earlier.text.as_str().into()),
                        ("line", earlier.line.into()),
                    ],
                ));
            }
        } else {
            first_with_key.insert(keyword.key.as_str(), keyword);
        }
        full_names.insert(keyword.lower.as_str(), ());
    }
}

/// Visits every statement under `root` (branches and menu choices included)
/// with its menu level relative to `root`; stops as soon as `visit` says true.
fn any_statement(
    parsed: &Parsed,
    root: BlockId,
    mut visit: impl FnMut(&Stmt, u32) -> bool,
) -> bool {
    let mut pending: Vec<(BlockId, u32)> = vec![(root, 0)];
    while let Some((block, level)) = pending.pop() {
        let Some(statements) = parsed.blocks.get(block as usize) else {
            continue;
        };
        for statement in statements {
            if visit(statement, level) {
                return true;
            }
            if let Some((yes, no)) = statement.branches() {
                pending.push((yes, level));
                pending.push((no, level));
            }
            if let Stmt::Menu(menu) = statement
                && let Some(menu) = parsed.menus.get(*menu as usize)
            {
                pending.extend(menu.choices.iter().map(|c| (c.body, level + 1)));
            }
        }
    }
    false
}

fn ends_conversation(statement: &Stmt) -> bool {
    matches!(statement, Stmt::Exit | Stmt::TurnAway | Stmt::Attack)
}

/// B5: every MENU needs a choice from which a BREAK at its own level, an EXIT,
/// a TURN_AWAY or an ATTACK can be reached, following calls.
fn endless_menus(parsed: &Parsed, call_edges: &[Vec<Site>], errors: &mut Vec<LoadError>) {
    // Which responses can end the conversation, directly or through calls.
    let mut can_end: Vec<bool> = parsed
        .resps
        .iter()
        .map(|slot| match slot {
            Slot::Defined(draft) => any_statement(parsed, draft.body, |s, _| ends_conversation(s)),
            _ => false,
        })
        .collect();
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); call_edges.len()];
    for (caller, sites) in call_edges.iter().enumerate() {
        for site in sites {
            if let Some(list) = callers.get_mut(site.target as usize) {
                list.push(caller);
            }
        }
    }
    let mut pending: Vec<usize> = (0..can_end.len()).filter(|&r| can_end[r]).collect();
    while let Some(resp) = pending.pop() {
        for &caller in callers.get(resp).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(flag) = can_end.get_mut(caller)
                && !*flag
            {
                *flag = true;
                pending.push(caller);
            }
        }
    }

    for menu in &parsed.menus {
        if menu.choices.is_empty() {
            continue;
        }
        let leaves = menu.choices.iter().any(|choice| {
            any_statement(parsed, choice.body, |statement, level| match statement {
                Stmt::Break => level == 0,
                Stmt::Call(resp) => can_end.get(*resp as usize).copied().unwrap_or(false),
                other => ends_conversation(other),
            })
        });
        if !leaves {
            errors.push(LoadError::said(
                LoadErrorKind::EndlessMenu,
                menu.line,
                menu.column,
                MessageId::EndlessMenu,
                [],
            ));
        }
    }
}

/// Turns checked tables into a script; `None` if anything is still undefined
/// (which the checks have reported).
pub(crate) fn build(parsed: Parsed, hash: u64, limits: &Limits) -> Option<Script> {
    let mut convs = Vec::with_capacity(parsed.convs.len());
    for (slot, tag) in parsed.convs.into_iter().zip(parsed.conv_names) {
        let Slot::Defined(draft) = slot else {
            return None;
        };
        convs.push(Conv {
            tag,
            line: draft.line,
            imports: draft.imports.iter().map(|site| site.target).collect(),
            native: draft.native,
        });
    }
    let mut resps = Vec::with_capacity(parsed.resps.len());
    for slot in parsed.resps {
        let Slot::Defined(draft) = slot else {
            return None;
        };
        resps.push(Resp { body: draft.body });
    }
    Some(Script {
        hash,
        limits: limits.clone(),
        convs,
        resps,
        blocks: parsed.blocks,
        menus: parsed.menus,
        trades: parsed.trades,
        effect_refs: parsed.effect_refs,
    })
}
