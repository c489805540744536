//! The engines of the core's tests: the real `dice-core` and `basic-runner`, with
//! small BASIC programs written to reach every path of a session (page breaks, long
//! output, run-time errors, limits, refusals, programs without questions or records),
//! and a step limit small enough that an endless loop ends at once.

use std::sync::Arc;

use tavern::config::Config;
use tavern::engine::ProgramText;
use tavern::engine::basic::{BasicEngine, limits_from_config};

/// The generator the core tests run by default: three questions over two pages.
pub const CHARGEN: &str = r#"10 PRINT "WELCOME TO THE TEST GENERATOR"
20 PRINT "@everyone <@123> cannot ping"
30 INPUT "WHAT IS YOUR NAME"; N$
40 PRINT "HELLO "; N$
50 PRINT CHR$(12);
60 PRINT "STRENGTH 17"
70 INPUT "CLASS (1=FIGHTER 2=MAGIC USER 3=CLERIC 4=THIEF 5=ELF 6=DWARF)"; C
80 INPUT "GENDER"; G$
90 PRINT "FAREWELL "; N$
100 RECORD "NAME", N$, "CLASS", C, "GENDER", G$, "STR", 17, "GOLD", "120 GP"
"#;

const LONG: &str = r#"10 FOR I = 0 TO 399
20 PRINT RIGHT$("000" + MID$(STR$(I), 2), 4); " A LINE OF OUTPUT THAT FILLS THE SCREEN"
30 NEXT I
40 INPUT "NAME"; N$
50 FOR I = 0 TO 2999: PRINT RIGHT$("000" + MID$(STR$(I), 2), 4); " THE END IS NEAR": NEXT I
60 RECORD "NAME", N$
"#;

const CRASH: &str = r#"10 PRINT "ROLLING"
20 INPUT "NAME"; N$
30 PRINT "ALMOST"
40 DIM A(5)
4350 A(10) = 1
"#;

const LOOP: &str = r#"10 PRINT "SPINNING"
100 GOTO 100
"#;

const REFUSED: &str = r#"10 PRINT "HELLO"
20 OPEN "HEROES.DAT" FOR OUTPUT AS #1
"#;

/// Seven letters that a DEFINT may or may not have retyped when line 20 runs:
/// more combinations than the compiler makes copies of a statement for.
const RETYPED: &str = r#"10 IF RND(1) > .5 THEN DEFINT A-G
20 PRINT A + B + C + D + E + F + G
"#;

const INSTANT: &str = r#"10 PRINT "NO QUESTIONS"
20 RECORD "NAME", "Quick", "HP", 4
30 RECORD "NAME", "Quick", "HP", 5
"#;

const PLAIN: &str = r#"10 INPUT "NAME"; N$
20 PRINT "BYE"
"#;

/// Programs: the default `chargen` first, then programs for the odd paths.
pub fn programs() -> Vec<ProgramText> {
    vec![
        ProgramText::new("chargen", CHARGEN),
        ProgramText::new("long", LONG),
        ProgramText::new("crash", CRASH),
        ProgramText::new("loop", LOOP),
        ProgramText::new("refused", REFUSED),
        ProgramText::new("retyped", RETYPED),
        ProgramText::new("instant", INSTANT),
        ProgramText::new("plain", PLAIN),
    ]
}

/// The sandbox of the tests: the defaults, but an endless loop stops after 100,000
/// steps.
pub fn test_config() -> Config {
    let mut config = Config::default();
    config.basic.max_steps_per_resume = Some(100_000);
    config
}

pub fn engines() -> tavern::engine::Engines {
    let config = test_config();
    tavern::engine::Engines {
        dice: tavern::engine::real_dice(&config),
        generators: Arc::new(BasicEngine::new(limits_from_config(&config.basic))),
        builtin_programs: programs(),
    }
}
