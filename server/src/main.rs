//! `berth`: serves Berth (the default), checks spec files (`berth validate`), or prints
//! the Kubernetes objects they become (`berth render`).
//!
//! Settings come from flags, then `BERTH_*` variables, then the `--config` file, then
//! defaults (see `server::config`).

use clap::Parser;
use server::config::{Cli, Command};
use server::{AppState, Config, app};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

// Small short-lived allocations dominate a request (JSON keys, findings, the answer).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    if let Some(name) = empty_variable() {
        eprintln!(
            "error: the environment variable {name} is set but empty: unset it (`unset {name}`) \
             or give it a value"
        );
        return ExitCode::from(2);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info")),
        )
        // Logs go to stderr: stdout carries only the line that says where Berth runs.
        .with_writer(std::io::stderr)
        // Colour codes only on a terminal: in a file or the journal they were text
        // (operator explorer).
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Validate(args)) => {
            let result = load(cli.settings).and_then(|config| {
                let state = AppState::new(config)?;
                Ok(server::cli::validate(
                    &state,
                    &args,
                    &mut std::io::stdout().lock(),
                )?)
            });
            match result {
                Ok(code) => ExitCode::from(code),
                Err(err) if reader_left(&*err) => ExitCode::from(EXIT_PIPE_CLOSED),
                Err(err) => {
                    report(&*err);
                    ExitCode::from(server::cli::EXIT_UNREADABLE)
                }
            }
        }
        Some(Command::Render(args)) => {
            let result = load(cli.settings).and_then(|config| {
                let state = AppState::new(config)?;
                Ok(server::cli::render(
                    &state,
                    &args,
                    &mut std::io::stdout().lock(),
                    &mut std::io::stderr().lock(),
                )?)
            });
            match result {
                Ok(code) => ExitCode::from(code),
                Err(err) if reader_left(&*err) => ExitCode::from(EXIT_PIPE_CLOSED),
                Err(err) => {
                    report(&*err);
                    ExitCode::from(server::cli::EXIT_UNREADABLE)
                }
            }
        }
        Some(Command::Serve(flags)) => run_serve(cli.settings.with_flags(*flags)),
        None => run_serve(cli.settings),
    }
}

fn run_serve(settings: server::config::Settings) -> ExitCode {
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime starts");
    match runtime.block_on(serve(settings)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            report(&*err);
            ExitCode::FAILURE
        }
    }
}

/// The reader of the output went away (`berth validate … | head`): said as a process a
/// SIGPIPE ended is, 128 + 13 and no words, not as a file that cannot be read (exit 2,
/// "Broken pipe": operator explorer).
fn reader_left(err: &(dyn std::error::Error + 'static)) -> bool {
    err.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// What a shell says of a process a SIGPIPE ended.
const EXIT_PIPE_CLOSED: u8 = 141;

/// A settings variable set to nothing: clap reads it as its flag given with no value and
/// said "a value is required for '--catalog <CATALOG>'", naming a flag no one typed
/// (operator exploration), even beside the flag itself. The relay's password has no
/// flag, and an empty one is for the mail settings' own check to judge.
fn empty_variable() -> Option<String> {
    use clap::CommandFactory;
    let command = Cli::command();
    command
        .get_arguments()
        .chain(command.get_subcommands().flat_map(|c| c.get_arguments()))
        .filter_map(|arg| arg.get_env())
        .find(|name| std::env::var_os(name).is_some_and(|v| v.is_empty()))
        .map(|name| name.to_string_lossy().into_owned())
}

/// Prints the whole chain, so "cannot read the catalog file x" comes with its cause.
fn report(err: &dyn std::error::Error) {
    eprintln!("error: {}", server::error_chain(err));
}

fn load(settings: server::config::Settings) -> Result<Config, Box<dyn std::error::Error>> {
    Ok(Config::load(settings)?)
}

/// Locks `<dir>/berth.lock` for this process (the kernel lets go when it ends, however).
/// A directory it makes is its user's alone, and one that others may read is warned of:
/// the database holds every hidden env value, and the logs what tasks print; made with
/// the process's umask, both were readable by every user of the machine (security
/// exploration).
fn hold_data_dir(dir: &std::path::Path) -> Result<std::fs::File, Box<dyn std::error::Error>> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    let existed = dir.is_dir();
    builder.create(dir).map_err(|e| {
        format!(
            "cannot make the data directory {} (--data-dir, BERTH_DATA_DIR, data_dir): {e}",
            dir.display()
        )
    })?;
    #[cfg(unix)]
    if existed
        && let Ok(meta) = std::fs::metadata(dir)
        && std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o007 != 0
    {
        tracing::warn!(
            "every user of this machine may enter the data directory {}, whose database holds \
             hidden env values and whose logs hold what tasks print: `chmod 700` it",
            dir.display()
        );
    }
    let path = dir.join("berth.lock");
    // Named with the setting and the way out: "cannot write …/berth.lock" left both to
    // be guessed (operator exploration).
    let file = std::fs::File::create(&path).map_err(|e| {
        format!(
            "cannot write {} in the data directory (--data-dir, BERTH_DATA_DIR, data_dir): {e}; \
             let the user berth runs as write the directory, or name another",
            path.display()
        )
    })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "another berth server uses the data directory {}; give each server its own (--data-dir, BERTH_DATA_DIR)",
            dir.display()
        )
        .into()),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot lock {}: {e}", path.display()).into())
        }
    }
}

/// Locks `<database>.lock` beside a SQLite task database for this process: the data
/// directory's lock does not cover a file named by `--database-url`, which two servers
/// with two data directories may both name. They would both migrate it at their start,
/// and both lead, each holding quota in its own memory. PostgreSQL is shared (README,
/// "Several servers"); `None` for it.
fn hold_database(config: &Config) -> Result<Option<std::fs::File>, Box<dyn std::error::Error>> {
    let Some(database) =
        server::store::sqlite_path(config.database_url.as_deref(), &config.data_dir)
    else {
        return Ok(None);
    };
    if let Some(dir) = database.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "cannot make the directory of the task database {} (--database-url, BERTH_DATABASE_URL, database_url): {e}",
                database.display()
            )
        })?;
    }
    let mut name = database.clone().into_os_string();
    name.push(".lock");
    let path = std::path::PathBuf::from(name);
    let file = std::fs::File::create(&path).map_err(|e| {
        format!(
            "cannot write {} beside the task database (--database-url, BERTH_DATABASE_URL, \
             database_url): {e}; let the user berth runs as write its directory, or name \
             another file",
            path.display()
        )
    })?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "another berth server uses the task database {}: a SQLite database serves one server; give each its own (--database-url, BERTH_DATABASE_URL, database_url), or share a PostgreSQL database",
            database.display()
        )
        .into()),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot lock {}: {e}", path.display()).into())
        }
    }
}

/// SIGINT (Ctrl-C) or SIGTERM (a service manager's, Kubernetes' stop): before, SIGTERM
/// ended the process at once, with no drain and no hand-over.
async fn stop_asked() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("a SIGTERM handler");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

async fn serve(settings: server::config::Settings) -> Result<(), Box<dyn std::error::Error>> {
    let config = load(settings)?;
    // One server a data directory: a second would take the first's replicas for its own
    // leftovers and end them, and its database file for its own. Held until exit.
    let _data_dir = hold_data_dir(&config.data_dir)?;
    let _database = hold_database(&config)?;
    let state = AppState::open(config.clone()).await?;
    // Served without its console the server answers every page with an empty 404: said
    // at the start, not left to be found in a browser (README exploration).
    if !config.dist.join("index.html").is_file() {
        eprintln!(
            "warning: no console at {} (--dist, BERTH_DIST, dist): its pages will answer 404; \
             build it with `trunk build --release` or point --dist at the built folder",
            config.dist.display()
        );
    }
    let listener = tokio::net::TcpListener::bind(&config.addr)
        .await
        .map_err(|e| {
            // "invalid socket address" for `127.0.0.1`, with no word of the port.
            let hint = if let Some((_, rest)) = config.addr.split_once("://") {
                // An address copied from a browser's bar: "failed to lookup address
                // information" said nothing of the scheme (operator exploration).
                format!(
                    "; write it without the scheme, as {}",
                    rest.trim_end_matches('/')
                )
            } else if e.kind() == std::io::ErrorKind::InvalidInput {
                "; give a host and a port, host:port, as 127.0.0.1:8080 or [::1]:8080 \
                 (port 0 picks a free one)"
                    .to_owned()
            } else {
                String::new()
            };
            format!(
                "cannot listen on {} (--addr, BERTH_ADDR, addr): {e}{hint}",
                config.addr
            )
        })?;
    let addr = listener.local_addr()?;
    // Scripts and tests read this line to find the server.
    println!("Berth is running at http://{addr}/");
    // What an operator checks first, in the log (operator explorer: it said nothing but
    // the address). A PostgreSQL database's address is not said: it may hold a password.
    let identity = match &config.identity {
        server::config::IdentityConfig::Default {} => format!("every request as {}", config.user),
        server::config::IdentityConfig::Proxy { trusted, .. } => {
            format!("a proxy's headers, from {trusted:?}")
        }
        server::config::IdentityConfig::Tokens { tokens_file } => {
            format!("bearer tokens of {}", tokens_file.display())
        }
    };
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        identity = %identity,
        catalog = %config.catalog.as_ref().map_or_else(|| "the demo catalog".to_owned(), |c| c.display().to_string()),
        data_dir = %config.data_dir.display(),
        database = %server::store::sqlite_path(config.database_url.as_deref(), &config.data_dir)
            .map_or_else(|| "PostgreSQL".to_owned(), |file| format!("SQLite at {}", file.display())),
        backend = ?config.backend,
        "serving"
    );
    for said in state.warnings() {
        tracing::warn!("{said}");
    }
    // The peer address goes with each request: the proxy identity mode checks it.
    let runner = state.runner.clone();
    let (asked, asked_once) = tokio::sync::oneshot::channel();
    let serving = server::serve_until(listener, app(state), config.read_timeout, async move {
        stop_asked().await;
        // A stop that said nothing looked like a crash in the log (operator explorer).
        tracing::info!(
            "asked to stop: followed logs end, then the connections; a lone server's replicas run on (those with mounts or pod SSH end with it), and its next start records how they ended"
        );
        let _ = asked.send(());
        // Before the connections drain: a followed log ends with its attempt.
        if let Some(runner) = runner {
            runner.shut_down().await;
        }
    });
    // Asked a second time, it stops at once, as a user pressing Ctrl-C again expects.
    let asked_again = async {
        match asked_once.await {
            Ok(()) => stop_asked().await,
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        () = serving => {}
        () = asked_again => eprintln!("asked to stop again: stopping now"),
    }
    Ok(())
}
