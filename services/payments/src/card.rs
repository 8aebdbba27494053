//! A card as typed at checkout, checked before anything else happens: the number (digits, length,
//! Luhn, a network we accept), the expiry (a real month, not in the past) and the CVV (3 digits, 4
//! for American Express). Pure.
//!
//! A [`Pan`] is held only in memory on its way to the gateway: it never implements `Display`, its
//! `Debug` shows the last 4 digits only, and nothing here stores it.

use std::fmt;

/// Why a typed card cannot be used, worded for the customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("Please enter a valid card number")]
    InvalidNumber,
    #[error(
        "We don't accept this card yet. Please use a Visa, Mastercard, RuPay, American Express, Diners or Discover card"
    )]
    UnsupportedNetwork,
    #[error("Please enter a valid expiry date")]
    InvalidExpiry,
    #[error("This card has expired. Please use another card")]
    Expired,
    #[error("Please enter the 3-digit CVV")]
    InvalidCvv3,
    #[error("Please enter the 4-digit CVV")]
    InvalidCvv4,
}

/// A card network, from the number's first digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    Visa,
    Mastercard,
    Amex,
    Rupay,
    Diners,
    Discover,
}

impl Network {
    /// The word stored and sent (`SavedCard.network`).
    pub fn as_str(self) -> &'static str {
        match self {
            Network::Visa => "VISA",
            Network::Mastercard => "MASTERCARD",
            Network::Amex => "AMEX",
            Network::Rupay => "RUPAY",
            Network::Diners => "DINERS",
            Network::Discover => "DISCOVER",
        }
    }

    /// The network a stored word names.
    pub fn parse(word: &str) -> Option<Self> {
        [
            Network::Visa,
            Network::Mastercard,
            Network::Amex,
            Network::Rupay,
            Network::Diners,
            Network::Discover,
        ]
        .into_iter()
        .find(|n| n.as_str() == word)
    }

    /// What a customer calls it ("Visa •••• 1111").
    pub fn display_name(self) -> &'static str {
        match self {
            Network::Visa => "Visa",
            Network::Mastercard => "Mastercard",
            Network::Amex => "American Express",
            Network::Rupay => "RuPay",
            Network::Diners => "Diners Club",
            Network::Discover => "Discover",
        }
    }

    /// How many digits its CVV has.
    pub fn cvv_len(self) -> usize {
        if self == Network::Amex { 4 } else { 3 }
    }

    /// The network of `digits`, when it is one we accept at a length it issues.
    fn of(digits: &str) -> Option<Self> {
        let network = Self::of_prefix(digits)?;
        let lengths: &[usize] = match network {
            Network::Amex => &[15],
            Network::Visa => &[13, 16, 19],
            Network::Mastercard | Network::Rupay => &[16],
            Network::Discover => &[16, 17, 18, 19],
            Network::Diners => &[14, 15, 16, 17, 18, 19],
        };
        lengths.contains(&digits.len()).then_some(network)
    }

    /// The network the first digits of a card belong to (at least 4 of them), whatever its length:
    /// what a payment offer asks of a card still being typed.
    pub fn of_prefix(digits: &str) -> Option<Self> {
        let prefix = |n: usize| digits.get(..n).and_then(|p| p.parse::<u32>().ok());
        let (p1, p2, p3, p4) = (prefix(1)?, prefix(2)?, prefix(3)?, prefix(4)?);
        let network = if matches!(p2, 34 | 37) {
            Network::Amex
        } else if p1 == 4 {
            Network::Visa
        } else if (51..=55).contains(&p2) || (2221..=2720).contains(&p4) {
            Network::Mastercard
        } else if p3 == 508
            || (p2 == 60 && p4 != 6011)
            || matches!(p4, 6521 | 6522)
            || matches!(p2, 81 | 82)
        {
            Network::Rupay
        } else if p4 == 6011 || (644..=649).contains(&p3) || p2 == 65 {
            Network::Discover
        } else if matches!(p2, 36 | 38 | 39) || (300..=305).contains(&p3) {
            Network::Diners
        } else {
            return None;
        };
        Some(network)
    }
}

/// A checked card number. Never printed whole.
#[derive(Clone, PartialEq, Eq)]
pub struct Pan {
    digits: String,
    network: Network,
}

impl Pan {
    /// Parses a typed number: spaces and dashes are ignored; 12 to 19 digits passing the Luhn
    /// check, of a network we accept.
    pub fn parse(typed: &str) -> Result<Self, CardError> {
        let digits: String = typed.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        if !(12..=19).contains(&digits.len())
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || !luhn(&digits)
        {
            return Err(CardError::InvalidNumber);
        }
        let network = Network::of(&digits).ok_or(CardError::UnsupportedNetwork)?;
        Ok(Self { digits, network })
    }

    pub fn network(&self) -> Network {
        self.network
    }

    /// The last 4 digits: all that is ever kept or shown.
    pub fn last4(&self) -> &str {
        &self.digits[self.digits.len() - 4..]
    }

    /// The whole number, for the gateway only.
    pub fn digits(&self) -> &str {
        &self.digits
    }
}

impl fmt::Debug for Pan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pan({} •••• {})", self.network.as_str(), self.last4())
    }
}

/// A CVV, held only on its way to the gateway; never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Cvv(String);

impl Cvv {
    /// Exactly the network's number of digits.
    pub fn parse(typed: &str, network: Network) -> Result<Self, CardError> {
        let typed = typed.trim();
        if typed.len() == network.cvv_len() && typed.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(typed.to_string()))
        } else if network.cvv_len() == 4 {
            Err(CardError::InvalidCvv4)
        } else {
            Err(CardError::InvalidCvv3)
        }
    }

    /// For the gateway only.
    pub fn digits(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Cvv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Cvv(•••)")
    }
}

/// A card's expiry month: valid through the last day of that month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expiry {
    pub month: u32,
    pub year: u32,
}

impl Expiry {
    /// A real month, four-digit year, not before `today`'s month and not absurdly far ahead (cards
    /// are issued for at most about 20 years).
    pub fn parse(month: u32, year: u32, today: YearMonth) -> Result<Self, CardError> {
        if !(1..=12).contains(&month) || !(2000..=9999).contains(&year) {
            return Err(CardError::InvalidExpiry);
        }
        if (year, month) < (today.year, today.month) {
            return Err(CardError::Expired);
        }
        if year > today.year + 25 {
            return Err(CardError::InvalidExpiry);
        }
        Ok(Self { month, year })
    }
}

/// A calendar month (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YearMonth {
    pub year: u32,
    pub month: u32,
}

impl YearMonth {
    /// The month `unix_ms` falls in, UTC (Howard Hinnant's days-to-civil algorithm).
    pub fn of_unix_ms(unix_ms: i64) -> Self {
        let days = unix_ms.div_euclid(86_400_000) + 719_468;
        let era = days.div_euclid(146_097);
        let doe = days - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        Self {
            year: u32::try_from(year).unwrap_or(0),
            month: u32::try_from(month).unwrap_or(1),
        }
    }
}

/// The Luhn check digit test.
fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 1 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JUNE_2026: YearMonth = YearMonth {
        year: 2026,
        month: 6,
    };

    #[test]
    fn well_known_test_numbers_pass_luhn_and_find_their_network() {
        for (number, network) in [
            ("4111 1111 1111 1111", Network::Visa),
            ("5555-5555-5555-4444", Network::Mastercard),
            ("378282246310005", Network::Amex),
            ("5085000000000007", Network::Rupay),
            ("6011111111111117", Network::Discover),
            ("30569309025904", Network::Diners),
            ("2223003122003222", Network::Mastercard),
        ] {
            assert_eq!(
                Pan::parse(number).map(|p| p.network()),
                Ok(network),
                "{number}"
            );
        }
    }

    #[test]
    fn a_wrong_check_digit_letters_or_a_wrong_length_is_an_invalid_number() {
        for number in [
            "4111111111111112",
            "4111a11111111111",
            "41111111111",
            "",
            "4111111111111111111111",
        ] {
            assert_eq!(
                Pan::parse(number),
                Err(CardError::InvalidNumber),
                "{number}"
            );
        }
    }

    #[test]
    fn a_luhn_valid_number_of_no_network_we_take_is_refused_as_such() {
        // 9 is no network's first digit; the number passes Luhn.
        assert_eq!(
            Pan::parse("9000000000000001"),
            Err(CardError::UnsupportedNetwork)
        );
    }

    #[test]
    fn the_number_never_prints_whole() {
        let pan = Pan::parse("4111111111111111").unwrap();
        let shown = format!("{pan:?}");
        assert!(!shown.contains("4111111111111111"), "{shown}");
        assert!(shown.contains("1111"));
        assert_eq!(pan.last4(), "1111");
        assert_eq!(
            format!("{:?}", Cvv::parse("123", Network::Visa).unwrap()),
            "Cvv(•••)"
        );
    }

    #[test]
    fn cvv_is_three_digits_and_four_for_amex() {
        assert!(Cvv::parse("123", Network::Visa).is_ok());
        assert_eq!(
            Cvv::parse("1234", Network::Visa),
            Err(CardError::InvalidCvv3)
        );
        assert_eq!(
            Cvv::parse("12a", Network::Rupay),
            Err(CardError::InvalidCvv3)
        );
        assert!(Cvv::parse("1234", Network::Amex).is_ok());
        assert_eq!(
            Cvv::parse("123", Network::Amex),
            Err(CardError::InvalidCvv4)
        );
    }

    #[test]
    fn expiry_this_month_is_valid_last_month_has_expired() {
        assert!(Expiry::parse(6, 2026, JUNE_2026).is_ok());
        assert_eq!(Expiry::parse(5, 2026, JUNE_2026), Err(CardError::Expired));
        assert_eq!(Expiry::parse(12, 2025, JUNE_2026), Err(CardError::Expired));
        assert_eq!(
            Expiry::parse(13, 2027, JUNE_2026),
            Err(CardError::InvalidExpiry)
        );
        assert_eq!(
            Expiry::parse(0, 2027, JUNE_2026),
            Err(CardError::InvalidExpiry)
        );
        assert_eq!(
            Expiry::parse(1, 27, JUNE_2026),
            Err(CardError::InvalidExpiry)
        );
        assert_eq!(
            Expiry::parse(1, 2090, JUNE_2026),
            Err(CardError::InvalidExpiry)
        );
    }

    #[test]
    fn the_calendar_month_of_a_unix_time() {
        assert_eq!(
            YearMonth::of_unix_ms(0),
            YearMonth {
                year: 1970,
                month: 1
            }
        );
        // 2024-02-29T12:00:00Z
        assert_eq!(
            YearMonth::of_unix_ms(1_709_208_000_000),
            YearMonth {
                year: 2024,
                month: 2
            }
        );
        // 2025-12-31T23:59:59Z
        assert_eq!(
            YearMonth::of_unix_ms(1_767_225_599_000),
            YearMonth {
                year: 2025,
                month: 12
            }
        );
    }
}
