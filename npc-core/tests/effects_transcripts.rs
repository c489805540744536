//! Runs every `tests/effects/*.play` file through `npc_core::effects::play_effects`:
//! one file per ruling of issue 14 (A1, I1, P1, M1, D1, H1, X1, X2, T1, HP1, Z1/Z2)
//! and the protocol, in the same format as the conversation transcripts.

use crate::transcripts::run_play_files_with;

#[test]
fn every_effect_transcript_matches() {
    let count = run_play_files_with("tests/effects", npc_core::effects::play_effects);
    assert!(count >= 25, "expected a case per ruling, ran {count}");
}
