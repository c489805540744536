//! The `tavern effects play` protocol as a pure function: directives in, transcript out.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::EffectError;
use super::engine::{CombatantSpec, CombatantView, Encounter, HpChange, Randomness};
use super::event::EffectEvent;
use super::model::Subject;
use super::{EffectLibrary, load_effects};

/// Longest directive line taken whole, in bytes; longer ones are refused.
pub const MAX_LINE_BYTES: usize = 1024;

/// A generator that always gives the same word: all ones make every die show
/// its highest face and every draw fail; zeros the lowest face and success.
struct Constant(u64);

impl RngCore for Constant {
    fn next_u32(&mut self) -> u32 {
        self.0 as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.0
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(self.0 as u8);
    }
}

enum Source {
    Fixed(Constant),
    Seeded(Box<ChaCha8Rng>),
}

impl Source {
    fn rng(&mut self) -> &mut dyn RngCore {
        match self {
            Source::Fixed(constant) => constant,
            Source::Seeded(rng) => rng.as_mut(),
        }
    }
}

struct PlayFate {
    dice: Source,
    chance: Source,
}

impl Randomness for PlayFate {
    fn dice(&mut self) -> &mut dyn RngCore {
        self.dice.rng()
    }

    fn chance(&mut self) -> &mut dyn RngCore {
        self.chance.rng()
    }
}

/// One play session: the library, the encounter and the dice and chance settings.
pub struct EffectPlay {
    library: EffectLibrary,
    encounter: Encounter,
    fate: PlayFate,
}

/// Runs the play protocol of issue 14 on `input` and returns the transcript.
/// A file that does not load gives only its `[load error] line N: message` lines.
pub fn play_effects(source: &str, input: &str) -> String {
    let mut session = match EffectPlay::new(source) {
        Ok(session) => session,
        Err(errors) => return errors,
    };
    let mut transcript = String::new();
    for line in input.lines() {
        transcript.push_str(&session.line(line));
    }
    transcript
}

impl EffectPlay {
    /// Loads the effect file; on failure, the `[load error] line N: message` lines.
    pub fn new(source: &str) -> Result<EffectPlay, String> {
        let library = load_effects(source).map_err(|errors| {
            errors
                .iter()
                .map(|error| format!("[load error] {error}\n"))
                .collect::<String>()
        })?;
        Ok(EffectPlay {
            library,
            encounter: Encounter::new(),
            fate: PlayFate {
                dice: Source::Fixed(Constant(u64::MAX)),
                chance: Source::Fixed(Constant(0)),
            },
        })
    }

    /// The encounter as it stands.
    pub fn encounter(&self) -> &Encounter {
        &self.encounter
    }

    /// One input line: its echo and its events, each line ending in `\n`.
    /// Blank lines and comment lines (starting with `#`) give nothing.
    pub fn line(&mut self, line: &str) -> String {
        self.line_worded(line, &mut |events, _| {
            events.iter().map(EffectEvent::to_line).collect()
        })
    }

    /// [`EffectPlay::line`] with a command's events worded by `word` (given the
    /// events and the encounter after them), as a host words them for its
    /// readers; the echo, `[state]` and `[error]` lines stay the protocol's.
    pub fn line_worded(
        &mut self,
        line: &str,
        word: &mut dyn FnMut(&[EffectEvent], &Encounter) -> Vec<String>,
    ) -> String {
        let line = line.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            return String::new();
        }
        if line.len() > MAX_LINE_BYTES {
            let mut cut = MAX_LINE_BYTES;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            return format!(
                "> {}…\n[error] the line is longer than {MAX_LINE_BYTES} bytes\n",
                line.get(..cut).unwrap_or("")
            );
        }
        let mut out = format!("> {line}\n");
        let said = self.directive(line).map(|said| match said {
            Said::Events(events) => word(&events, &self.encounter),
            Said::Lines(lines) => lines,
        });
        match said {
            Ok(lines) => {
                for event_line in lines {
                    out.push_str(&event_line);
                    out.push('\n');
                }
            }
            Err(message) => {
                out.push_str(&format!("[error] {message}\n"));
            }
        }
        out
    }

    fn directive(&mut self, line: &str) -> Result<Said, String> {
        let Some(directive) = line.trim().strip_prefix('@') else {
            return Err(
                "expected a directive: @add, @apply, @hp, @next, @remove, @dice, @chance or @state"
                    .to_string(),
            );
        };
        let mut words = directive.split_whitespace();
        let name = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        let library = &self.library;
        let events = match (name, args.as_slice()) {
            ("add", [combatant, rest @ ..]) => {
                let spec = parse_add(combatant, rest)?;
                self.encounter.add(library, &spec)
            }
            ("apply", [effect, targets @ ..]) if !targets.is_empty() => {
                let joined = targets.join("");
                let targets: Vec<&str> = joined.split(',').map(str::trim).collect();
                if targets.iter().any(|t| t.is_empty()) {
                    return Err("usage: @apply EFFECT T1[,T2…]".to_string());
                }
                self.encounter
                    .apply(library, effect, &targets, &mut self.fate)
            }
            ("hp", [target, change @ ..]) if !change.is_empty() => {
                let change = hp_change(library, &mut self.fate, &change.join(""))?;
                self.encounter.hp(library, target, change, &mut self.fate)
            }
            ("next", []) => self.encounter.next(library, &mut self.fate),
            ("remove", [target]) => self.encounter.remove(target),
            ("dice", setting) => {
                self.fate.dice = source(
                    setting,
                    [("max", u64::MAX), ("min", 0)],
                    "@dice max | min | seed N",
                )?;
                Ok(Vec::new())
            }
            ("chance", setting) => {
                self.fate.chance = source(
                    setting,
                    [("always", 0), ("never", u64::MAX)],
                    "@chance always | never | seed N",
                )?;
                Ok(Vec::new())
            }
            ("state", []) => {
                let lines = self.encounter.combatants().iter().map(state_line).collect();
                return Ok(Said::Lines(lines));
            }
            ("add" | "apply" | "hp" | "next" | "remove" | "state", _) => {
                return Err(format!("malformed @{name}; see the protocol in the README"));
            }
            _ => return Err(format!("unknown directive @{name}")),
        };
        events
            .map(Said::Events)
            .map_err(|error: EffectError| error.message)
    }
}

/// What a directive gave: an encounter command's events, or lines of its own
/// (`@state`).
enum Said {
    Events(Vec<EffectEvent>),
    Lines(Vec<String>),
}

/// `+N`, `-N` or `=N`, N an integer or dice (rolled with the dice setting).
fn hp_change(library: &EffectLibrary, fate: &mut PlayFate, text: &str) -> Result<HpChange, String> {
    let usage = || "usage: @hp TARGET +N | -N | =N".to_string();
    let sign = text.chars().next().ok_or_else(usage)?;
    let rest = text.get(1..).unwrap_or("");
    if !matches!(sign, '+' | '-' | '=') || rest.is_empty() {
        return Err(usage());
    }
    let amount = match rest.parse::<i64>() {
        Ok(value) => value,
        Err(_) => {
            if rest.contains(['@', '$']) {
                return Err("`@` fields and `$` macros are not allowed here".to_string());
            }
            let limits = &library.limits().dice;
            let expr = dice_core::parse_with(rest, limits).map_err(|error| {
                format!("dice expression `{rest}` is refused: {}", error.message())
            })?;
            expr.roll(fate.dice.rng(), limits)
                .map_err(|error| error.message().to_string())?
                .total()
        }
    };
    Ok(match sign {
        '+' => HpChange::Offset(amount),
        '-' => HpChange::Offset(amount.saturating_neg()),
        _ => HpChange::Assign(amount),
    })
}

/// A setting word's constant generator, or `seed N`.
fn source(setting: &[&str], words: [(&str, u64); 2], usage: &str) -> Result<Source, String> {
    let usage = || format!("usage: {usage}");
    match setting {
        ["seed", seed] => seed
            .parse::<u64>()
            .map(|seed| Source::Seeded(Box::new(ChaCha8Rng::seed_from_u64(seed))))
            .map_err(|_| usage()),
        [word] => words
            .iter()
            .find(|(known, _)| known == word)
            .map(|(_, word)| Source::Fixed(Constant(*word)))
            .ok_or_else(usage),
        _ => Err(usage()),
    }
}

/// `@add NAME init=I hp=H [ac=A] [str=…] … [immune=E,E] [protect=E:N,E:N]`.
fn parse_add(name: &str, options: &[&str]) -> Result<CombatantSpec, String> {
    let mut spec = CombatantSpec {
        name: name.to_string(),
        ..CombatantSpec::default()
    };
    let (mut init, mut hp) = (None, None);
    let number = |key: &str, value: &str| {
        value
            .parse::<i64>()
            .map_err(|_| format!("@add: {key}= takes an integer, not `{value}`"))
    };
    for option in options {
        let Some((key, value)) = option.split_once('=') else {
            return Err(format!("@add: expected key=value, found `{option}`"));
        };
        let subject = match key {
            "init" => {
                init = Some(number(key, value)?);
                continue;
            }
            "hp" => {
                hp = Some(number(key, value)?);
                continue;
            }
            "immune" => {
                spec.immune = value
                    .split(',')
                    .filter(|e| !e.is_empty())
                    .map(str::to_string)
                    .collect();
                continue;
            }
            "protect" => {
                for pair in value.split(',').filter(|p| !p.is_empty()) {
                    let Some((element, amount)) = pair.split_once(':') else {
                        return Err(format!("@add: protect= takes E:N pairs, not `{pair}`"));
                    };
                    spec.protect
                        .push((element.to_string(), number("protect", amount)?));
                }
                continue;
            }
            "ac" => Subject::ArmorClass,
            "str" => Subject::Strength,
            "dex" => Subject::Dexterity,
            "int" => Subject::Intelligence,
            "wis" => Subject::Wisdom,
            "con" => Subject::Constitution,
            "cha" => Subject::Charisma,
            other => return Err(format!("@add: unknown option {other}=")),
        };
        spec.stats.push((subject, number(key, value)?));
    }
    match (init, hp) {
        (Some(init), Some(hp)) => {
            spec.initiative = init;
            spec.hp = hp;
            Ok(spec)
        }
        _ => Err("@add needs init=I and hp=H".to_string()),
    }
}

const STATE_STATS: [(&str, Subject); 7] = [
    ("ac", Subject::ArmorClass),
    ("str", Subject::Strength),
    ("dex", Subject::Dexterity),
    ("int", Subject::Intelligence),
    ("wis", Subject::Wisdom),
    ("con", Subject::Constitution),
    ("cha", Subject::Charisma),
];

/// `[state] NAME hp=H/M ac=A str=… immune={…} protect={E:N,…} flags={…} effects=…`.
fn state_line(combatant: &CombatantView) -> String {
    let mut line = format!(
        "[state] {} hp={}/{}",
        combatant.name, combatant.hp, combatant.max_hp
    );
    for (key, subject) in STATE_STATS {
        if let Some(value) = combatant.int(subject) {
            line.push_str(&format!(" {key}={value}"));
        }
    }
    let set = |subject| {
        combatant
            .set(subject)
            .into_iter()
            .collect::<Vec<_>>()
            .join(",")
    };
    let protect: Vec<String> = combatant
        .protections
        .iter()
        .map(|(element, amount)| format!("{element}:{amount}"))
        .collect();
    let effects: Vec<String> = combatant
        .effects
        .iter()
        .map(|attached| match attached.turns_left {
            Some(turns) => format!("{}({turns})", attached.tag),
            None => format!("{}(*)", attached.tag),
        })
        .collect();
    let effects = if effects.is_empty() {
        "-".to_string()
    } else {
        effects.join(",")
    };
    line.push_str(&format!(
        " immune={{{}}} protect={{{}}} flags={{{}}} effects={effects}",
        set(Subject::Immunity),
        protect.join(","),
        set(Subject::Flags)
    ));
    line
}
