//! `RefineListing`: one page of the listing as the visitor refines it, and the reply around it.

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{
    CollectionCard, ListRestaurantsResponse, RefineListingRequest, RefineListingResponse,
    RestaurantCard, Serviceability,
};

use super::cells::Gathered;
use super::error::ListingError;
use super::filters::Filters;
use super::index::ListingIndex;
use super::order::{Candidate, Sort, sort_first};
use super::surroundings::{
    Counts, banners, cuisine_counts, nudge, theme_cards, theme_filters, top_carousel,
};
use crate::collections::{Collection, FAVOURITES_ID, favourites_card};
use crate::delivery_areas::DeliveryAreas;
use crate::{restaurants, sla};

/// `RefineListing`: one page of the refined listing at `location`, and what surrounds it.
pub fn refine(
    cards: &restaurants::Cards,
    areas: &DeliveryAreas,
    index: &ListingIndex,
    location: Point,
    request: &RefineListingRequest,
) -> Result<RefineListingResponse, ListingError> {
    let sort_by = Sort::from_proto(request.sort)?;
    let filters = Filters::from_proto(&request.filters.clone().unwrap_or_default())?;
    // The favourites are the caller's to name: without them there is nothing to list yet.
    let favourites = request.collection_id == FAVOURITES_ID;
    if favourites && request.only_restaurants.is_none() {
        return Ok(RefineListingResponse {
            needs_favourites: true,
            ..RefineListingResponse::default()
        });
    }
    let collection = match request.collection_id {
        0 | FAVOURITES_ID => None,
        id => Some(Collection::find(id).ok_or(ListingError::CollectionNotFound)?),
    };

    let limit = match request.limit as usize {
        0 => restaurants::DEFAULT_PAGE_SIZE,
        n => n.min(restaurants::MAX_PAGE_SIZE),
    };
    let page_end = (request.offset as usize).saturating_add(limit);
    // A per-user set (the favourites collection) narrows the page, never the counts around it.
    let only = request.only_restaurants.as_ref().map(|o| o.ids.as_slice());
    if only.is_some_and(|ids| ids.len() > restaurants::MAX_BATCH) {
        return Err(ListingError::InvalidRefinement);
    }
    let themes = theme_filters();

    // The plain listing (no filter, collection or set, by relevance) from the point's cell when
    // the cell settles the page; any other listing from every restaurant delivering there.
    let plain = sort_by == Sort::Relevance
        && filters == Filters::default()
        && collection.is_none()
        && only.is_none();
    let gathered = plain
        .then(|| {
            index
                .cells()?
                .gather(areas, index.facts(), &themes, location, page_end)
        })
        .flatten();
    let (
        Gathered {
            chosen,
            total,
            counts,
        },
        collection_card_json,
    ) = match gathered {
        Some(g) => (g, None),
        None => everyone(
            (areas, index, &themes),
            location,
            (&filters, collection.as_ref(), only),
            sort_by,
            page_end,
        )?,
    };

    let start = (request.offset as usize).min(total);
    let end = page_end.min(total);
    let mut page = ListRestaurantsResponse {
        total_restaurants: count_u32(total),
        next_offset: (end < total).then(|| count_u32(end)),
        serviceability: if counts.total == 0 {
            Serviceability::NonServiceable
        } else {
            Serviceability::Serviceable
        }
        .into(),
        ..Default::default()
    };
    for c in &chosen[start..end] {
        let l = c.delivering.listing;
        let Some(restaurant) = cards.restaurant(l.id).cloned() else {
            tracing::warn!(id = l.id, "indexed restaurant missing from the table");
            continue;
        };
        let card = RestaurantCard {
            sla: Some(sla::sla_at_distance(
                c.delivering.distance_km,
                l.delivery_radius_m,
                l.prep_time_minutes,
            )),
            restaurant: Some(restaurant),
        };
        if l.opened {
            page.open.push(card)
        } else {
            page.closed.push(card)
        }
    }

    let cuisines = cuisine_counts(&index.facts().cuisine_names, &counts.cuisines);
    Ok(RefineListingResponse {
        page: Some(page),
        unfiltered_total: counts.total,
        top_carousel: top_carousel(&cuisines),
        banners: banners(&index.facts().offer_texts, &counts.open_offers),
        filter_collections: theme_cards(themes, &counts.themes),
        cuisines,
        nudge: nudge(counts.open_fast, sort_by, &filters, collection.as_ref()),
        collection: if favourites {
            Some(favourites_card(count_u32(total)))
        } else {
            collection_card_json
        },
        needs_favourites: false,
    })
}

/// Any listing from every restaurant delivering to `location`: those passing `filters`, the
/// collection's rule and the `only` set, in `sort_by` order up to `page_end`, the counts around
/// the page, and the collection's card.
fn everyone<'a>(
    (areas, index, themes): (
        &'a DeliveryAreas,
        &'a ListingIndex,
        &[(Collection, Filters)],
    ),
    location: Point,
    (filters, collection, only): (&Filters, Option<&Collection>, Option<&[u64]>),
    sort_by: Sort,
    page_end: usize,
) -> Result<(Gathered<'a>, Option<CollectionCard>), ListingError> {
    let all: Vec<Candidate<'_>> = areas
        .delivering_to(location)
        .into_iter()
        // A restaurant in the delivery index always has facts (same table, same start); skip
        // rather than fail if an operator's hand edit broke that.
        .filter_map(|d| Some(Candidate::new(d, index.at(d.position)?)))
        .collect();
    let mut counts = Counts::new(index.facts(), themes.len());
    for c in &all {
        counts.add(c, themes);
    }
    let collection_card = collection.map(|c| {
        let rule = Filters::of(c);
        CollectionCard {
            collection_id: c.id,
            title: c.title.clone(),
            description: c.description.clone(),
            restaurants: count_u32(all.iter().filter(|a| rule.matches(a)).count()),
            image_id: c.image_id(),
        }
    });
    if collection_card
        .as_ref()
        .is_some_and(|card| counts.total > 0 && card.restaurants == 0)
    {
        return Err(ListingError::EmptyCollection);
    }
    let rules = match collection {
        Some(c) => filters.and(&Filters::of(c)),
        None => vec![filters.clone()],
    };
    let mut chosen: Vec<Candidate<'_>> = all
        .into_iter()
        .filter(|c| {
            only.is_none_or(|ids| ids.contains(&c.delivering.listing.id))
                && rules.iter().all(|f| f.matches(c))
        })
        .collect();
    sort_first(&mut chosen, sort_by, page_end);
    let total = chosen.len();
    Ok((
        Gathered {
            chosen,
            total,
            counts,
        },
        collection_card,
    ))
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
