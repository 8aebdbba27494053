//! How the invoice writes things down: money, moments, the restaurant's GSTIN and the payment
//! method. Pure functions of their input, so each is tested on its own.

use krilla::metadata::DateTime;
use time::macros::format_description;
use time::{OffsetDateTime, UtcOffset};

/// The restaurant's GSTIN line. Restaurants' real GSTINs are not recorded anywhere in Tiffin
/// yet, so this is a well-formed stand-in (Karnataka's state code, a PAN-shaped middle that
/// carries the restaurant id) and says on its face that it is one.
pub(super) fn gstin_placeholder(restaurant_id: u64) -> String {
    format!(
        "GSTIN: 29TIFFN{:04}R1Z5 (placeholder)",
        restaurant_id % 10_000
    )
}

/// How the order was paid, in words; a method this does not know yet shows as stored.
pub(super) fn payment_method(code: &str) -> &str {
    match code {
        "card" => "Card",
        "upi_collect" => "UPI",
        "cod" => "Cash on Delivery",
        "wallet" => "Wallet",
        "tiffin_money" => "Tiffin Money",
        "" => "Not paid yet",
        other => other,
    }
}

/// A moment in India Standard Time, which is UTC+5:30 all year (no daylight saving). A moment
/// outside the calendar's range (beyond year 9999) reads as the epoch rather than failing a
/// whole invoice over its date.
fn in_india(unix: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp(unix)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .to_offset(INDIA)
}

const INDIA: UtcOffset = match UtcOffset::from_hms(5, 30, 0) {
    Ok(offset) => offset,
    Err(_) => UtcOffset::UTC,
};

/// A moment in India Standard Time, as "26 Nov 2026, 8:42 PM".
pub(super) fn ist(unix: i64) -> String {
    let written = in_india(unix).format(format_description!(
        "[day padding:none] [month repr:short] [year], [hour repr:12 padding:none]:[minute] [period]"
    ));
    written.unwrap_or_default()
}

/// The same moment for the PDF's own metadata, when the year fits it.
pub(super) fn pdf_date(unix: i64) -> Option<DateTime> {
    let t = in_india(unix);
    Some(
        DateTime::new(u16::try_from(t.year()).ok()?)
            .month(u8::from(t.month()))
            .day(t.day())
            .hour(t.hour())
            .minute(t.minute())
            .second(t.second())
            .utc_offset_hour(5)
            .utc_offset_minute(30),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_india_time_on_a_twelve_hour_clock() {
        // 3:12 PM in UTC is 8:42 PM in India.
        assert_eq!(ist(1_795_705_920), "26 Nov 2026, 8:42 PM");
        assert_eq!(ist(0), "1 Jan 1970, 5:30 AM");
        // Midnight and noon in India.
        assert_eq!(ist(1_709_231_400), "1 Mar 2024, 12:00 AM");
        assert_eq!(ist(1_709_231_400 - 60), "29 Feb 2024, 11:59 PM");
        assert_eq!(
            ist(1_709_231_400 + 12 * 3_600 + 5 * 60),
            "1 Mar 2024, 12:05 PM"
        );
        // 2024 is a leap year: 366 days back from 1 March is 1 March again.
        assert_eq!(ist(1_709_231_400 - 86_400 * 366), "1 Mar 2023, 12:00 AM");
    }

    #[test]
    fn the_gstin_is_a_labelled_placeholder_carrying_the_restaurant_id() {
        assert_eq!(
            gstin_placeholder(90_042),
            "GSTIN: 29TIFFN0042R1Z5 (placeholder)"
        );
        assert_eq!(gstin_placeholder(7), "GSTIN: 29TIFFN0007R1Z5 (placeholder)");
        assert_eq!(
            gstin_placeholder(123_456_789),
            "GSTIN: 29TIFFN6789R1Z5 (placeholder)"
        );
    }
}
