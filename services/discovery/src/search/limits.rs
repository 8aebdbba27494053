//! How much a search answers: the caller's limits, bounded, and what is read before ranking.

/// Results per kind when the caller asks for 0.
pub const DEFAULT_LIMIT: usize = 30;
/// Most results per kind, whatever the caller asks.
pub const MAX_LIMIT: usize = 50;
/// Suggestions when the caller asks for 0, and at most.
pub const DEFAULT_SUGGESTIONS: usize = 8;
pub const MAX_SUGGESTIONS: usize = 20;
/// Popular cuisines when the caller asks for 0, and at most.
pub const DEFAULT_CUISINES: usize = 12;
pub const MAX_CUISINES: usize = 50;
/// Hits read from the engine before ranking: enough to hold every top-relevance match near a point.
pub(super) const CANDIDATES: usize = 400;
