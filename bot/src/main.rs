//! `tavern`: the Discord bot, its console and its command-line tools.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

use tavern::config::Config;
use tavern::console::{self, ConsoleIdentity};
use tavern::core::limits::SystemClock;
use tavern::core::{Core, CoreSettings};
use tavern::discord::{Bot, DiscordOptions, HttpPlan};
use tavern::i18n::Lang;
use tavern::storage::{Storage, StorageOptions, sqlite_url_for_path};

/// Tavern: dice, character generators and NPCs for tabletop groups on Discord.
#[derive(Debug, Parser)]
#[command(name = "tavern", version)]
struct Cli {
    /// The configuration file (see config.example.toml). `run` requires one; the other
    /// commands use the defaults without it.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Log as JSON lines (also `[log] json = true`).
    #[arg(long, global = true)]
    log_json: bool,
    #[command(subcommand)]
    command: Commands,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Connect to Discord (configuration file plus DISCORD_TOKEN).
    Run,
    /// Play in the terminal as the admin of a local server.
    Console {
        /// SQLite file (created if missing) or a database URL.
        #[arg(long, value_name = "PATH", default_value = "./tavern.db")]
        db: String,
        /// Seed every roll and generator run, for reproducible sessions.
        #[arg(long)]
        seed: Option<u64>,
        /// The language to answer in: de or en (default: the environment's LANG,
        /// else English).
        #[arg(long, value_name = "de|en", value_parser = tavern::cli::parse_lang)]
        lang: Option<Lang>,
    },
    /// Serve the web dashboard (log in, characters, macros, encounters live, settings).
    Web {
        /// SQLite file (created if missing) or a database URL (default: the
        /// configuration's).
        #[arg(long, value_name = "PATH")]
        db: Option<String>,
        /// Where to listen, IP:PORT (default: `[web] address`, 127.0.0.1:8080).
        #[arg(long, value_name = "IP:PORT")]
        address: Option<std::net::SocketAddr>,
        /// Offer a login as the console's player without Discord, for development on
        /// your own computer; refused unless the address is loopback.
        #[arg(long)]
        dev_login: bool,
    },
    /// Apply the database migrations and exit.
    Migrate {
        /// SQLite file or database URL (default: the configuration's).
        #[arg(long, value_name = "PATH")]
        db: Option<String>,
    },
    /// Roll a dice expression and print its breakdown.
    Roll(tavern::cli::roll::RollArgs),
    /// Print the exact probability distribution of a dice expression.
    Odds(tavern::cli::odds::OddsArgs),
    /// Run a BASIC program in the terminal; INPUT reads lines from stdin.
    Basic(tavern::cli::basic::BasicArgs),
    /// Check an NPC conversation script, or play it on stdin.
    Npc(tavern::cli::npc::NpcArgs),
    /// Check a spell-effect library, or play an encounter on stdin.
    Effects(tavern::cli::effects::EffectsArgs),
}

fn main() -> ExitCode {
    tavern::memory::limit_arenas();
    let cli = Cli::parse();
    match cli.command {
        // The pure tools need neither configuration nor runtime.
        Commands::Roll(args) => return tavern::cli::roll::run(&args),
        Commands::Odds(args) => return tavern::cli::odds::run(&args),
        Commands::Basic(args) => return tavern::cli::basic::run(&args),
        Commands::Npc(args) => return tavern::cli::npc::run(&args),
        Commands::Effects(args) => return tavern::cli::effects::run(&args),
        _ => {}
    }
    match run_service(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("tavern: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_service(cli: Cli) -> anyhow::Result<()> {
    let config = match &cli.config {
        Some(path) => Config::load(path)?,
        None => {
            let mut config = Config::default();
            config.apply_env(|name| std::env::var(name).ok());
            config
        }
    };
    let quiet_default = matches!(cli.command, Commands::Console { .. });
    tavern::telemetry::init(&config.log, cli.log_json, quiet_default)?;
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if matches!(cli.command, Commands::Run) {
        let cores = std::thread::available_parallelism().map_or(1, |cores| cores.get());
        runtime.worker_threads(config.bot_worker_threads(cores));
    }
    let runtime = runtime
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        match cli.command {
            Commands::Run => run_bot(&config, cli.config.is_some()).await,
            Commands::Console { db, seed, lang } => {
                let lang = lang.unwrap_or_else(tavern::cli::lang_from_environment);
                run_console(&config, &db, seed, lang).await
            }
            Commands::Web {
                db,
                address,
                dev_login,
            } => run_web(&config, db, address, dev_login).await,
            Commands::Migrate { db } => {
                let url = db.map_or_else(|| config.database.url.clone(), |db| database_url(&db));
                let storage = Storage::connect(&url, &storage_options(&config)).await?;
                storage.migrate().await?;
                storage.close().await;
                println!("migrations applied");
                Ok(())
            }
            Commands::Roll(_)
            | Commands::Odds(_)
            | Commands::Basic(_)
            | Commands::Npc(_)
            | Commands::Effects(_) => Ok(()),
        }
    })
}

async fn run_console(
    config: &Config,
    db: &str,
    seed: Option<u64>,
    lang: Lang,
) -> anyhow::Result<()> {
    let storage = Storage::open(&database_url(db), &storage_options(config))
        .await
        .context("cannot open the database")?;
    // The console's one local user is not rate-limited: a piped script must not lose
    // lines (each line is answered before the next is read).
    let mut config = config.clone();
    config.rate_limit.burst = u32::MAX;
    let core = new_core(&config, &storage, seed, Arc::new(tavern::fetch::FileFetch))?;
    let result = console::run(core, ConsoleIdentity::default().with_lang(lang)).await;
    storage.close().await;
    result
}

async fn run_web(
    config: &Config,
    db: Option<String>,
    address: Option<std::net::SocketAddr>,
    dev_login: bool,
) -> anyhow::Result<()> {
    let address = match address {
        Some(address) => address,
        None => config.web.address.parse()?,
    };
    // The bot's token, when given, reads members' roles (the Tavern role).
    let bot_token = std::env::var("DISCORD_TOKEN")
        .ok()
        .map(|token| token.trim().to_owned())
        .filter(|token| !token.is_empty());
    let options = tavern::web::WebOptions::new(&config.web, address, dev_login)?
        .with_discord(&config.web, bot_token)?;
    let url = db.map_or_else(|| config.database.url.clone(), |db| database_url(&db));
    let storage = Storage::open(&url, &storage_options(config))
        .await
        .context("cannot open the database")?;
    // No attachment reader: nothing on the web may make the server read a file.
    let core = Arc::new(Core::new(
        storage.clone(),
        tavern::engine::real_engines(config)?,
        CoreSettings::from_config(config),
        Arc::new(SystemClock),
        None,
    ));
    let web = tavern::web::Web::new(core, Arc::new(SystemClock), options);
    let (bound, task) = tavern::web::serve(address, tavern::web::router(web)).await?;
    tracing::info!(address = %bound, dev_login, "serving the web dashboard");
    println!("Tavern's dashboard: http://{bound}/");
    tavern::shutdown::signal().await;
    task.abort();
    storage.close().await;
    Ok(())
}

async fn run_bot(config: &Config, has_config: bool) -> anyhow::Result<()> {
    anyhow::ensure!(
        has_config,
        "`tavern run` needs --config FILE (see config.example.toml)"
    );
    let token = std::env::var("DISCORD_TOKEN")
        .ok()
        .map(|token| token.trim().to_owned())
        .filter(|token| !token.is_empty())
        .context("DISCORD_TOKEN is not set")?;
    // Refuse a test base that could reach the real Discord before touching anything.
    HttpPlan::for_api_base(config.discord.api_base.as_deref()).check()?;
    let storage = Storage::open(&config.database.url, &storage_options(config)).await?;
    let result = serve_discord(config, &storage, token).await;
    storage.close().await;
    result
}

async fn serve_discord(config: &Config, storage: &Storage, token: String) -> anyhow::Result<()> {
    // Attachments (installed programs and scripts) come from Discord's CDN.
    let fetch = tavern::fetch::HttpFetch::new(std::time::Duration::from_secs(20))?;
    let core = new_core(config, storage, None, Arc::new(fetch))?;
    let token_for_web = token.clone();
    let options = DiscordOptions::from_config(config, token);
    let bot = Bot::connect(core.clone(), options).await?;
    let metrics_server = match &config.metrics.address {
        Some(address) => {
            let (bound, task) =
                tavern::metrics::serve(address, bot.metrics(), core.clone()).await?;
            tracing::info!(address = %bound, "serving /metrics, /healthz and /readyz");
            Some(task)
        }
        None => None,
    };
    let web_server = if config.web.enabled {
        Some(serve_web_beside(config, core.clone(), token_for_web).await?)
    } else {
        None
    };
    tracing::info!(gateway = %bot.gateway_url().await, "starting the gateway");
    let result = bot.start().run_until(tavern::shutdown::signal()).await;
    if let Some(task) = metrics_server {
        task.abort();
    }
    if let Some(task) = web_server {
        task.abort();
    }
    result
}

/// `[web] enabled`: the dashboard on `[web] address`, over the bot's own core, with
/// the bot's token reading members' roles.
async fn serve_web_beside(
    config: &Config,
    core: Arc<Core>,
    token: String,
) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let address = config.web.address.parse()?;
    let options = tavern::web::WebOptions::new(&config.web, address, false)?
        .with_discord(&config.web, Some(token))?;
    let web = tavern::web::Web::new(core, Arc::new(SystemClock), options);
    let (bound, task) = tavern::web::serve(address, tavern::web::router(web)).await?;
    tracing::info!(address = %bound, "serving the web dashboard beside the bot");
    Ok(task)
}

/// The command core with the real engines, reading attachments with `fetch`; `seed`
/// makes runs reproducible.
fn new_core(
    config: &Config,
    storage: &Storage,
    seed: Option<u64>,
    fetch: Arc<dyn tavern::fetch::Fetch>,
) -> anyhow::Result<Arc<Core>> {
    let engines = tavern::engine::real_engines(config)?;
    Ok(Arc::new(
        Core::new(
            storage.clone(),
            engines,
            CoreSettings::from_config(config),
            Arc::new(SystemClock),
            seed,
        )
        .with_fetch(fetch),
    ))
}

/// `--db` takes a file path or a URL.
fn database_url(db: &str) -> String {
    if db.starts_with("sqlite:") || db.contains("://") {
        return db.to_owned();
    }
    sqlite_url_for_path(db)
}

fn storage_options(config: &Config) -> StorageOptions {
    StorageOptions::from_config(&config.database)
}
