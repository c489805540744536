# The pages of `/help`, and its buttons. Keys in this file start with `help-`.
# A page is markdown for Discord, at most 2000 characters; the dice notation in
# backticks stays as it is in every language, the command names are the language's
# own (Discord shows a German user `/würfeln`).

# $topic: what was asked (backticks replaced); $topics: the topics, comma-separated.
help-unknown-topic = I have no page about `{ $topic }`; the topics are { $topics }.

help-button-dice = Dice
help-button-macros = Macros & @fields
help-button-chargen = Characters
help-button-npc = NPCs
help-button-odds = Odds
help-button-init = Encounters

help-page-dice =
    {"*"}*Dice** · `/roll 1d20+5 to hit` · `/roll 4d6kh3` · `/roll 8d6 fire`
    {"*"}*Dice** `3d6` `d20` `4dF` `d%` `d{"{"}1,1,2{"}"}` `(1d4)d6` · **math** `+ - * / // % ^` `( )` (whole numbers: `/` truncates)
    {"*"}*Functions** `min(1d6, 3)` `max` `abs` `floor(7/2)` `ceil` `round` `sqrt` `pow(2, 3)`
    {"*"}*Keep / drop** `4d6kh3` `2d20kl1` `4d6d1` `8d6ph2` `4d6k>3`
    {"*"}*Explode** `10d10!` `5d6!>=5` `3d6!!` (compound) `3d6!p` (penetrate) `1d10x10` `1d20e20`
    {"*"}*Reroll** `2d6ro1` (once) `4d6rr<3` (until not) `1d20ra1` (and add) `1d6rol1` `4d6u` (unique)
    {"*"}*Clamp** `4d6min2` `4d6max5`
    {"*"}*Count** `6d10>=8` `10d10cs>=8sf1` `6d10t8f1`: the total becomes the number of successes
    {"*"}*Conditions** `h` highest face · `l` lowest · `o` odd · `e` even · `5` · `>=5` · `(1|6)`
    {"*"}*Series and sets** `{"{"}1d20, 15{"}"}kh1` `{"{"}1..6{"}"}` `(1d20, 1d20)kh1`
    {"*"}*Labels** `1d20+6 dex save` · `1d20 # to hit` · `3d6 // fire` · tags `2d6[fire] + 1d4[cold]`
    {"*"}*More** `1d20+5 adv` / `dis` (or spelled out) · `1d20+5; 2d6+3` (up to 4 rolls) · option `repeat:6` · `to:gm` (blind: the GM channel gets the result) / `to:me` · macros `$fireball`, fields `@STR`
    A typo gets a caret under it and the nearest spelling. `/odds` shows the chances of any roll.

help-page-macros =
    {"*"}*Macros** name a roll: `/macro set name:fireball expr:8d6 fire`, then `/roll $fireball` or `/roll $fireball + 2`.
    · Yours by default; `scope:server` makes one for everybody here (server admins or the macro role).
    · `/macro list` · `/macro show name:fireball` · `/macro delete name:fireball`
    · A macro may use other macros; cycles are refused with the chain that loops.
    {"*"}*@fields** are numbers of the character you play here: `/character use name:Brienne`, then `/roll 1d20+@STR_MOD` or `/roll 1d20+@DEX_MOD to hit`.
    · `/character show` lists the fields; a roll with macros or fields shows what they stood for.

help-page-chargen =
    {"*"}*Characters** are made by generator programs.
    · `/chargen start` runs the server's generator (or `program:NAME`); answer its questions by replying to them, or with the Answer button.
    · `/chargen status` shows where you are; `/chargen cancel` stops.
    · The finished character is stored: `/character list`, `/character show`, `/character use` (its fields work in rolls as `@STR`), `/character delete`.
    {"*"}*Server admins** install generators written in BASIC: `/chargen program add name:NAME` with a `.bas` file, a code block, or the paste form; `/chargen program list`, `remove`, `default`.

help-page-npc =
    {"*"}*NPCs** are characters players talk to.
    · `/talk npc:NAME` starts a conversation; reply to its messages (keywords, menus, yes/no), and say `bye` to leave. An idle conversation ends by itself.
    {"*"}*Server admins** install NPCs from GhulScript: `/npc install name:NAME` with a `.ghul` file or a code block; `/npc list`, `/npc remove`, `/npc activity` (the script's ACTIVITY code).

help-page-odds =
    {"*"}*Odds** are the exact chances of a roll, with a chart: `/odds 4d6kh3`, `/odds 1d20+5 target:15`.
    · Every form `/roll` takes, keeps and explosions included (explosions are followed until the rest is below one in a trillion), `adv` and `dis`, and several rolls separated by `;`.
    · `target:<=5` is a roll-under target: the chance to roll at most 5.
    · The buttons switch the chart: exactly, at least, at most.
    · Very large pools answer "too complex to compute exactly"; rerolls that depend on the other dice (`4d6u`, `1d6rol1`) have no exact odds: roll them with `repeat`.

help-page-init =
    {"*"}*Encounters** track initiative, hit points and effects in a channel: one tracker message, edited as the fight goes.
    · `/init begin` starts one (you are its GM). Players `/init join` with their character (initiative `1d20 + @DEX_MOD` unless given); the GM `/init add name:Orc init:1d20+1 hp:2d8+2 count:3` (`hidden:true` shows players only healthy, bloodied or down).
    · **Next** (or `/init next`) ends a turn, `/init prev` goes back a turn (and undoes nothing else). `/init hp target:Orc_1 amount:-7` (or `+2d4`, `=12`), `/init effect targets:Orc_1, Orc_2 effect:Poison`, `/init cure`, `/init remove`, `/init list` (the GM sees hidden numbers).
    · Players act on their own combatant, and on anyone during their own turn. `/init end` asks first, then writes hit points and lasting effects back to the characters.
    {"*"}*Effects** come from the server's effect file: server admins `/effect install` a `.ghul` file or a code block of ELEMENTS and EFFECT declarations; `/effect list`, `/effect show name:Poison`, `/effect remove`.
