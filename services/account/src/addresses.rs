//! Saved addresses: the `addresses` table and the `ListAddresses`, `GetAddress`, `SaveAddress` and
//! `DeleteAddress` RPCs.
//!
//! Rules:
//! - Every query is scoped by the caller's user id in SQL: another user's address id is
//!   indistinguishable from an unknown one ('Address not found').
//! - At most one HOME and one WORK: saving another moves the previous one to OTHER, in the same
//!   transaction as the save.
//! - The flat number is placed at the start of the address line, any duplicate of it there
//!   removed ([`place_flat`]); the city is normalised (the gazetteer's [`normalise_city`], so an
//!   address's city matches discovery's slugs); the contact number
//!   defaults to the user's; text is sanitised and bounded.
//! - Listed newest first (by a per-user sequence, so two saves in one second still order).

use sqlx::{Any, Row, Transaction};
use tiffin_geo::normalise_city;
use tiffin_platform::identity::Caller;
use tiffin_platform::text::free_text;
use tiffin_proto::account::v1::{Address, Annotation, SaveAddressRequest, SaveAddressResponse};

use crate::ctx::{Ctx, user_of};
use crate::error::Error;
use crate::otp;
use crate::profile;
use crate::tokens;

/// Addresses one user may keep.
pub const MAX_ADDRESSES: i64 = 50;

/// Longest value of each text field, in characters.
const LIMITS: [(&str, usize); 6] = [
    ("address", 300),
    ("area", 100),
    ("flat number", 100),
    ("landmark", 150),
    ("instructions", 300),
    ("city", 60),
];

const COLUMNS: &str = "id, annotation, address, area, flat_no, landmark, lat, lng, mobile, \
                       instructions, city, updated_at";

/// The stored word for an annotation; anything but home and work is other.
fn annotation_word(annotation: Annotation) -> &'static str {
    match annotation {
        Annotation::Home => "HOME",
        Annotation::Work => "WORK",
        Annotation::Other | Annotation::Unspecified => "OTHER",
    }
}

fn annotation_of(word: &str) -> Annotation {
    match word {
        "HOME" => Annotation::Home,
        "WORK" => Annotation::Work,
        _ => Annotation::Other,
    }
}

/// Removes leading copies of `flat` (case-insensitively, each followed by a comma, a space or the
/// end) from `text`.
fn strip_flat_prefix<'a>(mut text: &'a str, flat: &str) -> &'a str {
    if flat.is_empty() {
        return text;
    }
    loop {
        let Some(head) = text.get(..flat.len()) else {
            return text;
        };
        if !head.eq_ignore_ascii_case(flat) && head.to_lowercase() != flat.to_lowercase() {
            return text;
        }
        let rest = &text[flat.len()..];
        if !(rest.is_empty() || rest.starts_with(',') || rest.starts_with(char::is_whitespace)) {
            return text;
        }
        text = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
    }
}

/// The address line with the flat number at its start, written once: `"4B", "12 Main Rd"` and
/// `"4B", "4B, 12 Main Rd"` both give `"4B, 12 Main Rd"`. `previous_flat` (when editing) is also
/// removed from the start, so changing the flat number does not leave the old one behind.
pub fn place_flat(flat: &str, address: &str, previous_flat: Option<&str>) -> String {
    let flat = flat.trim();
    let mut rest = address.trim();
    loop {
        let before = rest;
        rest = strip_flat_prefix(rest, flat);
        if let Some(previous) = previous_flat {
            rest = strip_flat_prefix(rest, previous.trim());
        }
        if rest == before {
            break;
        }
    }
    match (flat.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (false, true) => flat.to_string(),
        (false, false) => format!("{flat}, {rest}"),
    }
}

/// Whether `id` has the shape of an address id (so junk never reaches the database).
fn is_address_id(id: &str) -> bool {
    id.len() == tokens::ID_BYTES * 2
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The checked, cleaned fields of an address to save (the id is handled by [`save`]).
fn clean(sent: &Address, default_mobile: &str) -> Result<Address, Error> {
    let address = free_text(&sent.address);
    if address.is_empty() {
        return Err(Error::Invalid("Please enter your address.".into()));
    }
    let located = sent.lat.is_finite()
        && sent.lng.is_finite()
        && (-90.0..=90.0).contains(&sent.lat)
        && (-180.0..=180.0).contains(&sent.lng)
        && !(sent.lat == 0.0 && sent.lng == 0.0);
    if !located {
        return Err(Error::Invalid("Please select a location.".into()));
    }
    let flat_no = free_text(&sent.flat_no);
    if flat_no.is_empty() {
        return Err(Error::Invalid("Please enter your flat number.".into()));
    }
    let cleaned = Address {
        id: String::new(),
        annotation: sent.annotation,
        address,
        area: free_text(&sent.area),
        flat_no,
        landmark: free_text(&sent.landmark),
        lat: sent.lat,
        lng: sent.lng,
        mobile: if sent.mobile.trim().is_empty() {
            default_mobile.to_string()
        } else {
            otp::normalise_mobile(&sent.mobile)?
        },
        instructions: free_text(&sent.instructions),
        city: normalise_city(&sent.city),
        updated_at: 0,
    };
    let values = [
        &cleaned.address,
        &cleaned.area,
        &cleaned.flat_no,
        &cleaned.landmark,
        &cleaned.instructions,
        &cleaned.city,
    ];
    for ((field, max), value) in LIMITS.iter().zip(values) {
        if value.chars().count() > *max {
            return Err(Error::Invalid(format!(
                "Please enter a {field} of at most {max} characters."
            )));
        }
    }
    Ok(cleaned)
}

fn from_row(row: &sqlx::any::AnyRow) -> Result<Address, Error> {
    let annotation: String = row.try_get("annotation")?;
    Ok(Address {
        id: row.try_get("id")?,
        annotation: annotation_of(&annotation).into(),
        address: row.try_get("address")?,
        area: row.try_get("area")?,
        flat_no: row.try_get("flat_no")?,
        landmark: row.try_get("landmark")?,
        lat: row.try_get("lat")?,
        lng: row.try_get("lng")?,
        mobile: row.try_get("mobile")?,
        instructions: row.try_get("instructions")?,
        city: row.try_get("city")?,
        updated_at: row.try_get("updated_at")?,
    })
}

/// The user's addresses, newest first.
async fn list<'e>(
    db: impl sqlx::Executor<'e, Database = Any>,
    user_id: i64,
) -> Result<Vec<Address>, Error> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM addresses WHERE user_id = $1 ORDER BY seq DESC"
    )))
    .bind(user_id)
    .fetch_all(db)
    .await?;
    rows.iter().map(from_row).collect()
}

/// `ListAddresses`.
pub async fn list_for(ctx: &Ctx, caller: &Caller) -> Result<Vec<Address>, Error> {
    list(&ctx.pool, user_of(caller)?).await
}

/// `GetAddress`.
pub async fn get(ctx: &Ctx, caller: &Caller, id: &str) -> Result<Address, Error> {
    let user_id = user_of(caller)?;
    if !is_address_id(id) {
        return Err(Error::AddressNotFound);
    }
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM addresses WHERE id = $1 AND user_id = $2"
    )))
    .bind(id)
    .bind(user_id)
    .fetch_optional(&ctx.pool)
    .await?
    .ok_or(Error::AddressNotFound)?;
    from_row(&row)
}

/// The flat number stored for one of the user's addresses; [`Error::AddressNotFound`] when the id
/// is not theirs.
async fn stored_flat(
    tx: &mut Transaction<'_, Any>,
    user_id: i64,
    id: &str,
) -> Result<String, Error> {
    if !is_address_id(id) {
        return Err(Error::AddressNotFound);
    }
    let row = sqlx::query("SELECT flat_no FROM addresses WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or(Error::AddressNotFound)?;
    Ok(row.try_get("flat_no")?)
}

/// `SaveAddress`: adds (no id) or replaces one of the caller's addresses.
pub async fn save(
    ctx: &Ctx,
    caller: &Caller,
    request: SaveAddressRequest,
) -> Result<SaveAddressResponse, Error> {
    let user_id = user_of(caller)?;
    let user = profile::load(&ctx.pool, user_id)
        .await?
        .ok_or(Error::NotSignedIn)?;
    let sent = request.address.unwrap_or_default();
    let mut address = clean(&sent, &user.mobile)?;
    let now = ctx.now();
    let annotation = annotation_word(sent.annotation());
    address.annotation = annotation_of(annotation).into();
    address.updated_at = now;

    let mut tx = ctx.pool.begin().await?;
    profile::lock_user(&mut tx, user_id).await?;
    let id = sent.id.trim();
    let editing = !id.is_empty();
    if editing {
        let previous_flat = stored_flat(&mut tx, user_id, id).await?;
        address.id = id.to_string();
        address.address = place_flat(&address.flat_no, &address.address, Some(&previous_flat));
    } else {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS seq FROM addresses WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let (count, seq): (i64, i64) = (row.try_get("n")?, row.try_get("seq")?);
        if count >= MAX_ADDRESSES {
            return Err(Error::Invalid(format!(
                "You can save up to {MAX_ADDRESSES} addresses. Please delete one first."
            )));
        }
        address.id = tokens::id()?;
        address.address = place_flat(&address.flat_no, &address.address, None);
        sqlx::query(
            "INSERT INTO addresses (id, user_id, seq, annotation, address, area, flat_no, landmark, \
             lat, lng, mobile, instructions, city, created_at, updated_at) \
             VALUES ($1, $2, $3, 'OTHER', '', '', '', '', 0, 0, '', '', '', $4, $4)",
        )
        .bind(&address.id)
        .bind(user_id)
        .bind(seq + 1)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    if annotation != "OTHER" {
        sqlx::query(
            "UPDATE addresses SET annotation = 'OTHER', updated_at = $1 \
             WHERE user_id = $2 AND annotation = $3 AND id <> $4",
        )
        .bind(now)
        .bind(user_id)
        .bind(annotation)
        .bind(&address.id)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(
        "UPDATE addresses SET annotation = $1, address = $2, area = $3, flat_no = $4, \
         landmark = $5, lat = $6, lng = $7, mobile = $8, instructions = $9, city = $10, \
         updated_at = $11 WHERE id = $12 AND user_id = $13",
    )
    .bind(annotation)
    .bind(&address.address)
    .bind(&address.area)
    .bind(&address.flat_no)
    .bind(&address.landmark)
    .bind(address.lat)
    .bind(address.lng)
    .bind(&address.mobile)
    .bind(&address.instructions)
    .bind(&address.city)
    .bind(now)
    .bind(&address.id)
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    let addresses = list(&mut *tx, user_id).await?;
    tx.commit().await?;
    Ok(SaveAddressResponse {
        address: Some(address),
        addresses,
    })
}

/// `DeleteAddress`: the caller's remaining addresses.
pub async fn delete(ctx: &Ctx, caller: &Caller, id: &str) -> Result<Vec<Address>, Error> {
    let user_id = user_of(caller)?;
    if !is_address_id(id) {
        return Err(Error::AddressNotFound);
    }
    let mut tx = ctx.pool.begin().await?;
    let done = sqlx::query("DELETE FROM addresses WHERE id = $1 AND user_id = $2")
        .bind(id)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() == 0 {
        return Err(Error::AddressNotFound);
    }
    let addresses = list(&mut *tx, user_id).await?;
    tx.commit().await?;
    Ok(addresses)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_number_goes_first_and_only_once() {
        assert_eq!(place_flat("4B", "12 Main Rd", None), "4B, 12 Main Rd");
        assert_eq!(place_flat("4B", "4B, 12 Main Rd", None), "4B, 12 Main Rd");
        assert_eq!(place_flat("4B", "4b 12 Main Rd", None), "4B, 12 Main Rd");
        assert_eq!(
            place_flat("4B", "4B, 4B, 12 Main Rd", None),
            "4B, 12 Main Rd"
        );
        assert_eq!(
            place_flat("Flat 4B", "Flat 4B, 12 1st Cross, Koramangala", None),
            "Flat 4B, 12 1st Cross, Koramangala"
        );
    }

    #[test]
    fn a_flat_number_that_is_only_the_start_of_a_word_is_not_a_duplicate() {
        assert_eq!(place_flat("4", "42 Main Rd", None), "4, 42 Main Rd");
    }

    #[test]
    fn editing_the_flat_number_replaces_the_old_one() {
        assert_eq!(
            place_flat("5C", "4B, 12 Main Rd", Some("4B")),
            "5C, 12 Main Rd"
        );
    }

    #[test]
    fn an_address_of_only_the_flat_number_is_the_flat_number() {
        assert_eq!(place_flat("4B", "4B", None), "4B");
    }

    #[test]
    fn cities_are_normalised_to_the_gazetteers_slugs() {
        for (raw, slug) in [
            ("Bengaluru", "bangalore"),
            ("thane", "mumbai"),
            ("New  Delhi", "delhi"),
            ("new-delhi", "delhi"),
            ("Gurugram", "gurgaon"),
            ("puducherry", "pondicherry"),
            ("Navi Mumbai", "navi-mumbai"),
            ("bangalore", "bangalore"),
            ("", ""),
        ] {
            assert_eq!(normalise_city(raw), slug, "{raw:?}");
        }
    }

    fn valid() -> Address {
        Address {
            address: "12 Main Rd".into(),
            flat_no: "4B".into(),
            lat: 12.93,
            lng: 77.62,
            ..Default::default()
        }
    }

    fn message(sent: Address) -> String {
        tonic::Status::from(clean(&sent, "9876543210").unwrap_err())
            .message()
            .to_string()
    }

    #[test]
    fn missing_fields_get_the_spec_messages() {
        assert_eq!(
            message(Address {
                address: " ".into(),
                ..valid()
            }),
            "Please enter your address."
        );
        assert_eq!(
            message(Address {
                lat: 0.0,
                lng: 0.0,
                ..valid()
            }),
            "Please select a location."
        );
        assert_eq!(
            message(Address {
                lat: f64::NAN,
                ..valid()
            }),
            "Please select a location."
        );
        assert_eq!(
            message(Address {
                flat_no: "".into(),
                ..valid()
            }),
            "Please enter your flat number."
        );
        assert_eq!(
            message(Address {
                landmark: "x".repeat(151),
                ..valid()
            }),
            "Please enter a landmark of at most 150 characters."
        );
        assert_eq!(
            message(Address {
                mobile: "123".into(),
                ..valid()
            }),
            "Enter a valid 10-digit mobile number."
        );
    }

    #[test]
    fn the_contact_number_defaults_to_the_users() {
        let cleaned = clean(&valid(), "9876543210").unwrap();
        assert_eq!(cleaned.mobile, "9876543210");
    }
}
