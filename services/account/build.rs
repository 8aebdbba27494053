//! Rebuilds the crate when a migration changes: `sqlx::migrate!` embeds `migrations/` at compile
//! time, and cargo does not otherwise know the directory is an input (sqlx's documented fix).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
