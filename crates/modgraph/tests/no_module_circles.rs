//! Every crate in the workspace (`crates/*`, `services/*`) is free of module circles: see the
//! crate's documentation for what an edge is. A failure lists each circle, its files, and the
//! paths that tie them, so the fix (usually moving a shared type down into plumbing) is visible.

use std::path::Path;

use tiffin_modgraph::Crate;

#[test]
fn no_crate_in_the_workspace_has_a_module_circle() {
    // Arrange: every crate folder of the workspace.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut crates = Vec::new();
    for group in ["crates", "services"] {
        for entry in std::fs::read_dir(root.join(group)).expect("workspace folder") {
            let dir = entry.expect("dir entry").path();
            if dir.join("Cargo.toml").is_file() && dir.join("src").is_dir() {
                let name = format!("{group}/{}", dir.file_name().unwrap().to_string_lossy());
                crates.push((name, dir));
            }
        }
    }
    crates.sort();
    assert!(
        crates.len() > 10,
        "found only {} crates under {}",
        crates.len(),
        root.display()
    );

    // Act
    let mut report = String::new();
    let mut total = 0;
    for (name, dir) in &crates {
        let circles = Crate::read(name, dir)
            .and_then(|c| c.circles())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for circle in &circles {
            report.push_str(&format!("{name}: circle of {circle}"));
        }
        total += circles.len();
    }

    // Assert
    assert!(
        total == 0,
        "{total} module circle(s) in {} crates (a module circle is a defect: make the \
         dependencies point one way)\n{report}",
        crates.len()
    );
}
