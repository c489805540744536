//! Exact totals. Dice with a single face (`d1`, `d{5}`, `3d{2,2}`) make the
//! dice part of the language testable without depending on the generator.

use crate::common::total;

#[test]
fn arithmetic_follows_the_seed() {
    let cases: &[(&str, i64)] = &[
        ("2+3", 5),
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("10-2-3", 5),
        ("7/2", 3),
        ("-7/2", -3),
        ("7/-2", -3),
        ("7%3", 1),
        ("-7%3", -1),
        ("7%-3", 1),
        ("--3", 3),
        ("-(2+3)", -5),
        ("2*-3", -6),
        ("  1 +\t2 ", 3),
        ("9223372036854775807", i64::MAX),
        ("-9223372036854775807-1", i64::MIN),
        ("(1d1+1)/2", 1),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn dice_count_and_sides() {
    let cases: &[(&str, i64)] = &[
        ("d1", 1),
        ("1d1", 1),
        ("5d1", 5),
        ("5D1", 5),
        ("0d6", 0),
        ("(2+1)d1", 3),
        ("(1d1+1)d(1)", 2),
        ("3d{4}", 12),
        ("d{1..1}", 1),
        ("2d{7,7}", 14),
        ("d{d1+4}", 5),
        ("-2d1", -2),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn series_sum_their_elements_and_ranges_expand() {
    let cases: &[(&str, i64)] = &[
        ("{}", 0),
        ("{1,2,3}", 6),
        ("{1..4}", 10),
        ("{4..1}", 0),
        ("{1..3, 10}", 16),
        ("{-2..2}", 0),
        ("{{1,2},{3}}", 6),
        ("{2*3, 4d1}", 10),
        ("{1..1+2}", 6),
        ("{}+1", 1),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn keep_and_drop() {
    let cases: &[(&str, i64)] = &[
        ("{3,1,2}kh", 3),
        ("{3,1,2}k", 3),
        ("{3,1,2}kh2", 5),
        ("{3,1,2}kl", 1),
        ("{3,1,2}kl2", 3),
        ("{3,1,2}k9", 6),
        ("{3,1,2}k0", 0),
        ("{3,1,2}k(0-1)", 0),
        ("{3,1,2}k(1+1)", 5),
        ("{4,3,2,1}ke", 6),
        ("{4,3,2,1}ko", 4),
        ("{4,3,2,1}ke1", 4),
        ("{5,3,1}ko2", 8),
        ("{d1*5+1, 2}kh", 6),
        ("{4d1+3d1}kh1", 7),
        ("{3,1,2}kh2kl1", 2),
        ("(4d1)kh3", 3),
        ("3kh1", 3),
        ("3kh0", 0),
        ("4d1d1", 3),
        ("4d1d", 3),
        ("4d1dl2", 2),
        ("4d1dh3", 1),
        ("4d1p1", 3),
        ("4d1pl1", 3),
        ("4d1ph2", 2),
        ("4d1d9", 0),
        // rpg-dice-roller's drops after a series drop elements, like `p`.
        ("{3,1,2}d", 5),
        ("{3,1,2}d1", 5),
        ("{3,1,2}dl2", 3),
        ("{3,1,2}DH", 3),
        ("{3,1,2}dh(1+1)", 1),
        ("{3,1,2}d6", 0),
        ("{3,1,2}d1kl1", 2),
        ("{4d1, 2d1}d1", 4),
        ("{4d1}d1", 0),
        ("{3,1,2}dl1s", 5),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn counting_with_filters() {
    let cases: &[(&str, i64)] = &[
        // h and l are the last and first element of the face series.
        ("3d{6}cs", 3),
        ("3d{6}csh", 3),
        ("3d{6}csl", 3),
        ("3d{2}cs>=2", 3),
        ("3d{2}cs>2", 0),
        ("3d{2}cs<>2", 0),
        ("3d{2}cs=2", 3),
        ("3d{2}cs2", 3),
        ("3d{2}cs<(1+2)", 3),
        ("3d{2}cse", 3),
        ("3d{2}cso", 0),
        // Several filters add up; parentheses count a die at most once.
        ("4d{6}cs>=4=6", 8),
        ("4d{6}cs(>=4|=6)", 4),
        ("4d{6}cs(>=4&=6)", 4),
        ("4d{5}cs(>=4&=6)", 0),
        ("4d{5}cs(>3&<6|1)", 4),
        ("4d{6}cf", 4),
        ("4d{6}ss", -4),
        ("4d{6}sf6", -4),
        ("4d{6}df6", -4),
        ("4d{6}cs>=4sf6", 0),
        // Constants count for comparisons, not for h and l.
        ("{1,2,3}cs>=2", 2),
        ("{1,2,3}csh", 0),
        ("5cs>=3", 1),
        // Nested series are counted recursively.
        ("{{1,5},{5,6}}cs>=5", 3),
        ("{4d{6}}cs>=4", 4),
        // Only what earlier modifiers kept is counted.
        ("{6,5,1,1}kh2cs>=5", 2),
        ("{6,5,1,1}kl2cs>=5", 0),
        // Success pools of other tools.
        ("6d{9}>=8", 6),
        ("6d{9}>8", 6),
        ("6d{9}<8", 0),
        ("6d{9}=9", 6),
        ("6d{9}<>9", 0),
        ("6d{9}t8", 6),
        ("6d{9}t>9", 0),
        ("6d{1}f<2", -6),
        ("6d{9}>3f=9", 0),
        ("6d{1}f1", -6),
        ("6d{9}>=8f1", 6),
        ("{9,1,9}>=8", 2),
        // After a series a success comparison counts the elements, not the
        // dice inside them (`cs` above counts the dice).
        ("{4d{6}}>=4", 1),
        ("{4d{6}}>=30", 0),
        ("{4d{6}, 2d{1}}>3", 1),
        ("{4d{6}}t24", 1),
        ("{4d{6}}>30f<25", -1),
        ("{4d{6}}f<6", 0),
        ("{{1,5},{5,6}}>=5", 2),
        ("6d{9}>=(4*2)", 6),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn sorting_changes_only_the_display() {
    for input in ["{3,1,2}s", "{3,1,2}sa", "{3,1,2}sd"] {
        assert_eq!(total(input), 6, "{input}");
    }
}

#[test]
fn functions_and_comparisons() {
    let cases: &[(&str, i64)] = &[
        ("abs(-3)", 3),
        ("abs(3)", 3),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("max(4d1, 3)", 4),
        ("min(7)", 7),
        // Inside floor, ceil and round the arithmetic is exact.
        ("floor(7/2)", 3),
        ("ceil(7/2)", 4),
        ("round(7/2)", 4),
        ("round(5/2)", 3),
        ("round(-7/2)", -4),
        ("round(7/3)", 2),
        ("floor(-7/2)", -4),
        ("ceil(-7/2)", -3),
        ("ceil(1/3 + 1/3 + 1/3)", 1),
        ("floor(7/2*2)", 7),
        ("floor(max(7/2, 1))", 3),
        ("ceil(abs(-7/2))", 4),
        ("ceil(7%4/2)", 2),
        ("floor(2 > 3/2)", 1),
        ("7/2*2", 6),
        ("1 == 1", 1),
        ("1 = 1", 1),
        ("1 != 1", 0),
        ("1 <> 2", 1),
        ("1 < 2", 1),
        ("2 > 1", 1),
        ("2 <= 2", 1),
        ("2 >= 3", 0),
        ("1 + 1 == 2", 1),
        ("(3d1) >= 3", 1),
        ("3d1 >= 3", 1),
        ("2d1 > 1d1", 1),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn a_comparison_right_after_dice_counts_the_dice_but_with_spaces_compares_the_total() {
    assert_eq!(total("3d{4}>=4"), 3);
    assert_eq!(total("3d{4} >= 4"), 1);
    assert_eq!(total("(3d{4})>=4"), 1);
    assert_eq!(total("3d{4}>=4 >= 3"), 1);
}

#[test]
fn explosions_rerolls_and_clamps_on_fixed_dice() {
    let limits = dice_core::Limits::default();
    let cap = i64::from(limits.max_explosions_per_die);
    let cases: &[(&str, i64)] = &[
        // A die that always explodes stops at the limit.
        ("1d1!", 1 + cap),
        ("1d1!!", 1 + cap),
        ("1d1x", 1 + cap),
        ("1d1e1", 1 + cap),
        ("2d1xo", 4),
        // Penetrating: each added die counts one less.
        ("1d1!p", 1),
        ("d{2}!p", 2 + cap),
        ("3d{5}!<3", 15),
        ("3d{5}!>=5", 15 * (1 + cap)),
        ("3d{5}mi6", 18),
        ("3d{5}min6", 18),
        ("3d{5}ma4", 12),
        ("3d{5}max(2*2)", 12),
        ("3d{5}mi1", 15),
        ("2d{3}r", 6),
        ("2d{3}ro3", 6),
        ("2d{3}rr3", 6),
        ("2d{3}r<3", 6),
        ("2d{3}r1r2", 6),
        ("dF*0", 0),
        // Explode first, then keep among all dice.
        ("4d1!kh3", 3),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn labels_and_tags_do_not_change_the_value() {
    let cases: &[(&str, i64, Option<&str>)] = &[
        ("2d1+5 to hit", 7, Some("to hit")),
        ("2d1+5 # to hit", 7, Some("to hit")),
        ("2d1+5#to hit", 7, Some("to hit")),
        ("2d1+6 dex save", 8, Some("dex save")),
        ("2d1 kh goblin", 2, Some("kh goblin")),
        ("2d1 damage (fire)", 2, Some("damage (fire)")),
        ("2d1 ☄ meteor", 2, Some("☄ meteor")),
        ("2d1[fire] + 1d1[cold]", 3, None),
        ("2d1 [fire] + 1d1 [cold] total", 3, Some("total")),
        ("2d1 #", 2, None),
        // Parentheses in a label do not count toward the nesting limit.
        (
            "2d1 to hit ((((((((((((((((((((((((((((((((((((((((",
            2,
            Some("to hit (((((((((((((((((((((((((((((((((((((((("),
        ),
        (
            "(2d1) x ((((((((((((((((((((((((((((((((((((((((",
            2,
            Some("x (((((((((((((((((((((((((((((((((((((((("),
        ),
    ];
    for (input, expected, label) in cases {
        let expr = crate::common::parse(input);
        assert_eq!(expr.label(), *label, "{input}");
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn avrae_keep_and_drop_by_comparison() {
    let cases: &[(&str, i64)] = &[
        ("{3,1,2}k>1", 5),
        ("{3,1,2}k<3", 3),
        ("{3,1,2}k>=2", 5),
        ("{3,1,2}k<=2", 3),
        ("{3,1,2}k=2", 2),
        ("{3,1,2}k==2", 2),
        ("{3,1,2}k>(0+1)", 5),
        ("{3,1,2}k>9", 0),
        ("{3,1,2}p>1", 1),
        ("{3,1,2}p<3", 3),
        ("{3,1,2}p>=2", 1),
        ("{3,1,2}p<=2", 3),
        ("{3,1,2}p=3", 3),
        ("4d{2}k>1", 8),
        ("4d{2}k>2", 0),
        ("4d{2}p<2", 8),
        ("4d{2}p<3", 0),
        ("4d{2}k>1kh3", 6),
        ("4d{2}kh3k>1", 6),
        ("4d{2}k>1cs2", 4),
        ("5k>3", 5),
        ("5k<3", 0),
        ("(4d1)k>0", 4),
        // Explode first, then select among all dice.
        ("2d{3}e3k>3", 0),
        ("{6,5,1,1}k>1cs>=5", 2),
        // Not glued to a comparison, `k` and `p` keep their meaning.
        ("{3,1,2}k2", 5),
        ("4d{2}k3", 6),
        ("4d{2}p1", 6),
        ("4d{2}ph1", 6),
        ("4d{2}pl1", 6),
        ("4d{2}k> 1", 1),
        ("4d{2}k >1", 1),
        ("4d{2}k>1d1", 1),
        ("4d{2}k>-1", 1),
        ("{3,1,2}k<>3", 0),
        ("{3,1,2}kh>1", 1),
        ("4d{2}d>1", 3),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn avrae_reroll_and_add_adds_one_die_per_match() {
    let limits = dice_core::Limits::default();
    let cap = i64::from(limits.max_explosions_per_die);
    let cases: &[(&str, i64)] = &[
        ("2d{5}ra5", 20),
        ("2d{5}ra<5", 10),
        ("2d{5}ra>=5", 20),
        ("2d{5}ra=5", 20),
        ("2d{5}ra(1|5)", 20),
        ("2d{5}rah", 20),
        ("2d{5}ral", 20),
        ("2d{5}rao", 20),
        ("2d{5}rae", 10),
        ("2d{5}ra1ra5", 20),
        ("2d{5}xora5", 20),
        ("2d{5}ra5kh1", 5),
        ("2d{5}ra5k>4", 20),
        ("2d{5}ra5cs", 4),
        ("d{5}ra5", 10),
        // The added die does not check again, unlike `!`.
        ("1d1ra1", 2),
        ("1d1!", 1 + cap),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}

#[test]
fn avrae_sets_keep_whole_elements() {
    let cases: &[(&str, i64)] = &[
        ("(1, 2, 3)", 6),
        ("(3, 1, 2)kh1", 3),
        ("(3, 1, 2)kl2", 3),
        ("(3,1,2)k>1", 5),
        ("(3, 1, 2)p1", 5),
        ("(3, 1, 2)ph1", 3),
        ("(3, 1, 2)p<3", 3),
        ("(3, 1, 2)cs>=2", 2),
        ("(1d1+1, 3, 2d1kl1)kh1", 3),
        ("(1d1, 1d1)kh1", 1),
        ("(4d1, 2)kl1", 2),
        ("(5,)", 5),
        ("(5,)kh1", 5),
        ("(1, 2,)", 3),
        ("( 1 , 2 )", 3),
        ("-(1, 2)", -3),
        ("(1, 2)*2", 6),
        ("2 * (1, (2, 3))kh1", 10),
        ("(1, 2)>=3", 1),
        ("(1, 2) >= 4", 0),
        ("{(1, 2), 3}kh1", 3),
        ("d{(1, 2)}", 3),
        // One expression in parentheses stays parentheses: its dice are
        // the pool.
        ("(4d1)kl1", 1),
        ("(4d1)p1", 3),
        ("(2)", 2),
        ("{3,1,2}p1", 5),
    ];
    for (input, expected) in cases {
        assert_eq!(total(input), *expected, "{input}");
    }
}
