//! The storage suite, run against SQLite and PostgreSQL alike.

use tavern::storage::{
    Backend, ButtonState, CharacterEffectsRow, Committed, EncounterChange, NewCharacter,
    NewEncounter, NewSession, SessionUpdate, Storage,
};

use crate::on_both_backends;

fn new_session(id: i64, user_id: i64, guild_id: i64) -> NewSession {
    NewSession {
        id,
        user_id,
        user_name: "Udo's player".to_owned(),
        guild_id,
        channel_id: 77,
        program: "chargen".to_owned(),
        program_hash: "abc".to_owned(),
        state: "{\"pc\":1}".to_owned(),
        prompt: "NAME? ".to_owned(),
        prompt_content: "```\nNAME? \n```".to_owned(),
        transcript: "HELLO\nNAME? ".to_owned(),
        now: 1_000,
        expires_at: 2_000,
    }
}

fn new_character(id: i64, name: &str) -> NewCharacter {
    NewCharacter {
        id,
        owner_id: 10,
        guild_id: 20,
        name: name.to_owned(),
        program: "chargen".to_owned(),
        program_hash: "abc".to_owned(),
        fields: r#"[["NAME","Udo"],["STR","17"]]"#.to_owned(),
        transcript: "…".to_owned(),
        gold: 120,
        food: 0,
        now: 5_000,
        capture: String::new(),
        numbered: false,
    }
}

on_both_backends!(migrations_are_idempotent);
async fn migrations_are_idempotent(storage: Storage) {
    storage.migrate().await.unwrap();
    storage.ping().await.unwrap();
    assert!(matches!(
        storage.backend(),
        Backend::Sqlite | Backend::Postgres
    ));
}

on_both_backends!(one_session_per_user_and_place);
async fn one_session_per_user_and_place(storage: Storage) {
    assert!(
        storage
            .insert_session(&new_session(1, 10, 20), &[])
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        storage
            .insert_session(&new_session(2, 10, 20), &[])
            .await
            .unwrap()
            .is_none()
    );
    // The same user in DMs (guild 0) and another user in the same guild are separate.
    assert!(
        storage
            .insert_session(&new_session(3, 10, 0), &[])
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        storage
            .insert_session(&new_session(4, 11, 20), &[])
            .await
            .unwrap()
            .is_some()
    );
    let row = storage.session_of(10, 20).await.unwrap().unwrap();
    assert_eq!(row.id, 1);
    assert_eq!(row.step, 0);
    assert_eq!(row.prompt_message_id, None);
    assert_eq!(row.prompt, "NAME? ");
    assert_eq!(storage.count_sessions().await.unwrap(), 3);
}

on_both_backends!(sessions_advance_only_from_the_expected_step);
async fn sessions_advance_only_from_the_expected_step(storage: Storage) {
    storage
        .insert_session(&new_session(1, 10, 20), &[])
        .await
        .unwrap();
    assert!(storage.set_prompt_message(1, 0, 555).await.unwrap());
    let found = storage
        .session_by_prompt_message(555)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.id, 1);
    let update = SessionUpdate {
        channel_id: 78,
        state: "{\"pc\":2}".to_owned(),
        prompt: "CLASS? ".to_owned(),
        prompt_content: "```\nCLASS? \n```".to_owned(),
        transcript: "HELLO\nNAME? Udo\nCLASS? ".to_owned(),
        now: 1_500,
        expires_at: 9_000,
    };
    // The step's character is stored with it, and kept with the session's name.
    let taken = storage
        .advance_session(1, 0, &update, &[new_character(101, "Udo")])
        .await
        .unwrap();
    assert_eq!(taken, Some(vec!["Udo".to_owned()]));
    // A second answer to the same prompt loses, and stores nothing.
    let lost = storage
        .advance_session(1, 0, &update, &[new_character(102, "Mira")])
        .await
        .unwrap();
    assert_eq!(lost, None);
    assert_eq!(storage.session_character_names(1).await.unwrap(), ["Udo"]);
    assert!(!storage.set_prompt_message(1, 0, 556).await.unwrap());
    let row = storage.session(1).await.unwrap().unwrap();
    assert_eq!(row.step, 1);
    assert_eq!(row.channel_id, 78);
    assert_eq!(row.prompt_message_id, None);
    assert_eq!(row.transcript, "HELLO\nNAME? Udo\nCLASS? ");
    assert_eq!(row.created_at, 1_000);
    assert_eq!(row.updated_at, 1_500);
    assert!(
        storage
            .session_by_prompt_message(555)
            .await
            .unwrap()
            .is_none()
    );
    assert!(!storage.delete_session(1, Some(0)).await.unwrap());
    assert!(storage.delete_session(1, Some(1)).await.unwrap());
    assert!(storage.session(1).await.unwrap().is_none());
    // The character outlives the session that took it.
    assert_eq!(storage.session_character_names(1).await.unwrap(), ["Udo"]);
    assert_eq!(storage.characters_of(10, 20).await.unwrap().len(), 1);
}

on_both_backends!(expired_sessions_are_found_oldest_first);
async fn expired_sessions_are_found_oldest_first(storage: Storage) {
    let mut late = new_session(1, 10, 20);
    late.expires_at = 3_000;
    storage.insert_session(&late, &[]).await.unwrap();
    let mut early = new_session(2, 11, 20);
    early.expires_at = 2_000;
    storage.insert_session(&early, &[]).await.unwrap();
    let mut fresh = new_session(3, 12, 20);
    fresh.expires_at = 9_000;
    storage.insert_session(&fresh, &[]).await.unwrap();
    let expired = storage.expired_sessions(3_000, 10).await.unwrap();
    let ids: Vec<i64> = expired.iter().map(|row| row.id).collect();
    assert_eq!(ids, vec![2, 1]);
    assert_eq!(storage.expired_sessions(3_000, 1).await.unwrap().len(), 1);
}

on_both_backends!(finishing_stores_characters_with_unique_names);
async fn finishing_stores_characters_with_unique_names(storage: Storage) {
    storage
        .insert_session(&new_session(1, 10, 20), &[])
        .await
        .unwrap();
    let names = storage
        .finish_session(
            Some((1, 0)),
            &[new_character(100, "Udo"), new_character(101, "udo")],
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(names, vec!["Udo".to_owned(), "udo 2".to_owned()]);
    assert!(storage.session(1).await.unwrap().is_none());
    // Finishing again stores nothing.
    assert!(
        storage
            .finish_session(Some((1, 0)), &[new_character(102, "Udo")])
            .await
            .unwrap()
            .is_none()
    );
    let list = storage.characters_of(10, 20).await.unwrap();
    assert_eq!(list.len(), 2);
    let udo = storage
        .character_named(10, 20, "UDO")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(udo.id, 100);
    assert_eq!(udo.gold, 120);
    assert_eq!(udo.fields, r#"[["NAME","Udo"],["STR","17"]]"#);
    assert_eq!(udo.created_at, 5_000);
    assert!(storage.characters_of(10, 0).await.unwrap().is_empty());
    assert_eq!(
        storage
            .character_names_starting(10, 20, "U", 25)
            .await
            .unwrap(),
        vec!["Udo".to_owned(), "udo 2".to_owned()]
    );
    // Renaming never takes another character's name, nor clashes with itself.
    assert_eq!(storage.rename_character(&udo, "UDO").await.unwrap(), "UDO");
    assert_eq!(
        storage.rename_character(&udo, "Udo 2").await.unwrap(),
        "Udo 2 2"
    );
    assert_eq!(storage.rename_character(&udo, "Udo").await.unwrap(), "Udo");
    // No character chosen: the one played is the newest.
    let newest = storage.playing_character(20, 10).await.unwrap().unwrap();
    assert_eq!(newest.id, 101);
    // Only the owner deletes, once.
    assert!(!storage.delete_character(11, 101).await.unwrap());
    assert!(storage.delete_character(10, 101).await.unwrap());
    assert!(!storage.delete_character(10, 101).await.unwrap());
    assert_eq!(storage.characters_of(10, 20).await.unwrap().len(), 1);
    assert!(storage.playing_character(0, 10).await.unwrap().is_none());
}

on_both_backends!(deleting_a_character_cascades);
async fn deleting_a_character_cascades(storage: Storage) {
    storage
        .insert_session(&new_session(1, 10, 20), &[])
        .await
        .unwrap();
    storage
        .finish_session(Some((1, 0)), &[new_character(100, "Udo")])
        .await
        .unwrap();
    sqlx::query("INSERT INTO character_items (character_id, item, count) VALUES ($1, $2, $3)")
        .bind(100_i64)
        .bind("t_torch")
        .bind(3_i64)
        .execute(storage.pool())
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO active_characters (guild_id, user_id, character_id, updated_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(20_i64)
    .bind(10_i64)
    .bind(100_i64)
    .bind(1_i64)
    .execute(storage.pool())
    .await
    .unwrap();
    assert!(storage.delete_character(10, 100).await.unwrap());
    let (items,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM character_items")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    let (active,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM active_characters")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    assert_eq!((items, active), (0, 0));
}

on_both_backends!(button_states_round_trip_and_purge);
async fn button_states_round_trip_and_purge(storage: Storage) {
    let state = ButtonState {
        id: i64::MAX,
        kind: "roll".to_owned(),
        payload: "{\"expr\":\"1d20\"}".to_owned(),
        created_at: 100,
    };
    storage.insert_button_state(&state).await.unwrap();
    assert_eq!(
        storage.button_state(i64::MAX).await.unwrap(),
        Some(state.clone())
    );
    // A payload is replaced in place (a GM roll's message once linked), the rest kept.
    let linked = "{\"expr\":\"1d20\",\"linked\":true}";
    assert!(storage.set_button_payload(i64::MAX, linked).await.unwrap());
    assert!(!storage.set_button_payload(1, linked).await.unwrap());
    let state = ButtonState {
        payload: linked.to_owned(),
        ..state
    };
    assert_eq!(storage.button_state(i64::MAX).await.unwrap(), Some(state));
    assert_eq!(storage.purge_button_states(100).await.unwrap(), 0);
    assert_eq!(storage.purge_button_states(101).await.unwrap(), 1);
    assert!(storage.button_state(i64::MAX).await.unwrap().is_none());
}

on_both_backends!(a_servers_language_is_kept_beside_its_other_settings);
async fn a_servers_language_is_kept_beside_its_other_settings(storage: Storage) {
    assert_eq!(storage.guild_language(5).await.unwrap(), None);
    storage.set_macro_role(5, Some(77), 1, 100).await.unwrap();
    storage
        .set_guild_language(5, Some("de"), 2, 200)
        .await
        .unwrap();
    assert_eq!(
        storage.guild_language(5).await.unwrap().as_deref(),
        Some("de")
    );
    // Setting the language leaves the role alone, and auto clears the column.
    assert_eq!(storage.tavern_role(5).await.unwrap(), Some(77));
    storage.set_guild_language(5, None, 2, 300).await.unwrap();
    assert_eq!(storage.guild_language(5).await.unwrap(), None);
    assert_eq!(storage.guild_language(6).await.unwrap(), None);
}

on_both_backends!(text_survives_unchanged);
async fn text_survives_unchanged(storage: Storage) {
    let mut session = new_session(1, 10, 20);
    session.transcript = "@everyone <@123> 'quotes' \"double\" \\ ÉPÉE 🎲\n\ttab".to_owned();
    storage.insert_session(&session, &[]).await.unwrap();
    let row = storage.session(1).await.unwrap().unwrap();
    assert_eq!(row.transcript, session.transcript);
    // Snowflakes use the whole signed 64-bit range.
    let mut big = new_session(i64::MAX, i64::MAX - 1, 1_234_567_890_123_456_789);
    big.channel_id = i64::MAX;
    storage.insert_session(&big, &[]).await.unwrap();
    let row = storage.session(i64::MAX).await.unwrap().unwrap();
    assert_eq!(
        (row.user_id, row.guild_id),
        (i64::MAX - 1, 1_234_567_890_123_456_789)
    );
}

#[tokio::test]
async fn sqlite_files_are_created_with_wal_and_foreign_keys() {
    let dir = crate::support::TempDir::new("pragmas");
    let path = dir.path("nested-name with space.db");
    assert!(!path.exists());
    let storage = crate::support::sqlite_storage_at(&path).await;
    assert!(path.exists());
    let (mode,): (String,) = sqlx::query_as("PRAGMA journal_mode")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    let (sync,): (i64,) = sqlx::query_as("PRAGMA synchronous")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    let (foreign_keys,): (i64,) = sqlx::query_as("PRAGMA foreign_keys")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    assert_eq!((mode.as_str(), sync, foreign_keys), ("wal", 1, 1));
    storage.close().await;
}

fn new_encounter(id: i64, channel_id: i64) -> NewEncounter {
    NewEncounter {
        id,
        guild_id: 20,
        channel_id,
        gm_id: 10,
        gm_name: "Gamemaster".to_owned(),
        state: "{}".to_owned(),
        seats: "[]".to_owned(),
        now: 1_000,
    }
}

fn change(state: &str, now: i64) -> EncounterChange {
    EncounterChange {
        state: Some((state.to_owned(), "[]".to_owned())),
        now,
        ..EncounterChange::default()
    }
}

on_both_backends!(encounters_change_only_from_the_expected_step);
async fn encounters_change_only_from_the_expected_step(storage: Storage) {
    assert!(
        storage
            .insert_encounter(&new_encounter(1, 77))
            .await
            .unwrap()
    );
    // One encounter per channel.
    assert!(
        !storage
            .insert_encounter(&new_encounter(2, 77))
            .await
            .unwrap()
    );
    assert!(
        storage
            .insert_encounter(&new_encounter(3, 78))
            .await
            .unwrap()
    );
    let committed = storage
        .commit_encounter(1, 0, &change("{\"a\":1}", 2_000))
        .await;
    assert_eq!(committed.unwrap(), Committed::Done { step: 1 });
    // A second change from step 0 (a double press) finds the step moved.
    let again = storage
        .commit_encounter(1, 0, &change("{\"b\":2}", 3_000))
        .await;
    assert_eq!(again.unwrap(), Committed::Stale);
    let row = storage.encounter_in_channel(77).await.unwrap().unwrap();
    assert_eq!(
        (
            row.id,
            row.step,
            row.state.as_str(),
            row.updated_at,
            row.message_id
        ),
        (1, 1, "{\"a\":1}", 2_000, None)
    );
    assert!(storage.set_encounter_message(1, 4_242).await.unwrap());
    assert_eq!(
        storage.encounter(1).await.unwrap().unwrap().message_id,
        Some(4_242)
    );
    storage.clear_encounter_message(1).await.unwrap();
    assert_eq!(
        storage.encounter(1).await.unwrap().unwrap().message_id,
        None
    );
}

on_both_backends!(a_character_sits_in_one_encounter_and_keeps_what_it_leaves_with);
async fn a_character_sits_in_one_encounter_and_keeps_what_it_leaves_with(storage: Storage) {
    storage
        .finish_session(None, &[new_character(50, "Udo")])
        .await
        .unwrap();
    storage
        .insert_encounter(&new_encounter(1, 77))
        .await
        .unwrap();
    storage
        .insert_encounter(&new_encounter(2, 78))
        .await
        .unwrap();
    let join = EncounterChange {
        join: Some(50),
        ..change("{}", 2_000)
    };
    assert_eq!(
        storage.commit_encounter(1, 0, &join).await.unwrap(),
        Committed::Done { step: 1 }
    );
    // Seated elsewhere: the second encounter's change is not stored at all.
    assert_eq!(
        storage.commit_encounter(2, 0, &join).await.unwrap(),
        Committed::CharacterBusy
    );
    assert_eq!(storage.encounter(2).await.unwrap().unwrap().step, 0);
    let written = CharacterEffectsRow {
        character_id: 50,
        fields: r#"[["HP","7"]]"#.to_owned(),
        effects: "[]".to_owned(),
        updated_at: 3_000,
    };
    // Ending: the row goes, the character stands up, what it keeps is stored.
    let end = EncounterChange {
        state: None,
        now: 3_000,
        leave: vec![50],
        write_backs: vec![
            written.clone(),
            // A character deleted meanwhile gets nothing (no orphan row).
            CharacterEffectsRow {
                character_id: 51,
                ..written.clone()
            },
        ],
        ..EncounterChange::default()
    };
    assert_eq!(
        storage.commit_encounter(1, 0, &end).await.unwrap(),
        Committed::Stale
    );
    assert_eq!(
        storage.commit_encounter(1, 1, &end).await.unwrap(),
        Committed::Done { step: 2 }
    );
    assert!(storage.encounter(1).await.unwrap().is_none());
    assert_eq!(
        storage.character_effects(50).await.unwrap(),
        Some(written.clone())
    );
    assert_eq!(storage.character_effects(51).await.unwrap(), None);
    // Free again: it may join the other encounter; a rewrite replaces the row.
    assert_eq!(
        storage.commit_encounter(2, 0, &join).await.unwrap(),
        Committed::Done { step: 1 }
    );
    let rewritten = CharacterEffectsRow {
        fields: r#"[["HP","3"]]"#.to_owned(),
        updated_at: 4_000,
        ..written
    };
    let end = EncounterChange {
        state: None,
        now: 4_000,
        leave: vec![50],
        write_backs: vec![rewritten.clone()],
        ..EncounterChange::default()
    };
    storage.commit_encounter(2, 1, &end).await.unwrap();
    assert_eq!(
        storage.character_effects(50).await.unwrap(),
        Some(rewritten)
    );
    // Deleting the character deletes what it kept.
    assert!(storage.delete_character(10, 50).await.unwrap());
    assert_eq!(storage.character_effects(50).await.unwrap(), None);
}

/// Writes that read first, many at once on one SQLite file: each waits its turn. A
/// deferred transaction that had read could not take the write lock after another
/// connection wrote (`SQLITE_BUSY_SNAPSHOT`, not waited out by the busy timeout), so
/// `/npc install` under load failed with "database is locked" (the shard bench saw
/// 5 of 250).
#[tokio::test]
async fn concurrent_writes_that_read_first_all_land_on_sqlite() {
    let dir = crate::support::TempDir::new("concurrent-writes");
    let storage = crate::support::sqlite_storage_at(&dir.path("tavern.db")).await;
    let installs = (0..48).map(|index| {
        let storage = storage.clone();
        tokio::spawn(async move {
            let script = tavern::storage::NewNpcScript {
                id: 1_000 + index,
                guild_id: 7,
                name: format!("npc{index}"),
                display: format!("Npc {index}"),
                source: "(kern-mk-conv 'start)".to_owned(),
                source_hash: format!("{index:016x}"),
                installed_by: 42,
                now: 1_700_000_000 + index,
            };
            storage.install_npc(&script).await
        })
    });
    let mut failures = Vec::new();
    for install in installs.collect::<Vec<_>>() {
        if let Err(error) = install.await.expect("task") {
            failures.push(error.to_string());
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM npc_scripts")
        .fetch_one(storage.pool())
        .await
        .unwrap();
    assert_eq!(count, 48);
    storage.close().await;
}
