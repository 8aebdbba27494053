//! The edge's rule of direction, checked on its source: plumbing (`http`, `infra`, `session`,
//! `views`) never imports a route, and no file outside `src/routes/` names the `routes` module but
//! the router (`app.rs`) and `lib.rs`, which declares it. A route folder can then grow or move
//! without touching the plumbing, and the plumbing can be read without the routes.

use std::path::{Path, PathBuf};

/// Files allowed to name `routes`: the router, and the crate root that declares the module.
const ALLOWED: [&str; 2] = ["app.rs", "lib.rs"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder readable") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text without its comments, lines kept in place: prose may speak of routes, code may not.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_block = false;
    for line in text.lines() {
        let mut rest = line;
        let mut kept = String::new();
        loop {
            if in_block {
                match rest.find("*/") {
                    Some(end) => {
                        rest = &rest[end + 2..];
                        in_block = false;
                    }
                    None => break,
                }
            } else {
                let line_comment = rest.find("//");
                let block = rest
                    .find("/*")
                    .filter(|b| line_comment.is_none_or(|l| *b < l));
                match (block, line_comment) {
                    (Some(b), _) => {
                        kept.push_str(&rest[..b]);
                        rest = &rest[b + 2..];
                        in_block = true;
                    }
                    (None, Some(l)) => {
                        kept.push_str(&rest[..l]);
                        break;
                    }
                    (None, None) => {
                        kept.push_str(rest);
                        break;
                    }
                }
            }
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// Whether `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

/// The lines (1-based) of `source` whose code names the `routes` module: `crate::routes`,
/// `super::routes`, any `routes::` path, or `routes` inside a `crate::{…}` / `super::{…}` group.
fn offences(source: &str) -> Vec<usize> {
    let code = without_comments(source);
    let mut lines: Vec<usize> = code
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            line.contains("crate::routes")
                || line.contains("super::routes")
                || line.contains("routes::")
        })
        .map(|(n, _)| n + 1)
        .collect();
    for opening in ["crate::{", "super::{"] {
        for (at, _) in code.match_indices(opening) {
            let group_start = at + opening.len();
            let mut depth = 1;
            let mut end = code.len();
            for (i, c) in code[group_start..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = group_start + i;
                    break;
                }
            }
            if has_word(&code[group_start..end], "routes") {
                lines.push(code[..at].matches('\n').count() + 1);
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

#[test]
fn nothing_outside_routes_but_the_router_imports_routes() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 20,
        "the edge's sources were not found under {}",
        src.display()
    );

    let mut found = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        if relative.starts_with("routes")
            || ALLOWED.iter().any(|allowed| relative == Path::new(allowed))
        {
            continue;
        }
        let source = std::fs::read_to_string(file).expect("source readable");
        for line in offences(&source) {
            found.push(format!("src/{}:{line}", relative.display()));
        }
    }

    assert!(
        found.is_empty(),
        "plumbing must not import routes (pass what it needs in, or move the shared piece down \
         into http, infra, session or views); found at: {found:#?}"
    );
}

#[test]
fn the_check_sees_every_way_of_naming_routes_and_nothing_else() {
    for import in [
        "use crate::routes::menu::handlers::RESTAURANT_NOT_FOUND;",
        "use super::routes;",
        "let x = routes::cart::handlers::get;",
        "use crate::{\n    http::error::ApiError,\n    routes,\n};",
        "use crate::{infra::state::AppState, routes::account::otp::OtpSent};",
        "fn a() {}\nuse crate::{\n    http,\n    routes,\n};",
    ] {
        assert!(!offences(import).is_empty(), "not seen: {import}");
    }
    for innocent in [
        "// The shell's routes are read from crate::routes? No: from the route table.",
        "/// See `routes::platform::pages`.",
        "let routes = state.routes.routes().await;",
        "use crate::infra::route_table::{CHECK_INTERVAL, RouteTable};",
        "use crate::{http, infra}; // routes:: stay above",
    ] {
        assert!(offences(innocent).is_empty(), "wrongly seen: {innocent}");
    }
    assert_eq!(offences("fn a() {}\n\nuse crate::routes;\n"), [3]);
    assert_eq!(
        offences("fn a() {}\n\nuse crate::{\n    routes,\n};\n"),
        [3]
    );
}
