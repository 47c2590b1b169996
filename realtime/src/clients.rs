//! Open sockets per client address, so one client cannot hold every connection slot.

use std::{net::IpAddr, sync::Arc};

use dashmap::{DashMap, mapref::entry::Entry};

#[derive(Debug, Default)]
pub(crate) struct ClientSlots {
    open: DashMap<IpAddr, usize>,
}

/// One open socket of a client; gives its slot back when dropped.
#[derive(Debug)]
pub(crate) struct ClientSlot {
    slots: Arc<ClientSlots>,
    client: IpAddr,
}

impl ClientSlots {
    /// A slot for one more socket of `client`, unless it already has `max` open.
    pub fn take(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<ClientSlot> {
        if max == 0 {
            return None;
        }
        let mut open = self.open.entry(client).or_insert(0);
        if *open >= max {
            return None;
        }
        *open += 1;
        Some(ClientSlot { slots: self.clone(), client })
    }

    /// Client addresses with at least one open socket.
    #[cfg(test)]
    pub fn clients(&self) -> usize {
        self.open.len()
    }
}

impl ClientSlot {
    pub fn client(&self) -> IpAddr {
        self.client
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        if let Entry::Occupied(mut open) = self.slots.open.entry(self.client) {
            *open.get_mut() -= 1;
            if *open.get() == 0 {
                open.remove();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_gets_max_slots_and_each_is_given_back() {
        let slots = Arc::new(ClientSlots::default());
        let me: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..3).map(|_| slots.take(me, 3).unwrap()).collect();
        assert!(slots.take(me, 3).is_none());
        assert!(slots.take("10.0.0.2".parse().unwrap(), 3).is_some(), "others keep theirs");
        drop(held);
        assert_eq!(slots.clients(), 0, "nothing kept for clients that left");
        assert!(slots.take(me, 3).is_some());
    }
}
