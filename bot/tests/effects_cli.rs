//! `tavern effects check` and `tavern effects play`, run as an effect author runs them.

use std::path::PathBuf;

use crate::cli::{stderr, stdout, tavern};
use crate::support::TempDir;

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../npc-core/scripts/effects.ghul")
}

#[test]
fn check_exit_codes_and_error_lines() {
    let output = tavern(&["effects", "check", sample().to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");

    let dir = TempDir::new("effects-check");
    let broken = dir.path("broken.ghul");
    std::fs::write(
        &broken,
        "ELEMENTS { FIRE }\nEFFECT A { target_type Tile; subject HitPoints; value -1 }\n\
         EFFECT B { target_type Character; subject HitPoints; value /0; method (ICE) }\n",
    )
    .unwrap();
    let output = tavern(&["effects", "check", broken.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "line 2: target type `Tile` needs a map, and Tavern has no map (supported: Character, Effect)\n\
         line 3: division by zero: `/0`\n\
         line 3: unknown element `ICE` (declare it in ELEMENTS)\n"
    );

    let output = tavern(
        &[
            "effects",
            "check",
            dir.path("missing.ghul").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot read"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn play_runs_the_protocol_on_stdin() {
    let input = "@add Ana init=15 hp=30\n@add Orc init=12 hp=15 immune=POISON\n\
                 @apply Fireball Ana,Orc\n@apply Poison Orc\n@next\n@state\n";
    let output = tavern(&["effects", "play", sample().to_str().unwrap()], input);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "> @add Ana init=15 hp=30\n> @add Orc init=12 hp=15 immune=POISON\n\
         > @apply Fireball Ana,Orc\n* Fireball on Ana: HitPoints 30 -> 12\n\
         * Fireball on Orc: HitPoints 15 -> 0\n* Orc is down.\n\
         > @apply Poison Orc\n* Orc is immune to Poison.\n\
         > @next\n[round 1] Ana\n> @state\n\
         [state] Ana hp=12/30 immune={} protect={} flags={} effects=-\n\
         [state] Orc hp=0/15 immune={POISON} protect={} flags={} effects=-\n"
    );

    // A file that does not load: its load errors only, exit 0 (as `npc play`).
    let dir = TempDir::new("effects-play");
    let broken = dir.path("broken.ghul");
    std::fs::write(&broken, "EFFECT A { }\n").unwrap();
    let output = tavern(&["effects", "play", broken.to_str().unwrap()], "@next\n");
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).starts_with("[load error] line 1: EFFECT A has no `target_type`"));

    // A very long line is cut when read and refused, and play goes on.
    let long = format!(
        "@state {}\n@add A init=1 hp=1\n@state\n",
        "x".repeat(100_000)
    );
    let output = tavern(&["effects", "play", sample().to_str().unwrap()], &long);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains("[error] the line is longer than 1024 bytes\n"),
        "{text}"
    );
    assert!(text.ends_with("> @state\n[state] A hp=1/1 immune={} protect={} flags={} effects=-\n"));
    assert!(text.len() < 4_000);
}
