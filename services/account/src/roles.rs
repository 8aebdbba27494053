//! Roles: what a user may do beyond ordering for themselves. The `user_roles` table; granted by
//! an operator ([`grant`], the edge's admin listener) and read with every session look-up
//! ([`of_user`]), which is how the edge learns that a signed-in visitor is a support agent.

use sqlx::{AnyPool, Row};
use tiffin_platform::identity::Role;
use tiffin_proto::account::v1::{GrantRoleRequest, GrantRoleResponse};

use crate::error::Error;
use crate::otp;

/// The names of the roles `user_id` holds, sorted.
pub async fn of_user<'e, E>(executor: E, user_id: u64) -> Result<Vec<String>, Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let Ok(stored) = i64::try_from(user_id) else {
        return Ok(Vec::new());
    };
    let rows = sqlx::query("SELECT role FROM user_roles WHERE user_id = $1 ORDER BY role")
        .bind(stored)
        .fetch_all(executor)
        .await?;
    rows.iter()
        .map(|row| row.try_get::<String, _>("role").map_err(Error::from))
        .collect()
}

/// Grants `request.role` to whoever signed up with `request.mobile`; granting it again is the same.
pub async fn grant(
    pool: &AnyPool,
    now: i64,
    request: GrantRoleRequest,
) -> Result<GrantRoleResponse, Error> {
    let role = Role::named(request.role.trim()).ok_or_else(|| {
        Error::Invalid(format!(
            "There is no role called '{}'.",
            request.role.trim()
        ))
    })?;
    let mobile = otp::normalise_mobile(&request.mobile)?;
    let user: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE mobile = $1")
        .bind(&mobile)
        .fetch_optional(pool)
        .await?;
    let user_id = user.ok_or(Error::NoSuchUser)?;
    sqlx::query(
        "INSERT INTO user_roles (user_id, role, granted_at) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id, role) DO NOTHING",
    )
    .bind(user_id)
    .bind(role.name())
    .bind(now)
    .execute(pool)
    .await?;
    tracing::info!(user_id, role = role.name(), "role granted");
    Ok(GrantRoleResponse {
        user_id: u64::try_from(user_id).unwrap_or_default(),
    })
}
