//! A push subscription's endpoint comes from the browser, i.e. from whoever
//! calls our API: it must not make the server reach into its own network
//! (SSRF) nor anyone else's. Endpoints must be `https://` on a public address
//! of a real push service (`PUSH_ALLOWED_HOSTS`, the major browsers' by
//! default), so a caller cannot use our pushes to probe hosts of its choosing;
//! `DEV_MODE` also accepts `http://` on loopback so tests and local
//! development can run a push service. The check runs when a subscription is
//! saved (for a clear error) and again at send time, where the HTTP client's
//! resolver also drops non-public addresses, so a name re-pointed after the
//! check is refused too.

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    sync::Arc,
};

use url::{Host, Url};

pub const MAX_ENDPOINT_LENGTH: usize = 2048;
pub const INVALID_ENDPOINT: &str = "Push endpoint must be an https:// URL on a public address";
pub const UNKNOWN_PUSH_SERVICE: &str = "Push endpoint must belong to a browser's push service";

/// The push services of Chrome, Edge, Firefox and Safari (and the browsers built on them):
/// the default of `PUSH_ALLOWED_HOSTS`. `*.name` stands for any host under `name`.
pub const DEFAULT_ALLOWED_HOSTS: &[&str] = &[
    "fcm.googleapis.com",
    "*.push.services.mozilla.com",
    "*.notify.windows.com",
    "web.push.apple.com",
    "*.push.apple.com",
];

/// Where pushes may go: the allowed push service hosts, and loopback in dev mode.
#[derive(Clone, Debug)]
pub struct EndpointPolicy {
    pub allowed_hosts: Vec<String>,
    pub dev_mode: bool,
}

impl EndpointPolicy {
    fn allows_host(&self, host: &str) -> bool {
        self.allowed_hosts.iter().any(|pattern| match pattern.strip_prefix("*.") {
            Some(parent) => host.strip_suffix(parent).is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
            None => host == pattern,
        })
    }
}

/// A `PUSH_ALLOWED_HOSTS` entry: a host name, or `*.` and one.
pub fn valid_host_pattern(pattern: &str) -> bool {
    let name = pattern.strip_prefix("*.").unwrap_or(pattern);
    name.contains('.')
        && name
            .split('.')
            .all(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// The endpoint parsed, or why it is refused.
pub fn check(endpoint: &str, policy: &EndpointPolicy) -> Result<Url, &'static str> {
    let dev_mode = policy.dev_mode;
    if endpoint.len() > MAX_ENDPOINT_LENGTH {
        return Err(INVALID_ENDPOINT);
    }
    let url = Url::parse(endpoint).map_err(|_| INVALID_ENDPOINT)?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(INVALID_ENDPOINT);
    }
    let loopback = match url.host() {
        Some(Host::Ipv4(ip)) => allowed_ip(IpAddr::V4(ip), dev_mode).then_some(ip.is_loopback()),
        Some(Host::Ipv6(ip)) => allowed_ip(IpAddr::V6(ip), dev_mode).then_some(ip.is_loopback()),
        Some(Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            let local_name = name == "localhost" || name.ends_with(".localhost");
            (!local_name || dev_mode).then_some(local_name)
        }
        None => None,
    }
    .ok_or(INVALID_ENDPOINT)?;
    match url.scheme() {
        "https" => {}
        "http" if dev_mode && loopback => {}
        _ => return Err(INVALID_ENDPOINT),
    }
    let host = url.host_str().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
    if !loopback && !policy.allows_host(&host) {
        return Err(UNKNOWN_PUSH_SERVICE);
    }
    Ok(url)
}

/// The host of an endpoint, to name it without its capability path (logs, mail).
pub fn service_host(endpoint: &str) -> String {
    Url::parse(endpoint).ok().and_then(|url| url.host_str().map(str::to_owned)).unwrap_or_else(|| "unknown".into())
}

/// The push service an endpoint belongs to, for per-host limits: its host and port.
pub fn host_key(endpoint: &str) -> String {
    match Url::parse(endpoint) {
        Ok(url) => format!("{}:{}", url.host_str().unwrap_or(""), url.port_or_known_default().unwrap_or(0)),
        Err(_) => String::new(),
    }
}

/// True for addresses a push may go to: public ones, and loopback in dev mode.
pub fn allowed_ip(ip: IpAddr, dev_mode: bool) -> bool {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    };
    if ip.is_loopback() {
        return dev_mode;
    }
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_private()
        || ip.is_loopback()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_unspecified()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier-grade NAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || a >= 240) // reserved
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00 // unique local
        || (first & 0xffc0) == 0xfe80 // link-local
        || (first == 0x2001 && ip.segments()[1] == 0x0db8) // documentation
        || (first == 0x0064 && ip.segments()[1] == 0xff9b)) // NAT64, would reach IPv4 inside
}

/// A DNS resolver for the push client that keeps only allowed addresses.
pub struct PublicOnlyResolver {
    pub dev_mode: bool,
}

impl reqwest::dns::Resolve for PublicOnlyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let dev_mode = self.dev_mode;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|addr| allowed_ip(addr.ip(), dev_mode))
                .collect();
            if addrs.is_empty() {
                return Err(format!("{host} resolves to no public address").into());
            }
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

pub fn resolver(dev_mode: bool) -> Arc<PublicOnlyResolver> {
    Arc::new(PublicOnlyResolver { dev_mode })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(dev_mode: bool) -> EndpointPolicy {
        let mut allowed_hosts: Vec<String> = DEFAULT_ALLOWED_HOSTS.iter().map(|host| host.to_string()).collect();
        allowed_hosts.push("push.example.com".into());
        EndpointPolicy { allowed_hosts, dev_mode }
    }

    #[test]
    fn only_the_browsers_push_services_are_accepted_by_default() {
        let defaults = EndpointPolicy {
            allowed_hosts: DEFAULT_ALLOWED_HOSTS.iter().map(|host| host.to_string()).collect(),
            dev_mode: false,
        };
        for accepted in [
            "https://fcm.googleapis.com/fcm/send/abc",
            "https://updates.push.services.mozilla.com/wpush/v2/abc",
            "https://wns2-sy3p.notify.windows.com/w/?token=abc",
            "https://web.push.apple.com/QGxv",
            "https://api.push.apple.com/3/device/abc",
            "https://FCM.googleapis.com./fcm/send/abc",
        ] {
            assert!(check(accepted, &defaults).is_ok(), "{accepted}");
        }
        for refused in [
            "https://push.example.com/x",
            "https://push.services.mozilla.com.evil.example/x",
            "https://evilpush.services.mozilla.com/x",
            "https://push.apple.com/x",
            "https://googleapis.com/x",
            "https://93.184.215.14/x",
        ] {
            assert_eq!(check(refused, &defaults).err(), Some(UNKNOWN_PUSH_SERVICE), "{refused}");
        }
        assert!(valid_host_pattern("*.push.apple.com") && valid_host_pattern("fcm.googleapis.com"));
        for invalid in ["https://fcm.googleapis.com", "*", "*.com.", "localhost", "fcm.googleapis.com/x", ""] {
            assert!(!valid_host_pattern(invalid), "{invalid}");
        }
    }

    #[test]
    fn only_https_on_public_addresses_is_accepted() {
        let policy = policy(false);
        assert!(check("https://fcm.googleapis.com/fcm/send/abc", &policy).is_ok());
        for refused in [
            "http://push.example.com/x",
            "https://127.0.0.1/x",
            "https://10.0.0.8/x",
            "https://192.168.1.1/x",
            "https://169.254.169.254/latest",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[::ffff:10.0.0.1]/x",
            "https://localhost/x",
            "https://100.64.0.1/x",
            "ftp://push.example.com/x",
            "not a url",
        ] {
            assert_eq!(check(refused, &policy).err(), Some(INVALID_ENDPOINT), "{refused}");
        }
    }

    #[test]
    fn dev_mode_also_accepts_http_on_loopback_only() {
        let policy = policy(true);
        assert!(check("http://127.0.0.1:4000/push/1", &policy).is_ok());
        assert!(check("http://localhost:4000/push/1", &policy).is_ok());
        assert!(check("http://10.0.0.8/push", &policy).is_err());
        assert!(check("https://169.254.169.254/", &policy).is_err());
        assert!(check("http://push.example.com/x", &policy).is_err());
    }
}
