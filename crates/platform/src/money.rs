//! Rupees as the storefront writes them, from integer paise. Money is paise everywhere; these are
//! only for text a person reads (bill labels, refusals, the invoice), so every service words an
//! amount the same way.

/// Paise as rupees in running text: Indian digit grouping, and paise only when there are some
/// ("₹5,000", "₹1,00,000", "₹12.50", "-₹40").
pub fn rupees(paise: i64) -> String {
    let sign = if paise < 0 { "-" } else { "" };
    let p = paise.unsigned_abs();
    let whole = indian_grouping(p / 100);
    match p % 100 {
        0 => format!("{sign}₹{whole}"),
        rest => format!("{sign}₹{whole}.{rest:02}"),
    }
}

/// Paise as rupees in a printed table: always two decimals, and a true minus sign, which reads
/// better than a hyphen in print ("₹12,34,567.89", "−₹100.00").
pub fn rupees_in_full(paise: i64) -> String {
    let sign = if paise < 0 { "\u{2212}" } else { "" };
    let p = paise.unsigned_abs();
    format!("{sign}₹{}.{:02}", indian_grouping(p / 100), p % 100)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_text_shows_paise_only_when_there_are_some_and_groups_the_indian_way() {
        assert_eq!(rupees(0), "₹0");
        assert_eq!(rupees(45_600), "₹456");
        assert_eq!(rupees(45_650), "₹456.50");
        assert_eq!(rupees(2_617), "₹26.17");
        assert_eq!(rupees(500_000), "₹5,000");
        assert_eq!(rupees(10_000_000), "₹1,00,000");
        assert_eq!(rupees(123_456_789), "₹12,34,567.89");
        assert_eq!(rupees(-4_000), "-₹40");
    }

    #[test]
    fn print_always_shows_two_decimals_and_a_true_minus() {
        assert_eq!(rupees_in_full(0), "₹0.00");
        assert_eq!(rupees_in_full(99), "₹0.99");
        assert_eq!(rupees_in_full(123_456_789), "₹12,34,567.89");
        assert_eq!(rupees_in_full(-10_000), "\u{2212}₹100.00");
        assert_eq!(
            rupees_in_full(i64::MIN),
            "\u{2212}₹92,23,37,20,36,85,47,758.08"
        );
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::*;

        /// The paise a written amount says, checking its form on the way: one sign at most, the
        /// rupee sign, digits grouped 2-2-…-3 and either no paise or exactly two digits of them.
        fn read_back(text: &str, minus: &str) -> Option<i128> {
            let (negative, rest) = match text.strip_prefix(minus) {
                Some(rest) => (true, rest),
                None => (false, text),
            };
            let rest = rest.strip_prefix('₹')?;
            let (whole, paise) = match rest.split_once('.') {
                Some((whole, paise)) if paise.len() == 2 => (whole, paise.parse::<i128>().ok()?),
                Some(_) => return None,
                None => (rest, 0),
            };
            let groups: Vec<&str> = whole.split(',').collect();
            let (last, head) = groups.split_last()?;
            let grouped_right = if head.is_empty() {
                (1..=3).contains(&last.len())
            } else {
                last.len() == 3
                    && (1..=2).contains(&head[0].len())
                    && head[1..].iter().all(|g| g.len() == 2)
            };
            if !grouped_right || !whole.replace(',', "").bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let amount = whole.replace(',', "").parse::<i128>().ok()? * 100 + paise;
            Some(if negative { -amount } else { amount })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Every amount, the extremes included, is written in the Indian form and says
            /// exactly the paise it was given.
            #[test]
            fn every_amount_is_written_grouped_and_reads_back_the_same(paise in any::<i64>()) {
                let text = rupees(paise);
                let full = rupees_in_full(paise);

                prop_assert_eq!(read_back(&text, "-"), Some(i128::from(paise)), "{}", text);
                prop_assert_eq!(read_back(&full, "\u{2212}"), Some(i128::from(paise)), "{}", full);
                prop_assert_eq!(text.contains('.'), paise % 100 != 0);
                let paise_part = format!(".{:02}", paise.unsigned_abs() % 100);
                prop_assert!(full.ends_with(&paise_part));
            }
        }
    }
}
