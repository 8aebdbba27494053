//! How the invoice writes things down: money, moments, the restaurant's GSTIN and the payment
//! method. Pure functions of their input, so each is tested on its own.

use krilla::metadata::DateTime;

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

/// Paise as rupees, always with two decimals and Indian digit grouping: "₹12,34,567.89".
/// A discount gets a true minus sign ("−₹100.00"), which reads better than a hyphen in print.
pub(super) fn rupees(paise: i64) -> String {
    let sign = if paise < 0 { "\u{2212}" } else { "" };
    let paise = paise.unsigned_abs();
    format!("{sign}₹{}.{:02}", indian_grouping(paise / 100), paise % 100)
}

/// Digits grouped the Indian way: the last three together, then by twos ("12,34,567").
fn indian_grouping(n: u64) -> String {
    let digits = n.to_string();
    let Some(head_len) = digits.len().checked_sub(3).filter(|&len| len > 0) else {
        return digits;
    };
    let (head, last_three) = digits.split_at(head_len);
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 2);
    for (i, digit) in head.chars().enumerate() {
        if i > 0 && (head_len - i).is_multiple_of(2) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped.push(',');
    grouped.push_str(last_three);
    grouped
}

/// India Standard Time is UTC+5:30 all year (no daylight saving).
const IST_OFFSET_SECONDS: i64 = 5 * 3_600 + 30 * 60;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A moment in India Standard Time, as "26 Nov 2026, 8:42 PM".
pub(super) fn ist(unix: i64) -> String {
    let local = IstTime::of(unix);
    let (hour, half) = match local.hour {
        0 => (12, "AM"),
        1..=11 => (local.hour, "AM"),
        12 => (12, "PM"),
        _ => (local.hour - 12, "PM"),
    };
    format!(
        "{} {} {}, {hour}:{:02} {half}",
        local.day,
        MONTHS[local.month as usize - 1],
        local.year,
        local.minute
    )
}

/// The calendar fields of a moment in India Standard Time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct IstTime {
    year: i64,
    /// 1 to 12.
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
}

impl IstTime {
    pub(super) fn of(unix: i64) -> Self {
        let local = unix.saturating_add(IST_OFFSET_SECONDS);
        let seconds_of_day = local.rem_euclid(86_400);
        // Days since 1970-01-01 to a civil date: Howard Hinnant's algorithm, which counts in
        // 400-year eras starting on 1 March so that leap days fall at the end of a year.
        let days = local.div_euclid(86_400) + 719_468;
        let era = days.div_euclid(146_097);
        let day_of_era = days - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_from_march = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
        let month = if month_from_march < 10 {
            month_from_march + 3
        } else {
            month_from_march - 9
        };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        // Every value below is in range by construction (day 1..=31, month 1..=12, and so on).
        Self {
            year,
            month: month as u8,
            day: day as u8,
            hour: (seconds_of_day / 3_600) as u8,
            minute: (seconds_of_day % 3_600 / 60) as u8,
            second: (seconds_of_day % 60) as u8,
        }
    }

    /// The same moment for the PDF's own metadata, when the year fits it.
    pub(super) fn metadata(self) -> Option<DateTime> {
        Some(
            DateTime::new(u16::try_from(self.year).ok()?)
                .month(self.month)
                .day(self.day)
                .hour(self.hour)
                .minute(self.minute)
                .second(self.second)
                .utc_offset_hour(5)
                .utc_offset_minute(30),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rupees_are_written_from_integer_paise_with_indian_grouping() {
        assert_eq!(rupees(0), "₹0.00");
        assert_eq!(rupees(5), "₹0.05");
        assert_eq!(rupees(99), "₹0.99");
        assert_eq!(rupees(55_800), "₹558.00");
        assert_eq!(rupees(99_999), "₹999.99");
        assert_eq!(rupees(100_000), "₹1,000.00");
        assert_eq!(rupees(10_000_000), "₹1,00,000.00");
        assert_eq!(rupees(123_456_789), "₹12,34,567.89");
        assert_eq!(rupees(-10_000), "−₹100.00");
        assert_eq!(rupees(-5), "−₹0.05");
        assert_eq!(rupees(i64::MIN), "−₹92,23,37,20,36,85,47,758.08");
    }

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
