# Würfe für die Spielleitung (`/würfeln … an:Spielleitung`) und die SL-Einstellungen
# von `/einstellungen`. Schlüssel in dieser Datei beginnen mit `gm-`.

gm-roll-line = **{ $name }** würfelt { $what } für die Spielleitung.
gm-roll-header = **{ $name }** hat in <#{ $channel }> für die Spielleitung gewürfelt ({ $link }):
gm-roll-sent = An den Kanal der Spielleitung <#{ $channel }> geschickt; der Tisch sieht nichts.
gm-roll-no-channel = Auf diesem Server ist kein Kanal der Spielleitung eingestellt, also siehst nur du diesen Wurf. Server-Admins stellen ihn mit `/einstellungen sl-kanal` ein.
gm-roll-in-dms = In Direktnachrichten gibt es keine Spielleitung: nur du siehst diesen Wurf.
gm-channel-refused = Im Kanal der Spielleitung darf ich nichts posten: mir fehlt dort die Berechtigung **{ $permission }**. Darum siehst nur du diesen Wurf. Bitte Server-Admins, sie mir dort zu geben oder mit `/einstellungen sl-kanal` einen anderen Kanal zu wählen.
gm-reveal-button = Aufdecken
gm-reveal-not-allowed = Nur die Spielleitung (die SL-Rolle, oder wer „Server verwalten“ oder die Makro-Rolle hat) kann einen Wurf für die Spielleitung aufdecken.
gm-revealed = **{ $name }**s Wurf für die Spielleitung, aufgedeckt von **{ $by }**:
gm-revealed-note = Aufgedeckt von **{ $by }**.
gm-config-not-allowed = Nur wer die Berechtigung „Server verwalten“ hat (oder, für den Kanal, die Makro-Rolle), kann einstellen, wohin Würfe für die Spielleitung gehen und wer Spielleitung ist.
gm-channel-set = Würfe für die Spielleitung (`/würfeln … an:Spielleitung`) gehen jetzt nach <#{ $channel }>.
gm-channel-cleared = Kein Kanal der Spielleitung eingestellt: ein Wurf für die Spielleitung geht privat an die Person, die würfelt.
gm-role-set = Wer die Rolle <@&{ $role }> hat, ist Spielleitung: darf Würfe für die Spielleitung aufdecken, und eigene Würfe für die Spielleitung hinterlassen im Kanal keine Spur.
gm-role-cleared = Keine SL-Rolle eingestellt: Spielleitung ist, wer „Server verwalten“ oder die Makro-Rolle hat.
gm-show =
    - Kanal der Spielleitung: { $channel ->
        [none] keiner (Würfe für die Spielleitung bleiben privat)
       *[other] <#{ $channel }>
    }
    - SL-Rolle: { $role ->
        [none] keine („Server verwalten“ und die Makro-Rolle)
       *[other] <@&{ $role }>
    }
