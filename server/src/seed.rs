//! `server seed --demo`: a realistic, idempotent demo marketplace — people with
//! locally generated avatars, skills and Australian suburbs, open tasks in every
//! category, offers from taskers whose skills fit, and one tasker who is phone- and
//! ID-verified with a portfolio ([`verified_tasker`]). Running it twice changes nothing.

pub mod verified_tasker;

use std::io::Cursor;

use anyhow::Context;
use image::{ImageFormat, Rgb, RgbImage};
use sha2::{Digest, Sha256};

use crate::{
    accounts::validation::Skill,
    auth::password,
    db::{Db, Timestamp, new_id},
    marketplace::rules::TaskDraft,
    media::Media,
    store::{
        offers::{self, NewOffer},
        tasks,
        users::{self, NewAccount},
    },
};

/// Every demo account signs in with this password (README says so).
pub const DEMO_PASSWORD: &str = "taskhub-demo";

pub struct DemoPerson {
    pub first_name: &'static str,
    pub last_name: &'static str,
    pub location: &'static str,
    pub bio: &'static str,
    pub skills: &'static [(&'static str, i64)],
}

impl DemoPerson {
    pub fn email(&self) -> String {
        format!("{}.{}@demo.taskhub.local", self.first_name, self.last_name).to_lowercase()
    }

    pub fn is_tasker(&self) -> bool {
        !self.skills.is_empty()
    }
}

pub const DEMO_PEOPLE: &[DemoPerson] = &[
    DemoPerson {
        first_name: "Olivia",
        last_name: "Nguyen",
        location: "Newtown NSW",
        bio: "Busy nurse and new home owner. I post the jobs I never get round to.",
        skills: &[],
    },
    DemoPerson {
        first_name: "Jack",
        last_name: "Thompson",
        location: "Fitzroy VIC",
        bio: "Licensed carpenter, 12 years on the tools. Flat-pack to custom decks.",
        skills: &[("Carpentry", 95), ("Furniture Assembly", 90), ("Deck Building", 80), ("Door Installation", 70)],
    },
    DemoPerson {
        first_name: "Mia",
        last_name: "Patel",
        location: "South Brisbane QLD",
        bio: "Tidy, reliable cleaner with my own eco-friendly supplies.",
        skills: &[("Home Cleaning", 92), ("Window Cleaning", 75), ("Pressure Washing", 60)],
    },
    DemoPerson {
        first_name: "Liam",
        last_name: "O'Brien",
        location: "Fremantle WA",
        bio: "Uni student with a ute. Happy to move, deliver and lift.",
        skills: &[("Moving", 85), ("Delivery", 88), ("Furniture Assembly", 65)],
    },
    DemoPerson {
        first_name: "Charlotte",
        last_name: "Wilson",
        location: "Glenelg SA",
        bio: "Renovating a 1920s bungalow one weekend at a time.",
        skills: &[],
    },
    DemoPerson {
        first_name: "Noah",
        last_name: "Kim",
        location: "Surry Hills NSW",
        bio: "Painter and decorator. Interior, exterior, feature walls.",
        skills: &[("Painting", 94), ("Drywall Repair", 78), ("Wallpapering", 60)],
    },
    DemoPerson {
        first_name: "Amelia",
        last_name: "Rossi",
        location: "Brunswick VIC",
        bio: "Dog walker, cat sitter, occasional chicken whisperer.",
        skills: &[("Pet Care", 96), ("Dog Walking", 95), ("House Sitting", 70)],
    },
    DemoPerson {
        first_name: "William",
        last_name: "Chen",
        location: "Hobart TAS",
        bio: "Retired electrician turned handyman. No job too small.",
        skills: &[("Handyman", 90), ("Electrical", 85), ("Appliance Installation", 80), ("Plumbing", 55)],
    },
    DemoPerson {
        first_name: "Isla",
        last_name: "Murphy",
        location: "Paddington QLD",
        bio: "Landscape gardener. Hedges, lawns, veggie patches.",
        skills: &[("Gardening", 90), ("Garden & Landscaping", 93), ("Gutter Cleaning", 70), ("Fence Installation", 55)],
    },
    DemoPerson {
        first_name: "Ethan",
        last_name: "Walker",
        location: "Canberra ACT",
        bio: "Software engineer. I post tasks; my cat posts complaints.",
        skills: &[],
    },
    DemoPerson {
        first_name: "Grace",
        last_name: "Taylor",
        location: "Manly NSW",
        bio: "Small café owner who needs a hand with deliveries and odd jobs.",
        skills: &[],
    },
    DemoPerson {
        first_name: "Lucas",
        last_name: "Martin",
        location: "Geelong VIC",
        bio: "Removalist by day, IKEA whisperer by night.",
        skills: &[("Moving", 90), ("Furniture Assembly", 92), ("Delivery", 70)],
    },
];

/// Creates whatever part of the demo is missing and says what it did.
pub async fn seed_demo(db: &Db, media: &Media) -> anyhow::Result<String> {
    let password_hash = password::hash(DEMO_PASSWORD.to_owned()).await?;
    let mut created = 0;
    for (index, person) in DEMO_PEOPLE.iter().enumerate() {
        let email = person.email();
        if users::user_by_email(db, &email).await?.is_some() {
            continue;
        }
        let avatar_key = format!("avatars/demo-{index:02}.png");
        media.put(&avatar_key, identicon_png(&email)?).await?;
        let skills: Vec<Skill> =
            person.skills.iter().map(|(name, level)| Skill { name: (*name).into(), level: *level }).collect();
        let account = NewAccount {
            id: new_id(),
            email,
            password_hash: password_hash.clone(),
            email_verified: true,
            first_name: person.first_name.into(),
            last_name: person.last_name.into(),
            company_name: None,
            phone: None,
            location: Some(person.location.into()),
            bio: Some(person.bio.into()),
            avatar_url: Some(format!("/media/{avatar_key}")),
            account_type: if person.is_tasker() { "tasker" } else { "customer" },
            is_tasker: person.is_tasker(),
            skills_json: serde_json::to_string(&skills)?,
            // Spread the join dates over the past two years.
            created_at: Timestamp::now().minus(std::time::Duration::from_secs(86_400 * (30 + 55 * index as u64))),
        };
        users::create_account(db, &account).await.context("creating a demo account")?;
        created += 1;
    }
    let (tasks_created, offers_created) = seed_tasks(db).await?;
    let tasker = &DEMO_PEOPLE[verified_tasker::VERIFIED_TASKER];
    let tasker_id = users::user_by_email(db, &tasker.email()).await?.context("demo tasker missing")?.id;
    let verified = usize::from(verified_tasker::seed(db, media, tasker_id).await?);
    Ok(format!(
        "demo data: {created} people created, {} already there; {tasks_created} tasks and {offers_created} offers created; \
         {verified} tasker verified with a portfolio (password for all: {DEMO_PASSWORD})",
        DEMO_PEOPLE.len() - created
    ))
}

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
async fn seed_tasks(db: &Db) -> anyhow::Result<(usize, usize)> {
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
            coordinates: crate::gazetteer::resolve(poster_person.location).map(|place| (place.lat, place.lon)),
            remote: false,
        };
        // Posted over the last few days, newest last.
        let posted_at =
            Timestamp::now().minus(std::time::Duration::from_secs(3_600 * (DEMO_TASKS.len() - index) as u64 * 3));
        let task_id = tasks::create_task(db, poster_id, &draft, posted_at).await?;
        tasks_created += 1;
        let category = crate::marketplace::categories::by_id(category_id).map_or("", |category| category.name);
        let offerers = people.iter().filter(|(person, id)| {
            *id != poster_id
                && person.skills.iter().any(|(skill, _)| category.contains(skill) || skill.contains(category))
        });
        for (rank, (_, tasker_id)) in offerers.take(3).enumerate() {
            let amount_cents = budget_dollars * 100 * (90 + 10 * rank as i64) / 100;
            let offer = NewOffer {
                task_id,
                tasker_id: *tasker_id,
                amount_cents,
                message: OFFER_MESSAGES[(index + rank) % OFFER_MESSAGES.len()],
                poster_id,
                task_title: title,
                created_at: posted_at.plus(std::time::Duration::from_secs(1_800 * (rank as u64 + 1))),
            };
            offers::create_offer(db, &offer, crate::marketplace::rules::MAX_OFFERS_PER_TASKER_PER_TASK)
                .await
                .map_err(|error| anyhow::anyhow!("demo offer: {error}"))?;
            offers_created += 1;
        }
    }
    Ok((tasks_created, offers_created))
}

/// A 5×5 mirrored pattern in a colour derived from `seed`, like GitHub's identicons.
fn identicon_png(seed: &str) -> anyhow::Result<Vec<u8>> {
    const CELLS: u32 = 5;
    const CELL: u32 = 48;
    const MARGIN: u32 = 36;
    let hash = Sha256::digest(seed.as_bytes());
    let color = Rgb([hash[0] / 2 + 64, hash[1] / 2 + 64, hash[2] / 2 + 64]);
    let side = CELLS * CELL + 2 * MARGIN;
    let mut image = RgbImage::from_pixel(side, side, Rgb([244, 244, 245]));
    for row in 0..CELLS {
        for column in 0..3 {
            if hash[(3 + row * 3 + column) as usize] % 2 == 0 {
                continue;
            }
            for mirrored in [column, CELLS - 1 - column] {
                for y in 0..CELL {
                    for x in 0..CELL {
                        image.put_pixel(MARGIN + mirrored * CELL + x, MARGIN + row * CELL + y, color);
                    }
                }
            }
        }
    }
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Png)?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::guard;

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
