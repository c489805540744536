# The texts of `/npc`, `/talk` and the conversations' channel messages.
# Keys in this file start with `npc-`.
#
# What the NPC's author wrote (SAY texts, keywords, item and menu names, the NPC's
# display name) comes in as a variable, escaped for Discord, and stays as written.
# Numbers the old texts printed without grouping keep `useGrouping: "false"` here,
# so that English output stays as it was.

## Refusals and notices (private answers)

npc-not-here = NPCs live on servers: talk to them there.
npc-ended = This conversation has ended. `/talk` starts a new one.
npc-answered = That question has been answered already.
# The character's gold, items or flags kept changing while the NPC answered (another turn, an effect); nothing of this answer was kept.
npc-world-changed = Your character changed while the NPC was answering, so nothing of this answer was kept. Answer again.
# Completes the shared "Only members with … can { $what }." refusal.
npc-not-allowed = install, remove or change NPCs
npc-bad-name = `{ $name }` cannot name an NPC: use 1 to { $max } letters, digits or `_`, starting with a letter (scripts refer to it in CHECK_MEMBER). Give a longer name with `display`.
npc-display-length = The display name must be 1 to { $max } characters.
npc-no-such = There is no NPC called `{ $name }` here. `/npc list` shows who lives here.
npc-not-yours = This is { $player }'s conversation; start your own with `/talk`.
npc-changed = This NPC has changed or left since the conversation started, so it ended.
npc-character-gone = The character of this conversation is gone.
npc-pick-first = Pick an item from the list first.
npc-quantity-number = Give the quantity as a whole number, like 3.

## A script's text: from the `file` attachment or the `code` option.
## $noun: `script` (an NPC's script) or `effect` (a server's effect file).

npc-source-both =
    { $noun ->
        [effect] Give the effect file either as a file or as code, not both.
       *[script] Give the script either as a file or as code, not both.
    }
npc-source-not-ghul =
    { $noun ->
        [effect] `{ $file }` is not a `.ghul` effect file.
       *[script] `{ $file }` is not a `.ghul` script.
    }
npc-source-too-large =
    { $noun ->
        [effect] The effect file is larger than { NUMBER($max_bytes, useGrouping: "false") } bytes.
       *[script] The script is larger than { NUMBER($max_bytes, useGrouping: "false") } bytes.
    }
# $error: why the attachment could not be fetched.
npc-source-unreadable =
    { $noun ->
        [effect] I could not read the effect file: { $error }.
       *[script] I could not read the script: { $error }.
    }
npc-source-missing =
    { $noun ->
        [effect] Attach the effect file as a `.ghul` file (`file`), or paste it as `code`.
       *[script] Attach the script as a `.ghul` file (`file`), or paste it as `code`.
    }
npc-source-not-utf8 =
    { $noun ->
        [effect] The effect file is not UTF-8 text.
       *[script] The script is not UTF-8 text.
    }
npc-source-empty =
    { $noun ->
        [effect] The effect file is empty.
       *[script] The script is empty.
    }

## Load errors: npc-core's messages, by id, in the admin's language, with their line.

npc-load-failed =
    { $noun ->
        [effect]
            { $count ->
                [one] `{ $name }` was not installed: the effect file has { $count } error.
               *[other] `{ $name }` was not installed: the effect file has { $count } errors.
            }
       *[script]
            { $count ->
                [one] `{ $name }` was not installed: the script has { $count } error.
               *[other] `{ $name }` was not installed: the script has { $count } errors.
            }
    }
npc-load-more = …and { $count } more; every error is in the attached file.
npc-load-filename = errors.txt
npc-load-file-description = Every load error

# One load error: the line and the message (the source line with a caret above it
# shows the column). $message: one of the npc-load-<id> messages below.
npc-load-at = line { NUMBER($line, useGrouping: "false") }: { $message }
# What npc-core says, by its message id (npc_core::MessageId), in npc-core's own
# English: the words the script wrote come in as variables.
npc-load-unterminated-comment = unterminated comment: expected `*/`, found end of file
npc-load-integer-too-large = integer { $integer } does not fit 32 bits (-2147483648 to 2147483647)
npc-load-call-without-tag = expected a response tag right after `$`
npc-load-unexpected-character = unexpected character `{ $character }`
npc-load-unterminated-string = unterminated string: expected a closing `"` on the same line
npc-load-escape-at-end-of-line = unknown escape end of line: only `\"` and `\\` are allowed
npc-load-unknown-escape = unknown escape `\{ $character }`: only `\"` and `\\` are allowed
npc-load-too-deep = blocks nested deeper than { NUMBER($max, useGrouping: "false") } levels
npc-load-conv-twice = CONV `{ $tag }` is defined twice
npc-load-resp-twice = RESP `{ $tag }` is defined twice
npc-load-bad-keyword-string = expected a keyword (one word of letters, digits or `_`), found "{ $text }"
npc-load-break-outside-menu = BREAK outside a MENU
npc-load-take-gold-only = TAKE takes gold only: GOLD or its parameter id -2 (got { NUMBER($id, useGrouping: "false") })
npc-load-set-parm-negative = SET_PARM needs a value of 0 or more
npc-load-count-too-small = { $statement } needs a count of { NUMBER($minimum, useGrouping: "false") } or more, found { NUMBER($value, useGrouping: "false") }
npc-load-flag-range = flag id { NUMBER($flag, useGrouping: "false") } is out of range 0..255
npc-load-reserved-parameter = parameter id { NUMBER($id, useGrouping: "false") } is reserved: ids below -4 do not exist
npc-load-activity-read-only = ACTIVITY is read-only: { $statement } cannot change it
npc-load-negative-price = the price of `{ $item }` must be 0 or more
npc-load-ware-twice = item `{ $item }` is listed twice in this TRADE
npc-load-negative-cost = the cost of "{ $label }" must be 0 or more
npc-load-menu-empty = MENU has no choices
npc-load-menu-too-many-choices = MENU has { NUMBER($count, useGrouping: "false") } choices; at most { NUMBER($max, useGrouping: "false") } are allowed
npc-load-menu-label-empty = MENU label is empty
npc-load-menu-label-too-long = MENU label is { NUMBER($length, useGrouping: "false") } characters long; at most { NUMBER($max, useGrouping: "false") } are allowed
npc-load-menu-label-twice = MENU label "{ $label }" appears twice
npc-load-import-cycle = IMPORT cycle: { $path }
npc-load-call-cycle = call cycle: { $path }
npc-load-unknown-conversation = unknown conversation `{ $tag }` in IMPORT
npc-load-unknown-native-response = unknown response `{ $tag }` in NATIVE
npc-load-unknown-called-response = unknown response `${ $tag }` in call
npc-load-unreachable-keyword = keyword `{ $keyword }` can never be reached: `{ $earlier }` on line { NUMBER($line, useGrouping: "false") } has the same first four letters
npc-load-endless-menu = MENU can never be left: no choice reaches a BREAK, EXIT, TURN_AWAY or ATTACK
npc-load-unknown-effect = unknown effect `{ $effect }` in APPLY_EFFECT (the effect library has no such effect)
npc-load-script-too-large = the script is { NUMBER($bytes, useGrouping: "false") } bytes long; at most { NUMBER($max, useGrouping: "false") } are allowed
npc-load-effect-file-too-large = the effect file is { NUMBER($bytes, useGrouping: "false") } bytes long; at most { NUMBER($max, useGrouping: "false") } are allowed
npc-load-too-many-errors = too many errors; only the first { NUMBER($max, useGrouping: "false") } are shown
npc-load-not-loaded = the script could not be loaded
npc-load-load-cancelled = loading was cancelled
# A syntax error: what the parser expected and what it found, each a phrase below
# (want-*: what was expected; after-*: what a `{` follows; token-*: what was found).
npc-load-expected = expected { $expected }, found { $found }
npc-load-expected-upper-case = expected { $expected }, found { $found } (words are case-sensitive: write `{ $upper }`)
npc-load-want-definition = CONV or RESP
npc-load-want-conversation-tag = a conversation tag after CONV
npc-load-want-response-tag = a response tag after RESP
npc-load-want-keyword-response = a response tag after keyword `{ $keyword }`
npc-load-want-item-tag = an item tag after { $statement }
npc-load-want-effect-tag = an effect tag after APPLY_EFFECT
npc-load-want-npc-tag = an NPC tag after CHECK_MEMBER
npc-load-want-open-brace = `{"{"}` after { $after }
npc-load-want-close-brace = `{"}"}` to close the block opened on line { NUMBER($line, useGrouping: "false") }
npc-load-want-conversation-part = IMPORT, NATIVE or `{"}"}`
npc-load-want-import-entry = a conversation tag or `{"}"}` in IMPORT
npc-load-want-native-entry = a keyword or `{"}"}` in NATIVE
npc-load-want-statement = a response statement or `{"}"}`
npc-load-want-say-text = a string after SAY
npc-load-want-take-gold = GOLD (or its parameter id -2) after TAKE
npc-load-want-delta = a delta after the parameter of CHANGE_PARM
npc-load-want-set-value = a value after the parameter of SET_PARM
npc-load-want-compared-integer = an integer after the operator of { $statement }
npc-load-want-flag = a flag id after { $statement }
npc-load-want-operator = a comparison operator (=, !=, <, <=, >, >=) in { $statement }
npc-load-want-parameter = a parameter (an integer, AMOUNT, GOLD, FOOD or ACTIVITY) after { $statement }
npc-load-want-trade-entry = an item tag or `{"}"}` in TRADE
npc-load-want-price = a price after item `{ $item }`
npc-load-want-menu-entry = a choice label (a string) or `{"}"}` in MENU
npc-load-after-conversation-tag = the conversation tag
npc-load-after-response-tag = the response tag
npc-load-after-first-block = the first block of { $statement }
npc-load-after-choice = choice "{ $label }"
npc-load-token-word = `{ $word }`
npc-load-token-integer = integer { NUMBER($value, useGrouping: "false") }
npc-load-token-large-integer = an integer
npc-load-token-string = a string
npc-load-token-call = `${ $tag }`
npc-load-token-operator = `{ $operator }`
npc-load-token-open-brace = `{"{"}`
npc-load-token-close-brace = `{"}"}`
npc-load-token-end = end of file
# An effect file's declarations and fields (/effect install).
npc-load-effect-expected-declaration = expected ELEMENTS or EFFECT, found `{ $found }`
npc-load-effect-expected-declaration-upper-case = expected ELEMENTS or EFFECT, found `{ $found }` (words are case-sensitive: write `{ $upper }`)
npc-load-elements-twice = ELEMENTS is declared twice (first on line { NUMBER($line, useGrouping: "false") }); declare every element in one list
npc-load-too-many-effects = more than { NUMBER($max, useGrouping: "false") } effects in one file
npc-load-effect-twice = EFFECT `{ $tag }` is defined twice (first on line { NUMBER($line, useGrouping: "false") })
npc-load-effect-is-element = `{ $tag }` is already an element (line { NUMBER($line, useGrouping: "false") }); elements and effects share one namespace
npc-load-elements-without-brace = expected `{"{"}` after ELEMENTS
npc-load-elements-unclosed = expected `{"}"}` to close ELEMENTS opened on line { NUMBER($line, useGrouping: "false") }, found end of file
npc-load-elements-bad-entry = expected an element name or `{"}"}` in ELEMENTS, found `{ $found }`
npc-load-element-name-too-long = element name `{ $name }` is longer than { NUMBER($max, useGrouping: "false") } characters
npc-load-element-twice = `{ $name }` is declared twice (first on line { NUMBER($line, useGrouping: "false") })
npc-load-too-many-elements = more than { NUMBER($max, useGrouping: "false") } elements
npc-load-effect-without-tag = expected an effect tag after EFFECT
npc-load-effect-tag-too-long = effect tag `{ $tag }` is longer than { NUMBER($max, useGrouping: "false") } characters
npc-load-effect-without-brace = expected `{"{"}` after EFFECT { $tag }
npc-load-effect-bad-entry = expected a field name or `{"}"}` in EFFECT { $tag }, found `{ $found }`
npc-load-effect-unclosed-before = expected `{"}"}` to close EFFECT { $tag } opened on line { NUMBER($line, useGrouping: "false") }, found `{ $found }`
npc-load-effect-unclosed = expected `{"}"}` to close EFFECT { $tag } opened on line { NUMBER($line, useGrouping: "false") }, found end of file
npc-load-unknown-field = unknown field `{ $name }` in EFFECT { $tag } (fields: { $fields })
npc-load-field-twice = field `{ $field }` is given twice in EFFECT { $tag } (first on line { NUMBER($line, useGrouping: "false") })
npc-load-field-without-value = field `{ $field }` needs a value on the same line
npc-load-missing-field = EFFECT { $tag } has no `{ $field }` (target_type, subject and value are required)
npc-load-map-target-type = target type `{ $target }` needs a map, and Tavern has no map (supported: { $supported })
npc-load-unknown-target-type = unknown target type `{ $target }` (supported: { $supported })
npc-load-unknown-subject = unknown subject `{ $subject }` (subjects: { $subjects })
npc-load-effect-target-subject = target type Effect has only the subject Existence, not `{ $subject }`
npc-load-yes-or-no = `{ $field }` takes yes or no, not `{ $value }`
npc-load-bad-probability = probability takes a number from 0 to 1 (such as 0.25), not `{ $value }`
npc-load-bad-save = save takes an ability (STR DEX CON INT WIS CHA), a DC from 1 to 100 and, if you like, half or none for a success (such as `DEX 15 half`), not `{ $value }`
npc-load-unknown-hook = unknown hook `{ $hook }` (hooks: HpReduced)
npc-load-unknown-target-method = unknown target_method `{ $method }` (supported: Effected, the effect's holder)
npc-load-bad-source = source takes only `()` (it is accepted and ignored), not `{ $value }`
npc-load-existence-while-active = Existence cannot be while_active: a removal or a clone cannot be undone
npc-load-bad-mode = mode takes recurring or while_active, not `{ $value }`
npc-load-protections-without-method = a Protections effect needs a method naming what it protects against, such as (BURN)
# An effect's value, numbers and sets of elements (forms-*: a value's forms).
npc-load-value-misfit = value `{ $value }` does not fit subject { $subject } ({ $kind }: { $forms })
npc-load-forms-integer = +N, -N, =N, *N, /N or N, N an integer or dice
npc-load-forms-set = +S, -S, &S, =S or ~, S a set of elements such as (MAGIC|BURN)
npc-load-forms-bool = true, false or invert
npc-load-forms-tag = =tag or tag
npc-load-forms-existence = new or false
npc-load-division-by-zero = division by zero: `/0`
npc-load-existence-of-effect = value `{ $value }` does not fit subject Existence of target type Effect (false removes the matching effects)
npc-load-number-with-field = `{ $text }`: `@` fields and `$` macros are not allowed in effects
npc-load-dice-labelled = dice expression `{ $text }` has a label; write only the expression
npc-load-set-unexpected = unexpected `{ $rest }` in set `{ $set }`
npc-load-set-too-deep = set `{ $set }` is nested deeper than { NUMBER($max, useGrouping: "false") } levels
npc-load-set-unclosed = expected `)` in set `{ $set }`
npc-load-unknown-element = unknown element `{ $name }` (declare it in ELEMENTS)
npc-load-set-bad-start = expected an element, `(` or `~` in set `{ $set }`, found `{ $found }`
npc-load-set-ends-early = set `{ $set }` ends too early
npc-load-dice-refused = dice expression `{ $text }` is refused: { $reason }
npc-load-duration = duration: { $reason }
# dice-core's reason for refusing an effect's dice expression is worded from dice.ftl;
# a reason of a form that catalogue does not know (a newer dice-core) says this.
npc-load-dice-reason-unknown = it is not a dice expression Tavern can roll

## Work that took too long: completes the shared "{ $what } took too long" notice.

npc-work-checking = Checking `{ $name }`
npc-work-loading = Loading { $npc }'s script
npc-work-loading-this = Loading this NPC's script
npc-work-greeting = { $npc }'s greeting
npc-work-answer = { $npc }'s answer

## /npc install, list, remove, activity

npc-too-many = This server has { NUMBER($count, useGrouping: "false") } NPCs, the most it may have. Remove one with `/npc remove` first.
# $conversations: the script's CONV names, joined by "`, `".
npc-installed = Installed **{ $display }** (`{ $name }`; conversations `{ $conversations }`). Players talk to it with `/talk npc:{ $name }`.
npc-replaced = Replaced **{ $display }** (`{ $name }`; conversations `{ $conversations }`). Players talk to it with `/talk npc:{ $name }`.
npc-list-empty = No NPCs live here yet. An admin installs one with `/npc install`.
npc-list-header = NPCs here ({ NUMBER($count, useGrouping: "false") }):
npc-list-entry =
    { $activity ->
        [0] - **{ $display }** (`{ $name }`)
       *[other] - **{ $display }** (`{ $name }`), activity { NUMBER($activity, useGrouping: "false") }
    }
npc-list-footer = Talk to one with `/talk npc:NAME`.
npc-removed = Removed `{ $name }`. Its waiting conversations have ended; flags and parameters players earned stay.
npc-activity-range = The activity code must fit in 32 bits.
npc-activity-set = `{ $name }` now has activity code { NUMBER($code, useGrouping: "false") }; conversations see it from their next turn.

## /talk

npc-broken-script = { $npc }'s script no longer loads; ask an admin to install it again.
# $conversations: the script's CONV names, joined by "`, `".
npc-no-conversation = { $npc } has no conversation `{ $conv }`; there are: `{ $conversations }`.
npc-needs-character = To talk to { $npc } you need a character here: make one with `/chargen start`.
npc-talking = You talk to { $npc } as **{ $character }**.
npc-talking-answer = You talk to { $npc } as **{ $character }**. Answer with the buttons under { $npc }'s message, or reply to it.

## Forms (private to the one who opened them)

npc-modal-title = Talking to { $npc }
npc-ask-label = Ask about…
npc-ask-placeholder = One word: name, job, trade, bye…
npc-amount-label = How much?
npc-amount-placeholder = a whole number, e.g. 10
# $action: buy or sell; $item: the ware's name as the script writes it.
npc-quantity-title =
    { $action ->
        [sell] How many { $item } to sell?
       *[buy] How many { $item } to buy?
    }
npc-quantity-label = Quantity ({ NUMBER($price, useGrouping: "false") } gold each)

## The conversation in the channel (public: the server's language)

# The player said nothing (an empty answer).
npc-says-nothing-player = > *{ $player } says nothing.*
npc-says-nothing = *{ $npc } says nothing.*
npc-event-talk = *{ $player } talks to { $npc }.*
npc-event-yes-no = *Yes or no?*
npc-event-amount = *How much?*
# $choices: the menu's choices, joined by " · ".
npc-event-menu = *Choose:* { $choices }
# A menu choice that costs gold; $label is the author's.
npc-menu-choice-cost = { $label } ({ NUMBER($cost, useGrouping: "false") } gold)
# $wares: npc-ware entries joined by " · ", or npc-wares-none.
npc-event-trade = *For sale:* { $wares }
# The line under npc-event-trade: the words the NPC understands stay English.
npc-trade-hint = *Say buy ITEM [N], sell ITEM [N] or done.*
npc-ware = { $item } { NUMBER($price, useGrouping: "false") } gold
npc-wares-none = nothing
# $item: the name as the script writes it, or in English its plural for a count
# other than one (arrow, arrows).
npc-event-bought = *You buy { NUMBER($quantity, useGrouping: "false") } { $item } for { NUMBER($gold, useGrouping: "false") } gold.*
# Follows npc-event-bought when the gold paid for fewer than asked.
npc-event-bought-fewer = *Your gold pays for { NUMBER($quantity, useGrouping: "false") } of the { NUMBER($asked, useGrouping: "false") }.*
npc-event-sold = *You sell { NUMBER($quantity, useGrouping: "false") } { $item } for { NUMBER($gold, useGrouping: "false") } gold.*
npc-event-will-not-buy-cheap = *{ $npc } will not buy { $item }: it sells for { NUMBER($price, useGrouping: "false") } gold, and { $npc } pays a quarter of that, rounded down: nothing.*
npc-event-will-not-buy-foreign = *{ $npc } will not buy { $item }: { $npc } buys back only what { $npc } sells.*
# $message: the engine's reason (a limit), in English.
npc-event-error = *{ $npc } stopped: { $message }. Nothing of this turn was kept.*
npc-event-walked-away = *{ $player } walked away.*
npc-event-over = *The conversation is over.*
npc-event-no-reply = *No reply.*
npc-event-turn-away = *{ $npc } turns away.*
npc-event-attack = *{ $npc } attacks!*
npc-event-joined = *{ $npc } joins your party.*
npc-event-already-member = *{ $npc } is already in your party.*
npc-event-party-full = *No room in party!*
npc-event-received = *You receive { NUMBER($count, useGrouping: "false") } { $item }.*
npc-event-answer-yes-no = *Please answer yes or no.*
npc-event-choose-option = *Please choose an option.*
# $what: a menu label or an item's name.
npc-event-cannot-afford = *You cannot afford { $what }.*
# $what: as the player typed it.
npc-event-does-not-sell = *{ $npc } does not sell { $what }.*
npc-event-have-none = *You have no { $item }.*
npc-event-nothing-bought = *Nothing bought.*
npc-event-nothing-sold = *Nothing sold.*
npc-event-trade-command = *Say buy, sell or done.*
# The script's APPLY_EFFECT; $effect: the effect's tag.
# Under every trade prompt. $sellable: npc-sellable entries joined by " · ", or
# npc-sellable-none.
npc-trade-status = *Your gold:* { NUMBER($gold, useGrouping: "false") } · *you can sell:* { $sellable }
npc-sellable = { NUMBER($held, useGrouping: "false") } { $item } ({ NUMBER($price, useGrouping: "false") } gold each)
npc-sellable-none = nothing this trader buys
npc-too-long = This turn said too much for chat; all of it is in the attached file.
npc-too-long-filename = conversation.txt
npc-too-long-description = The whole turn
# The conversation's message after its player walked away, or a notice when that
# message is unknown.
npc-walked-away-notice = *{ $player } walked away from the conversation.*

## Buttons and menus under the NPC's message

npc-button-ask = Ask { $npc }…
npc-button-bye = Bye
npc-button-yes = Yes
npc-button-no = No
npc-button-answer = Answer…
npc-button-buy = Buy…
npc-button-sell = Sell…
npc-button-done = Done
npc-button-leave = Walk away
npc-menu-placeholder = Choose…
npc-trade-placeholder = Pick an item, then Buy or Sell
npc-option-cost = { NUMBER($price, useGrouping: "false") } gold
npc-option-sells-back = { NUMBER($price, useGrouping: "false") } gold; sells back for { NUMBER($sell_price, useGrouping: "false") }

# APPLY_EFFECT: what the effect did follows the turn; these when it did nothing.
npc-effect-nothing-happens = *Nothing happens.*
npc-effect-in-encounter = *{ $effect } cannot reach { $name } in the middle of an encounter.*
npc-effect-failed = *{ $effect } fails: { $reason }.*
