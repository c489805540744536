//! `tavern roll`, run as a user runs it: breakdowns, JSON, samples, exit codes.

use crate::cli::{stderr, stdout, tavern, tavern_with_env};

#[test]
fn rolls_print_the_breakdown_and_repeat_with_a_seed() {
    let first = tavern(&["roll", "--seed", "1", "4d6kh3"], "");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(stdout(&first), "4d6kh3 (6, 5, 3, ~2~) = 14\n");
    let again = tavern(&["roll", "--seed", "1", "4d6kh3"], "");
    assert_eq!(stdout(&again), stdout(&first));
    // Words after the first are part of the expression (its label here).
    let labelled = tavern(&["roll", "--seed", "1", "1d20", "+", "5", "to", "hit"], "");
    assert_eq!(stdout(&labelled), "to hit: 1d20 (20) + 5 = 25\n");
    // A leading minus is an expression, not an option.
    let negative = tavern(&["roll", "--seed", "2", "-3+1d1"], "");
    assert_eq!(
        stdout(&negative),
        "-3 + 1d1 (1) = -2\n",
        "{}",
        stderr(&negative)
    );
}

#[test]
fn json_has_the_total_the_breakdown_and_the_dice() {
    let output = tavern(&["roll", "--seed", "1", "--json", "4d6kh3 stats"], "");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1, "one object on one line: {text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["total"], 14);
    assert_eq!(value["breakdown"], "stats: 4d6kh3 (6, 5, 3, ~2~) = 14");
    assert_eq!(value["label"], "stats");
    let dice = value["dice"].as_array().unwrap();
    assert_eq!(dice.len(), 4);
    let kept: i64 = dice
        .iter()
        .filter(|die| die["kept"] == true)
        .map(|die| die["value"].as_i64().unwrap())
        .sum();
    assert_eq!(kept, 14);
    assert!(dice.iter().all(|die| die["term"] == "4d6kh3"));
}

#[test]
fn invalid_expressions_exit_2_with_the_place_of_the_error() {
    // (arguments, stdout, stderr)
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["roll", "2d6 + (3"],
            "",
            "2d6 + (3\n        ^ expected `)` or an operator at the end\n",
        ),
        (
            &["roll", "--json", "2d6+"],
            "{\"error\":{\"end\":4,\"kind\":\"syntax\",\"message\":\"expected a value (a number, \
             dice, `(`, `{` or a function) at the end\",\"start\":4}}\n",
            "",
        ),
        (&["roll", "1/0"], "", "1/0\n  ^ division by zero\n"),
        (
            &["roll", "$fireball"],
            "",
            "$fireball\n^^^^^^^^^ the macro $fireball must be resolved before rolling\n",
        ),
    ];
    for (args, out, err) in cases {
        let output = tavern(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&output), out, "{args:?}");
        assert_eq!(stderr(&output), err, "{args:?}");
    }
}

#[test]
fn samples_print_one_total_per_line() {
    let output = tavern(&["roll", "--seed", "5", "--samples", "2000", "3d6"], "");
    assert_eq!(output.status.code(), Some(0));
    let totals: Vec<i64> = stdout(&output)
        .lines()
        .map(|line| line.parse().unwrap())
        .collect();
    assert_eq!(totals.len(), 2000);
    assert!(totals.iter().all(|total| (3..=18).contains(total)));
    // 3d6 has mean 10.5 and standard deviation 2.96; the mean of 2,000 samples is
    // within 0.4 of it with overwhelming probability (and this seed is fixed).
    let mean = totals.iter().sum::<i64>() as f64 / totals.len() as f64;
    assert!((mean - 10.5).abs() < 0.4, "{mean}");
    let same = tavern(&["roll", "--seed", "5", "--samples", "2000", "3d6"], "");
    assert_eq!(stdout(&same), stdout(&output));
    let none = tavern(&["roll", "--samples", "0", "3d6"], "");
    assert_eq!(
        (none.status.code(), stdout(&none)),
        (Some(0), String::new())
    );
    // An error in the middle of the samples ends them with exit 2.
    let failing = tavern(
        &["roll", "--seed", "1", "--samples", "100", "6 / (1d2 - 1)"],
        "",
    );
    assert_eq!(failing.status.code(), Some(2));
    assert!(
        stderr(&failing).contains("division by zero"),
        "{}",
        stderr(&failing)
    );
}

#[test]
fn options_may_follow_the_expression() {
    let before = tavern(&["roll", "--seed", "5", "4d6"], "");
    let after = tavern(&["roll", "4d6", "--seed", "5"], "");
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
    assert_eq!(stdout(&after), stdout(&before));
    // A negative start is still an expression.
    let negative = tavern(&["roll", "-3+1d1", "--seed", "2"], "");
    assert_eq!(stdout(&negative), "-3 + 1d1 (1) = -2\n");
    let json = tavern(&["roll", "1d1", "--json"], "");
    assert!(stdout(&json).starts_with('{'), "{}", stdout(&json));
}

/// Variables set for one run.
type Environment<'a> = &'a [(&'a str, &'a str)];

/// Errors speak `--lang`, else the environment's language (POSIX order: `LC_ALL`,
/// `LC_MESSAGES`, `LANG`), else English; JSON stays English, for programs.
#[test]
fn errors_speak_the_language_of_lang_or_the_environment() {
    let german = "1/0\n  ^ Division durch null\n";
    let english = "1/0\n  ^ division by zero\n";
    // (arguments, environment, stderr)
    let cases: [(&[&str], Environment, &str); 6] = [
        (&["roll", "--lang", "de", "1/0"], &[], german),
        (&["roll", "1/0", "--lang", "de"], &[], german),
        (&["roll", "1/0"], &[("LANG", "de_DE.UTF-8")], german),
        (
            &["roll", "1/0"],
            &[("LC_ALL", "de_AT.UTF-8"), ("LANG", "en_US.UTF-8")],
            german,
        ),
        (
            &["roll", "--lang", "en", "1/0"],
            &[("LANG", "de_DE.UTF-8")],
            english,
        ),
        (&["roll", "1/0"], &[("LANG", "fr_FR.UTF-8")], english),
    ];
    for (args, env, err) in cases {
        let output = tavern_with_env(args, "", env);
        assert_eq!(output.status.code(), Some(2), "{args:?} {env:?}");
        assert_eq!(stderr(&output), err, "{args:?} {env:?}");
    }
    let json = tavern_with_env(&["roll", "--json", "1/0"], "", &[("LANG", "de_DE.UTF-8")]);
    assert!(stdout(&json).contains("\"message\":\"division by zero\""));
    let unknown = tavern(&["roll", "--lang", "fr", "1d6"], "");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("`fr` is not a language Tavern speaks: de or en"));
}

/// `tavern roll` reads a line as `/roll` does: `adv`/`dis` keep the better or worse of
/// two d20s, and `;` makes several rolls, one line each.
#[test]
fn advantage_and_several_rolls_as_the_bot_reads_them() {
    let output = tavern(&["roll", "--seed", "1", "1d20+5", "adv", "to", "hit"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("to hit: 2d20kh1 ("), "{text}");
    let worse = stdout(&tavern(&["roll", "--seed", "1", "1d20 nachteil"], ""));
    assert!(worse.starts_with("2d20kl1 ("), "{worse}");
    let several = tavern(&["roll", "--seed", "1", "1d20+5; 2d6"], "");
    assert_eq!(several.status.code(), Some(0), "{}", stderr(&several));
    let lines: Vec<String> = stdout(&several).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("1d20 ("), "{lines:?}");
    assert!(lines[1].starts_with("2d6 ("), "{lines:?}");
    let json = tavern(&["roll", "--seed", "1", "--json", "1d20 adv; 1d4"], "");
    let value: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let rolls = value.as_array().expect("an array, one object a roll");
    assert_eq!(rolls.len(), 2);
    assert!(
        rolls[0]["dice"]
            .as_array()
            .unwrap()
            .iter()
            .all(|die| die["term"] == "2d20kh1"),
        "{value}"
    );
    let refused = tavern(&["roll", "3d6 adv"], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("one d20"), "{}", stderr(&refused));
    let too_many = tavern(&["roll", "--json", "1;2;3;4;5"], "");
    assert_eq!(too_many.status.code(), Some(2));
    assert!(
        stdout(&too_many).contains("\"error\""),
        "{}",
        stdout(&too_many)
    );
}

/// Dice Maiden's repeat, `6 4d6`, rolls six times, as `/roll 6 4d6` does; a count
/// past the bot's `repeat` limit is refused rather than rolled as an expression.
#[test]
fn a_count_before_dice_repeats_the_roll_as_the_bot_does() {
    let output = tavern(&["roll", "--seed", "1", "6 4d6"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert!(
        lines.iter().all(|line| line.starts_with("4d6 (")),
        "{lines:?}"
    );
    let german = tavern(&["roll", "--seed", "1", "2 1W20+2 vorteil"], "");
    assert_eq!(german.status.code(), Some(0), "{}", stderr(&german));
    let lines: Vec<String> = stdout(&german).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[1].starts_with("2d20kh1 ("), "{lines:?}");
    let too_many = tavern(&["roll", "--lang", "de", "99 4d6"], "");
    assert_eq!(too_many.status.code(), Some(2));
    assert!(stderr(&too_many).contains("20"), "{}", stderr(&too_many));
}
