# Die Texte von `/macro` (`/makro`) und von Würfen mit Makros und Werten.
# Schlüssel in dieser Datei beginnen mit `macros-`. $whose ist `personal` oder `server`.

macros-scope-unknown = `wessen` ist `server` (des Servers) oder `me` (meins), nicht „{ $scope }“.
macros-server-in-dms = Server-Makros gibt es nur auf Servern; hier kannst du deine eigenen anlegen (`wessen: meins`).
macros-may-set-server = Server-Makros anlegen oder ändern
macros-may-delete-server = Server-Makros löschen
macros-name-missing = Ein Makro braucht einen Namen, z. B. `feuerball`.
macros-name-invalid = „{ $name }“ kann kein Makroname sein: Nimm 1 bis { $max } Buchstaben, Ziffern und `_`, am Anfang ein Buchstabe oder `_`.
macros-name-is-dice = `{ $name }` liest sich als Würfelausdruck und kann deshalb kein Makroname sein (`/würfeln { $name }` muss ihn würfeln). Wähle einen anderen Namen.
macros-expr-missing = Ein Makro braucht einen Würfelausdruck, z. B. `8d6 Feuer`.
macros-expr-too-long = Der Würfelausdruck eines Makros hat höchstens { $max } Zeichen.
macros-description-too-long = Eine Beschreibung hat höchstens { $max } Zeichen.
macros-invalid-expr =
    Dieser Ausdruck ist ungültig, deshalb wurde `{ $name }` nicht gespeichert:
    { $caret }
macros-full =
    { $whose ->
        [server] Dieser Server hat hier schon { $count } Makros, mehr geht nicht. Lösch zuerst eins mit `/makro löschen`.
       *[personal] Du hast hier schon { $count } Makros, mehr geht nicht. Lösch zuerst eins mit `/makro löschen`.
    }
macros-not-saved = `{ $name }` wurde nicht gespeichert: { $reason }.
macros-saved =
    { $created ->
        [yes] { $whose ->
            [server] Server-Makro `${ $name }` gespeichert: `{ $expr }`.
           *[personal] Dein Makro `${ $name }` gespeichert: `{ $expr }`.
        }
       *[no] { $whose ->
            [server] Server-Makro `${ $name }` geändert: `{ $expr }`.
           *[personal] Dein Makro `${ $name }` geändert: `{ $expr }`.
        }
    }
macros-saved-undefined =
    { $count ->
        [one] Hinweis: { $names } gibt es noch nicht; bis es angelegt ist, schlägt das Würfeln fehl.
       *[other] Hinweis: { $names } gibt es noch nicht; bis sie angelegt sind, schlägt das Würfeln fehl.
    }
macros-saved-shadowed = Dein eigenes `${ $name }` hat beim Würfeln Vorrang; alle anderen bekommen das des Servers.
macros-show-heading =
    { $whose ->
        [server] `${ $name }` (Server-Makro):
       *[personal] `${ $name }` (dein Makro):
    }
macros-show-created = Angelegt von { $by } am { $when }.
macros-show-created-changed = Angelegt von { $by } am { $when }; zuletzt geändert von { $changed_by } am { $changed_when }.
macros-user-id = Nutzer { $id }
macros-show-shadowed = (Dein eigenes Makro hat beim Würfeln Vorrang.)
macros-show-none = Hier gibt es kein Makro namens „{ $name }“. `/makro liste` zeigt alle.
macros-list-empty = Hier gibt es noch keine Makros. Leg eins an mit `/makro festlegen name:feuerball ausdruck:8d6 Feuer`.
macros-list-personal = Deine Makros hier ({ $count }):
macros-list-server = Server-Makros ({ $count }):
macros-list-shadowed = (deins hat Vorrang)
macros-list-in-file = … (alle stehen in der angehängten Datei)
macros-list-filename = makros.txt
macros-list-file-description = Alle Makros, die du hier nutzen kannst
macros-deleted =
    { $whose ->
        [server] Server-Makro `${ $name }` gelöscht.
       *[personal] Dein Makro `${ $name }` gelöscht.
    }
macros-none-called =
    { $whose ->
        [server] Hier gibt es kein Server-Makro namens „{ $name }“.
       *[personal] Hier hast du kein Makro namens „{ $name }“.
    }
macros-choice-whose =
    { $whose ->
        [server] (Server)
       *[personal] (deins)
    }
macros-no-such-macro = Hier gibt es kein Makro namens `{ $name }`; `/makro liste` zeigt alle.
macros-no-character = Dieser Wurf nutzt Werte eines Charakters (`@…`), aber du spielst hier keinen. Erschaffe einen mit `/generator starten`.
