# The texts of the web dashboard (`tavern web`). Keys in this file start with `web-`.
# They are shown as HTML text (escaped), not as Discord markdown.

web-servers = Servers
web-logout = Log out
web-logout-everywhere = Log out everywhere
web-dev-login-banner = Development login: anyone who reaches this address is logged in as the console's player. For your own computer only.
web-dev-login-button = Log in as the console's player (development)
web-dev-guild-name = The console's server
web-login-heading = Log in
web-login-discord = Log in with Discord
web-login-failed = Logging in with Discord did not work. Please try again.
web-login-cancelled = The login was cancelled at Discord.
web-login-none = No way to log in is set up. For development on your own computer, start tavern web with --dev-login.
web-not-logged-in = You are not logged in
web-error = Something went wrong; try again in a moment
web-forbidden = Refused: this form did not come from this page. Reload the page and try again.
web-not-found = Not found
web-servers-none = You are in no server Tavern knows.
web-characters = Characters
web-macros = Macros
web-generators = Generators
web-npcs = NPCs
web-effects = Effects
# $server: the server's name.
web-characters-heading = Your characters on { $server }
web-characters-none = You have no characters here yet. Make one with /chargen start.
web-character-active = (played here)
web-character-use = Play this character here
web-character-delete = Delete …
web-character-transcript = The generator's transcript
# $server: the server's name.
web-macros-heading = Macros on { $server }
web-macros-none = No macros here yet.
web-macro-name = Name
web-macro-expr = Dice expression
web-macro-description = Description
web-macro-scope = Whose
web-macro-scope-me = Mine
web-macro-scope-server = The server's
web-macro-save = Save macro
web-macro-delete = Delete
web-back = Back
