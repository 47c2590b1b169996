//! The 16 categories of spec section 3, in the spec's order (ids 1-16).

use serde::Serialize;

#[derive(Clone, Copy, Debug, Serialize, utoipa::ToSchema)]
pub struct Category {
    pub id: i64,
    pub name: &'static str,
    /// A lucide icon name; "clipboard" is the spec's default.
    pub icon: &'static str,
    pub description: &'static str,
}

const fn category(id: i64, name: &'static str, icon: &'static str, description: &'static str) -> Category {
    Category { id, name, icon, description }
}

pub const CATEGORIES: [Category; 16] = [
    category(1, "Home Cleaning", "sparkles", "Regular cleans, end-of-lease cleans, ovens, windows and carpets."),
    category(
        2,
        "Furniture Assembly",
        "sofa",
        "Flat-pack beds, desks, wardrobes and outdoor settings put together properly.",
    ),
    category(3, "Handyman", "hammer", "Small repairs, mounting TVs and shelves, fixing doors, taps and fences."),
    category(4, "Delivery", "package", "Pick up and drop off anything from marketplace finds to forgotten keys."),
    category(5, "Moving", "truck", "Help with packing, lifting and transporting for house and office moves."),
    category(6, "Gardening", "flower", "Mowing, weeding, hedge trimming, planting and green-waste removal."),
    category(7, "Painting", "paintbrush", "Interior and exterior painting, touch-ups, feature walls and fences."),
    category(8, "Pet Care", "paw-print", "Dog walking, pet sitting, feeding visits and grooming help."),
    category(9, "Computer Help", "laptop", "Set-up, Wi-Fi and printer fixes, data backup and virus clean-ups."),
    category(10, "Photography", "camera", "Events, portraits, real-estate listings and product photos."),
    category(11, "Graphic Design", "palette", "Logos, flyers, social media graphics and business cards."),
    category(
        12,
        "Writing & Translation",
        "pen-tool",
        "Copywriting, proofreading, CVs and translation between languages.",
    ),
    category(13, "Automotive", "car", "Car washing and detailing, battery swaps and basic servicing."),
    category(14, "Event Help", "party-popper", "Set-up and pack-down, waiting staff, bartending and party help."),
    category(15, "Cooking", "chef-hat", "Meal prep, private chefs, catering for small events and baking."),
    category(16, "Education", "graduation-cap", "Tutoring, music lessons, language coaching and exam preparation."),
];

pub const DEFAULT_ICON: &str = "clipboard";

pub fn by_id(id: i64) -> Option<&'static Category> {
    usize::try_from(id).ok().and_then(|id| id.checked_sub(1)).and_then(|index| CATEGORIES.get(index))
}

/// Name and icon for a stored id (an unknown id shows the spec's defaults).
pub fn label(id: i64) -> (&'static str, &'static str) {
    by_id(id).map_or(("Other", DEFAULT_ICON), |category| (category.name, category.icon))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_spec_order() {
        for (index, category) in CATEGORIES.iter().enumerate() {
            assert_eq!(category.id, index as i64 + 1);
        }
        assert_eq!(by_id(1).unwrap().name, "Home Cleaning");
        assert_eq!(by_id(16).unwrap().name, "Education");
        assert!(by_id(0).is_none() && by_id(17).is_none() && by_id(-1).is_none());
    }
}
