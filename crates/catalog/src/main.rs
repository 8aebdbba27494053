//! `tiffin-catalog --out data/catalogue.json [--seed 42] [--restaurants-per-city 24]
//! [--cities bangalore,mumbai]`: generates the catalogue and writes it as JSON.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use tiffin_catalog::{Options, generate};

const USAGE: &str = "usage: tiffin-catalog --out <path> [--seed <u64>] [--restaurants-per-city <n>] [--cities <a,b,...>]

  --out                   where to write the catalogue JSON (parent directories are created)
  --seed                  generator seed (default 42); the same seed gives the same bytes
  --restaurants-per-city  restaurants in each city (default 24)
  --cities                comma-separated city names or slugs (default: every listed city)";

fn main() -> ExitCode {
    match run(std::env::args().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tiffin-catalog: {e:#}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: impl Iterator<Item = String>) -> anyhow::Result<()> {
    let (out, options) = parse_args(args)?;
    options.validate()?;

    let started = Instant::now();
    let catalogue = generate(&options);
    catalogue.write_json(&out)?;
    println!(
        "wrote {}: {} (seed {}) in {} ms",
        out.display(),
        catalogue.summary(),
        options.seed,
        started.elapsed().as_millis()
    );
    Ok(())
}

fn parse_args(mut args: impl Iterator<Item = String>) -> anyhow::Result<(PathBuf, Options)> {
    let mut out = None;
    let mut options = Options::default();
    while let Some(flag) = args.next() {
        if flag == "-h" || flag == "--help" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let value = args
            .next()
            .with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--out" => out = Some(PathBuf::from(value)),
            "--seed" => {
                options.seed = value.parse().with_context(|| format!("--seed {value:?}"))?
            }
            "--restaurants-per-city" => {
                options.restaurants_per_city = value
                    .parse()
                    .with_context(|| format!("--restaurants-per-city {value:?}"))?
            }
            "--cities" => {
                options.cities = Some(
                    value
                        .split(',')
                        .map(str::trim)
                        .filter(|c| !c.is_empty())
                        .map(str::to_owned)
                        .collect(),
                )
            }
            _ => bail!("unknown flag {flag}"),
        }
    }
    let Some(out) = out else {
        bail!("--out is required")
    };
    Ok((out, options))
}
