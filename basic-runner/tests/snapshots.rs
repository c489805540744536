//! A session restored from its snapshot continues byte for byte like the original.

use std::sync::Arc;

use basic_runner::{Limits, Program, RestoreError, RndMode, Session, StepState};

// FRE after the inputs counts what the snapshot keeps of the string space:
// an element from the text (line 15), a user function's entry and parameter,
// and the segment's sizes CLEAR set (line 7)
const PROGRAM: &str = r#"
7 CLEAR ,40000,600
10 DIM S(6), N$(3)
15 N$(0) = "FROM THE TEXT": DEF FNL(P$) = LEN(P$)
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
235 PRINT FRE(0)
240 INPUT "AGAIN (Y/N)"; A$
245 PRINT FRE("")
250 IF A$ = "Y" THEN 200
260 RETURN
"#;

// "Bo™" puts a character code page 437 lacks into a packed string array
const INPUTS: &[&str] = &["Al", "Y", "Bo™", "N", "Cyrus", "x"];

// INPUT$ waits in the middle of a statement (a PRINT USING, a FOR's body)
// with values on the stacks and keys typed ahead for INKEY$; a loop polling
// INKEY$ waits too, its count of empty answers kept
const KEYS_PROGRAM: &str = r###"
10 PRINT "PRESS A KEY";
20 K$ = INPUT$(1): PRINT "[" K$ "]"
30 PRINT USING "## + ## = ###"; VAL(INPUT$(1)); VAL(INPUT$(2)); 0
40 FOR I = 1 TO 2: A$ = A$ + INPUT$(2) + INKEY$: NEXT I
50 INPUT "NAME"; N$
60 PRINT A$; " "; N$; LEN(INKEY$); FRE("")
70 P = P + 1: IF INKEY$ = "" THEN 70
80 PRINT "POLLED"; P; "[" INKEY$ "]"
"###;

const KEYS: &[&str] = &["x", "7", "1", "2", "abc", "de", "Zed", "quit"];

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
        (KEYS_PROGRAM, RndMode::GwBasic, KEYS.to_vec()),
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
    assert!(text.starts_with("{\"version\":2,"), "{}", &text[..40]);

    let other = Arc::new(Program::load("10 PRINT 1\n", &Limits::default()).expect("loads"));
    assert_eq!(
        Session::restore(other, &bytes).err(),
        Some(RestoreError::ProgramMismatch)
    );
    let newer = text.replacen("\"version\":2", "\"version\":99", 1);
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

/// Version 1 wrote array elements as JSON lists; such snapshots still restore.
#[test]
fn a_version_1_snapshot_with_plain_arrays_restores() {
    let source = "10 DIM A(3), B$(2), C%(1,1), D#(2)\n\
                  20 A(1)=1.5: A(3)=-2: B$(0)=\"HI\": B$(2)=\"THERE\": C%(1,1)=7: D#(2)=1.23456789012#\n\
                  30 INPUT N\n\
                  40 PRINT A(1);A(3);B$(0);B$(2);C%(1,1);D#(2);N\n";
    let program = Arc::new(Program::load(source, &Limits::default()).expect("loads"));
    let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(1), Limits::default());
    session.resume(None).expect("waits");
    let mut snapshot: serde_json::Value =
        serde_json::from_slice(&session.snapshot()).expect("JSON");
    snapshot["version"] = 1.into();
    snapshot["machine"]["arrays"] = serde_json::json!([
        {"bounds": [3], "base": 0, "data": {"Num": [0.0, 1.5, 0.0, -2.0]}},
        {"bounds": [2], "base": 0, "data": {"Str": [[72, 73], [], [84, 72, 69, 82, 69]]}},
        {"bounds": [1, 1], "base": 0, "data": {"Num": [0.0, 0.0, 0.0, 7.0]}},
        {"bounds": [2], "base": 0, "data": {"Num": [0.0, 0.0, 1.23456789012]}}
    ]);
    let old = serde_json::to_vec(&snapshot).expect("JSON");
    let mut restored = Session::restore(program, &old).expect("version 1 restores");
    let expected = session.resume(Some("5")).expect("runs");
    assert_eq!(restored.resume(Some("5")).expect("runs"), expected);
    assert_eq!(expected.output, " 1.5 -2 HITHERE 7  1.23456789012  5 \n");
}

/// Sessions that fill the 16 MiB memory limit: what their snapshots weigh.
/// (The time to write and read them is in the README, measured in release.)
#[test]
fn a_full_memory_session_snapshot_stays_compact() {
    let limits = Limits {
        max_steps_per_resume: 100_000_000,
        max_steps_per_session: 100_000_000,
        ..Limits::default()
    };
    let cases = [
        // (program, the most bytes its snapshot may take)
        ("10 DIM A(1999,999)\n20 INPUT X\n", 64 * 1024),
        (
            "10 DIM A%(1999,999)\n20 FOR I=0 TO 1999: FOR J=0 TO 999: A%(I,J)=J: NEXT J,I\n30 INPUT X\n",
            4_500_000,
        ),
        (
            "10 DIM A(1999,999)\n20 FOR I=0 TO 1999: FOR J=0 TO 999: A(I,J)=RND(1): NEXT J,I\n30 INPUT X\n",
            11_000_000,
        ),
        (
            "10 DIM A$(32767)\n20 FOR I=0 TO 32767: A$(I)=STRING$(255,65+I MOD 26): NEXT\n30 INPUT X\n",
            2_000_000,
        ),
    ];
    for (source, most) in cases {
        let program = Arc::new(Program::load(source, &limits).expect("loads"));
        let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(1), limits.clone());
        let step = session.resume(None).expect("fills memory");
        assert!(
            matches!(step.state, StepState::NeedsInput { .. }),
            "{source}"
        );
        let snapshot = session.snapshot();
        assert!(snapshot.len() <= most, "{source}: {} bytes", snapshot.len());
        let restored = Session::restore(program, &snapshot).expect("restores");
        assert_eq!(restored.snapshot(), snapshot, "{source}");
    }
}

/// The largest single (1.701412E+38, what `Division by zero` leaves) must come
/// back from a snapshot as the same number: read back one bit above, `2 ^ Y`
/// overflowed once more in the restored session than in the original (found
/// by `fuzz::structured_programs_never_panic`).
#[test]
fn a_snapshot_keeps_every_number_exactly() {
    let source = "10 Y = 1 \\ 0: INPUT X\n20 X = X + (X + X ^ Y)\n30 PRINT Y = 1 \\ 0";
    let program = Arc::new(Program::load(source, &Limits::default()).expect("loads"));
    let mut original = Session::new(Arc::clone(&program), RndMode::Seeded(1), Limits::default());
    drive(&mut original, &[]);
    let mut restored =
        Session::restore(Arc::clone(&program), &original.snapshot()).expect("restores");
    let expected = drive(&mut original, &["2"]);
    assert_eq!(drive(&mut restored, &["2"]), expected);
    assert!(expected.concat().contains("-1 "), "{expected:?}");
}
