# Die Texte von `/config`. Schlüssel in dieser Datei beginnen mit `config-`.

# Der Name einer Sprache, wie ihn ein Satz braucht: „auf { $language }“.
config-language-name =
    { $code ->
        [de] Deutsch
       *[en] Englisch
    }
config-language-current =
    { $setting ->
        [auto] Öffentliche Nachrichten erscheinen hier auf { $language }, der Discord-Sprache des Servers (automatisch). Private Antworten folgen der Discord-Sprache des jeweiligen Mitglieds.
       *[other] Öffentliche Nachrichten erscheinen hier auf { $language }, so hat es der Server eingestellt. Private Antworten folgen der Discord-Sprache des jeweiligen Mitglieds.
    }
config-language-set = Ab jetzt schreibt Tavern öffentliche Nachrichten hier auf { $language }. Private Antworten folgen weiterhin der Discord-Sprache des jeweiligen Mitglieds.
config-language-set-auto = Ab jetzt schreibt Tavern öffentliche Nachrichten hier in der Discord-Sprache des Servers, derzeit also auf { $language }. Private Antworten folgen weiterhin der Discord-Sprache des jeweiligen Mitglieds.
config-language-not-allowed = Nur Mitglieder mit der Berechtigung „Server verwalten“ oder mit der Makro-Rolle des Servers können die Sprache festlegen.
config-language-unknown = „{ $choice }“ ist keine Sprache, die Tavern spricht: Wähle de, en oder auto.
config-show-language =
    { $setting ->
        [auto] Sprache: { $language } (automatisch: die Discord-Sprache des Servers)
       *[other] Sprache: { $language }
    }

config-not-in-dms = Das gehört zu einem Server; nutze es dort.
# $what ist ein Infinitiv mit Ergänzung: „Server-Makros löschen“.
config-not-allowed =
    { $role ->
        [none] Nur Mitglieder mit der Berechtigung „Server verwalten“ (oder mit der Rolle, die ein Server-Admin per `/einstellungen makro-rolle` festlegt) können { $what }.
       *[other] Nur Mitglieder mit der Berechtigung „Server verwalten“ oder mit der Rolle <@&{ $role }> können { $what }.
    }
config-macro-role-not-allowed = Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Makro-Rolle festlegen.
config-macro-role-set = Mitglieder mit der Rolle <@&{ $role }> können jetzt Server-Makros und Generatorprogramme verwalten, zusätzlich zu denen mit „Server verwalten“.
config-macro-role-cleared = Keine Rolle festgelegt: Nur Mitglieder mit „Server verwalten“ können Server-Makros und Generatorprogramme verwalten.
config-show =
    Die Tavern-Einstellungen dieses Servers:
    - Makro-Rolle: { $role ->
        [none] keine (nur „Server verwalten“)
       *[other] <@&{ $role }> (und „Server verwalten“)
    }
    - Standard-Generatorprogramm: { $shipped ->
        [yes] `{ $program }` (mitgeliefert)
       *[no] `{ $program }`
    }
    - { $language }
