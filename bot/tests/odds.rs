//! `/odds` in the core: summary, chart attachment with alt text, view buttons
//! that redraw the same message, long expressions, macros, errors.

use tavern::chart::Target;
use tavern::core::odds::{OddsId, OddsView};
use tavern::core::{OptionValue, Reply, RequestKind};

use crate::harness::{Harness, command, text};

fn odds(options: &[(&str, OptionValue)]) -> RequestKind {
    command("odds", &[], options)
}

#[tokio::test]
async fn odds_answer_with_a_summary_a_chart_and_view_buttons() {
    let mut harness = Harness::new().await;
    let sent = harness
        .alice(odds(&[
            ("expr", text("1d20+5")),
            ("target", OptionValue::Integer(15)),
        ]))
        .await;
    let message = sent.interaction();
    assert!(
        message
            .content
            .starts_with("1d20+5: mean 15.50 (exactly 31/2), sd 5.77, range 6 to 25\n"),
        "{}",
        message.content
    );
    assert!(
        message.content.contains("1d20+5 ≥ 15: 55.00 %"),
        "{}",
        message.content
    );
    let chart = &message.attachments[0];
    assert_eq!(chart.filename, "odds.png");
    assert_eq!(&chart.bytes[..4], b"\x89PNG");
    let alt = chart.description.as_deref().unwrap_or("");
    assert!(alt.contains("exactly each total from 6 to 25"), "{alt}");
    assert!(
        message
            .text_view
            .as_deref()
            .unwrap_or("")
            .contains("5.00 %")
    );
    // The shown view is disabled; the others switch.
    assert!(sent.button("exactly").is_some());
    let at_least = sent.button("at least").expect("an 'at least' button");
    assert_eq!(
        OddsId::decode(&at_least),
        Some(OddsId::Inline(OddsView {
            expr: "1d20+5".to_owned(),
            target: Some(Target::AtLeast(15)),
            view: "ge".to_owned(),
        }))
    );
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: at_least,
            message_id: 77,
        })
        .await;
    let [
        Reply::Edit {
            message_id,
            message,
            ..
        },
    ] = pressed.replies.as_slice()
    else {
        panic!("one edit expected: {:#?}", pressed.replies);
    };
    assert_eq!(*message_id, 77);
    assert!(
        message.attachments[0]
            .description
            .as_deref()
            .unwrap_or("")
            .contains("at least")
    );
    assert!(
        message
            .text_view
            .as_deref()
            .unwrap_or("")
            .contains("100.00 %")
    );
}

#[tokio::test]
async fn long_expressions_keep_their_buttons_in_the_database() {
    let mut harness = Harness::new().await;
    let expr = format!("1d6{}", "+1".repeat(60));
    let sent = harness.alice(odds(&[("expr", text(&expr))])).await;
    let at_most = sent.button("at most").expect("an 'at most' button");
    assert!(at_most.len() <= 100);
    assert!(matches!(
        OddsId::decode(&at_most),
        Some(OddsId::Stored { .. })
    ));
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: at_most,
            message_id: 5,
        })
        .await;
    assert!(
        pressed.all_text().contains("range 61 to 66"),
        "{}",
        pressed.all_text()
    );
}

#[tokio::test]
async fn odds_explain_what_they_cannot_compute() {
    let mut harness = Harness::new().await;
    let cases = [
        ("1000d1000kh500", "too complex to compute exactly"),
        ("1d6/(1d2-1)", "division by zero"),
        ("2d6+", "I can't roll that"),
    ];
    for (expr, expected) in cases {
        let sent = harness.alice(odds(&[("expr", text(expr))])).await;
        let message = sent.interaction();
        assert!(message.ephemeral, "{expr}");
        assert!(
            message.content.contains(expected),
            "{expr}: {}",
            message.content
        );
    }
}

/// A PNG's width and its RGB bytes.
fn decoded(png_bytes: &[u8]) -> (usize, Vec<u8>) {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("one frame");
    buffer.truncate(info.buffer_size());
    (info.width as usize, buffer)
}

/// The pixels of a PNG in one colour.
fn pixels_of(png_bytes: &[u8], colour: [u8; 3]) -> usize {
    let (_, pixels) = decoded(png_bytes);
    pixels.chunks(3).filter(|pixel| *pixel == colour).count()
}

#[test]
fn the_chart_marks_the_target_and_the_mean() {
    use tavern::chart::{View, png};
    let limits = dice_core::Limits::default();
    let odds = dice_core::parse_with("3d6", &limits)
        .and_then(|expr| expr.odds(&limits))
        .unwrap();
    let plain = png(tavern::i18n::Lang::En, "3d6", &odds, View::Exactly, None).unwrap();
    let marked = png(
        tavern::i18n::Lang::En,
        "3d6",
        &odds,
        View::Exactly,
        Some(Target::AtLeast(15)),
    )
    .unwrap();
    assert_ne!(plain, marked, "the target changes the picture");
    // The bars that reach the target, its line and its chance are shaded apart.
    let reaching = [220, 120, 40];
    assert_eq!(pixels_of(&plain, reaching), 0);
    assert!(pixels_of(&marked, reaching) > 1_000);
    // The mean's dashed line is drawn in black on both.
    assert!(pixels_of(&plain, [0, 0, 0]) > 0);
}

#[tokio::test]
async fn a_long_exact_mean_is_behind_a_button_that_answers_privately() {
    let mut harness = Harness::new().await;
    // A short fraction is in the summary, and no button is offered for it.
    let short = harness.alice(odds(&[("expr", text("3d6"))])).await;
    assert!(short.button("Exact fractions").is_none());

    let sent = harness
        .alice(odds(&[
            ("expr", text("6d7kh2")),
            ("target", OptionValue::Integer(12)),
        ]))
        .await;
    let summary = &sent.interaction().content;
    assert!(
        summary.starts_with("6d7kh2: mean 11.93, sd 1.78, range 2 to 14\n"),
        "{summary}"
    );
    let exact = sent
        .button("Exact fractions")
        .expect("an 'Exact fractions' button");
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: exact,
            message_id: 9,
        })
        .await;
    let [Reply::Interaction(message)] = pressed.replies.as_slice() else {
        panic!("one private answer expected: {:#?}", pressed.replies);
    };
    assert!(message.ephemeral);
    // 6d7kh2 over 7^6 = 117649 outcomes: the mean's denominator divides it.
    let content = &message.content;
    let mean_line = content
        .lines()
        .find(|line| line.starts_with("mean = "))
        .unwrap_or_else(|| panic!("a mean line: {content}"));
    let (numerator, denominator) = mean_line["mean = ".len()..]
        .split_once('/')
        .unwrap_or_else(|| panic!("a fraction: {mean_line}"));
    let (numerator, denominator): (f64, u64) =
        (numerator.parse().unwrap(), denominator.parse().unwrap());
    assert_eq!(117_649 % denominator, 0, "{mean_line}");
    assert!((numerator / denominator as f64 - 11.928_091).abs() < 1e-6);
    assert!(content.contains("variance = "), "{content}");
    assert!(content.contains("P(6d7kh2 ≥ 12) = "), "{content}");
}

/// The chance line of `/odds expr target:15`, checked against figures worked out by
/// hand: with advantage 1d20+5 misses 15 only when both d20s show 9 or less,
/// `1 - (9/20)²`; with disadvantage it reaches it only when both show 10 or more,
/// `(11/20)²`.
#[tokio::test]
async fn odds_take_advantage_as_roll_does() {
    let mut harness = Harness::new().await;
    let cases = [
        ("1d20+5 adv", "1d20+5 adv ≥ 15: 79.75 %"),
        ("1d20+5 dis", "1d20+5 dis ≥ 15: 30.25 %"),
        ("1d20+5 advantage", "1d20+5 advantage ≥ 15: 79.75 %"),
        ("1d20+5 Vorteil", "1d20+5 Vorteil ≥ 15: 79.75 %"),
        ("1d20+5 nachteil", "1d20+5 nachteil ≥ 15: 30.25 %"),
        ("1d20+5 adv to hit", "1d20+5 adv ≥ 15: 79.75 %"),
        ("1d20+5 # dis", "1d20+5 dis ≥ 15: 30.25 %"),
    ];
    for (expr, chance) in cases {
        let sent = harness
            .alice(odds(&[
                ("expr", text(expr)),
                ("target", OptionValue::Integer(15)),
            ]))
            .await;
        let content = &sent.interaction().content;
        assert!(content.contains(chance), "{expr}: {content}");
    }
    // The mean of the higher of two d20s is 20 - Σ j² / 400 (j from 0 to 19) = 13.825.
    let sent = harness.alice(odds(&[("expr", text("1d20+5 adv"))])).await;
    let content = &sent.interaction().content;
    assert!(content.starts_with("1d20+5 adv: mean 18.8"), "{content}");
    assert!(content.contains("(exactly 753/40)"), "{content}");
    // The view buttons keep the advantage.
    let at_least = sent.button("at least").expect("an 'at least' button");
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: at_least,
            message_id: 3,
        })
        .await;
    assert!(
        pressed.all_text().contains("753/40"),
        "{}",
        pressed.all_text()
    );
    // As /roll, advantage needs one d20.
    let refused = harness.alice(odds(&[("expr", text("3d6 adv"))])).await;
    let message = refused.interaction();
    assert!(message.ephemeral);
    assert!(message.content.contains("one d20"), "{}", message.content);
}

#[tokio::test]
async fn semicolons_give_a_distribution_per_roll() {
    let mut harness = Harness::new().await;
    let sent = harness
        .alice(odds(&[
            ("expr", text("1d20+5; 2d6 fire; 1d20 adv")),
            ("target", OptionValue::Integer(12)),
        ]))
        .await;
    let message = sent.interaction();
    let content = &message.content;
    for line in [
        "1d20+5: mean 15.50 (exactly 31/2), sd 5.77, range 6 to 25",
        // 1d20+5 ≥ 12: a d20 of 7 or more, 14/20.
        "1d20+5 ≥ 12: 70.00 %",
        // A label is left out, as a single roll's.
        "2d6: mean 7.00 (exactly 7), sd 2.42, range 2 to 12",
        "2d6 ≥ 12: 2.78 %",
        // The higher of two d20s reaches 12 unless both show 11 or less: 1 - (11/20)².
        "1d20 adv ≥ 12: 69.75 %",
    ] {
        assert!(content.contains(line), "{line}: {content}");
    }
    assert_eq!(message.attachments.len(), 3, "a chart per roll");
    assert!(
        message
            .attachments
            .iter()
            .all(|chart| chart.bytes.starts_with(b"\x89PNG"))
    );
    let names: std::collections::BTreeSet<&str> = message
        .attachments
        .iter()
        .map(|chart| chart.filename.as_str())
        .collect();
    assert_eq!(names.len(), 3, "distinct file names: {names:?}");
    let histograms = message.text_view.as_deref().unwrap_or("");
    assert!(histograms.contains("1d20 adv"), "{histograms}");
    // The exact fractions answer for every roll.
    let sent = harness
        .alice(odds(&[
            ("expr", text("1d6!; 2d6")),
            ("target", text("<=3")),
        ]))
        .await;
    let exact = sent
        .button("Exact fractions")
        .expect("an 'Exact fractions' button");
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: exact,
            message_id: 8,
        })
        .await;
    let fractions = pressed.all_text();
    assert_eq!(fractions.matches("mean = ").count(), 2, "{fractions}");
    // 2d6 at most 3: 1 + 2 of 36 ways.
    assert!(fractions.contains("P(2d6 ≤ 3) = 1/12"), "{fractions}");
    // As many rolls as /roll takes, and no more.
    let refused = harness
        .alice(odds(&[("expr", text("1; 2; 3; 4; 5"))]))
        .await;
    assert!(
        refused.interaction().content.contains("At most 4"),
        "{}",
        refused.interaction().content
    );
}

#[tokio::test]
async fn odds_read_macros_and_fields_in_every_roll() {
    use crate::harness::ALICE;
    let mut harness = Harness::new().await;
    let saved = harness
        .alice(command(
            "macro",
            &["set"],
            &[("name", text("atk")), ("expr", text("1d20+5"))],
        ))
        .await;
    assert!(saved.all_text().contains("atk"), "{}", saved.all_text());
    harness
        .storage
        .finish_session(
            None,
            &[crate::fields::character(
                1,
                ALICE,
                "Udo",
                &[("NAME", "Udo"), ("STR", "17")],
            )],
        )
        .await
        .unwrap();
    harness
        .alice(command("character", &["use"], &[("name", text("Udo"))]))
        .await;
    let sent = harness
        .alice(odds(&[
            ("expr", text("$atk; 1d20+@STR_MOD adv")),
            ("target", OptionValue::Integer(15)),
        ]))
        .await;
    let content = &sent.interaction().content;
    // The macro stands for 1d20+5; STR 17 gives +2, and with advantage 1d20+2 reaches
    // 15 unless both d20s show 12 or less: 1 - (12/20)² = 64 %.
    assert!(content.contains("≥ 15: 55.00 %"), "{content}");
    assert!(
        content.contains("1d20+@STR_MOD adv ≥ 15: 64.00 %"),
        "{content}"
    );
}

/// `/roll 6 4d6` rolls 4d6 six times (Dice Maiden's habit): `/odds` takes the line
/// too and answers the odds of each roll.
#[tokio::test]
async fn a_count_before_dice_gives_the_odds_of_each_roll() {
    let mut harness = Harness::new().await;
    let sent = harness.alice(odds(&[("expr", text("6 4d6"))])).await;
    let content = &sent.interaction().content;
    assert!(
        content.starts_with("4d6: mean 14.00 (exactly 14)"),
        "{content}"
    );
}

#[tokio::test]
async fn roll_under_targets_count_at_most() {
    let mut harness = Harness::new().await;
    // 3d6 at most 5: 1 + 3 + 6 of 216 ways.
    let sent = harness
        .alice(odds(&[("expr", text("3d6")), ("target", text("<=5"))]))
        .await;
    let content = &sent.interaction().content;
    assert!(content.contains("3d6 ≤ 5: 4.63 %"), "{content}");
    let at_most = sent.button("at most").expect("an 'at most' button");
    assert_eq!(
        OddsId::decode(&at_most),
        Some(OddsId::Inline(OddsView {
            expr: "3d6".to_owned(),
            target: Some(Target::AtMost(5)),
            view: "le".to_owned(),
        }))
    );
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: at_most,
            message_id: 4,
        })
        .await;
    assert!(
        pressed.all_text().contains("3d6 ≤ 5: 4.63 %"),
        "{}",
        pressed.all_text()
    );
    // `>=` and a bare number are "at least"; anything else is explained.
    let sent = harness
        .alice(odds(&[("expr", text("3d6")), ("target", text(">= 15"))]))
        .await;
    assert!(sent.interaction().content.contains("3d6 ≥ 15: 9.26 %"));
    let refused = harness
        .alice(odds(&[("expr", text("3d6")), ("target", text("five"))]))
        .await;
    let message = refused.interaction();
    assert!(message.ephemeral);
    assert!(
        message.content.contains("`five` is not a target"),
        "{}",
        message.content
    );
    // A long expression keeps its roll-under target in the stored row.
    let expr = format!("3d6{}", "+0".repeat(60));
    let sent = harness
        .alice(odds(&[("expr", text(&expr)), ("target", text("<=5"))]))
        .await;
    let stored = sent.button("at least").expect("an 'at least' button");
    assert!(matches!(
        OddsId::decode(&stored),
        Some(OddsId::Stored { .. })
    ));
    let pressed = harness
        .alice(RequestKind::Button {
            custom_id: stored,
            message_id: 6,
        })
        .await;
    assert!(
        pressed.all_text().contains(" ≤ 5: 4.63 %"),
        "{}",
        pressed.all_text()
    );
}

fn distribution(expr: &str) -> dice_core::Odds {
    let limits = dice_core::Limits::default();
    dice_core::parse_with(expr, &limits)
        .and_then(|expr| expr.odds(&limits))
        .unwrap()
}

/// Each view shades one side of the target's line and labels it with that side's
/// chance, which in the cumulative views is the height of the bar beside the line:
/// "at most" never shades or labels "≥", and a roll-under target shades "≤".
#[test]
fn the_chart_shades_the_side_its_label_names() {
    use tavern::chart::{View, bars, layout, percent, png};
    use tavern::i18n::Lang;
    let odds = distribution("3d6");
    // (target, view, the label, the bar that reads it in a cumulative view)
    let cases = [
        (Target::AtLeast(15), View::Exactly, "≥ 15: 9.26 %", None),
        (Target::AtLeast(15), View::AtLeast, "≥ 15: 9.26 %", Some(15)),
        (Target::AtLeast(15), View::AtMost, "≤ 14: 90.74 %", Some(14)),
        (Target::AtMost(5), View::Exactly, "≤ 5: 4.63 %", None),
        (Target::AtMost(5), View::AtMost, "≤ 5: 4.63 %", Some(5)),
        (Target::AtMost(5), View::AtLeast, "≥ 6: 95.37 %", Some(6)),
    ];
    let reaching = [220, 120, 40];
    for (target, view, label, bar) in cases {
        let drawn = layout(Lang::En, "3d6", &odds, view, Some(target)).unwrap();
        let mark = drawn.target.expect("a target mark");
        assert_eq!(mark.text, label, "{target:?} {view:?}");
        if let Some(total) = bar {
            let bar = bars(&odds, view)
                .into_iter()
                .find(|bar| bar.low == total)
                .unwrap();
            assert!(label.ends_with(&percent(bar.probability)), "{label}");
        }
        // The shaded pixels of the bars (below the labels, off the line itself)
        // all lie on the labelled side.
        let image = png(Lang::En, "3d6", &odds, view, Some(target)).unwrap();
        let below_labels = mark.label.y + 2 * mark.label.height + 20;
        let (left, right) = shaded_columns(&image, reaching, below_labels, mark.line);
        let wants_right = label.starts_with('≥');
        let (on_side, off_side) = if wants_right {
            (right, left)
        } else {
            (left, right)
        };
        assert!(on_side > 100, "{target:?} {view:?}: {on_side} shaded");
        assert_eq!(off_side, 0, "{target:?} {view:?}");
    }
}

/// Pixels of `colour` below row `from`, left and right of the line at `line` (the
/// line's own pixels left out).
fn shaded_columns(png_bytes: &[u8], colour: [u8; 3], from: i32, line: i32) -> (usize, usize) {
    let (width, pixels) = decoded(png_bytes);
    let (mut left, mut right) = (0, 0);
    for (index, pixel) in pixels.chunks(3).enumerate() {
        let (x, y) = ((index % width) as i32, (index / width) as i32);
        if pixel != colour || y < from || (x - line).abs() <= 2 {
            continue;
        }
        if x < line { left += 1 } else { right += 1 }
    }
    (left, right)
}

/// The mean's label and the target's never cover each other, stay inside the plot
/// and keep off the other line, also where the two lines are close (`d100` with
/// target 40, a success pool with target 3 half a bar from its mean of 2) or
/// fall together (3d6: mean 10.5, target 11).
#[test]
fn the_labels_of_the_mean_and_the_target_do_not_collide() {
    use tavern::chart::{View, layout};
    use tavern::i18n::Lang;
    let cases = [
        ("d100", Target::AtLeast(40)),
        ("10d10cs>=8sf1", Target::AtLeast(3)),
        ("3d6", Target::AtLeast(11)),
        ("3d6", Target::AtMost(10)),
        ("1d20", Target::AtMost(20)),
        ("1d20", Target::AtLeast(1)),
        ("2d6", Target::AtLeast(40)),
        ("4d6kh3", Target::AtLeast(13)),
    ];
    for (expr, target) in cases {
        let odds = distribution(expr);
        for lang in [Lang::En, Lang::De] {
            for view in View::ALL {
                let drawn = layout(lang, expr, &odds, view, Some(target)).unwrap();
                let what = format!("{expr} {target:?} {view:?} {lang:?}: {drawn:?}");
                let mean = drawn.mean.as_ref().expect("a mean mark");
                let marked = drawn.target.as_ref().expect("a target mark");
                assert!(!mean.label.overlaps(&marked.label), "{what}");
                assert!(drawn.plot.contains(&mean.label), "{what}");
                assert!(drawn.plot.contains(&marked.label), "{what}");
                if mean.line != marked.line {
                    assert!(!mean.label.crosses(marked.line), "{what}");
                    assert!(!marked.label.crosses(mean.line), "{what}");
                }
            }
        }
    }
}
