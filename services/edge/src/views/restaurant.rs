//! The contract's Restaurant: the one shape of a restaurant card, written from discovery's
//! `RestaurantCard` for the listing, city pages, search, favourites and the menu's header alike, so
//! a restaurant looks the same everywhere.

use serde::Serialize;
use tiffin_proto::discovery::v1::{RestaurantCard, Sla};

/// The contract's Restaurant.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Restaurant)]
pub struct RestaurantJson {
    id: String,
    name: String,
    slug: String,
    city: String,
    area_name: String,
    locality: String,
    cloudinary_image_id: String,
    cuisines: Vec<String>,
    /// Cost for two, in integer paise.
    cost_for_two: i64,
    /// Out of 5, one decimal; `null` when unrated.
    #[schema(required)]
    avg_rating: Option<f64>,
    /// `4.3`, or `--` when unrated.
    avg_rating_string: String,
    total_ratings_string: String,
    /// The delivery estimate to the visitor's point (zeros and an empty `slaString` without one).
    sla: SlaJson,
    availability: Availability,
    veg_only: bool,
    /// The restaurant's offer headline; `null` without an offer.
    #[schema(required)]
    aggregated_discount_info: Option<DiscountInfo>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Sla)]
struct SlaJson {
    min_delivery_time: u32,
    max_delivery_time: u32,
    delivery_time: u32,
    /// Kilometres, one decimal.
    last_mile_travel: f64,
    sla_string: String,
    serviceability: SlaServiceability,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
struct Availability {
    opened: bool,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DiscountInfo {
    short_description_list: Vec<DiscountLine>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
struct DiscountLine {
    meta: String,
}

/// Whether the restaurant delivers to the visitor's point (`SERVICEABLE` when no point was given).
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SlaServiceability {
    Serviceable,
    NonServiceable,
}

/// A listed restaurant: `{ "type": "RESTAURANT", "data": <Restaurant> }`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = RestaurantCard)]
pub struct RestaurantCardJson {
    #[serde(rename = "type")]
    kind: RestaurantKind,
    data: RestaurantJson,
}

/// The one kind of a restaurant card.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
pub enum RestaurantKind {
    #[serde(rename = "RESTAURANT")]
    Restaurant,
}

/// The card of a listed restaurant.
pub fn restaurant_card(data: RestaurantJson) -> RestaurantCardJson {
    RestaurantCardJson {
        kind: RestaurantKind::Restaurant,
        data,
    }
}

/// The Restaurant JSON of a card; `None` for a card without a restaurant (never sent by a
/// well-behaved discovery, and not worth failing a whole listing for).
pub fn restaurant_json(card: &RestaurantCard) -> Option<RestaurantJson> {
    let r = card.restaurant.as_ref()?;
    // A rating of zero is no rating: both show '--', never a restaurant rated 0.
    let rating = r.rating_tenths.filter(|t| *t > 0);
    Some(RestaurantJson {
        id: r.id.to_string(),
        name: r.name.clone(),
        slug: r.slug.clone(),
        city: r.city.clone(),
        area_name: r.area_name.clone(),
        // A restaurant without a street line is placed by its area, the next most precise name.
        locality: if r.locality.is_empty() {
            r.area_name.clone()
        } else {
            r.locality.clone()
        },
        cloudinary_image_id: r.image_id.clone(),
        cuisines: r.cuisines.clone(),
        cost_for_two: r.cost_for_two_paise,
        avg_rating: rating.map(|t| f64::from(t) / 10.0),
        avg_rating_string: rating
            .map_or_else(|| "--".to_string(), |t| format!("{}.{}", t / 10, t % 10)),
        total_ratings_string: total_ratings_string(r.total_ratings),
        sla: sla_json(card.sla.as_ref()),
        availability: Availability { opened: r.opened },
        veg_only: r.veg_only,
        aggregated_discount_info: (!r.offer_text.is_empty()).then(|| DiscountInfo {
            short_description_list: vec![DiscountLine {
                meta: r.offer_text.clone(),
            }],
        }),
    })
}

fn sla_json(sla: Option<&Sla>) -> SlaJson {
    match sla {
        Some(sla) => SlaJson {
            min_delivery_time: sla.min_delivery_minutes,
            max_delivery_time: sla.max_delivery_minutes,
            delivery_time: (sla.min_delivery_minutes + sla.max_delivery_minutes).div_ceil(2),
            last_mile_travel: (sla.distance_km * 10.0).round() / 10.0,
            sla_string: format!(
                "{}-{} MINS",
                sla.min_delivery_minutes, sla.max_delivery_minutes
            ),
            serviceability: if sla.serviceable {
                SlaServiceability::Serviceable
            } else {
                SlaServiceability::NonServiceable
            },
        },
        // No delivery point was given (a menu opened without a location): no estimate to show,
        // and nothing known against delivering; the web app asks for a location before checkout.
        None => SlaJson {
            min_delivery_time: 0,
            max_delivery_time: 0,
            delivery_time: 0,
            last_mile_travel: 0.0,
            sla_string: String::new(),
            serviceability: SlaServiceability::Serviceable,
        },
    }
}

/// "1K+ ratings" and its smaller siblings: exact below 100, then rounded down so the text never
/// claims more ratings than there are.
fn total_ratings_string(n: u32) -> String {
    match n {
        0 => "No ratings yet".to_string(),
        1 => "1 rating".to_string(),
        2..=99 => format!("{n} ratings"),
        100..=999 => format!("{}+ ratings", n / 100 * 100),
        _ => format!("{}K+ ratings", n / 1000),
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::discovery::v1::Restaurant;

    use super::*;

    fn card(rating_tenths: Option<u32>, offer: &str, sla: Option<Sla>) -> RestaurantCard {
        RestaurantCard {
            restaurant: Some(Restaurant {
                id: 1042,
                name: "Meghana Biryani House".into(),
                slug: "meghana-biryani-house-koramangala".into(),
                city: "bangalore".into(),
                area_name: "Koramangala".into(),
                locality: "5th Block".into(),
                image_id: "restaurant-biryani-1042".into(),
                cuisines: vec!["Biryani".into(), "Andhra".into()],
                cost_for_two_paise: 40000,
                rating_tenths,
                total_ratings: 1200,
                opened: true,
                offer_text: offer.into(),
                ..Default::default()
            }),
            sla,
        }
    }

    fn json(card: &RestaurantCard) -> serde_json::Value {
        serde_json::to_value(restaurant_json(card).unwrap()).unwrap()
    }

    #[test]
    fn a_card_has_the_contract_fields_with_money_in_paise_and_ids_as_strings() {
        let sla = Sla {
            min_delivery_minutes: 25,
            max_delivery_minutes: 35,
            distance_km: 2.437,
            serviceable: true,
        };
        let v = json(&card(Some(43), "20% OFF UPTO ₹100", Some(sla)));
        assert_eq!(v["id"], "1042");
        assert_eq!(v["costForTwo"], 40000);
        assert_eq!(v["avgRating"], 4.3);
        assert_eq!(v["avgRatingString"], "4.3");
        assert_eq!(v["totalRatingsString"], "1K+ ratings");
        assert_eq!(v["cloudinaryImageId"], "restaurant-biryani-1042");
        assert_eq!(
            (v["areaName"].as_str(), v["locality"].as_str()),
            (Some("Koramangala"), Some("5th Block"))
        );
        assert_eq!(v["sla"]["slaString"], "25-35 MINS");
        assert_eq!(v["sla"]["deliveryTime"], 30);
        assert_eq!(v["sla"]["lastMileTravel"], 2.4);
        assert_eq!(v["sla"]["serviceability"], "SERVICEABLE");
        assert_eq!(v["availability"]["opened"], true);
        assert_eq!(
            v["aggregatedDiscountInfo"]["shortDescriptionList"][0]["meta"],
            "20% OFF UPTO ₹100"
        );
    }

    #[test]
    fn no_rating_or_a_zero_rating_shows_dashes() {
        for rating in [None, Some(0)] {
            let v = json(&card(rating, "", None));
            assert_eq!(v["avgRating"], serde_json::Value::Null);
            assert_eq!(v["avgRatingString"], "--");
        }
    }

    #[test]
    fn a_whole_rating_keeps_its_decimal_and_no_offer_is_null() {
        let v = json(&card(Some(40), "", None));
        assert_eq!(v["avgRatingString"], "4.0");
        assert_eq!(v["aggregatedDiscountInfo"], serde_json::Value::Null);
    }

    #[test]
    fn rating_counts_are_rounded_down() {
        assert_eq!(total_ratings_string(0), "No ratings yet");
        assert_eq!(total_ratings_string(57), "57 ratings");
        assert_eq!(total_ratings_string(999), "900+ ratings");
        assert_eq!(total_ratings_string(12_345), "12K+ ratings");
    }
}
