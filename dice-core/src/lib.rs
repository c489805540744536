//! The Tavern dice language: parsing, rolling and rendering dice expressions.
//!
//! `dice-core` turns text such as `4d6kh3`, `1d20+5 to hit` or
//! `{d6,d8,d10}kh2cs>=5` into an [`Expr`], rolls it with a random number
//! generator you pass in, and returns a [`Roll`] that keeps the story of
//! every die (kept or dropped, exploded, rerolled, counted) and renders it
//! for Discord ([`Roll::to_markdown`]) or a terminal ([`Roll::to_plain`]).
//!
//! ```
//! use dice_core::Limits;
//! use rand::SeedableRng;
//!
//! let expr = dice_core::parse("4d6kh3 strength").unwrap();
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let roll = expr.roll(&mut rng, &Limits::default()).unwrap();
//! assert!((3..=18).contains(&roll.total()));
//! assert_eq!(roll.label(), Some("strength"));
//! println!("{}", roll.to_markdown(1_800)); // *strength*: 4d6kh3 (**6**, 4, 3, ~~2~~) = **13**
//! ```
//!
//! # Why it is built this way
//!
//! - **No I/O, injected randomness.** Rolling is a pure function of the
//!   expression and the generator, so a seeded generator repeats a roll.
//! - **Nothing can panic, hang or exhaust memory.** Every parse and roll is
//!   bounded by [`Limits`]; the nesting depth is measured before the pest
//!   grammar runs (pest recurses per parenthesis); explosions and rerolls
//!   stop at a cap and mark the die.
//! - **Our own tree.** The grammar lives in `src/dice.pest`; its pairs become
//!   a small tree of our own (no pest type is public) with a byte span on
//!   every node, literal arguments stored inline, and a slot per pool, so a
//!   roll records its story in flat tables without hashing. The common forms
//!   (`1d20+5`, `4d6kh3`, `10d10!`, `{d6,d8,d10}kh2cs>=5`, ...) are parsed
//!   by a hand-written path that builds the same tree many times faster than
//!   pest; a property test holds the two together. A cached `4d6kh3` rolls
//!   four to five million times per second on a busy two-core machine.
//! - **Errors a user can act on.** [`Error`] has a kind, a byte span, a
//!   message saying what was expected, and [`Error::caret`]. The message is
//!   rendered from a structured [`Reason`] (see [Errors](#errors)), so a
//!   caller can say it in another language without reading English back.
//!
//! # The language
//!
//! In the examples, `total` parses, rolls with a seeded generator and
//! returns the total; dice with one face (`d1`, `d{5}`) make the exact
//! values visible.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! // Integers with + - * / % and parentheses; `/` truncates toward zero and
//! // `%` keeps the sign of the dividend. Arithmetic is checked: overflow and
//! // division by zero are errors, never wrapped.
//! assert_eq!(total("2 + 3 * 4"), 14);
//! assert_eq!(total("(2 + 3) * 4"), 20);
//! assert_eq!(total("-7 / 2"), -3);
//! assert_eq!(total("-7 % 2"), -1);
//! assert_eq!(total("--3"), 3);
//! ```
//!
//! ## Dice
//!
//! `NdM` rolls N dice with faces 1 to M; `dM` is one die; count and sides may
//! be parenthesised expressions, `(e)d(e)`. A count of zero or less rolls no
//! dice. `d{...}` rolls a die whose faces are the elements of the series
//! (duplicates weigh more; `d4` is `d{1..4}`). `dF` is a Fate die (-1, 0, 1),
//! `d%` a percentile die (1 to 100); `D` works like `d`.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! assert!((2..=12).contains(&total("2d6")));
//! assert!((1..=20).contains(&total("D20")));
//! assert_eq!(total("(1+2)d1"), 3);
//! assert_eq!(total("3d{4}"), 12);
//! assert!((1..=3).contains(&total("d{1,1,1,2,2,3}")));
//! assert!((-4..=4).contains(&total("4dF")));
//! assert!((1..=100).contains(&total("d%")));
//! assert_eq!(total("0d6"), 0);
//! ```
//!
//! A die's *highest* and *lowest* face are the **last** and **first**
//! elements of its face series, not the largest and smallest values: for
//! `d{6,1,3}` the highest face is 3.
//!
//! ## Series
//!
//! `{a, b..c, ...}` is an ordered list of expressions; `b..c` expands to the
//! numbers from b to c (nothing when c < b); series nest. A series' value is
//! the sum of its elements, and `{}` is 0.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! assert_eq!(total("{1..4}"), 10);
//! assert_eq!(total("{4..1}"), 0);
//! assert_eq!(total("{1, {2, 3}}"), 6);
//! assert_eq!(total("{}"), 0);
//! ```
//!
//! ## Modifiers of the seed: keep, count, sort
//!
//! Modifiers follow dice, series, parenthesised expressions and numbers (a
//! number is a one-element series), written right after them without a
//! space, and apply left to right; each one sees only what the ones before
//! it kept. Parentheses are transparent: `(4d6)kh3` keeps among the dice.
//!
//! - `k`/`kh` N keeps the N highest, `kl` N the N lowest (N a number or a
//!   parenthesised expression, default 1; more than there are keeps all;
//!   N <= 0 keeps none; among equal values the leftmost wins). `ke`/`ko`
//!   keep the even/odd elements (with N: the N highest of them). On a
//!   series, keep chooses whole elements.
//! - `c`/`cs` counts successes, `cf` failures (+1 per match), `ss` and `sf`
//!   subtract one per match; the pool's value becomes the count. Filters:
//!   `h` (highest face), `l` (lowest face), `o` (odd), `e` (even), `N`
//!   (`=N`), `op N` or `op (e)` with `op` one of `= == < > <= >= <> !=`, and
//!   `( ... )` with `&` binding tighter than `|`. No filter means `h`.
//!   Several filters add up (a die can count twice); inside parentheses a
//!   die counts at most once. Numbers count for comparisons but never match
//!   `h` or `l`; nested series are counted recursively.
//! - `s`/`sa` sorts ascending, `sd` descending: only the display changes.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! assert_eq!(total("{3,1,2}kh"), 3);
//! assert_eq!(total("{3,1,2}kl2"), 3);
//! assert_eq!(total("{4,3,2,1}ke"), 6);
//! assert_eq!(total("{4d1+3d1}kh1"), 7); // one element: the whole sum
//! assert_eq!(total("{1,5,6}cs>=5"), 2);
//! assert_eq!(total("4d{6}cs>=4=6"), 8); // a 6 counts twice
//! assert_eq!(total("4d{6}cs(>=4|=6)"), 4); // at most once
//! assert_eq!(total("{6,5,1,1}kh2cs>=5"), 2);
//! assert_eq!(total("{1,8,9,10}cs>=8sf1"), 2); // successes minus ones
//! assert_eq!(total("{3,1,2}sd"), 6);
//! assert!((3..=18).contains(&total("4d6kh3")));
//! ```
//!
//! ## Common notation of other tools
//!
//! Where they do not clash with the seed, the spellings of Roll20, Foundry,
//! Avrae/d20 and Dice Maiden work too. Die modifiers (explosions, rerolls,
//! clamps) act while each die is rolled, wherever they are written; the
//! others then act on the rolled pool, left to right, so keeping and
//! dropping choose among all dice including the ones explosions added.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! // Exploding: `!` on the highest face or a condition; `!!` compounds into
//! // one die; `!p` penetrates (each added die counts one less); Foundry's
//! // `x`, `x10`, `xo` (explode once); d20's `e6`. A die stops exploding
//! // after `Limits::max_explosions_per_die` (100) and is marked, so `1d1!`
//! // ends.
//! assert!(total("10d10!") >= 10);
//! assert_eq!(total("3d{5}!>=5") % 5, 0);
//! assert!(total("6d6!!") >= 6);
//! assert!(total("6d6!p") >= 6);
//! assert!(total("1d10x10") >= 1);
//! assert_eq!(total("2d1xo"), 4);
//! assert!(total("1d20e20") >= 1);
//! assert_eq!(total("1d1!"), 101);
//! assert_eq!(total("4d1!kh3"), 3); // explode first, then keep
//!
//! // Rerolls: `ro` once, `rr` until the condition fails, and a bare `r`
//! // like Roll20 (until it fails). The default condition is the lowest face.
//! assert!((2..=6).contains(&total("1d6r")));
//! assert!((3..=6).contains(&total("1d6rr<3")));
//! assert!((1..=6).contains(&total("1d6ro1")));
//! assert!((3..=6).contains(&total("1d6r1r2"))); // conditions combine
//!
//! // Dropping after dice: `d`/`dl` (lowest), `dh` (highest), d20's `p`,
//! // `pl`, `ph` (these three also after series, sets and values); N
//! // defaults to 1.
//! assert_eq!(total("4d1d1"), 3);
//! assert_eq!(total("4d1dl2"), 2);
//! assert_eq!(total("4d1dh2"), 2);
//! assert_eq!(total("4d1p1"), 3);
//! assert_eq!(total("4d1pl1"), 3);
//! assert_eq!(total("4d1ph3"), 1);
//! assert!((3..=18).contains(&total("4d6d")));
//!
//! // Clamps: `min`/`mi` raise low dice, `max`/`ma` lower high dice.
//! assert_eq!(total("3d{1}min2"), 6);
//! assert_eq!(total("3d{1}mi2"), 6);
//! assert_eq!(total("3d{6}max4"), 12);
//! assert_eq!(total("3d{6}ma4"), 12);
//!
//! // Success pools: a comparison right after dice (no space) counts the
//! // dice that match; Dice Maiden's `t8` (8 or more) and `f1` (subtract one
//! // per die of 1 or less), which also take a comparison (Roll20's `f<2`);
//! // Foundry's `df` (deduct failures, like `sf`).
//! assert_eq!(total("6d{9}>=8"), 6);
//! assert_eq!(total("6d{9}t8f1"), 6);
//! assert_eq!(total("6d{9}>3f<2"), 6);
//! assert_eq!(total("6d{1}f1"), -6);
//! assert_eq!(total("6d{1}df1"), -6);
//!
//! // Functions and comparisons between values (1 or 0). Inside floor, ceil
//! // and round arithmetic is exact, so they round real fractions; round
//! // takes halves away from zero.
//! assert_eq!(total("abs(-3) + min(4, 2, 8) + max(1, 5)"), 10);
//! assert_eq!(total("floor(7/2)"), 3);
//! assert_eq!(total("ceil(7/2)"), 4);
//! assert_eq!(total("round(-7/2)"), -4);
//! assert_eq!(total("1d1 + 1 == 2"), 1);
//! assert_eq!(total("3 != 3"), 0);
//! assert_eq!(total("2 <= 1"), 0);
//! assert_eq!(total("2 >= 1") + total("1 < 2") + total("1 > 2"), 2);
//!
//! // Other bots' spellings: powers (right to left, before unary minus),
//! // floor division, integer sqrt/exp/log (nearest), sign, pow, unary
//! // plus, the empty set, comments, negative clamps.
//! assert_eq!(total("2^3^2") + total("-2**2"), 508);
//! assert_eq!(total("15 // 2") + total("-7 // 2"), 3);
//! assert_eq!(total("sqrt(10) + exp(2) + log(10) + sign(-4) + pow(2, 3)"), 19);
//! assert_eq!(total("-+-1 + () + 1 /* one */"), 2);
//! assert_eq!(total("4d{20}min-12") + total("4d{20}max-12"), 32);
//! assert_eq!(total("4d{6}KH3"), 18);
//! ```
//!
//! A comparison **right after dice** is a success pool; with a space, or
//! after parentheses, it compares totals:
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! assert_eq!(total("3d{4}>=4"), 3); // three dice match
//! assert_eq!(total("3d{4} >= 4"), 1); // 12 >= 4
//! assert_eq!(total("(3d{4})>=4"), 1);
//! ```
//!
//! ## Avrae's reroll-and-add, selections by value and sets
//!
//! - `ra` cond (reroll and add): each die matching the condition adds one
//!   more die, once; the added die is not checked again (Foundry's `xo`
//!   with a condition, marked `!` like an explosion). The condition takes
//!   the forms of `ro`/`rr` (`ra1`, `ra<3`, `ra>=5`, `ra=1`, `rah`,
//!   `ra(1|6)`) and is required: `4d6ra` is an error. As with explosions,
//!   `ro`/`rr` reroll the added die too, and `ra` does not mix with `!`.
//! - `k` or `p` glued to a comparison (`< > <= >= =`, also `==`) keeps or
//!   drops the dice (or elements) by value: `4d6k>3` keeps the dice above 3,
//!   `2d20p<5` drops those below 5; the dropped ones are struck through.
//!   `k3`, `kh3`, `kl3`, `p1`, `ph1`, `pl1` keep their meaning (Avrae's
//!   "keep the 3s" is `k=3` here). Not glued to a number or parentheses,
//!   `k` stays the plain keep: `4d6k> 3` and `4d6k>1d6` compare the highest
//!   die, and `4d6k<>3` keeps the highest, then counts it unless it is 3.
//! - `(a, b, ...)`: parentheses with a comma are a set, read like the series
//!   `{a, b, ...}`: `(1d20, 1d20)kh1` keeps the better roll, whole elements
//!   are kept or dropped, and `(2d6,)` is a one-element set. A single
//!   expression in parentheses stays parentheses (`(4d6)kh3` keeps among
//!   the dice). A set cannot be a dice count, sides or modifier argument.
//!   After sets, series and values, `p`/`pl` and `ph` drop too.
//!
//! ```
//! # fn total(input: &str) -> i64 {
//! #     use rand::SeedableRng;
//! #     let expr = dice_core::parse(input).unwrap();
//! #     let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! #     expr.roll(&mut rng, &dice_core::Limits::default()).unwrap().total()
//! # }
//! assert_eq!(total("2d{5}ra5"), 20); // each 5 adds one more 5
//! assert_eq!(total("1d1ra1"), 2); // once: the added die does not add again
//! assert!((2..=40).contains(&total("1d20ra1")));
//! assert!((4..=48).contains(&total("4d6ra<3")));
//! assert_eq!(total("{3,1,2}k>1"), 5);
//! assert_eq!(total("{3,1,2}k<=2"), 3);
//! assert_eq!(total("{3,1,2}p<3"), 3);
//! assert_eq!(total("{3,1,2}k=2"), 2);
//! assert!((0..=24).contains(&total("4d6k>3")));
//! assert!((0..=40).contains(&total("2d20p<5")));
//! assert!(total("6d6e6k>4") >= 0); // explode first, then keep 5s and 6s
//! assert_eq!(total("{3,1,2}k3"), 6); // keep highest 3, as before
//! assert_eq!(total("(3, 1d1+1, 2)kh1"), 3);
//! assert!(total("(1d4+1, 3, 2d6kl1)kh1") >= 3);
//! assert!((1..=20).contains(&total("(1d20, 1d20)kh1")));
//! assert_eq!(total("(5,)"), 5);
//! assert_eq!(total("(3, 1, 2)p1"), 5);
//! assert_eq!(total("(4d1, 2)kl1"), 2); // whole elements
//! assert_eq!(total("(4d1)kl1"), 1); // parentheses: the dice
//! ```
//!
//! ## Labels and tags
//!
//! Text after the expression, separated by a space, is a label, even when
//! it starts with a letter of the notation; `#` starts a label anywhere.
//! `[tag]` after a term names it in the breakdown. Neither changes a value.
//!
//! ```
//! let expr = dice_core::parse("1d20+6 dex save").unwrap();
//! assert_eq!(expr.label(), Some("dex save"));
//! let expr = dice_core::parse("1d20+5 # to hit").unwrap();
//! assert_eq!(expr.label(), Some("to hit"));
//! let expr = dice_core::parse("2d6[fire] + 1d4[cold] damage").unwrap();
//! assert_eq!(expr.label(), Some("damage"));
//! // A label whose first word is only modifiers is refused with a hint.
//! let error = dice_core::parse("4d6 kh3").unwrap_err();
//! assert!(error.message().contains("without a space"));
//! ```
//!
//! ## Macros and fields
//!
//! `$name` refers to a macro and `@NAME` to a field of the active character;
//! names are `[A-Za-z_][A-Za-z0-9_]*`. [`Expr::resolve`] replaces them using a
//! [`Resolver`]; rolling an unresolved reference is an error at its span.
//!
//! ```
//! use dice_core::{Limits, Resolver};
//! use rand::SeedableRng;
//!
//! struct Sheet;
//! impl Resolver for Sheet {
//!     fn macro_source(&self, name: &str) -> Option<String> {
//!         (name == "attack").then(|| "1d20+@STR to hit".to_string())
//!     }
//!     fn field(&self, name: &str) -> Option<i64> {
//!         (name == "STR").then_some(3)
//!     }
//!     fn field_names(&self) -> Vec<String> {
//!         vec!["STR".to_string()]
//!     }
//! }
//!
//! let expr = dice_core::parse("$attack + 2").unwrap();
//! assert_eq!(expr.macro_names(), vec!["attack"]);
//! let resolved = expr.resolve(&Sheet, &Limits::default()).unwrap();
//! assert_eq!(resolved.source(), "(1d20+3) + 2");
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let total = resolved.roll(&mut rng, &Limits::default()).unwrap().total();
//! assert!((6..=25).contains(&total));
//! ```
//!
//! ## Readings of ambiguous spellings
//!
//! | spelling | reading | because |
//! |---|---|---|
//! | `r` | reroll until the condition fails (Roll20), capped | Foundry's once is `ro` |
//! | `ke`, `ko` | keep even / odd; with N, the N highest of them | the seed's question mark |
//! | `cf`, `sf` without filter | count the highest face, like `cs` | the seed: no filter means `h` |
//! | `6d10>=8` / `6d10 >= 8` | success pool / comparison of totals | "right after dice" |
//! | `1d6!=3` | explode on 3 (`!` after dice always explodes) | write `1d6 != 3` to compare |
//! | `6d10!>=8` | explode on 8 or more | write `6d10>=8!` to count and explode on 10 |
//! | `4d6ke`, `4d6cse6` | keep even; count even and sixes | longer spellings win; filters are greedy |
//! | `!p1` | penetrate on 1 | `!p` wins over `!` then drop `p1` |
//! | `xo` | explode once | write `x(o)` to explode on odd |
//! | `p` | drop lowest (like `pl`) | Avrae's `p1` (drop ones) would clash with `d1` |
//! | `df` after dice / `4df` | deduct failures / Fate dice | position decides |
//! | `t8`, `f1` | at least 8 counts, at most 1 subtracts | Dice Maiden |
//! | `d(2d6)` | a die with (2d6) faces | custom faces only with `d{...}` |
//! | `4d6 kh3` | error with a hint | a label that is only modifiers is a typo |
//! | keep after count (`4d6cs>=4kh3`) | keeps, the count stays | counts are taken when written |
//!
//! # Errors
//!
//! Every [`Error`] carries its [`Error::reason`]: a [`ReasonId`] with a
//! stable id (`too-many-dice`, [`Reason::id`]) and named arguments
//! ([`Reason::args`]): [`ReasonArg::Integer`] for counts and limits,
//! [`ReasonArg::Text`] for what the user wrote, a [`Phrase`] (what made
//! odds too complex), a list of [`Choice`]s (what the parser expected), or
//! a nested [`Reason`] (`macro $x is invalid: …`). The English
//! [`Error::message`] is rendered from it by one table of templates
//! ([`ReasonId::english`], whose `{name}`s are [`ReasonId::params`]);
//! [`ReasonId::ALL`] and [`Phrase::ALL`] list every id, for checking a
//! translation covers them.
//!
//! ```
//! use dice_core::{Choice, Phrase, ReasonArg, ReasonId};
//!
//! let error = dice_core::parse("1d20 +").unwrap_err();
//! assert_eq!(error.reason().form(), ReasonId::ExpectedAtEnd);
//! assert_eq!(
//!     error.reason().arg("expected"),
//!     Some(&ReasonArg::Choices(vec![Choice::Phrase(Phrase::ExpectedAValue)]))
//! );
//! assert_eq!(
//!     error.message(),
//!     "expected a value (a number, dice, `(`, `{` or a function) at the end"
//! );
//! assert_eq!(ReasonId::TooManyDice.params(), ["max"]);
//! ```
//!
//! # Results
//!
//! A [`Roll`] has the [total](Roll::total), the [dice](Roll::dice) with their
//! story, and renders to markdown (`4d6kh3 (**6**, 5, 3, ~~__1__~~) = **14**`:
//! highest faces bold, lowest underlined, dropped struck, `!` explosions,
//! `~~1~~→4` rerolls, `✓`/`✗` counts, `…` capped) or plain text, shortened
//! gracefully to a budget while keeping the total. It serializes (serde) to
//! `{"total", "breakdown", "markdown", "label", "source", "dice"}`.
//!
//! For statistics, [`Expr::totals`] rolls again and again without building a
//! story for each roll, and [`ExprCache`] keeps parsed expressions.
//!
//! # Exact odds
//!
//! [`Expr::odds`] computes the exact distribution of the total as reduced
//! fractions ([`Odds`]), with the roller's semantics: sums by convolution,
//! keep and drop by order statistics with binomial counts (`20d6kh10` in
//! about 20 microseconds), counts per die, `ro` once and `rr` as the exact
//! conditional, random counts, sides, faces and modifier arguments drawn once
//! per term. Explosions are followed until the neglected probability of the
//! whole pool is below 1e-12 (or to the roller's cap); what is cut is
//! [`Odds::tail`]. Anything needing more than [`Limits::max_odds_work`] steps
//! or [`Limits::max_odds_memory`] bytes is a quick [`ErrorKind::TooComplex`]
//! error naming what made it so.
//!
//! ```
//! let odds = dice_core::parse("4d6kh3").unwrap().odds(&dice_core::Limits::default()).unwrap();
//! assert_eq!(odds.mean().to_string(), "15869/1296");
//! assert_eq!(odds.probability(18).to_string(), "7/432");
//! assert_eq!(odds.percentile(50.0), 12);
//! ```

mod ast;
mod cache;
mod error;
mod eval;
mod expr;
mod fast;
mod limits;
mod odds;
mod parser;
mod reason;
mod render;
mod resolve;
mod roll;

pub use cache::ExprCache;
pub use error::{Error, ErrorKind};
pub use expr::{Expr, Totals};
pub use limits::Limits;
pub use num_rational::BigRational;
pub use odds::{Odds, to_f64};
pub use reason::{Choice, Phrase, Reason, ReasonArg, ReasonId};
pub use resolve::Resolver;
pub use roll::{Die, Roll};

/// Parses `input` under [`Limits::default()`].
pub fn parse(input: &str) -> Result<Expr, Error> {
    parse_with(input, &Limits::default())
}

/// Parses `input` under `limits` (length and nesting depth).
pub fn parse_with(input: &str, limits: &Limits) -> Result<Expr, Error> {
    let parsed = parser::parse(input, limits, limits.max_input_len)?;
    Ok(Expr::from_parsed(input.to_string(), parsed))
}
