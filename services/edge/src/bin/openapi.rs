//! Prints the edge's OpenAPI document (`docs/openapi.json`) to standard output: `make contract`
//! writes it, then generates the web's types from it.

fn main() {
    print!("{}", tiffin_edge::app::openapi_json());
}
