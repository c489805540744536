//! Breakdowns: markdown for Discord, plain text, shortening, JSON.

use crate::common::{for_seeds, roll_seeded};

/// Renders with fixed dice (single-face dice need no generator).
fn plain(input: &str) -> String {
    roll_seeded(input, 1).to_plain(2_000)
}

fn markdown(input: &str) -> String {
    roll_seeded(input, 1).to_markdown(2_000)
}

#[test]
fn plain_breakdowns() {
    let cases: &[(&str, &str)] = &[
        ("4d1kh3", "4d1kh3 (1, 1, 1, ~1~) = 3"),
        ("2d1+5", "2d1 (1, 1) + 5 = 7"),
        ("(1d1+3)*2-1d1", "(1d1 (1) + 3) * 2 - 1d1 (1) = 7"),
        ("1d1+5 to hit", "to hit: 1d1 (1) + 5 = 6"),
        (
            "2d1[fire] + 1d1[cold]",
            "2d1 (1, 1) [fire] + 1d1 (1) [cold] = 3",
        ),
        ("{3,1,2}kh2", "{3, ~1~, 2}kh2 = 5"),
        ("{1..3}kl", "{1, ~2~, ~3~}kl = 1"),
        ("{d{4}, 2}kh", "{d{4} (4), ~2~}kh = 4"),
        ("3d{5}cs>=4", "3d{5}cs>=4 (5✓, 5✓, 5✓) = 3"),
        ("2d{5}cs>=4=5", "2d{5}cs>=4=5 (5✓✓, 5✓✓) = 4"),
        ("2d{1}cf1", "2d{1}cf1 (1✗, 1✗) = 2"),
        ("2d{3}ma2", "2d{3}ma2 (3→2, 3→2) = 4"),
        ("max(1d1, 3)", "max(1d1 (1), 3) = 3"),
        ("-1d1", "-1d1 (1) = -1"),
        ("5kh1", "5kh1 (5) = 5"),
        ("(2d1)kh1", "(2d1 (1, ~1~))kh1 = 1"),
        ("(1d1)d1", "(1d1 (1))d1 (1) = 1"),
        ("1 + 1 == 2", "1 + 1 == 2 = 1"),
        ("0d6", "0d6 () = 0"),
        ("{}", "{} = 0"),
        ("{3,1,2}k>1", "{3, ~1~, 2}k>1 = 5"),
        ("{3,1,2}p<3", "{3, ~1~, ~2~}p<3 = 3"),
        ("2d{5}ra5", "2d{5}ra5 (5!, 5, 5!, 5) = 20"),
        ("2d{5}k>(2+2)", "2d{5}k>(2 + 2) (5, 5) = 10"),
        ("(3, 1d1, 2)kh1", "(3, ~1d1 (1)~, ~2~)kh1 = 3"),
        ("(2d1,)", "(2d1 (1, 1),) = 2"),
        ("(1d1, (2, 3))", "(1d1 (1), (2, 3)) = 6"),
    ];
    for (input, expected) in cases {
        assert_eq!(plain(input), *expected, "{input}");
    }
}

/// A die that rerolls to the cap shows its chain, shortened to the budget.
#[test]
fn capped_rerolls_show_their_chain() {
    let limits = dice_core::Limits {
        max_rerolls_per_die: 3,
        ..dice_core::Limits::default()
    };
    let roll = crate::common::parse("2d{3}r<4")
        .roll(&mut crate::common::rng(1), &limits)
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(roll.to_plain(2_000), "2d{3}r<4 (3→3→3→3…, 3→3→3→3…) = 6");
}

#[test]
fn markdown_marks_highest_lowest_dropped_and_total() {
    let cases: &[(&str, &str)] = &[
        ("4d1kh3", "4d1kh3 (**1**, **1**, **1**, ~~**1**~~) = **3**"),
        ("2d1k>1", "2d1k>1 (~~**1**~~, ~~**1**~~) = **0**"),
        ("(1d1, 2)kh1", "(~~1d1 (**1**)~~, 2)kh1 = **2**"),
        // Seeded: the last face (1) is the highest, the first (7) the lowest.
        (
            "1d{7,1}!<2",
            "1d{7, 1}!<2 (**1**!, **1**!, **1**!, **1**!, __7__) = **11**",
        ),
        (
            "2d1*3 # big \\*hit*",
            "*big \\\\\\*hit\\**: 2d1 (**1**, **1**) \\* 3 = **6**",
        ),
        (
            "2d1 [f_i_r_e]",
            "2d1 (**1**, **1**) [f\\_i\\_r\\_e] = **2**",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(markdown(input), *expected, "{input}");
    }
}

#[test]
fn the_issue_example_shape() {
    // 4d6kh3 (6, 5, 3, ~~1~~) = **14**, with highest and lowest faces marked.
    for_seeds("4d6kh3", 200, |roll| {
        let text = roll.to_markdown(1_800);
        assert!(text.starts_with("4d6kh3 ("), "{text}");
        assert!(
            text.ends_with(&format!(") = **{}**", roll.total())),
            "{text}"
        );
        assert_eq!(text.matches("~~").count(), 2, "{text}");
        let dice = roll.dice();
        let sixes = dice.iter().filter(|d| d.value == 6).count();
        let list = text.rsplit_once(" = ").map_or("", |(list, _)| list);
        assert_eq!(list.matches("**6**").count(), sixes, "{text}");
        let ones = dice.iter().filter(|d| d.value == 1).count();
        assert_eq!(list.matches("__1__").count(), ones, "{text}");
    });
    for_seeds("5d{2,6}", 20, |roll| {
        let text = roll.to_markdown(1_800);
        let list = text.rsplit_once(" = ").map_or("", |(list, _)| list);
        let marked = list.matches("**6**").count() + list.matches("__2__").count();
        assert_eq!(marked, 5, "{text}");
    });
}

#[test]
fn explosions_and_compounding_are_shown() {
    for_seeds("6d6!", 50, |roll| {
        let text = roll.to_plain(2_000);
        let exploded = roll.dice().iter().filter(|d| d.exploded).count();
        assert_eq!(text.matches('!').count() - 1, exploded, "{text}");
    });
    for_seeds("6d6!!", 50, |roll| {
        let text = roll.to_plain(2_000);
        for die in roll.dice().iter().filter(|d| !d.compounded.is_empty()) {
            let parts: Vec<String> = die.compounded.iter().map(|p| p.to_string()).collect();
            assert!(text.contains(&parts.join("!+")), "{text}");
        }
    });
}

#[test]
fn sorting_orders_the_displayed_dice() {
    for_seeds("8d6sd", 20, |roll| {
        let text = roll.to_plain(2_000);
        let inner = text.split(['(', ')']).nth(1).unwrap_or_default();
        let shown: Vec<i64> = inner.split(", ").filter_map(|v| v.parse().ok()).collect();
        let mut sorted = shown.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(shown, sorted);
        assert_eq!(shown.len(), 8);
    });
}

#[test]
fn long_breakdowns_are_shortened_and_keep_the_total() {
    let roll = roll_seeded("1000d6 + 1000d6", 3);
    let total = roll.total().to_string();
    for budget in [2_000, 1_800, 500, 100, 40, 25] {
        for text in [roll.to_markdown(budget), roll.to_plain(budget)] {
            assert!(text.chars().count() <= budget, "{budget}: {text}");
            assert!(text.contains(&total), "{budget}: {text}");
        }
    }
    assert!(roll.to_plain(500).contains("more"));
    let long = format!("{} # a label", "1d1+".repeat(300) + "1");
    let roll = roll_seeded(&long, 1);
    let text = roll.to_plain(100);
    assert!(text.chars().count() <= 100, "{text}");
    assert!(text.starts_with("a label: 1d1"), "{text}");
    assert!(text.ends_with("… = 301"), "{text}");
    let series = roll_seeded("{1..3000}kh2", 1);
    let text = series.to_plain(200);
    assert!(text.chars().count() <= 200, "{text}");
    assert!(text.contains('…') && text.ends_with("= 5999"), "{text}");
    let long_label = format!("2d1 {}", "very long label ".repeat(100));
    let labelled = roll_seeded(&long_label, 1);
    for text in [labelled.to_plain(200), labelled.to_markdown(200)] {
        assert!(text.chars().count() <= 200, "{text}");
        assert!(text.contains("very long label"), "{text}");
        assert!(
            text.ends_with(" = 2") || text.ends_with(" = **2**"),
            "{text}"
        );
    }
    // A budget too small for anything else still gives the total.
    assert_eq!(roll.to_plain(3), "301");
}

#[test]
fn json_has_total_breakdown_and_dice() {
    let roll = roll_seeded("4d1kh3 stats", 1);
    let json = serde_json::to_value(&roll).unwrap_or_default();
    assert_eq!(json["total"], 3);
    assert_eq!(json["breakdown"], "stats: 4d1kh3 (1, 1, 1, ~1~) = 3");
    assert_eq!(json["label"], "stats");
    assert_eq!(json["source"], "4d1kh3 stats");
    let dice = json["dice"].as_array().cloned().unwrap_or_default();
    assert_eq!(dice.len(), 4);
    assert_eq!(dice[3]["kept"], false);
    assert_eq!(dice[0]["term"], "4d1kh3");
    assert_eq!(dice[0]["value"], 1);
    assert_eq!(dice[0]["highest"], true);
    assert!(dice[0]["rerolled"].as_array().is_some_and(|r| r.is_empty()));
}
