//! Captures for listings without `RECORD`: the variables at a chosen line, each time
//! it is about to run, and the variables as they last lived before a `CLEAR`.

use std::sync::Arc;

use basic_runner::{LimitKind, Limits, Program, RndMode, RunErrorKind, Session};

/// Two characters in one run, the question at 500, a closing `CLEAR`.
const LOOPING: &str = r#"10 DIM S(3)
20 K = 0
100 K = K + 1
110 INPUT "NAME"; N$
120 S(1) = 10 + K: S(2) = 20 + K
500 INPUT "ANOTHER (Y/N)"; A$
510 IF A$ = "Y" THEN 100
520 CLEAR
530 PRINT "BYE"
"#;

fn session(source: &str, limits: Limits) -> Session {
    let program = Program::load(source, &limits).expect("program loads");
    Session::new(Arc::new(program), RndMode::Seeded(5), limits)
}

fn value<'a>(variables: &'a [(String, String)], name: &str) -> Option<&'a str> {
    variables
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn run(session: &mut Session, answers: &[&str]) {
    session.resume(None).expect("starts");
    for answer in answers {
        session.resume(Some(answer)).expect("answers");
    }
    assert!(session.is_over());
}

#[test]
fn a_capture_is_taken_each_time_the_line_is_about_to_run() {
    let mut session = session(LOOPING, Limits::default());
    assert!(session.capture_at_line(500));
    run(&mut session, &["Ann", "Y", "Bo", "N"]);
    let captures = session.captures();
    assert_eq!(captures.len(), 2);
    assert!(captures.iter().all(|capture| capture.line == 500));
    let table = [("Ann", "11", "21", "1"), ("Bo", "12", "22", "2")];
    for (capture, (name, s1, s2, k)) in captures.iter().zip(table) {
        let variables = &capture.variables;
        assert_eq!(value(variables, "N$"), Some(name));
        assert_eq!(value(variables, "S(1)"), Some(s1));
        assert_eq!(value(variables, "S(2)"), Some(s2));
        assert_eq!(value(variables, "K"), Some(k));
        // The answer to the question at the line comes after the capture.
        assert_eq!(
            value(variables, "A$"),
            Some(if k == "1" { "" } else { "Y" })
        );
    }
}

#[test]
fn the_last_living_variables_survive_a_closing_clear() {
    let mut session = session(LOOPING, Limits::default());
    run(&mut session, &["Cy", "N"]);
    assert!(session.captures().is_empty());
    assert_eq!(value(&session.variables(), "N$"), Some(""));
    let alive = session.last_alive();
    assert_eq!(value(&alive, "N$"), Some("Cy"));
    assert_eq!(value(&alive, "S(1)"), Some("11"));
    assert_eq!(value(&alive, "A$"), Some("N"));
}

#[test]
fn without_a_clear_the_end_is_the_last_living_moment() {
    let mut session = session("10 CLEAR\n20 X = 4\n30 INPUT N$\n", Limits::default());
    run(&mut session, &["Dee"]);
    let alive = session.last_alive();
    assert_eq!(value(&alive, "X"), Some("4"));
    assert_eq!(value(&alive, "N$"), Some("Dee"));
}

#[test]
fn a_missing_line_is_refused_and_captures_count_against_max_records() {
    let mut session = session(LOOPING, Limits::default());
    assert!(!session.capture_at_line(499));
    let limits = Limits {
        max_records: 1,
        ..Limits::default()
    };
    let mut session = self::session(LOOPING, limits);
    assert!(session.capture_at_line(500));
    session.resume(None).unwrap();
    session.resume(Some("Ann")).unwrap();
    session.resume(Some("Y")).unwrap();
    let error = session.resume(Some("Bo")).unwrap_err();
    assert_eq!(error.kind(), RunErrorKind::Limit(LimitKind::Records));
}

#[test]
fn captures_survive_a_snapshot() {
    let mut session = session(LOOPING, Limits::default());
    session.capture_at_line(500);
    session.resume(None).unwrap();
    session.resume(Some("Ann")).unwrap();
    let program = Arc::clone(session.program());
    let mut restored = Session::restore(program, &session.snapshot()).expect("restores");
    restored.resume(Some("Y")).unwrap();
    restored.resume(Some("Bo")).unwrap();
    restored.resume(Some("N")).unwrap();
    assert_eq!(restored.captures().len(), 2);
}

#[test]
fn a_program_names_its_lines_assigned_variables_and_name_inputs() {
    let program = Program::load(LOOPING, &Limits::default()).unwrap();
    assert_eq!(
        program.line_numbers(),
        [10, 20, 100, 110, 120, 500, 510, 520, 530]
    );
    assert_eq!(program.assigned_variables(), ["A$", "K", "N$", "S()"]);
    assert_eq!(program.inputs_prompted("name"), ["N$"]);
    let printed = "10 PRINT \"YOUR HERO'S NAME\";\n20 INPUT H$\n30 INPUT \"RACE\"; R$\n";
    let program = Program::load(printed, &Limits::default()).unwrap();
    assert_eq!(program.inputs_prompted("NAME"), ["H$"]);
}

#[test]
fn big_arrays_are_captured_in_part() {
    let mut session = session(
        "10 DIM A(5000)\n20 A(4000) = 1\n30 INPUT X\n",
        Limits::default(),
    );
    assert!(session.capture_at_line(30));
    run(&mut session, &["1"]);
    let captured = &session.captures()[0].variables;
    let elements = captured
        .iter()
        .filter(|(name, _)| name.starts_with("A("))
        .count();
    assert_eq!(elements, basic_runner::MAX_ELEMENTS_PER_ARRAY);
    assert!(captured.len() <= basic_runner::MAX_CAPTURED_VALUES);
}
