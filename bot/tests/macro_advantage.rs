//! `/roll atk adv` where `atk` is a macro: advantage goes into the macro's one d20, or the
//! roll is refused saying what the macro holds.

use tavern::core::macro_advantage::{apply, read};
use tavern::storage::Storage;

use crate::harness::{BOB, command, text};
use crate::macros::{as_user, harness_on, roll, set};
use crate::on_both_backends;

/// What `read` finds: the macro, `adv` or `dis`, the line rolled instead.
type Read = Option<(&'static str, &'static str, &'static str)>;

#[test]
fn a_macro_name_with_adv_or_dis() {
    let cases: &[(&str, Read)] = &[
        ("atk adv", Some(("atk", "adv", "$atk"))),
        ("$atk dis", Some(("atk", "dis", "$atk"))),
        ("atk with advantage", Some(("atk", "adv", "$atk"))),
        ("atk adv sneaky", Some(("atk", "adv", "$atk sneaky"))),
        ("atk Vorteil", Some(("atk", "adv", "$atk"))),
        ("atk to hit", None),
        ("atk", None),
        ("$atk+2 adv", None),
        ("atk adv dis", None),
        ("1d20 adv", None),
    ];
    for (line, expected) in cases {
        let got = read(line);
        let got = got
            .as_ref()
            .map(|read| (read.name.as_str(), read.word, read.line.as_str()));
        assert_eq!(got, *expected, "{line}");
    }
}

#[test]
fn advantage_goes_into_the_macro_text() {
    assert_eq!(apply("atk", "1d20+5", "adv"), Ok("2d20kh1+5".to_owned()));
    assert_eq!(
        apply("atk", "1d20+5 to hit", "dis"),
        Ok("2d20kl1+5 to hit".to_owned())
    );
    let refused = apply("dmg", "2d6+3", "adv").unwrap_err();
    assert!(
        refused
            .text(tavern::i18n::Lang::En)
            .contains("`$dmg = 2d6+3` has none"),
        "{refused:?}"
    );
}

on_both_backends!(a_macro_rolls_with_advantage_or_is_refused);
async fn a_macro_rolls_with_advantage_or_is_refused(storage: Storage) {
    let mut harness = harness_on(storage);
    as_user(&mut harness, BOB, set("atk", "1d20+5 to hit", None)).await;
    as_user(&mut harness, BOB, set("dmg", "2d6+3", None)).await;
    as_user(&mut harness, BOB, set("both", "$atk + $dmg", None)).await;
    // (what is typed, how the answer starts, what it contains)
    let cases: &[(&str, &str, &str)] = &[
        ("atk adv", "`$atk adv`: ", "2d20kh1"),
        ("$atk dis", "`$atk dis`: ", "2d20kl1"),
        ("atk with advantage", "`$atk adv`: ", "2d20kh1"),
        ("$atk Nachteil", "`$atk dis`: ", "2d20kl1"),
        (
            "dmg adv",
            "`adv` and `dis` work on a roll with one d20",
            "`$dmg = 2d6+3` has none",
        ),
        (
            "both adv",
            "`adv` and `dis` work on a roll with one d20",
            "`$both = $atk + $dmg` has none",
        ),
        // Not a macro: the roll's own refusal, as before.
        (
            "nothing adv",
            "I can't roll that:",
            "There is no macro called `nothing` here",
        ),
    ];
    for (typed, starts, contains) in cases {
        let got = as_user(&mut harness, BOB, roll(typed)).await;
        assert!(got.starts_with(starts), "{typed}: {got}");
        assert!(got.contains(contains), "{typed}: {got}");
    }
    // The macro itself is unchanged.
    let plain = as_user(&mut harness, BOB, roll("atk")).await;
    assert!(
        plain.starts_with("`$atk`: ") && !plain.contains("2d20"),
        "{plain}"
    );
}

on_both_backends!(odds_take_a_macro_with_advantage_as_roll_does);
async fn odds_take_a_macro_with_advantage_as_roll_does(storage: Storage) {
    let mut harness = harness_on(storage);
    as_user(&mut harness, BOB, set("atk", "1d20+5 to hit", None)).await;
    as_user(&mut harness, BOB, set("dmg", "2d6+3", None)).await;
    // (what is typed, what the answer contains)
    let cases: &[(&str, &str)] = &[
        // 1d20+5 with advantage: mean 753/40.
        ("$atk adv", "mean 18.82 (exactly 753/40)"),
        ("atk with advantage", "mean 18.82 (exactly 753/40)"),
        ("$atk Vorteil; 2d6", "mean 7.00 (exactly 7)"),
        ("dmg adv", "`$dmg = 2d6+3` has none"),
    ];
    for (typed, contains) in cases {
        let odds = command("odds", &[], &[("expr", text(typed))]);
        let got = as_user(&mut harness, BOB, odds).await;
        assert!(got.contains(contains), "{typed}: {got}");
    }
    // Named as `/roll` names a roll with macros: what was asked, `adv` with it.
    let odds = command("odds", &[], &[("expr", text("$atk adv"))]);
    let got = as_user(&mut harness, BOB, odds).await;
    assert!(got.starts_with("`$atk adv`: mean 18.82"), "{got}");
}
