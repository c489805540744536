# The texts of encounter. Keys in this file start with `encounter-`.
# (Phase A of issue 18: moved here module by module.)

# An effect a character keeps between encounters (/character show).
encounter-kept-turns = { $tag } ({ $turns ->
        [one] 1 turn left
       *[other] { $turns } turns left
    })
encounter-kept-until-removed = { $tag } (until removed)

# The name in an effect's lines of a character whose own name has no letters or digits (an NPC's APPLY_EFFECT).
encounter-alone-name = Character

## Refusals and errors (private: the asker's language).
encounter-none-here = No encounter runs in this channel. `/init begin` starts one.
encounter-stale = The encounter has moved on since that button was drawn; the tracker shows where it stands.
encounter-raced = Someone changed the encounter at the same moment; nothing was done. Try again.
encounter-ended = That encounter has ended.
encounter-goes-on = The encounter goes on.
encounter-already-running = An encounter already runs in this channel; its GM ends it with `/init end`.
encounter-character-busy = That character is in another encounter already; it can sit in one at a time.
encounter-nothing-happened = Nothing happened: { $error }.
# What took too long when the effect engine ran past the workers' time limit.
encounter-work-effects = Working out the encounter's effects
encounter-nothing-added = Nothing was added: { $error }.
encounter-no-character = You have no character here to join with. Make one with `/chargen start`, or ask the GM to `/init add` you.
encounter-already-in = **{ $name }** is in this encounter already.
encounter-no-letters = **{ $name }** has no letters or digits in its name to fight under; the GM can `/init add` it instead.
encounter-name-taken = A combatant named `{ $name }` is in this encounter already; the GM can `/init remove` it.
encounter-no-hp-field = **{ $name }** has no HP field, so it cannot join; the GM can `/init add` it instead.
encounter-bad-initiative = The initiative { $problem }
encounter-bad-hp = The hit points { $problem }
# /init add with a number no monster can have (Discord keeps to the ranges; the console need not).
encounter-bad-count = `count` adds { $min } to { $max } monsters, not { $count }. Nothing was added.
encounter-bad-ac = `ac` is an armour class from { $min } to { $max }, not { $ac }. Nothing was added.
encounter-bad-start-hp = A monster starts with 1 hit point or more, not { $hp }. Nothing was added; `/init hp` changes its hit points once it is in.
encounter-bad-amount = The amount { $problem }
# The end of the three sentences above.
encounter-cannot-roll = `{ $expr }` cannot be rolled: { $reason }
encounter-amount-form = Write the amount as `-7` (damage), `+2d4` (healing) or `=12` (set).
encounter-no-targets = Name at least one target.
# $name: the first target named that is not in the encounter.
encounter-unknown-target = There is no combatant `{ $name }` in this encounter (`/init list` shows them); nothing was rolled.
# /init save effect:X when X's file declares no save and no ability or dc was typed.
encounter-save-not-declared = `{ $effect }` declares no save in the effect file: give the `ability` and the `dc`.
encounter-no-such-effect = This server's effect library has no effect `{ $effect }` (`/effect list` shows them).
encounter-monster-name = A monster's name needs letters or digits (spaces become `_`).
encounter-gm-only-add = Only the GM ({ $gm }) or a server admin can add monsters.
encounter-gm-only-prev = Only the GM ({ $gm }) or a server admin can go back a turn.
# Above the events of /init prev: what going back undoes (issue 26).
encounter-prev-note = Back one turn. Only the turn moves: damage, healing, attacks, saves and effects stay as they are.
encounter-gm-only-end = Only the GM ({ $gm }) or a server admin can end the encounter.
encounter-refuse-next = You cannot end someone else's turn (players press Next on their own turn): players act on their own combatant, and on others during their own turn. The GM is { $gm }.
encounter-refuse-hp = You cannot change that combatant's hit points: players act on their own combatant, and on others during their own turn. The GM is { $gm }.
encounter-refuse-effect = You cannot apply effects to those combatants: players act on their own combatant, and on others during their own turn. The GM is { $gm }.
encounter-refuse-cure = You cannot cure that combatant: players act on their own combatant, and on others during their own turn. The GM is { $gm }.
encounter-refuse-remove = You cannot remove that combatant: players act on their own combatant, and on others during their own turn. The GM is { $gm }.

## Why the effect engine did nothing (after "Nothing happened: "): one message per
## npc-core `EffectMessageId`, with its arguments; English says what the engine says.
encounter-error-bad-name = a combatant name is one word of at most { $max } characters
encounter-error-name-taken = there is already a combatant named { $name }
encounter-error-full = the encounter is full ({ $max } combatants)
encounter-error-unknown-element = unknown element { $element }
encounter-error-unknown-effect = no effect named { $effect }
encounter-error-not-held = { $name } holds no { $effect }
encounter-error-empty = the encounter has no combatants
encounter-error-no-earlier-turn = there is no earlier turn
encounter-error-unknown-combatant = no combatant named { $name }
encounter-error-step-budget = the command needed more than { $max } steps; nothing was changed
encounter-error-cancelled = the command was cancelled; nothing was changed
encounter-error-dice = the dice of { $effect } could not be rolled ({ $reason }); nothing was changed
encounter-error-hook-depth = hooks fired hooks more than { $max } deep; nothing was changed
encounter-error-too-many-effects = { $name } already holds { $max } effects; nothing was changed

## Public answers (the server's language).
encounter-begins = **{ $name }** begins an encounter. Players: `/init join`. GM: `/init add` monsters, then **Next**.
encounter-joins = **{ $name }** joins as `{ $combatant }`: initiative { $initiative }, HP { $hp }/{ $max }
encounter-joins-still-under = , still under { $effects }
encounter-added = Added { $added } at initiative { $initiative }.
encounter-added-hidden = Added { $added } at initiative { $initiative } (hidden).
encounter-added-one = `{ $name }` (HP { $hp })
# Its hit points rolled below 1 ($hp is the roll), so it has 1.
encounter-added-one-raised = `{ $name }` (HP { $hp }: raised to 1)
encounter-rolls = { $name } rolls { $roll }
encounter-applies = { $name } applies **{ $effect }**.
encounter-nothing-changed = Nothing changed.
encounter-over = **The encounter is over** { $rounds ->
        [0] before its first round
        [one] after { $rounds } round
       *[other] after { $rounds } rounds
    }.
encounter-written-back = { " " }Written back to the characters: { $kept }.
encounter-kept-hp = { $name } HP { $hp }
encounter-kept-keeps = , keeps { $effects }
encounter-has-ended = The encounter has ended.
encounter-ended-mark = *Ended.*
encounter-idle-ended-hours = **This encounter ended** after { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    } without a change.
encounter-idle-ended-minutes = **This encounter ended** after { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } without a change.
encounter-and-more = … and { $count } more

## The end question (private).
encounter-end-question = End the encounter? Every character's hit points and the effects still on it are written back to it.
encounter-end-confirm = End the encounter
encounter-end-cancel = Keep going

## The tracker (public: the server's language; /init list privately).
encounter-button-next = Next
encounter-button-prev = Previous
encounter-button-end = End
encounter-title = Initiative
encounter-title-gm = Initiative (GM view)
encounter-not-started = not started: **Next** begins round 1
encounter-round = round { $round }
encounter-header = **{ $title }** · { $round } · GM { $gm }
encounter-nobody = Nobody yet: players `/init join`, the GM `/init add` monsters.
encounter-healthy = healthy
encounter-bloodied = bloodied
encounter-down = down
encounter-ac = AC { $ac }
encounter-hidden = (hidden)
encounter-until-removed = { $tag } *
encounter-turns-left = { $tag } { $turns }

## Event lines (public). Effect tags and names stay as written; what an effect
## changes is said in words (encounter-subject), elements in lower case.
# What an effect changes ($subject: the effect language's name, HitPoints, Strength …), in words.
encounter-subject =
    { $subject ->
        [HitPoints] hit points
        [ManaPoints] mana points
        [Strength] strength
        [Dexterity] dexterity
        [Intelligence] intelligence
        [Wisdom] wisdom
        [Constitution] constitution
        [Charisma] charisma
        [ArmorClass] armour class
        [Experience] experience
        [Level] level
        [Speed] speed
        [Field0] field 0
        [Field1] field 1
        [Field2] field 2
        [Field3] field 3
        [Field4] field 4
        [Field5] field 5
        [Field6] field 6
        [Field7] field 7
        [Field8] field 8
        [Field9] field 9
        [Flags] flags
        [Immunity] immunities
        [Alignment] alignment
        [Protections] protections
        [Dead] dead
        [LoseTurn] loses the turn
        [Occupation] occupation
        [Species] species
        [Existence] existence
       *[other] { $subject }
    }
encounter-event-turn = [round { $round }] { $name }
# $change: encounter-change or encounter-change-hidden.
encounter-event-change = * { $effect } on { $name }: { $change }
encounter-event-direct-change = * { $name }: { $change }
# An effect whose value has dice: its roll ($roll, encounter-roll) before what it did.
encounter-event-change-rolled = * { $effect } { $roll } on { $name }: { $change }
# A number changed: $words is encounter-subject; points read after the numbers.
encounter-change =
    { $subject ->
        [HitPoints] { $before } → { $after } hit points
        [ManaPoints] { $before } → { $after } mana points
       *[other] { $words } { $before } → { $after }
    }
# A hidden combatant's change: its hit points as a word (healthy, bloodied, down), else "changed".
encounter-change-hidden =
    { $subject ->
        [HitPoints] { $now }
       *[other] { $words } { $now }
    }
# Dice notation: the expression as the effect file writes it, the dice (at most ten, then …), the total.
encounter-roll = { $expr } ({ $dice }) = { $total }
encounter-roll-without-dice = { $expr } = { $total }
encounter-event-changed = changed
# $element in words (lower case); $operation as the file writes it: +5, -2, =3, *2, /2.
encounter-event-protection = * { $effect } on { $name }: protection against { $element } { $operation }
encounter-event-protection-hidden = * { $effect } on { $name }: protection against { $element } changed
# Flags or elements ($elements, in words) added to or taken from a set ($subject in words).
encounter-event-set-added = * { $effect } on { $name }: { $elements } added to { $subject }
encounter-event-set-removed = * { $effect } on { $name }: { $elements } taken from { $subject }
# $value: a set's members in words (encounter-event-nothing when empty), a tag as written, true or false.
encounter-event-assigned = * { $effect } on { $name }: { $subject } now { $value }
encounter-event-nothing = nothing
# What a LoseTurn or Dead an effect set means for its holder.
encounter-event-stunned = * { $effect }: { $name } is stunned and loses the turn.
encounter-event-acts-again = * { $effect }: { $name } can act again.
encounter-event-dies = * { $effect }: { $name } dies.
encounter-event-lives-again = * { $effect }: { $name } lives again.
# Elements an effect adds to or takes from its holder's Immunity ($elements: in words, comma-separated).
encounter-event-now-immune = * { $effect }: { $name } is now immune to { $elements }.
encounter-event-no-longer-immune = * { $effect }: { $name } is no longer immune to { $elements }.
# $effect: an effect's tag, or the elements of an attack's or save's damage in words.
encounter-event-immune = * { $name } is immune to { $effect }.
encounter-event-already-has = * { $name } already has { $effect }.
encounter-event-no-effect = * { $effect } has no effect on { $name }.
# A protection takes $amount off an effect's change ($effect: its tag).
encounter-event-reduced = * { $name }'s protection takes { $amount } off { $effect }.
encounter-event-reduced-hidden = * { $name }'s protection weakens { $effect }.
# The combatant's own protection against an element ($means: in words) takes $amount off an attack's or save's damage.
encounter-event-reduced-means = * { $name }'s protection against { $means } takes { $amount } off.
encounter-event-reduced-means-hidden = * { $name }'s protection against { $means } takes some off.
# The effects that gave a protection took $amount off ($protectors: their tags,
# encounter-and-list, with encounter-own-protection first when the combatant's own
# protection counts too; $count: how many).
encounter-event-warded = * { $name }'s { $protectors } { $count ->
        [one] takes
       *[other] take
    } { $amount } off { $effect }.
encounter-event-warded-hidden = * { $name }'s { $protectors } { $count ->
        [one] weakens
       *[other] weaken
    } { $effect }.
encounter-event-warded-means = * { $name }'s { $protectors } { $count ->
        [one] takes
       *[other] take
    } { $amount } off.
encounter-event-warded-means-hidden = * { $name }'s { $protectors } { $count ->
        [one] takes
       *[other] take
    } some off.
encounter-own-protection = own protection
# A list of names: $rest (comma-separated) and the $last.
encounter-and-list = { $rest } and { $last }
encounter-event-hook = * { $name } now holds { $effect }.
encounter-event-wears-off = * { $effect } wears off { $name }.
encounter-event-removed = * { $effect } removed from { $name }.
encounter-event-removes-nothing = * { $effect } removes nothing from { $name }.
encounter-event-down = * { $name } is down.
encounter-event-loses-turn = * { $name } loses the turn.
encounter-event-dead = * { $name } is dead.
encounter-event-down-skips = * { $name } is down and skips the turn.
encounter-event-appears = * { $name } appears.
encounter-event-cannot-split = * { $name } cannot split: the encounter is full.
encounter-event-leaves = * { $name } leaves the encounter.
encounter-event-everyone-out = * Everyone is out of action.

## Attacks and saves (D&D 5e SRD).
encounter-attacks = { $name } attacks with **{ $attacker }**.
encounter-attack-line = * { $attacker } attacks { $target }: to hit { $roll }{ $against }: { $outcome }
encounter-attack-against = { " " }vs AC { $ac }
encounter-attack-hit = hit
encounter-attack-miss = miss
encounter-attack-crit = natural 20, critical hit
encounter-attack-fumble = natural 1, miss
encounter-attack-crit-dice = { $roll }, critical dice +{ $extra } = { $total }
# A monster at 0 hit points is out of the fight: nothing rolls against it.
encounter-attack-out = * { $target } is at 0 hit points, out of the fight: no attack roll.
encounter-damage-line = * Damage { $roll }
encounter-damage-line-means = * Damage { $roll } { $means }
encounter-save-intro = { $name } calls for a **{ $ability }** save, DC { $dc }.
# /init save with an effect whose file declares its save and damage: $effect is its tag.
encounter-save-intro-effect = { $name } casts **{ $effect }**: a **{ $ability }** save, DC { $dc }.
encounter-save-damage = Damage { $roll }{ $means }, { $half ->
        [true] half on a success.
       *[other] none on a success.
    }
encounter-save-effect = On a failure: **{ $effect }**.
encounter-save-line = * { $target } saves ({ $ability }) { $roll } vs DC { $dc }: { $outcome }
encounter-save-success = success
encounter-save-failure = failure
# A target at 0 hit points: a monster is out of the fight and rolls no save; a
# character is unconscious and fails STR and DEX saves without rolling.
encounter-save-out = * { $target } is at 0 hit points, out of the fight: no save.
encounter-save-unconscious = * { $target } is unconscious and fails the { $ability } save without rolling: failure
encounter-gm-numbers = **With the hidden numbers** (only you see this):
# $name: the macro named in `/init attack macro:`.
encounter-attack-macro-unknown = There is no macro called `{ $name }` here; `/macro list` shows them.
encounter-attack-macro-shape = The macro `{ $name }` holds no attack: write it as the roll to hit, `#`, the damage and its elements, such as `1d20+@STR_MOD # 1d8+@STR_MOD SLASH`.
encounter-attack-needs = Give `hit` and `damage` (such as `hit:+5 damage:1d8+3`), or attack with a monster added with an `attack`.
encounter-save-ability = Name the ability to save with: STR, DEX, CON, INT, WIS or CHA.
encounter-save-dc = Give the save's difficulty class (`dc:15`).
encounter-save-needs = Give the `damage` of a failed save, or an `effect`, or both.
encounter-refuse-attack = You can attack only with your own combatant, on your turn or at your own combatants. The GM ({ $gm }) may attack with anyone.
# `means:` given on a server without an effect file (no elements at all).
encounter-no-means = This server has no effect file, so damage has no means: leave `means` out, or install one with `/effect install`.
encounter-unknown-means = This server's effect file declares no element `{ $means }`. Known: { $known }.
encounter-bad-attack = Write a monster's attack as to-hit bonus, damage and means, such as `+5 1d12+3 SLASH` (not `{ $attack }`).
encounter-bad-saves = Write a monster's save bonuses as `DEX+1 WIS-2` (not `{ $save }`).
