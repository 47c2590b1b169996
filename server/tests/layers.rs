//! The layers hold (docs/architecture.md, "The server's crates"). Cargo already refuses an upward
//! import between the crates (a lower crate does not depend on a higher one); these tests hold
//! the rest:
//! - the model does no I/O, the store knows only the model and the domain no HTTP, by their
//!   manifests;
//! - inside every crate, no module cycles: at each level of a crate's module tree, the modules
//!   that share a parent import one another in one direction only (`crate::a::…` from `b`, or
//!   `super::a` from a sibling, is an edge `b → a`). Tests and comments do not count.
//!
//! The knots still left are listed (`KNOWN_KNOTS`); the test fails when one grows or a new one
//! appears, and when one is untied without the list shrinking with it.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

/// The cycles each crate may still have, as the members of each strongly connected component
/// (`parent/child` names). Each is work left: the domain's top-level knot (the transitions, their
/// notices, wire types and providers reaching into one another) and the payments transitions'
/// knot (untied by the typed transaction process).
const KNOWN_KNOTS: &[(&str, &[&str])] = &[
    (
        "domain",
        &[
            "alerts",
            "config",
            "delivery",
            "live",
            "mail",
            "marketplace",
            "media",
            "moderation",
            "notices",
            "payments",
            "refusal",
            "services",
            "signin",
            "sms",
            "verification",
            "wire",
        ],
    ),
    ("domain", &["payments/disputes", "payments/escrow", "payments/increases", "payments/tips"]),
    ("domain", &["verification/identity", "verification/stripe_identity"]),
];

#[test]
fn the_model_does_no_io_the_store_knows_only_the_model_and_the_domain_no_http() {
    let io = ["sqlx", "tokio", "axum", "reqwest", "redis", "hyper", "lettre", "object_store", "tower"];
    let model = dependencies("model");
    for crate_name in io {
        assert!(!model.contains(crate_name), "the model depends on {crate_name}");
    }
    let store = dependencies("store");
    for higher in ["server", "realtime", "axum", "reqwest", "redis", "lettre", "object_store"] {
        assert!(!store.contains(higher), "the store depends on {higher}");
    }
    assert!(store.contains("model"));
    let domain = dependencies("domain");
    for higher in ["server", "axum", "tower", "tower-http"] {
        assert!(!domain.contains(higher), "the domain depends on {higher}");
    }
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut failures = Vec::new();
    for crate_name in ["model", "store", "domain", "server", "realtime"] {
        let knots = module_knots(&workspace().join(crate_name).join("src"));
        let known: BTreeSet<BTreeSet<String>> = KNOWN_KNOTS
            .iter()
            .filter(|(name, _)| *name == crate_name)
            .map(|(_, members)| members.iter().map(|member| member.to_string()).collect())
            .collect();
        for knot in &knots {
            if !known.contains(knot) {
                failures.push(format!("{crate_name}: modules import one another: {knot:?}"));
            }
        }
        for knot in &known {
            if !knots.contains(knot) {
                failures.push(format!("{crate_name}: the known knot {knot:?} changed; update KNOWN_KNOTS"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_sees_a_cycle_through_super_and_crate_paths() {
    let dir = std::env::temp_dir().join(format!("layers-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("bus")).unwrap();
    fs::write(dir.join("lib.rs"), "mod bus;\nmod hub;\nuse crate::bus::Bus;\n").unwrap();
    fs::write(dir.join("hub.rs"), "// crate::lib is a comment\nuse crate::{bus::{self, Bus}};\n").unwrap();
    fs::write(dir.join("bus/mod.rs"), "mod a;\nmod b;\n").unwrap();
    fs::write(dir.join("bus/a.rs"), "use super::b::B;\n#[cfg(test)]\nmod tests { use crate::hub; }\n").unwrap();
    fs::write(dir.join("bus/b.rs"), "pub fn f() { crate::bus::a::g(); }\n").unwrap();
    let knots = module_knots(&dir);
    assert_eq!(knots, BTreeSet::from([BTreeSet::from(["bus/a".to_owned(), "bus/b".to_owned()])]));
    fs::write(dir.join("bus/b.rs"), "pub fn f() { crate::hub::h(); }\n").unwrap();
    fs::write(dir.join("bus/mod.rs"), "mod a;\nmod b;\n/// [`crate::hub`] in a doc\npub fn x() {}\n").unwrap();
    fs::write(dir.join("hub.rs"), "use crate::bus;\n").unwrap();
    let knots = module_knots(&dir);
    assert_eq!(knots, BTreeSet::from([BTreeSet::from(["bus".to_owned(), "hub".to_owned()])]));
    fs::remove_dir_all(&dir).unwrap();
}

/// Every task a node starts runs in a tracker that shutdown waits for (`Workers`, or
/// `Services::background` for what a request or a socket leaves behind), so no mail, push or
/// write is cut off by a closed pool. The only `tokio::spawn`s are awaited where they start.
#[test]
fn every_spawn_runs_in_a_tracker() {
    // (file, why its spawn is awaited)
    let awaited = [
        ("server/src/lib.rs", "the server task, awaited by RunningServer::wait"),
        ("server/src/main.rs", "the signal watcher, which only starts the shutdown"),
        ("server/src/http/completion.rs", "a write, awaited by its request"),
    ];
    let mut untracked = Vec::new();
    for crate_name in ["domain", "server"] {
        for file in rust_files(&workspace().join(crate_name).join("src")) {
            let relative = file.strip_prefix(workspace()).unwrap().to_string_lossy().into_owned();
            let code = without_tests_and_comments(&fs::read_to_string(&file).unwrap());
            let spawns = code.matches("tokio::spawn(").count() + code.matches("task::spawn(").count();
            if spawns > 0 && !awaited.iter().any(|(allowed, _)| *allowed == relative) {
                untracked.push(format!("{relative}: {spawns}"));
            }
        }
    }
    assert!(untracked.is_empty(), "spawned outside a tracker: {untracked:?}");
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
    files
}

/// The names in a manifest's `[dependencies]` table.
fn dependencies(crate_name: &str) -> BTreeSet<String> {
    let manifest = fs::read_to_string(workspace().join(crate_name).join("Cargo.toml")).unwrap();
    let mut names = BTreeSet::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim();
            names.insert(name.to_owned());
        }
    }
    names
}

/// Every strongly connected component (of more than one module) at every level of the module tree
/// under `src`, each as its members' paths (`parent/child`).
fn module_knots(src: &Path) -> BTreeSet<BTreeSet<String>> {
    let mut modules = BTreeMap::new();
    collect_modules(src, src, &mut modules);
    // Module path → the module paths it names.
    let mut imports: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (path, file) in &modules {
        let source = fs::read_to_string(file).unwrap();
        let named = imports.entry(path.clone()).or_default();
        for target in named_modules(&without_tests_and_comments(&source), path) {
            // The longest prefix that is a module of the crate.
            if let Some(len) = (1..=target.len()).rev().find(|len| modules.contains_key(&target[..*len])) {
                named.insert(target[..len].to_vec());
            }
        }
    }
    // At each parent, an edge between two of its children when a module under one names a
    // module under the other.
    let mut levels: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in &imports {
        for to in targets {
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            if common < from.len() && common < to.len() {
                let level = levels.entry(from[..common].to_vec()).or_default();
                level.entry(from[common].clone()).or_default().insert(to[common].clone());
            }
        }
    }
    let mut knots = BTreeSet::new();
    for (parent, edges) in levels {
        for component in strongly_connected(&edges) {
            if component.len() > 1 {
                let prefix: String = parent.iter().map(|segment| format!("{segment}/")).collect();
                knots.insert(component.into_iter().map(|child| format!("{prefix}{child}")).collect());
            }
        }
    }
    knots
}

/// Module path (`["payments", "escrow"]`; the root is `[]`) → its file.
fn collect_modules(src: &Path, dir: &Path, modules: &mut BTreeMap<Vec<String>, PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_modules(src, &path, modules);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let relative = path.strip_prefix(src).unwrap().with_extension("");
            let mut segments: Vec<String> =
                relative.components().map(|part| part.as_os_str().to_string_lossy().into_owned()).collect();
            if matches!(segments.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                segments.pop();
            }
            if segments.first().is_some_and(|first| first == "bin") {
                continue;
            }
            modules.insert(segments, path);
        }
    }
}

/// The source without comments and without a trailing `#[cfg(test)] mod …` block.
fn without_tests_and_comments(source: &str) -> String {
    let mut code = String::new();
    let mut lines = source.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed == "#[cfg(test)]" && lines.peek().is_some_and(|next| next.trim_start().starts_with("mod ")) {
            break;
        }
        let line = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// The module paths a file's code names through `crate::…` and `super::…`, expanding use-trees.
fn named_modules(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut at = 0;
    while at < bytes.len() {
        let rest: String = bytes[at..bytes.len().min(at + 7)].iter().collect();
        let preceded_by_word =
            at > 0 && (bytes[at - 1].is_alphanumeric() || bytes[at - 1] == '_' || bytes[at - 1] == '$');
        let base = if rest.starts_with("crate::") && !preceded_by_word {
            at += 7;
            Some(Vec::new())
        } else if rest.starts_with("super::") && !preceded_by_word {
            at += 7;
            let mut parent = module[..module.len().saturating_sub(1)].to_vec();
            while bytes[at..].iter().collect::<String>().starts_with("super::") {
                at += 7;
                parent.pop();
            }
            Some(parent)
        } else {
            None
        };
        match base {
            Some(base) => {
                let (tree, end) = read_use_tree(&bytes, at);
                for path in expand(&tree) {
                    paths.push(base.iter().cloned().chain(path).collect());
                }
                at = end;
            }
            None => at += 1,
        }
    }
    paths
}

/// A path or a `{…}` group starting at `at`, as text, and where it ends.
fn read_use_tree(chars: &[char], mut at: usize) -> (String, usize) {
    let start = at;
    let mut depth = 0;
    while at < chars.len() {
        let c = chars[at];
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ if depth > 0 => {}
            c if c.is_alphanumeric() || c == '_' || c == ':' => {}
            _ => break,
        }
        at += 1;
    }
    (chars[start..at].iter().collect(), at)
}

/// `a::{b, c::{d}}` → `[[a, b], [a, c, d]]`, dropping `self`, `*` and `as` renames.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree.split("::").filter(|segment| !segment.is_empty()).map(str::to_owned).collect()];
    };
    let prefix: Vec<String> =
        tree[..open].split("::").filter(|segment| !segment.is_empty()).map(str::to_owned).collect();
    let inner = &tree[open + 1..tree.len().saturating_sub(1)];
    let mut items = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[from..]);
    let mut paths = Vec::new();
    for item in items.into_iter().filter(|item| !item.is_empty()) {
        for path in expand(item) {
            let path: Vec<String> = path.into_iter().filter(|segment| segment != "self" && segment != "*").collect();
            paths.push(prefix.iter().cloned().chain(path).collect());
        }
    }
    paths
}

/// Tarjan's strongly connected components of a small graph.
fn strongly_connected(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        components: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(walk: &mut Walk<'a>, node: &'a str) {
        let index = walk.index.len();
        walk.index.insert(node, index);
        walk.low.insert(node, index);
        walk.stack.push(node);
        for next in walk.edges.get(node).into_iter().flatten() {
            if !walk.index.contains_key(next.as_str()) {
                visit(walk, next);
                let low = walk.low[node].min(walk.low[next.as_str()]);
                walk.low.insert(node, low);
            } else if walk.stack.contains(&next.as_str()) {
                let low = walk.low[node].min(walk.index[next.as_str()]);
                walk.low.insert(node, low);
            }
        }
        if walk.low[node] == walk.index[node] {
            let mut component = BTreeSet::new();
            while let Some(member) = walk.stack.pop() {
                component.insert(member.to_owned());
                if member == node {
                    break;
                }
            }
            walk.components.push(component);
        }
    }
    let mut walk =
        Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), components: Vec::new() };
    let nodes: BTreeSet<&str> = edges
        .iter()
        .flat_map(|(from, to)| std::iter::once(from.as_str()).chain(to.iter().map(String::as_str)))
        .collect();
    for node in nodes {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.components
}
