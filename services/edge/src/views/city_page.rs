//! The words of a city-shaped page (city, area and cuisine pages): its `<title>`, meta description
//! and heading. The pages handler writes them into the HTML for search engines and
//! `restaurants/city` sends them to the web app, so both say the same.

use crate::infra::city_cache::PageNames;

/// What a city-shaped page is about, from its route: the words of its `<title>`, meta description
/// and heading. The same text serves the HTML (for search engines) and `restaurants/city`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSubject {
    pub city: Option<String>,
    pub area: Option<String>,
    pub cuisine: Option<String>,
    /// `best-restaurants` pages.
    pub best: bool,
}

impl PageSubject {
    /// The subject of a page discovery has names for.
    pub fn of(names: &PageNames, best: bool) -> Self {
        PageSubject {
            city: (!names.city.is_empty()).then(|| names.city.clone()),
            area: (!names.area.is_empty()).then(|| names.area.clone()),
            cuisine: names.cuisine.clone(),
            best,
        }
    }
}

/// `biryani-house` → `Biryani House`.
pub fn title_case(slug: &str) -> String {
    slug.split(['-', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `(title, description, heading)` of a city-shaped page.
pub fn page_text(s: &PageSubject) -> (String, String, String) {
    let place = match (&s.area, &s.city) {
        (Some(area), Some(city)) => format!("{area}, {city}"),
        (None, Some(city)) => city.clone(),
        (Some(area), None) => area.clone(),
        (None, None) => "near you".to_string(),
    };
    let in_place = if s.city.is_some() || s.area.is_some() {
        format!("in {place}")
    } else {
        place.clone()
    };
    let heading = match (&s.cuisine, s.best, &s.area) {
        (Some(cuisine), _, _) => format!("{cuisine} restaurants {in_place}"),
        (None, true, _) => format!("Best restaurants {in_place}"),
        (None, false, Some(_)) => format!("Restaurants {in_place}"),
        (None, false, None) => match &s.city {
            Some(city) => format!("Food delivery in {city}"),
            None => "Restaurants near you".to_string(),
        },
    };
    let title = format!("{heading} | Order food online | Tiffin");
    let what = s
        .cuisine
        .as_ref()
        .map_or_else(|| "food".to_string(), |c| c.to_string());
    let description = format!(
        "Order {what} online from the best restaurants {in_place} on Tiffin. Fast delivery, live order tracking, no minimum order."
    );
    (title, description, heading)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_words_name_the_place_and_the_cuisine() {
        let city = PageSubject {
            city: Some("Bangalore".into()),
            area: None,
            cuisine: None,
            best: false,
        };
        assert_eq!(page_text(&city).2, "Food delivery in Bangalore");
        let area = PageSubject {
            area: Some("Koramangala".into()),
            ..city.clone()
        };
        assert_eq!(page_text(&area).2, "Restaurants in Koramangala, Bangalore");
        let cuisine = PageSubject {
            cuisine: Some("Biryani".into()),
            ..area
        };
        let (title, description, _) = page_text(&cuisine);
        assert_eq!(
            title,
            "Biryani restaurants in Koramangala, Bangalore | Order food online | Tiffin"
        );
        assert!(description.starts_with("Order Biryani online"));
        assert_eq!(
            page_text(&PageSubject { best: true, ..city }).2,
            "Best restaurants in Bangalore"
        );
        assert_eq!(title_case("north-indian"), "North Indian");
    }
}
