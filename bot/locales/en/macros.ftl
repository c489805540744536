# The texts of `/macro` and of rolls that use macros and fields. Keys in this file
# start with `macros-`. $whose is `personal` or `server` throughout.

macros-scope-unknown = `scope` is `server` or `me`, not `{ $scope }`.
macros-server-in-dms = Server macros live on servers; here you can keep your own (`scope: me`).
# For settings-not-allowed: what a member may not do.
macros-may-set-server = create or change server macros
macros-may-delete-server = delete server macros
macros-name-missing = A macro needs a name, e.g. `fireball`.
macros-name-invalid = `{ $name }` cannot be a macro name: use 1 to { $max } letters, digits and `_`, starting with a letter or `_`.
macros-name-is-dice = `{ $name }` reads as a dice expression, so it cannot be a macro name (`/roll { $name }` must roll it). Choose another name.
macros-expr-missing = A macro needs an expression, e.g. `8d6 fire`.
macros-expr-too-long = A macro's expression has at most { $max } characters.
macros-description-too-long = A description has at most { $max } characters.
# $caret: a code block with the input, a caret and the reason.
macros-invalid-expr =
    That expression is not valid, so `{ $name }` was not saved:
    { $caret }
macros-full =
    { $whose ->
        [server] This server has { $count } macros here, the most there can be. Delete one with `/macro delete` first.
       *[personal] You have { $count } macros here, the most there can be. Delete one with `/macro delete` first.
    }
# $reason: the dice error's reason.
macros-not-saved = `{ $name }` was not saved: { $reason }.
# $created: yes for a new macro, no for a changed one; $expr: its expression.
macros-saved =
    { $created ->
        [yes] { $whose ->
            [server] Saved server macro `${ $name }`: `{ $expr }`.
           *[personal] Saved your macro `${ $name }`: `{ $expr }`.
        }
       *[no] { $whose ->
            [server] Changed server macro `${ $name }`: `{ $expr }`.
           *[personal] Changed your macro `${ $name }`: `{ $expr }`.
        }
    }
# $names: the macros it uses that nobody defined, `$a`, `$b`; $count: how many.
macros-saved-undefined =
    { $count ->
        [one] Note: { $names } is not defined yet; rolling it fails until it is.
       *[other] Note: { $names } are not defined yet; rolling it fails until they are.
    }
macros-saved-shadowed = Your own `${ $name }` shadows it when you roll; others get the server's.
macros-show-heading =
    { $whose ->
        [server] `${ $name }` (server macro):
       *[personal] `${ $name }` (your macro):
    }
# $by, $changed_by: who (bold names); $when, $changed_when: date and time in UTC.
macros-show-created = Created by { $by } on { $when }.
macros-show-created-changed = Created by { $by } on { $when }; last changed by { $changed_by } on { $changed_when }.
# Someone whose name is not known.
macros-user-id = user { $id }
macros-show-shadowed = (Your own macro shadows it when you roll.)
macros-show-none = There is no macro called `{ $name }` here. `/macro list` shows them.
macros-list-empty = There are no macros here yet. Make one with `/macro set name:fireball expr:8d6 fire`.
macros-list-personal = Your macros here ({ $count }):
macros-list-server = Server macros ({ $count }):
macros-list-shadowed = (yours shadows it)
macros-list-in-file = … (all of them are in the attached file)
macros-list-filename = macros.txt
macros-list-file-description = Every macro you can use here
macros-deleted =
    { $whose ->
        [server] Deleted the server macro `${ $name }`.
       *[personal] Deleted your macro `${ $name }`.
    }
macros-none-called =
    { $whose ->
        [server] There is no server macro called `{ $name }` here.
       *[personal] There is no macro of yours called `{ $name }` here.
    }
# In an autocomplete suggestion, after the macro.
macros-choice-whose =
    { $whose ->
        [server] (server)
       *[personal] (yours)
    }
# After "I can't roll that" when the first word looks like a macro name.
macros-no-such-macro = There is no macro called `{ $name }` here; `/macro list` shows them.
macros-no-character = That roll uses a character's fields (`@…`), and you play no character here. Make one with `/chargen start`.
