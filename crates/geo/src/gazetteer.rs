//! The gazetteer: every city Tiffin knows, its well-known localities with their true coordinates,
//! and the city-name rule: one slug per city, whatever name or alias a customer types.
//!
//! It owns place ids (`<city>-<locality-slug>`), which the edge hands to the browser from
//! place-autocomplete and takes back in address-recommend, so a place id must never change once
//! published. It must never hold anything random or generated: the generator places restaurants
//! *around* these points, so an error here moves a whole neighbourhood.
//!
//! The table is append-only. A city's position in it is its ordinal, and the generator derives
//! restaurant ids from that ordinal; inserting a city in the middle would renumber every restaurant
//! after it.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A city in the gazetteer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct City {
    /// Stable lower-case slug used in URLs (`/city/bangalore`) and on every restaurant.
    pub slug: String,
    /// Display name as the storefront shows it ("Bangalore").
    pub name: String,
    /// State or union territory, the middle part of a formatted address.
    pub state: String,
    /// The city's commonly cited centre, used to check that localities belong to the city.
    pub lat: f64,
    pub lng: f64,
    /// A disabled city is known (old addresses still resolve) but not offered to users.
    pub enabled: bool,
    /// One of the nine popular cities the catalogue is built for.
    pub popular: bool,
    /// Well-known neighbourhoods, in the order the table lists them.
    pub localities: Vec<Locality>,
}

/// A neighbourhood of a city: the unit a user picks as their location and a restaurant sits in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Locality {
    /// `<city-slug>-<locality-slug>`, unique across the gazetteer; the edge's `place_id`.
    pub place_id: String,
    /// Slug of the locality alone; restaurant slugs end with it.
    pub slug: String,
    /// Display name ("Koramangala"); the storefront's `areaName`.
    pub name: String,
    /// Slug of the city the locality belongs to.
    pub city: String,
    /// The locality's centre.
    pub lat: f64,
    pub lng: f64,
}

impl City {
    /// Whether the footer may list this city: disabled cities are hidden, and so are slugs that
    /// contain `test`, `do-not-use` or `closed` (cities kept for QA or being wound down).
    pub fn is_listed(&self) -> bool {
        self.enabled
            && !["test", "do-not-use", "closed"]
                .iter()
                .any(|bad| self.slug.contains(bad))
    }
}

/// Every city, in table order (the nine popular ones first). Includes disabled and test cities;
/// filter with [`City::is_listed`] for anything a user sees.
pub fn cities() -> &'static [City] {
    &GAZETTEER
}

/// The city a user typed or a slug names, after [`normalise_city`] ("Bengaluru" finds bangalore).
pub fn city(name: &str) -> Option<&'static City> {
    let slug = normalise_city(name);
    GAZETTEER.iter().find(|c| c.slug == slug)
}

/// How far from a city's centre a point still belongs to it. Indian metros reach 25-35 km from
/// their commonly cited centre (Mumbai's suburbs, Delhi's NCR edge are their own cities here).
pub const CITY_REACH_KM: f64 = 40.0;

/// The enabled city a point is in: the nearest centre within [`CITY_REACH_KM`], or none (a point
/// between cities, or out of India).
pub fn city_at(point: crate::point::Point) -> Option<&'static City> {
    GAZETTEER
        .iter()
        .filter(|c| c.enabled)
        .filter_map(|c| {
            let centre = crate::point::Point::new(c.lat, c.lng).ok()?;
            let km = point.distance_km(centre);
            (km <= CITY_REACH_KM).then_some((c, km))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, _)| c)
}

/// The locality with this place id.
pub fn locality(place_id: &str) -> Option<&'static Locality> {
    GAZETTEER
        .iter()
        .flat_map(|c| &c.localities)
        .find(|l| l.place_id == place_id)
}

/// Normalises a city name to its slug: trimmed, case-insensitive, with the cities' other names
/// as aliases (bengaluru → bangalore, thane → mumbai, new delhi → delhi, gurugram → gurgaon,
/// puducherry → pondicherry). Spaces, hyphens and underscores are equivalent, so "New-Delhi" and
/// "new  delhi" both give "delhi"; a name without an alias comes back as a slug ("Test City" →
/// "test-city"). Whether the slug is a known city is [`city`]'s business.
pub fn normalise_city(name: &str) -> String {
    let words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let spaced = words.join(" ");
    let canonical = match spaced.as_str() {
        "bengaluru" => "bangalore",
        "thane" => "mumbai",
        "new delhi" => "delhi",
        "gurugram" => "gurgaon",
        "puducherry" => "pondicherry",
        other => other,
    };
    canonical.replace(' ', "-")
}

/// Lower-case ASCII slug: letters and digits kept, every other run of characters becomes one `-`.
/// Shared with the catalogue generator so restaurant slugs and locality slugs are cut the same way.
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if c == '\'' {
            // "Haldiram's" reads better as "haldirams" than "haldiram-s".
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    slug
}

/// One row of the static table: (name, lat, lng).
type Place = (&'static str, f64, f64);

struct CityRow {
    slug: &'static str,
    name: &'static str,
    state: &'static str,
    centre: (f64, f64),
    enabled: bool,
    popular: bool,
    localities: &'static [Place],
}

static GAZETTEER: LazyLock<Vec<City>> = LazyLock::new(|| {
    TABLE
        .iter()
        .map(|row| City {
            slug: row.slug.to_owned(),
            name: row.name.to_owned(),
            state: row.state.to_owned(),
            lat: row.centre.0,
            lng: row.centre.1,
            enabled: row.enabled,
            popular: row.popular,
            localities: row
                .localities
                .iter()
                .map(|&(name, lat, lng)| {
                    let slug = slugify(name);
                    Locality {
                        place_id: format!("{}-{}", row.slug, slug),
                        slug,
                        name: name.to_owned(),
                        city: row.slug.to_owned(),
                        lat,
                        lng,
                    }
                })
                .collect(),
        })
        .collect()
});

// Coordinates are the commonly cited centres of each place (to about 0.5 km). Append only: see
// the module comment.
const TABLE: &[CityRow] = &[
    CityRow {
        slug: "ahmedabad",
        name: "Ahmedabad",
        state: "Gujarat",
        centre: (23.0225, 72.5714),
        enabled: true,
        popular: true,
        localities: &[
            ("Navrangpura", 23.0365, 72.5611),
            ("Law Garden", 23.0262, 72.5577),
            ("Vastrapur", 23.0373, 72.5290),
            ("Satellite", 23.0290, 72.5150),
            ("Prahlad Nagar", 23.0120, 72.5108),
            ("Bodakdev", 23.0395, 72.5066),
            ("Thaltej", 23.0500, 72.5090),
            ("Bopal", 23.0333, 72.4630),
            ("Paldi", 23.0110, 72.5630),
            ("Maninagar", 22.9985, 72.6020),
            ("Naranpura", 23.0570, 72.5530),
            ("Chandkheda", 23.1095, 72.5850),
            ("Manek Chowk", 23.0240, 72.5880),
        ],
    },
    CityRow {
        slug: "bangalore",
        name: "Bangalore",
        state: "Karnataka",
        centre: (12.9716, 77.5946),
        enabled: true,
        popular: true,
        localities: &[
            ("Koramangala", 12.9352, 77.6245),
            ("Indiranagar", 12.9784, 77.6408),
            ("HSR Layout", 12.9121, 77.6446),
            ("Whitefield", 12.9698, 77.7500),
            ("Jayanagar", 12.9308, 77.5838),
            ("BTM Layout", 12.9166, 77.6101),
            ("Marathahalli", 12.9569, 77.7011),
            ("Electronic City", 12.8452, 77.6602),
            ("JP Nagar", 12.9077, 77.5851),
            ("MG Road", 12.9756, 77.6066),
            ("Malleshwaram", 13.0031, 77.5700),
            ("Hebbal", 13.0358, 77.5970),
            ("Bellandur", 12.9260, 77.6762),
            ("Banashankari", 12.9255, 77.5468),
            ("Yelahanka", 13.1005, 77.5963),
        ],
    },
    CityRow {
        slug: "chennai",
        name: "Chennai",
        state: "Tamil Nadu",
        centre: (13.0827, 80.2707),
        enabled: true,
        popular: true,
        localities: &[
            ("T. Nagar", 13.0418, 80.2341),
            ("Adyar", 13.0012, 80.2565),
            ("Anna Nagar", 13.0850, 80.2101),
            ("Velachery", 12.9800, 80.2200),
            ("Mylapore", 13.0368, 80.2676),
            ("Nungambakkam", 13.0569, 80.2425),
            ("Besant Nagar", 13.0002, 80.2668),
            ("Alwarpet", 13.0339, 80.2548),
            ("Egmore", 13.0732, 80.2609),
            ("Kilpauk", 13.0825, 80.2415),
            ("Guindy", 13.0067, 80.2206),
            ("Porur", 13.0358, 80.1582),
            ("Thoraipakkam", 12.9389, 80.2345),
            ("Sholinganallur", 12.9010, 80.2279),
            ("Tambaram", 12.9249, 80.1000),
        ],
    },
    CityRow {
        slug: "delhi",
        name: "Delhi",
        state: "Delhi",
        centre: (28.6139, 77.2090),
        enabled: true,
        popular: true,
        localities: &[
            ("Connaught Place", 28.6315, 77.2167),
            ("Hauz Khas", 28.5494, 77.2001),
            ("Saket", 28.5245, 77.2100),
            ("Karol Bagh", 28.6514, 77.1907),
            ("Lajpat Nagar", 28.5677, 77.2433),
            ("Rajouri Garden", 28.6492, 77.1226),
            ("Greater Kailash", 28.5482, 77.2348),
            ("Chandni Chowk", 28.6506, 77.2303),
            ("Defence Colony", 28.5720, 77.2306),
            ("Khan Market", 28.6003, 77.2270),
            ("Nehru Place", 28.5491, 77.2533),
            ("Paharganj", 28.6448, 77.2167),
            ("Mayur Vihar", 28.6070, 77.2940),
            ("Dwarka", 28.5921, 77.0460),
            ("Vasant Kunj", 28.5250, 77.1580),
        ],
    },
    CityRow {
        slug: "gurgaon",
        name: "Gurgaon",
        state: "Haryana",
        centre: (28.4595, 77.0266),
        enabled: true,
        popular: true,
        localities: &[
            ("DLF Cyber City", 28.4950, 77.0895),
            ("Udyog Vihar", 28.5020, 77.0830),
            ("MG Road", 28.4796, 77.0800),
            ("DLF Phase 4", 28.4686, 77.0842),
            ("Golf Course Road", 28.4519, 77.0973),
            ("Sector 29", 28.4689, 77.0685),
            ("Huda City Centre", 28.4594, 77.0725),
            ("Sector 14", 28.4700, 77.0440),
            ("Palam Vihar", 28.5070, 77.0020),
            ("Sohna Road", 28.4150, 77.0420),
            ("Sector 56", 28.4240, 77.1040),
            ("Nirvana Country", 28.4140, 77.0670),
        ],
    },
    CityRow {
        slug: "hyderabad",
        name: "Hyderabad",
        state: "Telangana",
        centre: (17.3850, 78.4867),
        enabled: true,
        popular: true,
        localities: &[
            ("Banjara Hills", 17.4156, 78.4347),
            ("Jubilee Hills", 17.4326, 78.4071),
            ("Gachibowli", 17.4401, 78.3489),
            ("HITEC City", 17.4435, 78.3772),
            ("Madhapur", 17.4483, 78.3915),
            ("Kondapur", 17.4650, 78.3600),
            ("Kukatpally", 17.4849, 78.4138),
            ("Ameerpet", 17.4375, 78.4482),
            ("Begumpet", 17.4447, 78.4664),
            ("Secunderabad", 17.4399, 78.4983),
            ("Himayatnagar", 17.4019, 78.4873),
            ("Charminar", 17.3616, 78.4747),
            ("Mehdipatnam", 17.3950, 78.4390),
            ("Dilsukhnagar", 17.3688, 78.5247),
        ],
    },
    CityRow {
        slug: "kolkata",
        name: "Kolkata",
        state: "West Bengal",
        centre: (22.5726, 88.3639),
        enabled: true,
        popular: true,
        localities: &[
            ("Park Street", 22.5530, 88.3520),
            ("Esplanade", 22.5646, 88.3512),
            ("Salt Lake", 22.5867, 88.4171),
            ("Salt Lake Sector V", 22.5760, 88.4330),
            ("New Town", 22.5900, 88.4750),
            ("Ballygunge", 22.5280, 88.3650),
            ("Gariahat", 22.5188, 88.3670),
            ("Bhowanipore", 22.5330, 88.3460),
            ("Tollygunge", 22.4990, 88.3480),
            ("Jadavpur", 22.4990, 88.3710),
            ("Behala", 22.4980, 88.3110),
            ("Kasba", 22.5150, 88.3930),
            ("Lake Town", 22.6030, 88.4040),
            ("Shyambazar", 22.6030, 88.3720),
        ],
    },
    CityRow {
        slug: "mumbai",
        name: "Mumbai",
        state: "Maharashtra",
        centre: (19.0760, 72.8777),
        enabled: true,
        popular: true,
        localities: &[
            ("Bandra West", 19.0596, 72.8295),
            ("Andheri West", 19.1364, 72.8296),
            ("Powai", 19.1176, 72.9060),
            ("Lower Parel", 18.9980, 72.8300),
            ("Colaba", 18.9150, 72.8258),
            ("Churchgate", 18.9322, 72.8264),
            ("Juhu", 19.1020, 72.8270),
            ("Worli", 19.0096, 72.8176),
            ("Dadar", 19.0178, 72.8478),
            ("Chembur", 19.0522, 72.9005),
            ("Goregaon", 19.1663, 72.8526),
            ("Malad West", 19.1870, 72.8400),
            ("Kandivali West", 19.2070, 72.8400),
            ("Thane West", 19.2000, 72.9700),
            ("Vashi", 19.0745, 72.9978),
        ],
    },
    CityRow {
        slug: "pune",
        name: "Pune",
        state: "Maharashtra",
        centre: (18.5204, 73.8567),
        enabled: true,
        popular: true,
        localities: &[
            ("Koregaon Park", 18.5362, 73.8940),
            ("Kalyani Nagar", 18.5463, 73.9033),
            ("Viman Nagar", 18.5679, 73.9143),
            ("Kharadi", 18.5515, 73.9400),
            ("Hadapsar", 18.5089, 73.9260),
            ("Magarpatta", 18.5150, 73.9300),
            ("Camp", 18.5150, 73.8790),
            ("Shivaji Nagar", 18.5308, 73.8475),
            ("Deccan Gymkhana", 18.5170, 73.8410),
            ("Kothrud", 18.5074, 73.8077),
            ("Aundh", 18.5593, 73.8078),
            ("Baner", 18.5590, 73.7868),
            ("Wakad", 18.5990, 73.7650),
            ("Hinjewadi", 18.5913, 73.7389),
        ],
    },
    // Smaller cities we deliver to: listed in the footer, a few localities each.
    CityRow {
        slug: "jaipur",
        name: "Jaipur",
        state: "Rajasthan",
        centre: (26.9124, 75.7873),
        enabled: true,
        popular: false,
        localities: &[
            ("C-Scheme", 26.9050, 75.8000),
            ("MI Road", 26.9160, 75.8100),
            ("Vaishali Nagar", 26.9110, 75.7430),
        ],
    },
    CityRow {
        slug: "lucknow",
        name: "Lucknow",
        state: "Uttar Pradesh",
        centre: (26.8467, 80.9462),
        enabled: true,
        popular: false,
        localities: &[
            ("Hazratganj", 26.8504, 80.9462),
            ("Aminabad", 26.8440, 80.9330),
            ("Gomti Nagar", 26.8520, 81.0050),
        ],
    },
    CityRow {
        slug: "chandigarh",
        name: "Chandigarh",
        state: "Chandigarh",
        centre: (30.7333, 76.7794),
        enabled: true,
        popular: false,
        localities: &[
            ("Sector 17", 30.7400, 76.7830),
            ("Sector 35", 30.7230, 76.7570),
        ],
    },
    CityRow {
        slug: "kochi",
        name: "Kochi",
        state: "Kerala",
        centre: (9.9312, 76.2673),
        enabled: true,
        popular: false,
        localities: &[
            ("Fort Kochi", 9.9658, 76.2421),
            ("MG Road", 9.9700, 76.2850),
            ("Edappally", 10.0260, 76.3080),
            ("Kakkanad", 10.0159, 76.3419),
        ],
    },
    CityRow {
        slug: "indore",
        name: "Indore",
        state: "Madhya Pradesh",
        centre: (22.7196, 75.8577),
        enabled: true,
        popular: false,
        localities: &[
            ("Vijay Nagar", 22.7533, 75.8937),
            ("Rajwada", 22.7180, 75.8550),
            ("Palasia", 22.7240, 75.8840),
        ],
    },
    CityRow {
        slug: "pondicherry",
        name: "Pondicherry",
        state: "Puducherry",
        centre: (11.9416, 79.8083),
        enabled: true,
        popular: false,
        localities: &[
            ("White Town", 11.9340, 79.8350),
            ("Lawspet", 11.9580, 79.8120),
        ],
    },
    // Known but not served: old addresses still resolve, the footer and the generator skip it.
    CityRow {
        slug: "shimla",
        name: "Shimla",
        state: "Himachal Pradesh",
        centre: (31.1048, 77.1734),
        enabled: false,
        popular: false,
        localities: &[("Mall Road", 31.1040, 77.1730)],
    },
    // Enabled so that only the slug rule of `City::is_listed` keeps it out of the footer; QA uses it to place
    // test orders without touching a real city.
    CityRow {
        slug: "test-city",
        name: "Test City",
        state: "Maharashtra",
        centre: (21.1458, 79.0882),
        enabled: true,
        popular: false,
        localities: &[("Test Locality", 21.1458, 79.0882)],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_is_in_the_nearest_enabled_city_within_reach() {
        let at = |lat, lng| {
            city_at(crate::point::Point::new(lat, lng).unwrap()).map(|c| c.slug.as_str())
        };
        // Koramangala, Bangalore; Andheri, Mumbai; Cyber City, Gurgaon (nearer it than Delhi).
        assert_eq!(at(12.9352, 77.6245), Some("bangalore"));
        assert_eq!(at(19.1136, 72.8697), Some("mumbai"));
        assert_eq!(at(28.4950, 77.0895), Some("gurgaon"));
        // Jaipur is enabled but not popular: still a city.
        assert_eq!(at(26.9124, 75.7873), Some("jaipur"));
        // Shimla is disabled; the Arabian Sea is no city.
        assert_eq!(at(31.1048, 77.1734), None);
        assert_eq!(at(15.0, 70.0), None);
    }

    #[test]
    fn normalise_city_applies_the_aliases() {
        assert_eq!(normalise_city("bengaluru"), "bangalore");
        assert_eq!(normalise_city("thane"), "mumbai");
        assert_eq!(normalise_city("new delhi"), "delhi");
        assert_eq!(normalise_city("gurugram"), "gurgaon");
        assert_eq!(normalise_city("puducherry"), "pondicherry");
    }

    #[test]
    fn normalise_city_ignores_case_and_surrounding_space() {
        assert_eq!(normalise_city("  Bengaluru "), "bangalore");
        assert_eq!(normalise_city("NEW DELHI"), "delhi");
        assert_eq!(normalise_city("New   Delhi"), "delhi");
        assert_eq!(normalise_city("new-delhi"), "delhi");
        assert_eq!(normalise_city("\tGuruGram\n"), "gurgaon");
    }

    #[test]
    fn normalise_city_passes_other_names_through_as_slugs() {
        assert_eq!(normalise_city("Mumbai"), "mumbai");
        assert_eq!(normalise_city("bangalore"), "bangalore");
        assert_eq!(normalise_city("Test City"), "test-city");
        assert_eq!(normalise_city(""), "");
        // Only whole names are aliases: a locality that merely contains one is left alone.
        assert_eq!(normalise_city("Thane West"), "thane-west");
    }

    #[test]
    fn city_lookup_normalises_first() {
        assert_eq!(
            city("Bengaluru").map(|c| c.slug.as_str()),
            Some("bangalore")
        );
        assert_eq!(city("New Delhi").map(|c| c.name.as_str()), Some("Delhi"));
        assert!(city("atlantis").is_none());
    }

    #[test]
    fn slugify_cuts_names_the_way_urls_need() {
        assert_eq!(slugify("HSR Layout"), "hsr-layout");
        assert_eq!(slugify("T. Nagar"), "t-nagar");
        assert_eq!(slugify("Haldiram's"), "haldirams");
        assert_eq!(slugify("Wow! Momo"), "wow-momo");
        assert_eq!(slugify("Rolls & Wraps"), "rolls-wraps");
    }
}
