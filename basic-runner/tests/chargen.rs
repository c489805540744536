//! The character generator we ship, driven to the end with a seeded RNG.

use std::path::Path;
use std::sync::Arc;

use basic_runner::{Limits, Outcome, Program, RndMode, Session, run_transcript};

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn chargen() -> Arc<Program> {
    let program = Program::load(&read("programs/chargen.bas"), &Limits::default())
        .expect("chargen.bas loads");
    assert!(
        program.diagnostics().is_empty(),
        "{:?}",
        program.diagnostics()
    );
    assert!(program.uses_records());
    Arc::new(program)
}

#[test]
fn chargen_matches_its_golden_transcript() {
    let inputs = read("tests/golden/chargen_seed7.in");
    let mut session = Session::new(chargen(), RndMode::Seeded(7), Limits::default());
    let transcript = run_transcript(&mut session, inputs.lines(), true);
    assert_eq!(transcript.text, read("tests/golden/chargen_seed7.out"));
    let Outcome::Finished { records, .. } = transcript.outcome else {
        panic!("chargen did not finish: {:?}", transcript.outcome);
    };
    let summary: Vec<String> = records
        .iter()
        .map(|r| {
            r.fields
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            "NAME=Thorin CLASS=CLERIC RACE=HUMAN GENDER=MALE LEVEL=1 STR=11 INT=12 WIS=12 \
             DEX=8 CON=11 CHA=12 HP=2 AC=10 GOLD=50",
            "NAME=Ilsa CLASS=THIEF RACE=HUMAN GENDER=FEMALE LEVEL=1 STR=9 INT=13 WIS=7 \
             DEX=9 CON=8 CHA=11 HP=2 AC=9 GOLD=70",
        ]
    );
}

#[test]
fn chargen_pages_break_at_every_screen() {
    let inputs = read("tests/golden/chargen_seed7.in");
    let mut session = Session::new(chargen(), RndMode::Seeded(7), Limits::default());
    let transcript = run_transcript(&mut session, inputs.lines(), true);
    let pages = transcript.text.matches('\x0c').count();
    // title, four ability screens, three class lists, two characters with three pages each
    assert_eq!(pages, 1 + 4 + 4 + 2 * 3);
}

#[test]
fn chargen_runs_in_gw_basic_mode_and_every_seed_finishes() {
    let answers = ["1", "1", "1", "Y", "Hero", "M", "1", "1", "N"];
    // GW-BASIC's bare RANDOMIZE asks for the seed first.
    let with_seed: Vec<&str> = std::iter::once("42").chain(answers).collect();
    for mode in [
        RndMode::GwBasic,
        RndMode::GwBasicWithSeed(42),
        RndMode::Seeded(1),
        RndMode::Seeded(2),
        RndMode::Seeded(3),
    ] {
        let mut session = Session::new(chargen(), mode, Limits::default());
        let typed = if mode == RndMode::GwBasic {
            with_seed.clone()
        } else {
            answers.to_vec()
        };
        let transcript = run_transcript(&mut session, typed, false);
        let Outcome::Finished { records, .. } = transcript.outcome else {
            panic!("{mode:?}: {:?}\n{}", transcript.outcome, transcript.text);
        };
        assert_eq!(records.len(), 1, "{mode:?}");
        assert_eq!(records[0].get("CLASS"), Some("FIGHTER"));
        let hp: i32 = records[0]
            .get("HP")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        assert!((1..=11).contains(&hp), "{mode:?}: {hp}");
    }
}
