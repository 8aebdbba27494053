//! The printed table: one row per fault with its requests, the affected routes' outage replies,
//! the errors by route (replies that broke a rule) and the time to recovery; and the summary line.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::routes::Route;
use crate::verdict::Report;

/// A row of the table: a fault judged, or one that could not be run here and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    Judged(Report),
    Skipped { fault: String, why: String },
}

/// "menu 3, cart update 2", or "none".
fn by_route(counts: &BTreeMap<Route, usize>) -> String {
    if counts.is_empty() {
        return "none".into();
    }
    counts
        .iter()
        .map(|(route, n)| format!("{route} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The table, with a header, one line per row and, under a failed row, each broken rule.
pub fn render(rows: &[Row]) -> String {
    let header = [
        "fault",
        "requests",
        "errors by route",
        "outage replies by route (slowest)",
        "recovery",
    ];
    let mut lines: Vec<[String; 5]> = vec![header.map(str::to_string)];
    let mut notes: Vec<Vec<String>> = vec![Vec::new()];
    for row in rows {
        match row {
            Row::Judged(report) => {
                let slowest = report
                    .slowest_outage
                    .map_or(String::new(), |d| format!(" ({} ms)", d.as_millis()));
                lines.push([
                    report.fault.clone(),
                    report.requests.to_string(),
                    by_route(&report.errors),
                    format!("{}{slowest}", by_route(&report.outages)),
                    report
                        .recovery
                        .map_or("NONE".into(), |r| format!("{:.2} s", r.as_secs_f64())),
                ]);
                notes.push(report.violations.clone());
            }
            Row::Skipped { fault, why } => {
                lines.push([
                    fault.clone(),
                    "-".into(),
                    "-".into(),
                    format!("SKIPPED: {why}"),
                    "-".into(),
                ]);
                notes.push(Vec::new());
            }
        }
    }
    let mut widths = [0usize; 5];
    for line in &lines {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for (line, notes) in lines.iter().zip(&notes) {
        let mut text = String::new();
        for (i, (cell, w)) in line.iter().zip(widths).enumerate() {
            let pad = w - cell.chars().count();
            if i == 1 {
                // Numbers read best right-aligned.
                let _ = write!(text, "{}{cell}  ", " ".repeat(pad));
            } else {
                let _ = write!(text, "{cell}{}  ", " ".repeat(pad));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
        for note in notes {
            let _ = writeln!(out, "    FAIL {note}");
        }
    }
    out
}

/// The one-line summary: how many faults passed, failed and were skipped.
pub fn summary(rows: &[Row]) -> String {
    let judged: Vec<&Report> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Judged(report) => Some(report),
            Row::Skipped { .. } => None,
        })
        .collect();
    let failed = judged.iter().filter(|r| !r.passed()).count();
    let skipped = rows.len() - judged.len();
    let requests: usize = judged.iter().map(|r| r.requests).sum();
    let mut line = format!(
        "{} faults survived, {failed} failed, {skipped} skipped ({requests} requests)",
        judged.len() - failed
    );
    if let Some(worst) = judged.iter().filter_map(|r| r.recovery).max() {
        let _ = write!(line, "; slowest recovery {:.2} s", worst.as_secs_f64());
    }
    line
}

/// Whether the run passed: every fault judged passed (a skipped one does not fail it).
pub fn passed(rows: &[Row]) -> bool {
    rows.iter().all(|r| match r {
        Row::Judged(report) => report.passed(),
        Row::Skipped { .. } => true,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn report(fault: &str, violations: Vec<String>) -> Report {
        Report {
            fault: fault.into(),
            requests: 412,
            outages: BTreeMap::from([(Route::Menu, 3), (Route::CartUpdate, 12)]),
            errors: BTreeMap::new(),
            slowest_outage: Some(Duration::from_millis(2004)),
            recovery: Some(Duration::from_millis(1234)),
            violations,
        }
    }

    #[test]
    fn each_fault_is_one_aligned_line_with_its_broken_rules_under_it() {
        let mut failed = report("kill cart", vec!["listing: answered HTTP 500 (2×)".into()]);
        failed.errors.insert(Route::Listing, 2);
        failed.recovery = None;
        let rows = vec![
            Row::Judged(report("kill menu", Vec::new())),
            Row::Judged(failed),
            Row::Skipped {
                fault: "cart: PostgreSQL down".into(),
                why: "no PostgreSQL reachable".into(),
            },
        ];

        let table = render(&rows);

        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 5, "{table}");
        assert!(lines[0].starts_with("fault "));
        assert!(lines[1].starts_with("kill menu "));
        let cells: Vec<&str> = lines[1]
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        assert_eq!(
            cells,
            [
                "kill menu",
                "412",
                "none",
                "menu 3, cart update 12 (2004 ms)",
                "1.23 s"
            ],
            "{table}"
        );
        assert!(
            lines[2].contains("listing 2") && lines[2].ends_with("NONE"),
            "{table}"
        );
        assert_eq!(lines[3], "    FAIL listing: answered HTTP 500 (2×)");
        assert!(
            lines[4].contains("SKIPPED: no PostgreSQL reachable"),
            "{table}"
        );
        // Columns line up: the requests column ends at the same place on every judged row.
        let end = |l: &str| l.find(" 412").map(|i| i + 4);
        assert_eq!(end(lines[1]), end(lines[2]));
    }

    #[test]
    fn the_summary_counts_passed_failed_and_skipped_and_only_a_violation_fails_the_run() {
        let ok = Row::Judged(report("kill menu", Vec::new()));
        let bad = Row::Judged(report("kill cart", vec!["x".into()]));
        let skipped = Row::Skipped {
            fault: "cart: PostgreSQL down".into(),
            why: "no server".into(),
        };

        assert_eq!(
            summary(&[ok.clone(), bad.clone(), skipped.clone()]),
            "1 faults survived, 1 failed, 1 skipped (824 requests); slowest recovery 1.23 s"
        );
        assert!(passed(&[ok.clone(), skipped]));
        assert!(!passed(&[ok, bad]));
    }
}
