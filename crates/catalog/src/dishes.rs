//! What Indian menus are made of: each cuisine's categories and dishes, and the variant and add-on
//! groups that fit each category.
//!
//! Pure data. Prices are typical mid-range prices in whole rupees; the generator scales them to
//! each restaurant's cost for two. Category names are unique across cuisines, so a restaurant
//! serving two cuisines never gets two "Starters" sections; at most two sections of a category
//! are sub-categories.

use tiffin_catalog_format::{SpiceLevel, VegType};

pub(crate) struct Cuisine {
    pub name: &'static str,
    pub categories: &'static [CategorySpec],
}

pub(crate) struct CategorySpec {
    pub name: &'static str,
    /// Dishes shown directly in the category (`None`) or in a named sub-category.
    pub sections: &'static [(Option<&'static str>, &'static [Dish])],
    /// Variant groups an item of this category may get, all together (pizza: size and crust).
    pub variants: &'static [VariantSpec],
    /// Add-on groups an item of this category may get, each on its own.
    pub addons: &'static [AddonSpec],
}

pub(crate) struct Dish {
    pub name: &'static str,
    pub veg: VegType,
    pub rupees: u32,
    pub description: &'static str,
    pub spice: Option<SpiceLevel>,
}

pub(crate) struct VariantSpec {
    pub name: &'static str,
    /// The first option is the default and adds nothing.
    pub options: &'static [(&'static str, Delta)],
}

/// What a variation adds to the item's price.
#[derive(Clone, Copy)]
pub(crate) enum Delta {
    /// A share of the item's price, in percent: a Full portion costs more at a dearer restaurant.
    Percent(u32),
    /// A fixed amount in rupees, for things that cost the same everywhere (a cheese-burst crust).
    Rupees(u32),
}

pub(crate) struct AddonSpec {
    pub name: &'static str,
    pub min: u8,
    pub max: u8,
    pub max_free: u8,
    pub choices: &'static [(&'static str, u32, VegType)],
}

const fn v(name: &'static str, rupees: u32, description: &'static str) -> Dish {
    Dish {
        name,
        veg: VegType::Veg,
        rupees,
        description,
        spice: None,
    }
}
const fn n(name: &'static str, rupees: u32, description: &'static str) -> Dish {
    Dish {
        name,
        veg: VegType::NonVeg,
        rupees,
        description,
        spice: None,
    }
}
const fn e(name: &'static str, rupees: u32, description: &'static str) -> Dish {
    Dish {
        name,
        veg: VegType::Egg,
        rupees,
        description,
        spice: None,
    }
}
impl Dish {
    const fn medium(self) -> Dish {
        Dish {
            spice: Some(SpiceLevel::MediumSpicy),
            ..self
        }
    }
    const fn hot(self) -> Dish {
        Dish {
            spice: Some(SpiceLevel::VerySpicy),
            ..self
        }
    }
}

use Delta::{Percent, Rupees};
use VegType::{Egg as E, NonVeg as N, Veg as V};

// ---- Variant groups ----------------------------------------------------------------------------

const HALF_FULL: &[VariantSpec] = &[VariantSpec {
    name: "Size",
    options: &[("Half", Percent(0)), ("Full", Percent(70))],
}];
const BIRYANI_QUANTITY: &[VariantSpec] = &[VariantSpec {
    name: "Quantity",
    options: &[
        ("Regular", Percent(0)),
        ("Large", Percent(45)),
        ("Family Pack (serves 3-4)", Percent(180)),
    ],
}];
const PIZZA: &[VariantSpec] = &[
    VariantSpec {
        name: "Size",
        options: &[
            ("Regular (serves 1)", Percent(0)),
            ("Medium (serves 2)", Percent(90)),
            ("Large (serves 4)", Percent(170)),
        ],
    },
    VariantSpec {
        name: "Crust",
        options: &[
            ("Classic Hand Tossed", Rupees(0)),
            ("Thin Crust", Rupees(30)),
            ("Cheese Burst", Rupees(99)),
        ],
    },
];
const DRINK_SIZE: &[VariantSpec] = &[VariantSpec {
    name: "Size",
    options: &[("Regular", Percent(0)), ("Large", Percent(40))],
}];
const FRIES_SIZE: &[VariantSpec] = &[VariantSpec {
    name: "Size",
    options: &[
        ("Regular", Percent(0)),
        ("Medium", Percent(25)),
        ("Large", Percent(50)),
    ],
}];
const MOMO_PIECES: &[VariantSpec] = &[VariantSpec {
    name: "Quantity",
    options: &[("6 Pcs", Percent(0)), ("10 Pcs", Percent(60))],
}];
const SCOOPS: &[VariantSpec] = &[VariantSpec {
    name: "Size",
    options: &[("Single Scoop", Percent(0)), ("Double Scoop", Percent(70))],
}];
const SWEETS_WEIGHT: &[VariantSpec] = &[VariantSpec {
    name: "Weight",
    options: &[
        ("250 g", Percent(0)),
        ("500 g", Percent(95)),
        ("1 kg", Percent(185)),
    ],
}];
const COFFEE: &[VariantSpec] = &[
    VariantSpec {
        name: "Size",
        options: &[("Regular", Percent(0)), ("Large", Percent(30))],
    },
    VariantSpec {
        name: "Milk",
        options: &[
            ("Regular Milk", Rupees(0)),
            ("Oat Milk", Rupees(60)),
            ("Almond Milk", Rupees(60)),
        ],
    },
];
const PASTA_SHAPE: &[VariantSpec] = &[VariantSpec {
    name: "Choice of Pasta",
    options: &[
        ("Penne", Rupees(0)),
        ("Spaghetti", Rupees(0)),
        ("Whole Wheat Penne", Rupees(30)),
    ],
}];

// ---- Add-on groups -----------------------------------------------------------------------------

const BIRYANI_EXTRAS: AddonSpec = AddonSpec {
    name: "Extras",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Onion Raita", 30, V),
        ("Mirchi ka Salan", 40, V),
        ("Double Masala", 20, V),
        ("Boiled Egg", 25, E),
        ("Extra Chicken Piece", 90, N),
    ],
};
const CHOICE_OF_BREAD: AddonSpec = AddonSpec {
    name: "Choice of Bread",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Butter Naan", 55, V),
        ("Tandoori Roti", 25, V),
        ("Laccha Paratha", 60, V),
        ("Garlic Naan", 70, V),
    ],
};
const ADD_RICE: AddonSpec = AddonSpec {
    name: "Add Rice",
    min: 0,
    max: 1,
    max_free: 0,
    choices: &[("Steamed Rice", 90, V), ("Jeera Rice", 120, V)],
};
const CHOICE_OF_SWEET: AddonSpec = AddonSpec {
    name: "Choice of Sweet",
    min: 1,
    max: 1,
    max_free: 1,
    choices: &[
        ("Gulab Jamun", 0, V),
        ("Rasgulla", 0, V),
        ("Kheer", 0, V),
        ("Moong Dal Halwa", 0, V),
    ],
};
const DOSA_EXTRAS: AddonSpec = AddonSpec {
    name: "Extras",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Extra Sambar", 20, V),
        ("Extra Chutney", 15, V),
        ("Ghee", 25, V),
        ("Cheese", 40, V),
        ("Gunpowder Podi", 15, V),
    ],
};
const DIPS: AddonSpec = AddonSpec {
    name: "Dips",
    min: 0,
    max: 3,
    max_free: 1,
    choices: &[
        ("Schezwan Mayo", 30, V),
        ("Mint Mayo", 30, V),
        ("Red Chilli Chutney", 20, V),
        ("Peri Peri Dip", 30, V),
        // Free dips: one is on the house, so picking both breaks the free limit.
        ("Tomato Ketchup", 0, V),
        ("Green Chutney", 0, V),
    ],
};
const PIZZA_TOPPINGS: AddonSpec = AddonSpec {
    name: "Extra Toppings",
    min: 0,
    max: 4,
    max_free: 0,
    choices: &[
        ("Extra Cheese", 60, V),
        ("Jalapenos", 40, V),
        ("Black Olives", 40, V),
        ("Paneer Tikka", 70, V),
        ("Grilled Chicken", 90, N),
        ("Chicken Sausage", 80, N),
    ],
};
const BURGER_ADDONS: AddonSpec = AddonSpec {
    name: "Add-ons",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Cheese Slice", 25, V),
        ("Extra Veg Patty", 60, V),
        ("Fried Egg", 30, E),
        ("Extra Chicken Patty", 80, N),
    ],
};
const MAKE_IT_A_MEAL: AddonSpec = AddonSpec {
    name: "Make it a Meal",
    min: 0,
    max: 1,
    max_free: 0,
    choices: &[("Fries + Coke", 99, V), ("Peri Peri Fries + Coke", 119, V)],
};
const ROLL_EXTRAS: AddonSpec = AddonSpec {
    name: "Extras",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Extra Cheese", 30, V),
        ("Extra Paneer", 40, V),
        ("Mint Mayo", 20, V),
        ("Extra Egg", 20, E),
    ],
};
const SUGAR: AddonSpec = AddonSpec {
    name: "Sugar",
    min: 1,
    max: 1,
    max_free: 1,
    choices: &[
        ("Regular Sugar", 0, V),
        ("Less Sugar", 0, V),
        ("No Sugar", 0, V),
    ],
};
const COFFEE_ADDONS: AddonSpec = AddonSpec {
    name: "Add-ons",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Extra Shot", 50, V),
        ("Whipped Cream", 40, V),
        ("Hazelnut Syrup", 40, V),
    ],
};
const DESSERT_TOPPINGS: AddonSpec = AddonSpec {
    name: "Toppings",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Chocolate Sauce", 20, V),
        ("Roasted Nuts", 30, V),
        ("Extra Scoop of Vanilla", 60, V),
    ],
};
const ADD_PROTEIN: AddonSpec = AddonSpec {
    name: "Add Protein",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Paneer", 60, V),
        ("Tofu", 60, V),
        ("Boiled Egg", 30, E),
        ("Grilled Chicken", 90, N),
    ],
};
const SOUTH_SIDES: AddonSpec = AddonSpec {
    name: "Add Sides",
    min: 0,
    max: 4,
    max_free: 0,
    choices: &[
        ("Kerala Parotta", 35, V),
        ("Appam", 30, V),
        ("Idiyappam", 30, V),
        ("Steamed Rice", 60, V),
    ],
};
const ANDHRA_ADDONS: AddonSpec = AddonSpec {
    name: "Add-ons",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Ghee", 20, V),
        ("Gongura Pachadi", 30, V),
        ("Papad", 15, V),
        ("Extra Rice", 50, V),
    ],
};
const BENGALI_SIDES: AddonSpec = AddonSpec {
    name: "Add Rice or Luchi",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Steamed Rice", 60, V),
        ("Luchi (4 Pcs)", 60, V),
        ("Basanti Pulao", 120, V),
    ],
};
const PAV_EXTRAS: AddonSpec = AddonSpec {
    name: "Extras",
    min: 0,
    max: 3,
    max_free: 0,
    choices: &[
        ("Extra Pav", 20, V),
        ("Extra Butter", 15, V),
        ("Cheese", 30, V),
    ],
};
const CHAAT_EXTRAS: AddonSpec = AddonSpec {
    name: "Extras",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Extra Sev", 15, V),
        ("Extra Dahi", 20, V),
        ("Extra Chutney", 10, V),
    ],
};
const PASTA_ADDONS: AddonSpec = AddonSpec {
    name: "Add-ons",
    min: 0,
    max: 2,
    max_free: 0,
    choices: &[
        ("Garlic Bread (2 Pcs)", 70, V),
        ("Extra Cheese", 50, V),
        ("Grilled Chicken", 90, N),
    ],
};

// ---- Cuisines ----------------------------------------------------------------------------------

/// Sections added when a menu needs more categories or dishes: every kitchen sells drinks and
/// sweets. Their categories all belong to these two cuisines.
pub(crate) const FILLER_CUISINES: &[&str] = &["Beverages", "Desserts"];

pub(crate) fn cuisine(name: &str) -> Option<&'static Cuisine> {
    CUISINES.iter().find(|c| c.name == name)
}

pub(crate) const CUISINES: &[Cuisine] = &[
    Cuisine {
        name: "North Indian",
        categories: &[
            CategorySpec {
                name: "Tandoori Starters",
                sections: &[(None, &[
                    v("Paneer Tikka", 260, "Cottage cheese cubes marinated in spiced yoghurt and charred in the tandoor").medium(),
                    v("Hara Bhara Kebab", 220, "Spinach, green peas and potato patties with mild spices"),
                    v("Tandoori Mushroom", 240, "Button mushrooms in a smoky tandoori marinade"),
                    v("Malai Soya Chaap", 240, "Soya chaap in a creamy cashew and cardamom marinade"),
                    n("Tandoori Chicken", 320, "Chicken on the bone, marinated overnight and roasted in the tandoor").medium(),
                    n("Chicken Tikka", 300, "Boneless chicken in a spiced yoghurt marinade, cooked in the tandoor").medium(),
                    n("Chicken Malai Tikka", 320, "Creamy, mildly spiced chicken tikka with cheese and cardamom"),
                    n("Fish Tikka", 380, "Basa chunks in an ajwain and mustard oil marinade"),
                ])],
                variants: HALF_FULL,
                addons: &[],
            },
            CategorySpec {
                name: "Main Course",
                sections: &[
                    (None, &[
                        v("Dal Makhani", 240, "Black lentils slow-cooked overnight with butter and cream"),
                        v("Dal Tadka", 190, "Yellow lentils tempered with cumin, garlic and red chilli"),
                        v("Chole Masala", 200, "Chickpeas in a tangy, spiced onion-tomato gravy").medium(),
                        v("Mix Veg", 210, "Seasonal vegetables in a home-style gravy"),
                        v("Aloo Gobi", 190, "Potato and cauliflower dry-cooked with turmeric and cumin"),
                        v("Malai Kofta", 260, "Cottage cheese and potato dumplings in a rich cashew gravy"),
                        v("Jeera Aloo", 170, "Potatoes tossed with cumin and green chilli"),
                    ]),
                    (Some("Paneer"), &[
                        v("Paneer Butter Masala", 270, "Cottage cheese in a rich, mildly sweet tomato and butter gravy"),
                        v("Kadai Paneer", 270, "Cottage cheese with capsicum and onion in a kadai masala").medium(),
                        v("Palak Paneer", 260, "Cottage cheese in a smooth spinach gravy"),
                        v("Shahi Paneer", 270, "Cottage cheese in a royal cashew and cream gravy"),
                        v("Paneer Lababdar", 280, "Grated and cubed paneer in a buttery onion-tomato gravy"),
                    ]),
                ],
                variants: HALF_FULL,
                addons: &[CHOICE_OF_BREAD, ADD_RICE],
            },
            CategorySpec {
                name: "Non-Veg Main Course",
                sections: &[
                    (None, &[
                        e("Egg Curry", 180, "Boiled eggs in a spiced onion-tomato gravy").medium(),
                        e("Egg Bhurji", 150, "Scrambled eggs with onion, tomato and green chilli"),
                    ]),
                    (Some("Chicken"), &[
                        n("Butter Chicken", 320, "Tandoori chicken simmered in a velvety tomato, butter and cream gravy"),
                        n("Chicken Tikka Masala", 320, "Chargrilled chicken tikka in a spiced masala gravy").medium(),
                        n("Kadai Chicken", 310, "Chicken cooked with capsicum and freshly ground kadai spices").medium(),
                        n("Chicken Curry", 280, "Home-style chicken curry with whole spices"),
                    ]),
                    (Some("Mutton"), &[
                        n("Mutton Rogan Josh", 420, "Kashmiri-style mutton curry with fennel and Kashmiri chilli").medium(),
                        n("Mutton Curry", 400, "Tender mutton on the bone in a rustic onion gravy").medium(),
                        n("Keema Matar", 360, "Minced mutton cooked with green peas"),
                    ]),
                ],
                variants: HALF_FULL,
                addons: &[CHOICE_OF_BREAD, ADD_RICE],
            },
            CategorySpec {
                name: "Breads",
                sections: &[(None, &[
                    v("Butter Naan", 55, "Soft leavened bread from the tandoor, brushed with butter"),
                    v("Garlic Naan", 70, "Naan topped with chopped garlic and coriander"),
                    v("Tandoori Roti", 25, "Whole-wheat flatbread baked in the tandoor"),
                    v("Butter Roti", 30, "Tandoori roti brushed with butter"),
                    v("Laccha Paratha", 60, "Flaky, layered whole-wheat paratha"),
                    v("Aloo Paratha", 110, "Stuffed with spiced potato, served with curd and pickle"),
                    v("Missi Roti", 45, "Gram flour and wheat flatbread with carom seeds"),
                    v("Cheese Garlic Naan", 110, "Naan stuffed with cheese and garlic"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Rice",
                sections: &[(None, &[
                    v("Jeera Rice", 150, "Basmati rice tempered with cumin"),
                    v("Steamed Rice", 120, "Plain steamed basmati rice"),
                    v("Veg Pulao", 190, "Basmati rice cooked with vegetables and whole spices"),
                    v("Kashmiri Pulao", 220, "Mildly sweet pulao with dry fruits and saffron"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Thalis & Combos",
                sections: &[(None, &[
                    v("Veg Thali", 250, "Dal, two sabzis, rice, two rotis, salad and a sweet"),
                    v("Rajma Chawal", 180, "Kidney beans in a thick gravy with steamed rice"),
                    v("Chole Bhature", 180, "Spicy chickpeas with two fluffy fried bhature").medium(),
                    v("Chole Chawal", 170, "Punjabi chole with steamed rice"),
                    v("Dal Makhani Rice Bowl", 190, "Dal makhani over jeera rice, with salad"),
                    n("Butter Chicken Rice Bowl", 260, "Butter chicken over jeera rice, with salad"),
                    n("Non-Veg Thali", 350, "Chicken curry, dal, rice, two rotis, salad and a sweet"),
                ])],
                variants: &[],
                addons: &[CHOICE_OF_SWEET],
            },
        ],
    },
    Cuisine {
        name: "South Indian",
        categories: &[
            CategorySpec {
                name: "Dosa",
                sections: &[(None, &[
                    v("Masala Dosa", 110, "Crisp rice-and-lentil crepe filled with spiced potato, with sambar and chutneys"),
                    v("Plain Dosa", 90, "Crisp golden dosa with sambar and coconut chutney"),
                    v("Mysore Masala Dosa", 130, "Dosa spread with fiery red chutney and filled with potato masala").medium(),
                    v("Ghee Roast Dosa", 140, "Paper-thin dosa roasted in pure ghee"),
                    v("Onion Rava Dosa", 130, "Lacy semolina dosa with onions, cumin and pepper"),
                    v("Set Dosa", 100, "Three soft, spongy dosas with sagu"),
                    v("Paper Dosa", 140, "An extra-long, extra-crisp dosa"),
                    v("Cheese Masala Dosa", 150, "Masala dosa with a generous layer of cheese"),
                    e("Egg Dosa", 120, "Dosa with an egg spread over it as it cooks"),
                ])],
                variants: &[],
                addons: &[DOSA_EXTRAS],
            },
            CategorySpec {
                name: "Idli & Vada",
                sections: &[(None, &[
                    v("Idli (2 Pcs)", 60, "Steamed rice cakes with sambar and coconut chutney"),
                    v("Medu Vada (2 Pcs)", 70, "Crisp lentil doughnuts with sambar and chutney"),
                    v("Idli Vada", 80, "One idli and one vada with sambar and chutney"),
                    v("Sambar Vada", 80, "Vadas soaked in hot sambar"),
                    v("Rava Idli", 80, "Semolina idli with cashews, carrot and coriander"),
                    v("Ghee Podi Idli", 100, "Mini idlis tossed in ghee and gunpowder podi").medium(),
                ])],
                variants: &[],
                addons: &[DOSA_EXTRAS],
            },
            CategorySpec {
                name: "Uttapam & More",
                sections: &[(None, &[
                    v("Onion Uttapam", 120, "Thick rice pancake topped with onions and chillies"),
                    v("Tomato Onion Uttapam", 130, "Uttapam topped with tomato, onion and coriander"),
                    v("Pongal", 100, "Rice and moong dal cooked with ghee, pepper and cumin"),
                    v("Upma", 80, "Semolina cooked with vegetables and curry leaves"),
                    v("Kesari Bath", 70, "Sweet semolina with ghee, saffron and cashews"),
                    v("Poori Sagu", 110, "Three pooris with a mixed vegetable sagu"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "South Indian Meals",
                sections: &[(None, &[
                    v("South Indian Meals", 180, "Rice, sambar, rasam, poriyal, kootu, curd, papad and payasam"),
                    v("Mini Meals", 140, "A smaller meal: rice, sambar, rasam, poriyal and curd"),
                    v("Curd Rice", 110, "Creamy curd rice tempered with mustard and curry leaves"),
                    v("Lemon Rice", 100, "Tangy lemon rice with peanuts"),
                    v("Bisi Bele Bath", 120, "Karnataka-style rice, lentils and vegetables with spices").medium(),
                    v("Tamarind Rice", 100, "Puliyogare: rice in a tangy tamarind masala"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Biryani",
        categories: &[
            CategorySpec {
                name: "Biryani",
                sections: &[
                    (None, &[
                        v("Veg Dum Biryani", 220, "Basmati rice and vegetables slow-cooked on dum with saffron"),
                        v("Paneer Biryani", 250, "Dum biryani with tikka-marinated cottage cheese"),
                        v("Mushroom Biryani", 240, "Dum biryani with masala mushrooms"),
                        e("Egg Biryani", 210, "Dum biryani with two masala-fried boiled eggs"),
                    ]),
                    (Some("Chicken Biryani"), &[
                        n("Hyderabadi Chicken Dum Biryani", 299, "Marinated chicken and aged basmati sealed and cooked on dum, with salan and raita").medium(),
                        n("Chicken Fry Piece Biryani", 310, "Biryani rice topped with spicy fried chicken pieces").medium(),
                        n("Boneless Chicken Biryani", 320, "Dum biryani with tender boneless chicken"),
                        n("Chicken 65 Biryani", 320, "Biryani layered with fiery Chicken 65").hot(),
                        n("Lucknowi Chicken Biryani", 310, "Fragrant Awadhi biryani with mild spices and kewra"),
                    ]),
                    (Some("Mutton Biryani"), &[
                        n("Mutton Dum Biryani", 399, "Tender mutton and basmati cooked together on dum").medium(),
                        n("Mutton Keema Biryani", 360, "Biryani with spiced minced mutton"),
                        n("Mutton Fry Piece Biryani", 420, "Biryani rice topped with pepper-fried mutton").medium(),
                    ]),
                ],
                variants: BIRYANI_QUANTITY,
                addons: &[BIRYANI_EXTRAS],
            },
            CategorySpec {
                name: "Kebabs",
                sections: &[(None, &[
                    n("Chicken Seekh Kebab", 280, "Minced chicken skewers grilled over charcoal"),
                    n("Mutton Seekh Kebab", 340, "Minced mutton skewers with fresh herbs, grilled over charcoal"),
                    n("Chicken 65", 260, "Deep-fried chicken tossed with curry leaves and red chillies").hot(),
                    n("Tangdi Kebab", 300, "Chicken drumsticks in a creamy tandoori marinade"),
                    v("Paneer 65", 240, "Cottage cheese fried with curry leaves and chillies").medium(),
                    v("Veg Seekh Kebab", 220, "Vegetable and cottage cheese skewers from the tandoor"),
                ])],
                variants: HALF_FULL,
                addons: &[DIPS],
            },
            CategorySpec {
                name: "Sides & Raita",
                sections: &[(None, &[
                    v("Mirchi ka Salan", 60, "Chillies in a tangy peanut and sesame gravy").medium(),
                    v("Onion Raita", 50, "Whisked curd with onion and roasted cumin"),
                    v("Boondi Raita", 60, "Curd with crisp gram flour pearls"),
                    v("Green Salad", 60, "Sliced onion, cucumber, tomato and lemon"),
                    v("Double ka Meetha", 90, "Hyderabadi bread pudding with saffron and dry fruits"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Chinese",
        categories: &[
            CategorySpec {
                name: "Soups",
                sections: &[(None, &[
                    v("Veg Manchow Soup", 140, "Spicy soy-garlic broth with vegetables and crispy noodles").medium(),
                    v("Hot and Sour Veg Soup", 140, "Peppery, tangy soup with vegetables and tofu").medium(),
                    v("Lemon Coriander Soup", 140, "Clear vegetable broth with lemon and coriander"),
                    v("Veg Sweet Corn Soup", 130, "Thick, mild soup with sweet corn"),
                    n("Chicken Manchow Soup", 160, "Spicy chicken broth with crispy noodles").medium(),
                    n("Chicken Sweet Corn Soup", 160, "Sweet corn soup with shredded chicken and egg"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Chinese Starters",
                sections: &[(None, &[
                    v("Chilli Paneer Dry", 240, "Cottage cheese tossed with capsicum, onion and green chilli").medium(),
                    v("Veg Manchurian Dry", 210, "Vegetable dumplings in a tangy soy-garlic glaze"),
                    v("Crispy Corn Salt and Pepper", 200, "Fried sweet corn with pepper, garlic and spring onion"),
                    v("Honey Chilli Potato", 200, "Crisp potato fingers in a sweet-hot glaze"),
                    v("Chilli Mushroom", 220, "Mushrooms wok-tossed in a spicy chilli sauce").medium(),
                    n("Chilli Chicken Dry", 260, "Indo-Chinese classic: fried chicken in chilli-soy sauce").medium(),
                    n("Dragon Chicken", 280, "Crispy chicken strips in a fiery red sauce with cashews").hot(),
                    n("Chicken Lollipop", 280, "Frenched chicken wings fried crisp, with schezwan sauce"),
                    n("Drums of Heaven", 300, "Chicken lollipops tossed in a spicy garlic sauce").medium(),
                    n("Chilli Fish", 320, "Fried basa tossed with chilli, garlic and soy").medium(),
                ])],
                variants: HALF_FULL,
                addons: &[],
            },
            CategorySpec {
                name: "Noodles",
                sections: &[(None, &[
                    v("Veg Hakka Noodles", 180, "Wok-tossed noodles with crunchy vegetables"),
                    v("Schezwan Noodles", 190, "Noodles tossed in fiery schezwan sauce").hot(),
                    v("Chilli Garlic Noodles", 190, "Noodles with burnt garlic and red chilli").medium(),
                    e("Egg Hakka Noodles", 200, "Hakka noodles with scrambled egg"),
                    n("Chicken Hakka Noodles", 220, "Hakka noodles with shredded chicken"),
                    n("Chicken Schezwan Noodles", 230, "Chicken noodles in fiery schezwan sauce").hot(),
                ])],
                variants: HALF_FULL,
                addons: &[],
            },
            CategorySpec {
                name: "Fried Rice",
                sections: &[(None, &[
                    v("Veg Fried Rice", 180, "Wok-fried rice with vegetables and spring onion"),
                    v("Schezwan Fried Rice", 190, "Fried rice in a fiery schezwan sauce").hot(),
                    v("Burnt Garlic Fried Rice", 200, "Fried rice with crisp golden garlic"),
                    e("Egg Fried Rice", 190, "Fried rice with scrambled egg"),
                    n("Chicken Fried Rice", 220, "Fried rice with chicken and vegetables"),
                    n("Mixed Fried Rice", 250, "Fried rice with chicken, prawns and egg"),
                ])],
                variants: HALF_FULL,
                addons: &[],
            },
            CategorySpec {
                name: "Chinese Main Course",
                sections: &[(None, &[
                    v("Veg Manchurian Gravy", 220, "Vegetable dumplings in a soy-garlic gravy"),
                    v("Paneer in Hot Garlic Sauce", 260, "Cottage cheese in a spicy garlic sauce").medium(),
                    v("Exotic Veg in Black Bean Sauce", 250, "Broccoli, baby corn and peppers in black bean sauce"),
                    n("Chilli Chicken Gravy", 270, "Chilli chicken in a thick, spicy gravy").medium(),
                    n("Kung Pao Chicken", 290, "Chicken with dried red chillies and peanuts").medium(),
                    n("Chicken in Oyster Sauce", 290, "Sliced chicken and vegetables in oyster sauce"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Pizzas",
        categories: &[
            CategorySpec {
                name: "Veg Pizzas",
                sections: &[(None, &[
                    v("Margherita", 199, "Classic tomato sauce and mozzarella"),
                    v("Double Cheese Margherita", 279, "Margherita with an extra layer of mozzarella"),
                    v("Farmhouse", 299, "Onion, capsicum, tomato and mushroom"),
                    v("Peppy Paneer", 329, "Paneer, capsicum and red paprika"),
                    v("Mexican Green Wave", 319, "Onion, capsicum, tomato and jalapenos with Mexican herbs").medium(),
                    v("Tandoori Paneer Pizza", 349, "Tandoori paneer, onion and capsicum with mint mayo").medium(),
                    v("Corn and Cheese", 249, "Sweet corn and extra cheese"),
                ])],
                variants: PIZZA,
                addons: &[PIZZA_TOPPINGS],
            },
            CategorySpec {
                name: "Non-Veg Pizzas",
                sections: &[(None, &[
                    n("Chicken Tikka Pizza", 379, "Chicken tikka, onion and capsicum").medium(),
                    n("BBQ Chicken Pizza", 369, "Barbecue chicken with onion and a smoky sauce"),
                    n("Chicken Sausage Pizza", 349, "Chicken sausage and mozzarella"),
                    n("Chicken Supreme", 429, "Chicken tikka, chicken sausage, barbecue chicken and peppers"),
                    n("Chicken Keema Pizza", 389, "Spiced chicken keema, onion and green chilli").medium(),
                ])],
                variants: PIZZA,
                addons: &[PIZZA_TOPPINGS],
            },
            CategorySpec {
                name: "Garlic Breads & Sides",
                sections: &[(None, &[
                    v("Garlic Breadsticks", 119, "Oven-baked breadsticks with garlic butter"),
                    v("Stuffed Garlic Bread", 169, "Garlic bread stuffed with cheese, corn and jalapeno"),
                    v("Potato Wedges", 129, "Seasoned, oven-baked potato wedges"),
                    n("Chicken Wings (6 Pcs)", 229, "Peri peri chicken wings").medium(),
                ])],
                variants: &[],
                addons: &[DIPS],
            },
        ],
    },
    Cuisine {
        name: "Burgers",
        categories: &[
            CategorySpec {
                name: "Burgers",
                sections: &[
                    (None, &[
                        v("Aloo Tikki Burger", 89, "Crisp potato patty with tangy tomato mayo"),
                        v("Veg Cheese Burger", 129, "Veg patty with a cheese slice, lettuce and onion"),
                        v("Paneer Makhani Burger", 169, "Crumbed paneer patty with a makhani sauce"),
                        v("Crispy Veg Burger", 119, "Crunchy vegetable patty with mayo and lettuce"),
                        e("Egg Burger", 119, "Fried egg, onion and pepper mayo in a soft bun"),
                    ]),
                    (Some("Chicken Burgers"), &[
                        n("Classic Chicken Burger", 159, "Grilled chicken patty with lettuce and mayo"),
                        n("Crispy Chicken Burger", 179, "Fried chicken fillet with coleslaw"),
                        n("Peri Peri Chicken Burger", 189, "Chicken patty with a hot peri peri sauce").medium(),
                        n("Double Chicken Cheese Burger", 249, "Two chicken patties and two cheese slices"),
                    ]),
                ],
                variants: &[],
                addons: &[BURGER_ADDONS, MAKE_IT_A_MEAL],
            },
            CategorySpec {
                name: "Fries & Sides",
                sections: &[(None, &[
                    v("Salted Fries", 99, "Golden fries with a pinch of salt"),
                    v("Peri Peri Fries", 119, "Fries tossed in peri peri seasoning").medium(),
                    v("Cheesy Fries", 139, "Fries under a blanket of cheese sauce"),
                    v("Onion Rings", 119, "Crumbed, fried onion rings"),
                    v("Veg Nuggets", 129, "Crumbed vegetable and cheese bites"),
                    n("Chicken Nuggets (6 Pcs)", 159, "Crumbed chicken bites"),
                    n("Chicken Popcorn", 149, "Bite-sized crispy chicken"),
                ])],
                variants: FRIES_SIZE,
                addons: &[DIPS],
            },
        ],
    },
    Cuisine {
        name: "Desserts",
        categories: &[
            CategorySpec {
                name: "Indian Desserts",
                sections: &[(None, &[
                    v("Gulab Jamun (2 Pcs)", 80, "Soft milk dumplings soaked in rose-cardamom syrup"),
                    v("Rasmalai (2 Pcs)", 110, "Cottage cheese discs in saffron milk"),
                    v("Gajar ka Halwa", 120, "Carrots slow-cooked in milk and ghee with dry fruits"),
                    v("Moong Dal Halwa", 130, "Rich lentil halwa with ghee and almonds"),
                    v("Phirni", 90, "Ground rice pudding set in an earthen pot"),
                    v("Kulfi Falooda", 140, "Malai kulfi with vermicelli, basil seeds and rose syrup"),
                    v("Rasgulla (2 Pcs)", 80, "Spongy cottage cheese balls in light syrup"),
                    v("Shahi Tukda", 120, "Fried bread soaked in syrup and topped with rabri"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Cakes & Brownies",
                sections: &[(None, &[
                    e("Walnut Brownie", 120, "Fudgy chocolate brownie with walnuts"),
                    v("Sizzling Brownie with Ice Cream", 190, "Hot brownie on a sizzler plate with vanilla ice cream"),
                    e("Choco Lava Cake", 110, "Chocolate cake with a molten centre"),
                    v("Eggless Red Velvet Pastry", 130, "Red velvet sponge with cream cheese frosting"),
                    e("Blueberry Cheesecake", 220, "Baked cheesecake with blueberry compote"),
                    e("Tiramisu Jar", 220, "Coffee-soaked sponge with mascarpone cream"),
                ])],
                variants: &[],
                addons: &[DESSERT_TOPPINGS],
            },
            CategorySpec {
                name: "Ice Creams & Sundaes",
                sections: &[(None, &[
                    v("Vanilla Ice Cream", 90, "Classic vanilla bean ice cream"),
                    v("Belgian Chocolate Ice Cream", 130, "Dark Belgian chocolate ice cream"),
                    v("Tender Coconut Ice Cream", 120, "Made with tender coconut pulp"),
                    v("Sitaphal Ice Cream", 130, "Custard apple ice cream, in season"),
                    v("Death by Chocolate Sundae", 230, "Chocolate ice cream, brownie, fudge and nuts"),
                    v("Hot Chocolate Fudge", 190, "Vanilla ice cream under hot chocolate fudge and nuts"),
                    v("Alphonso Mango Sundae", 200, "Mango ice cream with fresh Alphonso pulp"),
                ])],
                variants: SCOOPS,
                addons: &[DESSERT_TOPPINGS],
            },
        ],
    },
    Cuisine {
        name: "Chaat",
        categories: &[CategorySpec {
            name: "Chaat",
            sections: &[(None, &[
                v("Pani Puri (6 Pcs)", 60, "Crisp puris with spiced potato and tangy mint water").medium(),
                v("Sev Puri", 70, "Flat puris with potato, chutneys and fine sev"),
                v("Dahi Puri", 80, "Puris filled with potato, sweet curd and chutneys"),
                v("Bhel Puri", 60, "Puffed rice with onion, tomato, sev and chutneys"),
                v("Papdi Chaat", 80, "Crisp papdis with curd, chutneys and chaat masala"),
                v("Aloo Tikki Chaat", 90, "Potato patties with chole, curd and chutneys"),
                v("Samosa Chaat", 90, "Crushed samosa with chole, curd and chutneys"),
                v("Raj Kachori", 110, "A giant crisp kachori filled with everything chaat"),
                v("Dahi Bhalla", 90, "Soft lentil dumplings in sweet curd"),
            ])],
            variants: &[],
            addons: &[CHAAT_EXTRAS],
        }],
    },
    Cuisine {
        name: "Street Food",
        categories: &[
            CategorySpec {
                name: "Pav & Bhaji",
                sections: &[(None, &[
                    v("Pav Bhaji", 140, "Buttery mashed vegetable curry with two toasted pavs"),
                    v("Cheese Pav Bhaji", 170, "Pav bhaji topped with grated cheese"),
                    v("Vada Pav", 30, "Spiced potato fritter in a pav with dry garlic chutney").medium(),
                    v("Dabeli", 40, "Kutchi-style spiced potato in a pav with pomegranate and peanuts"),
                    v("Masala Pav", 70, "Pav toasted with butter and bhaji masala"),
                    e("Egg Bhurji Pav", 100, "Spicy scrambled eggs with buttered pav").medium(),
                    n("Keema Pav", 160, "Spiced mutton mince with buttered pav").medium(),
                ])],
                variants: &[],
                addons: &[PAV_EXTRAS],
            },
            CategorySpec {
                name: "Snacks",
                sections: &[(None, &[
                    v("Samosa (2 Pcs)", 40, "Crisp pastry filled with spiced potato and peas"),
                    v("Kachori (2 Pcs)", 50, "Flaky fried pastry filled with spiced moong dal"),
                    v("Veg Puff", 35, "Puff pastry with a spiced vegetable filling"),
                    v("Bread Pakora", 40, "Gram-flour battered bread stuffed with potato"),
                    v("Paneer Pakora", 120, "Cottage cheese fritters with mint chutney"),
                    v("Onion Bhaji", 80, "Crisp onion fritters"),
                    e("Egg Puff", 40, "Puff pastry with half a boiled egg in masala"),
                    n("Chicken Puff", 50, "Puff pastry with a spiced chicken filling"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Rolls & Wraps",
        categories: &[
            CategorySpec {
                name: "Rolls",
                sections: &[
                    (None, &[
                        v("Paneer Tikka Roll", 150, "Paneer tikka in a flaky paratha with onion and mint chutney"),
                        v("Aloo Tikki Roll", 100, "Potato tikki, onion and chutneys in a paratha"),
                        v("Veg Seekh Roll", 130, "Veg seekh kebab in a paratha with onion and sauces"),
                        v("Mushroom Roll", 130, "Spiced mushrooms rolled in a paratha"),
                        e("Egg Roll", 90, "Flaky paratha layered with egg, onions and sauces"),
                        e("Double Egg Roll", 110, "Paratha with two eggs, onions and sauces"),
                    ]),
                    (Some("Chicken Rolls"), &[
                        n("Chicken Tikka Roll", 160, "Chicken tikka, onion and mint chutney in a paratha"),
                        n("Chicken Seekh Roll", 170, "Chicken seekh kebab in a paratha"),
                        n("Egg Chicken Roll", 170, "Egg-layered paratha with chicken tikka").medium(),
                    ]),
                    (Some("Mutton Rolls"), &[
                        n("Mutton Seekh Roll", 200, "Mutton seekh kebab in a paratha"),
                        n("Mutton Boti Roll", 220, "Tender mutton boti in a paratha").medium(),
                    ]),
                ],
                variants: &[],
                addons: &[ROLL_EXTRAS, DIPS],
            },
            CategorySpec {
                name: "Wraps & Shawarma",
                sections: &[(None, &[
                    v("Falafel Wrap", 160, "Falafel, hummus and pickled vegetables in pita"),
                    v("Crunchy Veg Wrap", 140, "Crumbed veg patty, lettuce and chipotle mayo"),
                    n("Chicken Shawarma Wrap", 160, "Shaved chicken with garlic toum and pickles"),
                    n("Peri Peri Chicken Wrap", 180, "Peri peri chicken, onion and lettuce").medium(),
                    n("Chicken Shawarma Platter", 260, "Chicken shawarma with pita, fries, hummus and toum"),
                ])],
                variants: &[],
                addons: &[DIPS],
            },
        ],
    },
    Cuisine {
        name: "Beverages",
        categories: &[
            CategorySpec {
                name: "Hot Beverages",
                sections: &[(None, &[
                    v("Masala Chai", 40, "Tea brewed with ginger, cardamom and milk"),
                    v("Filter Coffee", 50, "South Indian decoction coffee with frothy milk"),
                    v("Ginger Lemon Honey Tea", 60, "Soothing black tea with ginger, lemon and honey"),
                    v("Hot Badam Milk", 70, "Warm milk with almonds and saffron"),
                    v("Hot Chocolate", 120, "Rich cocoa with steamed milk"),
                ])],
                variants: &[],
                addons: &[SUGAR],
            },
            CategorySpec {
                name: "Cold Beverages",
                sections: &[(None, &[
                    v("Sweet Lassi", 80, "Thick, chilled sweet curd drink"),
                    v("Mango Lassi", 100, "Lassi blended with Alphonso mango pulp"),
                    v("Masala Chaas", 50, "Spiced buttermilk with cumin and mint"),
                    v("Fresh Lime Soda", 70, "Sweet or salted, with fresh lime"),
                    v("Cold Coffee", 120, "Chilled coffee blended with milk and ice cream"),
                    v("Iced Lemon Tea", 90, "Black tea with lemon, over ice"),
                    v("Coke (300 ml)", 40, "Chilled Coca-Cola"),
                    v("Jaljeera", 50, "Tangy cumin and mint cooler"),
                    v("Chocolate Shake", 140, "Thick chocolate milkshake"),
                    v("Oreo Shake", 150, "Milkshake blended with Oreo cookies"),
                ])],
                variants: DRINK_SIZE,
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Cafe",
        categories: &[
            CategorySpec {
                name: "Sandwiches & Bites",
                sections: &[(None, &[
                    v("Veg Club Sandwich", 170, "Triple-decker with vegetables, cheese and mayo"),
                    v("Grilled Cheese Sandwich", 150, "Cheddar and mozzarella, grilled golden"),
                    v("Bombay Masala Sandwich", 130, "Potato masala, chutney and vegetables, grilled"),
                    v("Paneer Tikka Sandwich", 180, "Paneer tikka and onion in grilled bread"),
                    n("Chicken Club Sandwich", 210, "Triple-decker with grilled chicken, egg and lettuce"),
                    e("Egg Mayo Sandwich", 160, "Chopped egg and mayo on toasted bread"),
                    v("Masala Maggi", 90, "Instant noodles cooked with vegetables and masala"),
                    v("Butter Croissant", 110, "Flaky, all-butter croissant"),
                    v("Bun Maska", 60, "Soft bun slathered with butter, best with chai"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Coffee",
                sections: &[(None, &[
                    v("Cappuccino", 160, "Espresso with steamed milk and a thick foam"),
                    v("Cafe Latte", 170, "Espresso with plenty of steamed milk"),
                    v("Americano", 140, "Espresso lengthened with hot water"),
                    v("Cold Brew", 190, "Coffee steeped cold for 18 hours"),
                    v("Hazelnut Frappe", 220, "Iced blended coffee with hazelnut"),
                ])],
                variants: COFFEE,
                addons: &[COFFEE_ADDONS],
            },
            CategorySpec {
                name: "All Day Breakfast",
                sections: &[(None, &[
                    e("Masala Omelette with Toast", 160, "Three-egg omelette with onion and chilli, with buttered toast"),
                    e("Scrambled Eggs on Toast", 180, "Soft scrambled eggs on sourdough"),
                    v("Pancakes with Maple Syrup", 190, "Fluffy pancakes with butter and maple syrup"),
                    v("Avocado Toast", 260, "Smashed avocado, chilli flakes and lime on sourdough"),
                    v("Granola Bowl", 220, "House granola with yoghurt and fresh fruit"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Kerala",
        categories: &[
            CategorySpec {
                name: "Kerala Specials",
                sections: &[
                    (None, &[
                        v("Appam with Veg Stew", 150, "Lacy rice pancakes with a mild coconut-milk vegetable stew"),
                        v("Kerala Parotta (2 Pcs)", 70, "Flaky, layered flatbread"),
                        v("Puttu Kadala", 120, "Steamed rice and coconut cylinders with black chickpea curry"),
                        v("Idiyappam (3 Pcs)", 80, "Steamed string hoppers"),
                        v("Avial", 130, "Mixed vegetables in coconut and curd with coconut oil"),
                        e("Egg Roast", 120, "Boiled eggs in a slow-cooked onion masala").medium(),
                    ]),
                    (Some("Non-Veg Specials"), &[
                        n("Chicken Stew", 220, "Chicken in a mild coconut-milk stew"),
                        n("Kerala Chicken Curry", 240, "Chicken in roasted coconut masala").medium(),
                        n("Kerala Fish Curry", 280, "Fish in a tangy kudampuli and coconut gravy").medium(),
                        n("Prawn Roast", 340, "Prawns roasted with shallots and pepper").hot(),
                        n("Karimeen Pollichathu", 420, "Pearl spot fish spiced, wrapped in banana leaf and grilled").medium(),
                    ]),
                ],
                variants: &[],
                addons: &[SOUTH_SIDES],
            },
            CategorySpec {
                name: "Malabar Biryani & Rice",
                sections: &[(None, &[
                    n("Malabar Chicken Biryani", 280, "Short-grain kaima rice biryani, Thalassery style"),
                    n("Malabar Mutton Biryani", 360, "Kaima rice biryani with tender mutton"),
                    e("Malabar Egg Biryani", 200, "Kaima rice biryani with boiled eggs"),
                    v("Ghee Rice", 140, "Kaima rice cooked in ghee with fried onions"),
                    v("Kerala Meals", 170, "Matta rice, sambar, avial, thoran, pachadi, pickle and payasam"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Chettinad",
        categories: &[
            CategorySpec {
                name: "Chettinad Specials",
                sections: &[
                    (None, &[
                        v("Chettinad Veg Kurma", 200, "Vegetables in a coconut and fennel kurma"),
                        v("Mushroom Chettinad", 230, "Mushrooms in a fiery roasted-spice gravy").hot(),
                        v("Parotta (2 Pcs)", 60, "Soft, layered Madurai-style parotta"),
                        e("Egg Kothu Parotta", 160, "Shredded parotta tossed with egg and salna").medium(),
                    ]),
                    (Some("Chicken"), &[
                        n("Chicken Chettinad", 290, "Chicken in a fiery gravy with kalpasi and black pepper").hot(),
                        n("Pepper Chicken", 280, "Dry chicken roast with crushed black pepper").hot(),
                        n("Chicken Kothu Parotta", 190, "Shredded parotta tossed with chicken and salna").medium(),
                    ]),
                    (Some("Mutton & Seafood"), &[
                        n("Mutton Chukka", 380, "Dry-roasted mutton with shallots and pepper").hot(),
                        n("Nattu Kozhi Kuzhambu", 340, "Country chicken curry, Chettinad style").hot(),
                        n("Nethili Fry", 280, "Crisp-fried anchovies with chilli and curry leaves").medium(),
                    ]),
                ],
                variants: HALF_FULL,
                addons: &[SOUTH_SIDES],
            },
            CategorySpec {
                name: "Chettinad Meals",
                sections: &[(None, &[
                    v("Chettinad Veg Meals", 170, "Rice, sambar, kara kuzhambu, rasam, two poriyals and curd"),
                    n("Chicken Meals", 240, "Veg meals with a bowl of chicken kuzhambu"),
                    n("Mutton Meals", 300, "Veg meals with a bowl of mutton kuzhambu"),
                    n("Fish Meals", 280, "Veg meals with fish kuzhambu and a piece of fish fry"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Andhra",
        categories: &[
            CategorySpec {
                name: "Andhra Curries",
                sections: &[
                    (None, &[
                        v("Gutti Vankaya Curry", 200, "Stuffed baby brinjals in a peanut-sesame masala").medium(),
                        v("Tomato Pappu", 160, "Toor dal cooked with tomatoes and tempered with garlic"),
                        v("Bendakaya Fry", 170, "Crisp okra fry with Andhra spices").medium(),
                        e("Egg Masala", 170, "Boiled eggs in a spicy onion masala").hot(),
                    ]),
                    (Some("Non-Veg Curries"), &[
                        n("Gongura Mutton", 380, "Mutton cooked with tangy sorrel leaves").hot(),
                        n("Andhra Chicken Curry", 280, "Chicken in a hot Guntur chilli gravy").hot(),
                        n("Guntur Chilli Chicken", 290, "Dry chicken with Guntur chillies and curry leaves").hot(),
                        n("Royyala Vepudu", 360, "Prawns stir-fried with Andhra spices").hot(),
                        n("Natu Kodi Pulusu", 360, "Country chicken in a tamarind gravy").hot(),
                    ]),
                ],
                variants: HALF_FULL,
                addons: &[ANDHRA_ADDONS],
            },
            CategorySpec {
                name: "Andhra Meals",
                sections: &[(None, &[
                    v("Andhra Veg Meals", 180, "Rice, pappu, two curries, sambar, rasam, pickle, podi and curd"),
                    v("Pesarattu", 110, "Green moong dosa with ginger and onion, with upma"),
                    v("Ragi Sangati with Curry", 170, "Finger-millet balls with a vegetable curry"),
                    n("Andhra Chicken Meals", 260, "Andhra meals with a chicken curry"),
                    n("Andhra Mutton Meals", 320, "Andhra meals with a mutton curry"),
                ])],
                variants: &[],
                addons: &[ANDHRA_ADDONS],
            },
        ],
    },
    Cuisine {
        name: "Bengali",
        categories: &[
            CategorySpec {
                name: "Bengali Mains",
                sections: &[
                    (None, &[
                        v("Aloo Posto", 160, "Potatoes in a poppy seed paste"),
                        v("Cholar Dal", 140, "Bengal gram with coconut and raisins"),
                        v("Shukto", 150, "Mildly bitter mixed vegetable stew"),
                        v("Begun Bhaja", 80, "Pan-fried aubergine slices"),
                        e("Dimer Dalna", 150, "Egg and potato curry"),
                    ]),
                    (Some("Fish & Prawns"), &[
                        n("Macher Jhol", 260, "Light fish curry with potatoes"),
                        n("Shorshe Ilish", 480, "Hilsa in a pungent mustard gravy").medium(),
                        n("Chingri Malai Curry", 450, "Prawns in a coconut-milk curry"),
                        n("Bhetki Paturi", 380, "Bhetki steamed in banana leaf with mustard"),
                    ]),
                    (Some("Meat"), &[
                        n("Kosha Mangsho", 420, "Slow-cooked, deeply spiced mutton").medium(),
                        n("Chicken Kosha", 300, "Chicken slow-cooked in a thick spicy masala").medium(),
                    ]),
                ],
                variants: &[],
                addons: &[BENGALI_SIDES],
            },
            CategorySpec {
                name: "Bengali Rice & Breads",
                sections: &[(None, &[
                    v("Luchi (4 Pcs)", 70, "Puffed, deep-fried flour breads"),
                    v("Radhaballabhi (2 Pcs)", 80, "Luchi stuffed with spiced urad dal"),
                    v("Basanti Pulao", 160, "Sweet, fragrant ghee rice with cashews and raisins"),
                    n("Kolkata Chicken Biryani", 300, "Mildly spiced biryani with the trademark potato and egg"),
                    n("Kolkata Mutton Biryani", 380, "Mutton biryani with potato and egg"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Bengali Sweets",
                sections: &[(None, &[
                    v("Mishti Doi", 60, "Caramelised sweet set curd in a clay pot"),
                    v("Sandesh (2 Pcs)", 70, "Soft, delicately sweet cottage cheese fudge"),
                    v("Rosogolla (2 Pcs)", 60, "Spongy chhena balls in syrup"),
                    v("Nolen Gur Payesh", 110, "Rice pudding with date-palm jaggery"),
                    v("Chhanar Jilipi", 70, "Fried cottage cheese spirals in syrup"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Gujarati",
        categories: &[
            CategorySpec {
                name: "Farsan",
                sections: &[(None, &[
                    v("Khaman Dhokla", 80, "Steamed, spongy gram flour cakes with green chutney"),
                    v("Khandvi", 100, "Gram flour rolls tempered with mustard and sesame"),
                    v("Fafda Jalebi", 120, "Crisp gram flour strips with hot jalebi"),
                    v("Handvo", 110, "Baked savoury lentil and vegetable cake"),
                    v("Patra", 90, "Colocasia leaf rolls, steamed and tempered"),
                    v("Methi Thepla (4 Pcs)", 110, "Spiced fenugreek flatbreads with chhundo"),
                    v("Sev Khamani", 80, "Crumbled dhokla with sev and pomegranate"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Gujarati Thali & Mains",
                sections: &[(None, &[
                    v("Gujarati Thali", 320, "Dal, kadhi, three shaaks, rotli, rice, farsan and a sweet"),
                    v("Undhiyu", 240, "Winter vegetables slow-cooked with fenugreek dumplings"),
                    v("Sev Tameta nu Shaak", 170, "Sweet-sour tomato curry topped with sev"),
                    v("Dal Dhokli", 180, "Wheat dumplings simmered in sweet-sour dal"),
                    v("Khichdi Kadhi", 190, "Moong dal khichdi with Gujarati kadhi"),
                    v("Ringan no Olo", 170, "Smoky roasted aubergine mash"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Maharashtrian",
        categories: &[
            CategorySpec {
                name: "Maharashtrian Specials",
                sections: &[(None, &[
                    v("Misal Pav", 110, "Spicy sprouted moth bean curry with farsan, onion and pav").hot(),
                    v("Kanda Poha", 60, "Flattened rice with onion, peanuts and curry leaves"),
                    v("Sabudana Khichdi", 80, "Sago pearls with peanuts and green chilli"),
                    v("Sabudana Vada (2 Pcs)", 70, "Crisp sago and potato patties"),
                    v("Thalipeeth", 100, "Multigrain flatbread with white butter"),
                    v("Kothimbir Vadi", 90, "Crisp coriander and gram flour squares"),
                    v("Puran Poli", 90, "Sweet lentil-stuffed flatbread with ghee"),
                ])],
                variants: &[],
                addons: &[PAV_EXTRAS],
            },
            CategorySpec {
                name: "Maharashtrian Thali & Curries",
                sections: &[(None, &[
                    v("Maharashtrian Veg Thali", 220, "Amti, two bhajis, bhakri, rice, koshimbir and a sweet"),
                    v("Pithla Bhakri", 140, "Gram flour curry with jowar bhakri").medium(),
                    n("Kolhapuri Chicken", 300, "Chicken in the fiery Kolhapuri masala with tambda rassa").hot(),
                    n("Mutton Sukka", 380, "Dry mutton with coconut and black masala").hot(),
                    n("Bombil Fry", 260, "Crisp semolina-coated Bombay duck"),
                    n("Surmai Fry", 380, "Kingfish steak in a rava crust"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Healthy Food",
        categories: &[
            CategorySpec {
                name: "Salads & Bowls",
                sections: &[(None, &[
                    v("Quinoa Salad", 240, "Quinoa, cucumber, cherry tomato and feta with lemon dressing"),
                    v("Greek Salad", 230, "Lettuce, olives, peppers and feta with oregano"),
                    v("Paneer Tikka Bowl", 260, "Paneer tikka over brown rice with sauteed vegetables"),
                    v("Rajma Brown Rice Bowl", 220, "Rajma with brown rice and salad"),
                    v("Sprouts Salad", 180, "Moong sprouts, onion, tomato and lemon"),
                    n("Grilled Chicken Salad", 280, "Grilled chicken over greens with honey mustard"),
                    n("Chicken Burrito Bowl", 290, "Chipotle chicken, beans, rice, salsa and sour cream"),
                    e("Egg White Omelette", 160, "Egg whites with spinach and mushroom, with toast"),
                ])],
                variants: &[],
                addons: &[ADD_PROTEIN],
            },
            CategorySpec {
                name: "Smoothies & Juices",
                sections: &[(None, &[
                    v("Green Detox Juice", 150, "Spinach, cucumber, apple and ginger"),
                    v("Banana Peanut Butter Smoothie", 180, "Banana, peanut butter, oats and milk"),
                    v("Berry Blast Smoothie", 190, "Mixed berries and yoghurt"),
                    v("Watermelon Juice", 120, "Fresh watermelon, no sugar added"),
                    v("ABC Juice", 150, "Apple, beetroot and carrot"),
                ])],
                variants: DRINK_SIZE,
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Continental",
        categories: &[
            CategorySpec {
                name: "Continental Starters",
                sections: &[(None, &[
                    v("Bruschetta", 200, "Toasted baguette with tomato, basil and olive oil"),
                    v("Nachos with Salsa", 220, "Corn chips with salsa, cheese sauce and jalapenos"),
                    v("Cheese Garlic Bread", 180, "Baguette with garlic butter and mozzarella"),
                    n("BBQ Chicken Wings", 280, "Wings glazed in a smoky barbecue sauce"),
                    n("Fish Fingers", 320, "Crumbed basa with tartare sauce"),
                ])],
                variants: &[],
                addons: &[],
            },
            CategorySpec {
                name: "Pasta",
                sections: &[(None, &[
                    v("Arrabbiata Pasta", 280, "Spicy tomato, garlic and chilli sauce").medium(),
                    v("Aglio e Olio Pasta", 280, "Garlic, olive oil and chilli flakes"),
                    v("Alfredo Pasta", 300, "Creamy parmesan sauce with mushrooms"),
                    v("Pesto Pasta", 320, "Basil pesto with cherry tomatoes"),
                    v("Pink Sauce Pasta", 300, "Tomato and cream sauce with vegetables"),
                    n("Chicken Alfredo Pasta", 350, "Alfredo sauce with grilled chicken"),
                    n("Chicken Bolognese Pasta", 360, "Slow-cooked chicken mince ragu"),
                ])],
                variants: PASTA_SHAPE,
                addons: &[PASTA_ADDONS],
            },
            CategorySpec {
                name: "Continental Mains",
                sections: &[(None, &[
                    n("Grilled Chicken with Herb Rice", 380, "Herb-marinated chicken breast with sauteed vegetables and rice"),
                    n("Fish and Chips", 420, "Beer-battered fish with fries and tartare sauce"),
                    n("Chicken Stroganoff", 390, "Chicken and mushrooms in a paprika cream sauce, with rice"),
                    v("Cottage Cheese Steak", 340, "Grilled paneer steak with pepper sauce and mash"),
                    v("Veg Au Gratin", 300, "Vegetables baked in a creamy cheese sauce"),
                    v("Mushroom Risotto", 360, "Arborio rice with mushrooms and parmesan"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Momos",
        categories: &[
            CategorySpec {
                name: "Momos",
                sections: &[
                    (None, &[
                        v("Veg Steamed Momos", 120, "Steamed dumplings with cabbage and carrot, with red chutney"),
                        v("Paneer Steamed Momos", 140, "Steamed dumplings with a spiced paneer filling"),
                        v("Veg Fried Momos", 140, "Crisp fried veg dumplings"),
                        v("Veg Kurkure Momos", 160, "Crumb-coated veg momos fried extra crunchy"),
                        v("Corn Cheese Momos", 160, "Sweet corn and cheese filling"),
                        v("Veg Tandoori Momos", 170, "Veg momos in a tandoori marinade, chargrilled").medium(),
                    ]),
                    (Some("Chicken Momos"), &[
                        n("Chicken Steamed Momos", 150, "Steamed dumplings with a juicy chicken filling"),
                        n("Chicken Fried Momos", 170, "Crisp fried chicken dumplings"),
                        n("Chicken Kurkure Momos", 190, "Crumb-coated chicken momos fried extra crunchy"),
                        n("Chicken Pan Fried Momos", 190, "Chicken momos tossed in a spicy sauce").medium(),
                        n("Chicken Tandoori Momos", 200, "Chicken momos in a tandoori marinade").medium(),
                    ]),
                ],
                variants: MOMO_PIECES,
                addons: &[DIPS],
            },
            CategorySpec {
                name: "Thukpa & Bowls",
                sections: &[(None, &[
                    v("Veg Thukpa", 160, "Tibetan noodle soup with vegetables"),
                    n("Chicken Thukpa", 190, "Tibetan noodle soup with chicken"),
                    v("Veg Momo Burger", 130, "A fried veg momo patty in a bun"),
                    n("Chicken Momo Burger", 150, "A fried chicken momo patty in a bun"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Sweets",
        categories: &[
            CategorySpec {
                name: "Mithai",
                sections: &[(None, &[
                    v("Kaju Katli", 250, "Cashew fudge with silver varq"),
                    v("Motichoor Ladoo", 150, "Fine boondi ladoos in pure ghee"),
                    v("Besan Ladoo", 160, "Roasted gram flour ladoos with ghee"),
                    v("Soan Papdi", 120, "Flaky, melt-in-the-mouth gram flour sweet"),
                    v("Milk Cake", 180, "Grainy caramelised milk fudge"),
                    v("Kalakand", 180, "Soft milk cake with cardamom"),
                    v("Mysore Pak", 170, "Rich gram flour and ghee sweet"),
                    v("Dry Fruit Barfi", 300, "Dates, figs and nuts, no added sugar"),
                    v("Jalebi", 120, "Crisp, syrupy spirals, fried fresh"),
                ])],
                variants: SWEETS_WEIGHT,
                addons: &[],
            },
            CategorySpec {
                name: "Namkeen",
                sections: &[(None, &[
                    v("Aloo Bhujia", 80, "Spiced potato and gram flour sev"),
                    v("Bikaneri Bhujia", 90, "Moth bean sev with black pepper"),
                    v("Khatta Meetha", 80, "Sweet and tangy mixture"),
                    v("Moong Dal Namkeen", 90, "Fried salted moong dal"),
                    v("Navratan Mixture", 90, "Nine-ingredient savoury mixture"),
                    v("Chakli", 100, "Crisp rice flour spirals"),
                ])],
                variants: SWEETS_WEIGHT,
                addons: &[],
            },
        ],
    },
    Cuisine {
        name: "Mughlai",
        categories: &[
            CategorySpec {
                name: "Mughlai Kebabs",
                sections: &[(None, &[
                    n("Galouti Kebab", 360, "Melt-in-the-mouth minced mutton patties, Lucknowi style"),
                    n("Shami Kebab", 300, "Minced mutton and chana dal patties"),
                    n("Reshmi Kebab", 320, "Silky chicken kebabs in a cream marinade"),
                    n("Boti Kebab", 360, "Charcoal-grilled mutton chunks").medium(),
                    v("Dahi ke Kebab", 240, "Hung curd kebabs with a crisp crust"),
                    v("Paneer Malai Tikka", 270, "Paneer in a creamy cardamom marinade"),
                ])],
                variants: HALF_FULL,
                addons: &[],
            },
            CategorySpec {
                name: "Mughlai Curries",
                sections: &[(None, &[
                    n("Mutton Korma", 420, "Mutton braised in a rich yoghurt, onion and nut gravy"),
                    n("Nihari", 420, "Slow-cooked mutton shank stew, best with khameeri roti").medium(),
                    n("Chicken Changezi", 340, "Chicken in a rich, smoky Old Delhi gravy"),
                    n("Murgh Musallam", 450, "Whole chicken in a spiced gravy with boiled eggs"),
                    n("Chicken Ishtoo", 320, "Chicken stew in a fragrant, mild gravy"),
                    v("Paneer Korma", 270, "Paneer in a white cashew gravy"),
                    v("Navratan Korma", 260, "Nine vegetables, fruits and nuts in a mild gravy"),
                ])],
                variants: HALF_FULL,
                addons: &[CHOICE_OF_BREAD],
            },
            CategorySpec {
                name: "Mughlai Breads",
                sections: &[(None, &[
                    v("Rumali Roti", 30, "Thin handkerchief bread from the upturned tawa"),
                    v("Sheermal", 60, "Mildly sweet saffron flatbread"),
                    v("Khameeri Roti", 40, "Leavened wheat bread"),
                    v("Warqi Paratha", 70, "Flaky, many-layered paratha"),
                    v("Bakarkhani", 60, "Crisp, biscuit-like layered bread"),
                ])],
                variants: &[],
                addons: &[],
            },
        ],
    },
];

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn category_names_are_unique_across_cuisines() {
        let mut seen = HashSet::new();
        for c in CUISINES.iter().flat_map(|c| c.categories) {
            assert!(seen.insert(c.name), "two categories named {:?}", c.name);
        }
    }

    #[test]
    fn dish_names_are_unique_across_cuisines() {
        // A menu draws from several cuisines; unique names keep a dish from appearing twice.
        let mut seen = HashSet::new();
        for c in CUISINES.iter().flat_map(|c| c.categories) {
            for d in c.sections.iter().flat_map(|s| s.1) {
                assert!(
                    seen.insert(d.name),
                    "{:?} twice (again in {:?})",
                    d.name,
                    c.name
                );
            }
        }
    }

    #[test]
    fn categories_have_at_most_two_sub_categories() {
        for c in CUISINES.iter().flat_map(|c| c.categories) {
            let subs = c.sections.iter().filter(|s| s.0.is_some()).count();
            assert!(subs <= 2, "{} has {subs} sub-categories", c.name);
            assert!(
                c.sections.iter().all(|s| !s.1.is_empty()),
                "{} has an empty section",
                c.name
            );
        }
    }

    #[test]
    fn customisation_specs_are_consistent() {
        for c in CUISINES.iter().flat_map(|c| c.categories) {
            for vs in c.variants {
                assert!(vs.options.len() >= 2, "{}", vs.name);
                assert!(
                    matches!(vs.options[0].1, Percent(0) | Rupees(0)),
                    "{}: default must add nothing",
                    vs.name
                );
            }
            for a in c.addons {
                assert!(a.min <= a.max && a.max_free <= a.max, "{}", a.name);
                assert!(usize::from(a.max) <= a.choices.len(), "{}", a.name);
            }
        }
    }

    #[test]
    fn filler_cuisines_exist() {
        for name in FILLER_CUISINES {
            assert!(cuisine(name).is_some(), "{name}");
        }
    }
}
