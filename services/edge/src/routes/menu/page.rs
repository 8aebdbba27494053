//! The shapes of the menu calls' replies: the page (the per-visitor header beside the menu JSON
//! written once per version), the menu itself (its widgets: the RECOMMENDED shelf, then the
//! categories; and its items) and the in-menu search's answer.

use serde::Serialize;
use serde::ser::Serializer;
use serde_json::value::RawValue;
use tiffin_proto::menu::v1::{Category, Menu};

use crate::routes::menu::header::HeaderView;
use crate::routes::menu::items::{IdStr, ItemView, ItemsView};

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = MenuPage)]
pub struct PageView<'a> {
    pub restaurant: HeaderView<'a>,
    /// The `MenuView`, written once per menu version (`menu_cache`).
    #[schema(value_type = MenuView)]
    pub menu: &'a RawValue,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Menu)]
pub struct MenuView<'a> {
    /// The RECOMMENDED shelf first (when any item is recommended), then the categories.
    #[schema(value_type = Vec<Widget>)]
    pub widgets: WidgetsView<'a>,
    /// Every item, keyed by its id.
    #[schema(value_type = std::collections::BTreeMap<String, ItemView>)]
    pub items: ItemsView<'a>,
    pub item_count: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MenuSearch)]
pub struct SearchView<'a> {
    pub query: &'a str,
    /// The items found, best first.
    pub item_ids: Vec<IdStr>,
    /// The items found, keyed by their id.
    #[schema(value_type = std::collections::BTreeMap<String, ItemView>)]
    pub items: ItemsView<'a>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = MenuEntity)]
struct Entity {
    id: IdStr,
}

/// The RECOMMENDED shelf first (when any item is recommended, in menu order), then the categories.
pub struct WidgetsView<'a>(pub &'a Menu);

impl Serialize for WidgetsView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let menu = self.0;
        let recommended: Vec<Entity> = menu
            .items
            .iter()
            .filter(|i| i.recommended)
            .map(|i| Entity { id: IdStr(i.id) })
            .collect();
        let shelf = (!recommended.is_empty()).then(|| Widget {
            kind: WidgetType::Recommended,
            id: "recommended",
            name: "Recommended",
            entities: recommended,
            widgets: Vec::new(),
        });
        serializer.collect_seq(
            shelf
                .into_iter()
                .chain(menu.categories.iter().map(category_widget)),
        )
    }
}

/// A section of the menu: the RECOMMENDED shelf or a CATEGORY with nested sub-categories.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = MenuWidget)]
struct Widget<'a> {
    #[serde(rename = "type")]
    kind: WidgetType,
    id: &'a str,
    name: &'a str,
    /// The section's items, in menu order.
    entities: Vec<Entity>,
    /// Sub-categories.
    #[schema(no_recursion)]
    widgets: Vec<Widget<'a>>,
}

/// A section's kind.
#[derive(Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = MenuWidgetType)]
enum WidgetType {
    Recommended,
    Category,
}

fn category_widget(category: &Category) -> Widget<'_> {
    Widget {
        kind: WidgetType::Category,
        id: &category.id,
        name: &category.name,
        entities: category
            .item_ids
            .iter()
            .map(|&id| Entity { id: IdStr(id) })
            .collect(),
        widgets: category
            .sub_categories
            .iter()
            .map(category_widget)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tiffin_proto::menu::v1::MenuItem;

    use super::*;

    fn item(id: u64, recommended: bool) -> MenuItem {
        MenuItem {
            id,
            recommended,
            ..Default::default()
        }
    }

    fn menu(items: Vec<MenuItem>) -> Menu {
        Menu {
            categories: vec![Category {
                id: "c-3".into(),
                name: "Biryani".into(),
                item_ids: vec![1],
                sub_categories: vec![Category {
                    id: "c-3-1".into(),
                    name: "Chicken Biryani".into(),
                    item_ids: vec![2],
                    sub_categories: vec![],
                }],
            }],
            items,
            ..Default::default()
        }
    }

    #[test]
    fn recommended_comes_first_then_categories_with_nested_sub_categories() {
        let menu = menu(vec![item(1, false), item(2, true)]);
        let v = serde_json::to_value(WidgetsView(&menu)).unwrap();
        assert_eq!(v[0]["type"], "RECOMMENDED");
        assert_eq!(v[0]["entities"], json!([{ "id": "2" }]));
        assert_eq!(v[1]["type"], "CATEGORY");
        assert_eq!(v[1]["id"], "c-3");
        assert_eq!(v[1]["entities"], json!([{ "id": "1" }]));
        assert_eq!(v[1]["widgets"][0]["name"], "Chicken Biryani");
        assert_eq!(v[1]["widgets"][0]["entities"][0]["id"], "2");
        assert_eq!(v[1]["widgets"][0]["widgets"], json!([]));
    }

    #[test]
    fn without_recommended_items_there_is_no_shelf() {
        let menu = menu(vec![item(1, false)]);
        let v = serde_json::to_value(WidgetsView(&menu)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 1);
        assert_eq!(v[0]["type"], "CATEGORY");
    }
}
