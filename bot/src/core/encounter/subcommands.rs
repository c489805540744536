//! The subcommands of `/init` with their guards, as the command table dispatches
//! them: every one belongs to a server; adding monsters, going back a turn and
//! ending are for the encounter's GM (or Tavern's admins). Who may act on which
//! combatant depends on the turn, so those checks stay in the handlers.

use super::end::end_question;
use super::{Asker, Loaded, init_list, meant_combatant};
use crate::core::context::Context;
use crate::core::table::{Answer, Guard, Subcommand};
use crate::core::{Command, Request, ephemeral};
use crate::i18n;

/// A subcommand's work on the channel's encounter, with who asks.
type OnEncounter = for<'a> fn(&'a Context, &'a Request, &'a Command, Loaded, Asker) -> Answer<'a>;

/// Every subcommand of `/init`: in a server only.
const ON_SERVER: &[Guard] = &[Guard::GuildOnly];

/// `/init` without a subcommand shows the encounter, as `list` does.
pub(super) const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: None,
        guards: ON_SERVER,
        run: list,
    },
    Subcommand {
        name: Some("begin"),
        guards: ON_SERVER,
        run: |cx, request, _| Box::pin(cx.init_begin(request)),
    },
    Subcommand {
        name: Some("join"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(
                cx,
                request,
                command,
                |cx, request, command, loaded, asker| {
                    let (character, init) = (typed(command, "character"), typed(command, "init"));
                    Box::pin(
                        async move { cx.init_join(request, loaded, &asker, character, init).await },
                    )
                },
            )
        },
    },
    Subcommand {
        name: Some("add"),
        guards: &[
            Guard::GuildOnly,
            Guard::EncounterGm {
                refusal_key: "encounter-gm-only-add",
            },
        ],
        run: |cx, request, command| {
            on_encounter(cx, request, command, |cx, _, command, loaded, asker| {
                Box::pin(async move { cx.init_add(loaded, &asker, command).await })
            })
        },
    },
    Subcommand {
        name: Some("attack"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(
                cx,
                request,
                command,
                |cx, request, command, loaded, asker| {
                    Box::pin(async move { cx.init_attack(request, loaded, &asker, command).await })
                },
            )
        },
    },
    Subcommand {
        name: Some("save"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(
                cx,
                request,
                command,
                |cx, request, command, loaded, asker| {
                    Box::pin(async move { cx.init_save(request, loaded, &asker, command).await })
                },
            )
        },
    },
    Subcommand {
        name: Some("next"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(cx, request, command, |cx, _, _, loaded, asker| {
                Box::pin(async move { cx.init_next(loaded, &asker, None).await })
            })
        },
    },
    Subcommand {
        name: Some("prev"),
        guards: &[
            Guard::GuildOnly,
            Guard::EncounterGm {
                refusal_key: "encounter-gm-only-prev",
            },
        ],
        run: |cx, request, command| {
            on_encounter(cx, request, command, |cx, _, _, loaded, asker| {
                Box::pin(async move { cx.init_prev(loaded, &asker, None).await })
            })
        },
    },
    Subcommand {
        name: Some("hp"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(
                cx,
                request,
                command,
                |cx, request, command, loaded, asker| {
                    let target = target(&loaded, command);
                    let amount = typed(command, "amount");
                    Box::pin(
                        async move { cx.init_hp(request, loaded, &asker, &target, amount).await },
                    )
                },
            )
        },
    },
    Subcommand {
        name: Some("effect"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(
                cx,
                request,
                command,
                |cx, request, command, loaded, asker| {
                    let (targets, effect) = (typed(command, "targets"), typed(command, "effect"));
                    Box::pin(async move {
                        cx.init_effect(request, loaded, &asker, targets, effect)
                            .await
                    })
                },
            )
        },
    },
    Subcommand {
        name: Some("cure"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(cx, request, command, |cx, _, command, loaded, asker| {
                let target = target(&loaded, command);
                let effect = typed(command, "effect");
                Box::pin(async move { cx.init_cure(loaded, &asker, &target, effect).await })
            })
        },
    },
    Subcommand {
        name: Some("remove"),
        guards: ON_SERVER,
        run: |cx, request, command| {
            on_encounter(cx, request, command, |cx, _, command, loaded, asker| {
                let target = target(&loaded, command);
                Box::pin(async move { cx.init_remove(loaded, &asker, &target).await })
            })
        },
    },
    Subcommand {
        name: Some("list"),
        guards: ON_SERVER,
        run: list,
    },
    Subcommand {
        name: Some("end"),
        guards: &[
            Guard::GuildOnly,
            Guard::EncounterGm {
                refusal_key: "encounter-gm-only-end",
            },
        ],
        run: |cx, request, command| {
            on_encounter(cx, request, command, |_, _, _, loaded, asker| {
                Box::pin(async move { Ok(end_question(&loaded, &asker)) })
            })
        },
    },
];

/// `/init list`: the encounter as the asker may see it.
fn list<'a>(cx: &'a Context, request: &'a Request, command: &'a Command) -> Answer<'a> {
    on_encounter(cx, request, command, |_, _, _, loaded, asker| {
        Box::pin(async move { Ok(init_list(&loaded, &asker)) })
    })
}

/// Runs `run` on the encounter of the request's channel; without one, says so.
fn on_encounter<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    run: OnEncounter,
) -> Answer<'a> {
    Box::pin(async move {
        let Some(loaded) = cx.load_encounter(request.channel_id).await? else {
            let lang = cx.language(request, false).await?;
            return Ok(ephemeral(i18n::tr(lang, "encounter-none-here")));
        };
        let asker = cx.asker(request, &loaded).await?;
        run(cx, request, command, loaded, asker).await
    })
}

/// The text option `name`, trimmed; empty when left out.
fn typed<'a>(command: &'a Command, name: &str) -> &'a str {
    command.string(name).map(str::trim).unwrap_or("")
}

/// The combatant `target` names ([`meant_combatant`]).
fn target(loaded: &Loaded, command: &Command) -> String {
    meant_combatant(&loaded.engine, typed(command, "target"))
}
