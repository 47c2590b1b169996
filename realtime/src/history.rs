//! Recent events of one topic, bounded by count and age, for `since` recovery.

use std::collections::VecDeque;

use axum::extract::ws::Utf8Bytes;

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub seq: u64,
    pub at_ms: u64,
    pub frame: Utf8Bytes,
}

#[derive(Debug, Default)]
pub(crate) struct History {
    entries: VecDeque<Entry>,
}

impl History {
    pub fn push(&mut self, entry: Entry, max_len: usize, oldest_ms: u64) {
        self.entries.push_back(entry);
        while self.entries.len() > max_len {
            self.entries.pop_front();
        }
        self.expire(oldest_ms);
    }

    pub fn expire(&mut self, oldest_ms: u64) {
        while self.entries.front().is_some_and(|e| e.at_ms < oldest_ms) {
            self.entries.pop_front();
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn newest_ms(&self) -> Option<u64> {
        self.entries.back().map(|e| e.at_ms)
    }

    pub fn after(&self, seq: u64) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.seq > seq)
    }
}

/// What a subscriber missed: every event in `since+1 ..= current`, in order and none too old,
/// or `None` when any of them is gone (the client must refetch).
pub(crate) fn replay<'a>(
    since: u64,
    current: u64,
    candidates: impl IntoIterator<Item = &'a Entry>,
    oldest_ms: u64,
) -> Option<Vec<Utf8Bytes>> {
    if since > current {
        return None;
    }
    let mut frames = Vec::new();
    let mut expected = since + 1;
    for entry in candidates {
        if entry.seq < expected {
            continue;
        }
        if entry.seq > expected || entry.at_ms < oldest_ms {
            return None;
        }
        frames.push(entry.frame.clone());
        expected += 1;
    }
    (expected == current + 1).then_some(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(seq: u64, at_ms: u64) -> Entry {
        Entry { seq, at_ms, frame: seq.to_string().into() }
    }

    fn history(seqs: impl IntoIterator<Item = u64>) -> History {
        let mut h = History::default();
        for seq in seqs {
            h.push(entry(seq, 1000 + seq), 100, 0);
        }
        h
    }

    #[test]
    fn replays_the_missed_events_in_order() {
        let h = history(1..=5);
        let frames = replay(2, 5, h.after(2), 0).unwrap();
        assert_eq!(frames, vec!["3", "4", "5"]);
        assert_eq!(replay(5, 5, h.after(5), 0).unwrap().len(), 0);
    }

    #[test]
    fn gap_older_than_history_is_not_recovered() {
        let mut h = History::default();
        for seq in 1..=10 {
            h.push(entry(seq, 1000), 4, 0);
        }
        assert!(replay(5, 10, h.after(5), 0).is_none());
        assert_eq!(replay(6, 10, h.after(6), 0).unwrap().len(), 4);
    }

    #[test]
    fn expired_events_are_not_replayed() {
        let h = history(1..=3);
        assert!(replay(0, 3, h.after(0), 1002).is_none());
        assert_eq!(replay(1, 3, h.after(1), 1002).unwrap().len(), 2);
    }

    #[test]
    fn since_from_the_future_is_not_recovered() {
        let h = history(1..=3);
        assert!(replay(9, 3, h.after(9), 0).is_none());
    }
}
