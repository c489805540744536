//! `/coin`: every flip is counted before the answer; "Flip again" flips again.

use tavern::core::RequestKind;

use crate::harness::{Harness, command};

#[tokio::test]
async fn flips_are_counted_and_flip_again_flips() {
    let mut harness = Harness::new().await;
    let first = harness.alice(command("coin", &[], &[])).await;
    assert!(
        first.all_text().contains("Flips here: 1 ("),
        "{}",
        first.all_text()
    );
    let again = first.button("Flip again").expect("a Flip again button");
    let pressed = RequestKind::Button {
        custom_id: again,
        message_id: 1,
    };
    let second = harness.alice(pressed).await;
    assert!(
        second.all_text().contains("Flips here: 2 ("),
        "{}",
        second.all_text()
    );
}
