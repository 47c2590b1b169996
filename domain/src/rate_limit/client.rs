//! Who a limit counts against: one IPv4 address, or one IPv6 /64 (what a
//! single subscriber is usually given, so rotating inside it gains nothing).

use std::net::{IpAddr, Ipv6Addr};

pub fn client_key(ip: IpAddr) -> String {
    match client_prefix(ip) {
        IpAddr::V6(prefix) => format!("{prefix}/64"),
        v4 => v4.to_string(),
    }
}

/// The address standing for the whole client: an IPv4 address (also when
/// IPv4-mapped) as it is, an IPv6 address cut to its /64. Every per-client
/// limit (rate limits, the hub's sockets per client) counts against this.
pub fn client_prefix(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_keyed_by_their_64_prefix() {
        let key = |text: &str| client_key(text.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_eq!(key("2001:db8:1:2:ffff:1:2:3"), key("2001:db8:1:2::1"));
        assert_ne!(key("2001:db8:1:3::1"), key("2001:db8:1:2::1"));
        assert_eq!(key("::ffff:10.1.2.3"), "10.1.2.3");
        assert_eq!(key("10.1.2.3"), "10.1.2.3");
        let prefix = |text: &str| client_prefix(text.parse().unwrap()).to_string();
        assert_eq!(prefix("2001:db8:1:2:ffff:1:2:3"), "2001:db8:1:2::");
        assert_eq!(prefix("::ffff:10.1.2.3"), "10.1.2.3");
    }
}
