//! A session restored from its snapshot continues byte for byte like the original.

use std::sync::Arc;

use basic_runner::{Limits, Program, RestoreError, RndMode, Session, StepState};

const PROGRAM: &str = r#"
10 DIM S(6), N$(3)
20 DEF FNR(X) = INT(RND(1) * X) + 1
30 FOR C = 1 TO 2
40 GOSUB 200
50 NEXT C
60 PRINT "TOTAL"; T; "NAMES: "; N$(1); " "; N$(2)
70 RECORD "NAME", N$(1), "TOTAL", T
80 END
200 FOR I = 1 TO 6: S(I) = FNR(6) + FNR(6) + FNR(6): T = T + S(I): PRINT S(I);: NEXT I
210 PRINT
220 INPUT "NAME"; N$(C)
230 WHILE LEN(N$(C)) < 5: N$(C) = N$(C) + "*": WEND
240 INPUT "AGAIN (Y/N)"; A$
250 IF A$ = "Y" THEN 200
260 RETURN
"#;

const INPUTS: &[&str] = &["Al", "Y", "Bo", "N", "Cyrus", "x"];

fn drive(session: &mut Session, inputs: &[&str]) -> Vec<String> {
    let mut outputs = Vec::new();
    let mut input = None;
    let mut inputs = inputs.iter();
    loop {
        let step = session.resume(input).expect("runs");
        outputs.push(format!("{}|{:?}", step.output, step.state));
        match step.state {
            StepState::Finished { .. } => return outputs,
            StepState::NeedsInput { .. } => match inputs.next() {
                Some(line) => input = Some(*line),
                None => return outputs,
            },
        }
    }
}

#[test]
fn a_restored_session_continues_like_the_original() {
    // GW-BASIC's bare RANDOMIZE waits for its seed like an INPUT (asked twice here).
    let randomized = format!("5 RANDOMIZE{PROGRAM}");
    let with_seed: Vec<&str> = ["seven", "7"]
        .into_iter()
        .chain(INPUTS.iter().copied())
        .collect();
    let cases = [
        (PROGRAM, RndMode::Seeded(99), INPUTS.to_vec()),
        (PROGRAM, RndMode::GwBasic, INPUTS.to_vec()),
        (randomized.as_str(), RndMode::GwBasic, with_seed),
    ];
    for (source, mode, inputs) in cases {
        let program = Arc::new(Program::load(source, &Limits::default()).expect("loads"));
        let mut original = Session::new(Arc::clone(&program), mode, Limits::default());
        let expected = drive(&mut original, &inputs);
        assert!(expected.last().is_some_and(|s| s.contains("Finished")));
        // stop after every number of inputs, snapshot, restore, and finish
        for stop_after in 0..inputs.len() {
            let mut first = Session::new(Arc::clone(&program), mode, Limits::default());
            let mut head = drive(&mut first, &inputs[..stop_after]);
            let bytes = first.snapshot();
            let mut restored = Session::restore(Arc::clone(&program), &bytes).expect("restores");
            assert_eq!(restored.waiting_prompt(), first.waiting_prompt());
            let next = inputs[stop_after];
            let mut tail = Vec::new();
            let mut input = Some(next);
            let mut rest = inputs[stop_after + 1..].iter();
            loop {
                let step = restored.resume(input).expect("runs");
                tail.push(format!("{}|{:?}", step.output, step.state));
                match step.state {
                    StepState::Finished { .. } => break,
                    StepState::NeedsInput { .. } => input = rest.next().copied(),
                }
            }
            head.extend(tail);
            assert_eq!(
                head, expected,
                "stopped after {stop_after} inputs in {mode:?}"
            );
        }
    }
}

#[test]
fn snapshots_are_versioned_and_bound_to_their_program() {
    let program = Arc::new(Program::load(PROGRAM, &Limits::default()).expect("loads"));
    let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(1), Limits::default());
    session.resume(None).expect("runs");
    let bytes = session.snapshot();
    let text = String::from_utf8(bytes.clone()).expect("JSON");
    assert!(text.starts_with("{\"version\":1,"), "{}", &text[..40]);

    let other = Arc::new(Program::load("10 PRINT 1\n", &Limits::default()).expect("loads"));
    assert_eq!(
        Session::restore(other, &bytes).err(),
        Some(RestoreError::ProgramMismatch)
    );
    let newer = text.replacen("\"version\":1", "\"version\":99", 1);
    assert!(matches!(
        Session::restore(Arc::clone(&program), newer.as_bytes()),
        Err(RestoreError::Version { found: 99, .. })
    ));
    assert!(matches!(
        Session::restore(Arc::clone(&program), b"not json"),
        Err(RestoreError::Malformed(_))
    ));
    let tampered = text.replacen("\"pc\":", "\"pc\":9999999,\"x\":", 1);
    assert!(Session::restore(program, tampered.as_bytes()).is_err());
}
