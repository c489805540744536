//! `tavern npc check` and `tavern npc play`, run as a script author runs them.

use std::path::PathBuf;

use crate::cli::{stderr, stdout, tavern};
use crate::support::TempDir;

fn repo_file(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

#[test]
fn check_accepts_the_sample_scripts() {
    for name in ["shopkeeper", "healer", "quest_giver"] {
        let script = repo_file(&format!("npc-core/scripts/{name}.ghul"));
        let output = tavern(&["npc", "check", script.to_str().unwrap()], "");
        assert_eq!(output.status.code(), Some(0), "{name}: {}", stderr(&output));
        assert_eq!(stdout(&output), "", "{name}");
    }
}

#[test]
fn check_prints_every_load_error_and_exits_1() {
    let cases: [(&str, &str); 5] = [
        (
            "CONV c { NATIVE { HAIL r } }\nRESP r { say \"x\" }\nRESP q { $zz }\n",
            "line 2: expected a response statement or `}`, found `say` (words are case-sensitive: write `SAY`)\n\
             line 3: unknown response `$zz` in call\n",
        ),
        (
            "CONV a { IMPORT { b } }\nCONV b { IMPORT { a } }\n",
            "line 2: IMPORT cycle: a -> b -> a\n",
        ),
        (
            // Every error of one definition, in one run.
            "RESP r {\n  SAY 5\n  SET_FLAG 256\n  TAKE -3\n}\n",
            "line 2: expected a string after SAY, found integer 5\n\
             line 3: flag id 256 is out of range 0..255\n\
             line 4: TAKE takes gold only: GOLD or its parameter id -2 (got -3)\n",
        ),
        (
            "RESP r { SET_FLAG 256 }\n",
            "line 1: flag id 256 is out of range 0..255\n",
        ),
        (
            "RESP r { SAY \"unterminated }\n",
            "line 1: unterminated string: expected a closing `\"` on the same line\n\
             line 2: expected `}` to close the block opened on line 1, found end of file\n",
        ),
    ];
    let dir = TempDir::new("npc-check");
    for (index, (script, expected)) in cases.iter().enumerate() {
        let path = dir.path(&format!("case{index}.ghul"));
        std::fs::write(&path, script).unwrap();
        let output = tavern(&["npc", "check", path.to_str().unwrap()], "");
        assert_eq!(output.status.code(), Some(1), "{script}");
        assert_eq!(stdout(&output), *expected, "{script}");
    }
    let output = tavern(
        &["npc", "check", dir.path("missing.ghul").to_str().unwrap()],
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
fn play_runs_the_sample_transcripts() {
    for name in ["shopkeeper", "healer", "quest_giver"] {
        let script = repo_file(&format!("npc-core/scripts/{name}.ghul"));
        let input =
            std::fs::read_to_string(repo_file(&format!("npc-core/tests/samples/{name}.in")))
                .unwrap();
        let expected =
            std::fs::read_to_string(repo_file(&format!("npc-core/tests/samples/{name}.out")))
                .unwrap();
        let output = tavern(&["npc", "play", script.to_str().unwrap()], &input);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        assert_eq!(stdout(&output), expected, "{name}");
    }
}

#[test]
fn play_covers_directives_players_and_load_errors() {
    let dir = TempDir::new("npc-play");
    let script = dir.path("guard.ghul");
    std::fs::write(
        &script,
        "CONV c_guard { NATIVE { HAIL r_hail PASS r_pass } }\n\
         RESP r_hail { SAY \"Halt! @everyone\" }\n\
         RESP r_pass { CHECK_FLAG 130 { SAY \"Go on.\" } { SAY \"Pay 5.\" TAKE_GOLD 5 SET_FLAG 130 } }\n",
    )
    .unwrap();
    let script = script.to_str().unwrap();
    let output = tavern(
        &["npc", "play", script],
        "@gold 7\n@talk guard c_guard The Guard\npass\npass  \n\n@player p2\n@talk guard c_guard The Guard\n@state\n@player p1\n@state\n",
    );
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "[talk The Guard]\nThe Guard: Halt! @everyone\n> pass\nThe Guard: Pay 5.\n> pass\n\
         The Guard: Go on.\n>\n[end bye]\n[talk The Guard]\nThe Guard: Halt! @everyone\n[end left]\n\
         [state s1/p2] gold=0 food=0 items=- party=- flags=- parms=-\n\
         [state s1/p1] gold=2 food=0 items=- party=- flags=global:130 parms=-\n"
    );
    let broken = dir.path("broken.ghul");
    std::fs::write(&broken, "CONV c { NATIVE { HAIL r } }\n").unwrap();
    let output = tavern(
        &["npc", "play", broken.to_str().unwrap()],
        "@talk x c X\nhello\n",
    );
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "[load error] line 1: unknown response `r` in NATIVE\n"
    );
}
