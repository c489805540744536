//! Issue 14's benchmark: an encounter of 50 combatants each holding 20 recurring
//! effects, one `next` in the engine. Also the worst `next`: everyone skipped,
//! so one command starts 50 turns and applies all 1,000 recurring effects.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use npc_core::effects::{CombatantSpec, EffectLibrary, Encounter, Subject, load_effects};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const LIBRARY: &str = "ELEMENTS { POISON FIRE MAGIC }
EFFECT Poison { target_type Character; subject HitPoints; value -1d4; method (POISON); duration -1 }
EFFECT Burn { target_type Character; subject HitPoints; value -2; method (FIRE|MAGIC); duration 1000 }
EFFECT Regen { target_type Character; subject HitPoints; value +1; duration -1 }
EFFECT Drain { target_type Character; subject Strength; value -1; method (MAGIC); duration -1 }
EFFECT Sleep { target_type Character; subject LoseTurn; value true; duration -1 }
";

/// 50 combatants with 20 recurring effects each (5 of each kind), after one `next`.
fn encounter(library: &EffectLibrary, asleep: bool) -> Encounter {
    let mut encounter = Encounter::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let names: Vec<String> = (0..50).map(|i| format!("C{i}")).collect();
    for (index, name) in names.iter().enumerate() {
        let spec = CombatantSpec {
            name: name.clone(),
            initiative: 50 - index as i64,
            hp: 1_000_000,
            stats: vec![(Subject::Strength, 10)],
            protect: vec![("FIRE".to_string(), 1)],
            ..CombatantSpec::default()
        };
        encounter.add(library, &spec).unwrap();
    }
    let targets: Vec<&str> = names.iter().map(String::as_str).collect();
    for _ in 0..5 {
        for effect in ["Poison", "Burn", "Regen", "Drain"] {
            encounter
                .apply(library, effect, &targets, &mut rng)
                .unwrap();
        }
    }
    if asleep {
        encounter
            .apply(library, "Sleep", &targets, &mut rng)
            .unwrap();
    }
    encounter.next(library, &mut rng).unwrap();
    encounter
}

fn bench(c: &mut Criterion) {
    let library = load_effects(LIBRARY).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);

    let awake = encounter(&library, false);
    c.bench_function("next: 50 combatants x 20 recurring effects", |b| {
        b.iter_batched_ref(
            || awake.clone(),
            |encounter| encounter.next(&library, &mut rng).unwrap(),
            BatchSize::SmallInput,
        )
    });

    let asleep = encounter(&library, true);
    c.bench_function("next: everyone skipped, 1,000 recurring effects", |b| {
        b.iter_batched_ref(
            || asleep.clone(),
            |encounter| encounter.next(&library, &mut rng).unwrap(),
            BatchSize::SmallInput,
        )
    });

    c.bench_function("encounter JSON round trip (50 x 20)", |b| {
        b.iter(|| {
            let json = serde_json::to_string(&awake).unwrap();
            serde_json::from_str::<Encounter>(&json).unwrap()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
