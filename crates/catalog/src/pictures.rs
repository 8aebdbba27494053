//! Which picture a dish or a restaurant gets: the kind of dish its name (or failing that its
//! category) says it is, and the restaurant's main cuisine. The edge draws from the kind alone
//! (`tiffin_catalog_format::picture`), so this is where "Chicken Biryani" becomes a biryani.
//!
//! Pure functions of names. The rules are words looked for at the start of a word of the
//! lower-cased name ("tea" is not in "steamed"), first match wins, so the more particular come
//! first ("vada pav" before "vada", "milk cake" before "cake", "roll" before "tikka").

use tiffin_catalog_format::picture::{Cuisine, DishKind};
use tiffin_geo::slugify;

use DishKind as K;

/// Words in a dish's name, in the order they are tried.
const BY_NAME: &[(&str, DishKind)] = &[
    // Names that hold another kind's word.
    ("sizzling brownie", K::Cake),
    ("milk cake", K::Mithai),
    ("moong dal namkeen", K::Samosa),
    ("dimer dalna", K::Curry),
    ("bendakaya", K::Starter),
    ("bhature", K::Curry),
    ("salan", K::Curry),
    ("double ka meetha", K::Kheer),
    ("ice cream", K::IceCream),
    ("cold coffee", K::Shake),
    ("cold brew", K::Shake),
    ("iced", K::Juice),
    ("vada pav", K::PavBhaji),
    ("pav", K::PavBhaji),
    ("misal", K::PavBhaji),
    ("dabeli", K::PavBhaji),
    ("burger", K::Burger),
    ("momo", K::Momos),
    ("pizza", K::Pizza),
    ("sandwich", K::Sandwich),
    ("roll", K::Roll),
    ("wrap", K::Roll),
    ("shawarma", K::Roll),
    ("rice bowl", K::Curry),
    ("chawal", K::Curry),
    ("with curry", K::Curry),
    ("with veg stew", K::Curry),
    ("biryani", K::Biryani),
    ("thali", K::Thali),
    ("meals", K::Thali),
    ("dosa", K::Dosa),
    ("uttapam", K::Dosa),
    ("pesarattu", K::Dosa),
    ("idli", K::Idli),
    ("sambar vada", K::Idli),
    ("medu vada", K::Idli),
    ("noodle", K::Noodles),
    ("thukpa", K::Noodles),
    ("maggi", K::Noodles),
    ("soup", K::Soup),
    ("salad", K::Salad),
    ("raita", K::Salad),
    ("bowl", K::Salad),
    ("pasta", K::Pasta),
    ("au gratin", K::Pasta),
    ("fries", K::Fries),
    ("wedges", K::Fries),
    ("nuggets", K::Fries),
    ("onion rings", K::Fries),
    ("popcorn", K::Fries),
    ("puri", K::Chaat),
    ("chaat", K::Chaat),
    ("raj kachori", K::Chaat),
    ("dahi bhalla", K::Chaat),
    ("gulab jamun", K::GulabJamun),
    ("kala jamun", K::GulabJamun),
    ("rasgulla", K::Rasgulla),
    ("rosogolla", K::Rasgulla),
    ("rasmalai", K::Rasgulla),
    ("sandesh", K::Rasgulla),
    ("kulfi", K::IceCream),
    ("sundae", K::IceCream),
    ("fudge", K::IceCream),
    ("halwa", K::Halwa),
    ("kesari", K::Halwa),
    ("kheer", K::Kheer),
    ("payesh", K::Kheer),
    ("phirni", K::Kheer),
    ("mishti doi", K::Kheer),
    ("shahi tukda", K::Kheer),
    ("cake", K::Cake),
    ("cheesecake", K::Cake),
    ("brownie", K::Cake),
    ("pastry", K::Cake),
    ("tiramisu", K::Cake),
    ("pancake", K::Cake),
    ("croissant", K::Cake),
    ("ladoo", K::Mithai),
    ("barfi", K::Mithai),
    ("katli", K::Mithai),
    ("mysore pak", K::Mithai),
    ("soan papdi", K::Mithai),
    ("kalakand", K::Mithai),
    ("jalebi", K::Mithai),
    ("jilipi", K::Mithai),
    ("lassi", K::Lassi),
    ("chaas", K::Lassi),
    ("shake", K::Shake),
    ("smoothie", K::Shake),
    ("frappe", K::Shake),
    ("juice", K::Juice),
    ("soda", K::Juice),
    ("coke", K::Juice),
    ("jaljeera", K::Juice),
    ("chai", K::Chai),
    ("tea", K::Chai),
    ("badam milk", K::Chai),
    ("hot chocolate", K::Chai),
    ("coffee", K::Coffee),
    ("cappuccino", K::Coffee),
    ("latte", K::Coffee),
    ("americano", K::Coffee),
    ("naan", K::Bread),
    ("roti", K::Bread),
    ("paratha", K::Bread),
    ("parotta", K::Bread),
    ("luchi", K::Bread),
    ("radhaballabhi", K::Bread),
    ("sheermal", K::Bread),
    ("bakarkhani", K::Bread),
    ("thepla", K::Bread),
    ("thalipeeth", K::Bread),
    ("puran poli", K::Bread),
    ("poori", K::Bread),
    ("appam", K::Bread),
    ("idiyappam", K::Noodles),
    ("garlic bread", K::Bread),
    ("breadsticks", K::Bread),
    ("bruschetta", K::Bread),
    ("bun maska", K::Bread),
    ("omelette", K::Eggs),
    ("eggs", K::Eggs),
    ("bhurji", K::Eggs),
    ("toast", K::Eggs),
    ("fish", K::Fish),
    ("fry", K::Fish),
    ("pollichathu", K::Fish),
    ("paturi", K::Fish),
    ("ilish", K::Fish),
    ("tikka masala", K::Curry),
    ("tikka", K::Kebab),
    ("kebab", K::Kebab),
    ("seekh", K::Kebab),
    ("tandoori", K::Kebab),
    ("chaap", K::Kebab),
    ("65", K::Starter),
    ("chilli", K::Starter),
    ("manchurian", K::Starter),
    ("lollipop", K::Starter),
    ("wings", K::Starter),
    ("drums of heaven", K::Starter),
    ("dragon", K::Starter),
    ("crispy", K::Starter),
    ("pepper chicken", K::Starter),
    ("chukka", K::Starter),
    ("sukka", K::Starter),
    ("vepudu", K::Starter),
    ("nachos", K::Starter),
    ("dal", K::Dal),
    ("pappu", K::Dal),
    ("amti", K::Dal),
    ("pulao", K::Rice),
    ("rice", K::Rice),
    ("bisi bele", K::Rice),
    ("khichdi", K::Rice),
    ("pongal", K::Rice),
    ("poha", K::Rice),
    ("upma", K::Rice),
    ("risotto", K::Rice),
    ("granola", K::Salad),
    ("samosa", K::Samosa),
    ("kachori", K::Samosa),
    ("pakora", K::Samosa),
    ("bhaji", K::Samosa),
    ("puff", K::Samosa),
    ("vada", K::Samosa),
    ("vadi", K::Samosa),
    ("dhokla", K::Samosa),
    ("khandvi", K::Samosa),
    ("handvo", K::Samosa),
    ("patra", K::Samosa),
    ("khamani", K::Samosa),
    ("bhujia", K::Samosa),
    ("chakli", K::Samosa),
    ("mixture", K::Samosa),
    ("namkeen", K::Samosa),
    ("khatta meetha", K::Samosa),
    ("begun bhaja", K::Samosa),
];

/// Words in the category's name, for dishes whose own name says nothing (a "Farmhouse" pizza).
const BY_CATEGORY: &[(&str, DishKind)] = &[
    ("pizza", K::Pizza),
    ("biryani", K::Biryani),
    ("dessert", K::Kheer),
    ("sweet", K::Kheer),
    ("mithai", K::Mithai),
    ("namkeen", K::Samosa),
    ("farsan", K::Samosa),
    ("snack", K::Samosa),
    ("starter", K::Starter),
    ("kebab", K::Kebab),
    ("breakfast", K::Eggs),
    ("beverage", K::Juice),
    ("coffee", K::Coffee),
];

/// The picture for a dish: by its name, else its category, else a generic plated dish. Anything
/// with a gravy that no word names (a kadai paneer, a korma, a stew) is a curry.
pub(crate) fn dish_kind(name: &str, category: &str) -> DishKind {
    let name = name.to_ascii_lowercase();
    let category = category.to_ascii_lowercase();
    let find = |rules: &[(&str, DishKind)], text: &str| {
        rules
            .iter()
            .find(|(word, _)| starts_a_word(text, word))
            .map(|&(_, kind)| kind)
    };
    find(BY_NAME, &name)
        .or_else(|| find(BY_CATEGORY, &category))
        .or_else(|| {
            (category.contains("main") || category.contains("curr") || category.contains("special"))
                .then_some(K::Curry)
        })
        .unwrap_or(K::Plate)
}

/// Whether `word` occurs in `text` at the start of one of its words.
fn starts_a_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

/// The picture for a restaurant whose main cuisine is `cuisine` ("South Indian"), when the
/// vocabulary has one.
pub(crate) fn cuisine_picture(cuisine: &str) -> Option<Cuisine> {
    Cuisine::from_slug(&slugify(cuisine))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dishes;

    #[test]
    fn names_pick_the_dish_they_are() {
        for (name, category, kind) in [
            ("Chicken Biryani", "Biryani", K::Biryani),
            ("Paneer Biryani", "Biryani", K::Biryani),
            ("Masala Dosa", "Dosa", K::Dosa),
            ("Idli (2 Pcs)", "Idli & Vada", K::Idli),
            ("Vada Pav", "Pav & Bhaji", K::PavBhaji),
            ("Samosa (2 Pcs)", "Snacks", K::Samosa),
            ("Paneer Tikka", "Tandoori Starters", K::Kebab),
            ("Paneer Tikka Roll", "Rolls", K::Roll),
            ("Chicken Tikka Masala", "Non-Veg Main Course", K::Curry),
            ("Tandoori Roti", "Breads", K::Bread),
            ("Farmhouse", "Veg Pizzas", K::Pizza),
            ("Milk Cake", "Mithai", K::Mithai),
            ("Choco Lava Cake", "Cakes & Brownies", K::Cake),
            ("Gulab Jamun (2 Pcs)", "Indian Desserts", K::GulabJamun),
            ("Mango Lassi", "Cold Beverages", K::Lassi),
            ("Masala Chai", "Hot Beverages", K::Chai),
            ("Cold Coffee", "Cold Beverages", K::Shake),
            ("Kadai Paneer", "Main Course", K::Curry),
            ("Steamed Rice", "Rice", K::Rice),
            ("Veg Momo Burger", "Thukpa & Bowls", K::Burger),
            ("Something New", "Nowhere", K::Plate),
        ] {
            assert_eq!(dish_kind(name, category), kind, "{name}");
        }
    }

    #[test]
    fn every_dish_the_generator_knows_has_a_picture_of_its_own_kind() {
        // The generic plate is for old ids; a dish on a new menu always shows what it is.
        for category in dishes::CUISINES.iter().flat_map(|c| c.categories) {
            for dish in category.sections.iter().flat_map(|s| s.1) {
                assert_ne!(
                    dish_kind(dish.name, category.name),
                    K::Plate,
                    "{} ({})",
                    dish.name,
                    category.name
                );
            }
        }
    }

    #[test]
    fn every_cuisine_a_restaurant_can_lead_with_has_a_picture() {
        for concept in crate::concepts::CONCEPTS {
            assert!(
                cuisine_picture(concept.cuisine).is_some(),
                "{}",
                concept.cuisine
            );
        }
    }

    #[test]
    fn cuisines_slugify_into_the_vocabulary() {
        assert_eq!(cuisine_picture("South Indian"), Some(Cuisine::SouthIndian));
        assert_eq!(cuisine_picture("Rolls & Wraps"), Some(Cuisine::RollsWraps));
        assert_eq!(cuisine_picture("Lebanese"), None);
    }
}
