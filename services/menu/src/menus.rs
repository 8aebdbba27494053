//! The `MenuService` RPCs: `GetMenu` serves a restaurant's menu from the cache, `PriceItems`
//! prices a cart's selections against it with the rules of [`crate::pricing`].
//!
//! Neither RPC writes anything or trusts a number from the request: a selection names ids, and
//! every price comes from the menu.

use tiffin_proto::menu::v1::{
    GetMenuRequest, GetMenuResponse, PriceItemsRequest, PriceItemsResponse, SearchMenuRequest,
    SearchMenuResponse, menu_service_server::MenuService,
};
use tonic::{Request, Response, Status};

use crate::cache::MenuCache;
use crate::error::Error;
use crate::{pricing, search};

/// The `MenuService` implementation.
pub struct Menus {
    cache: MenuCache,
}

impl Menus {
    pub fn new(cache: MenuCache) -> Self {
        Self { cache }
    }

    async fn menu(&self, request: GetMenuRequest) -> Result<GetMenuResponse, Error> {
        let restaurant_id = request.restaurant_id;
        let cached = self
            .cache
            .get(restaurant_id)
            .await?
            .ok_or(Error::RestaurantNotFound(restaurant_id))?;
        let (menu, version) = cached.form(request.quick);
        if !request.if_none_match.is_empty() && request.if_none_match == version {
            return Ok(GetMenuResponse {
                menu: None,
                version: version.to_owned(),
                not_modified: true,
            });
        }
        Ok(GetMenuResponse {
            menu: Some(menu.clone()),
            version: version.to_owned(),
            not_modified: false,
        })
    }

    async fn search(&self, request: SearchMenuRequest) -> Result<SearchMenuResponse, Error> {
        if request.query.chars().count() > search::MAX_QUERY_CHARS {
            return Err(Error::QueryTooLong);
        }
        let restaurant_id = request.restaurant_id;
        let cached = self
            .cache
            .get(restaurant_id)
            .await?
            .ok_or(Error::RestaurantNotFound(restaurant_id))?;
        let query = search::Query::parse(&request.query);
        Ok(SearchMenuResponse {
            items: cached.search(&query).cloned().collect(),
        })
    }

    async fn prices(&self, request: PriceItemsRequest) -> Result<PriceItemsResponse, Error> {
        let restaurant_id = request.restaurant_id;
        let cached = self
            .cache
            .get(restaurant_id)
            .await?
            .ok_or(Error::UnknownRestaurant(restaurant_id))?;
        let items = request
            .selections
            .iter()
            .map(|selection| {
                // Looking the item up in this restaurant's menu is what refuses another
                // restaurant's item.
                let item = cached.item(selection.item_id).ok_or(Error::UnknownItem {
                    restaurant_id,
                    item_id: selection.item_id,
                })?;
                pricing::price(item, selection)
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let menu = &cached.menu;
        Ok(PriceItemsResponse {
            restaurant_name: menu.restaurant_name.clone(),
            area_name: menu.area_name.clone(),
            image_id: menu.image_id.clone(),
            items,
        })
    }
}

#[tonic::async_trait]
impl MenuService for Menus {
    async fn get_menu(
        &self,
        request: Request<GetMenuRequest>,
    ) -> Result<Response<GetMenuResponse>, Status> {
        let reply = self.menu(request.into_inner()).await?;
        Ok(Response::new(reply))
    }

    async fn search_menu(
        &self,
        request: Request<SearchMenuRequest>,
    ) -> Result<Response<SearchMenuResponse>, Status> {
        let reply = self.search(request.into_inner()).await?;
        Ok(Response::new(reply))
    }

    async fn price_items(
        &self,
        request: Request<PriceItemsRequest>,
    ) -> Result<Response<PriceItemsResponse>, Status> {
        let reply = self.prices(request.into_inner()).await?;
        Ok(Response::new(reply))
    }
}
