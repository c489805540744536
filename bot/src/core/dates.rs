//! Dates as answers show them: UTC, from the unix-ms times the database keeps
//! (a macro's or a program's dates, a character's creation day).

/// `YYYY-MM-DD` (UTC) of a unix-ms time.
pub(crate) fn date_of(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `2026-01-01 09:30 UTC` of a unix-ms time.
pub(crate) fn date_time(unix_ms: i64) -> String {
    let minutes = unix_ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!(
        "{} {:02}:{:02} UTC",
        date_of(unix_ms),
        minutes / 60,
        minutes % 60
    )
}
