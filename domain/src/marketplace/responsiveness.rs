//! How someone answers the people who write to them, as their profile states
//! it. A conversation is a task thread's first message to them, or a question
//! on a task they posted; answering it means writing back in that thread, or
//! answering the question.
//!
//! - Response rate: the share of conversations answered within a day, out of
//!   those old enough to have been (a message from an hour ago does not count
//!   against anyone yet).
//! - Response time: the median time to answer, over conversations answered.

use std::time::Duration;

use serde::Serialize;

use store::{db::Timestamp, profile_facts::Conversation};

pub const ANSWER_WITHIN: Duration = Duration::from_secs(24 * 3600);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Responsiveness {
    /// Percent (0–100); null until someone has written to them.
    pub response_rate: Option<i64>,
    /// Median minutes to answer; null until they have answered someone.
    pub response_minutes: Option<i64>,
}

pub fn responsiveness(conversations: &[Conversation], now: Timestamp) -> Responsiveness {
    let window = ANSWER_WITHIN.as_millis() as i64;
    let delay = |c: &Conversation| c.answered_at.map(|answered| (answered.0 - c.received_at.0).max(0));
    let counted: Vec<&Conversation> =
        conversations.iter().filter(|c| c.answered_at.is_some() || now.0 - c.received_at.0 >= window).collect();
    let in_time = counted.iter().filter(|c| delay(c).is_some_and(|ms| ms <= window)).count() as i64;
    let response_rate =
        (!counted.is_empty()).then(|| (in_time * 100 + counted.len() as i64 / 2) / counted.len() as i64);
    let mut delays: Vec<i64> = conversations.iter().filter_map(delay).collect();
    delays.sort_unstable();
    let response_minutes = (!delays.is_empty()).then(|| {
        let middle = delays.len() / 2;
        let median =
            if delays.len().is_multiple_of(2) { (delays[middle - 1] + delays[middle]) / 2 } else { delays[middle] };
        median / 60_000
    });
    Responsiveness { response_rate, response_minutes }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;
    const NOW: Timestamp = Timestamp(1_000 * HOUR);

    fn conversation(hours_ago: i64, answered_after_minutes: Option<i64>) -> Conversation {
        let received_at = Timestamp(NOW.0 - hours_ago * HOUR);
        Conversation { received_at, answered_at: answered_after_minutes.map(|m| Timestamp(received_at.0 + m * 60_000)) }
    }

    #[test]
    fn nobody_wrote_so_there_is_nothing_to_state() {
        assert_eq!(responsiveness(&[], NOW), Responsiveness { response_rate: None, response_minutes: None });
    }

    #[test]
    fn the_rate_counts_answers_within_a_day_and_the_time_is_the_median() {
        let conversations = [
            conversation(100, Some(10)),
            conversation(90, Some(30)),
            conversation(80, Some(60 * 30)), // answered, but after more than a day
            conversation(70, None),
        ];
        let figures = responsiveness(&conversations, NOW);
        assert_eq!(figures.response_rate, Some(50));
        assert_eq!(figures.response_minutes, Some(30));
    }

    #[test]
    fn a_message_still_within_its_day_does_not_count_against_anyone() {
        let figures = responsiveness(&[conversation(2, None), conversation(50, Some(120))], NOW);
        assert_eq!(figures.response_rate, Some(100));
        assert_eq!(figures.response_minutes, Some(120));
        assert_eq!(responsiveness(&[conversation(2, None)], NOW).response_rate, None);
    }
}
