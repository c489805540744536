//! `/odds` through serenity: the summary, the chart uploaded as a file, and a view
//! button that redraws the same message.

use fake_discord::{Opt, Origin};

use crate::e2e::support::{Tavern, alice, bob, button_id, no_mentions};

#[tokio::test(flavor = "multi_thread")]
async fn odds_answer_with_a_chart_and_switch_views_in_place() {
    let tavern = Tavern::start().await;
    let odds = tavern.slash(
        &alice(),
        "odds",
        vec![Opt::string("expr", "1d20+5"), Opt::string("target", "15")],
    );
    let callback = tavern.callback(odds).await;
    assert!(matches!(callback.kind, 4 | 5), "{callback:?}");
    assert_eq!(callback.data["allowed_mentions"], no_mentions());

    let answer = tavern.answer(odds).await;
    assert_eq!(answer.origin, Origin::InteractionResponse);
    assert!(!answer.is_ephemeral());
    assert!(
        answer.content.contains("1d20+5 ≥ 15: 55.00 %"),
        "{}",
        answer.content
    );
    assert_eq!(answer.attachments.len(), 1, "{answer:?}");
    let chart = &answer.attachments[0];
    assert_eq!(chart.filename, "odds.png");
    assert!(chart.size > 1_000, "a real PNG: {chart:?}");
    assert_eq!(answer.custom_ids().len(), 3, "three views");

    // Anyone at the table may switch the view; the message is redrawn, not repeated.
    let at_least = button_id(&answer, "at least");
    let press = tavern.press(&bob(), &answer, &at_least);
    let pressed = tavern.callback(press).await;
    assert!(matches!(pressed.kind, 6 | 7), "{pressed:?}");
    let redrawn = tavern
        .fake
        .wait_message(|message| message.id == answer.id && message.edits > 0)
        .await
        .expect("the chart is redrawn in place");
    assert_eq!(redrawn.attachments.len(), 1, "{redrawn:?}");
    assert_eq!(redrawn.attachments[0].filename, "odds.png");
    assert_ne!(redrawn.attachments[0].id, chart.id, "a new chart");
    assert!(
        redrawn.content.contains("1d20+5 ≥ 15: 55.00 %"),
        "{}",
        redrawn.content
    );
    tavern.fake.assert_no_violations();
    tavern.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn odds_too_complex_are_refused_privately() {
    let tavern = Tavern::start().await;
    let odds = tavern.slash(
        &alice(),
        "odds",
        vec![Opt::string("expr", "1000d1000kh500")],
    );
    let answer = tavern.answer(odds).await;
    assert!(answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer.content.contains("too complex to compute exactly"),
        "{}",
        answer.content
    );
    assert!(answer.attachments.is_empty());
    tavern.stop().await;
}
