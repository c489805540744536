//! Localization (issue 18): every user-facing text comes from one Fluent catalogue per
//! language, embedded in the binary (`bot/locales/<lang>/<module>.ftl`).
//!
//! The API for the rest of the bot is small:
//! - [`tr`]`(lang, "key")` and [`tr_args`]`(lang, "key", &[("name", value.into())])`
//!   format a message; values are [`Arg`]s (text or numbers, so plurals and number
//!   formatting follow the language's own rules).
//! - [`Lang`] is the language; [`Lang::from_discord_locale`] reads an interaction's
//!   `locale` or `guild_locale`, [`LanguageSetting`] a server's `/config language`.
//! - [`commands`] derives the catalogue keys of the command table's names and
//!   descriptions (`commands.ftl`), for Discord's registration.
//!
//! A key missing in German falls back to English with a warning in the log; a key
//! missing everywhere comes back as the key itself. Nothing here panics.

pub mod commands;
mod format;

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// A language Tavern speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    En,
    De,
}

impl Lang {
    /// Every language with a catalogue; English first (it is the fallback).
    pub const ALL: [Lang; 2] = [Lang::En, Lang::De];

    /// The languages whose command names and descriptions are registered with Discord
    /// as localizations (English is the registration's default).
    pub const LOCALIZED: [Lang; 1] = [Lang::De];

    /// The code used in `/config language` and `--lang`, and the folder of its
    /// catalogue: `en`, `de`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// Discord's locale for this language (the key of `name_localizations`).
    pub fn discord_locale(self) -> &'static str {
        match self {
            Lang::En => "en-US",
            Lang::De => "de",
        }
    }

    /// The language of a Discord locale (`locale`, `guild_locale`): `de`, `en-US`,
    /// `en-GB`. A locale Tavern has no catalogue for is `None`.
    pub fn from_discord_locale(locale: &str) -> Option<Lang> {
        match locale {
            "de" => Some(Lang::De),
            "en-US" | "en-GB" => Some(Lang::En),
            _ => None,
        }
    }

    /// `de` or `en` as typed (`--lang DE`, ` en `).
    pub fn from_code(code: &str) -> Option<Lang> {
        let code = code.trim();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(code))
    }

    /// The language of a POSIX locale as `LANG` holds it: `de_DE.UTF-8`, `de_AT@euro`,
    /// `en_GB`, `de`. `C`, `POSIX` and other languages are `None`.
    pub fn from_posix_locale(value: &str) -> Option<Lang> {
        let language = value.split(['_', '.', '@', '-']).next().unwrap_or_default();
        Lang::from_code(language)
    }
}

/// What a server chose with `/config language`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LanguageSetting {
    /// The server's own Discord locale (`guild_locale`); English for one Tavern does
    /// not speak.
    #[default]
    Auto,
    Fixed(Lang),
}

impl LanguageSetting {
    /// `auto`, `de` or `en`: the choices of `/config language`.
    pub fn parse(choice: &str) -> Option<LanguageSetting> {
        if choice.trim().eq_ignore_ascii_case("auto") {
            return Some(LanguageSetting::Auto);
        }
        Lang::from_code(choice).map(LanguageSetting::Fixed)
    }

    /// From the stored column (`NULL` is auto). A code this build does not know (a
    /// newer build stored it) counts as auto rather than failing the request.
    pub fn from_stored(stored: Option<&str>) -> LanguageSetting {
        stored
            .and_then(Lang::from_code)
            .map_or(LanguageSetting::Auto, LanguageSetting::Fixed)
    }

    /// What the column holds: the language's code, or `NULL` for auto.
    pub fn to_stored(self) -> Option<&'static str> {
        match self {
            LanguageSetting::Auto => None,
            LanguageSetting::Fixed(lang) => Some(lang.code()),
        }
    }

    /// The choice's name as `/config language` takes it.
    pub fn code(self) -> &'static str {
        match self {
            LanguageSetting::Auto => "auto",
            LanguageSetting::Fixed(lang) => lang.code(),
        }
    }
}

/// A value for a message's variable: text, or a number (formatted and selected on by
/// the language's rules: `{ $count -> [one] … *[other] … }`). Numbers pass through an
/// `f64`: counts and amounts, never ids (pass those as text).
#[derive(Debug, Clone, PartialEq)]
pub enum Arg<'a> {
    Text(Cow<'a, str>),
    Number(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(text))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Arg<'_> {
    fn from(text: String) -> Self {
        Arg::Text(Cow::Owned(text))
    }
}

impl From<f64> for Arg<'_> {
    fn from(number: f64) -> Self {
        Arg::Number(number)
    }
}

macro_rules! number_args {
    ($($int:ty),*) => {$(
        impl From<$int> for Arg<'_> {
            #[allow(clippy::cast_precision_loss)]
            fn from(number: $int) -> Self {
                Arg::Number(number as f64)
            }
        }
    )*};
}
number_args!(i32, i64, u8, u16, u32, u64, usize);

/// The catalogue's files, in the order they are added to a bundle: one per command
/// module, so modules are translated without touching each other's files.
macro_rules! catalogue_files {
    ($($name:literal),* $(,)?) => {
        /// `(file name, English source, German source)` of every catalogue file.
        pub const FILES: &[(&str, &str, &str)] = &[$((
            concat!($name, ".ftl"),
            include_str!(concat!("../../locales/en/", $name, ".ftl")),
            include_str!(concat!("../../locales/de/", $name, ".ftl")),
        )),*];
    };
}

catalogue_files!(
    "common",
    "transport",
    "commands",
    "roll",
    "odds",
    "chargen",
    "programs",
    "character",
    "macros",
    "config",
    "npc",
    "effect",
    "help",
    "encounter",
    "gm",
    "dice",
    "web",
    "editor",
    "web-live",
);

/// The embedded sources of one language's catalogue: `(file name, text)`.
pub fn sources(lang: Lang) -> impl Iterator<Item = (&'static str, &'static str)> {
    FILES.iter().map(move |(name, en, de)| match lang {
        Lang::En => (*name, *en),
        Lang::De => (*name, *de),
    })
}

type Bundle = FluentBundle<FluentResource>;

/// One bundle per language.
struct Catalogue {
    en: Bundle,
    de: Bundle,
}

/// The embedded catalogue, built once on first use.
static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| Catalogue {
    en: bundle(Lang::En, sources(Lang::En)),
    de: bundle(Lang::De, sources(Lang::De)),
});

impl Catalogue {
    fn bundle(&self, lang: Lang) -> &Bundle {
        match lang {
            Lang::En => &self.en,
            Lang::De => &self.de,
        }
    }

    fn tr_args(&self, lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
        let args = fluent_args(args);
        if let Some(text) = self.format(lang, key, None, args.as_ref()) {
            return text;
        }
        if lang != Lang::En {
            tracing::warn!(lang = lang.code(), key, "message missing; using English");
            if let Some(text) = self.format(Lang::En, key, None, args.as_ref()) {
                return text;
            }
        }
        tracing::warn!(key, "message missing in every catalogue");
        key.to_owned()
    }

    fn format(
        &self,
        lang: Lang,
        key: &str,
        attribute: Option<&str>,
        args: Option<&FluentArgs<'_>>,
    ) -> Option<String> {
        let bundle = self.bundle(lang);
        let message = bundle.get_message(key)?;
        let pattern = match attribute {
            Some(name) => message.get_attribute(name)?.value(),
            None => message.value()?,
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, args, &mut errors);
        if !errors.is_empty() {
            // A variable the caller did not give shows as `{$name}`; the text still
            // goes out, the log says which, and the count tells the tests.
            FORMAT_ERRORS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tracing::warn!(lang = lang.code(), key, attribute, errors = ?errors, "message formatted with errors");
        }
        Some(text.into_owned())
    }
}

/// Messages formatted with errors since the process started.
static FORMAT_ERRORS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many messages were formatted with errors (a variable the caller did not give,
/// which shows as `{$name}`) since the process started: the tests require none.
pub fn format_errors() -> u64 {
    FORMAT_ERRORS.load(std::sync::atomic::Ordering::Relaxed)
}

fn bundle<'a>(lang: Lang, sources: impl Iterator<Item = (&'a str, &'a str)>) -> Bundle {
    let locale = lang.code().parse().unwrap_or_default();
    let mut bundle = Bundle::new_concurrent(vec![locale]);
    // Discord shows Unicode isolation marks around variables as stray characters.
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(match lang {
        Lang::En => format::english,
        Lang::De => format::german,
    }));
    if let Err(error) = bundle.add_builtins() {
        tracing::error!(lang = lang.code(), error = %error, "cannot add Fluent's NUMBER");
    }
    for (file, source) in sources {
        // A file with a syntax error still gives the messages that parsed; the
        // catalogue tests refuse such a file before it ships.
        let resource = match FluentResource::try_new(source.to_owned()) {
            Ok(resource) => resource,
            Err((resource, errors)) => {
                tracing::error!(lang = lang.code(), file, errors = ?errors, "catalogue file does not parse");
                resource
            }
        };
        if let Err(errors) = bundle.add_resource(resource) {
            tracing::error!(lang = lang.code(), file, errors = ?errors, "catalogue file repeats a key");
        }
    }
    bundle
}

/// The message `key` in `lang`, with English for a key German lacks, and the key
/// itself for one no catalogue has.
pub fn tr(lang: Lang, key: &str) -> String {
    tr_args(lang, key, &[])
}

/// The message `key` in `lang` with its variables: `tr_args(lang, "roll-total",
/// &[("total", 17.into())])`.
pub fn tr_args(lang: Lang, key: &str, args: &[(&str, Arg<'_>)]) -> String {
    CATALOGUE.tr_args(lang, key, args)
}

/// An attribute of a message (`key.attribute`) in exactly `lang`, without falling
/// back: `None` when that catalogue lacks it. Registration uses it for command names
/// and descriptions, where a missing localization is left out.
pub fn attribute(lang: Lang, key: &str, attribute: &str) -> Option<String> {
    CATALOGUE.format(lang, key, Some(attribute), None)
}

/// Whether `lang`'s catalogue has the message `key` (with a value or attributes).
pub fn has_message(lang: Lang, key: &str) -> bool {
    CATALOGUE.bundle(lang).has_message(key)
}

fn fluent_args<'a>(args: &'a [(&'a str, Arg<'a>)]) -> Option<FluentArgs<'a>> {
    if args.is_empty() {
        return None;
    }
    let mut fluent = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        let value = match value {
            Arg::Text(text) => FluentValue::from(text.as_ref()),
            Arg::Number(number) => FluentValue::from(*number),
        };
        fluent.set(*name, value);
    }
    Some(fluent)
}

/// A wait as people say it: `12 s`, `5 min`, `3 h 20 min`, `3 days` (`3 Tage`).
pub fn duration(lang: Lang, ms: i64) -> String {
    // Saturating: a limit read as `i64::MAX` ("never") must not overflow.
    let seconds = ms.max(0).saturating_add(999) / 1000;
    if seconds < 60 {
        return tr_args(
            lang,
            "common-duration-seconds",
            &[("seconds", seconds.into())],
        );
    }
    let minutes = seconds / 60;
    if minutes < 60 {
        return tr_args(
            lang,
            "common-duration-minutes",
            &[("minutes", minutes.into())],
        );
    }
    let hours = minutes / 60;
    let rest = minutes % 60;
    if hours < 48 {
        return tr_args(
            lang,
            "common-duration-hours",
            &[("hours", hours.into()), ("minutes", rest.into())],
        );
    }
    tr_args(
        lang,
        "common-duration-days",
        &[("days", (hours / 24).into())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue(en: &'static str, de: &'static str) -> Catalogue {
        Catalogue {
            en: bundle(Lang::En, [("test.ftl", en)].into_iter()),
            de: bundle(Lang::De, [("test.ftl", de)].into_iter()),
        }
    }

    #[test]
    fn missing_keys_fall_back_to_english_then_to_the_key() {
        let catalogue = catalogue(
            "both = both en\nonly-en = only en { $n }\n",
            "both = beide de\n",
        );
        let n = [("n", Arg::from(3))];
        assert_eq!(catalogue.tr_args(Lang::De, "both", &[]), "beide de");
        assert_eq!(catalogue.tr_args(Lang::De, "only-en", &n), "only en 3");
        assert_eq!(catalogue.tr_args(Lang::En, "nowhere", &[]), "nowhere");
        assert_eq!(catalogue.tr_args(Lang::De, "nowhere", &n), "nowhere");
    }

    #[test]
    fn a_broken_file_keeps_what_parsed_and_a_missing_variable_shows_its_name() {
        let catalogue = catalogue("good = fine\nbroken !\nlater = { $x } later\n", "");
        assert_eq!(catalogue.tr_args(Lang::En, "good", &[]), "fine");
        assert_eq!(catalogue.tr_args(Lang::En, "later", &[]), "{$x} later");
        assert_eq!(catalogue.tr_args(Lang::En, "broken", &[]), "broken");
    }

    #[test]
    fn plurals_numbers_and_no_isolation_marks() {
        let catalogue = catalogue(
            "n = { $n ->\n    [one] { $n } arrow\n   *[other] { $n } arrows\n}\nx = <{ $x }>\n",
            "n = { $n ->\n    [one] { $n } Pfeil\n   *[other] { $n } Pfeile\n}\nx = <{ $x }>\n",
        );
        let cases = [
            (Lang::En, 1.0, "1 arrow"),
            (Lang::En, 12_000.0, "12,000 arrows"),
            (Lang::En, 1.5, "1.5 arrows"),
            (Lang::De, 1.0, "1 Pfeil"),
            (Lang::De, 12_000.0, "12.000 Pfeile"),
            (Lang::De, 1.5, "1,5 Pfeile"),
        ];
        for (lang, n, expected) in cases {
            assert_eq!(catalogue.tr_args(lang, "n", &[("n", n.into())]), expected);
        }
        assert_eq!(
            catalogue.tr_args(Lang::De, "x", &[("x", "Udo".into())]),
            "<Udo>"
        );
    }
}
