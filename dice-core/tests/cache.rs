//! The expression cache and repeated rolling.

use dice_core::{ErrorKind, ExprCache, Limits};

use crate::common::rng;

#[test]
fn the_cache_returns_the_parsed_expression_and_stays_bounded() {
    let mut cache = ExprCache::new(2);
    assert!(cache.is_empty());
    let first = cache.get_or_parse("1d20").unwrap();
    assert_eq!(first.source(), "1d20");
    assert_eq!(cache.get_or_parse("1d20").unwrap(), first);
    cache.get_or_parse("2d6").unwrap();
    // 1d20 was used last, so 2d6 goes when a third arrives.
    cache.get_or_parse("1d20").unwrap();
    cache.get_or_parse("3d8").unwrap();
    assert_eq!(cache.len(), 2);
    assert_eq!(cache.capacity(), 2);
    // Errors are returned, not cached.
    let error = cache.get_or_parse("1d20+").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Syntax);
    assert_eq!(cache.len(), 2);
    cache.clear();
    assert!(cache.is_empty());
}

#[test]
fn the_cache_parses_under_its_limits() {
    let tight = Limits {
        max_input_len: 4,
        ..Limits::default()
    };
    let mut cache = ExprCache::with_limits(8, tight);
    assert!(cache.get_or_parse("1d20").is_ok());
    assert_eq!(
        cache.get_or_parse("1d20+5").unwrap_err().kind(),
        ErrorKind::TooLong
    );
}

#[test]
fn totals_match_repeated_rolls() {
    let limits = Limits::default();
    let expr = dice_core::parse("4d6kh3 + 1d8!").unwrap();
    let mut a = rng(11);
    let from_rolls: Vec<i64> = (0..500)
        .map(|_| {
            expr.roll(&mut a, &limits)
                .map(|r| r.total())
                .unwrap_or(i64::MIN)
        })
        .collect();
    let mut b = rng(11);
    let from_totals: Vec<i64> = expr
        .totals(&mut b, &limits)
        .take(500)
        .map(|t| t.unwrap_or(i64::MIN))
        .collect();
    assert_eq!(from_rolls, from_totals);
}

#[test]
fn expressions_can_be_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<dice_core::Expr>();
    assert_send_sync::<dice_core::Roll>();
    assert_send_sync::<ExprCache>();
}
