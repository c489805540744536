//! An effect on a character outside any encounter: an NPC's `APPLY_EFFECT` (a
//! healer's cure, a witch's curse). The character becomes the one combatant of a
//! scratch encounter, built as `/init join` builds it (its fields, its written-back
//! HP, the effects it still carries), the effect is applied, and what is left is
//! written back as an encounter's end writes it: HP and changed fields over the
//! generator's, lasting effects carried until it joins an encounter, where they
//! tick. Nothing here is stored: the caller stores the result with its own change.

use std::sync::atomic::AtomicBool;

use npc_core::effects::{CarriedEffects, EffectLibrary, Encounter, HpChange, Subject};
use rand::RngCore;

use super::seats::{self, Seat};
use super::words;
use crate::i18n::Lang;

/// What an effect did to a lone character.
#[derive(Debug)]
pub struct Alone {
    /// The events, as the tracker's event lines.
    pub lines: Vec<String>,
    /// The fields written back over the generator's, after the effect.
    pub fields: Vec<(String, String)>,
    /// The effects still attached.
    pub effects: CarriedEffects,
}

/// The character as one combatant: what it was generated with (`generated`: its HP
/// is the maximum), what it is now (`current`: the sheet with `written` over it) and
/// the effects it carries. The effect stops at its next step once `cancel` is raised
/// (the engine worker's flag, past the job's time limit). The event lines speak
/// `lang`; `Err` holds why nothing happened, in `lang` too.
#[allow(clippy::too_many_arguments)]
pub fn apply_alone(
    lang: Lang,
    library: &EffectLibrary,
    effect: &str,
    character_name: &str,
    generated: &[(String, String)],
    current: &[(String, String)],
    written: &[(String, String)],
    carried: &CarriedEffects,
    cancel: &AtomicBool,
    rng: &mut dyn RngCore,
) -> Result<Alone, String> {
    let hp_of = |fields: &[(Subject, String, i64)]| {
        fields
            .iter()
            .find(|(subject, _, _)| *subject == Subject::HitPoints)
            .map(|(_, _, hp)| *hp)
    };
    let joined = seats::subject_fields(current);
    let hp = hp_of(&joined).unwrap_or(0);
    let maximum =
        hp_of(&seats::subject_fields(generated)).map_or(hp, |generated| generated.max(hp));
    let mut name = seats::combatant_name(character_name);
    if name.is_empty() {
        name = crate::i18n::tr(lang, "encounter-alone-name");
    }
    let mut engine = Encounter::new();
    let spec = seats::character_spec(&name, 0, maximum, &joined);
    let mut randomness = rng;
    let events = engine
        .add(library, &spec)
        .and_then(|_| {
            if hp < maximum {
                engine.hp(library, &name, HpChange::Assign(hp), &mut randomness)?;
            }
            engine.attach_carried(library, &name, carried)
        })
        .and_then(|_| {
            engine.apply_cancellable(library, effect, &[&name], &mut randomness, Some(cancel))
        })
        .map_err(|error| words::engine_reason(lang, &error))?;
    let seat = Seat {
        name,
        owner: 0,
        character: None,
        hidden: false,
        fields: joined,
        attack: None,
        saves: Vec::new(),
    };
    let lines = words::event_lines(lang, &events, &engine, std::slice::from_ref(&seat));
    // An effect that removed the character from the scratch encounter (Existence
    // false) leaves it as it was.
    let (fields, effects) = seats::write_back(&seat, &engine, written)
        .unwrap_or_else(|| (written.to_vec(), carried.clone()));
    Ok(Alone {
        lines,
        fields,
        effects,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npc_core::effects::load_effects;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    const EFFECTS: &str = include_str!("../../../../npc-core/scripts/effects.ghul");

    fn sheet(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn a_lone_character_is_poisoned_healed_and_cured() {
        let library = load_effects(EFFECTS).expect("the sample effects load");
        let generated = sheet(&[("NAME", "Udo"), ("HP", "12"), ("STR", "15")]);
        let mut rng = StdRng::seed_from_u64(1);
        // Poison: 2 now, and it stays attached for its next turns in an encounter.
        let poisoned = apply_alone(
            Lang::En,
            &library,
            "Poison",
            "Udo",
            &generated,
            &generated,
            &[],
            &CarriedEffects::default(),
            &AtomicBool::new(false),
            &mut rng,
        )
        .expect("applies");
        assert_eq!(poisoned.lines, ["* Poison on Udo: 12 → 10 hit points"]);
        assert_eq!(poisoned.fields, sheet(&[("HP", "10")]));
        assert!(!poisoned.effects.is_empty());
        // The cure removes the carried poison; the HP stays where it was.
        let current = sheet(&[("NAME", "Udo"), ("HP", "10"), ("STR", "15")]);
        let cured = apply_alone(
            Lang::De,
            &library,
            "CurePoison",
            "Udo",
            &generated,
            &current,
            &poisoned.fields,
            &poisoned.effects,
            &AtomicBool::new(false),
            &mut rng,
        )
        .expect("applies");
        assert_eq!(cured.lines, ["* Poison von Udo entfernt."]);
        assert_eq!(cured.fields, sheet(&[("HP", "10")]));
        assert!(cured.effects.is_empty());
        // An unknown effect does nothing, and says why.
        let unknown = apply_alone(
            Lang::En,
            &library,
            "Nope",
            "Udo",
            &generated,
            &current,
            &[],
            &CarriedEffects::default(),
            &AtomicBool::new(false),
            &mut rng,
        );
        assert!(unknown.is_err());
    }
}
