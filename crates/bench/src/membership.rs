//! The Tiffin One benchmark: a member's cart update measured beside a non-member's, on one
//! storefront in one run, with the CPU each costs per request. Judged by the CPU: a member's
//! update may cost at most [`CPU_RATIO_AT_MOST`] times a non-member's.
//!
//! Members are made as a customer becomes one: signed up, the recommended plan put in the cart
//! (`POST /api/cart/addSubscriptionToCart`), paid for by card (`POST /api/order/place-v2`,
//! `order_type` SUBSCRIPTION, the sandbox's `4111 1111 1111 1111`), then waited for until
//! `GET /api/profile/super` says SUPER (the membership starts after the order is confirmed, through
//! the order events). Non-members are signed up the same way and buy nothing.
//!
//! Both send a cart update of 5 lines chosen as the cart update's are (from the restaurant's door)
//! for a partner restaurant in a city where Tiffin One is sold. The cart service asks the membership
//! service only when being a member would change the bill. Five lines with variants and add-ons
//! can pass ₹499 (the first such cart in Bangalore, not a partner's, came to ₹642), where delivery
//! is free for everyone and free delivery (from ₹199 within 7 km) gives a member nothing; a
//! partner's extra discount applies at any total. Before measuring, every
//! customer's first update must show it: a member's bill with its savings, a non-member's with
//! the nudge.

use std::time::Duration;

use anyhow::{Context, bail};
use futures::{StreamExt, TryStreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tiffin_catalog::{Catalogue, Restaurant};

use crate::checkout::{call, sign_up};
use crate::cpu::{CpuUse, Meter};
use crate::load::{self, Durations};
use crate::scenario::{self, Request, Scenario, Session};
use crate::stats::Stats;
use crate::storefront::Storefront;

/// A member's CPU per cart update over a non-member's must be at most this.
pub const CPU_RATIO_AT_MOST: f64 = 1.10;

/// Where the customers are: a city where Tiffin One is sold (the membership service's
/// `plan_cities`), so a plan can be bought there.
pub const CITY: &str = "bangalore";

/// What the cart service logs when it could not ask the membership service in time and priced a
/// customer as a non-member: a member's update that did that did not take the member's path.
const MEMBERSHIP_UNKNOWN: &str = "membership unknown; priced as a non-member";

/// How long a paid plan may take to become a membership.
const ACTIVATION_WAIT: Duration = Duration::from_secs(60);

/// Customers set up at once (signing up, buying): enough to be quick, few enough that set-up
/// never times out on two busy cores.
const SET_UP_AT_ONCE: usize = 8;

/// What each side's update asks of the membership service, for the report.
pub const CALLS: &str = "both: the edge's delivery context, the menu's prices, the cart written, and one membership GetStatus (being a member would change this bill); the member: GetStatus finds a running subscription and adds up its savings (one more query), the bill gets the member's lines; the non-member: GetStatus finds none, and the nudge's recommended plan comes from ListPlans, which the cart service keeps for 5 minutes (at most one call per window)";

/// The member's and the non-member's cart update on one storefront, and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MembershipResult {
    /// "Tiffin One cart update (SQLite)".
    pub name: String,
    pub detail: String,
    /// What each side asks the membership service (and everything else) per update.
    pub calls: String,
    pub member: Stats,
    pub non_member: Stats,
    /// CPU per member's update in its measured window, every process together and each.
    pub member_cpu: Option<CpuUse>,
    /// The same for the non-member's.
    pub non_member_cpu: Option<CpuUse>,
    /// Member CPU per request ÷ non-member's; `None` when either was not measured.
    pub cpu_ratio: Option<f64>,
    pub at_most: f64,
    /// What a member saved on the cart (paise) and the non-member's nudge said, as checked before
    /// measuring.
    pub member_savings_paise: i64,
    pub nudge: String,
    /// Times the cart service priced someone as a non-member because the membership service did
    /// not answer in time, in the whole run (set-up included); `None` when the log was unreadable.
    pub membership_unknown: Option<u64>,
    pub pass: bool,
}

impl MembershipResult {
    #[allow(clippy::too_many_arguments)]
    fn judge(
        name: String,
        detail: String,
        member: Stats,
        non_member: Stats,
        member_cpu: Option<CpuUse>,
        non_member_cpu: Option<CpuUse>,
        member_savings_paise: i64,
        nudge: String,
        membership_unknown: Option<u64>,
        max_error_rate: f64,
    ) -> Self {
        let cpu_ratio = match (&member_cpu, &non_member_cpu) {
            (Some(m), Some(n)) if n.ms_per_request > 0.0 => {
                Some(m.ms_per_request / n.ms_per_request)
            }
            _ => None,
        };
        let clean = |s: &Stats| s.requests > 0 && s.error_rate() <= max_error_rate;
        Self {
            pass: clean(&member)
                && clean(&non_member)
                && membership_unknown == Some(0)
                && cpu_ratio.is_some_and(|r| r <= CPU_RATIO_AT_MOST),
            name,
            detail,
            calls: CALLS.into(),
            member,
            non_member,
            member_cpu,
            non_member_cpu,
            cpu_ratio,
            at_most: CPU_RATIO_AT_MOST,
            member_savings_paise,
            nudge,
            membership_unknown,
        }
    }

    /// Lines for the printed report.
    pub fn table(&self) -> String {
        let line = |label: &str, s: &Stats, cpu: &Option<CpuUse>| {
            format!(
                "  {label:<11} {:>8.1} req/s  p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms  errors {} {:?}\n  {:<11} CPU per request {}",
                s.throughput_rps,
                s.p50_ms,
                s.p99_ms,
                s.max_ms,
                s.errors,
                s.error_kinds,
                "",
                cpu.as_ref()
                    .map_or("not measured".to_string(), CpuUse::describe)
            )
        };
        let unknown = self
            .membership_unknown
            .map_or("unknown (log unreadable)".to_string(), |n| n.to_string());
        format!(
            "\n{}: POST /api/cart, a Tiffin One member beside a non-member\n  {}\n  checked first: the member saves {} paise on it; the non-member is nudged \"{}\"\n  calls: {}\n{}\n{}\n  membership look-ups that timed out (priced as a non-member): {unknown}\n  CPU ratio member / non-member {} (target at most {:.2}×): {}",
            self.name,
            self.detail,
            self.member_savings_paise,
            self.nudge,
            self.calls,
            line("member", &self.member, &self.member_cpu),
            line("non-member", &self.non_member, &self.non_member_cpu),
            self.cpu_ratio
                .map_or("n/a".to_string(), |r| format!("{r:.3}×")),
            self.at_most,
            if self.pass { "PASS" } else { "FAIL" }
        )
    }
}

/// Whether a member saves at `restaurant` whatever the cart's total: a Tiffin One partner in
/// [`CITY`].
fn members_save_at(restaurant: &Restaurant) -> bool {
    restaurant.city == CITY && restaurant.member_discount_percent > 0
}

/// The cart update's cart, from the first open partner restaurant of [`CITY`] that has one, and
/// the scenario both sides send; `None` when the catalogue has no such restaurant.
pub fn cart_update(catalogue: &Catalogue, database: &str) -> Option<Scenario> {
    let (restaurant, body, with_variants, with_addons) =
        scenario::cart_body_where(catalogue, members_save_at)?;
    Some(Scenario {
        name: format!("Tiffin One cart update ({database})"),
        detail: format!(
            "restaurant {} \"{}\" in {} (a partner: {}% off for members), {} lines ({with_variants} with variants, {with_addons} with add-ons), delivered to the restaurant's door, cart and membership on {database}",
            restaurant.id,
            restaurant.name,
            restaurant.city,
            restaurant.member_discount_percent,
            scenario::CART_LINES
        ),
        request: Request::post_json("/api/cart", &body),
        success_codes: vec![0, 8, 9],
        target: None,
        location: Some((restaurant.lat, restaurant.lng)),
    })
}

/// Starts a storefront, sets up `concurrency` members and as many non-members, checks that the
/// membership changes their bill, and measures the non-members' cart update and then the
/// members', each with its CPU.
pub async fn bench(
    bin_dir: &std::path::Path,
    catalogue: &Catalogue,
    concurrency: usize,
    durations: Durations,
    max_error_rate: f64,
    log: &std::path::Path,
) -> anyhow::Result<MembershipResult> {
    let database = "SQLite";
    let update = cart_update(catalogue, database).with_context(|| {
        format!("the catalogue has no open partner restaurant in {CITY} with a 5-line cart")
    })?;
    let static_dir = tempfile::tempdir()?;
    // Every customer signs up from the same address: the edge's per-address OTP limit would
    // refuse the 21st.
    let env = [("EDGE_OTP_LIMIT_PER_HOUR", "0")];
    let storefront = Storefront::start(bin_dir, static_dir.path(), catalogue, log, &env).await?;
    let base_url = storefront.base_url().to_string();
    let client = load::client(concurrency)?;

    eprintln!("tiffin-bench: Tiffin One: {concurrency} members buy their plan …");
    let plan_id = recommended_plan(&client, &base_url).await?;
    let point = update.location;
    let members: Vec<Session> = futures::stream::iter(0..concurrency)
        .map(|number| {
            let (client, base_url, plan_id) = (&client, &base_url, &plan_id);
            async move {
                let mobile = format!("8{:09}", number);
                let mut session = sign_up(client, base_url, point, &mobile).await?;
                become_member(client, base_url, &mut session, plan_id, number)
                    .await
                    .with_context(|| format!("member {mobile}"))?;
                anyhow::Ok(session)
            }
        })
        .buffer_unordered(SET_UP_AT_ONCE)
        .try_collect()
        .await?;
    let non_members: Vec<Session> = futures::stream::iter(0..concurrency)
        .map(|number| {
            let (client, base_url) = (&client, &base_url);
            async move { sign_up(client, base_url, point, &format!("9{:09}", number)).await }
        })
        .buffer_unordered(SET_UP_AT_ONCE)
        .try_collect()
        .await?;

    // Each customer's first update, checked: it also fills every cart before the warm-up.
    let (members, as_member) =
        first_updates(&client, &base_url, &update, members, Side::Member).await?;
    let (non_members, as_non_member) =
        first_updates(&client, &base_url, &update, non_members, Side::NonMember).await?;

    let meter = Meter::of(&storefront);
    eprintln!("tiffin-bench: Tiffin One: the non-members' cart update …");
    let non_member = load::run_as(
        &client,
        &base_url,
        &update,
        non_members,
        durations,
        Some(&meter),
    )
    .await?;
    let non_member_cpu = meter.per_request(non_member.requests).await;
    eprintln!("tiffin-bench: Tiffin One: the members' cart update …");
    let member = load::run_as(
        &client,
        &base_url,
        &update,
        members,
        durations,
        Some(&meter),
    )
    .await?;
    let member_cpu = meter.per_request(member.requests).await;
    drop(client);
    let log_path = storefront.log_path().to_path_buf();
    storefront.stop()?;
    let membership_unknown = count_lines(&log_path, MEMBERSHIP_UNKNOWN);

    Ok(MembershipResult::judge(
        update.name.clone(),
        format!(
            "{}; {concurrency} members and {concurrency} non-members, each a signed-in customer of its own",
            update.detail
        ),
        member,
        non_member,
        member_cpu,
        non_member_cpu,
        as_member.savings,
        as_non_member.nudge.unwrap_or_default(),
        membership_unknown,
        max_error_rate,
    ))
}

/// The plan the storefront recommends (`GET /api/super/plans`), else its first, by id.
async fn recommended_plan(client: &reqwest::Client, base_url: &str) -> anyhow::Result<String> {
    let mut session = Session::default();
    let plans = call(
        client,
        base_url,
        &Request::get("/api/super/plans"),
        &mut session,
    )
    .await?;
    let plans = plans["data"]["plans"]
        .as_array()
        .context("no plans in GET /api/super/plans")?;
    plans
        .iter()
        .find(|p| p["recommended"] == true)
        .or_else(|| plans.first())
        .and_then(|p| p["planId"].as_str())
        .map(str::to_string)
        .context("no plan on sale")
}

/// Buys `plan_id` for the signed-in `session` as the storefront sells it and waits until the
/// customer is a member.
async fn become_member(
    client: &reqwest::Client,
    base_url: &str,
    session: &mut Session,
    plan_id: &str,
    number: usize,
) -> anyhow::Result<()> {
    let cart = call(
        client,
        base_url,
        &Request::post_json(
            "/api/cart/addSubscriptionToCart",
            &json!({ "subscriptionItems": [{ "plan_id": plan_id, "quantity": 1 }] }),
        ),
        session,
    )
    .await
    .context("putting the plan in the cart")?;
    if cart["statusCode"] != 0 {
        bail!(
            "plan {plan_id} cannot be bought here: {}",
            cart["statusMessage"]
        );
    }
    let to_pay = cart["data"]["bill"]["to_pay"]
        .as_i64()
        .context("the plan's cart has no bill")?;
    let placed = call(
        client,
        base_url,
        &Request::post_json(
            "/api/order/place-v2",
            &json!({
                "idempotency_key": format!("bench-member-{number}"),
                "order": { "order_type": "SUBSCRIPTION", "to_pay": to_pay },
                "payment": { "method": "card", "card": {
                    "number": "4111 1111 1111 1111", "expiry_month": 12, "expiry_year": 2039,
                    "cvv": "123", "holder_name": "Bench" } },
            }),
        ),
        session,
    )
    .await
    .context("paying for the plan")?;
    if placed["statusCode"] != 0 || placed["data"]["payment"]["status"] != "CHARGED" {
        bail!("the plan's order was not paid: {placed}");
    }
    let waited = tokio::time::Instant::now();
    loop {
        let status = call(
            client,
            base_url,
            &Request::get("/api/profile/super"),
            session,
        )
        .await?;
        if status["data"]["status"] == "SUPER" {
            return Ok(());
        }
        if waited.elapsed() > ACTIVATION_WAIT {
            bail!(
                "not a member {} s after paying (order {}): {}",
                ACTIVATION_WAIT.as_secs(),
                placed["data"]["order_id"],
                status["data"]
            );
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Member,
    NonMember,
}

/// What the membership did to a cart: the member's savings, or the non-member's nudge.
#[derive(Debug, Clone, Default, PartialEq)]
struct Seen {
    savings: i64,
    nudge: Option<String>,
}

/// Each session's first `update`, checked as `side` sees it: answered 0 with no plan in the cart
/// and the membership known; a member's bill with savings and no nudge, a non-member's without
/// savings and with the nudge. Gives the sessions back with what the first of them saw.
async fn first_updates(
    client: &reqwest::Client,
    base_url: &str,
    update: &Scenario,
    sessions: Vec<Session>,
    side: Side,
) -> anyhow::Result<(Vec<Session>, Seen)> {
    let checked: Vec<(Session, Seen)> = futures::stream::iter(sessions)
        .map(|mut session| async move {
            let cart = call(client, base_url, &update.request, &mut session).await?;
            let seen = check_side(&cart, side)?;
            anyhow::Ok((session, seen))
        })
        .buffer_unordered(SET_UP_AT_ONCE)
        .try_collect()
        .await?;
    let seen = checked.first().map(|(_, s)| s.clone()).unwrap_or_default();
    Ok((checked.into_iter().map(|(s, _)| s).collect(), seen))
}

/// What the membership did to one cart reply, or why it is not what `side` must see.
fn check_side(cart: &Value, side: Side) -> anyhow::Result<Seen> {
    let data = &cart["data"];
    if cart["statusCode"] != 0 {
        bail!(
            "the cart update answered {} {} (the restaurant must deliver to its own door)",
            cart["statusCode"],
            cart["statusMessage"]
        );
    }
    if data["membershipUnknown"] == true {
        bail!(
            "the membership service could not be asked: {}",
            data["membershipMessage"]
        );
    }
    if data["subscriptionItems"]
        .as_array()
        .is_some_and(|p| !p.is_empty())
    {
        bail!("a plan is still in the cart: {}", data["subscriptionItems"]);
    }
    let savings = data["memberSavings"].as_i64().unwrap_or(0);
    let nudge = &data["subscriptionNudge"];
    match side {
        Side::Member if savings > 0 && nudge.is_null() => Ok(Seen {
            savings,
            nudge: None,
        }),
        Side::Member => bail!(
            "a member saves nothing on this cart (memberSavings {savings}, bill {}): the cart service would not ask the membership service",
            data["bill"]
        ),
        Side::NonMember if savings == 0 && !nudge.is_null() => Ok(Seen {
            savings: nudge["savings"]
                .as_i64()
                .context("a nudge without savings")?,
            nudge: Some(nudge["message"].as_str().unwrap_or_default().to_string()),
        }),
        Side::NonMember => bail!(
            "a non-member is not nudged on this cart (memberSavings {savings}, nudge {nudge})"
        ),
    }
}

/// Lines of the file at `path` that contain `needle`; `None` when it cannot be read.
fn count_lines(path: &std::path::Path, needle: &str) -> Option<u64> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).ok()?;
    let mut n = 0;
    for line in std::io::BufReader::new(file).split(b'\n') {
        let line = line.ok()?;
        if line.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            n += 1;
        }
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Recorder;
    use std::collections::BTreeMap;
    use tiffin_catalog::{Options, generate};

    fn stats(ms: u64, ok: u64, errors: u64) -> Stats {
        let mut r = Recorder::new();
        for _ in 0..ok {
            r.success(Duration::from_millis(ms));
        }
        for _ in 0..errors {
            r.error("HTTP 503");
        }
        r.stats(Duration::from_secs(5))
    }

    fn cpu(ms: f64) -> Option<CpuUse> {
        Some(CpuUse {
            ms_per_request: ms,
            per_process: BTreeMap::from([("tiffin-cart".to_string(), ms)]),
            cores: 1.8,
        })
    }

    fn judged(member_ms: f64, unknown: Option<u64>, errors: u64) -> MembershipResult {
        MembershipResult::judge(
            "Tiffin One cart update (SQLite)".into(),
            "restaurant 2000001".into(),
            stats(12, 1000, errors),
            stats(11, 1000, 0),
            cpu(member_ms),
            cpu(2.0),
            2_950,
            "Save ₹29 on this order with Tiffin One".into(),
            unknown,
            0.01,
        )
    }

    #[test]
    fn the_cart_is_the_cart_updates_from_a_partner_where_the_plan_is_sold() {
        let catalogue = generate(&Options::default());

        let update = cart_update(&catalogue, "SQLite").unwrap();
        let (restaurant, body, _, _) =
            scenario::cart_body_where(&catalogue, members_save_at).unwrap();

        assert_eq!(restaurant.city, CITY);
        assert!(restaurant.opened && restaurant.member_discount_percent > 0);
        assert_eq!(update.location, Some((restaurant.lat, restaurant.lng)));
        assert_eq!(update.request.body, Some(body.to_string().into_bytes()));
        assert_eq!(
            body["cartItems"].as_array().unwrap().len(),
            scenario::CART_LINES
        );
        assert_eq!(update.success_codes, vec![0, 8, 9]);
    }

    #[test]
    fn the_member_may_cost_a_tenth_more_cpu_and_no_more() {
        let at_limit = judged(2.2, Some(0), 0);
        let over = judged(2.3, Some(0), 0);

        assert!(at_limit.pass, "{}", at_limit.table());
        assert!((at_limit.cpu_ratio.unwrap() - 1.1).abs() < 1e-9);
        assert!(!over.pass);
        let table = over.table();
        assert!(
            table.contains("CPU ratio member / non-member 1.150×"),
            "{table}"
        );
        assert!(table.contains("FAIL"), "{table}");
        assert!(table.contains("p99"), "{table}");
    }

    #[test]
    fn errors_a_look_up_that_timed_out_or_no_cpu_fail_it() {
        assert!(!judged(2.0, Some(0), 50).pass, "errors above the limit");
        assert!(
            !judged(2.0, Some(3), 0).pass,
            "members priced as non-members"
        );
        assert!(!judged(2.0, None, 0).pass, "the log could not say");
        let mut unmeasured = judged(2.0, Some(0), 0);
        unmeasured = MembershipResult::judge(
            unmeasured.name,
            unmeasured.detail,
            unmeasured.member,
            unmeasured.non_member,
            None,
            cpu(2.0),
            0,
            String::new(),
            Some(0),
            0.01,
        );
        assert_eq!(unmeasured.cpu_ratio, None);
        assert!(!unmeasured.pass);
    }

    #[test]
    fn each_side_must_see_what_the_membership_does_to_its_bill() {
        let reply = |savings: i64, nudge: Value| {
            json!({ "statusCode": 0, "data": { "memberSavings": savings,
                "subscriptionNudge": nudge, "membershipUnknown": false, "subscriptionItems": [] } })
        };
        let nudge =
            json!({ "savings": 2_950, "message": "Save ₹29 on this order with Tiffin One" });

        assert_eq!(
            check_side(&reply(2_950, Value::Null), Side::Member).unwrap(),
            Seen {
                savings: 2_950,
                nudge: None
            }
        );
        assert_eq!(
            check_side(&reply(0, nudge.clone()), Side::NonMember).unwrap(),
            Seen {
                savings: 2_950,
                nudge: Some("Save ₹29 on this order with Tiffin One".into())
            }
        );
        assert!(check_side(&reply(0, Value::Null), Side::Member).is_err());
        assert!(check_side(&reply(0, Value::Null), Side::NonMember).is_err());
        assert!(check_side(&reply(2_950, nudge), Side::Member).is_err());
        let mut unknown = reply(0, Value::Null);
        unknown["data"]["membershipUnknown"] = json!(true);
        assert!(check_side(&unknown, Side::NonMember).is_err());
        let mut far = reply(2_950, Value::Null);
        far["statusCode"] = json!(9);
        assert!(check_side(&far, Side::Member).is_err());
    }

    #[test]
    fn lines_of_the_log_that_say_the_membership_was_unknown_are_counted() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("storefront.log");
        std::fs::write(
            &log,
            "a\n{\"msg\":\"membership unknown; priced as a non-member\"}\nb\nmembership unknown; priced as a non-member\nmembership unknown\n",
        )
        .unwrap();

        assert_eq!(count_lines(&log, MEMBERSHIP_UNKNOWN), Some(2));
        assert_eq!(
            count_lines(&dir.path().join("none"), MEMBERSHIP_UNKNOWN),
            None
        );
    }
}
