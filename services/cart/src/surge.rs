//! The surge fee: what an operator sets (a rain switch, peak-hour windows, the fee) and whether a
//! cart priced now pays it. Read once at start from the environment (`docs/bill.md`):
//!
//! - `CART_SURGE_FEE_PAISE`: the fee, default 2000 (₹20);
//! - `CART_SURGE_RAIN`: 1 while it rains where the storefront delivers, default 0;
//! - `CART_SURGE_PEAK_HOURS`: windows of India time, `HH:MM-HH:MM` separated by commas
//!   (`12:30-14:30,19:30-22:30`; a window may run past midnight), default none.
//!
//! With the defaults no surge is charged: a deployment turns it on deliberately. Tiffin One
//! members never pay it (the bill waives it on its own line).

use tiffin_platform::config::{ConfigError, env_flag, env_or, env_parse};

use crate::bill::Surcharge;

/// The fee when nothing else is set (₹20).
pub const DEFAULT_SURGE_FEE_PAISE: i64 = 2_000;
/// India Standard Time is UTC+5:30 all year.
const IST_OFFSET_SECS: i64 = 5 * 3_600 + 30 * 60;
const MINUTES_A_DAY: u32 = 24 * 60;

/// The operator's surge settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Surge {
    /// Paise added when it applies; 0 turns the surge off whatever the weather.
    pub fee_paise: i64,
    /// It is raining: the fee applies all day.
    pub raining: bool,
    /// Peak hours, India time.
    pub peak_hours: Vec<Window>,
}

/// A daily window of India time, `[start, end)` in minutes after midnight (`end` up to 1440, the
/// day's end); `end < start` runs past midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: u32,
    pub end: u32,
}

impl Window {
    fn contains(self, minute: u32) -> bool {
        if self.start <= self.end {
            (self.start..self.end).contains(&minute)
        } else {
            minute >= self.start || minute < self.end
        }
    }
}

impl std::fmt::Display for Window {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hm = |m: u32| format!("{:02}:{:02}", m / 60, m % 60);
        write!(f, "{}–{}", hm(self.start), hm(self.end))
    }
}

impl Surge {
    /// No surge at all (tests, and every deployment until an operator sets one).
    pub fn none() -> Self {
        Self::default()
    }

    /// Reads the settings; an unusable value names its variable.
    pub fn from_env() -> Result<Self, ConfigError> {
        let fee_paise: i64 = env_parse("CART_SURGE_FEE_PAISE", DEFAULT_SURGE_FEE_PAISE)?;
        if !(0..=100_000).contains(&fee_paise) {
            return Err(ConfigError {
                name: "CART_SURGE_FEE_PAISE".into(),
                value: fee_paise.to_string(),
                reason: "must be between 0 and 100000 paise".into(),
            });
        }
        let text = env_or("CART_SURGE_PEAK_HOURS", "");
        let peak_hours = parse_windows(&text).map_err(|reason| ConfigError {
            name: "CART_SURGE_PEAK_HOURS".into(),
            value: text.clone(),
            reason,
        })?;
        Ok(Self {
            fee_paise,
            raining: env_flag("CART_SURGE_RAIN")?,
            peak_hours,
        })
    }

    /// The surge fee a cart priced at `unix_secs` pays, and why; `None` when it pays none.
    pub fn at(&self, unix_secs: i64) -> Option<Surcharge> {
        if self.fee_paise <= 0 {
            return None;
        }
        let minute = u32::try_from(
            (unix_secs + IST_OFFSET_SECS).rem_euclid(i64::from(MINUTES_A_DAY) * 60) / 60,
        )
        .unwrap_or(0);
        let reason = if self.raining {
            "It's raining: riders take longer, and a surge fee helps us pay them for it."
                .to_string()
        } else {
            let window = self.peak_hours.iter().find(|w| w.contains(minute))?;
            format!("Peak hours ({window}): a surge fee helps us find riders for every order.")
        };
        Some(Surcharge {
            amount: self.fee_paise,
            reason,
        })
    }
}

/// `HH:MM-HH:MM[,HH:MM-HH:MM…]` as windows; empty text is none.
pub fn parse_windows(text: &str) -> Result<Vec<Window>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| {
            let (start, end) = w
                .split_once('-')
                .ok_or_else(|| format!("{w:?}: expected HH:MM-HH:MM"))?;
            let (start, end) = (minute_of(start)?, minute_of(end)?);
            if start == end {
                return Err(format!("{w:?}: a window must not be empty"));
            }
            Ok(Window { start, end })
        })
        .collect()
}

/// `HH:MM` as minutes after midnight; `24:00` is midnight at the end of the day.
fn minute_of(text: &str) -> Result<u32, String> {
    let bad = || format!("{text:?}: expected HH:MM");
    let (h, m) = text.trim().split_once(':').ok_or_else(bad)?;
    let (h, m): (u32, u32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if m >= 60 || h > 24 || (h == 24 && m > 0) {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-01-01 00:00 IST.
    const MIDNIGHT_IST: i64 = 1_767_205_800;

    fn at_ist(hour: i64, minute: i64) -> i64 {
        MIDNIGHT_IST + hour * 3_600 + minute * 60
    }

    #[test]
    fn peak_windows_are_india_time_and_may_run_past_midnight() {
        let surge = Surge {
            fee_paise: 2_000,
            raining: false,
            peak_hours: parse_windows("12:30-14:30, 22:00-01:00").unwrap(),
        };
        assert_eq!(surge.at(at_ist(12, 29)), None);
        let lunch = surge.at(at_ist(12, 30)).unwrap();
        assert_eq!(lunch.amount, 2_000);
        assert!(lunch.reason.starts_with("Peak hours (12:30–14:30)"));
        assert_eq!(surge.at(at_ist(14, 30)), None);
        assert!(surge.at(at_ist(23, 59)).is_some());
        assert!(surge.at(at_ist(24, 30)).is_some());
        assert_eq!(surge.at(at_ist(25, 0)), None);
    }

    #[test]
    fn rain_charges_all_day_and_no_fee_charges_nothing() {
        let rain = Surge {
            fee_paise: 1_500,
            raining: true,
            peak_hours: vec![],
        };
        assert!(
            rain.at(at_ist(4, 0))
                .unwrap()
                .reason
                .starts_with("It's raining")
        );
        let off = Surge {
            fee_paise: 0,
            ..rain
        };
        assert_eq!(off.at(at_ist(4, 0)), None);
        assert_eq!(Surge::none().at(at_ist(19, 0)), None);
    }

    #[test]
    fn windows_that_are_not_hh_mm_are_refused() {
        assert_eq!(parse_windows("").unwrap(), vec![]);
        assert_eq!(
            parse_windows("00:00-24:00").unwrap(),
            vec![Window {
                start: 0,
                end: 1_440
            }]
        );
        for bad in ["7-9", "19:00", "19:60-20:00", "25:00-26:00", "10:00-10:00"] {
            assert!(parse_windows(bad).is_err(), "{bad}");
        }
    }
}
