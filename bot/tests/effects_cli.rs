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

/// `--worded` prints the events as an encounter words them on Discord, in `--lang`:
/// the ward named, the dice shown, hit points in words; the echo and `[state]`
/// stay the protocol's, and without `--worded` nothing changes.
#[test]
fn play_worded_speaks_as_the_encounter() {
    let input = "@add Ana init=15 hp=30\n@add Orc init=12 hp=15 immune=POISON\n\
                 @apply FireWard Ana\n@apply Fireball Ana,Orc\n@apply Poison Orc\n@next\n";
    let cases = [
        (
            "en",
            "> @add Ana init=15 hp=30\n> @add Orc init=12 hp=15 immune=POISON\n\
             > @apply FireWard Ana\n* FireWard on Ana: protection against burn +5\n\
             > @apply Fireball Ana,Orc\n* Ana's FireWard takes 5 off Fireball.\n\
             * Fireball 3d6 (6,6,6) = 18 on Ana: 30 → 17 hit points\n\
             * Fireball 3d6 (6,6,6) = 18 on Orc: 15 → 0 hit points\n* Orc is down.\n\
             > @apply Poison Orc\n* Orc is immune to Poison.\n> @next\n[round 1] Ana\n",
        ),
        (
            "de",
            "> @add Ana init=15 hp=30\n> @add Orc init=12 hp=15 immune=POISON\n\
             > @apply FireWard Ana\n* FireWard auf Ana: Schutz gegen Burn +5\n\
             > @apply Fireball Ana,Orc\n* Bei Ana hält FireWard 5 von Fireball ab.\n\
             * Fireball 3d6 (6,6,6) = 18 auf Ana: 30 → 17 Trefferpunkte\n\
             * Fireball 3d6 (6,6,6) = 18 auf Orc: 15 → 0 Trefferpunkte\n* Orc geht zu Boden.\n\
             > @apply Poison Orc\n* Orc ist immun gegen Poison.\n> @next\n[Runde 1] Ana\n",
        ),
    ];
    let file = sample();
    for (lang, expected) in cases {
        let output = tavern(
            &[
                "effects",
                "play",
                file.to_str().unwrap(),
                "--worded",
                "--lang",
                lang,
            ],
            input,
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stdout(&output), expected, "{lang}");
    }
    // `--lang` alone is refused: the protocol's lines have no language.
    let output = tavern(
        &["effects", "play", file.to_str().unwrap(), "--lang", "de"],
        input,
    );
    assert_eq!(output.status.code(), Some(2));
}
