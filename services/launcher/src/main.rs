//! `tiffin`: starts the whole storefront (see the crate docs). `make run` calls it.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = tiffin_platform::telemetry::init("tiffin-launcher");
    let settings = tiffin_launcher::Settings::from_env()?;
    tiffin_launcher::run(settings, tiffin_platform::shutdown::signal()).await
}
