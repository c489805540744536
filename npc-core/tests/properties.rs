//! Z3: no script text and no player input can panic, hang or grow without bound.
//!
//! Three generators: raw text, token soup (near-misses of the grammar), and
//! well-formed scripts built from the grammar (so the engine, not only the
//! checker, gets exercised), each played with arbitrary input lines.

use npc_core::{Limits, check, load, play};
use proptest::prelude::*;

/// Words and symbols the grammar knows, plus a few it does not.
const VOCABULARY: &[&str] = &[
    "CONV",
    "RESP",
    "IMPORT",
    "NATIVE",
    "{",
    "}",
    "{",
    "}",
    "SAY",
    "\"hi\"",
    "\"\"",
    "TRADE",
    "TURN_AWAY",
    "SET_FLAG",
    "CLEAR_FLAG",
    "TAKE_GOLD",
    "TAKE",
    "GOLD",
    "CHANGE_PARM",
    "SET_PARM",
    "TAKE_ITEM",
    "GIVE_ITEM",
    "JOIN",
    "ATTACK",
    "GET_AMOUNT",
    "EXIT",
    "GET_YES_NO",
    "CHECK_PARM",
    "CHECK_FLAG",
    "CHECK_ITEM",
    "CHECK_MEMBER",
    "MENU",
    "BREAK",
    "AMOUNT",
    "ACTIVITY",
    "FOOD",
    "$r_a",
    "$r_b",
    "r_a",
    "r_b",
    "c_a",
    "c_b",
    "HAIL",
    "BYE",
    "DEFAULT",
    "t_x",
    "0",
    "1",
    "-1",
    "+5",
    "300",
    "99999999999",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    ";",
    "//",
    "/*",
    "*/",
    "\"",
    "\\",
    "say",
    "é",
    "#",
    "\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..120)
        .prop_map(|tokens| tokens.join(" "))
}

/// Player lines: keywords, prompt answers, trade commands, directives, junk.
fn input_line() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "hail",
            "bye",
            "",
            "   ",
            "job",
            "name",
            "a",
            "b",
            "c",
            "yes",
            "no",
            "y",
            "n",
            "0",
            "5",
            "2147483648",
            "-1",
            "done",
            "buy t_x",
            "sell t_x 3",
            "buy x 99999999999999999999",
            "choice 0",
            "choice 1",
            "Choice 2",
            "@state",
            "@gold 100",
            "@item t_x 4",
            "@member m",
            "@activity npc 2",
            "@player p2",
            "@talk npc c_0 Npc",
            "@talk npc c_1 N",
            "@talk",
            "@",
            "???",
        ])
        .prop_map(str::to_string),
        "\\PC{0,40}",
    ]
}

fn input_text() -> impl Strategy<Value = String> {
    prop::collection::vec(input_line(), 0..40).prop_map(|lines| {
        let mut text = String::from("@talk npc c_0 Npc\n");
        text.push_str(&lines.join("\n"));
        text
    })
}

/// A well-formed script: `convs` conversations importing later ones (no
/// cycles), responses calling only later ones (no cycles), every MENU with a
/// BREAK choice.
fn grammar_script() -> impl Strategy<Value = String> {
    let statement = prop::sample::select(vec![
        "SAY \"hi\"",
        "SAY \"<@1> @everyone\"",
        "SET_FLAG 1",
        "SET_FLAG 200",
        "CLEAR_FLAG 1",
        "TAKE_GOLD",
        "TAKE GOLD 3",
        "CHANGE_PARM 1 +2147483647",
        "CHANGE_PARM GOLD -5",
        "SET_PARM AMOUNT 4",
        "TAKE_ITEM t_x 2",
        "GIVE_ITEM t_x 3",
        "JOIN",
        "GET_AMOUNT",
        "GET_YES_NO { SAY \"y\" } { SAY \"n\" }",
        "CHECK_PARM AMOUNT > 2 { SAY \"big\" } { }",
        "CHECK_FLAG 1 { SAY \"set\" } { SET_FLAG 1 }",
        "CHECK_ITEM t_x >= 2 { TAKE_ITEM t_x } { }",
        "CHECK_MEMBER npc { SAY \"member\" } { }",
        "TRADE { t_x 5 t_y 1 }",
        "MENU { \"choice 0\" 3 { SAY \"zero\" } \"choice 1\" { BREAK } \"Choice 2\" { MENU { \"choice 0\" { BREAK } } } }",
        "TURN_AWAY",
        "ATTACK",
        "EXIT",
        "CALL",
        "CALL",
    ]);
    let body = prop::collection::vec(statement, 0..6);
    prop::collection::vec(body, 1..8).prop_map(|bodies| {
        let count = bodies.len();
        let mut script = String::new();
        for conv in 0..3 {
            let imports = if conv < 2 {
                format!("IMPORT {{ c_{} }}", conv + 1)
            } else {
                String::new()
            };
            let keywords: Vec<String> = ["HAIL", "JOB", "NAME", "DEFAULT", "BYE"]
                .iter()
                .enumerate()
                .filter(|(index, _)| (index + conv) % 2 == 0)
                .map(|(index, word)| format!("{word} r_{}", (index + conv) % count))
                .collect();
            script.push_str(&format!(
                "CONV c_{conv} {{ {imports} NATIVE {{ {} }} }}\n",
                keywords.join(" ")
            ));
        }
        for (index, body) in bodies.iter().enumerate() {
            let statements: Vec<String> = body
                .iter()
                .map(|statement| {
                    if *statement == "CALL" {
                        if index + 1 < count {
                            format!("$r_{} $r_{}", index + 1, count - 1)
                        } else {
                            "SAY \"leaf\"".to_string()
                        }
                    } else {
                        statement.to_string()
                    }
                })
                .collect();
            script.push_str(&format!("RESP r_{index} {{ {} }}\n", statements.join(" ")));
        }
        script
    })
}

/// A transcript is bounded by the input: per input line at most one turn's
/// output cap, plus the echo.
fn assert_bounded(transcript: &str, input: &str) {
    let limits = Limits::default();
    let turns = input.lines().count() + 2;
    let bound = turns * (limits.max_turn_output_bytes + input.len() + 64);
    assert!(
        transcript.len() <= bound,
        "transcript of {} bytes",
        transcript.len()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn raw_text_never_panics(script in "\\PC{0,300}", input in input_text()) {
        let errors = check(&script);
        let transcript = play(&script, &input);
        if !errors.is_empty() {
            prop_assert!(transcript.lines().all(|line| line.starts_with("[load error] line ")));
        }
        assert_bounded(&transcript, &input);
    }

    #[test]
    fn token_soup_never_panics(script in token_soup(), input in input_text()) {
        let errors = check(&script);
        for error in &errors {
            prop_assert!(error.line >= 1);
            prop_assert!(error.line as usize <= script.lines().count() + 1);
        }
        let transcript = play(&script, &input);
        assert_bounded(&transcript, &input);
    }

    #[test]
    fn grammar_scripts_load_and_play(script in grammar_script(), input in input_text()) {
        prop_assert!(load(&script).is_ok(), "{:?}", check(&script));
        let transcript = play(&script, &input);
        prop_assert!(transcript.starts_with("[talk Npc]\n"));
        // Every conversation that starts also ends, exactly once.
        let talks = transcript.lines().filter(|l| l.starts_with("[talk ")).count();
        let ends = transcript.lines().filter(|l| l.starts_with("[end ")).count();
        prop_assert_eq!(talks, ends);
        assert_bounded(&transcript, &input);
    }
}

#[test]
fn deep_call_chains_and_import_chains_do_not_overflow_the_stack() {
    let links = 15_000;
    let mut script = String::new();
    for index in 0..links {
        script.push_str(&format!(
            "CONV c{index} {{ IMPORT {{ c{} }} }}\n",
            index + 1
        ));
        script.push_str(&format!("RESP r{index} {{ $r{} }}\n", index + 1));
    }
    script.push_str(&format!("CONV c{links} {{ NATIVE {{ GO r0 }} }}\n"));
    script.push_str(&format!("RESP r{links} {{ SAY \"bottom\" }}\n"));
    let transcript = play(&script, "@talk n c0 N\ngo\n");
    // 15,001 calls exceed the budget: the turn is stopped, nothing crashes.
    assert_eq!(
        transcript,
        "[talk N]\n> go\n[error] the script ran more than 10000 statements without waiting for the player\n[end error]\n"
    );
}

#[test]
fn exponential_diamonds_of_imports_stay_fast_to_search() {
    // Each level imports the next twice over: 2^40 paths, 41 conversations.
    let mut script = String::new();
    for level in 0..40 {
        script.push_str(&format!(
            "CONV c_{level} {{ IMPORT {{ c_{next} c_{next} }} }}\n",
            next = level + 1
        ));
    }
    script.push_str("CONV c_40 { NATIVE { JOB r } }\nRESP r { SAY \"found\" }\n");
    let transcript = play(&script, "@talk n c_0 N\nxyz\njob\n");
    assert_eq!(
        transcript,
        "[talk N]\n> xyz\n* No reply.\n> job\nN: found\n[end left]\n"
    );
}
