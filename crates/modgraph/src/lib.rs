//! The module-circle check (house style: "a module circle is a defect, like a failing test").
//!
//! Each crate's `src/` becomes a graph of files: a file is a module (`lib.rs`, or `main.rs` when
//! there is no `lib.rs`, is the crate root; `a/mod.rs` and `a.rs` are `a`; `a/b.rs` is `a::b`),
//! and there is an edge A → B when file A names a path that resolves to B: a path under `crate::`,
//! `super::` or `self::`, or one that starts with a child module of A (`child::item`), in `use`
//! items, in paths in code, and in macro bodies. A path resolves to the longest module prefix that
//! exists as a file, so `crate::routes::menu::get` is an edge to `routes/menu.rs` and
//! `crate::envelope::Envelope` to `envelope.rs`. `mod x;` declarations are not edges: a parent
//! owns its children without depending on them. Any strongly connected component of more than one
//! file is a circle: those files can only be understood, changed and tested together.
//!
//! Code under `#[cfg(test)]` is left out: a unit test may build its subject from the crate's
//! higher parts, and what must point one way is the code that ships.
//!
//! This crate must never depend on the crates it checks: it reads their sources as text.
//!
//! Other crate roots (`main.rs` beside a `lib.rs`, `src/bin/*`) are left out: nothing can name
//! them, so they are never part of a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module path from the crate root: `[]` is the root, `["routes", "menu"]` is `routes::menu`.
type ModPath = Vec<String>;

/// One crate's files and the module path each one is.
#[derive(Debug)]
pub struct Crate {
    /// The crate's name in reports (its folder, e.g. `services/edge`).
    pub name: String,
    /// Each file's path relative to `src/` (as reports name it) and its source text.
    files: Vec<(String, String)>,
}

/// An edge A → B and the paths in A that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    /// The importing file, relative to `src/`.
    pub from: String,
    /// The imported file, relative to `src/`.
    pub to: String,
    /// The paths as written in `from` (`crate::envelope::Envelope`), without repeats.
    pub names: Vec<String>,
}

/// A strongly connected component of more than one file: every file in it reaches every other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle {
    /// The files in the circle, sorted.
    pub files: Vec<String>,
    /// Every edge between two files of the circle, with the names behind it.
    pub ties: Vec<Tie>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} files: {}", self.files.len(), self.files.join(", "))?;
        for tie in &self.ties {
            writeln!(
                f,
                "    {} -> {}: {}",
                tie.from,
                tie.to,
                tie.names.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Why a crate could not be checked.
#[derive(Debug)]
pub enum Error {
    /// A file or folder could not be read.
    Io(PathBuf, std::io::Error),
    /// A file is not valid Rust.
    Parse(String, syn::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Parse(file, e) => write!(f, "{file}: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl Crate {
    /// A crate from in-memory sources: `(path relative to src/, text)`.
    pub fn from_sources(name: &str, files: &[(&str, &str)]) -> Crate {
        Crate {
            name: name.to_owned(),
            files: files
                .iter()
                .map(|(p, s)| ((*p).to_owned(), (*s).to_owned()))
                .collect(),
        }
    }

    /// Reads every `.rs` file under `<dir>/src`, except under `src/bin/`.
    pub fn read(name: &str, dir: &Path) -> Result<Crate, Error> {
        let src = dir.join("src");
        let mut files = Vec::new();
        read_dir(&src, &src, &mut files)?;
        files.sort();
        Ok(Crate {
            name: name.to_owned(),
            files,
        })
    }

    /// The circles in this crate's file-level import graph, largest first.
    pub fn circles(&self) -> Result<Vec<Circle>, Error> {
        let has_lib = self.files.iter().any(|(p, _)| p == "lib.rs");
        let root = if has_lib { "lib.rs" } else { "main.rs" };
        // Module path → file, for every file of the library's (or binary's) module tree.
        let modules: BTreeMap<ModPath, String> = self
            .files
            .iter()
            .filter_map(|(p, _)| module_path(p, root).map(|m| (m, p.clone())))
            .collect();

        let mut graph = DiGraph::<String, ()>::new();
        let nodes: BTreeMap<&str, NodeIndex> = modules
            .values()
            .map(|file| (file.as_str(), graph.add_node(file.clone())))
            .collect();
        let mut ties: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();

        for (file, text) in &self.files {
            let Some(here) = module_path(file, root) else {
                continue;
            };
            let ast = syn::parse_file(text).map_err(|e| Error::Parse(file.clone(), e))?;
            let mut collector = Collector {
                modules: &modules,
                scope: here.clone(),
                file_module: here,
                found: Vec::new(),
            };
            collector.visit_file(&ast);
            for (target, name) in collector.found {
                if target != *file {
                    ties.entry((file.clone(), target)).or_default().insert(name);
                }
            }
        }
        for (from, to) in ties.keys() {
            graph.update_edge(nodes[from.as_str()], nodes[to.as_str()], ());
        }

        let mut circles: Vec<Circle> = tarjan_scc(&graph)
            .into_iter()
            .filter(|scc| scc.len() > 1)
            .map(|scc| {
                let mut files: Vec<String> = scc.iter().map(|n| graph[*n].clone()).collect();
                files.sort();
                let ties = ties
                    .iter()
                    .filter(|((from, to), _)| files.contains(from) && files.contains(to))
                    .map(|((from, to), names)| Tie {
                        from: from.clone(),
                        to: to.clone(),
                        names: names.iter().cloned().collect(),
                    })
                    .collect();
                Circle { files, ties }
            })
            .collect();
        circles.sort_by(|a, b| {
            b.files
                .len()
                .cmp(&a.files.len())
                .then(a.files.cmp(&b.files))
        });
        Ok(circles)
    }
}

fn read_dir(src: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::Io(dir.to_owned(), e))?;
    for entry in entries {
        let path = entry.map_err(|e| Error::Io(dir.to_owned(), e))?.path();
        let rel = path
            .strip_prefix(src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if rel != "bin" {
                read_dir(src, &path, out)?;
            }
        } else if rel.ends_with(".rs") {
            let text = std::fs::read_to_string(&path).map_err(|e| Error::Io(path.clone(), e))?;
            out.push((rel, text));
        }
    }
    Ok(())
}

/// The module a file is, or `None` for a crate root other than `root` (`main.rs` beside `lib.rs`).
fn module_path(file: &str, root: &str) -> Option<ModPath> {
    if file == root {
        return Some(Vec::new());
    }
    if !file.contains('/') && (file == "lib.rs" || file == "main.rs") {
        return None;
    }
    let stem = file.strip_suffix(".rs")?;
    let mut parts: ModPath = stem.split('/').map(str::to_owned).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// Walks one file and collects every path that leads to another module's file.
struct Collector<'a> {
    modules: &'a BTreeMap<ModPath, String>,
    /// The module the walk is in: the file's module, plus any inline `mod x { … }` around it.
    scope: ModPath,
    /// The file's own module (paths that resolve to it are not edges).
    file_module: ModPath,
    /// (file the path resolves to, the path as written).
    found: Vec<(String, String)>,
}

impl Collector<'_> {
    /// Resolves a path written in the current scope and records the file it leads to, if that is
    /// another file of this crate.
    fn record(&mut self, segments: &[String]) {
        let Some(first) = segments.first() else {
            return;
        };
        let mut absolute: ModPath = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.scope.clone(),
            "super" => {
                let mut at = self.scope.clone();
                if at.pop().is_none() {
                    return;
                }
                at
            }
            // `child::item`: a path that starts with a child module of this one. A lone name is
            // more likely a local variable than a module, so it needs a second segment.
            name if segments.len() > 1 => {
                let mut child = self.scope.clone();
                child.push(name.to_owned());
                if !self.modules.contains_key(&child) {
                    return;
                }
                self.scope.clone()
            }
            _ => return,
        };
        let mut rest = &segments[1..];
        if first == "super" {
            // `super::super::x`: each further `super` climbs one more level.
            while rest.first().is_some_and(|s| s == "super") {
                if absolute.pop().is_none() {
                    return;
                }
                rest = &rest[1..];
            }
        } else if first != "crate" && first != "self" && first != "super" {
            rest = segments;
        }
        absolute.extend(rest.iter().filter(|s| *s != "self").cloned());
        // The longest prefix that is a file.
        let target = (0..=absolute.len())
            .rev()
            .find_map(|n| self.modules.get(&absolute[..n]));
        if let Some(target) = target
            && self.modules.get(&self.file_module) != Some(target)
        {
            self.found.push((target.clone(), segments.join("::")));
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if name == "self" {
                    self.record(prefix);
                } else {
                    prefix.push(name);
                    self.record(prefix);
                    prefix.pop();
                }
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.record(prefix);
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.record(prefix),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// Paths inside macro bodies are tokens, not syntax: finds `crate :: a :: b`, `super :: …`,
    /// `self :: …` and `child :: …` runs in them (and `$crate :: …` in `macro_rules!`).
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => {
                    self.tokens(g.stream());
                    i += 1;
                }
                TokenTree::Ident(ident) => {
                    // A path starts at an identifier not itself preceded by `::`.
                    let after_colons = i >= 2 && is_colon(&trees[i - 1]) && is_colon(&trees[i - 2]);
                    let mut segments = vec![ident.to_string()];
                    let mut j = i + 1;
                    while j + 1 < trees.len() && is_colon(&trees[j]) && is_colon(&trees[j + 1]) {
                        match trees.get(j + 2) {
                            Some(TokenTree::Ident(next)) => {
                                segments.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    if !after_colons && segments.len() > 1 {
                        self.record(&segments);
                    }
                    i = j.max(i + 1);
                }
                TokenTree::Punct(_) | TokenTree::Literal(_) => i += 1,
            }
        }
    }
}

fn is_colon(tree: &TokenTree) -> bool {
    matches!(tree, TokenTree::Punct(p) if p.as_char() == ':')
}

/// Whether the attributes say `#[cfg(test)]`: such code is left out of the graph. A unit test may
/// build its subject from the crate's higher parts (an index, a fixture in the root); what must
/// point one way is the code that ships.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|ident| ident == "test")
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !test_only(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !test_only(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // `mod x;` is not an edge; an inline `mod x { … }` is a scope for `self` and `super`.
        if item.content.is_some() {
            self.scope.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.scope.pop();
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if path.leading_colon.is_none() {
            self.record(&segments);
        }
        syn::visit::visit_path(self, path);
    }

    // `pub(crate)`, `pub(super)` and `pub(in crate::a)` say who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circles(files: &[(&str, &str)]) -> Vec<Circle> {
        Crate::from_sources("example", files).circles().unwrap()
    }

    #[test]
    fn a_circle_of_three_files_is_found_with_the_names_that_tie_it() {
        let found = circles(&[
            ("lib.rs", "mod a; mod b; mod c;"),
            ("a.rs", "use crate::b::B; pub struct A;"),
            ("b.rs", "pub struct B(crate::c::C);"),
            ("c.rs", "pub fn c() -> super::a::A { crate::a::A }"),
        ]);

        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files, ["a.rs", "b.rs", "c.rs"]);
        let ties: Vec<(&str, &str, Vec<String>)> = found[0]
            .ties
            .iter()
            .map(|t| (t.from.as_str(), t.to.as_str(), t.names.clone()))
            .collect();
        assert_eq!(
            ties,
            [
                ("a.rs", "b.rs", vec!["crate::b::B".to_owned()]),
                ("b.rs", "c.rs", vec!["crate::c::C".to_owned()]),
                (
                    "c.rs",
                    "a.rs",
                    vec!["crate::a::A".to_owned(), "super::a::A".to_owned()]
                ),
            ]
        );
    }

    #[test]
    fn a_one_way_chain_has_no_circle() {
        let found = circles(&[
            (
                "lib.rs",
                "mod routes; mod envelope; mod error; pub use routes::router;",
            ),
            (
                "routes/mod.rs",
                "mod menu; pub fn router() { menu::get(); }",
            ),
            (
                "routes/menu.rs",
                "use crate::envelope::Envelope; pub fn get() {}",
            ),
            (
                "envelope.rs",
                "use crate::error::Error; pub struct Envelope;",
            ),
            ("error.rs", "pub enum Error {}"),
        ]);

        assert_eq!(found, []);
    }

    #[test]
    fn a_child_importing_its_parent_that_re_exports_it_is_a_circle() {
        let found = circles(&[
            ("lib.rs", "mod shop;"),
            (
                "shop/mod.rs",
                "mod cart; pub use cart::Cart; pub struct Price;",
            ),
            ("shop/cart.rs", "use super::Price; pub struct Cart(Price);"),
        ]);

        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files, ["shop/cart.rs", "shop/mod.rs"]);
    }

    #[test]
    fn mod_declarations_visibility_and_the_files_own_tests_are_not_edges() {
        let found = circles(&[
            ("lib.rs", "mod a; pub(crate) fn root() {}"),
            (
                "a.rs",
                "pub(crate) fn a() {} pub(super) struct S; \
                 #[cfg(test)] mod tests { use super::*; use self::inner::X; mod inner { pub struct X; } }",
            ),
        ]);

        assert_eq!(found, []);
    }

    #[test]
    fn paths_inside_macros_and_nested_inline_modules_count() {
        let found = circles(&[
            ("lib.rs", "mod a; mod b;"),
            ("a.rs", "fn f() { println!(\"{}\", crate::b::NAME); }"),
            (
                "b.rs",
                "mod inner { fn g() { super::super::a::f(); } } pub const NAME: &str = \"\";",
            ),
        ]);

        assert_eq!(found.len(), 1);
        assert_eq!(found[0].ties[0].names, ["crate::b::NAME"]);
        assert_eq!(found[0].ties[1].names, ["super::super::a::f"]);
    }

    #[test]
    fn test_only_code_is_not_an_edge() {
        let found = circles(&[
            (
                "lib.rs",
                "mod a; pub const MIGRATOR: u8 = 0; pub fn run() { a::go(); }",
            ),
            (
                "a.rs",
                "pub fn go() {} #[cfg(test)] mod tests { use crate::MIGRATOR; } \
                 #[cfg(test)] fn helper() { crate::run(); }",
            ),
        ]);
        assert!(found.is_empty(), "{found:?}");
        let found = circles(&[
            (
                "lib.rs",
                "mod a; pub const MIGRATOR: u8 = 0; pub fn run() { a::go(); }",
            ),
            ("a.rs", "pub fn go() { let _ = crate::MIGRATOR; }"),
        ]);
        assert_eq!(found.len(), 1, "the same path outside a test is an edge");
    }

    #[test]
    fn a_binary_beside_the_library_is_left_out() {
        let found = circles(&[
            ("lib.rs", "pub mod a; pub fn run() {}"),
            ("main.rs", "fn main() { example::run(); }"),
            ("a.rs", "pub fn a() { crate::run(); }"),
        ]);

        assert_eq!(found, []);
    }
}
