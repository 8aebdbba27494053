//! The listing's orders: the candidates a listing ranks, and how each sort compares them (open
//! restaurants first in every order).

use tiffin_proto::discovery::v1::SortBy;

use super::error::ListingError;
use super::facts::Facts;
use crate::delivery_areas::Delivering;
use crate::{restaurants, sla};

/// How a listing is ordered (open restaurants first in every order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    Relevance,
    DeliveryTime,
    Rating,
    CostLowToHigh,
    CostHighToLow,
}

impl Sort {
    pub fn from_proto(value: i32) -> Result<Self, ListingError> {
        Ok(
            match SortBy::try_from(value).map_err(|_| ListingError::InvalidRefinement)? {
                SortBy::Unspecified | SortBy::Relevance => Sort::Relevance,
                SortBy::DeliveryTime => Sort::DeliveryTime,
                SortBy::Rating => Sort::Rating,
                SortBy::CostLowToHigh => Sort::CostLowToHigh,
                SortBy::CostHighToLow => Sort::CostHighToLow,
            },
        )
    }
}

/// A restaurant delivering to the point, with what sorting and filtering read.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub delivering: Delivering<'a>,
    pub facts: &'a Facts,
    /// The estimate's lower bound from here.
    pub min_minutes: u32,
    pub relevance: f64,
}

impl<'a> Candidate<'a> {
    pub fn new(delivering: Delivering<'a>, facts: &'a Facts) -> Self {
        let l = delivering.listing;
        Self {
            delivering,
            facts,
            min_minutes: sla::delivery_minutes(l.prep_time_minutes, delivering.distance_km).0,
            relevance: restaurants::relevance(&delivering),
        }
    }
}

/// Puts candidates in `sort` order: open first; then the sort's key; ties by relevance, then the
/// nearer, then the lower id, so pages never overlap or skip.
pub fn sort(candidates: &mut [Candidate<'_>], sort: Sort) {
    candidates.sort_by(|a, b| compare(sort, a, b));
}

/// Puts the first `n` candidates of [`sort`]'s order first, in that order, and leaves the rest
/// after them in no particular order: a page needs only what comes up to its end, and near a busy
/// point thousands of restaurants deliver (linear time, instead of sorting them all).
pub fn sort_first(candidates: &mut [Candidate<'_>], sort_by: Sort, n: usize) {
    if n == 0 {
        return;
    }
    if n < candidates.len() {
        candidates.select_nth_unstable_by(n - 1, |a, b| compare(sort_by, a, b));
    }
    let end = n.min(candidates.len());
    sort(&mut candidates[..end], sort_by);
}

/// [`sort`]'s order: a total order (ids are unique), so pages never overlap or skip.
fn compare(sort: Sort, a: &Candidate<'_>, b: &Candidate<'_>) -> std::cmp::Ordering {
    {
        let (la, lb) = (a.delivering.listing, b.delivering.listing);
        let key = match sort {
            Sort::Relevance => std::cmp::Ordering::Equal,
            Sort::DeliveryTime => a.min_minutes.cmp(&b.min_minutes),
            // Unrated last: `None` < `Some`, so compare b to a.
            Sort::Rating => lb.rating_tenths.cmp(&la.rating_tenths),
            Sort::CostLowToHigh => a.facts.cost_for_two_paise.cmp(&b.facts.cost_for_two_paise),
            Sort::CostHighToLow => b.facts.cost_for_two_paise.cmp(&a.facts.cost_for_two_paise),
        };
        lb.opened
            .cmp(&la.opened)
            .then(key)
            .then(b.relevance.total_cmp(&a.relevance))
            .then(
                a.delivering
                    .distance_km
                    .total_cmp(&b.delivering.distance_km),
            )
            .then(la.id.cmp(&lb.id))
    }
}
