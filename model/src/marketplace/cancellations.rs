//! Why a task was cancelled and whom it is attributed to. Every cancellation
//! (the poster's of an open task, a request either party makes after
//! assignment, an operator's refund of a dispute) records a reason from a
//! fixed list; the attribution follows from the reason and who asked, and
//! feeds the tasker's completion rate: cancellations attributed to the tasker
//! count against it, those attributed to the poster (or nobody) do not.

use crate::{
    payments::rules::Party,
    refusal::Invalid,
    states::{CancellationAttribution, DisputeReason},
};

/// The reasons a cancellation may give, in the order the app lists them.
pub const REASONS: [&str; 9] = [
    "no_longer_needed",
    "found_someone_else",
    "job_changed",
    "poster_unresponsive",
    "tasker_unavailable",
    "tasker_no_show",
    "mutual_agreement",
    "weather_or_safety",
    "other",
];

/// The reason given, or `other` when none was; refused for one not on the list.
pub fn reason(code: Option<&str>) -> Result<&'static str, Invalid> {
    let code = code.map(str::trim).filter(|code| !code.is_empty()).unwrap_or("other");
    REASONS
        .iter()
        .find(|known| **known == code)
        .copied()
        .ok_or_else(|| Invalid::field("reason_code", "Please choose a reason from the list"))
}

/// Whom a cancellation asked for by `requester` with `reason` is attributed to:
/// the reason's party when it names one, nobody for shared causes, else the one who asked.
pub fn attribution(requester: Party, reason: &str) -> CancellationAttribution {
    match reason {
        "tasker_unavailable" | "tasker_no_show" => CancellationAttribution::Tasker,
        "no_longer_needed" | "found_someone_else" | "job_changed" | "poster_unresponsive" => {
            CancellationAttribution::Poster
        }
        "mutual_agreement" | "weather_or_safety" => CancellationAttribution::Nobody,
        _ => match requester {
            Party::Poster => CancellationAttribution::Poster,
            Party::AssignedTasker => CancellationAttribution::Tasker,
            Party::Other => CancellationAttribution::Nobody,
        },
    }
}

/// Whom a request nobody answered is attributed to when it lapses into a cancellation: the one
/// who asked, or nobody, never the party who stayed silent. The asker's reason alone is no
/// evidence against the other party (a poster citing `tasker_no_show` and waiting out the 48 hours
/// must not count against the tasker), so a reason that blames the other party counts as nobody's.
pub fn lapse_attribution(requester: Party, reason: &str) -> CancellationAttribution {
    let asker = match requester {
        Party::Poster => CancellationAttribution::Poster,
        Party::AssignedTasker => CancellationAttribution::Tasker,
        Party::Other => CancellationAttribution::Nobody,
    };
    match attribution(requester, reason) {
        blamed if blamed == asker => asker,
        _ => CancellationAttribution::Nobody,
    }
}

/// An operator's full refund of a dispute: a tasker who did not come or did
/// not do the work is answerable for it; anything else is nobody's fault on record.
pub fn dispute_attribution(dispute_reason: DisputeReason) -> CancellationAttribution {
    match dispute_reason {
        DisputeReason::NoShow | DisputeReason::NotCompleted => CancellationAttribution::Tasker,
        DisputeReason::PoorQuality | DisputeReason::Other => CancellationAttribution::Nobody,
    }
}

/// Completion rate shown on a tasker's profile: completed out of those assigned
/// and finished (completed, or cancelled on the tasker's account) over the last
/// 12 months, as a whole percent; none under 5 such tasks.
pub const COMPLETION_RATE_MINIMUM: i64 = 5;

pub fn completion_rate(completed: i64, cancelled_by_tasker: i64) -> Option<i64> {
    let assigned = completed + cancelled_by_tasker;
    (assigned >= COMPLETION_RATE_MINIMUM).then(|| (completed * 100 + assigned / 2) / assigned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_comes_from_the_list_and_defaults_to_other() {
        assert_eq!(reason(Some("tasker_no_show")).unwrap(), "tasker_no_show");
        assert_eq!(reason(None).unwrap(), "other");
        assert_eq!(reason(Some("  ")).unwrap(), "other");
        assert!(reason(Some("because")).is_err());
    }

    #[test]
    fn the_reason_names_the_party_else_whoever_asked() {
        assert_eq!(attribution(Party::Poster, "tasker_no_show").as_str(), "tasker");
        assert_eq!(attribution(Party::AssignedTasker, "tasker_unavailable").as_str(), "tasker");
        assert_eq!(attribution(Party::AssignedTasker, "poster_unresponsive").as_str(), "poster");
        assert_eq!(attribution(Party::Poster, "no_longer_needed").as_str(), "poster");
        assert_eq!(attribution(Party::Poster, "mutual_agreement").as_str(), "none");
        assert_eq!(attribution(Party::AssignedTasker, "other").as_str(), "tasker");
        assert_eq!(attribution(Party::Poster, "other").as_str(), "poster");
        assert_eq!(dispute_attribution(DisputeReason::NoShow).as_str(), "tasker");
        assert_eq!(lapse_attribution(Party::Poster, "tasker_no_show").as_str(), "none");
        assert_eq!(lapse_attribution(Party::Poster, "no_longer_needed").as_str(), "poster");
        assert_eq!(lapse_attribution(Party::Poster, "other").as_str(), "poster");
        assert_eq!(lapse_attribution(Party::AssignedTasker, "poster_unresponsive").as_str(), "none");
        assert_eq!(lapse_attribution(Party::AssignedTasker, "tasker_unavailable").as_str(), "tasker");
        assert_eq!(lapse_attribution(Party::AssignedTasker, "mutual_agreement").as_str(), "none");
        assert_eq!(dispute_attribution(DisputeReason::PoorQuality).as_str(), "none");
    }

    #[test]
    fn the_completion_rate_needs_five_tasks_and_counts_only_the_taskers_cancellations() {
        assert_eq!(completion_rate(4, 0), None);
        assert_eq!(completion_rate(5, 0), Some(100));
        assert_eq!(completion_rate(4, 1), Some(80));
        assert_eq!(completion_rate(2, 1), None);
        assert_eq!(completion_rate(5, 1), Some(83));
        assert_eq!(completion_rate(0, 5), Some(0));
    }
}
