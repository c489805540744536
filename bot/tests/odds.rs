//! `/odds` in the core: summary, chart attachment with alt text, view buttons
//! that redraw the same message, long expressions, macros, errors.

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
            target: Some(15),
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

/// The pixels of a PNG in one colour.
fn pixels_of(png_bytes: &[u8], colour: [u8; 3]) -> usize {
    let decoder = png::Decoder::new(png_bytes);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buffer).expect("one frame");
    buffer[..info.buffer_size()]
        .chunks(3)
        .filter(|pixel| *pixel == colour)
        .count()
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
        Some(15),
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
