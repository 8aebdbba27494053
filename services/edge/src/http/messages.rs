//! The words the edge itself says in an envelope's `statusMessage` (the contract's wording where it
//! has one). Their own file so that the envelope and the error table can both use them without
//! importing each other.

pub const INVALID_LOCATION: &str = "Invalid user location.";
pub const INVALID_CSRF: &str = "Invalid CSRF token.";
pub const LOGIN: &str = "Please login to continue.";
pub const FORBIDDEN: &str = "You are not allowed to do this.";
/// A customer's session on the support desk.
pub const AGENTS_ONLY: &str = "This page is for Tiffin's support team.";
pub const RATE_LIMITED: &str = "We'll be back shortly";
/// What the busy page says under [`RATE_LIMITED`].
pub const RATE_LIMITED_DETAIL: &str =
    "Our ovens need some maintenance. We'll be up and serving good food in no time.";
pub const OUTAGE: &str = "Something's broken";
pub const OOPS: &str = "Oops! Something went wrong.";
/// The error page's sentence (under its title `Uh-oh!`).
pub const ERROR_PAGE: &str = "Sorry! This should not have happened. Please retry.";
/// The contract's cart failure wording (status code 1), also used for a cart body that cannot be read.
pub const CART_FAILURE: &str = "Oops! Something wrong";
/// The contract's "nothing found" wording, for `/api` paths that do not exist.
pub const NOTHING_HERE: &str = "There's nothing here";
pub const BAD_REQUEST: &str = "Invalid request.";
pub const TOO_LARGE: &str = "Request too large.";
pub const REQUEST_TIMEOUT: &str = "Request timed out.";
pub const METHOD_NOT_ALLOWED: &str = "Method not allowed.";
