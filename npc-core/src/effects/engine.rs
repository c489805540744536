//! The effect engine: an [`Encounter`] (plain serde data) and the commands that
//! change it, implementing rulings A1, I1, P1, M1, D1, H1, X1, X2, T1, HP1, Z1, Z2.
//!
//! Every command runs on a copy of the encounter and replaces the original only
//! when it finishes, so a command stopped by the step budget or the hook depth
//! changes nothing (Z2). Nothing recurses deeper than the hook depth limit.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

use crate::error::MessageArg;

use super::error::{EffectError, EffectErrorKind, EffectMessageId};
use super::event::{EffectEvent, EffectRoll};
use super::model::{
    BoolOp, IntOp, IntOperator, Mode, Number, SetOperator, Subject, TargetType, ValueSpec,
};
use super::protection::{self, Protectors};
use super::{Effect, EffectLibrary};

/// Where an engine's random numbers come from: dice in values and durations, and
/// probability draws. Any `RngCore` serves both; the play protocol uses two sources.
pub trait Randomness {
    fn dice(&mut self) -> &mut dyn RngCore;
    fn chance(&mut self) -> &mut dyn RngCore;
}

impl<R: RngCore> Randomness for R {
    fn dice(&mut self) -> &mut dyn RngCore {
        self
    }

    fn chance(&mut self) -> &mut dyn RngCore {
        self
    }
}

type Step<T> = Result<T, EffectError>;

/// A direct hit-point change (`/init hp`, `@hp`), already rolled by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HpChange {
    /// `+N` or `-N`.
    Offset(i64),
    /// `=N` (beyond the maximum, raises it: HP1).
    Assign(i64),
}

/// A combatant to add: HP, initiative and whatever else the host knows.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CombatantSpec {
    /// Unique in the encounter, without whitespace.
    pub name: String,
    pub initiative: i64,
    /// Hit points, also the maximum (HP1).
    pub hp: i64,
    /// Other INT subjects: `ArmorClass`, `Strength`, ... (HitPoints here is ignored).
    pub stats: Vec<(Subject, i64)>,
    /// The Immunity set (declared elements).
    pub immune: Vec<String>,
    /// Protections: element -> amount (P1).
    pub protect: Vec<(String, i64)>,
}

/// The values of a combatant's subjects (a base, or what is shown).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
struct Stats {
    ints: BTreeMap<Subject, i64>,
    max_hp: i64,
    sets: BTreeMap<Subject, BTreeSet<String>>,
    protections: BTreeMap<String, i64>,
    /// Who gave each protection (an encounter stored before this was kept has none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    protectors: BTreeMap<String, Protectors>,
    bools: BTreeMap<Subject, bool>,
    tags: BTreeMap<Subject, String>,
}

/// A SET operation with its elements by name (so a stored encounter does not
/// depend on the order of the file's ELEMENTS).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum SetOp {
    Union(BTreeSet<String>),
    Difference(BTreeSet<String>),
    Intersect(BTreeSet<String>),
    Assign(BTreeSet<String>),
    /// Complement relative to the file's ELEMENTS (kept here).
    Complement(BTreeSet<String>),
}

/// One resolved operation on one subject: dice rolled, protections taken off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Change {
    Int(Subject, IntOp),
    Set(Subject, SetOp),
    Bool(Subject, BoolOp),
    Tag(Subject, String),
    Protect(Vec<String>, IntOp),
}

impl Stats {
    fn int(&self, subject: Subject) -> i64 {
        if subject == Subject::HitPoints {
            return self.ints.get(&subject).copied().unwrap_or(self.max_hp);
        }
        self.ints.get(&subject).copied().unwrap_or(0)
    }

    fn set(&self, subject: Subject) -> BTreeSet<String> {
        self.sets.get(&subject).cloned().unwrap_or_default()
    }

    fn flag(&self, subject: Subject) -> bool {
        self.bools.get(&subject).copied().unwrap_or(false)
    }

    /// Applies `change`, made by the effect `by` (`None`: the combatant's own).
    fn apply(&mut self, change: &Change, by: Option<&str>) {
        match change {
            Change::Int(subject, op) => {
                let mut value = op.apply(self.int(*subject));
                if *subject == Subject::HitPoints {
                    // HP1: never below 0 nor above the maximum; `=N` beyond it raises it.
                    if let IntOp::Assign(assigned) = op
                        && *assigned > self.max_hp
                    {
                        self.max_hp = *assigned;
                    }
                    value = value.clamp(0, self.max_hp.max(0));
                }
                self.ints.insert(*subject, value);
            }
            Change::Set(subject, op) => {
                let set = self.sets.entry(*subject).or_default();
                match op {
                    SetOp::Union(elements) => set.extend(elements.iter().cloned()),
                    SetOp::Difference(elements) => set.retain(|e| !elements.contains(e)),
                    SetOp::Intersect(elements) => set.retain(|e| elements.contains(e)),
                    SetOp::Assign(elements) => set.clone_from(elements),
                    SetOp::Complement(universe) => {
                        *set = universe.difference(set).cloned().collect();
                    }
                }
            }
            Change::Bool(subject, op) => {
                let value = match op {
                    BoolOp::Assign(value) => *value,
                    BoolOp::Invert => !self.flag(*subject),
                };
                self.bools.insert(*subject, value);
            }
            Change::Tag(subject, tag) => {
                self.tags.insert(*subject, tag.clone());
            }
            Change::Protect(elements, op) => protection::change(
                &mut self.protections,
                &mut self.protectors,
                elements,
                *op,
                by,
            ),
        }
    }
}

/// How an attached effect acts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
enum Acting {
    /// Applies again at each of its holder's turn starts (D1).
    Recurring,
    /// A layer over the base (M1), with its operation as resolved when attached.
    Layer(Change),
    /// Fires when its holder's HitPoints go down (H1).
    Hook,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Attached {
    /// Unique in the encounter; finds the attachment again after changes.
    seq: u64,
    tag: String,
    /// The effect's method, by element name (X2 matches on it).
    method: BTreeSet<String>,
    /// `None`: never counts down.
    turns_left: Option<i64>,
    acting: Acting,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Combatant {
    /// Unique in the encounter, from a counter (never random).
    id: u32,
    name: String,
    initiative: i64,
    base: Stats,
    /// `base` with every layer applied in attach order (M1); kept up to date.
    shown: Stats,
    effects: Vec<Attached>,
}

impl Combatant {
    fn recompute(&mut self) {
        let mut shown = self.base.clone();
        for attached in &self.effects {
            if let Acting::Layer(change) = &attached.acting {
                shown.apply(change, Some(&attached.tag));
            }
        }
        self.shown = shown;
    }

    fn holds(&self, seq: u64) -> bool {
        self.effects.iter().any(|attached| attached.seq == seq)
    }
}

/// One combat: combatants in turn order, the round and whose turn it is, and
/// every attached effect. Plain serde data: store it after every command.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Encounter {
    /// 0 until the first `next`.
    round: u32,
    /// The combatant whose turn it is (or, when `started` is false, who goes next).
    index: usize,
    started: bool,
    /// Shared until changed (`Arc::make_mut`): a command's working copy of the
    /// encounter clones only the combatants it touches.
    combatants: Vec<Arc<Combatant>>,
    next_id: u32,
    next_seq: u64,
}

/// Effects taken from a combatant ([`Encounter::carried`]): opaque serde data
/// to keep and attach again ([`Encounter::attach_carried`]).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CarriedEffects(Vec<Attached>);

impl CarriedEffects {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The effects, in attach order, with their turns left.
    pub fn views(&self) -> Vec<AttachedView> {
        self.0
            .iter()
            .map(|attached| AttachedView {
                tag: attached.tag.clone(),
                turns_left: attached.turns_left,
            })
            .collect()
    }
}

/// A read-only view of an attached effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachedView {
    pub tag: String,
    /// `None`: indefinite (`*`).
    pub turns_left: Option<i64>,
}

/// A read-only view of a combatant, with its shown values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CombatantView {
    pub name: String,
    pub initiative: i64,
    pub hp: i64,
    pub max_hp: i64,
    /// Every INT subject that has a value (HitPoints included).
    pub ints: BTreeMap<Subject, i64>,
    /// Flags, Immunity, Alignment.
    pub sets: BTreeMap<Subject, BTreeSet<String>>,
    pub protections: BTreeMap<String, i64>,
    pub bools: BTreeMap<Subject, bool>,
    pub tags: BTreeMap<Subject, String>,
    pub effects: Vec<AttachedView>,
}

impl CombatantView {
    /// An INT subject, if it has a value.
    pub fn int(&self, subject: Subject) -> Option<i64> {
        self.ints.get(&subject).copied()
    }

    /// A SET subject (empty when never set).
    pub fn set(&self, subject: Subject) -> BTreeSet<String> {
        self.sets.get(&subject).cloned().unwrap_or_default()
    }
}

impl Encounter {
    pub fn new() -> Encounter {
        Encounter::default()
    }

    /// The round (0 before the first `next`).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Whose turn it is, if a turn has started and its combatant is still here.
    pub fn current(&self) -> Option<&str> {
        if self.round == 0 || !self.started {
            return None;
        }
        self.combatants.get(self.index).map(|c| c.name.as_str())
    }

    /// Every combatant in turn order.
    pub fn combatants(&self) -> Vec<CombatantView> {
        self.combatants.iter().map(|c| view(c)).collect()
    }

    /// One combatant by name.
    pub fn combatant(&self, name: &str) -> Option<CombatantView> {
        self.combatants
            .iter()
            .find(|c| c.name == name)
            .map(|c| view(c))
    }

    pub fn len(&self) -> usize {
        self.combatants.len()
    }

    pub fn is_empty(&self) -> bool {
        self.combatants.is_empty()
    }

    /// Adds a combatant after every combatant of equal or higher initiative (T1).
    pub fn add(&mut self, library: &EffectLibrary, spec: &CombatantSpec) -> Step<Vec<EffectEvent>> {
        let limits = &library.limits;
        let name = spec.name.as_str();
        if name.is_empty()
            || name.chars().any(char::is_whitespace)
            || name.len() > limits.max_name_len
        {
            return Err(EffectError::said(
                EffectErrorKind::BadName,
                EffectMessageId::BadName,
                [("max", limits.max_name_len.into())],
            ));
        }
        if self.combatants.iter().any(|c| c.name == name) {
            return Err(EffectError::said(
                EffectErrorKind::BadName,
                EffectMessageId::NameTaken,
                [("name", name.into()), ("max", limits.max_name_len.into())],
            ));
        }
        if self.combatants.len() >= limits.max_combatants {
            return Err(EffectError::said(
                EffectErrorKind::Full,
                EffectMessageId::Full,
                [("max", limits.max_combatants.into())],
            ));
        }
        let unknown = spec
            .immune
            .iter()
            .chain(spec.protect.iter().map(|(element, _)| element))
            .find(|element| !library.has_element(element));
        if let Some(element) = unknown {
            return Err(EffectError::said(
                EffectErrorKind::UnknownElement,
                EffectMessageId::UnknownElement,
                [("element", element.as_str().into())],
            ));
        }
        let mut base = Stats {
            max_hp: spec.hp.max(0),
            ..Stats::default()
        };
        base.ints.insert(Subject::HitPoints, spec.hp.max(0));
        for (subject, value) in &spec.stats {
            if subject.kind() == super::SubjectKind::Int && *subject != Subject::HitPoints {
                base.ints.insert(*subject, *value);
            }
        }
        if !spec.immune.is_empty() {
            base.sets
                .insert(Subject::Immunity, spec.immune.iter().cloned().collect());
        }
        for (element, amount) in &spec.protect {
            if *amount != 0 {
                base.protections.insert(element.clone(), *amount);
                base.protectors.insert(element.clone(), Protectors::own());
            }
        }
        let combatant = Combatant {
            id: self.next_id,
            name: name.to_string(),
            initiative: spec.initiative,
            shown: base.clone(),
            base,
            effects: Vec::new(),
        };
        self.next_id = self.next_id.wrapping_add(1);
        let position = self
            .combatants
            .iter()
            .position(|c| c.initiative < spec.initiative)
            .unwrap_or(self.combatants.len());
        self.insert(position, combatant);
        Ok(Vec::new())
    }

    /// Applies an effect to the named targets in order (A1).
    pub fn apply(
        &mut self,
        library: &EffectLibrary,
        effect: &str,
        targets: &[&str],
        randomness: &mut dyn Randomness,
    ) -> Step<Vec<EffectEvent>> {
        self.apply_cancellable(library, effect, targets, randomness, None)
    }

    /// [`Encounter::apply`] with a flag the host raises (from another thread, at
    /// its deadline) when it no longer wants the command: it stops at its next step
    /// with [`EffectErrorKind::Cancelled`] and changes nothing (Z2).
    pub fn apply_cancellable(
        &mut self,
        library: &EffectLibrary,
        effect: &str,
        targets: &[&str],
        randomness: &mut dyn Randomness,
        cancel: Option<&AtomicBool>,
    ) -> Step<Vec<EffectEvent>> {
        let Some(effect) = library.effect(effect) else {
            return Err(EffectError::said(
                EffectErrorKind::UnknownEffect,
                EffectMessageId::UnknownEffect,
                [("effect", effect.into())],
            ));
        };
        let ids = self.ids(targets)?;
        self.command(library, randomness, cancel, |run| {
            for (position, id) in ids.into_iter().enumerate() {
                if !effect.multi && position > 0 {
                    break;
                }
                if run.enc.position(id).is_none() {
                    continue;
                }
                run.step()?;
                run.apply_initial(effect, id)?;
            }
            Ok(())
        })
    }

    /// A direct hit-point change; fires hooks (H1).
    pub fn hp(
        &mut self,
        library: &EffectLibrary,
        target: &str,
        change: HpChange,
        randomness: &mut dyn Randomness,
    ) -> Step<Vec<EffectEvent>> {
        let id = self.ids(&[target])?[0];
        self.command(library, randomness, None, |run| {
            run.step()?;
            let op = match change {
                HpChange::Offset(offset) => IntOp::Add(offset),
                HpChange::Assign(value) => IntOp::Assign(value),
            };
            let change = Change::Int(Subject::HitPoints, op);
            run.change_base(Cause::default(), id, &change, 0)
        })
    }

    /// Damage the host rolled (an attack's hit, a failed save) by `means`, declared
    /// elements named `label` in the events: I1 (immune when the means are not
    /// empty and every one is in the target's Immunity), P1 (the largest
    /// protection among them taken off, never below 0), then HitPoints lowered
    /// with `is down` and the hooks (H1), as an effect of that method would.
    pub fn damage(
        &mut self,
        library: &EffectLibrary,
        target: &str,
        amount: i64,
        means: &[String],
        label: &str,
        randomness: &mut dyn Randomness,
    ) -> Step<Vec<EffectEvent>> {
        if let Some(element) = means.iter().find(|element| !library.has_element(element)) {
            return Err(EffectError::said(
                EffectErrorKind::UnknownElement,
                EffectMessageId::UnknownElement,
                [("element", element.as_str().into())],
            ));
        }
        let id = self.ids(&[target])?[0];
        self.command(library, randomness, None, |run| {
            run.step()?;
            let Some(holder) = run.enc.get(id) else {
                return Ok(());
            };
            let name = holder.name.clone();
            let immunity = holder.shown.set(Subject::Immunity);
            if !means.is_empty() && means.iter().all(|element| immunity.contains(element)) {
                run.emit(EffectEvent::Immune {
                    name,
                    effect: label.to_string(),
                });
                return Ok(());
            }
            let amount = amount.max(0);
            let shown = &holder.shown;
            let mut taken = 0;
            if let Some((element, largest, protectors)) =
                protection::largest(&shown.protections, &shown.protectors, means)
                && amount > 0
            {
                taken = largest.min(amount);
                run.emit(EffectEvent::Reduced {
                    effect: label.to_string(),
                    name,
                    amount: taken,
                    element,
                    protectors,
                });
            }
            let change = Change::Int(Subject::HitPoints, IntOp::Add(taken - amount));
            run.change_base(Cause::default(), id, &change, 0)
        })
    }

    /// Ends the current turn and starts the next combatant's (T1, D1).
    pub fn next(
        &mut self,
        library: &EffectLibrary,
        randomness: &mut dyn Randomness,
    ) -> Step<Vec<EffectEvent>> {
        self.next_cancellable(library, randomness, None)
    }

    /// [`Encounter::next`] with a cancel flag, as [`Encounter::apply_cancellable`]:
    /// the effects a turn start makes recur, fire and expire stop at the next step.
    pub fn next_cancellable(
        &mut self,
        library: &EffectLibrary,
        randomness: &mut dyn Randomness,
        cancel: Option<&AtomicBool>,
    ) -> Step<Vec<EffectEvent>> {
        if self.combatants.is_empty() {
            return Err(EffectError::said(
                EffectErrorKind::Empty,
                EffectMessageId::Empty,
                [],
            ));
        }
        self.command(library, randomness, cancel, |run| run.next())
    }

    /// Removes every attached effect with this tag from the target (`/init
    /// cure`): `removed` each, while-active layers undone (M1).
    pub fn remove_effect(&mut self, target: &str, effect: &str) -> Step<Vec<EffectEvent>> {
        let id = self.ids(&[target])?[0];
        let Some(holder) = self.get_mut(id) else {
            return Ok(Vec::new());
        };
        let before = holder.effects.len();
        holder.effects.retain(|attached| attached.tag != effect);
        let count = before - holder.effects.len();
        if count == 0 {
            return Err(EffectError::said(
                EffectErrorKind::UnknownEffect,
                EffectMessageId::NotHeld,
                [("name", target.into()), ("effect", effect.into())],
            ));
        }
        holder.recompute();
        let removed = EffectEvent::Removed {
            effect: effect.to_string(),
            name: target.to_string(),
        };
        Ok(vec![removed; count])
    }

    /// Goes back one turn (`/init prev`) without undoing what the turn start
    /// did: no effect recurs, counts up or comes back.
    pub fn prev(&mut self) -> Step<Vec<EffectEvent>> {
        if self.round == 0 || (self.round == 1 && self.index == 0) || self.combatants.is_empty() {
            return Err(EffectError::said(
                EffectErrorKind::NoEarlierTurn,
                EffectMessageId::NoEarlierTurn,
                [],
            ));
        }
        if self.index == 0 {
            self.round -= 1;
            self.index = self.combatants.len() - 1;
        } else {
            self.index = (self.index - 1).min(self.combatants.len() - 1);
        }
        self.started = true;
        let name = self.combatants[self.index].name.clone();
        Ok(vec![EffectEvent::TurnStart {
            round: self.round,
            name,
        }])
    }

    /// A combatant's base values: its subjects with every while-active layer
    /// undone (M1), which is what a host writes back to a stored character.
    pub fn base(&self, name: &str) -> Option<CombatantView> {
        self.combatants.iter().find(|c| c.name == name).map(|c| {
            let mut shown = (**c).clone();
            shown.shown = shown.base.clone();
            view(&shown)
        })
    }

    /// The effects attached to a combatant, as data a host keeps between
    /// encounters (on a stored character) and attaches again with
    /// [`Encounter::attach_carried`].
    pub fn carried(&self, name: &str) -> Option<CarriedEffects> {
        self.combatants
            .iter()
            .find(|c| c.name == name)
            .map(|c| CarriedEffects(c.effects.clone()))
    }

    /// Attaches effects carried from an earlier encounter to a combatant, in their
    /// order, with the turns they had left; while-active layers apply again. An
    /// effect the library no longer declares is dropped, and so is one beyond the
    /// most a combatant may hold. Returns the tags attached.
    pub fn attach_carried(
        &mut self,
        library: &EffectLibrary,
        name: &str,
        carried: &CarriedEffects,
    ) -> Step<Vec<String>> {
        let id = self.ids(&[name])?[0];
        let max = library.limits.max_attached;
        let mut next_seq = self.next_seq;
        let Some(holder) = self.get_mut(id) else {
            return Ok(Vec::new());
        };
        let mut attached = Vec::new();
        for effect in &carried.0 {
            if holder.effects.len() >= max || !library.has_effect(&effect.tag) {
                continue;
            }
            let mut effect = effect.clone();
            effect.seq = next_seq;
            next_seq = next_seq.wrapping_add(1);
            attached.push(effect.tag.clone());
            holder.effects.push(effect);
        }
        holder.recompute();
        self.next_seq = next_seq;
        Ok(attached)
    }

    /// Removes a combatant (`* NAME leaves the encounter.`).
    pub fn remove(&mut self, target: &str) -> Step<Vec<EffectEvent>> {
        let id = self.ids(&[target])?[0];
        let name = target.to_string();
        if let Some(position) = self.position(id) {
            self.remove_at(position);
        }
        Ok(vec![EffectEvent::Leaves { name }])
    }

    fn ids(&self, names: &[&str]) -> Step<Vec<u32>> {
        names
            .iter()
            .map(|name| {
                self.combatants
                    .iter()
                    .find(|c| c.name == *name)
                    .map(|c| c.id)
                    .ok_or_else(|| {
                        EffectError::said(
                            EffectErrorKind::UnknownCombatant,
                            EffectMessageId::UnknownCombatant,
                            [("name", (*name).into())],
                        )
                    })
            })
            .collect()
    }

    fn position(&self, id: u32) -> Option<usize> {
        self.combatants.iter().position(|c| c.id == id)
    }

    fn get(&self, id: u32) -> Option<&Combatant> {
        self.combatants.iter().find(|c| c.id == id).map(|c| &**c)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Combatant> {
        self.combatants
            .iter_mut()
            .find(|c| c.id == id)
            .map(Arc::make_mut)
    }

    fn insert(&mut self, position: usize, combatant: Combatant) {
        let position = position.min(self.combatants.len());
        self.combatants.insert(position, Arc::new(combatant));
        if self.round > 0 && (position < self.index || (position == self.index && self.started)) {
            self.index += 1;
        }
    }

    fn remove_at(&mut self, position: usize) {
        if position >= self.combatants.len() {
            return;
        }
        self.combatants.remove(position);
        if self.round > 0 {
            if position < self.index {
                self.index -= 1;
            } else if position == self.index {
                // The following combatant now sits here and goes next.
                self.started = false;
            }
        }
    }

    /// Runs `body` on a copy; commits the copy and returns its events only on success (Z2).
    fn command(
        &mut self,
        library: &EffectLibrary,
        randomness: &mut dyn Randomness,
        cancel: Option<&AtomicBool>,
        body: impl FnOnce(&mut Run<'_>) -> Step<()>,
    ) -> Step<Vec<EffectEvent>> {
        let mut run = Run {
            library,
            randomness,
            cancel,
            steps: 0,
            events: Vec::new(),
            enc: self.clone(),
        };
        body(&mut run)?;
        *self = run.enc;
        Ok(run.events)
    }
}

fn view(combatant: &Combatant) -> CombatantView {
    let shown = &combatant.shown;
    CombatantView {
        name: combatant.name.clone(),
        initiative: combatant.initiative,
        hp: shown.int(Subject::HitPoints),
        max_hp: shown.max_hp,
        ints: shown.ints.clone(),
        sets: shown.sets.clone(),
        protections: shown.protections.clone(),
        bools: shown.bools.clone(),
        tags: shown.tags.clone(),
        effects: combatant
            .effects
            .iter()
            .map(|attached| AttachedView {
                tag: attached.tag.clone(),
                turns_left: attached.turns_left,
            })
            .collect(),
    }
}

/// What made a change: an effect (with the dice its value rolled), or a direct
/// hit-point change (neither).
#[derive(Default)]
struct Cause {
    effect: Option<String>,
    dice: Option<EffectRoll>,
}

impl Cause {
    fn effect(tag: &str, dice: Option<EffectRoll>) -> Cause {
        Cause {
            effect: Some(tag.to_string()),
            dice,
        }
    }
}

/// One command in progress, on its own copy of the encounter.
struct Run<'r> {
    library: &'r EffectLibrary,
    randomness: &'r mut dyn Randomness,
    cancel: Option<&'r AtomicBool>,
    steps: u32,
    events: Vec<EffectEvent>,
    enc: Encounter,
}

impl<'r> Run<'r> {
    fn step(&mut self) -> Step<()> {
        self.steps += 1;
        let budget = self.library.limits.max_steps;
        if self.steps > budget {
            return Err(EffectError::said(
                EffectErrorKind::StepBudget,
                EffectMessageId::StepBudget,
                [("max", budget.into())],
            ));
        }
        if crate::is_cancelled(self.cancel) {
            return Err(EffectError::said(
                EffectErrorKind::Cancelled,
                EffectMessageId::Cancelled,
                [],
            ));
        }
        Ok(())
    }

    fn emit(&mut self, event: EffectEvent) {
        self.events.push(event);
    }

    fn name(&self, id: u32) -> String {
        self.enc.get(id).map(|c| c.name.clone()).unwrap_or_default()
    }

    fn roll(&mut self, effect: &Effect, number: &Number) -> Step<i64> {
        self.roll_shown(effect, number).map(|(total, _)| total)
    }

    /// [`Run::roll`], with the dice as data when there are any.
    fn roll_shown(&mut self, effect: &Effect, number: &Number) -> Step<(i64, Option<EffectRoll>)> {
        match number {
            Number::Fixed(value) => Ok((*value, None)),
            Number::Dice(expr) => expr
                .roll(self.randomness.dice(), &self.library.limits.dice)
                .map(|roll| {
                    let shown = EffectRoll {
                        expr: expr.source().to_string(),
                        dice: roll.dice().iter().map(|die| die.value).collect(),
                        total: roll.total(),
                    };
                    (roll.total(), Some(shown))
                })
                .map_err(|error| {
                    let reason = MessageArg::DiceReason {
                        english: error.message().to_string(),
                        reason: Some(Box::new(error.reason().clone())),
                    };
                    EffectError::said(
                        EffectErrorKind::Dice,
                        EffectMessageId::Dice,
                        [("effect", effect.tag.as_str().into()), ("reason", reason)],
                    )
                }),
        }
    }

    /// A1's probability step: one draw, except at 1.0 (always) and 0.0 (never).
    fn draw(&mut self, effect: &Effect) -> bool {
        if effect.probability >= 1.0 {
            return true;
        }
        if effect.probability <= 0.0 {
            return false;
        }
        self.randomness.chance().random::<f64>() < effect.probability
    }

    /// I1: immune when every element of a non-empty method is in the Immunity set.
    fn immune(&self, effect: &Effect, id: u32) -> bool {
        let Some(holder) = self.enc.get(id) else {
            return false;
        };
        let immunity = holder.shown.sets.get(&Subject::Immunity);
        let mut method = effect.method.indices().peekable();
        if method.peek().is_none() {
            return false;
        }
        method.all(|index| {
            self.library
                .elements
                .get(index)
                .is_some_and(|name| immunity.is_some_and(|set| set.contains(name)))
        })
    }

    fn method_names(&self, effect: &Effect) -> BTreeSet<String> {
        self.library.names(effect.method).into_iter().collect()
    }

    /// A1 for a first application.
    fn apply_initial(&mut self, effect: &Effect, id: u32) -> Step<()> {
        let name = self.name(id);
        // X2: on an Effect target the method selects what is removed;
        // immunity, protections and `cumulative` do not apply.
        let on_character = effect.target == TargetType::Character;
        if on_character
            && !effect.cumulative
            && self
                .enc
                .get(id)
                .is_some_and(|c| c.effects.iter().any(|a| a.tag == effect.tag))
        {
            self.emit(EffectEvent::AlreadyHas {
                name,
                effect: effect.tag.clone(),
            });
            return Ok(());
        }
        if on_character && self.immune(effect, id) {
            self.emit(EffectEvent::Immune {
                name,
                effect: effect.tag.clone(),
            });
            return Ok(());
        }
        if effect.hook {
            // H1: attached whatever its duration; it acts only when it fires.
            let duration = self.roll(effect, &effect.duration)?;
            self.attach(effect, id, duration, Acting::Hook)?;
            self.emit(EffectEvent::HookAttached {
                effect: effect.tag.clone(),
                name,
            });
            return Ok(());
        }
        if !on_character {
            if !self.draw(effect) {
                self.emit(EffectEvent::NoEffect {
                    effect: effect.tag.clone(),
                    name,
                });
                return Ok(());
            }
            self.remove_matching(effect, id, None);
            let duration = self.roll(effect, &effect.duration)?;
            if duration != 0 {
                self.attach(effect, id, duration, Acting::Recurring)?;
            }
            return Ok(());
        }
        if !self.draw(effect) {
            self.emit(EffectEvent::NoEffect {
                effect: effect.tag.clone(),
                name,
            });
            return Ok(());
        }
        let duration = self.roll(effect, &effect.duration)?;
        match effect.value {
            ValueSpec::Clone | ValueSpec::Destroy => {
                self.exist(effect, id)?;
                if duration != 0 && self.enc.get(id).is_some() {
                    self.attach(effect, id, duration, Acting::Recurring)?;
                }
                return Ok(());
            }
            _ => {}
        }
        let (change, dice) = self.resolve(effect, id)?;
        let cause = Cause::effect(&effect.tag, dice);
        if duration != 0 && effect.mode == Mode::WhileActive {
            let before = self.int_before(id, &change);
            self.attach(effect, id, duration, Acting::Layer(change.clone()))?;
            return self.report(cause, id, &change, before, 0);
        }
        self.change_base(cause, id, &change, 0)?;
        if duration != 0 && self.enc.get(id).is_some() {
            self.attach(effect, id, duration, Acting::Recurring)?;
        }
        Ok(())
    }

    /// A later application: a recurring effect at a turn start (`depth` 0, misses
    /// reported), or a hook firing (misses silent).
    fn reapply(&mut self, effect: &Effect, id: u32, own: u64, depth: u32, hook: bool) -> Step<()> {
        let name = self.name(id);
        if effect.target == TargetType::Effect {
            if !self.draw(effect) {
                if !hook {
                    self.emit(EffectEvent::NoEffect {
                        effect: effect.tag.clone(),
                        name,
                    });
                }
                return Ok(());
            }
            self.remove_matching(effect, id, Some(own));
            return Ok(());
        }
        if self.immune(effect, id) {
            self.emit(EffectEvent::Immune {
                name,
                effect: effect.tag.clone(),
            });
            return Ok(());
        }
        if !self.draw(effect) {
            if !hook {
                self.emit(EffectEvent::NoEffect {
                    effect: effect.tag.clone(),
                    name,
                });
            }
            return Ok(());
        }
        if matches!(effect.value, ValueSpec::Clone | ValueSpec::Destroy) {
            return self.exist(effect, id);
        }
        let (change, dice) = self.resolve(effect, id)?;
        self.change_base(Cause::effect(&effect.tag, dice), id, &change, depth)
    }

    /// Rolls the value and takes protections off (P1), reporting the reduction;
    /// the dice rolled, if any, for the change's report.
    fn resolve(&mut self, effect: &Effect, id: u32) -> Step<(Change, Option<EffectRoll>)> {
        let subject = effect.subject;
        let mut dice = None;
        let change = match &effect.value {
            ValueSpec::Int(operator, number) => {
                let (rolled, shown) = self.roll_shown(effect, number)?;
                dice = shown;
                let op = match operator {
                    IntOperator::Add => IntOp::Add(rolled),
                    IntOperator::Subtract => IntOp::Add(rolled.saturating_neg()),
                    IntOperator::Assign => IntOp::Assign(rolled),
                    IntOperator::Multiply => IntOp::Multiply(rolled),
                    IntOperator::Divide => IntOp::Divide(rolled),
                };
                if subject == Subject::Protections {
                    let elements = self.method_names(effect).into_iter().collect();
                    return Ok((Change::Protect(elements, op), dice));
                }
                Change::Int(subject, self.protect(effect, id, op))
            }
            ValueSpec::Set(operator, set) => {
                let elements: BTreeSet<String> = self.library.names(*set).into_iter().collect();
                let op = match operator {
                    SetOperator::Union => SetOp::Union(elements),
                    SetOperator::Difference => SetOp::Difference(elements),
                    SetOperator::Intersect => SetOp::Intersect(elements),
                    SetOperator::Assign => SetOp::Assign(elements),
                };
                Change::Set(subject, op)
            }
            ValueSpec::Complement => Change::Set(
                subject,
                SetOp::Complement(self.library.elements.iter().cloned().collect()),
            ),
            ValueSpec::Bool(op) => Change::Bool(subject, *op),
            ValueSpec::Tag(tag) => Change::Tag(subject, tag.clone()),
            // Existence is handled by `exist`; never resolved into a change.
            ValueSpec::Clone | ValueSpec::Destroy => Change::Int(subject, IntOp::Add(0)),
        };
        Ok((change, dice))
    }

    /// P1: a lowering offset is reduced by the largest positive protection among
    /// the method's elements, never below 0.
    fn protect(&mut self, effect: &Effect, id: u32, op: IntOp) -> IntOp {
        let IntOp::Add(offset) = op else {
            return op;
        };
        if offset >= 0 {
            return op;
        }
        let Some(holder) = self.enc.get(id) else {
            return op;
        };
        let method = effect
            .method
            .indices()
            .filter_map(|index| self.library.elements.get(index));
        let shown = &holder.shown;
        let Some((element, largest, protectors)) =
            protection::largest(&shown.protections, &shown.protectors, method)
        else {
            return op;
        };
        let taken = largest.min(offset.saturating_neg());
        let name = holder.name.clone();
        self.emit(EffectEvent::Reduced {
            effect: effect.tag.clone(),
            name,
            amount: taken,
            element,
            protectors,
        });
        IntOp::Add(offset.saturating_add(taken))
    }

    fn int_before(&self, id: u32, change: &Change) -> i64 {
        match change {
            Change::Int(subject, _) => self.enc.get(id).map_or(0, |c| c.shown.int(*subject)),
            _ => 0,
        }
    }

    /// A change to the base value (one-shot, recurring, hook, direct), then its report.
    fn change_base(&mut self, cause: Cause, id: u32, change: &Change, depth: u32) -> Step<()> {
        let before = self.int_before(id, change);
        let Some(holder) = self.enc.get_mut(id) else {
            return Ok(());
        };
        holder.base.apply(change, cause.effect.as_deref());
        holder.recompute();
        self.report(cause, id, change, before, depth)
    }

    /// The change line(s) with the shown values, then HP1's `is down` and the hooks (H1).
    fn report(
        &mut self,
        cause: Cause,
        id: u32,
        change: &Change,
        before: i64,
        depth: u32,
    ) -> Step<()> {
        let Some(holder) = self.enc.get(id) else {
            return Ok(());
        };
        let name = holder.name.clone();
        let tag = cause.effect.clone().unwrap_or_default();
        match change {
            Change::Int(subject, _) => {
                let after = holder.shown.int(*subject);
                self.emit(EffectEvent::IntChange {
                    effect: cause.effect,
                    name: name.clone(),
                    subject: *subject,
                    before,
                    after,
                    roll: cause.dice,
                });
                if *subject == Subject::HitPoints && after < before {
                    if after == 0 {
                        self.emit(EffectEvent::Down { name });
                    }
                    self.fire_hooks(id, depth + 1)?;
                }
            }
            Change::Set(subject, op) => {
                let event = match op {
                    SetOp::Union(elements) | SetOp::Difference(elements) => {
                        EffectEvent::SetChange {
                            effect: tag,
                            name,
                            subject: *subject,
                            added: matches!(op, SetOp::Union(_)),
                            elements: elements.iter().cloned().collect(),
                        }
                    }
                    _ => EffectEvent::Assigned {
                        effect: tag,
                        name,
                        subject: *subject,
                        value: format!(
                            "{{{}}}",
                            holder
                                .shown
                                .set(*subject)
                                .into_iter()
                                .collect::<Vec<_>>()
                                .join(",")
                        ),
                    },
                };
                self.emit(event);
            }
            Change::Bool(subject, _) => {
                let value = holder.shown.flag(*subject).to_string();
                self.emit(EffectEvent::Assigned {
                    effect: tag,
                    name,
                    subject: *subject,
                    value,
                });
            }
            Change::Tag(subject, _) => {
                let value = holder.shown.tags.get(subject).cloned().unwrap_or_default();
                self.emit(EffectEvent::Assigned {
                    effect: tag,
                    name,
                    subject: *subject,
                    value,
                });
            }
            Change::Protect(elements, op) => {
                for element in elements {
                    self.emit(EffectEvent::ProtectionChange {
                        effect: tag.clone(),
                        name: name.clone(),
                        element: element.clone(),
                        operation: op.written(),
                    });
                }
            }
        }
        Ok(())
    }

    /// H1: every hook of the holder, in attach order, with its probability.
    fn fire_hooks(&mut self, id: u32, depth: u32) -> Step<()> {
        let hooks: Vec<(u64, String)> = match self.enc.get(id) {
            Some(holder) => holder
                .effects
                .iter()
                .filter(|a| a.acting == Acting::Hook)
                .map(|a| (a.seq, a.tag.clone()))
                .collect(),
            None => return Ok(()),
        };
        if hooks.is_empty() {
            return Ok(());
        }
        let max = self.library.limits.max_hook_depth;
        if depth > max {
            return Err(EffectError::said(
                EffectErrorKind::HookDepth,
                EffectMessageId::HookDepth,
                [("max", max.into())],
            ));
        }
        let library = self.library;
        for (seq, tag) in hooks {
            if !self.enc.get(id).is_some_and(|c| c.holds(seq)) {
                continue;
            }
            let Some(effect) = library.effect(&tag) else {
                continue;
            };
            self.step()?;
            self.reapply(effect, id, seq, depth, true)?;
        }
        Ok(())
    }

    fn attach(&mut self, effect: &Effect, id: u32, duration: i64, acting: Acting) -> Step<()> {
        let method = self.method_names(effect);
        let max = self.library.limits.max_attached;
        let seq = self.enc.next_seq;
        let Some(holder) = self.enc.get_mut(id) else {
            return Ok(());
        };
        if holder.effects.len() >= max {
            return Err(EffectError::said(
                EffectErrorKind::TooManyEffects,
                EffectMessageId::TooManyEffects,
                [("name", holder.name.as_str().into()), ("max", max.into())],
            ));
        }
        holder.effects.push(Attached {
            seq,
            tag: effect.tag.clone(),
            method,
            turns_left: (duration > 0).then_some(duration),
            acting,
        });
        holder.recompute();
        self.enc.next_seq = seq.wrapping_add(1);
        Ok(())
    }

    /// X2: removes the holder's effects whose method meets this effect's method.
    fn remove_matching(&mut self, effect: &Effect, id: u32, own: Option<u64>) {
        let selector = self.method_names(effect);
        let Some(holder) = self.enc.get_mut(id) else {
            return;
        };
        let name = holder.name.clone();
        let mut removed = Vec::new();
        holder.effects.retain(|attached| {
            let matches = Some(attached.seq) != own
                && attached
                    .method
                    .iter()
                    .any(|element| selector.contains(element));
            if matches {
                removed.push(attached.tag.clone());
            }
            !matches
        });
        holder.recompute();
        if removed.is_empty() {
            self.emit(EffectEvent::RemovesNothing {
                effect: effect.tag.clone(),
                name: name.clone(),
            });
        }
        for tag in removed {
            self.emit(EffectEvent::Removed {
                effect: tag,
                name: name.clone(),
            });
        }
    }

    /// X1: `new` clones the holder, `false` removes it.
    fn exist(&mut self, effect: &Effect, id: u32) -> Step<()> {
        let Some(position) = self.enc.position(id) else {
            return Ok(());
        };
        let holder = &self.enc.combatants[position];
        let name = holder.name.clone();
        if matches!(effect.value, ValueSpec::Destroy) {
            self.enc.remove_at(position);
            self.emit(EffectEvent::Leaves { name });
            return Ok(());
        }
        let limits = &self.library.limits;
        if self.enc.combatants.len() >= limits.max_combatants {
            self.emit(EffectEvent::CannotSplit { name });
            return Ok(());
        }
        let root = name.split('#').next().unwrap_or(&name).to_string();
        let is_family = |candidate: &str| {
            candidate == root
                || candidate
                    .strip_prefix(root.as_str())
                    .and_then(|rest| rest.strip_prefix('#'))
                    .is_some_and(|number| {
                        !number.is_empty() && number.chars().all(|c| c.is_ascii_digit())
                    })
        };
        let mut number = 2u32;
        while self
            .enc
            .combatants
            .iter()
            .any(|c| c.name == format!("{root}#{number}"))
        {
            number += 1;
        }
        let clone_name = format!("{root}#{number}");
        if clone_name.len() > limits.max_name_len {
            self.emit(EffectEvent::CannotSplit { name });
            return Ok(());
        }
        let last = self
            .enc
            .combatants
            .iter()
            .enumerate()
            .filter(|(_, c)| c.id == id || is_family(&c.name))
            .map(|(index, _)| index)
            .max()
            .unwrap_or(position);
        let holder = &self.enc.combatants[position];
        let clone = Combatant {
            id: self.enc.next_id,
            name: clone_name.clone(),
            initiative: holder.initiative,
            base: holder.shown.clone(),
            shown: holder.shown.clone(),
            effects: Vec::new(),
        };
        self.enc.next_id = self.enc.next_id.wrapping_add(1);
        self.enc.insert(last + 1, clone);
        self.emit(EffectEvent::Appears { name: clone_name });
        Ok(())
    }

    fn next(&mut self) -> Step<()> {
        let mut skips = 0usize;
        loop {
            if self.enc.combatants.is_empty() {
                return Ok(());
            }
            self.advance();
            let Some(id) = self.enc.combatants.get(self.enc.index).map(|c| c.id) else {
                return Ok(());
            };
            if !self.start_turn(id)? {
                return Ok(());
            }
            skips += 1;
            if skips >= self.enc.combatants.len() {
                if !self.enc.combatants.is_empty() {
                    self.emit(EffectEvent::EveryoneOut);
                }
                return Ok(());
            }
        }
    }

    fn advance(&mut self) {
        let enc = &mut self.enc;
        if enc.round == 0 {
            enc.round = 1;
            enc.index = 0;
        } else {
            if enc.started {
                enc.index += 1;
            }
            if enc.index >= enc.combatants.len() {
                enc.index = 0;
                enc.round = enc.round.saturating_add(1);
            }
        }
        enc.started = true;
    }

    /// D1 at a turn start; true when the holder is skipped (T1).
    fn start_turn(&mut self, id: u32) -> Step<bool> {
        self.step()?;
        let name = self.name(id);
        self.emit(EffectEvent::TurnStart {
            round: self.enc.round,
            name: name.clone(),
        });
        // (1) recurring effects, in attach order.
        let recurring: Vec<(u64, String)> = self
            .enc
            .get(id)
            .map(|holder| {
                holder
                    .effects
                    .iter()
                    .filter(|a| a.acting == Acting::Recurring)
                    .map(|a| (a.seq, a.tag.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let library = self.library;
        for (seq, tag) in recurring {
            match self.enc.get(id) {
                None => return Ok(true),
                Some(holder) if !holder.holds(seq) => continue,
                Some(_) => {}
            }
            let Some(effect) = library.effect(&tag) else {
                continue;
            };
            self.step()?;
            self.reapply(effect, id, seq, 0, false)?;
        }
        let Some(holder) = self.enc.get(id) else {
            return Ok(true);
        };
        // (2) the skip check.
        let shown = &holder.shown;
        let skip = if shown.flag(Subject::Dead) {
            Some(EffectEvent::IsDead { name: name.clone() })
        } else if shown.ints.get(&Subject::HitPoints) == Some(&0) {
            Some(EffectEvent::DownSkips { name: name.clone() })
        } else if shown.flag(Subject::LoseTurn) {
            Some(EffectEvent::LosesTurn { name: name.clone() })
        } else {
            None
        };
        let skipped = skip.is_some();
        if let Some(event) = skip {
            self.emit(event);
        }
        // (3) count down; what reaches 0 wears off.
        let Some(holder) = self.enc.get_mut(id) else {
            return Ok(skipped);
        };
        let mut worn = Vec::new();
        holder.effects.retain_mut(|attached| {
            let Some(turns) = attached.turns_left.as_mut() else {
                return true;
            };
            *turns -= 1;
            if *turns <= 0 {
                worn.push(attached.tag.clone());
                return false;
            }
            true
        });
        if !worn.is_empty() {
            holder.recompute();
        }
        for effect in worn {
            self.emit(EffectEvent::WearsOff {
                effect,
                name: name.clone(),
            });
        }
        Ok(skipped)
    }
}
