//! Favourite restaurants: the `favourites` table and the `SetFavourite` / `ListFavourites` RPCs.
//!
//! Marking is idempotent (marking a favourite again changes nothing, unmarking a restaurant that
//! is not one is fine); the list is most recently marked first. Whether a restaurant exists is the
//! edge's to check with discovery: this service only refuses ids no restaurant can have.

use sqlx::Row;
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{SetFavouriteRequest, SetFavouriteResponse};

use crate::ctx::{Ctx, user_of};
use crate::error::Error;

/// Favourites one user may keep.
pub const MAX_FAVOURITES: i64 = 500;

/// `SetFavourite`.
pub async fn set(
    ctx: &Ctx,
    caller: &Caller,
    request: SetFavouriteRequest,
) -> Result<SetFavouriteResponse, Error> {
    let user_id = user_of(caller)?;
    let restaurant_id = i64::try_from(request.restaurant_id)
        .ok()
        .filter(|id| *id > 0)
        .ok_or(Error::RestaurantNotFound)?;
    let mut tx = ctx.pool.begin().await?;
    crate::profile::lock_user(&mut tx, user_id).await?;
    if request.favourite {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(MAX(seq), 0) AS seq FROM favourites WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        let (count, seq): (i64, i64) = (row.try_get("n")?, row.try_get("seq")?);
        let known = sqlx::query(
            "SELECT 1 AS one FROM favourites WHERE user_id = $1 AND restaurant_id = $2",
        )
        .bind(user_id)
        .bind(restaurant_id)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
        if !known {
            if count >= MAX_FAVOURITES {
                return Err(Error::Invalid(format!(
                    "You can keep up to {MAX_FAVOURITES} favourites. Please remove one first."
                )));
            }
            sqlx::query(
                "INSERT INTO favourites (user_id, restaurant_id, seq, created_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, restaurant_id) DO NOTHING",
            )
            .bind(user_id)
            .bind(restaurant_id)
            .bind(seq + 1)
            .bind(ctx.now())
            .execute(&mut *tx)
            .await?;
        }
    } else {
        sqlx::query("DELETE FROM favourites WHERE user_id = $1 AND restaurant_id = $2")
            .bind(user_id)
            .bind(restaurant_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(SetFavouriteResponse {
        restaurant_id: request.restaurant_id,
        favourite: request.favourite,
    })
}

/// `ListFavourites`: restaurant ids, most recently marked first.
pub async fn list(ctx: &Ctx, caller: &Caller) -> Result<Vec<u64>, Error> {
    let user_id = user_of(caller)?;
    let rows =
        sqlx::query("SELECT restaurant_id FROM favourites WHERE user_id = $1 ORDER BY seq DESC")
            .bind(user_id)
            .fetch_all(&ctx.pool)
            .await?;
    rows.iter()
        .map(|row| {
            let id: i64 = row.try_get("restaurant_id")?;
            Ok(u64::try_from(id).unwrap_or_default())
        })
        .collect()
}
