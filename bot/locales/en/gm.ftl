# Rolls for the game master (`/roll … to:gm`) and the GM settings of `/config`.
# Keys in this file start with `gm-`.

# What the channel sees of a roll for the GM. $name: the roller; $what: the label
# and the expression, without the result.
gm-roll-line = **{ $name }** rolls { $what } for the GM.
# The GM channel's message above the breakdown. $channel: the channel rolled in (an
# id); $link: Discord's link to it.
gm-roll-header = **{ $name }** rolled for the GM in <#{ $channel }> ({ $link }):
# A GM's own roll for the GM: the channel sees nothing.
gm-roll-sent = Sent to the GM channel <#{ $channel }>; the table sees nothing.
gm-roll-no-channel = No GM channel is set on this server, so only you see this roll. A server admin sets one with `/config gm-channel`.
gm-roll-in-dms = There is no GM in direct messages: only you see this roll.
# $permission: the permission the bot lacks in the GM channel.
gm-channel-refused = I may not post in the GM channel: I lack the **{ $permission }** permission there. So only you see this roll. Ask a server admin to give it to me there, or to choose another channel with `/config gm-channel`.
gm-reveal-button = Reveal
gm-reveal-not-allowed = Only a GM (the GM role, or members with Manage Server or the macro role) can reveal a roll for the GM.
# In the channel rolled in. $name: the roller; $by: the GM who revealed it.
gm-revealed = **{ $name }**'s roll for the GM, revealed by **{ $by }**:
# Below the GM channel's message once revealed.
gm-revealed-note = Revealed by **{ $by }**.
gm-config-not-allowed = Only members with the Manage Server permission (or the macro role, for the GM channel) can set where rolls for the GM go and who is a GM.
gm-channel-set = Rolls for the GM (`/roll … to:gm`) now go to <#{ $channel }>.
gm-channel-cleared = No GM channel is set: a roll for the GM goes privately to its roller.
gm-role-set = Members with the role <@&{ $role }> are GMs: they may reveal rolls for the GM, and their own rolls for the GM leave no trace in the channel.
gm-role-cleared = No GM role is set: members with Manage Server or the macro role are the GMs.
# Lines of `/config show`. $channel: a channel id or `none`; $role: a role id or `none`.
gm-show =
    - GM channel: { $channel ->
        [none] none (rolls for the GM stay private)
       *[other] <#{ $channel }>
    }
    - GM role: { $role ->
        [none] none (Manage Server and the macro role)
       *[other] <@&{ $role }>
    }
