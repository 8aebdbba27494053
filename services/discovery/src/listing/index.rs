//! The listing's in-memory state: every restaurant's [`Facts`] and the plain listing's area
//! cells ([`super::cells`]), both built once at start.

use std::collections::HashMap;

use sqlx::AnyPool;

use super::cells::Cells;
use super::facts::{Facts, FactsIndex};
use crate::error::Error;

/// Every restaurant's [`Facts`], and the cells that settle a plain listing's page.
#[derive(Default)]
pub struct ListingIndex {
    facts: FactsIndex,
    /// The plain listing's counts and leaders per area cell ([`ListingIndex::with_cells`]).
    cells: Option<Cells>,
}

impl ListingIndex {
    /// See [`FactsIndex::new`].
    pub fn new(facts: HashMap<u64, Facts>, order: impl IntoIterator<Item = u64>) -> Self {
        Self {
            facts: FactsIndex::new(facts, order),
            cells: None,
        }
    }

    /// Reads every restaurant's facts at start (see [`FactsIndex::load`]).
    pub async fn load(pool: &AnyPool, order: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        Ok(Self {
            facts: FactsIndex::load(pool, order).await?,
            cells: None,
        })
    }

    /// Keeps up to `megabytes` MiB of the plain listing's cells ([`super::cells`]; 0: none, every
    /// listing ranks everyone delivering).
    pub fn with_cells(mut self, megabytes: u64) -> Self {
        self.cells = Cells::new(megabytes);
        self
    }

    /// Every restaurant's facts.
    pub fn facts(&self) -> &FactsIndex {
        &self.facts
    }

    /// The cells, when kept.
    pub fn cells(&self) -> Option<&Cells> {
        self.cells.as_ref()
    }

    /// The facts of the restaurant at `position` in the delivery index.
    pub fn at(&self, position: usize) -> Option<&Facts> {
        self.facts.at(position)
    }

    /// The facts of restaurant `id`.
    pub fn get(&self, id: u64) -> Option<&Facts> {
        self.facts.get(id)
    }

    pub fn len(&self) -> usize {
        self.facts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }
}
