//! The `DiscoveryService` gRPC implementation: turns requests into the modules' calls and their
//! errors into statuses. Validation of a caller's coordinate happens here, once, by making a
//! [`Point`]; the modules below only ever see valid points.

use std::sync::Arc;

use sqlx::AnyPool;
use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{
    AutocompletePlacesRequest, AutocompletePlacesResponse, CheckServiceabilityRequest,
    CheckServiceabilityResponse, GetRestaurantRequest, GetRestaurantResponse,
    GetRestaurantsRequest, GetRestaurantsResponse, LatLng, ListCitiesRequest, ListCitiesResponse,
    ListRestaurantsRequest, ListRestaurantsResponse, RecommendAddressRequest,
    RecommendAddressResponse, discovery_service_server::DiscoveryService,
    recommend_address_request::Target,
};
use tiffin_proto::discovery::v1::{
    GetPreSearchRequest, GetPreSearchResponse, SearchRequest, SearchResponse, SuggestSearchRequest,
    SuggestSearchResponse,
};
use tonic::{Request, Response, Status};

use crate::delivery_areas::DeliveryAreas;
use crate::error::Error;
use crate::places::Gazetteer;
use crate::search::SearchIndex;
use crate::{cities, delivery_state, restaurants};

/// The service's state: the pool for restaurant rows, and the two in-memory structures built
/// from the tables at start.
#[derive(Clone)]
pub struct Discovery {
    pool: AnyPool,
    gazetteer: Arc<Gazetteer>,
    areas: Arc<DeliveryAreas>,
    /// What the refined listing's filters read; empty until [`Discovery::with_listing`].
    listing: Arc<crate::listing::ListingIndex>,
    /// The search index; `None` until [`Discovery::with_search`].
    search: Option<Arc<SearchIndex>>,
    /// Every restaurant's card (`GetRestaurant`); empty until [`Discovery::with_cards`].
    cards: Arc<restaurants::Cards>,
}

impl Discovery {
    pub fn new(pool: AnyPool, gazetteer: Gazetteer, areas: DeliveryAreas) -> Self {
        Self {
            pool,
            gazetteer: Arc::new(gazetteer),
            areas: Arc::new(areas),
            listing: Arc::default(),
            search: None,
            cards: Arc::default(),
        }
    }

    /// Serves searches from `search`.
    pub fn with_search(mut self, search: SearchIndex) -> Self {
        self.search = Some(Arc::new(search));
        self
    }

    /// The search index; a service built without one answers searches as unavailable.
    fn search_index(&self) -> Result<&SearchIndex, Status> {
        self.search
            .as_deref()
            .ok_or_else(|| Status::unavailable("search index not built"))
    }

    /// The refined listing's index.
    pub fn with_listing(mut self, listing: crate::listing::ListingIndex) -> Self {
        self.listing = Arc::new(listing);
        self
    }

    pub fn with_cards(mut self, cards: restaurants::Cards) -> Self {
        self.cards = Arc::new(cards);
        self
    }
}

/// A caller's location: absent or off the earth is the spec's "Invalid user location.".
fn location(latlng: Option<&LatLng>) -> Result<Point, Error> {
    let latlng = latlng.ok_or(Error::InvalidLocation)?;
    Ok(Point::new(latlng.lat, latlng.lng)?)
}

#[tonic::async_trait]
impl DiscoveryService for Discovery {
    async fn autocomplete_places(
        &self,
        request: Request<AutocompletePlacesRequest>,
    ) -> Result<Response<AutocompletePlacesResponse>, Status> {
        let request = request.into_inner();
        let places = self.gazetteer.autocomplete(&request.input, request.limit);
        Ok(Response::new(AutocompletePlacesResponse { places }))
    }

    async fn recommend_address(
        &self,
        request: Request<RecommendAddressRequest>,
    ) -> Result<Response<RecommendAddressResponse>, Status> {
        let reply = match request.into_inner().target {
            Some(Target::PlaceId(id)) => self.gazetteer.resolve(&id),
            Some(Target::Latlng(latlng)) => {
                location(Some(&latlng)).and_then(|p| self.gazetteer.nearest(p))
            }
            None => Err(Error::InvalidLocation),
        }?;
        Ok(Response::new(reply))
    }

    async fn list_cities(
        &self,
        _request: Request<ListCitiesRequest>,
    ) -> Result<Response<ListCitiesResponse>, Status> {
        Ok(Response::new(cities::list_cities(self.gazetteer.cities())))
    }

    async fn list_restaurants(
        &self,
        request: Request<ListRestaurantsRequest>,
    ) -> Result<Response<ListRestaurantsResponse>, Status> {
        let request = request.into_inner();
        let at = location(request.location.as_ref())?;
        let page = restaurants::list_restaurants(
            &self.cards,
            &self.areas,
            at,
            request.offset,
            request.limit,
        )?;
        Ok(Response::new(page))
    }

    async fn get_restaurant(
        &self,
        request: Request<GetRestaurantRequest>,
    ) -> Result<Response<GetRestaurantResponse>, Status> {
        let request = request.into_inner();
        let at = request
            .location
            .as_ref()
            .map(|l| location(Some(l)))
            .transpose()?;
        let card = self.cards.card(request.id, at)?;
        let state = delivery_state::of(&card);
        Ok(Response::new(GetRestaurantResponse {
            card: Some(card),
            delivery_state: state.into(),
            delivery_state_text: delivery_state::text(state).to_string(),
            delivery_state_message: delivery_state::message(state).to_string(),
        }))
    }

    async fn check_serviceability(
        &self,
        request: Request<CheckServiceabilityRequest>,
    ) -> Result<Response<CheckServiceabilityResponse>, Status> {
        let points = request
            .into_inner()
            .locations
            .iter()
            .map(|l| location(Some(l)))
            .collect::<Result<Vec<_>, _>>()?;
        let serviceable = restaurants::check_serviceability(&self.areas, &points)?;
        Ok(Response::new(CheckServiceabilityResponse { serviceable }))
    }

    async fn get_restaurants(
        &self,
        request: Request<GetRestaurantsRequest>,
    ) -> Result<Response<GetRestaurantsResponse>, Status> {
        let request = request.into_inner();
        let at = request
            .location
            .as_ref()
            .map(|l| location(Some(l)))
            .transpose()?;
        let cards = restaurants::get_restaurants(&self.cards, &request.ids, at)?;
        Ok(Response::new(GetRestaurantsResponse { cards }))
    }

    async fn refine_listing(
        &self,
        request: Request<tiffin_proto::discovery::v1::RefineListingRequest>,
    ) -> Result<Response<tiffin_proto::discovery::v1::RefineListingResponse>, Status> {
        let request = request.into_inner();
        let at = location(request.location.as_ref())?;
        let reply = crate::listing::refine(&self.cards, &self.areas, &self.listing, at, &request)?;
        Ok(Response::new(reply))
    }

    async fn suggest_search(
        &self,
        request: Request<SuggestSearchRequest>,
    ) -> Result<Response<SuggestSearchResponse>, Status> {
        let request = request.into_inner();
        let at = location(request.location.as_ref())?;
        Ok(Response::new(self.search_index()?.suggest(
            &self.areas,
            &request.query,
            at,
            request.limit,
        )?))
    }

    async fn search(
        &self,
        request: Request<SearchRequest>,
    ) -> Result<Response<SearchResponse>, Status> {
        let request = request.into_inner();
        let at = location(request.location.as_ref())?;
        let reply = self.search_index()?.search(
            &self.cards,
            &self.areas,
            &request.query,
            at,
            request.limit,
        )?;
        Ok(Response::new(reply))
    }

    async fn get_pre_search(
        &self,
        request: Request<GetPreSearchRequest>,
    ) -> Result<Response<GetPreSearchResponse>, Status> {
        let request = request.into_inner();
        let at = location(request.location.as_ref())?;
        Ok(Response::new(self.search_index()?.pre_search(
            &self.areas,
            at,
            request.limit,
        )))
    }

    async fn list_city_restaurants(
        &self,
        request: Request<tiffin_proto::discovery::v1::ListCityRestaurantsRequest>,
    ) -> Result<Response<tiffin_proto::discovery::v1::ListCityRestaurantsResponse>, Status> {
        let request = request.into_inner();
        let reply = crate::listing::city::list_city(
            &self.pool,
            self.gazetteer.cities(),
            &self.listing,
            &request,
        )
        .await?;
        Ok(Response::new(reply))
    }
}
