//! Where an order is, as the tracking page reads it (`order/trackV2`, and each event of
//! `order/track-stream`): the orders service's `TrackOrderResponse` in the storefront's tracking
//! shape. Only wording the page needs and the service does not send is made here (the ETA's
//! "24 mins", the call link); whether the order has ended, its words and its ETA are the service's.

use serde::Serialize;
use tiffin_proto::orders::v1::{GeoPoint, Rider, TrackOrderResponse};

use crate::routes::orders::reply::{StatusChangeJson, status_history};

/// The marker the map draws for a rider.
const RIDER_MARKER: &str = "rider";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OrderTracking)]
pub struct TrackingJson {
    order_id: String,
    /// AWAITING_PAYMENT, PLACED, ACCEPTED, PREPARING, RIDER_ASSIGNED, PICKED_UP, ARRIVING,
    /// DELIVERED, CANCELLED or ABANDONED.
    order_status: String,
    /// The same status, where the tracking page reads it.
    status_code: String,
    /// No further change will come (DELIVERED, CANCELLED, ABANDONED): stop asking.
    terminal: bool,
    restaurant_name: String,
    configuration: TrackingConfigurationJson,
    map_details: MapDetailsJson,
    order_status_details: OrderStatusDetailsJson,
    /// Every status the order went through, oldest first.
    status_history: Vec<StatusChangeJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingConfiguration)]
pub struct TrackingConfigurationJson {
    /// How often to ask again (`order/trackV2`); 0 once the order ended.
    polling_interval_seconds: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingMap)]
pub struct MapDetailsJson {
    /// Both the restaurant and the delivery point are known.
    show_map: bool,
    /// `waypoints` has the rider's road ahead.
    show_polyline: bool,
    /// A rider is on the map.
    show_connector: bool,
    /// `null` until a rider is assigned, after delivery, and while the rider's position is unknown.
    rider: Option<RiderMarkerJson>,
    /// The restaurant; `null` when unknown.
    source: Option<MapPointJson>,
    /// The delivery point; `null` when unknown.
    destination: Option<MapPointJson>,
    /// The rider's road ahead: to the restaurant, then to the customer.
    waypoints: Vec<MapPointJson>,
}

#[derive(Debug, PartialEq, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingRider)]
pub struct RiderMarkerJson {
    /// Always `rider`.
    marker_image_id: &'static str,
    /// The rider's name.
    marker_annotation: String,
    location: MapPointJson,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
#[schema(as = MapPoint)]
pub struct MapPointJson {
    latitude: f64,
    longitude: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingStatusDetails)]
pub struct OrderStatusDetailsJson {
    /// "Order Received", "Preparing", …, "Order Cancelled".
    status_tag_text: String,
    /// A sentence about the status; `''` when there is none.
    status_message: String,
    /// "24 mins" ("1 min"); `''` once the order ended.
    eta_text: String,
    /// What the ETA waits on ("Your food is being prepared", "2.1 km away").
    eta_subtext: String,
    /// The status message as the page's message list: one entry, or none when there is no message.
    messages: Vec<TrackingMessageJson>,
    /// The call-the-restaurant link; `null` when its phone number is unknown.
    delivery_instruction_details: Option<DeliveryInstructionJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingMessage)]
pub struct TrackingMessageJson {
    body: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = TrackingDeliveryInstruction)]
pub struct DeliveryInstructionJson {
    /// `/call?phoneNumber=<the restaurant's number, URL-encoded>`.
    secondary_cta_link: String,
}

fn point(p: GeoPoint) -> MapPointJson {
    MapPointJson {
        latitude: p.lat,
        longitude: p.lng,
    }
}

/// The rider's marker. A rider whose position is not known yet cannot be drawn, so the map shows
/// none (and no connector) until it is.
fn rider_marker(rider: Option<Rider>) -> Option<RiderMarkerJson> {
    let rider = rider?;
    Some(RiderMarkerJson {
        marker_image_id: RIDER_MARKER,
        marker_annotation: rider.name,
        location: point(rider.location?),
    })
}

/// "24 mins", "1 min"; `''` without an ETA.
pub fn eta_text(eta_minutes: Option<u32>) -> String {
    match eta_minutes {
        None => String::new(),
        Some(1) => "1 min".into(),
        Some(n) => format!("{n} mins"),
    }
}

/// The link the page's "call" button opens: `/call?phoneNumber=%2B918041234567`.
pub fn call_link(phone: &str) -> String {
    format!("/call?phoneNumber={}", query_encode(phone))
}

/// Percent-encodes everything but RFC 3986's unreserved characters, so a `+` in a phone number
/// is not read back as a space.
fn query_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len() * 3);
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

pub fn tracking_json(t: TrackOrderResponse) -> TrackingJson {
    let source = t.source.map(point);
    let destination = t.destination.map(point);
    let waypoints: Vec<MapPointJson> = t.waypoints.into_iter().map(point).collect();
    let rider = rider_marker(t.rider);
    let messages = if t.status_message.is_empty() {
        Vec::new()
    } else {
        vec![TrackingMessageJson {
            body: t.status_message.clone(),
        }]
    };
    TrackingJson {
        order_id: t.order_id.to_string(),
        status_code: t.order_status.clone(),
        order_status: t.order_status,
        terminal: t.terminal,
        restaurant_name: t.restaurant_name,
        configuration: TrackingConfigurationJson {
            polling_interval_seconds: t.polling_interval_seconds,
        },
        map_details: MapDetailsJson {
            show_map: source.is_some() && destination.is_some(),
            show_polyline: !waypoints.is_empty(),
            show_connector: rider.is_some(),
            rider,
            source,
            destination,
            waypoints,
        },
        order_status_details: OrderStatusDetailsJson {
            status_tag_text: t.status_tag_text,
            status_message: t.status_message,
            eta_text: eta_text(t.eta_minutes),
            eta_subtext: t.eta_subtext,
            messages,
            delivery_instruction_details: (!t.restaurant_phone.is_empty()).then(|| {
                DeliveryInstructionJson {
                    secondary_cta_link: call_link(&t.restaurant_phone),
                }
            }),
        },
        status_history: status_history(t.status_history),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tiffin_proto::orders::v1::StatusChange;

    use super::*;

    fn at(lat: f64, lng: f64) -> GeoPoint {
        GeoPoint { lat, lng }
    }

    /// An order on its way: a rider heading to the restaurant, an ETA, the restaurant's phone.
    fn on_its_way() -> TrackOrderResponse {
        TrackOrderResponse {
            order_id: 123,
            order_status: "RIDER_ASSIGNED".into(),
            terminal: false,
            restaurant_name: "Meghana Foods".into(),
            status_tag_text: "Rider Assigned".into(),
            status_message: "Ravi is on the way to the restaurant".into(),
            eta_minutes: Some(24),
            eta_subtext: "2.1 km away".into(),
            polling_interval_seconds: 30,
            source: Some(at(12.93, 77.62)),
            destination: Some(at(12.94, 77.63)),
            rider: Some(Rider {
                name: "Ravi".into(),
                phone: "+919800000000".into(),
                location: Some(at(12.925, 77.615)),
            }),
            waypoints: vec![at(12.925, 77.615), at(12.93, 77.62), at(12.94, 77.63)],
            restaurant_phone: "+918041234567".into(),
            status_history: vec![StatusChange {
                order_status: "PLACED".into(),
                changed_at: 1_700_000_000,
            }],
            as_of_ms: 1_700_000_100_000,
        }
    }

    fn shaped(t: TrackOrderResponse) -> Value {
        serde_json::to_value(tracking_json(t)).unwrap()
    }

    #[test]
    fn an_order_on_its_way_has_every_field_of_the_tracking_page() {
        let v = shaped(on_its_way());

        assert_eq!(
            v,
            json!({
                "order_id": "123",
                "order_status": "RIDER_ASSIGNED",
                "status_code": "RIDER_ASSIGNED",
                "terminal": false,
                "restaurant_name": "Meghana Foods",
                "configuration": { "polling_interval_seconds": 30 },
                "map_details": {
                    "show_map": true,
                    "show_polyline": true,
                    "show_connector": true,
                    "rider": { "marker_image_id": "rider", "marker_annotation": "Ravi",
                               "location": { "latitude": 12.925, "longitude": 77.615 } },
                    "source": { "latitude": 12.93, "longitude": 77.62 },
                    "destination": { "latitude": 12.94, "longitude": 77.63 },
                    "waypoints": [
                        { "latitude": 12.925, "longitude": 77.615 },
                        { "latitude": 12.93, "longitude": 77.62 },
                        { "latitude": 12.94, "longitude": 77.63 }
                    ]
                },
                "order_status_details": {
                    "status_tag_text": "Rider Assigned",
                    "status_message": "Ravi is on the way to the restaurant",
                    "eta_text": "24 mins",
                    "eta_subtext": "2.1 km away",
                    "messages": [{ "body": "Ravi is on the way to the restaurant" }],
                    "delivery_instruction_details": {
                        "secondary_cta_link": "/call?phoneNumber=%2B918041234567"
                    }
                },
                "status_history": [{ "order_status": "PLACED", "changed_at": "2023-11-14T22:13:20Z" }]
            })
        );
        assert!(
            !v.to_string().contains("+919800000000"),
            "the rider's phone stays with the service"
        );
    }

    #[test]
    fn a_placed_order_without_a_rider_or_a_message_shows_no_marker_and_no_messages() {
        let t = TrackOrderResponse {
            order_status: "PLACED".into(),
            status_tag_text: "Order Received".into(),
            status_message: String::new(),
            rider: None,
            waypoints: Vec::new(),
            ..on_its_way()
        };

        let v = shaped(t);

        let map = &v["map_details"];
        assert_eq!(map["rider"], Value::Null);
        assert_eq!(
            (
                &map["show_connector"],
                &map["show_polyline"],
                &map["show_map"]
            ),
            (&json!(false), &json!(false), &json!(true))
        );
        assert_eq!(map["waypoints"], json!([]));
        assert_eq!(v["order_status_details"]["messages"], json!([]));
        assert_eq!(v["order_status_details"]["status_message"], "");
    }

    #[test]
    fn an_order_without_its_places_has_no_map() {
        let t = TrackOrderResponse {
            source: None,
            ..on_its_way()
        };

        let v = shaped(t);

        assert_eq!(v["map_details"]["show_map"], false);
        assert_eq!(v["map_details"]["source"], Value::Null);
        assert_eq!(v["map_details"]["destination"]["latitude"], 12.94);
    }

    #[test]
    fn a_rider_whose_position_is_unknown_is_not_drawn() {
        let mut t = on_its_way();
        t.rider.as_mut().unwrap().location = None;

        let v = shaped(t);

        assert_eq!(v["map_details"]["rider"], Value::Null);
        assert_eq!(v["map_details"]["show_connector"], false);
    }

    #[test]
    fn an_ended_order_has_no_eta_and_no_call_link_without_a_phone() {
        let t = TrackOrderResponse {
            order_status: "DELIVERED".into(),
            terminal: true,
            eta_minutes: None,
            polling_interval_seconds: 0,
            rider: None,
            restaurant_phone: String::new(),
            ..on_its_way()
        };

        let v = shaped(t);

        assert_eq!(v["terminal"], true);
        assert_eq!(v["configuration"]["polling_interval_seconds"], 0);
        assert_eq!(v["order_status_details"]["eta_text"], "");
        assert_eq!(
            v["order_status_details"]["delivery_instruction_details"],
            Value::Null
        );
    }

    #[test]
    fn the_eta_reads_in_minutes_with_one_minute_singular() {
        assert_eq!(eta_text(Some(24)), "24 mins");
        assert_eq!(eta_text(Some(1)), "1 min");
        assert_eq!(eta_text(Some(0)), "0 mins");
        assert_eq!(eta_text(None), "");
    }

    #[test]
    fn the_call_link_encodes_the_number_so_its_plus_survives() {
        assert_eq!(
            call_link("+918041234567"),
            "/call?phoneNumber=%2B918041234567"
        );
        assert_eq!(
            call_link("080 4123&x=1"),
            "/call?phoneNumber=080%204123%26x%3D1"
        );
    }
}
