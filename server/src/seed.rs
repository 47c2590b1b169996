//! `server seed --demo`: a realistic, idempotent demo marketplace — people with
//! locally generated avatars, skills and Australian suburbs, open tasks in every
//! category, offers from taskers whose skills fit, and one tasker who is phone- and
//! ID-verified with a portfolio ([`verified_tasker`]). Running it twice changes nothing.

mod tasks;
pub mod verified_tasker;

use std::io::Cursor;

use anyhow::Context;
use image::{ImageFormat, Rgb, RgbImage};
use sha2::{Digest, Sha256};

use domain::{accounts::validation::Skill, auth::password, media::Media};
use store::{
    db::{Db, Timestamp, new_id},
    users::{self, NewAccount},
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
    let (tasks_created, offers_created) = tasks::seed(db).await?;
    let tasker = &DEMO_PEOPLE[verified_tasker::VERIFIED_TASKER];
    let tasker_id = users::user_by_email(db, &tasker.email()).await?.context("demo tasker missing")?.id;
    let verified = usize::from(verified_tasker::seed(db, media, tasker_id).await?);
    Ok(format!(
        "demo data: {created} people created, {} already there; {tasks_created} tasks and {offers_created} offers created; \
         {verified} tasker verified with a portfolio (password for all: {DEMO_PASSWORD})",
        DEMO_PEOPLE.len() - created
    ))
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
