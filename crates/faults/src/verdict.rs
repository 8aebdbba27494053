//! What one fault's replies show, judged against the rules:
//!
//! - before the fault, every reply is a success;
//! - while it lasts and until the routes recover, a route the fault does not affect answers every
//!   request with a success (zero errors); a route it affects answers with a success or the spec's
//!   outage envelope (503 / 777 `Something's broken`), the latter within the deadline (the edge's
//!   budget and a margin); when the edge itself is dead, nobody answering is expected too;
//! - from the restart (or the undo), every route answers with a success again within the
//!   recovery limit;
//! - the fault is seen: some affected route did not answer as usual while it lasted (a fault
//!   nobody noticed proves nothing).
//!
//! A reply is placed by time: before the fault when it ended before the fault began, under the
//! fault when it ended after that and was sent before the restart, in recovery when sent after.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::load::{Outcome, Sample};
use crate::routes::{Fault, Route};

/// When the phases of one fault began, on the run's clock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Phases {
    /// The steady load before the fault.
    pub steady: Duration,
    pub fault: Duration,
    /// The process started again, or the fault undone.
    pub restart: Duration,
    /// The end of the observation.
    pub until: Duration,
}

/// The limits replies are judged by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// An outage reply must arrive within this.
    pub deadline: Duration,
    /// Every route must answer with a success again within this of the restart.
    pub recovery: Duration,
}

/// One fault's numbers and what broke the rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub fault: String,
    /// Requests sent from the start of the steady load to the end of the observation.
    pub requests: usize,
    /// Expected failures of the affected routes (outage envelopes, or nobody answering when the
    /// edge is dead), by route.
    pub outages: BTreeMap<Route, usize>,
    /// Replies that broke a rule, by route.
    pub errors: BTreeMap<Route, usize>,
    /// The slowest outage reply.
    pub slowest_outage: Option<Duration>,
    /// From the restart to the moment every route answered with a success again; `None` when
    /// some route never did.
    pub recovery: Option<Duration>,
    /// Every broken rule, for the reader.
    pub violations: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.violations.is_empty()
    }
}

/// From `restart`, the time until every route of `routes` has answered with a success after its
/// last failure; `None` while one has not.
pub fn recovery(samples: &[Sample], routes: &[Route], restart: Duration) -> Option<Duration> {
    let mut recovered = Duration::ZERO;
    for route in routes {
        let after: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.route == *route && s.sent >= restart)
            .collect();
        let last_failure = after.iter().rposition(|s| s.outcome != Outcome::Ok);
        let from = last_failure.map_or(0, |i| i + 1);
        let first_success = after[from..].iter().find(|s| s.outcome == Outcome::Ok)?;
        recovered = recovered.max(first_success.ended().saturating_sub(restart));
    }
    Some(recovered)
}

/// Judges `fault`'s replies among `samples` (every reply of the run, in the order they ended).
pub fn judge(samples: &[Sample], fault: &Fault, phases: Phases, limits: Limits) -> Report {
    let mut report = Report {
        fault: fault.to_string(),
        requests: 0,
        outages: BTreeMap::new(),
        errors: BTreeMap::new(),
        slowest_outage: None,
        recovery: None,
        violations: Vec::new(),
    };
    // Kinds of broken rules by route, counted, so the reader gets one line per kind.
    let mut broken: BTreeMap<(Route, String), usize> = BTreeMap::new();
    let mut seen = false;
    let mine: Vec<Sample> = samples
        .iter()
        .filter(|s| s.sent >= phases.steady && s.sent < phases.until)
        .cloned()
        .collect();
    for sample in &mine {
        report.requests += 1;
        let before = sample.ended() < phases.fault;
        let under = !before && sample.sent < phases.restart;
        let problem = match &sample.outcome {
            Outcome::Ok => None,
            _ if before => Some(format!("before the fault: {}", describe(&sample.outcome))),
            _ if !fault.affects(sample.route) => Some(format!(
                "{} answered {}, though it does not need {}",
                sample.route,
                describe(&sample.outcome),
                fault.target()
            )),
            Outcome::Outage if sample.took > limits.deadline => Some(format!(
                "the outage reply took {} ms, past the {} ms deadline",
                sample.took.as_millis(),
                limits.deadline.as_millis()
            )),
            Outcome::Outage => None,
            Outcome::Unreachable(_) if fault.silences_the_edge() => None,
            other => Some(format!("answered {}", describe(other))),
        };
        match problem {
            Some(problem) => {
                *report.errors.entry(sample.route).or_default() += 1;
                *broken.entry((sample.route, problem)).or_default() += 1;
            }
            None if sample.outcome != Outcome::Ok => {
                *report.outages.entry(sample.route).or_default() += 1;
                if sample.outcome == Outcome::Outage {
                    report.slowest_outage = report.slowest_outage.max(Some(sample.took));
                }
                seen |= under;
            }
            None => {}
        }
    }
    for ((route, problem), n) in broken {
        report.violations.push(format!("{route}: {problem} ({n}×)"));
    }
    if !seen {
        report
            .violations
            .push("no affected route showed the fault while it lasted".into());
    }
    report.recovery = recovery(&mine, &Route::ALL, phases.restart);
    match report.recovery {
        None => report.violations.push(format!(
            "not every route answered with a success again within {} s of the restart",
            (phases.until - phases.restart).as_secs_f64()
        )),
        Some(r) if r > limits.recovery => report.violations.push(format!(
            "recovered after {:.2} s, past the {} s limit",
            r.as_secs_f64(),
            limits.recovery.as_secs()
        )),
        Some(_) => {}
    }
    report
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Ok => "a success".into(),
        Outcome::Outage => "the outage envelope".into(),
        Outcome::Unreachable(kind) => format!("nothing ({kind})"),
        Outcome::Failed(what) => what.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn at(route: Route, sent: u64, took: u64, outcome: Outcome) -> Sample {
        Sample {
            route,
            sent: ms(sent),
            took: ms(took),
            outcome,
        }
    }

    /// Every route answering with a success at `sent`.
    fn all_ok(sent: u64) -> Vec<Sample> {
        Route::ALL
            .into_iter()
            .map(|r| at(r, sent, 10, Outcome::Ok))
            .collect()
    }

    const PHASES: Phases = Phases {
        steady: Duration::from_millis(0),
        fault: Duration::from_millis(2_000),
        restart: Duration::from_millis(5_000),
        until: Duration::from_millis(12_000),
    };
    const LIMITS: Limits = Limits {
        deadline: Duration::from_millis(2_500),
        recovery: Duration::from_secs(5),
    };

    #[test]
    fn a_fault_answered_by_the_envelope_on_its_routes_only_and_recovered_in_time_passes() {
        let fault = Fault::Kill("support".into());
        let mut samples = all_ok(100);
        samples.extend(all_ok(2_500));
        samples[Route::ALL.len() + 8] = at(Route::Help, 2_500, 40, Outcome::Outage);
        samples.push(at(Route::Help, 5_100, 30, Outcome::Outage));
        samples.extend(all_ok(6_000));

        let report = judge(&samples, &fault, PHASES, LIMITS);

        assert!(report.passed(), "{:?}", report.violations);
        assert_eq!(report.requests, 3 * Route::ALL.len() + 1);
        assert_eq!(report.outages, BTreeMap::from([(Route::Help, 2)]));
        assert!(report.errors.is_empty());
        assert_eq!(report.slowest_outage, Some(ms(40)));
        // The help topics' success sent at 6.0 s ended at 6.01 s: 1.01 s after the restart.
        assert_eq!(report.recovery, Some(ms(1_010)));
    }

    #[test]
    fn an_unrelated_route_failing_a_late_or_worded_reply_and_no_recovery_all_fail() {
        let fault = Fault::Kill("support".into());
        let mut samples = all_ok(100);
        samples.push(at(Route::Listing, 2_500, 20, Outcome::Outage));
        samples.push(at(Route::Help, 2_600, 3_000, Outcome::Outage));
        samples.push(at(
            Route::Help,
            2_700,
            5,
            Outcome::Failed("HTTP 500 / 1 Oops! Something went wrong.".into()),
        ));
        samples.push(at(
            Route::Help,
            3_000,
            5,
            Outcome::Unreachable("refused".into()),
        ));
        samples.extend(all_ok(6_000));
        samples.push(at(Route::Help, 7_000, 5, Outcome::Outage));

        let report = judge(&samples, &fault, PHASES, LIMITS);

        assert!(!report.passed());
        assert_eq!(
            report.errors,
            BTreeMap::from([(Route::Listing, 1), (Route::Help, 3)])
        );
        let all = report.violations.join("\n");
        assert!(
            all.contains("listing answered the outage envelope, though it does not need support"),
            "{all}"
        );
        assert!(
            all.contains("took 3000 ms, past the 2500 ms deadline"),
            "{all}"
        );
        assert!(
            all.contains("HTTP 500 / 1 Oops! Something went wrong."),
            "{all}"
        );
        assert!(all.contains("answered nothing (refused)"), "{all}");
        assert_eq!(report.recovery, None, "help failed after its success");
        assert!(
            all.contains("not every route answered with a success again"),
            "{all}"
        );
    }

    #[test]
    fn nobody_answering_is_expected_only_while_the_edge_is_dead() {
        let edge = Fault::Kill("edge".into());
        let mut samples = all_ok(100);
        samples.push(at(
            Route::Listing,
            2_100,
            1,
            Outcome::Unreachable("refused".into()),
        ));
        samples.extend(all_ok(5_200));

        let report = judge(&samples, &edge, PHASES, LIMITS);

        assert!(report.passed(), "{:?}", report.violations);
        assert_eq!(report.outages, BTreeMap::from([(Route::Listing, 1)]));
        assert_eq!(report.slowest_outage, None);
    }

    #[test]
    fn a_failure_before_the_fault_a_fault_nobody_saw_and_a_slow_recovery_are_reported() {
        let fault = Fault::Kill("membership".into());
        let mut samples = all_ok(100);
        samples.push(at(Route::Plans, 500, 10, Outcome::Outage));
        // Every route fine under the fault: nobody saw it.
        samples.extend(all_ok(3_000));
        samples.push(at(Route::Plans, 5_100, 10, Outcome::Outage));
        samples.extend(all_ok(11_000));

        let report = judge(&samples, &fault, PHASES, LIMITS);

        let all = report.violations.join("\n");
        assert!(
            all.contains("plans: before the fault: the outage envelope (1×)"),
            "{all}"
        );
        assert!(all.contains("no affected route showed the fault"), "{all}");
        assert_eq!(report.recovery, Some(ms(6_010)));
        assert!(
            all.contains("recovered after 6.01 s, past the 5 s limit"),
            "{all}"
        );
    }

    #[test]
    fn recovery_waits_for_every_route_and_for_its_last_failure() {
        let restart = ms(1_000);
        let samples = vec![
            at(Route::Help, 1_100, 10, Outcome::Outage),
            at(Route::Help, 1_200, 10, Outcome::Ok),
            at(Route::Help, 1_300, 10, Outcome::Outage),
            at(Route::Help, 1_900, 50, Outcome::Ok),
            at(Route::Plans, 1_050, 10, Outcome::Ok),
        ];

        assert_eq!(
            recovery(&samples, &[Route::Help, Route::Plans], restart),
            Some(ms(950))
        );
        assert_eq!(
            recovery(&samples, &[Route::Help, Route::Listing], restart),
            None
        );
    }
}
