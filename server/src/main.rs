//! Starts Berth: reads the configuration from the environment, binds, serves.

use server::{AppState, Config, app};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info")),
        )
        // Logs go to stderr: stdout carries only the line that says where Berth runs.
        .with_writer(std::io::stderr)
        .init();
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // The whole chain, so "cannot read the catalog file x" comes with its cause.
            let mut text = format!("error: {err}");
            let mut source = err.source();
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            eprintln!("{text}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::from_env()?;
    let state = AppState::new(config.clone())?;
    let listener = tokio::net::TcpListener::bind(&config.addr)
        .await
        .map_err(|e| format!("cannot listen on {} (BERTH_ADDR): {e}", config.addr))?;
    let addr = listener.local_addr()?;
    // Scripts and tests read this line to find the server.
    println!("Berth is running at http://{addr}/");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
