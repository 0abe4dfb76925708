//! Starts Berth: reads the configuration from the environment, binds, serves.

use server::{AppState, Config, app};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info")),
        )
        .init();
    let config = Config::from_env()?;
    let listener = tokio::net::TcpListener::bind(&config.addr).await?;
    let addr = listener.local_addr()?;
    let state = AppState::new(config)?;
    // Scripts and tests read this line to find the server.
    println!("Berth is running at http://{addr}/");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
