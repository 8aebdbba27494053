//! Tiffin One plans on sale: the `plans` and `plan_elements` tables and the `ListPlans` RPC
//! (route `GET super/plans`).
//!
//! It only reads: plans and prices are reference data changed by migrations, never by a call.
//! Prices stay integer paise from the table to the wire.

use std::collections::HashMap;

use sqlx::any::AnyRow;
use sqlx::{AnyPool, Row};
use tiffin_proto::membership::v1::{
    ListPlansRequest, ListPlansResponse, Plan, membership_service_server::MembershipService,
};
use tonic::{Request, Response, Status};

use crate::error::Error;

/// The `MembershipService` implementation.
pub struct Membership {
    pool: AnyPool,
}

/// Reads a BIGINT column that the schema keeps non-negative into an unsigned wire field.
fn unsigned<T: TryFrom<i64>>(row: &AnyRow, column: &str) -> Result<T, Error> {
    let value: i64 = row.try_get(column)?;
    T::try_from(value).map_err(|_| Error::Corrupt(format!("{column} = {value}")))
}

impl Membership {
    pub fn new(pool: AnyPool) -> Self {
        Self { pool }
    }

    /// Plans on sale in display order, each with its benefit lines in order.
    async fn plans(&self) -> Result<Vec<Plan>, Error> {
        let plan_rows = sqlx::query(
            "SELECT plan_id, plan_name, title, base_price, final_price, duration_days, recommended, recommended_text
             FROM plans
             WHERE on_sale = 1
             ORDER BY position",
        )
        .fetch_all(&self.pool)
        .await?;
        // Two queries rather than one join per line: a plan's fields are not repeated per benefit.
        let element_rows = sqlx::query(
            "SELECT e.plan_id, e.text
             FROM plan_elements e
             JOIN plans p ON p.plan_id = e.plan_id
             WHERE p.on_sale = 1
             ORDER BY e.plan_id, e.position",
        )
        .fetch_all(&self.pool)
        .await?;

        let mut elements: HashMap<u64, Vec<String>> = HashMap::new();
        for row in &element_rows {
            elements
                .entry(unsigned(row, "plan_id")?)
                .or_default()
                .push(row.try_get("text")?);
        }
        plan_rows
            .iter()
            .map(|row| {
                let plan_id: u64 = unsigned(row, "plan_id")?;
                let recommended: i64 = row.try_get("recommended")?;
                Ok(Plan {
                    plan_id,
                    plan_name: row.try_get("plan_name")?,
                    title: row.try_get("title")?,
                    base_price_paise: row.try_get("base_price")?,
                    final_price_paise: row.try_get("final_price")?,
                    duration_days: unsigned(row, "duration_days")?,
                    recommended: recommended == 1,
                    recommended_text: row.try_get("recommended_text")?,
                    plan_elements: elements.remove(&plan_id).unwrap_or_default(),
                })
            })
            .collect()
    }
}

#[tonic::async_trait]
impl MembershipService for Membership {
    async fn list_plans(
        &self,
        _request: Request<ListPlansRequest>,
    ) -> Result<Response<ListPlansResponse>, Status> {
        let plans = self.plans().await?;
        Ok(Response::new(ListPlansResponse { plans }))
    }
}
