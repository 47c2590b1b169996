//! A socket's bounded send queue that holds memory only while frames wait: an idle socket keeps
//! an empty `VecDeque` (no allocation), where a tokio channel allocates a block of 32 slots up
//! front. The send loop hands the allocation back once it has written everything.

use std::{
    collections::VecDeque,
    sync::{Mutex, MutexGuard},
};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::Notify;

#[derive(Debug)]
pub(crate) enum Outbound {
    Frame(Utf8Bytes),
    /// Queued as one unit so nothing can come between its frames (`subscribed` + replay).
    Batch(Vec<Utf8Bytes>),
    Ping,
}

pub(crate) enum Pushed {
    Queued,
    /// `capacity` frames wait already: the socket is a slow consumer.
    Full,
    /// The socket's send loop has ended.
    Closed,
}

#[derive(Debug, Default)]
struct State {
    frames: VecDeque<Outbound>,
    closed: bool,
}

#[derive(Debug)]
pub(crate) struct SendQueue {
    state: Mutex<State>,
    ready: Notify,
    capacity: usize,
}

impl SendQueue {
    pub fn new(capacity: usize) -> Self {
        Self { state: Mutex::default(), ready: Notify::new(), capacity: capacity.max(1) }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn push(&self, out: Outbound) -> Pushed {
        {
            let mut state = self.lock();
            if state.closed {
                return Pushed::Closed;
            }
            if state.frames.len() >= self.capacity {
                return Pushed::Full;
            }
            state.frames.push_back(out);
        }
        self.ready.notify_one();
        Pushed::Queued
    }

    pub fn try_pop(&self) -> Option<Outbound> {
        self.lock().frames.pop_front()
    }

    /// The next frame, waiting for one. Cancel-safe: a frame is only taken when returned.
    pub async fn pop(&self) -> Option<Outbound> {
        loop {
            {
                let mut state = self.lock();
                if let Some(out) = state.frames.pop_front() {
                    return Some(out);
                }
                if state.closed {
                    return None;
                }
            }
            // A push between the check and here leaves a permit: this returns at once.
            self.ready.notified().await;
        }
    }

    /// Gives the queue's memory back when nothing waits (after a flush).
    pub fn release_if_empty(&self) {
        let mut state = self.lock();
        if state.frames.is_empty() && state.frames.capacity() > 0 {
            state.frames = VecDeque::new();
        }
    }

    /// Refuses further frames, drops the waiting ones and wakes the send loop ([`Self::pop`]
    /// answers None, [`Self::closed`] returns).
    pub fn close(&self) {
        {
            let mut state = self.lock();
            state.closed = true;
            state.frames = VecDeque::new();
        }
        self.ready.notify_one();
    }

    /// Returns once the queue is closed (a push meanwhile only makes it look again).
    pub async fn closed(&self) {
        while !self.lock().closed {
            self.ready.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &'static str) -> Outbound {
        Outbound::Frame(text.into())
    }

    #[tokio::test]
    async fn frames_come_out_in_order_up_to_the_capacity() {
        let queue = SendQueue::new(2);
        assert!(matches!(queue.push(frame("a")), Pushed::Queued));
        assert!(matches!(queue.push(frame("b")), Pushed::Queued));
        assert!(matches!(queue.push(frame("c")), Pushed::Full));
        assert!(matches!(queue.pop().await, Some(Outbound::Frame(f)) if f == "a"));
        assert!(matches!(queue.try_pop(), Some(Outbound::Frame(f)) if f == "b"));
        assert!(queue.try_pop().is_none());
    }

    #[tokio::test]
    async fn an_idle_queue_holds_no_memory_and_a_closed_one_takes_nothing() {
        let queue = SendQueue::new(8);
        queue.push(frame("a"));
        queue.try_pop();
        queue.release_if_empty();
        assert_eq!(queue.lock().frames.capacity(), 0);
        queue.close();
        assert!(matches!(queue.push(frame("b")), Pushed::Closed));
        assert!(queue.pop().await.is_none());
    }

    #[tokio::test]
    async fn a_waiting_pop_wakes_on_push() {
        let queue = std::sync::Arc::new(SendQueue::new(8));
        let waiting = tokio::spawn({
            let queue = queue.clone();
            async move { queue.pop().await.is_some() }
        });
        tokio::task::yield_now().await;
        queue.push(frame("a"));
        assert!(waiting.await.unwrap());
    }
}
