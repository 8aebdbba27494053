//! What a list of an order's lines to refund means, for the service that refunds them (orders) and
//! the one that asks on a customer's behalf (support), so both refuse the same lists in the same
//! words and key their idempotency on the same text: each line named once, each with at least one
//! unit, taken in line order.

use crate::orders::v1::RefundLine;

/// Why a list of lines to refund is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundLinesError {
    /// No line, or a line with no units.
    Empty,
    /// A line named twice.
    Repeated,
}

impl RefundLinesError {
    /// The refusal, worded for the customer.
    pub fn message(self) -> &'static str {
        match self {
            RefundLinesError::Empty => "Please choose the items and how many of each.",
            RefundLinesError::Repeated => "Please name each item once.",
        }
    }
}

/// The lines as (line id, units), in line order.
pub fn normalised(lines: &[RefundLine]) -> Result<Vec<(u32, u32)>, RefundLinesError> {
    let mut lines: Vec<(u32, u32)> = lines.iter().map(|l| (l.line_id, l.quantity)).collect();
    lines.sort_unstable();
    if lines.is_empty() || lines.iter().any(|&(_, units)| units == 0) {
        return Err(RefundLinesError::Empty);
    }
    if lines.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(RefundLinesError::Repeated);
    }
    Ok(lines)
}

/// Normalised lines as one text (`1x2,3x1`), for an idempotency key's fingerprint.
pub fn listed(lines: &[(u32, u32)]) -> String {
    lines
        .iter()
        .map(|(line, units)| format!("{line}x{units}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(line_id: u32, quantity: u32) -> RefundLine {
        RefundLine { line_id, quantity }
    }

    #[test]
    fn lines_are_taken_in_line_order_each_once_with_units() {
        let lines = normalised(&[line(3, 1), line(1, 2)]).unwrap();
        assert_eq!(lines, vec![(1, 2), (3, 1)]);
        assert_eq!(listed(&lines), "1x2,3x1");
        assert_eq!(normalised(&[]), Err(RefundLinesError::Empty));
        assert_eq!(normalised(&[line(1, 0)]), Err(RefundLinesError::Empty));
        assert_eq!(
            normalised(&[line(2, 1), line(2, 1)]),
            Err(RefundLinesError::Repeated)
        );
    }
}
