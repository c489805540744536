# Die Texte des Web-Dashboards (`tavern web`). Schlüssel in dieser Datei beginnen
# mit `web-`. Sie erscheinen als HTML-Text (maskiert), nicht als Discord-Markdown.

web-servers = Server
web-logout = Abmelden
web-logout-everywhere = Überall abmelden
web-dev-login-banner = Entwicklungs-Anmeldung: Wer diese Adresse erreicht, ist als Spieler der Konsole angemeldet. Nur für den eigenen Rechner.
web-dev-login-button = Als Spieler der Konsole anmelden (Entwicklung)
web-dev-guild-name = Der Server der Konsole
web-login-heading = Anmelden
web-login-discord = Mit Discord anmelden
web-login-failed = Die Anmeldung mit Discord hat nicht geklappt. Bitte noch einmal versuchen.
web-login-cancelled = Die Anmeldung wurde bei Discord abgebrochen.
web-login-none = Es ist keine Anmeldung eingerichtet. Zum Entwickeln auf dem eigenen Rechner tavern web mit --dev-login starten.
web-not-logged-in = Du bist nicht angemeldet
web-error = Etwas ist schiefgegangen; versuch es gleich noch einmal
web-forbidden = Abgelehnt: Dieses Formular kam nicht von dieser Seite. Lade die Seite neu und versuch es noch einmal.
web-not-found = Nicht gefunden
web-servers-none = Du bist auf keinem Server, den Tavern kennt.
web-characters = Charaktere
web-macros = Makros
web-generators = Generatoren
web-npcs = NSCs
web-effects = Effekte
# $server: der Name des Servers.
web-characters-heading = Deine Charaktere auf { $server }
web-characters-none = Du hast hier noch keine Charaktere. Erschaffe einen mit /generator starten.
web-character-active = (hier gespielt)
web-character-use = Diesen Charakter hier spielen
web-character-delete = Löschen …
web-character-transcript = Das Protokoll des Generators
# $server: der Name des Servers.
web-macros-heading = Makros auf { $server }
web-macros-none = Hier gibt es noch keine Makros.
web-macro-name = Name
web-macro-expr = Würfelausdruck
web-macro-description = Beschreibung
web-macro-scope = Wessen
web-macro-scope-me = Meins
web-macro-scope-server = Des Servers
web-macro-save = Makro speichern
web-macro-delete = Löschen
web-back = Zurück
