//! The `tavern` binary, run as a user runs it.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use crate::support::TempDir;

pub fn tavern(args: &[&str], stdin: &str) -> Output {
    tavern_with_env(args, stdin, &[])
}

/// `tavern` with these environment variables set (`USER` names the console's user,
/// `LANG` its language: the machine's own locale is never inherited).
pub fn tavern_with_env(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    tavern_in(None, args, stdin, env)
}

/// `tavern` run in `dir` (the test's own directory when `None`), as a user who
/// types paths relative to where they stand.
pub fn tavern_in(
    dir: Option<&std::path::Path>,
    args: &[&str],
    stdin: &str,
    env: &[(&str, &str)],
) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tavern"));
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .args(args)
        .env_remove("RUST_LOG")
        .env_remove("DISCORD_TOKEN")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tavern");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait for tavern")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn migrate_creates_the_database_and_can_run_again() {
    let dir = TempDir::new("cli-migrate");
    let db = dir.path("fresh.db");
    let db = db.to_str().unwrap();
    for _ in 0..2 {
        let output = tavern(&["migrate", "--db", db], "");
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stdout(&output), "migrations applied\n");
    }
    assert!(dir.path("fresh.db").exists());
}

#[test]
fn run_explains_what_it_needs() {
    let output = tavern(&["run"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("`tavern run` needs --config FILE"),
        "{}",
        stderr(&output)
    );

    let dir = TempDir::new("cli-run");
    let config = dir.path("tavern.toml");
    let db = dir.path("bot.db");
    std::fs::write(
        &config,
        format!("[database]\nurl = \"sqlite://{}\"\n", db.display()),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let output = tavern(&["run", "--config", config], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("DISCORD_TOKEN is not set"),
        "{}",
        stderr(&output)
    );

    // A test base that could reach the real Discord is refused before anything else.
    std::fs::write(
        dir.path("tavern.toml"),
        format!(
            "[database]\nurl = \"sqlite://{}\"\n[discord]\napi_base = \"http://discord.com\"\n",
            db.display()
        ),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tavern"))
        .args(["run", "--config", config])
        .env("DISCORD_TOKEN", "not-a-real-token")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("api_base http://discord.com is not on loopback"),
        "{}",
        stderr(&output)
    );
    assert!(!db.exists(), "refused before the database is opened");
}

#[test]
fn a_broken_configuration_is_reported() {
    let dir = TempDir::new("cli-config");
    let config = dir.path("bad.toml");
    std::fs::write(&config, "[database]\nurll = 1\n").unwrap();
    let output = tavern(&["migrate", "--config", config.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("unknown field `urll`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_piped_console_answers_every_line_without_a_rate_limit() {
    let dir = crate::support::TempDir::new("console-many-lines");
    let db = dir.path("many.db");
    let lines: String = (1..=25).map(|n| format!("/roll 1d1+{n}\n")).collect();
    let output = tavern(&["console", "--db", db.to_str().unwrap()], &lines);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.matches("[buttons: Roll again]").count(), 25, "{text}");
    assert!(!text.contains("slow down"), "{text}");
}

/// A piped console echoes the answers it reads (`> 1`), as a terminal shows what was
/// typed, and not the commands, whose answers name them; the files it writes (odds
/// charts) are in one folder that is gone when it ends.
#[test]
fn a_piped_console_echoes_answers_and_leaves_no_files_behind() {
    let dir = crate::support::TempDir::new("console-echo");
    let db = dir.path("echo.db");
    let tmp = dir.path("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let input = "/chargen start\n1\n/odds 2d6\n/odds 3d6 target:12\nhello\n";
    let output = tavern_with_env(
        &["console", "--db", db.to_str().unwrap()],
        input,
        &[("TMPDIR", tmp.to_str().unwrap())],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("(1)? \n[buttons: Answer] (/press LABEL)\n> 1\n"),
        "{text}"
    );
    assert!(text.contains("\n> hello\n"), "{text}");
    assert!(!text.contains("> /"), "commands are not echoed: {text}");
    let folder = tmp.join("tavern-console");
    let written: Vec<&str> = text
        .split("[written to ")
        .skip(1)
        .filter_map(|rest| rest.split(']').next())
        .collect();
    assert_eq!(written.len(), 2, "{text}");
    for path in written {
        assert!(
            std::path::Path::new(path).starts_with(&folder),
            "{path} is not under {}",
            folder.display()
        );
    }
    let left: Vec<_> = std::fs::read_dir(&folder)
        .map(|entries| entries.flatten().map(|entry| entry.path()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left behind: {left:?}");
}
