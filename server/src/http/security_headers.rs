//! Headers every response carries: the Content-Security-Policy (no inline script, no framing, so
//! the Accept & Pay dialog cannot be clickjacked), HSTS behind https, and the browser-feature
//! policies. A page with inline `<style>`/`<script>` (the sandbox checkout, the API docs) sends its
//! own policy with their hashes ([`policy_with_inline`]); the layer only fills in missing headers.

use axum::{
    Router,
    http::{HeaderName, HeaderValue, header},
};
use base64::{Engine, engine::general_purpose::STANDARD};
use sha2::{Digest, Sha256};
use tower_http::set_header::SetResponseHeaderLayer;

use domain::config::Config;

/// Adds the security headers to every response of `app` that does not set them itself.
pub fn apply<S: Clone + Send + Sync + 'static>(app: Router<S>, config: &Config) -> Router<S> {
    let policy = HeaderValue::from_str(&policy_with_inline(config, &[], &[])).expect("CSP is a valid header value");
    let mut app = app
        .layer(if_not_present(header::CONTENT_SECURITY_POLICY, policy))
        .layer(if_not_present(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")))
        .layer(if_not_present(
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ))
        .layer(if_not_present(
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static("camera=(), microphone=(), geolocation=(self), payment=(), usb=()"),
        ));
    if is_https(config) {
        app = app.layer(if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=63072000; includeSubDomains"),
        ));
    }
    app
}

/// The policy, allowing exactly the given inline scripts and styles (by their SHA-256).
pub fn policy_with_inline(config: &Config, inline_scripts: &[&str], inline_styles: &[&str]) -> String {
    let script_src = sources("'self'", inline_scripts);
    let style_src = sources("'self'", inline_styles);
    let mut connect_src = "'self'".to_owned();
    let mut img_src = "'self' data: blob:".to_owned();
    if let Some(origin) = config.public_url.as_deref().and_then(origin_of) {
        // 'self' covers same-origin sockets in current browsers; the explicit origin covers the rest.
        let socket_origin = origin.replacen("https://", "wss://", 1).replacen("http://", "ws://", 1);
        connect_src = format!("{connect_src} {socket_origin}");
    }
    if let Some(origin) = config.media_url.as_deref().and_then(origin_of) {
        // Only http(s) media stores serve files to browsers directly; others are proxied by /media.
        img_src = format!("{img_src} {origin}");
    }
    format!(
        "default-src 'self'; script-src {script_src}; style-src {style_src}; img-src {img_src}; \
         font-src 'self'; connect-src {connect_src}; worker-src 'self'; manifest-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

fn sources(base: &str, inline: &[&str]) -> String {
    inline.iter().fold(base.to_owned(), |list, text| {
        format!("{list} 'sha256-{}'", STANDARD.encode(Sha256::digest(text.as_bytes())))
    })
}

/// `scheme://host[:port]` of an http(s) URL.
fn origin_of(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    matches!(url.scheme(), "http" | "https").then(|| url.origin().ascii_serialization())
}

fn is_https(config: &Config) -> bool {
    config.public_url.as_deref().is_some_and(|url| url.starts_with("https://"))
}

fn if_not_present(name: HeaderName, value: HeaderValue) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, value)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn policy_forbids_framing_and_inline_script_and_names_the_socket_and_media_origins() {
        let mut config = Config::local(PathBuf::from("data"));
        config.public_url = Some("https://taskhub.example".into());
        config.media_url = Some("https://media.example/bucket/avatars".into());
        let policy = policy_with_inline(&config, &[], &[]);
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(policy.contains("script-src 'self';"));
        assert!(policy.contains("connect-src 'self' wss://taskhub.example;"));
        assert!(policy.contains("img-src 'self' data: blob: https://media.example;"));
    }

    #[test]
    fn inline_text_is_allowed_by_its_hash_only() {
        let config = Config::local(PathBuf::from("data"));
        let policy = policy_with_inline(&config, &["alert(1)"], &[]);
        // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert!(policy.contains("script-src 'self' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=';"));
        assert!(policy.contains("style-src 'self';"));
    }
}
