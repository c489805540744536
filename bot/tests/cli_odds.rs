//! `tavern odds`, run as a user runs it: summary, JSON, chart file, exit codes.

use crate::cli::{stderr, stdout, tavern};

#[test]
fn json_has_the_exact_distribution() {
    let output = tavern(&["odds", "--json", "2d6"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["dist"]["2"], "1/36");
    assert_eq!(value["dist"]["7"], "1/6");
    assert_eq!(value["dist"].as_object().unwrap().len(), 11);
    assert_eq!(value["mean"], 7.0);
    assert!((value["sd"].as_f64().unwrap() - (35.0f64 / 6.0).sqrt()).abs() < 1e-9);
    assert!(value.get("tail").is_none(), "no explosions, no tail");
    // The outcomes come in increasing order, not sorted as strings.
    assert!(
        stdout(&output).starts_with(r#"{"dist":{"2":"1/36","3":"1/18","4":"1/12","#),
        "{}",
        stdout(&output)
    );
    assert!(stdout(&output).contains(r#""9":"1/9","10":"1/12","#));
    // Explosions are cut deep, and the cut mass is reported.
    let output = tavern(&["odds", "--json", "1d6!"], "");
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let tail = value["tail"].as_str().unwrap();
    let (num, den) = tail.split_once('/').unwrap();
    assert!(num.parse::<f64>().unwrap() / den.parse::<f64>().unwrap() < 1e-12);
}

#[test]
fn text_shows_the_summary_and_a_histogram() {
    let output = tavern(&["odds", "1d4"], "");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.starts_with("1d4: mean 2.50 (exactly 5/2), sd 1.12, range 1 to 4\n"),
        "{text}"
    );
    assert_eq!(text.matches("25.00 %").count(), 4, "{text}");
    assert!(text.contains('█'));
    let german = tavern(&["odds", "1d4", "--lang", "de"], "");
    let text = stdout(&german);
    assert!(
        text.starts_with(
            "1d4: Mittelwert 2,50 (exakt 5/2), Standardabweichung 1,12, Bereich 1 bis 4\n"
        ),
        "{text}"
    );
    assert_eq!(text.matches("25,00 %").count(), 4, "{text}");
}

#[test]
fn errors_exit_2() {
    let output = tavern(&["odds", "--json", "1d6/(1d2-1)"], "");
    assert_eq!(output.status.code(), Some(2));
    // The same error object as `tavern roll --json`: the place of the error too.
    assert_eq!(
        stdout(&output),
        "{\"error\":{\"end\":11,\"kind\":\"division_by_zero\",\"message\":\"division by zero\",\"start\":4}}\n"
    );
    let output = tavern(&["odds", "--json", "1d0"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stdout(&output).contains("\"start\":2"),
        "{}",
        stdout(&output)
    );
    let output = tavern(&["odds", "1000d1000kh500"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("too complex to compute exactly"));
}

#[test]
fn chart_is_a_png_file() {
    let dir = std::env::temp_dir().join(format!("tavern-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("chart.png");
    let output = tavern(&["odds", "--chart", path.to_str().unwrap(), "3d6"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn options_may_follow_the_expression() {
    let dir = std::env::temp_dir().join(format!("tavern-odds-after-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("x.png");
    let output = tavern(&["odds", "4d6kh3", "--chart", path.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(&std::fs::read(&path).unwrap()[..4], b"\x89PNG");
    assert!(
        stdout(&output).starts_with("4d6kh3: mean"),
        "{}",
        stdout(&output)
    );
    let json = tavern(&["odds", "2d6", "--json"], "");
    assert!(
        stdout(&json).starts_with(r#"{"dist":"#),
        "{}",
        stdout(&json)
    );
    // An unknown option there is clap's error, naming it.
    let wrong = tavern(&["odds", "2d6", "--chrat", "x.png"], "");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("--chrat"), "{}", stderr(&wrong));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_long_exact_mean_is_left_to_json() {
    let short = tavern(&["odds", "4d6kh3"], "");
    assert!(
        stdout(&short).starts_with("4d6kh3: mean 12.24 (exactly 15869/1296), sd"),
        "{}",
        stdout(&short)
    );
    let long = tavern(&["odds", "1d6!"], "");
    let first = stdout(&long).lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("1d6!: mean 4.20, sd"), "{first}");
}

/// `tavern odds` reads a line as `/roll` does: `adv`/`dis` and `;`.
#[test]
fn advantage_and_several_rolls_as_roll_reads_them() {
    // The higher of two d20s: 25 unless both miss 20, 1 - (19/20)² = 39/400; 6 only
    // when both show 1.
    let output = tavern(&["odds", "--json", "1d20+5", "adv"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["dist"]["25"], "39/400");
    assert_eq!(value["dist"]["6"], "1/400");
    let text = tavern(&["odds", "1d20+5 dis", "--target", "15"], "");
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    assert!(
        stdout(&text).contains("1d20+5 dis ≥ 15: 30.25 %"),
        "{}",
        stdout(&text)
    );
    let several = tavern(&["odds", "--json", "1d4; 1d20 adv"], "");
    assert_eq!(several.status.code(), Some(0), "{}", stderr(&several));
    let value: serde_json::Value = serde_json::from_str(&stdout(&several)).unwrap();
    let rolls = value.as_array().expect("an array, one object a roll");
    assert_eq!(rolls.len(), 2);
    assert_eq!(rolls[0]["expr"], "1d4");
    assert_eq!(rolls[0]["dist"]["1"], "1/4");
    assert_eq!(rolls[1]["expr"], "1d20 adv");
    assert_eq!(rolls[1]["dist"]["20"], "39/400");
    let text = stdout(&tavern(&["odds", "1d4; 2d6"], ""));
    assert!(text.contains("1d4: mean 2.50"), "{text}");
    assert!(text.contains("2d6: mean 7.00"), "{text}");
    // What /roll refuses, odds refuse, with exit status 2.
    let refused = tavern(&["odds", "3d6 adv"], "");
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("one d20"), "{}", stderr(&refused));
}

/// The exact fractions the README promises: the mean, the variance and the target's
/// chance beside their floats, worked out by hand for 3d6 (mean 21/2, variance
/// 3 · 35/12 = 35/4; at least 15 in 20 of 216 ways, at most 5 in 10).
#[test]
fn json_has_exact_fractions_of_the_mean_the_variance_and_the_chance() {
    let output = tavern(&["odds", "--json", "3d6", "--target", "15"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["mean"], 10.5);
    assert_eq!(value["mean_exact"], "21/2");
    assert_eq!(value["variance"], 8.75);
    assert_eq!(value["variance_exact"], "35/4");
    assert_eq!(value["target"]["at_least"], 15);
    assert_eq!(value["target"]["chance_exact"], "5/54");
    assert!((value["target"]["chance"].as_f64().unwrap() - 20.0 / 216.0).abs() < 1e-12);
    let under = tavern(&["odds", "--json", "--target", "<=5", "3d6"], "");
    let value: serde_json::Value = serde_json::from_str(&stdout(&under)).unwrap();
    assert_eq!(value["target"]["at_most"], 5);
    assert_eq!(value["target"]["chance_exact"], "5/108");
    let text = stdout(&tavern(&["odds", "3d6", "--target", "<=5"], ""));
    assert!(text.contains("3d6 ≤ 5: 4.63 %"), "{text}");
    let wrong = tavern(&["odds", "3d6", "--target", "five"], "");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("five"), "{}", stderr(&wrong));
}

/// `6 4d6` (Dice Maiden's repeat) is six rolls of 4d6: the odds are those of each.
#[test]
fn a_count_before_dice_gives_the_odds_of_each_roll() {
    let output = tavern(&["odds", "6 4d6"], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("4d6: mean 14.00 (exactly 14)"),
        "{}",
        stdout(&output)
    );
}

/// A label or comment is not part of the odds: the summary names the expression,
/// as `/odds` does (a Dice Maiden `!` comment shows no `#` it never typed).
#[test]
fn labels_and_comments_stay_out_of_the_summary() {
    for (line, starts) in [
        ("1d20 ! sneak", "1d20: mean 10.50"),
        ("1d20+5 to hit", "1d20+5: mean 15.50"),
        ("1d20+5 # to hit 2d6", "1d20+5: mean 15.50"),
        ("1d20+5 to hit adv", "1d20+5 adv: mean 18.82"),
    ] {
        let output = tavern(&["odds", line], "");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            stdout(&output).starts_with(starts),
            "{line}: {}",
            stdout(&output)
        );
    }
}
