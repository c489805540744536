//! `deploy/`: no Docker engine or systemd runs the files here, so they are parsed
//! and held to what they promise: the compose file's services, ports and
//! environment, the Dockerfile's stages and unprivileged user, the unit's hardening,
//! and every Tavern configuration they reference parses.

use std::collections::BTreeMap;

use tavern::config::Config;
use yaml_rust2::{Yaml, YamlLoader};

const COMPOSE: &str = include_str!("../../deploy/docker-compose.yml");
const DOCKERFILE: &str = include_str!("../../deploy/Dockerfile");
const UNIT: &str = include_str!("../../deploy/tavern.service");
const ENV_EXAMPLE: &str = include_str!("../../deploy/tavern.env.example");
const HOST_CONFIG: &str = include_str!("../../deploy/tavern.toml");
const CONTAINER_CONFIG: &str = include_str!("../../deploy/tavern.container.toml");
const WORKSPACE: &str = include_str!("../../Cargo.toml");

/// The configuration files of `deploy/` by name, as the compose file and the
/// Dockerfile name them.
fn deploy_config(name: &str) -> &'static str {
    match name {
        "tavern.toml" => HOST_CONFIG,
        "tavern.container.toml" => CONTAINER_CONFIG,
        other => panic!("deploy/{other} is referenced but not known to this test"),
    }
}

fn compose() -> Yaml {
    let mut documents = YamlLoader::load_from_str(COMPOSE).expect("docker-compose.yml is YAML");
    assert_eq!(documents.len(), 1);
    documents.remove(0)
}

fn strings(list: &Yaml) -> Vec<&str> {
    list.as_vec()
        .unwrap_or_else(|| panic!("a list: {list:?}"))
        .iter()
        .map(|item| item.as_str().expect("a string"))
        .collect()
}

#[test]
fn compose_runs_tavern_on_a_healthy_postgres() {
    let compose = compose();
    let services = &compose["services"];
    let names: Vec<&str> = services
        .as_hash()
        .expect("services")
        .keys()
        .filter_map(Yaml::as_str)
        .collect();
    assert_eq!(names, ["postgres", "tavern"]);

    let postgres = &services["postgres"];
    assert!(postgres["image"].as_str().unwrap().starts_with("postgres:"));
    assert_eq!(
        postgres["environment"]["POSTGRES_USER"].as_str(),
        Some("tavern")
    );
    assert_eq!(
        postgres["environment"]["POSTGRES_DB"].as_str(),
        Some("tavern")
    );
    assert!(
        postgres["environment"]["POSTGRES_PASSWORD"]
            .as_str()
            .unwrap()
            .starts_with("${POSTGRES_PASSWORD:?"),
        "no default password"
    );
    assert_eq!(
        strings(&postgres["volumes"]),
        ["pgdata:/var/lib/postgresql/data"]
    );
    assert!(
        postgres["ports"].is_badvalue(),
        "PostgreSQL is not published"
    );
    assert!(
        strings(&postgres["healthcheck"]["test"])
            .join(" ")
            .contains("pg_isready")
    );
    assert!(!compose["volumes"]["pgdata"].is_badvalue());

    let tavern = &services["tavern"];
    assert_eq!(tavern["build"]["context"].as_str(), Some(".."));
    assert_eq!(
        tavern["build"]["dockerfile"].as_str(),
        Some("deploy/Dockerfile")
    );
    assert_eq!(
        tavern["depends_on"]["postgres"]["condition"].as_str(),
        Some("service_healthy")
    );
    let environment = &tavern["environment"];
    assert!(
        environment["DISCORD_TOKEN"]
            .as_str()
            .unwrap()
            .starts_with("${DISCORD_TOKEN:?")
    );
    assert!(!environment["RUST_LOG"].is_badvalue());
    let database = environment["TAVERN_DATABASE_URL"].as_str().unwrap();
    assert_eq!(
        database,
        "postgres://tavern:${POSTGRES_PASSWORD}@postgres:5432/tavern"
    );
    assert_eq!(tavern["read_only"].as_bool(), Some(true));
    assert_eq!(strings(&tavern["cap_drop"]), ["ALL"]);
    let healthcheck = strings(&tavern["healthcheck"]["test"]).join(" ");
    assert!(
        healthcheck.contains("/dev/tcp/127.0.0.1/9187"),
        "{healthcheck}"
    );
    assert!(healthcheck.contains("GET /healthz"), "{healthcheck}");

    // The metrics port: published on the host's loopback only, and the one the
    // mounted configuration listens on.
    assert_eq!(strings(&tavern["ports"]), ["127.0.0.1:9187:9187"]);
    let command = strings(&tavern["command"]);
    assert_eq!(command[..3], ["run", "--config", "/etc/tavern/tavern.toml"]);
    let mounted = strings(&tavern["volumes"])
        .into_iter()
        .find_map(|volume| volume.strip_suffix(":/etc/tavern/tavern.toml:ro"))
        .expect("the configuration is mounted read-only");
    let mut config = Config::from_toml(deploy_config(mounted.trim_start_matches("./")))
        .expect("the mounted configuration parses");
    assert_eq!(config.metrics.address.as_deref(), Some("0.0.0.0:9187"));
    config.apply_env(|name| (name == "TAVERN_DATABASE_URL").then(|| database.to_owned()));
    assert!(config.database.url.starts_with("postgres://"));
}

/// A Dockerfile's instructions: (keyword, arguments), continuation lines joined.
fn instructions(dockerfile: &str) -> Vec<(String, String)> {
    let mut joined = Vec::new();
    let mut current = String::new();
    for line in dockerfile.lines() {
        let line = line.trim();
        if line.starts_with('#') || (line.is_empty() && current.is_empty()) {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(start) => current.push_str(start),
            None => {
                current.push_str(line);
                joined.push(std::mem::take(&mut current));
            }
        }
    }
    joined
        .into_iter()
        .filter(|instruction| !instruction.is_empty())
        .map(|instruction| {
            let (keyword, arguments) = instruction.split_once(' ').unwrap_or((&instruction, ""));
            (keyword.to_uppercase(), arguments.trim().to_owned())
        })
        .collect()
}

#[test]
fn the_dockerfile_builds_in_one_stage_and_runs_unprivileged_in_another() {
    let instructions = instructions(DOCKERFILE);
    let stages: Vec<&str> = instructions
        .iter()
        .filter(|(keyword, _)| keyword == "FROM")
        .map(|(_, arguments)| arguments.as_str())
        .collect();
    assert_eq!(stages.len(), 2, "{stages:?}");
    let (build_image, build_name) = stages[0].split_once(" AS ").expect("a named build stage");
    let runtime_image = stages[1].split(' ').next().unwrap();
    assert!(
        runtime_image.ends_with("-slim") || runtime_image.contains("distroless"),
        "a small runtime image: {runtime_image}"
    );

    // The build image is no older than the workspace's rust-version.
    let rust_version = WORKSPACE
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = "))
        .expect("rust-version")
        .trim_matches('"');
    let image_version = build_image
        .strip_prefix("rust:")
        .and_then(|tag| tag.split('-').next())
        .expect("a rust:VERSION image");
    let numbers = |version: &str| -> Vec<u32> {
        version
            .split('.')
            .map(|part| part.parse().unwrap())
            .collect()
    };
    assert!(numbers(image_version) >= numbers(rust_version));

    let runtime: Vec<&(String, String)> = instructions
        .iter()
        .skip_while(|(keyword, arguments)| !(keyword == "FROM" && arguments == stages[1]))
        .collect();
    let run_builds = instructions.iter().any(|(keyword, arguments)| {
        keyword == "RUN" && arguments.contains("cargo build --release --locked -p tavern")
    });
    assert!(run_builds, "the build stage builds the tavern binary");
    let find = |wanted: &str| -> Vec<&str> {
        runtime
            .iter()
            .filter(|(keyword, _)| keyword == wanted)
            .map(|(_, arguments)| arguments.as_str())
            .collect()
    };
    let copies = find("COPY");
    assert!(
        copies.contains(&format!("--from={build_name} /out/tavern /usr/local/bin/tavern").as_str()),
        "{copies:?}"
    );
    let config_copy = copies
        .iter()
        .find_map(|copy| copy.strip_suffix(" /etc/tavern/tavern.toml"))
        .expect("a configuration in the image");
    let name = config_copy.strip_prefix("deploy/").expect("from deploy/");
    Config::from_toml(deploy_config(name)).expect("the image's configuration parses");

    let user = find("USER");
    assert_eq!(user.len(), 1);
    let account = user[0].split(':').next().unwrap();
    assert!(!matches!(account, "root" | "0"), "runs as {account}");
    assert_eq!(find("ENTRYPOINT"), ["[\"/usr/local/bin/tavern\"]"]);
    assert_eq!(
        find("CMD"),
        ["[\"run\", \"--config\", \"/etc/tavern/tavern.toml\", \"--log-json\"]"]
    );
    assert_eq!(find("EXPOSE"), ["9187"]);
}

/// A systemd unit's sections, each key with every value it is given.
fn unit_sections(unit: &str) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut sections: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut current = None;
    for line in unit.lines().map(str::trim) {
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = Some(name.to_owned());
            sections.entry(name.to_owned()).or_default();
            continue;
        }
        let section = current.clone().expect("a key before any section");
        let (key, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("not key=value: {line}"));
        sections
            .entry(section)
            .or_default()
            .entry(key.trim().to_owned())
            .or_default()
            .push(value.trim().to_owned());
    }
    sections
}

#[test]
fn the_systemd_unit_is_hardened_and_runs_the_deploy_configuration() {
    let sections = unit_sections(UNIT);
    assert_eq!(
        sections.keys().collect::<Vec<_>>(),
        ["Install", "Service", "Unit"]
    );
    let value = |section: &str, key: &str| -> &str {
        let values = &sections[section]
            .get(key)
            .unwrap_or_else(|| panic!("[{section}] {key} is missing"));
        values.last().unwrap()
    };
    assert!(!value("Unit", "Description").is_empty());
    assert!(value("Unit", "After").contains("network-online.target"));
    assert_eq!(value("Install", "WantedBy"), "multi-user.target");

    let exec = value("Service", "ExecStart");
    assert_eq!(
        exec,
        "/usr/local/bin/tavern run --config /etc/tavern/tavern.toml --log-json"
    );
    let config = Config::from_toml(HOST_CONFIG).expect("deploy/tavern.toml parses");
    let state = format!("/var/lib/{}/", value("Service", "StateDirectory"));
    let database = config.database.url.strip_prefix("sqlite://").unwrap();
    assert!(database.starts_with(&state), "{database} outside {state}");
    assert_eq!(config.metrics.address.as_deref(), Some("127.0.0.1:9187"));
    assert_eq!(value("Service", "SocketBindAllow"), "tcp:9187");
    assert_eq!(
        value("Service", "EnvironmentFile"),
        "/etc/tavern/tavern.env"
    );

    let required = [
        ("DynamicUser", "yes"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("PrivateDevices", "yes"),
        ("NoNewPrivileges", "yes"),
        ("CapabilityBoundingSet", ""),
        ("RestrictAddressFamilies", "AF_INET AF_INET6 AF_UNIX"),
        ("KillSignal", "SIGTERM"),
        ("Restart", "on-failure"),
    ];
    for (key, expected) in required {
        assert_eq!(value("Service", key), expected, "[Service] {key}");
    }
    assert!(
        !sections["Service"].contains_key("User"),
        "DynamicUser, not a fixed user"
    );
}

#[test]
fn the_environment_example_names_every_variable_and_holds_no_secret() {
    let variables: BTreeMap<&str, &str> = ENV_EXAMPLE
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split_once('=').expect("KEY=value"))
        .collect();
    assert_eq!(
        variables.keys().copied().collect::<Vec<_>>(),
        ["DISCORD_TOKEN", "POSTGRES_PASSWORD", "RUST_LOG"]
    );
    assert_eq!(variables["DISCORD_TOKEN"], "");
    assert_eq!(variables["POSTGRES_PASSWORD"], "");
    assert_eq!(
        variables["RUST_LOG"],
        tavern::config::LogConfig::default().filter,
        "the same default as [log] filter"
    );
    // Every variable the compose file takes from it is there.
    for needed in ["DISCORD_TOKEN", "POSTGRES_PASSWORD", "RUST_LOG"] {
        assert!(COMPOSE.contains(&format!("${{{needed}")), "{needed}");
    }
}
