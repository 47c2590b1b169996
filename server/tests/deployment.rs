//! The scale-out deployment files cannot be run here (no Docker engine), so
//! check that they parse and wire the pieces together as README describes.

use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

fn repo_file(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()))
}

#[test]
fn docker_compose_runs_two_nodes_behind_a_load_balancer_on_postgres_and_redis() {
    let documents =
        YamlLoader::load_from_str(&repo_file("docker-compose.yml")).expect("docker-compose.yml is valid YAML");
    let services = &documents[0]["services"];
    for name in ["postgres", "redis", "server-1", "server-2", "lb"] {
        assert!(!services[name].is_badvalue(), "service {name} is defined");
    }
    for node in ["server-1", "server-2"] {
        let environment = &with_merge_keys(&services[node])["environment"];
        let database = environment["DATABASE_URL"].as_str().expect("DATABASE_URL set");
        assert!(
            database.starts_with("postgres://") && database.contains("@postgres:"),
            "{node} uses the postgres service"
        );
        assert_eq!(environment["REDIS_URL"].as_str(), Some("redis://redis:6379"), "{node} uses the redis bus");
        assert!(environment["JWT_SECRET"].as_str().is_some(), "{node} shares the JWT secret");
    }
    let ports = services["lb"]["ports"].as_vec().expect("lb publishes a port");
    assert!(ports.contains(&Yaml::String("8080:80".into())));
    let nginx = repo_file("deploy/nginx.conf");
    assert!(nginx.contains("server server-1:8080") && nginx.contains("server server-2:8080"));
    assert!(nginx.contains("Upgrade $http_upgrade"), "the load balancer passes WebSocket upgrades");
}

/// Applies YAML merge keys (`<<: *anchor`), which compose supports and the parser leaves as-is.
fn with_merge_keys(node: &Yaml) -> Yaml {
    let Some(own) = node.as_hash() else { return node.clone() };
    let mut merged = node["<<"].as_hash().cloned().unwrap_or_default();
    for (key, value) in own {
        if key.as_str() != Some("<<") {
            merged.insert(key.clone(), value.clone());
        }
    }
    Yaml::Hash(merged)
}

#[test]
fn redis_conf_keeps_nothing_on_disk_and_bounds_pubsub_buffers() {
    let conf = repo_file("redis.conf");
    let settings: Vec<&str> =
        conf.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')).collect();
    assert!(settings.contains(&"save \"\""));
    assert!(settings.contains(&"appendonly no"));
    assert!(settings.iter().any(|line| line.starts_with("client-output-buffer-limit pubsub")));
}
