//! Generates the Rust code for every `.proto` under `proto/` with protox (a pure-Rust protobuf
//! compiler), so a fresh machine builds with cargo alone: no `protoc` to install.

use std::path::{Path, PathBuf};

fn proto_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read proto dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            proto_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "proto") {
            out.push(path);
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Relative to this crate (cargo runs build scripts there): the paths cargo records to decide
    // whether to rerun must not name one checkout, because a build directory shared by several
    // checkouts (CI's cache) would otherwise check another checkout's files and keep stale code.
    let root = Path::new("../../proto");
    let mut files = Vec::new();
    proto_files(root, &mut files);
    files.sort();
    println!("cargo:rerun-if-changed={}", root.display());
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }

    let fds = protox::compile(&files, [root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    // Server reflection serves this descriptor set so grpcurl and friends work on every service.
    std::fs::write(
        out.join("tiffin_descriptor.bin"),
        prost::Message::encode_to_vec(&fds),
    )?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(fds)?;
    Ok(())
}
