# The web dashboard's live encounters, settings, and rate limits (`tavern web`,
# issue 25). Keys start with `web-live-`. Shown as HTML text (escaped), not markdown.

web-live-encounters = Encounters
web-live-heading = Encounters on { $server }
web-live-none = No encounter runs on this server. Begin one in a channel with /init begin.
web-live-channel = Channel { $channel } (GM { $gm })
web-live-title = Encounter
web-live-hint = This page follows the encounter as it changes.
web-live-ended = The encounter is over.
web-live-busy = Too many live pages are open; this page reloads itself instead.
web-live-rate-heading = Too many requests
web-live-rate-limited = Slow down a little: try again in { $wait }.
web-live-settings = Settings
web-live-settings-heading = Settings of { $server }
web-live-settings-admins-only = Only members with Manage Server or the server's macro role can change these settings.
web-live-settings-language = Language of Tavern's public messages
web-live-settings-language-auto = The server's Discord language
web-live-settings-language-save = Save language
web-live-settings-role = Macro role (its id; empty: none)
web-live-settings-role-save = Save role
web-live-settings-role-invalid = A role id is a number, such as 123456789012345678.
