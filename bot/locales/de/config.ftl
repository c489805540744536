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
