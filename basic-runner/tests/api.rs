//! The session API as the bot uses it.

use std::sync::Arc;

use basic_runner::{
    ErrorCode, Expected, Limits, Program, RndMode, RunErrorKind, Session, StepState, SyntaxProblem,
};

fn session(source: &str) -> Session {
    let program = Program::load(source, &Limits::default()).expect("program loads");
    Session::new(Arc::new(program), RndMode::Seeded(5), Limits::default())
}

fn prompt_of(state: &StepState) -> Option<&str> {
    match state {
        StepState::NeedsInput { prompt } => Some(prompt),
        StepState::Finished { .. } => None,
    }
}

#[test]
fn the_prompt_is_the_last_line_of_output() {
    let mut session =
        session("10 PRINT \"INTRO\"\n20 PRINT \"YOUR NAME\";\n30 INPUT N$\n40 PRINT N$\n");
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, "INTRO\nYOUR NAME? ");
    assert_eq!(prompt_of(&step.state), Some("YOUR NAME? "));
    assert_eq!(session.waiting_prompt(), Some("YOUR NAME? "));
}

#[test]
fn input_keys_wait_without_echo_and_keep_their_line_as_the_prompt() {
    let mut session = session("10 PRINT \"KEYS\";: A$ = INPUT$(3)\n20 PRINT \"[\"; A$; \"]\"\n");
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, "KEYS");
    assert_eq!(prompt_of(&step.state), Some("KEYS"));
    assert!(!session.input_is_shown());
    assert!(!session.input_ends_line());
    // two keys of three: nothing printed, the line so far is still the prompt
    let more = session.resume(Some("ab")).expect("waits on");
    assert_eq!(more.output, "");
    assert_eq!(prompt_of(&more.state), Some("KEYS"));
    assert_eq!(session.waiting_prompt(), Some("KEYS"));
    let done = session.resume(Some("cd")).expect("finishes");
    assert_eq!(done.output, "[abc]\n");
    assert!(matches!(done.state, StepState::Finished { .. }));
}

#[test]
fn resuming_without_input_repeats_the_prompt() {
    let mut session = session("10 INPUT \"X\"; X\n20 PRINT X\n");
    session.resume(None).expect("runs");
    let again = session.resume(None).expect("still waits");
    assert_eq!(again.output, "");
    assert_eq!(prompt_of(&again.state), Some("X? "));
    let done = session.resume(Some("4")).expect("finishes");
    assert_eq!(done.output, " 4 \n");
}

#[test]
fn a_wrong_answer_prints_redo_and_the_prompt_again() {
    let mut session = session("10 INPUT \"AGE\"; A\n20 PRINT A\n");
    session.resume(None).expect("runs");
    let redo = session.resume(Some("old")).expect("asks again");
    assert_eq!(redo.output, "?Redo from start\nAGE? ");
    assert_eq!(prompt_of(&redo.state), Some("AGE? "));
    let done = session.resume(Some("33")).expect("finishes");
    assert_eq!(done.output, " 33 \n");
}

#[test]
fn a_finished_session_reports_its_records_and_variables_again() {
    let mut session = session(
        "10 A = 1.5: B$ = \"Hi\": C% = 3: D# = 1# / 3\n20 RECORD \"NAME\", B$, \"LEVEL\", C%\n",
    );
    let first = session.resume(None).expect("runs");
    let StepState::Finished { records, variables } = &first.state else {
        panic!("expected the end, got {first:?}");
    };
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].get("name"), Some("Hi"));
    assert_eq!(records[0].get("LEVEL"), Some("3"));
    assert_eq!(
        variables,
        &vec![
            ("A".to_string(), "1.5".to_string()),
            ("B$".to_string(), "Hi".to_string()),
            ("C%".to_string(), "3".to_string()),
            ("D#".to_string(), ".3333333333333333".to_string()),
        ]
    );
    let again = session.resume(Some("ignored")).expect("still finished");
    assert_eq!(again.output, "");
    assert_eq!(again.state, first.state);
    assert!(session.is_over());
}

#[test]
fn an_error_carries_kind_line_message_and_output() {
    let mut session = session("10 PRINT \"PARTIAL\";\n20 DIM A(3)\n30 A(4) = 1\n");
    let error = session.resume(None).expect_err("fails");
    assert_eq!(
        error.kind(),
        RunErrorKind::Basic(ErrorCode::SubscriptOutOfRange)
    );
    assert_eq!(error.line(), Some(30));
    assert_eq!(error.message(), "Subscript out of range in 30");
    assert_eq!(error.output(), "PARTIAL");
    assert_eq!(
        error.transcript(),
        "PARTIAL\nSubscript out of range in 30\n"
    );
    assert_eq!(ErrorCode::SubscriptOutOfRange.number(), 9);
    let again = session.resume(None).expect_err("stays failed");
    assert_eq!(again, error);
}

#[test]
fn programs_report_all_syntax_errors_at_load_and_still_run() {
    let program = Program::load(
        "10 PRINT \"OK\"\n20 IF THEN\n30 END\n40 X = (\n",
        &Limits::default(),
    )
    .expect("broken lines still load");
    let lines: Vec<u32> = program.diagnostics().iter().map(|d| d.line).collect();
    assert_eq!(lines, vec![20, 40]);
    let mut session = Session::new(Arc::new(program), RndMode::GwBasic, Limits::default());
    let error = session.resume(None).expect_err("line 20 runs");
    assert_eq!(error.message(), "Syntax error in 20");
}

#[test]
fn program_lines_may_come_in_any_order_and_repeat() {
    let mut session = session("20 PRINT \"SECOND\"\n10 PRINT \"FIRST\"\n20 PRINT \"LAST WINS\"\n");
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, "FIRST\nLAST WINS\n");
}

#[test]
fn names_are_case_insensitive_and_scalars_differ_from_arrays() {
    let mut session = session("10 ps = 4: PS(2) = 7\n20 print Ps; pS(2)\n");
    assert_eq!(session.resume(None).expect("runs").output, " 4  7 \n");
}

#[test]
fn loading_checks_line_numbers() {
    let missing = Program::load("10 PRINT\nPRINT \"NO NUMBER\"\n", &Limits::default())
        .expect_err("needs numbers");
    assert_eq!(
        missing.kind(),
        basic_runner::LoadErrorKind::MissingLineNumber
    );
    let too_big = Program::load("70000 PRINT\n", &Limits::default()).expect_err("too big");
    assert_eq!(too_big.kind(), basic_runner::LoadErrorKind::BadLineNumber);
}

#[test]
fn the_hash_identifies_the_source() {
    let a = Program::load("10 PRINT 1\n", &Limits::default()).expect("loads");
    let b = Program::load("10 PRINT 2\n", &Limits::default()).expect("loads");
    assert_eq!(a.hash().len(), 64);
    assert_ne!(a.hash(), b.hash());
    assert_eq!(
        a.hash(),
        Program::load("10 PRINT 1\n", &Limits::default())
            .expect("loads")
            .hash()
    );
}

#[test]
fn seeded_sessions_repeat_and_differ() {
    let source = "10 FOR I = 1 TO 5: PRINT INT(RND * 100);: NEXT\n";
    let run = |seed| {
        let program = Arc::new(Program::load(source, &Limits::default()).expect("loads"));
        let mut session = Session::new(program, RndMode::Seeded(seed), Limits::default());
        session.resume(None).expect("runs").output
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}

#[test]
fn gw_basic_mode_with_a_seed_answers_the_seed_prompt() {
    let source = "10 RANDOMIZE\n20 PRINT RND\n";
    let program = Arc::new(Program::load(source, &Limits::default()).expect("loads"));
    let run = |mode| {
        let mut session = Session::new(Arc::clone(&program), mode, Limits::default());
        session.resume(None).expect("runs").output
    };
    let prompted = run(RndMode::GwBasicWithSeed(5));
    let explicit = {
        let program = Arc::new(
            Program::load("10 RANDOMIZE 5\n20 PRINT RND\n", &Limits::default()).expect("loads"),
        );
        let mut session = Session::new(program, RndMode::GwBasic, Limits::default());
        session.resume(None).expect("runs").output
    };
    assert_eq!(prompted, explicit);

    // Without a preset seed GW-BASIC asks for one, as it does: a non-number asks
    // again, a number out of range is an error of the RANDOMIZE line.
    let prompt = "Random number seed (-32768 to 32767)? ";
    let mut session = Session::new(Arc::clone(&program), RndMode::GwBasic, Limits::default());
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, prompt);
    assert!(matches!(step.state, StepState::NeedsInput { .. }));
    let again = session.resume(Some("five")).expect("asks again");
    assert_eq!(again.output, prompt);
    let typed = session.resume(Some("5")).expect("runs on");
    assert_eq!(typed.output, explicit);
    let mut session = Session::new(Arc::clone(&program), RndMode::GwBasic, Limits::default());
    session.resume(None).expect("runs");
    let error = session.resume(Some("40000")).expect_err("out of range");
    assert_eq!(error.message(), "Overflow in 10");
}

#[test]
fn number_formatting_is_public_for_hosts() {
    assert_eq!(basic_runner::format_number(0.7, false), " .7 ");
    assert_eq!(basic_runner::format_number(1e7, false), " 1E+07 ");
    assert_eq!(
        basic_runner::format_number(-1.0 / 3.0, true),
        "-.3333333333333333 "
    );
}

#[test]
fn steps_split_into_text_prompt_and_pages() {
    let mut session = session("10 PRINT \"OLD\": CLS: PRINT \"NEW\"\n20 INPUT \"NAME\"; N$\n");
    let step = session.resume(None).expect("runs");
    assert_eq!(step.output, "OLD\n\x0cNEW\nNAME? ");
    assert_eq!(step.output_before_prompt(), "OLD\n\x0cNEW\n");
    assert_eq!(
        step.pages().collect::<Vec<_>>(),
        vec!["OLD\n", "NEW\nNAME? "]
    );
}

#[test]
fn deep_nesting_is_a_syntax_error_not_a_crash() {
    // within GW-BASIC's 255 characters a line (longer ones fail the load; IFs
    // nest at most 25 deep in one line, see hostile.rs)
    let deep_parens = format!("10 X = {}1{}\n", "(".repeat(120), ")".repeat(120));
    let deep_minus = format!("10 X = {}1\n", "-".repeat(240));
    let deep_not = format!("10 X = {}1\n", "NOT ".repeat(60));
    let deep_power = format!("10 X = 2^{}1\n", "-".repeat(240));
    for source in [deep_parens, deep_minus, deep_not, deep_power] {
        let program = Program::load(&source, &Limits::default()).expect("loads");
        assert_eq!(program.diagnostics().len(), 1);
        assert!(
            program.diagnostics()[0]
                .message()
                .contains("nested too deeply")
        );
    }
}

/// A syntax error hands over what is wrong as data, beside its English message.
#[test]
fn syntax_errors_carry_their_problem_as_data() {
    let code = |text: &str| text.to_owned();
    let cases = [
        (
            "10 IF X GOSUB 20\n",
            SyntaxProblem::Expected(Expected::Either(code("THEN"), code("GOTO"))),
            "expected THEN or GOTO",
        ),
        (
            "10 X = (\n",
            SyntaxProblem::Expected(Expected::Expression),
            "expected an expression",
        ),
        (
            "10 FOR I = 1 STEP 2\n",
            SyntaxProblem::Expected(Expected::Code(code("TO"))),
            "expected TO",
        ),
        (
            "10 INPUT \"NAME\" N$\n",
            SyntaxProblem::Expected(Expected::SeparatorAfterPrompt),
            "expected ; or , after the prompt",
        ),
        (
            "10 X = MID$(\"A\")\n",
            SyntaxProblem::ArgumentCount {
                keyword: code("MID$"),
                min: 2,
                max: 3,
            },
            "MID$ takes 2 to 3 arguments",
        ),
        (
            "10 THEN\n",
            SyntaxProblem::CannotStartStatement(code("THEN")),
            "THEN cannot start a statement",
        ),
    ];
    for (source, problem, message) in cases {
        let program = Program::load(source, &Limits::default()).expect("loads");
        let diagnostic = &program.diagnostics()[0];
        assert_eq!(diagnostic.problem, problem, "{source}");
        assert_eq!(diagnostic.message(), message, "{source}");
        assert_eq!(problem.describe(), message, "{source}");
    }
}

#[test]
fn programs_and_sessions_cross_threads() {
    fn send_and_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_and_sync::<Program>();
    send::<Session>();
    let program = Program::load(basic_runner::CHARGEN, &Limits::default()).expect("loads");
    assert!(program.uses_records());
}

/// The place a `FOR` keeps for its check that the `NEXT` is there is a jump to
/// the next instruction while the `NEXT` is found; the optimizer drops it, so a
/// loop costs no extra dispatch (BM6/BM7 ran 2% more instructions with it).
#[test]
fn no_jump_to_the_next_instruction_is_left_in_the_code() {
    let sources = [
        "10 FOR I=1 TO 3\n20 NEXT I\n",
        "10 FOR Q=1 TO 2\n20 FOR L=1 TO 5\n30 A=L\n40 NEXT L\n50 NEXT Q\n",
        "10 FOR I=1 TO 3: PRINT I: NEXT\n",
        "10 K=0\n20 FOR L=K TO K+5 STEP 2\n30 NEXT L\n",
    ];
    for source in sources {
        let program = Program::load(source, &Limits::default()).expect("program loads");
        let listing = program.disassemble();
        let noop_jumps: Vec<&str> = listing
            .lines()
            .filter(|line| {
                let mut words = line.split_whitespace();
                let (Some(pc), Some(op)) = (words.next(), words.next()) else {
                    return false;
                };
                let Ok(pc) = pc.parse::<u32>() else {
                    return false;
                };
                op == format!("Jump(Pc({}))", pc + 1)
            })
            .collect();
        assert!(noop_jumps.is_empty(), "{source}: {noop_jumps:?}\n{listing}");
    }
}
