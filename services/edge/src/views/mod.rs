//! JSON shapes and wording that several routes share, so a restaurant, a user, a dish's veg mark or
//! a page of a list looks the same wherever it appears. Views are written from service replies; they call nothing.

pub mod city_page;
pub mod food;
pub mod page;
pub mod restaurant;
pub mod user;
