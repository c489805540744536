//! The sample scripts in `scripts/` (shipped with the bot) load and play as
//! their transcripts in `tests/samples/NAME.in` / `NAME.out` say.

use std::path::Path;

#[test]
fn every_sample_script_plays_its_transcript() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(root.join("scripts"))
        .expect("scripts/ exists")
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_suffix(".ghul").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names, ["effects", "healer", "quest_giver", "shopkeeper"]);
    for name in names {
        let read = |path: std::path::PathBuf| {
            std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        };
        let script = read(root.join("scripts").join(format!("{name}.ghul")));
        let input = read(root.join("tests/samples").join(format!("{name}.in")));
        let expected = read(root.join("tests/samples").join(format!("{name}.out")));
        // `effects.ghul` is the sample effect library (issue 14), played as an encounter.
        if name == "effects" {
            assert_eq!(
                npc_core::effects::check_effects(&script),
                Vec::new(),
                "{name} loads"
            );
            assert_eq!(
                npc_core::effects::play_effects(&script, &input),
                expected,
                "{name}"
            );
            continue;
        }
        assert_eq!(npc_core::check(&script), Vec::new(), "{name} loads");
        assert_eq!(npc_core::play(&script, &input), expected, "{name}");
    }
}
