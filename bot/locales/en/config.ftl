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
