//! The NPC component ids: round trips and Discord's limits.

#[test]
fn component_ids_round_trip_and_stay_within_discord_limits() {
    use tavern::core::npc::{NpcAction, NpcId};
    let actions = [
        NpcAction::Ask,
        NpcAction::AskModal,
        NpcAction::Keyword("ÉPÉE".to_owned()),
        NpcAction::Bye,
        NpcAction::Yes,
        NpcAction::No,
        NpcAction::Amount,
        NpcAction::AmountModal,
        NpcAction::Menu,
        NpcAction::TradeSelect(3),
        NpcAction::Buy,
        NpcAction::Sell,
        NpcAction::Quantity {
            sell: true,
            item: 99,
        },
        NpcAction::Quantity {
            sell: false,
            item: 0,
        },
        NpcAction::Done,
        NpcAction::Leave,
    ];
    for action in actions {
        let id = NpcId::new(i64::MAX, 1_000_000, action);
        let encoded = id.encode().expect("fits");
        assert!(encoded.chars().count() <= 100, "{encoded}");
        assert_eq!(NpcId::decode(&encoded), Some(id));
    }
    // A keyword too long for a custom id gets no button.
    let long = NpcId::new(1, 1, NpcAction::Keyword("k".repeat(100)));
    assert_eq!(long.encode(), None);
    for garbage in [
        "",
        "tv1:",
        "tv1:n",
        "tv1:ny",
        "tv1:ny:1",
        "tv1:ny:1:2:3",
        "tv1:nx:1:2:",
        "tv1:nx:1:2:b",
        "tv1:nx:1:2:é1",
        "tv1:nt:1:2:x",
        "tv1:nk:1:2",
        "tv1:zz:1:2",
        "tv1:ny:-:2",
        "tv1:ny:1:zzzzzzzzzzzzzzzz",
    ] {
        assert_eq!(NpcId::decode(garbage), None, "{garbage:?}");
    }
}
