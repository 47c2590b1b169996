//! The demo's tasks: one or more in every category, posted by the demo people, with offers
//! from the taskers whose skills fit.

use anyhow::Context;

use model::marketplace::rules::TaskDraft;
use store::{
    db::{Db, Timestamp},
    offers::{self, NewOffer},
    tasks, users,
};

use crate::seed::DEMO_PEOPLE;

/// (category id, title, description, budget in dollars, poster index into DEMO_PEOPLE, due in days)
type DemoTask = (i64, &'static str, &'static str, i64, usize, i64);

const DEMO_TASKS: &[DemoTask] = &[
    (
        1,
        "End-of-lease clean, 2-bedroom apartment",
        "Need the whole flat spotless for the bond inspection on Friday: oven, bathroom, windows inside, carpets vacuumed.",
        320,
        0,
        5,
    ),
    (
        1,
        "Fortnightly house clean",
        "Three-bedroom house with two bathrooms. Looking for someone reliable for a regular clean every second Tuesday.",
        140,
        9,
        7,
    ),
    (
        1,
        "Clean windows of a two-storey house",
        "About 20 windows, outside only. Ladder needed for the upper floor.",
        180,
        4,
        12,
    ),
    (
        2,
        "Assemble IKEA PAX wardrobe",
        "Two-door PAX wardrobe with sliding doors and interior drawers. All boxes are in the bedroom.",
        150,
        0,
        3,
    ),
    (
        2,
        "Put together a flat-pack desk and chair",
        "Home office desk (120 cm) and an office chair. Tools would be great, I only have an Allen key.",
        70,
        9,
        4,
    ),
    (
        2,
        "Outdoor dining setting assembly",
        "Eight-seat outdoor table and chairs, delivered flat-packed to the back patio.",
        110,
        10,
        9,
    ),
    (
        3,
        "Mount a 65-inch TV on a brick wall",
        "Bracket is bought. Need it mounted at eye height and cables hidden in a channel.",
        160,
        4,
        6,
    ),
    (
        3,
        "Fix a sticking front door",
        "The front door drags on the floor since the wet weather. Probably needs planing and a hinge adjustment.",
        90,
        0,
        8,
    ),
    (3, "Replace kitchen tap", "Mixer tap has started leaking at the base. New tap is already here.", 120, 9, 5),
    (
        4,
        "Pick up a couch from Marrickville",
        "Facebook Marketplace find, three-seater. Needs to go from Marrickville to Newtown, ground floor both ends.",
        80,
        0,
        2,
    ),
    (
        4,
        "Deliver cakes to three cafés each Saturday morning",
        "Regular Saturday run, about 25 km in total, 6am start. Insulated boxes provided.",
        90,
        10,
        6,
    ),
    (
        5,
        "Help moving a one-bedroom apartment",
        "Moving from a second-floor walk-up in Brunswick to Coburg. Need two people and a van for about four hours.",
        450,
        4,
        14,
    ),
    (
        5,
        "Move a piano within the house",
        "Upright piano from the lounge to the study, same level, one doorway to get through carefully.",
        220,
        9,
        10,
    ),
    (
        6,
        "Mow and edge front and back lawns",
        "Medium-sized lawns, mower available on site. Green waste can go in the council bin.",
        75,
        0,
        4,
    ),
    (
        6,
        "Trim a long hedge and take away the clippings",
        "About 25 metres of murraya hedge, 1.8 m tall. Clippings need to be taken away.",
        260,
        10,
        11,
    ),
    (
        6,
        "Plant a veggie patch",
        "Two raised beds are built. Need soil mixed in, seedlings planted and drip irrigation set up.",
        200,
        4,
        16,
    ),
    (
        7,
        "Paint a bedroom feature wall",
        "One wall, about 4 × 2.7 m, dark green. Paint is bought; need prep, cutting in and two coats.",
        250,
        0,
        9,
    ),
    (
        7,
        "Repaint timber fence",
        "Front picket fence, about 15 metres, needs a sand and two coats of white.",
        480,
        4,
        20,
    ),
    (
        8,
        "Walk my labrador twice a day next week",
        "Friendly 3-year-old lab, good on the lead. 45-minute walks at 7am and 5pm, Monday to Friday.",
        200,
        9,
        5,
    ),
    (
        8,
        "Feed two cats while I'm away",
        "Daily visit for 10 days: food, water, litter and a bit of company.",
        180,
        10,
        12,
    ),
    (
        9,
        "Set up a home Wi-Fi mesh network",
        "Three-node mesh kit for a double-storey house. Need it set up and the old router retired.",
        120,
        10,
        6,
    ),
    (
        9,
        "Back up family photos and set up cloud storage",
        "Two old laptops full of photos. Want them backed up to the cloud and organised by year.",
        150,
        4,
        15,
    ),
    (
        10,
        "Photograph a 60th birthday lunch",
        "Two hours of candid and group photos at a restaurant in Glenelg, edited photos within a week.",
        400,
        4,
        25,
    ),
    (
        10,
        "Product photos for an online shop",
        "About 30 handmade ceramic pieces on a white background, shot at my studio.",
        350,
        10,
        18,
    ),
    (
        11,
        "Design a logo for a small café",
        "Neighbourhood café rebrand: logo, colour palette and a simple menu template.",
        500,
        10,
        21,
    ),
    (
        12,
        "Proofread a 20-page business plan",
        "Plan for a bank loan application. Need grammar, clarity and consistency checked.",
        150,
        9,
        7,
    ),
    (
        12,
        "Translate a recipe booklet from Italian to English",
        "12 family recipes, about 4,000 words. Keeping the voice matters more than literal accuracy.",
        300,
        0,
        24,
    ),
    (
        13,
        "Full interior and exterior car detail",
        "Small SUV, family car with kids and a dog. Come to my place in Canberra.",
        220,
        9,
        8,
    ),
    (
        14,
        "Two staff for a backyard party",
        "Setting up, serving drinks and packing down for a 40-person party on a Saturday afternoon.",
        420,
        10,
        13,
    ),
    (
        14,
        "Set up and pack down a community stall",
        "Gazebo, two tables and signage at the Saturday market, 6am set-up and 2pm pack-down.",
        120,
        4,
        6,
    ),
    (
        15,
        "Meal prep for a week",
        "Cook five dinners for two people, one of them vegetarian, in my kitchen on Sunday.",
        260,
        9,
        6,
    ),
    (
        15,
        "Bake a birthday cake for 30 people",
        "Chocolate, gluten free, with a simple unicorn decoration for a 7-year-old.",
        180,
        0,
        10,
    ),
    (16, "Year 10 maths tutoring", "Weekly one-hour sessions before the exams, at home or online.", 60, 4, 5),
    (
        16,
        "Beginner guitar lessons",
        "Adult beginner, own acoustic guitar. Four weekly lessons to get started.",
        200,
        10,
        9,
    ),
];

const OFFER_MESSAGES: &[&str] = &[
    "Hi! I've done plenty of jobs like this and can bring everything needed. Happy to start this week.",
    "I'm nearby and free on the day. Fully insured, and I'll leave the place as tidy as I found it.",
    "Sounds good. I can do it for this price including materials pick-up if needed. Any questions, just ask.",
];

/// Tasks for the demo people, with offers from the taskers whose skills fit;
/// only when none of the demo tasks exist yet.
pub async fn seed(db: &Db) -> anyhow::Result<(usize, usize)> {
    let mut people = Vec::with_capacity(DEMO_PEOPLE.len());
    for person in DEMO_PEOPLE {
        let user = users::user_by_email(db, &person.email()).await?.context("demo person missing")?;
        people.push((person, user.id));
    }
    let first_poster = people[DEMO_TASKS[0].4].1;
    if !tasks::tasks_posted_by(db, first_poster, 1).await?.is_empty() {
        return Ok((0, 0));
    }
    let today = time::OffsetDateTime::now_utc().date();
    let (mut tasks_created, mut offers_created) = (0, 0);
    for (index, &(category_id, title, description, budget_dollars, poster, due_in_days)) in
        DEMO_TASKS.iter().enumerate()
    {
        let (poster_person, poster_id) = people[poster];
        let draft = TaskDraft {
            title: title.into(),
            description: description.into(),
            category_id,
            location: poster_person.location.into(),
            budget_cents: budget_dollars * 100,
            due_date: today + time::Duration::days(due_in_days),
            coordinates: model::gazetteer::resolve(poster_person.location).map(|place| (place.lat, place.lon)),
            remote: false,
        };
        // Posted over the last few days, newest last.
        let posted_at =
            Timestamp::now().minus(std::time::Duration::from_secs(3_600 * (DEMO_TASKS.len() - index) as u64 * 3));
        let task_id = tasks::create_task(db, poster_id, &draft, posted_at).await?;
        tasks_created += 1;
        let category = model::marketplace::categories::by_id(category_id).map_or("", |category| category.name);
        let offerers = people.iter().filter(|(person, id)| {
            *id != poster_id
                && person.skills.iter().any(|(skill, _)| category.contains(skill) || skill.contains(category))
        });
        for (rank, (_, tasker_id)) in offerers.take(3).enumerate() {
            let amount_cents = budget_dollars * 100 * (90 + 10 * rank as i64) / 100;
            let offered_at = posted_at.plus(std::time::Duration::from_secs(1_800 * (rank as u64 + 1)));
            let offer = NewOffer {
                task_id,
                tasker_id: *tasker_id,
                amount_cents,
                message: OFFER_MESSAGES[(index + rank) % OFFER_MESSAGES.len()],
                notification: domain::notices::new_offer(poster_id, task_id, title, offered_at),
                created_at: offered_at,
            };
            offers::create_offer(db, &offer, model::marketplace::rules::MAX_OFFERS_PER_TASKER_PER_TASK)
                .await
                .map_err(|error| anyhow::anyhow!("demo offer: {error}"))?;
            offers_created += 1;
        }
    }
    Ok((tasks_created, offers_created))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::moderation::guard;

    #[test]
    fn demo_texts_pass_the_contact_guard() {
        for &(_, title, description, ..) in DEMO_TASKS {
            assert_eq!(guard::keep_on_platform(&[("title", title), ("description", description)]), Ok(()));
        }
        for message in OFFER_MESSAGES {
            assert_eq!(guard::keep_on_platform(&[("message", message)]), Ok(()), "{message}");
        }
    }
}
