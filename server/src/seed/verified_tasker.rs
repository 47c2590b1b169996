//! The demo's verified tasker: Jack, the carpenter, with a mobile number confirmed by code and an
//! identity verified in the sandbox (the rows phone and identity verification write), and a
//! portfolio of his work whose pictures, drawn here, go through the media pipeline as uploads do.

use std::{io::Cursor, time::Duration};

use anyhow::Context;
use bytes::Bytes;
use image::{ImageFormat, Rgb, RgbImage};
use uuid::Uuid;

use domain::{
    media::{Media, photos::PhotoKey},
    verification::phone,
};
use store::{
    db::{Db, Timestamp, new_id},
    portfolio::{self, PortfolioRow},
    verification::{self, IdentitySessionRow, IdentityStatus, PhoneCodeRow},
};

use crate::http::portfolio::MAX_PORTFOLIO_ITEMS;

/// Index into `DEMO_PEOPLE` of the verified tasker (Jack Thompson, the carpenter).
pub const VERIFIED_TASKER: usize = 1;
/// One of the mobile numbers ACMA sets aside for fiction: it reaches no one.
const PHONE: &str = "0491 570 156";
/// How long ago Jack verified.
const VERIFIED_AGO: Duration = Duration::from_secs(86_400 * 40);

/// A portfolio item: title, description, and its picture's timber colour and plank direction.
struct Work {
    title: &'static str,
    description: &'static str,
    timber: [u8; 3],
    vertical: bool,
}

const PORTFOLIO: &[Work] = &[
    Work {
        title: "Spotted gum deck, Northcote",
        description: "A 24 m² deck on a steel subframe, oiled twice. Built over four days.",
        timber: [150, 100, 62],
        vertical: false,
    },
    Work {
        title: "Built-in study desk",
        description: "Tasmanian oak desk and shelving across an alcove, scribed to uneven walls.",
        timber: [214, 176, 128],
        vertical: false,
    },
    Work {
        title: "Cedar front door refit",
        description: "Rehung a heavy cedar door on new hinges, planed and sealed after it swelled.",
        timber: [168, 84, 52],
        vertical: true,
    },
];

/// Verifies the tasker's phone and identity and adds the portfolio, whichever is missing.
/// Whether it did anything.
pub async fn seed(db: &Db, media: &Media, tasker_id: Uuid) -> anyhow::Result<bool> {
    let facts = verification::verification(db, tasker_id).await?.context("the demo tasker has no profile")?;
    let verified_at = Timestamp::now().minus(VERIFIED_AGO);
    let mut changed = false;
    if facts.phone_verified_at.is_none() {
        verify_phone(db, tasker_id, verified_at).await?;
        changed = true;
    }
    if facts.identity_verified_at.is_none() {
        verify_identity(db, tasker_id, verified_at).await?;
        changed = true;
    }
    if portfolio::items_of(db, tasker_id).await?.is_empty() {
        add_portfolio(db, media, tasker_id, verified_at).await?;
        changed = true;
    }
    Ok(changed)
}

/// A code as `POST /api/me/phone/start` stores it, used as `POST /api/me/phone/verify` uses it.
async fn verify_phone(db: &Db, user_id: Uuid, at: Timestamp) -> anyhow::Result<()> {
    let number = phone::parse_phone(PHONE, &["AU".to_owned()])?;
    let id = new_id();
    let code = PhoneCodeRow {
        id,
        user_id,
        phone: number.e164,
        country: number.country,
        code_hash: phone::hash_code(id, &phone::new_code()),
        created_at: at,
        expires_at: at.plus(phone::CODE_LIFETIME),
        attempts: 0,
        used_at: None,
    };
    verification::insert_phone_code(db, &code).await?;
    anyhow::ensure!(verification::confirm_phone(db, &code, at).await?, "the demo phone code was used already");
    Ok(())
}

/// A sandbox identity session, decided Verified as the sandbox page's Verify button decides it.
async fn verify_identity(db: &Db, user_id: Uuid, at: Timestamp) -> anyhow::Result<()> {
    let id = new_id();
    let session = IdentitySessionRow {
        id,
        user_id,
        provider: "sandbox".into(),
        provider_ref: format!("vs_sandbox_{}", id.simple()),
        status: IdentityStatus::Pending,
        created_at: at,
        decided_at: None,
    };
    verification::insert_identity_session(db, &session).await?;
    verification::decide_identity_session(db, id, IdentityStatus::Verified, at).await?;
    Ok(())
}

async fn add_portfolio(db: &Db, media: &Media, user_id: Uuid, at: Timestamp) -> anyhow::Result<()> {
    for (index, work) in PORTFOLIO.iter().enumerate() {
        let added_at = at.plus(Duration::from_secs(3_600 * index as u64));
        let item = PortfolioRow {
            id: new_id(),
            user_id,
            title: work.title.into(),
            description: Some(work.description.into()),
            position: 0,
            created_at: added_at,
            updated_at: added_at,
        };
        media.store_photo(PhotoKey::Portfolio(item.id), Bytes::from(planks_png(work)?)).await?;
        anyhow::ensure!(portfolio::add_item(db, &item, MAX_PORTFOLIO_ITEMS).await?, "the demo portfolio is full");
    }
    Ok(())
}

/// Timber planks in `work`'s colour: each plank a little lighter or darker, with a faint grain
/// and a dark gap between planks.
fn planks_png(work: &Work) -> anyhow::Result<Vec<u8>> {
    const WIDTH: u32 = 960;
    const HEIGHT: u32 = 720;
    const PLANK: u32 = 80;
    const GAP: u32 = 4;
    let image = RgbImage::from_fn(WIDTH, HEIGHT, |x, y| {
        let (across, along) = if work.vertical { (x, y) } else { (y, x) };
        if across % PLANK < GAP {
            return Rgb([40, 28, 20]);
        }
        let plank = across / PLANK;
        let shade = [0, 14, -10, 6, -16, 10, -4, 18, -8, 2, 12, -12][plank as usize % 12];
        let grain = ((along as f32 / 23.0 + (across % PLANK) as f32 / 7.0 + plank as f32).sin() * 6.0) as i32;
        Rgb(work.timber.map(|channel| (i32::from(channel) + shade + grain).clamp(0, 255) as u8))
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Png)?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pictures_are_planks_of_the_works_timber() {
        let png = planks_png(&PORTFOLIO[0]).unwrap();
        let image = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(image.dimensions(), (960, 720));
        assert_eq!(image.get_pixel(10, 1).0, [40, 28, 20], "a gap between planks");
        let [r, g, b] = image.get_pixel(10, 40).0;
        assert!(r > g && g > b, "timber brown, not {:?}", [r, g, b]);
    }

    #[test]
    fn the_demo_number_is_a_valid_australian_mobile() {
        assert_eq!(phone::parse_phone(PHONE, &["AU".to_owned()]).unwrap().e164, "+61491570156");
    }
}
