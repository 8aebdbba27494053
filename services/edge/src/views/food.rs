//! The contract's food-type words, shared by the menu's and the cart's JSON so both show a dish alike.

use serde::Serialize;
use tiffin_proto::types::VegType;

/// A dish's food type. A dish whose type was never recorded is `DEFAULT`, shown without a mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = VegType)]
pub enum VegWord {
    #[serde(rename = "VEG")]
    Veg,
    #[serde(rename = "NONVEG")]
    NonVeg,
    #[serde(rename = "EGG")]
    Egg,
    #[serde(rename = "DEFAULT")]
    Default,
}

/// `vegType`: `VEG`, `NONVEG`, `EGG`. A dish whose type was never recorded is `DEFAULT` (the
/// contract's fourth value, shown without a mark) rather than a guess either way.
pub fn veg_type_name(veg_type: VegType) -> VegWord {
    match veg_type {
        VegType::Veg => VegWord::Veg,
        VegType::NonVeg => VegWord::NonVeg,
        VegType::Egg => VegWord::Egg,
        VegType::Unspecified => VegWord::Default,
    }
}

/// `isVeg`: 1 only for vegetarian food (egg is not).
pub fn is_veg(veg_type: VegType) -> u8 {
    u8::from(veg_type == VegType::Veg)
}

/// The contract's 1/0 flags (`inStock`, `default`).
pub fn flag(value: bool) -> u8 {
    u8::from(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_veg_is_veg() {
        assert_eq!(
            (
                is_veg(VegType::Veg),
                is_veg(VegType::Egg),
                is_veg(VegType::NonVeg)
            ),
            (1, 0, 0)
        );
        assert_eq!(
            serde_json::to_value(veg_type_name(VegType::NonVeg)).unwrap(),
            "NONVEG"
        );
    }
}
