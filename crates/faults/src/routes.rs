//! What the load asks, which services each route needs, and which routes a fault may affect.
//!
//! A route needs a service when the edge, or a service the edge calls, cannot answer the route
//! without it (read from the edge's handlers: the menu page asks discovery for the restaurant's
//! header; the cart prices every line through the menu; placing an order gathers the cart's
//! delivery context, prices the cart and charges through payments). Parts that only decorate a
//! reply (favourites on a menu, first-order offers on a cart) are not needs: their outage must not
//! cost the route. A signed-in customer's session is the account service's, so every route that
//! needs a session (the cart, placing an order, the profile) needs the account service too; a
//! public read (listing, menu, search, plans, help) goes on anonymously without it.

use std::fmt;

/// One thing the browser asks, named as the table names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Route {
    /// `GET /api/restaurants/list/v5` at the customer's point: the landing's listing.
    Listing,
    /// `GET /api/menu/pl`: a restaurant's page.
    Menu,
    /// `GET /api/restaurants/search/suggest`: the search box as one types.
    Suggest,
    /// `POST /api/cart`: ADD on a menu (the cart replaced with the same lines).
    CartUpdate,
    /// `GET /api/profile/info`, signed in.
    Profile,
    /// `GET /api/order/all`, signed in.
    OrderHistory,
    /// `POST /api/order/place-v2`, cash on delivery.
    PlaceOrder,
    /// `GET /api/super/plans`: Tiffin One's plans.
    Plans,
    /// `GET /api/support`: the help topics.
    Help,
}

impl Route {
    /// Every route, in the table's order.
    pub const ALL: [Route; 9] = [
        Route::Listing,
        Route::Menu,
        Route::Suggest,
        Route::CartUpdate,
        Route::Profile,
        Route::OrderHistory,
        Route::PlaceOrder,
        Route::Plans,
        Route::Help,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Route::Listing => "listing",
            Route::Menu => "menu",
            Route::Suggest => "suggest",
            Route::CartUpdate => "cart update",
            Route::Profile => "profile",
            Route::OrderHistory => "order history",
            Route::PlaceOrder => "place order",
            Route::Plans => "plans",
            Route::Help => "help",
        }
    }

    /// The services (as the launcher names them) without which this route cannot answer.
    pub fn needs(self) -> &'static [&'static str] {
        match self {
            Route::Listing | Route::Suggest => &["discovery"],
            Route::Menu => &["discovery", "menu"],
            Route::CartUpdate => &["cart", "menu", "account"],
            Route::Profile => &["account"],
            Route::OrderHistory => &["orders", "account"],
            Route::PlaceOrder => &["cart", "menu", "account", "discovery", "orders", "payments"],
            Route::Plans => &["membership"],
            Route::Help => &["support"],
        }
    }

    /// The envelope `statusCode`s that are a success here (the cart family also sends its
    /// states 8 and 9 with the cart).
    pub fn success_codes(self) -> &'static [i64] {
        match self {
            Route::CartUpdate => &[0, 8, 9],
            _ => &[0],
        }
    }
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The edge: not a service a route needs but the door every route comes through.
pub const EDGE: &str = "edge";

/// One fault the suite injects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// SIGKILL a process (a service or the edge), then start it again as it was.
    Kill(String),
    /// The service's PostgreSQL stops answering (every connection dropped, new ones refused),
    /// then answers again.
    PostgresDown(String),
    /// Every reply of the service arrives this many milliseconds late, then on time again.
    Slow { service: String, delay_ms: u64 },
}

impl Fault {
    /// The process or service the fault is done to.
    pub fn target(&self) -> &str {
        match self {
            Fault::Kill(s) | Fault::PostgresDown(s) | Fault::Slow { service: s, .. } => s,
        }
    }

    /// Whether `route` may fail while this fault lasts: the edge's death costs every route, a
    /// service's fault the routes that need it. Every other route must keep answering.
    pub fn affects(&self, route: Route) -> bool {
        self.target() == EDGE || route.needs().contains(&self.target())
    }

    /// Whether the route's callers may find nobody answering at all (the edge itself is down),
    /// rather than the outage envelope.
    pub fn silences_the_edge(&self) -> bool {
        matches!(self, Fault::Kill(p) if p == EDGE)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Kill(p) => write!(f, "kill {p}"),
            Fault::PostgresDown(s) => write!(f, "{s}: PostgreSQL down"),
            Fault::Slow { service, delay_ms } => write!(f, "{service} slow (+{delay_ms} ms)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_needs_only_services_the_launcher_starts_and_every_service_has_a_route() {
        for route in Route::ALL {
            for service in route.needs() {
                assert!(
                    tiffin_launcher::SERVICES.contains(service),
                    "{route} needs {service}"
                );
            }
        }
        // Killing any service must be seen by some route, or the suite would prove nothing.
        for service in tiffin_launcher::SERVICES {
            assert!(
                Route::ALL.iter().any(|r| r.needs().contains(&service)),
                "no route needs {service}"
            );
        }
    }

    #[test]
    fn a_service_fault_affects_the_routes_that_need_it_and_no_other() {
        let support = Fault::Kill("support".into());
        assert!(support.affects(Route::Help));
        assert!(!support.affects(Route::Listing));
        assert!(!support.affects(Route::PlaceOrder));

        let menu = Fault::Slow {
            service: "menu".into(),
            delay_ms: 3000,
        };
        let affected: Vec<_> = Route::ALL
            .into_iter()
            .filter(|r| menu.affects(*r))
            .collect();
        assert_eq!(
            affected,
            [Route::Menu, Route::CartUpdate, Route::PlaceOrder],
            "the listing and search never ask the menu"
        );

        let account = Fault::Kill("account".into());
        assert!(account.affects(Route::Profile));
        assert!(
            !account.affects(Route::Listing),
            "browsing goes on anonymously while sessions cannot be read"
        );
        assert!(!account.silences_the_edge());
    }

    #[test]
    fn the_edges_death_affects_every_route_and_may_leave_nobody_answering() {
        let edge = Fault::Kill(EDGE.into());
        assert!(Route::ALL.iter().all(|r| edge.affects(*r)));
        assert!(edge.silences_the_edge());
        assert!(!Fault::PostgresDown("cart".into()).silences_the_edge());
    }

    #[test]
    fn names_read_the_same_in_the_table() {
        assert_eq!(Route::CartUpdate.to_string(), "cart update");
        assert_eq!(Fault::Kill("menu".into()).to_string(), "kill menu");
        assert_eq!(
            Fault::PostgresDown("cart".into()).to_string(),
            "cart: PostgreSQL down"
        );
        assert_eq!(
            Fault::Slow {
                service: "menu".into(),
                delay_ms: 3000
            }
            .to_string(),
            "menu slow (+3000 ms)"
        );
        assert_eq!(Route::CartUpdate.success_codes(), &[0, 8, 9]);
        assert_eq!(Route::PlaceOrder.success_codes(), &[0]);
    }
}
