# The Discord and console adapters' own texts (permissions, placeholders). Keys in this file start with `transport-`.
# (Phase A of issue 18: moved here module by module.)

## Discord: the notices the delivery writes itself (the user's language).
transport-answered-privately = Answered; only you can see the answer.
transport-cannot-post = I can't post in this channel: I lack the **{ $permission }** permission here. Ask a server admin to give it to me in this channel.
transport-session-ended = { " " }The session has ended; start it again then.
transport-done = Done.
# A reply Discord withheld from the bot (public: the server's language).
transport-unreadable-reply = I can't read that reply: Discord only shows me replies that mention me. Reply again with the @mention switched on, or use the question's buttons.
# Discord's names of the permissions, as its settings show them.
transport-permission-view-channel = View Channel
transport-permission-send-messages = Send Messages
transport-permission-send-in-threads = Send Messages in Threads
transport-permission-attach-files = Attach Files

## The console's own words (its language: --lang, else LANG).
transport-console-welcome = Tavern console. Type /help for the commands, /quit to leave.
transport-console-waiting-npc = Your conversation with `{ $npc }` is waiting for an answer:
transport-console-waiting-chargen = Your character generator `{ $program }` is waiting for an answer:
transport-console-line-too-long = That line is longer than { $kib } KiB, so it was skipped. Long programs and scripts go in a file: `file:path/to/it`.
transport-console-nothing-waiting = Nothing is waiting for an answer. Commands start with `/`; try /help.
transport-console-nothing-waiting-chargen = Nothing is waiting for an answer; /chargen status shows yours.
transport-console-unknown-command = Unknown command /{ $name }. Try /help.
transport-console-group-takes = /{ $command } { $group } takes one of: { $names }.
transport-console-takes = /{ $command } takes one of: { $names }.
transport-console-no-button = There is no button to press.
# $label is quoted.
transport-console-no-such-button = No button called "{ $label }"; there are: { $labels }.
transport-console-no-menu = There is no menu to choose from.
transport-console-no-such-option = No option { $word }; choose a number from 1 to { $count }.
transport-console-choose-one = Choose one of the options by number or label (/choose 1).
transport-console-choose-up-to = Choose 1 to { $max } of the options by number or label (/choose 1).
transport-console-commands = Commands:
transport-console-help-footer =
      /press LABEL  press a button shown as { "[" }buttons: …]
      /choose N  pick option N (or its label) of the menu shown as { "[" }menu: …]
      /quit  leave
    Options are name:value; a bare value fills the first option (/roll 4d6kh3 label:stats).
    A line without / answers the pending question.
transport-console-only-you = (only you)
# Marks a message shown again in its new state (an edit, not a new message).
transport-console-edited = (edited)
transport-console-form = [form: { $title }] { $label }
transport-console-form-hint = (type your answer on the next line)
transport-console-suggestions = [suggestions: { $names }]
transport-console-attached = [attached: { $file } ({ $bytes } bytes)]
transport-console-written = [written to { $path }]
transport-console-cannot-write = [cannot write { $path }: { $error }]
transport-console-menu = [menu: { $placeholder }]
transport-console-choose-hint = (/choose NUMBER)
transport-console-buttons = [buttons: { $labels }] (/press LABEL)
# Typed options the console cannot read; $value is quoted.
transport-console-no-options = This command takes no options (got { $value }).
# $command: the command as typed; $option: the unknown name; $options: the names it has ("expr:, label:").
transport-console-unknown-option = `{ $command }` has no option `{ $option }:`; its { $count ->
        [one] option is
       *[other] options are
    } { $options }.
transport-console-option-twice = The option { $option } is given twice.
transport-console-not-a-number = { $option } must be a whole number, not { $value }.
transport-console-needs-path = { $option } needs a file path.
transport-console-not-a-channel = { $option } must be a channel id (or <#id>), not { $value }.
# Before a message the console shows that went to another channel (the GM channel).
transport-console-in-channel = [in <#{ $channel }>]
transport-console-not-a-role = { $option } must be a role id (or <@&id>), not { $value }.
transport-console-not-a-boolean = { $option } must be true or false, not { $value }.
transport-console-missing = Missing { $option }: give it as { $option }:… or as the first value.
