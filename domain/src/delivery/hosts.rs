//! Push services as this node sees them, one per endpoint host: how many
//! pushes are in flight to each, and a circuit breaker that parks a host
//! whose requests keep timing out or failing to connect. A host that never
//! answers then holds at most [`PER_HOST_IN_FLIGHT`] of the worker's slots for
//! one timeout, and is left alone while parked, instead of holding every slot
//! (and every other user's push) for every retry.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// Pushes in flight to one host at once: a real push service takes far more,
/// but no single host may take most of the worker's [`super::PUSHES_IN_FLIGHT`].
pub const PER_HOST_IN_FLIGHT: usize = 16;
/// Consecutive timeouts or refused connections that park a host.
const TRIP_AFTER: u32 = 3;
const FIRST_PARK: Duration = Duration::from_secs(30);
const LONGEST_PARK: Duration = Duration::from_secs(15 * 60);

#[derive(Default)]
struct Host {
    in_flight: usize,
    /// Timeouts and connection failures since the last answer.
    failures: u32,
    /// Times it was parked since the last answer (each park is twice as long).
    trips: u32,
    parked_until: Option<Instant>,
}

/// Whether a push may go to its host now.
pub enum Admission {
    Go(HostPermit),
    /// The host has its share of pushes in flight.
    Busy,
    /// The host kept timing out; try again after this long.
    Parked(Duration),
}

/// How a request to a host went, for the breaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    /// The host answered (with any status).
    Answered,
    /// Timed out, or the connection could not be made.
    Unreachable,
    /// Never sent (bad keys, bad endpoint): says nothing about the host.
    NotTried,
}

#[derive(Clone, Default)]
pub struct HostGates {
    hosts: Arc<Mutex<HashMap<String, Host>>>,
}

impl HostGates {
    pub fn admit(&self, host: &str) -> Admission {
        let now = Instant::now();
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = hosts.entry(host.to_owned()).or_default();
        if let Some(until) = entry.parked_until {
            if until > now {
                return Admission::Parked(until - now);
            }
            entry.parked_until = None;
        }
        if entry.in_flight >= PER_HOST_IN_FLIGHT {
            return Admission::Busy;
        }
        entry.in_flight += 1;
        Admission::Go(HostPermit { gates: self.clone(), host: host.to_owned(), health: Health::NotTried })
    }

    fn release(&self, host: &str, health: Health) {
        let mut hosts = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(entry) = hosts.get_mut(host) else { return };
        entry.in_flight = entry.in_flight.saturating_sub(1);
        match health {
            Health::Answered => {
                entry.failures = 0;
                entry.trips = 0;
            }
            Health::Unreachable => {
                entry.failures += 1;
                if entry.failures >= TRIP_AFTER {
                    let park = FIRST_PARK.saturating_mul(2u32.saturating_pow(entry.trips.min(10))).min(LONGEST_PARK);
                    entry.parked_until = Some(Instant::now() + park);
                    entry.failures = 0;
                    entry.trips += 1;
                    tracing::warn!(host, park_secs = park.as_secs(), "push service keeps timing out; parked");
                }
            }
            Health::NotTried => {}
        }
        if entry.in_flight == 0 && entry.failures == 0 && entry.trips == 0 && entry.parked_until.is_none() {
            hosts.remove(host);
        }
    }
}

/// One push's place at its host; gives it back (with how the request went) when dropped.
pub struct HostPermit {
    gates: HostGates,
    host: String,
    health: Health,
}

impl HostPermit {
    pub fn record(&mut self, health: Health) {
        self.health = health;
    }
}

impl Drop for HostPermit {
    fn drop(&mut self) {
        self.gates.release(&self.host, self.health);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(gates: &HostGates, host: &str) -> HostPermit {
        match gates.admit(host) {
            Admission::Go(permit) => permit,
            _ => panic!("{host} was not admitted"),
        }
    }

    #[test]
    fn a_host_gets_its_share_of_slots_and_no_more() {
        let gates = HostGates::default();
        let held: Vec<HostPermit> = (0..PER_HOST_IN_FLIGHT).map(|_| go(&gates, "slow.example")).collect();
        assert!(matches!(gates.admit("slow.example"), Admission::Busy));
        drop(go(&gates, "fast.example"));
        drop(held);
        drop(go(&gates, "slow.example"));
    }

    #[test]
    fn a_host_that_keeps_timing_out_is_parked_and_an_answer_clears_it() {
        let gates = HostGates::default();
        for _ in 0..TRIP_AFTER {
            go(&gates, "hung.example").record(Health::Unreachable);
        }
        assert!(matches!(gates.admit("hung.example"), Admission::Parked(park) if park <= FIRST_PARK));
        let mut answered = go(&gates, "fine.example");
        answered.record(Health::Answered);
        drop(answered);
        go(&gates, "flaky.example").record(Health::Unreachable);
        go(&gates, "flaky.example").record(Health::Answered);
        go(&gates, "flaky.example").record(Health::Unreachable);
        go(&gates, "flaky.example").record(Health::Unreachable);
        assert!(matches!(gates.admit("flaky.example"), Admission::Go(_)), "an answer in between resets the count");
    }
}
