//! The menu routes (`menu/pl`, `menu/quick`, `menu/pl/search`), owned with discovery by the
//! Discovery team: [`query`] reads the request, [`handlers`] make the calls, and the reply is
//! shaped by [`page`] (the page and its widgets), [`header`] (the restaurant header), [`items`] and
//! [`customisation`] (each item).

pub mod customisation;
pub mod handlers;
pub mod header;
pub mod items;
pub mod page;
pub mod query;
