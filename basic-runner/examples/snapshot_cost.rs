//! What a session that fills its memory costs to snapshot and restore:
//! `cargo run --release -p basic-runner --example snapshot_cost`.

use std::sync::Arc;
use std::time::Instant;

use basic_runner::{Limits, Program, RndMode, Session};

fn main() {
    let limits = Limits {
        max_steps_per_resume: 100_000_000,
        max_steps_per_session: 100_000_000,
        ..Limits::default()
    };
    let cases = [
        ("2M singles, untouched", "10 DIM A(1999,999)\n20 INPUT X\n"),
        (
            "2M integers, 0..999",
            "10 DIM A%(1999,999)\n20 FOR I=0 TO 1999: FOR J=0 TO 999: A%(I,J)=J: NEXT J,I\n30 INPUT X\n",
        ),
        (
            "2M singles, RND",
            "10 DIM A(1999,999)\n20 FOR I=0 TO 1999: FOR J=0 TO 999: A(I,J)=RND(1): NEXT J,I\n30 INPUT X\n",
        ),
        (
            "2M doubles, RND/3",
            "10 DIM A#(1999,999)\n20 FOR I=0 TO 1999: FOR J=0 TO 999: A#(I,J)=RND(1)/3#: NEXT J,I\n30 INPUT X\n",
        ),
        (
            "32768 strings of 255",
            "10 DIM A$(32767)\n20 FOR I=0 TO 32767: A$(I)=STRING$(255,65+I MOD 26): NEXT\n30 INPUT X\n",
        ),
    ];
    println!("| session | snapshot bytes | snapshot ms | restore ms |");
    println!("|---|---|---|---|");
    for (name, source) in cases {
        let program = Arc::new(Program::load(source, &limits).expect("loads"));
        let mut session = Session::new(Arc::clone(&program), RndMode::Seeded(1), limits.clone());
        session.resume(None).expect("runs to INPUT");
        let started = Instant::now();
        let snapshot = session.snapshot();
        let written = started.elapsed();
        let started = Instant::now();
        let restored = Session::restore(program, &snapshot).expect("restores");
        let read = started.elapsed();
        assert_eq!(restored.steps(), session.steps());
        println!(
            "| {name} | {} | {:.0} | {:.0} |",
            snapshot.len(),
            written.as_secs_f64() * 1000.0,
            read.as_secs_f64() * 1000.0
        );
    }
}
