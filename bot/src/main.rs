//! `tavern`: the Discord bot, its console and its command-line tools.

use clap::Parser;

/// Tavern: dice, character generators and NPCs for tabletop groups on Discord.
#[derive(Debug, Parser)]
#[command(name = "tavern", version)]
struct Cli {}

fn main() -> anyhow::Result<()> {
    let _cli = Cli::parse();
    Ok(())
}
