# The texts of `/config`. Keys in this file start with `config-`.

# A language's name as a sentence says it: "in { $language }". $code: de, en.
config-language-name =
    { $code ->
        [de] German
       *[en] English
    }
# $language: config-language-name; $setting: auto, de or en.
config-language-current =
    { $setting ->
        [auto] Public messages here are in { $language }, the server's Discord language (auto). Private answers follow each member's own Discord language.
       *[other] Public messages here are in { $language }, as the server chose. Private answers follow each member's own Discord language.
    }
config-language-set = From now on, Tavern writes public messages here in { $language }. Private answers still follow each member's own Discord language.
config-language-set-auto = From now on, Tavern writes public messages here in the server's Discord language, { $language } at the moment. Private answers still follow each member's own Discord language.
config-language-not-allowed = Only members with the Manage Server permission or the server's macro role can choose the language.
config-language-unknown = `{ $choice }` is not a language Tavern speaks: choose de, en or auto.
# A line of `/config show`.
config-show-language =
    { $setting ->
        [auto] language: { $language } (auto: the server's Discord language)
       *[other] language: { $language }
    }

config-not-in-dms = That belongs to a server; use it there.
# $role: the server's macro role (a role id) or `none`; $what: what the member may
# not do, in the words of the module that asks (`delete server macros`).
config-not-allowed =
    { $role ->
        [none] Only members with the Manage Server permission (or the role a server admin sets with `/config macro-role`) can { $what }.
       *[other] Only members with the Manage Server permission or the role <@&{ $role }> can { $what }.
    }
config-macro-role-not-allowed = Only members with the Manage Server permission can choose the macro role.
config-macro-role-set = Members with the role <@&{ $role }> can now manage server macros and generator programs, besides those with Manage Server.
config-macro-role-cleared = No role is set: only members with Manage Server can manage server macros and generator programs.
# $sub: the subcommand Discord sent.
# `/config show`. $role: a role id or `none`; $program: the default generator
# program; $shipped: yes when it is the shipped one; $language: config-show-language.
config-show =
    This server's Tavern settings:
    - macro role: { $role ->
        [none] none (Manage Server only)
       *[other] <@&{ $role }> (and Manage Server)
    }
    - default generator program: { $shipped ->
        [yes] `{ $program }` (shipped)
       *[no] `{ $program }`
    }
    - { $language }
