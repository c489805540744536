# Live-Begegnungen, Einstellungen und Ratenbegrenzung des Web-Dashboards (`tavern
# web`, Issue 25). Schlüssel beginnen mit `web-live-`. Als HTML-Text (maskiert).

web-live-encounters = Begegnungen
web-live-heading = Begegnungen auf { $server }
web-live-none = Auf diesem Server läuft keine Begegnung. Beginne eine in einem Kanal mit /init begin.
web-live-channel = Kanal { $channel } (SL { $gm })
web-live-title = Begegnung
web-live-hint = Diese Seite folgt der Begegnung, während sie sich ändert.
web-live-ended = Die Begegnung ist vorbei.
web-live-busy = Zu viele Live-Seiten sind offen; diese Seite lädt sich stattdessen selbst neu.
web-live-rate-heading = Zu viele Anfragen
web-live-rate-limited = Etwas langsamer bitte: Versuche es in { $wait } noch einmal.
web-live-settings = Einstellungen
web-live-settings-heading = Einstellungen von { $server }
web-live-settings-admins-only = Nur Mitglieder mit „Server verwalten“ oder der Makro-Rolle des Servers können diese Einstellungen ändern.
web-live-settings-language = Sprache der öffentlichen Nachrichten von Tavern
web-live-settings-language-auto = Die Discord-Sprache des Servers
web-live-settings-language-save = Sprache speichern
web-live-settings-role = Makro-Rolle (ihre ID; leer: keine)
web-live-settings-role-save = Rolle speichern
web-live-settings-role-invalid = Eine Rollen-ID ist eine Zahl, etwa 123456789012345678.
