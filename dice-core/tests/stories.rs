//! Rolls checked against the dice they recorded, over many seeds: the total
//! must follow from the story, and the story must follow the rules.

use dice_core::{Die, Limits, Roll};

use crate::common::{for_seeds, parse, rng, roll_seeded};

fn values(dice: &[Die]) -> Vec<i64> {
    dice.iter().map(|die| die.value).collect()
}

fn kept_sum(roll: &Roll) -> i64 {
    roll.dice()
        .iter()
        .filter(|die| die.kept)
        .map(|die| die.value)
        .sum()
}

#[test]
fn plain_dice_stay_within_their_faces_and_sum_up() {
    for (input, count, sides) in [
        ("1d20", 1, 20),
        ("8d6", 8, 6),
        ("3D4", 3, 4),
        ("d%", 1, 100),
    ] {
        for_seeds(input, 50, |roll| {
            let dice = roll.dice();
            assert_eq!(dice.len(), count, "{input}");
            assert!(
                dice.iter().all(|d| (1..=sides).contains(&d.value)),
                "{input}"
            );
            assert_eq!(roll.total(), values(&dice).iter().sum::<i64>(), "{input}");
        });
    }
}

#[test]
fn fate_dice_show_minus_one_zero_or_one() {
    for_seeds("4dF", 50, |roll| {
        let dice = roll.dice();
        assert!(dice.iter().all(|d| (-1..=1).contains(&d.value)));
        assert!(
            dice.iter()
                .all(|d| d.lowest_face == -1 && d.highest_face == 1)
        );
        assert_eq!(roll.total(), kept_sum(roll));
    });
    assert_eq!(parse("4df").source(), "4df");
}

#[test]
fn keep_highest_keeps_the_highest_and_total_is_their_sum() {
    let cases: &[(&str, usize, bool)] = &[
        ("4d6kh3", 3, true),
        ("4d6k3", 3, true),
        ("4d6d1", 3, true),
        ("4d6dl1", 3, true),
        ("4d6p1", 3, true),
        ("2d20kh", 1, true),
        ("2d20kl", 1, false),
        ("5d10kl2", 2, false),
        ("4d6dh1", 3, false),
        ("4d6ph1", 3, false),
    ];
    for &(input, keep, highest) in cases {
        for_seeds(input, 60, |roll| {
            let dice = roll.dice();
            let mut sorted = values(&dice);
            sorted.sort_unstable();
            if highest {
                sorted.reverse();
            }
            let expected: i64 = sorted.iter().take(keep).sum();
            assert_eq!(roll.total(), expected, "{input}: {}", roll.to_plain(500));
            assert_eq!(dice.iter().filter(|d| d.kept).count(), keep, "{input}");
            assert_eq!(roll.total(), kept_sum(roll), "{input}");
        });
    }
}

#[test]
fn ties_keep_the_leftmost_die() {
    for_seeds("4d2kh1", 40, |roll| {
        let dice = roll.dice();
        let best = dice.iter().map(|d| d.value).max().unwrap_or(0);
        let first_best = dice.iter().position(|d| d.value == best);
        let kept = dice.iter().position(|d| d.kept);
        assert_eq!(kept, first_best);
    });
}

#[test]
fn highest_and_lowest_are_the_last_and_first_faces() {
    for_seeds("6d{6,1,3}", 30, |roll| {
        for die in roll.dice() {
            assert_eq!((die.lowest_face, die.highest_face), (6, 3));
            assert_eq!(die.highest, die.value == 3);
            assert_eq!(die.lowest, die.value == 6);
        }
    });
    for_seeds("6d{6,1,3}cs", 30, |roll| {
        let threes = roll.dice().iter().filter(|d| d.value == 3).count() as i64;
        assert_eq!(roll.total(), threes);
    });
    for_seeds("6d{6,1,3}csl", 30, |roll| {
        let sixes = roll.dice().iter().filter(|d| d.value == 6).count() as i64;
        assert_eq!(roll.total(), sixes);
    });
}

#[test]
fn custom_faces_weigh_duplicates() {
    let expr = parse("d{1,1,1,2,2,3}");
    let limits = Limits::default();
    let mut counts = [0u32; 4];
    let mut rng = rng(5);
    for _ in 0..6000 {
        let total = expr.roll(&mut rng, &limits).map(|r| r.total()).unwrap_or(0);
        counts[total as usize] += 1;
    }
    assert!(counts[1] > 2700 && counts[1] < 3300, "{counts:?}");
    assert!(counts[2] > 1750 && counts[2] < 2250, "{counts:?}");
    assert!(counts[3] > 800 && counts[3] < 1200, "{counts:?}");
}

/// What a count should give for the rolled values.
type Expected = fn(&[i64]) -> i64;

#[test]
fn counting_counts_what_matches() {
    let cases: &[(&str, Expected)] = &[
        ("10d10cs>=8", |v| {
            v.iter().filter(|&&x| x >= 8).count() as i64
        }),
        ("10d10>=8", |v| v.iter().filter(|&&x| x >= 8).count() as i64),
        ("10d10t8", |v| v.iter().filter(|&&x| x >= 8).count() as i64),
        ("10d10cs>=8sf1", |v| {
            v.iter().filter(|&&x| x >= 8).count() as i64
                - v.iter().filter(|&&x| x == 1).count() as i64
        }),
        ("10d10>=8f1", |v| {
            v.iter().filter(|&&x| x >= 8).count() as i64
                - v.iter().filter(|&&x| x <= 1).count() as i64
        }),
        ("10d10cs>=8df1", |v| {
            v.iter().filter(|&&x| x >= 8).count() as i64
                - v.iter().filter(|&&x| x == 1).count() as i64
        }),
        ("4d6cs>=4=6", |v| {
            v.iter().filter(|&&x| x >= 4).count() as i64
                + v.iter().filter(|&&x| x == 6).count() as i64
        }),
        ("4d6cs(>=4|=6)", |v| {
            v.iter().filter(|&&x| x >= 4).count() as i64
        }),
        ("6d6co", |v| {
            v.iter().filter(|&&x| x % 2 == 1).count() as i64
        }),
        ("6d6cse", |v| {
            v.iter().filter(|&&x| x % 2 == 0).count() as i64
        }),
        ("6d6c", |v| v.iter().filter(|&&x| x == 6).count() as i64),
        ("6d6cf", |v| v.iter().filter(|&&x| x == 6).count() as i64),
        ("6d6cfl", |v| v.iter().filter(|&&x| x == 1).count() as i64),
        ("6d6ss", |v| -(v.iter().filter(|&&x| x == 6).count() as i64)),
        ("6d6cs(>1&<6)", |v| {
            v.iter().filter(|&&x| x > 1 && x < 6).count() as i64
        }),
    ];
    for &(input, expected) in cases {
        for_seeds(input, 40, |roll| {
            let dice = values(&roll.dice());
            assert_eq!(
                roll.total(),
                expected(&dice),
                "{input}: {}",
                roll.to_plain(500)
            );
        });
    }
}

#[test]
fn counting_marks_successes_and_failures_on_the_dice() {
    for_seeds("10d10cs>=8sf1", 30, |roll| {
        for die in roll.dice() {
            assert_eq!(die.successes, u32::from(die.value >= 8));
            assert_eq!(die.failures, u32::from(die.value == 1));
        }
    });
}

#[test]
fn counting_after_keep_counts_only_the_kept_dice() {
    for_seeds("4d6kh3cs>=4", 60, |roll| {
        let expected = roll
            .dice()
            .iter()
            .filter(|d| d.kept && d.value >= 4)
            .count() as i64;
        assert_eq!(roll.total(), expected);
    });
}

#[test]
fn series_keep_works_on_elements() {
    for_seeds("{d6,d8,d10}kh2", 60, |roll| {
        let mut dice = values(&roll.dice());
        dice.sort_unstable();
        assert_eq!(roll.total(), dice[1] + dice[2]);
    });
    for_seeds("{d6,d8,d10}kh2cs>=5", 60, |roll| {
        let mut dice = roll.dice();
        // The element pools keep their own dice; the series keeps elements.
        dice.sort_by_key(|d| std::cmp::Reverse(d.value));
        let kept_elements = [dice[0].value, dice[1].value];
        let expected = kept_elements.iter().filter(|&&v| v >= 5).count() as i64;
        assert_eq!(roll.total(), expected, "{}", roll.to_plain(500));
    });
    for_seeds("{4d6+3d8}kh1", 20, |roll| {
        assert_eq!(roll.total(), values(&roll.dice()).iter().sum::<i64>());
    });
}

#[test]
fn explosions_add_dice_after_the_die_that_exploded() {
    for_seeds("10d6!", 80, |roll| {
        let dice = roll.dice();
        for (index, die) in dice.iter().enumerate() {
            assert_eq!(die.exploded, die.value == 6, "{}", roll.to_plain(500));
            if die.exploded {
                assert!(dice[index + 1].from_explosion);
            }
        }
        let originals = dice.iter().filter(|d| !d.from_explosion).count();
        assert_eq!(originals, 10);
        assert_eq!(roll.total(), kept_sum(roll));
    });
    for_seeds("10d6!>=5", 80, |roll| {
        let dice = roll.dice();
        let exploded = dice.iter().filter(|d| d.exploded).count();
        let added = dice.iter().filter(|d| d.from_explosion).count();
        assert_eq!(exploded, added);
        assert!(dice.iter().all(|d| d.exploded == (d.value >= 5)));
    });
    for_seeds("10d6xo", 80, |roll| {
        let dice = roll.dice();
        assert!(dice.iter().all(|d| !(d.from_explosion && d.exploded)));
        let sixes = dice
            .iter()
            .filter(|d| !d.from_explosion && d.value == 6)
            .count();
        assert_eq!(dice.len(), 10 + sixes);
    });
    for_seeds("8d10x10", 40, |roll| {
        assert!(roll.dice().iter().all(|d| d.exploded == (d.value == 10)));
    });
    for_seeds("8d20e20", 40, |roll| {
        assert!(roll.dice().iter().all(|d| d.exploded == (d.value == 20)));
    });
}

#[test]
fn compounding_folds_the_chain_into_one_die() {
    for_seeds("10d6!!", 80, |roll| {
        let dice = roll.dice();
        assert_eq!(dice.len(), 10);
        for die in &dice {
            if die.compounded.is_empty() {
                assert!(die.value < 6);
                continue;
            }
            assert_eq!(die.value, die.compounded.iter().sum::<i64>());
            let (last, chain) = die.compounded.split_last().unwrap_or((&0, &[]));
            assert!(chain.iter().all(|&part| part == 6));
            assert!(*last < 6);
        }
    });
}

#[test]
fn penetrating_dice_count_one_less() {
    for_seeds("10d6!p", 80, |roll| {
        let dice = roll.dice();
        for die in &dice {
            assert_eq!(die.penetrated, die.from_explosion);
            if die.penetrated {
                assert!((0..=5).contains(&die.value));
                assert_eq!(die.exploded, die.value == 5);
            } else {
                assert_eq!(die.exploded, die.value == 6);
            }
        }
    });
}

#[test]
fn rerolls_keep_the_discarded_values() {
    for_seeds("8d6ro1", 60, |roll| {
        for die in roll.dice() {
            assert!(die.rerolled.len() <= 1);
            assert!(die.rerolled.iter().all(|&v| v == 1));
        }
    });
    for_seeds("8d6rr<3", 60, |roll| {
        for die in roll.dice() {
            assert!(die.value >= 3);
            assert!(die.rerolled.iter().all(|&v| v < 3));
        }
    });
    // A bare `r` rerolls until the condition fails, as in Roll20.
    for_seeds("8d6r", 60, |roll| {
        for die in roll.dice() {
            assert_ne!(die.value, 1);
            assert!(die.rerolled.iter().all(|&v| v == 1));
        }
    });
    for_seeds("8d6r1r2", 60, |roll| {
        assert!(roll.dice().iter().all(|d| d.value > 2));
    });
}

#[test]
fn explosions_and_rerolls_stop_at_the_limit_and_mark_the_die() {
    let limits = Limits::default();
    let roll = crate::common::roll_seeded("1d1!", 1);
    let dice = roll.dice();
    assert_eq!(dice.len() as u32, 1 + limits.max_explosions_per_die);
    assert!(dice.last().is_some_and(|d| d.capped));
    let roll = crate::common::roll_seeded("1d6rr<7", 1);
    let dice = roll.dice();
    assert_eq!(dice.len(), 1);
    assert!(dice[0].capped);
    assert_eq!(dice[0].rerolled.len() as u32, limits.max_rerolls_per_die);
}

#[test]
fn clamps_change_values_and_remember_the_roll() {
    for_seeds("8d6min3max5", 60, |roll| {
        for die in roll.dice() {
            assert!((3..=5).contains(&die.value));
            if let Some(original) = die.clamped_from {
                assert!(!(3..=5).contains(&original));
            }
        }
    });
}

#[test]
fn dice_counts_and_sides_may_be_expressions() {
    for_seeds("(1d4)d(2+4)", 40, |roll| {
        let dice = roll.dice();
        let count = dice[0].value as usize;
        assert_eq!(dice.len(), 1 + count);
        assert!(dice[1..].iter().all(|d| d.highest_face == 6));
    });
}

#[test]
fn rolling_is_a_pure_function_of_expression_and_generator() {
    for input in [
        "4d6kh3",
        "10d6!",
        "{d6,d8,d10}kh2cs>=5",
        "8d6rr<3",
        "(1d20+3)*2-1d4",
    ] {
        let a = crate::common::roll_seeded(input, 99);
        let b = crate::common::roll_seeded(input, 99);
        assert_eq!(a.to_plain(2000), b.to_plain(2000));
        assert_eq!(a.dice(), b.dice());
    }
}

#[test]
fn avrae_reroll_and_add_adds_one_unchecked_die_per_match() {
    for (input, matches) in [
        ("10d6ra1", (|v| v == 1) as fn(i64) -> bool),
        ("10d6ra<3", |v| v < 3),
        ("10d4ra(1|4)", |v| v == 1 || v == 4),
    ] {
        for_seeds(input, 80, |roll| {
            let dice = roll.dice();
            let mut originals = 0;
            for (index, die) in dice.iter().enumerate() {
                if die.from_explosion {
                    assert!(!die.exploded, "{}", roll.to_plain(500));
                    continue;
                }
                originals += 1;
                assert_eq!(die.exploded, matches(die.value), "{}", roll.to_plain(500));
                if die.exploded {
                    assert!(dice[index + 1].from_explosion);
                }
            }
            assert_eq!(originals, 10, "{input}");
            assert_eq!(roll.total(), kept_sum(roll), "{input}");
        });
    }
}

#[test]
fn avrae_keep_and_drop_by_comparison_look_at_each_die() {
    for (input, kept) in [
        ("10d6k>3", (|v| v > 3) as fn(i64) -> bool),
        ("10d6k<=2", |v| v <= 2),
        ("10d6k=6", |v| v == 6),
        ("10d6p<3", |v| v >= 3),
        ("10d6p>=5", |v| v < 5),
        ("6d6e6k>4", |v| v > 4),
    ] {
        for_seeds(input, 50, |roll| {
            let dice = roll.dice();
            assert!(
                dice.iter().all(|d| d.kept == kept(d.value)),
                "{}",
                roll.to_plain(500)
            );
            assert_eq!(roll.total(), kept_sum(roll), "{input}");
        });
    }
    for_seeds("(1d20, 1d20)kh1", 50, |roll| {
        let best = values(&roll.dice()).into_iter().max();
        assert_eq!(Some(roll.total()), best);
    });
    for_seeds("(1d20, 1d20)kl1", 50, |roll| {
        let worst = values(&roll.dice()).into_iter().min();
        assert_eq!(Some(roll.total()), worst);
    });
}

/// What a roll shows: its total, its breakdown and its dice.
fn shown(roll: &Roll) -> (i64, String, Vec<Die>) {
    (roll.total(), roll.to_plain(usize::MAX), roll.dice())
}

/// A roll reuses the story that a dropped roll left on its thread: whatever
/// that story held (more pools, exploded and rerolled dice, custom faces),
/// the new roll shows what it shows on a thread that rolled nothing before.
#[test]
fn a_reused_story_holds_only_its_own_roll() {
    // Each small enough (two pools at most) for its story to be kept.
    let earlier = ["3d4r1 + 2d6", "10d10!", "d{1, 3, 5}", "2d20kh1 + 1"];
    for input in ["4d6kh3", "1d20+5", "8d6", "{3d6, 1d4}"] {
        for seed in 0..5 {
            let fresh = std::thread::spawn(move || shown(&roll_seeded(input, seed)))
                .join()
                .unwrap();
            for before in earlier {
                drop(roll_seeded(before, seed + 1));
                let reused = shown(&roll_seeded(input, seed));
                assert_eq!(reused, fresh, "{input} after {before}, seed {seed}");
            }
        }
    }
}
