//! Who gave a combatant its protection against an element (P1), so that a host
//! can say which effect took damage off ("FireWard takes 5 off"), not only that
//! some protection did.
//!
//! A protection is a number per element folded from the combatant's base and its
//! while-active layers; [`Protectors`] follows the same fold and remembers the
//! effects that raised the number, by tag.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::IntOp;

/// Who gave one element's protection: the combatant's own (declared when it was
/// added) and the effects that raised it, by tag, in the order they did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Protectors {
    /// The combatant's own protection counts (`CombatantSpec::protect`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own: bool,
    /// Effect tags, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<String>,
}

impl Protectors {
    /// The combatant's own protection, nobody else's.
    pub(super) fn own() -> Protectors {
        Protectors {
            own: true,
            effects: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        !self.own && self.effects.is_empty()
    }

    /// Follows `op`, which took the protection from `before` to `after`, made by
    /// `effect`: an assignment replaces whoever gave it before, a raise adds the
    /// effect, and a protection that is gone was given by nobody. A lowering (a
    /// curse that weakens a ward) gives nothing, so it is not named.
    fn follow(&mut self, op: IntOp, before: i64, after: i64, effect: Option<&str>) {
        if after <= 0 || matches!(op, IntOp::Assign(_)) {
            *self = Protectors::default();
        }
        if after <= before.max(0) && !matches!(op, IntOp::Assign(_)) {
            return;
        }
        if after <= 0 {
            return;
        }
        match effect {
            Some(tag) if !self.effects.iter().any(|held| held == tag) => {
                self.effects.push(tag.to_owned());
            }
            Some(_) => {}
            None => self.own = true,
        }
    }
}

/// Applies a protection change to `elements` of `protections`, following who gave
/// each in `protectors`.
pub(super) fn change(
    protections: &mut BTreeMap<String, i64>,
    protectors: &mut BTreeMap<String, Protectors>,
    elements: &[String],
    op: IntOp,
    effect: Option<&str>,
) {
    for element in elements {
        let before = protections.get(element).copied().unwrap_or(0);
        let after = op.apply(before);
        if after == 0 {
            protections.remove(element);
        } else {
            protections.insert(element.clone(), after);
        }
        let given = protectors.entry(element.clone()).or_default();
        given.follow(op, before, after, effect);
        if given.is_empty() {
            protectors.remove(element);
        }
    }
}

/// The largest positive protection among `elements` (the first of equals), with
/// its element and who gave it; `None` when none protects. A protection whose
/// givers were never recorded (an encounter stored before they were) is the
/// combatant's own.
pub(super) fn largest<'e>(
    protections: &BTreeMap<String, i64>,
    protectors: &BTreeMap<String, Protectors>,
    elements: impl IntoIterator<Item = &'e String>,
) -> Option<(String, i64, Protectors)> {
    let mut best: Option<(&String, i64)> = None;
    for element in elements {
        let Some(&amount) = protections.get(element) else {
            continue;
        };
        if amount > 0 && best.is_none_or(|(_, most)| amount > most) {
            best = Some((element, amount));
        }
    }
    let (element, amount) = best?;
    let given = protectors
        .get(element)
        .filter(|given| !given.is_empty())
        .cloned()
        .unwrap_or_else(Protectors::own);
    Some((element.clone(), amount, given))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A protection change and the effect that made it (`None`: the combatant's own).
    type Step<'a> = (IntOp, Option<&'a str>);

    fn ward(steps: &[Step]) -> (i64, Protectors) {
        let mut protections = BTreeMap::new();
        let mut protectors = BTreeMap::new();
        let fire = vec!["FIRE".to_owned()];
        for (op, effect) in steps {
            change(&mut protections, &mut protectors, &fire, *op, *effect);
        }
        let amount = protections.get("FIRE").copied().unwrap_or(0);
        (amount, protectors.remove("FIRE").unwrap_or_default())
    }

    fn given(own: bool, effects: &[&str]) -> Protectors {
        Protectors {
            own,
            effects: effects.iter().map(|tag| (*tag).to_owned()).collect(),
        }
    }

    #[test]
    fn who_gave_a_protection_follows_the_fold() {
        let cases: &[(&[Step], i64, Protectors)] = &[
            (
                &[(IntOp::Add(5), Some("FireWard"))],
                5,
                given(false, &["FireWard"]),
            ),
            (
                &[(IntOp::Add(3), None), (IntOp::Add(5), Some("FireWard"))],
                8,
                given(true, &["FireWard"]),
            ),
            // The same ward twice (cumulative) is named once.
            (
                &[
                    (IntOp::Add(5), Some("FireWard")),
                    (IntOp::Add(5), Some("FireWard")),
                ],
                10,
                given(false, &["FireWard"]),
            ),
            // A curse lowers the ward but gave nothing.
            (
                &[
                    (IntOp::Add(5), Some("FireWard")),
                    (IntOp::Add(-3), Some("Weaken")),
                ],
                2,
                given(false, &["FireWard"]),
            ),
            // A ward over a curse still protects, and is the one named.
            (
                &[
                    (IntOp::Add(-3), Some("Weaken")),
                    (IntOp::Add(5), Some("FireWard")),
                ],
                2,
                given(false, &["FireWard"]),
            ),
            // An assignment replaces who gave it.
            (
                &[(IntOp::Add(3), None), (IntOp::Assign(4), Some("Stone"))],
                4,
                given(false, &["Stone"]),
            ),
            // Gone is given by nobody; what raises it again is.
            (
                &[
                    (IntOp::Add(5), Some("FireWard")),
                    (IntOp::Multiply(0), Some("Dispel")),
                    (IntOp::Add(2), Some("Oil")),
                ],
                2,
                given(false, &["Oil"]),
            ),
            (&[(IntOp::Add(-2), Some("Weaken"))], -2, given(false, &[])),
        ];
        for (steps, amount, protectors) in cases {
            assert_eq!(ward(steps), (*amount, protectors.clone()), "{steps:?}");
        }
    }

    #[test]
    fn the_largest_protection_names_its_givers() {
        let protections = BTreeMap::from([
            ("FIRE".to_owned(), 5),
            ("ICE".to_owned(), 7),
            ("POISON".to_owned(), -2),
        ]);
        let protectors = BTreeMap::from([("FIRE".to_owned(), given(false, &["FireWard"]))]);
        let names = |list: &[&str]| list.iter().map(|e| (*e).to_owned()).collect::<Vec<_>>();
        type Found<'a> = Option<(&'a str, i64, Protectors)>;
        let cases: &[(&[&str], Found)] = &[
            (&["FIRE"], Some(("FIRE", 5, given(false, &["FireWard"])))),
            // ICE's giver was never recorded: the combatant's own.
            (&["FIRE", "ICE"], Some(("ICE", 7, given(true, &[])))),
            (&["POISON"], None),
            (&["HOLY"], None),
        ];
        for (elements, expected) in cases {
            let found = largest(&protections, &protectors, &names(elements));
            let expected = expected
                .clone()
                .map(|(element, amount, given)| (element.to_owned(), amount, given));
            assert_eq!(found, expected, "{elements:?}");
        }
    }
}
