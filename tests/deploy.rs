//! The container image and the Kubernetes manifests agree with the binary they ship.
//!
//! `Dockerfile` and `deploy/kubernetes/*.yaml` name ports, probe paths, environment
//! variables and time limits that the server defines elsewhere; nothing else ties them
//! together, so these tests read both sides: the manifests as YAML, the Dockerfile line by
//! line, and the real binary's `--help`, routes and shutdown.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::raw_http::{RawConnection, request_bytes};
use serde::Deserialize;
use serde_yaml_ng::Value;

mod common;

const BINARY: &str = env!("CARGO_BIN_EXE_sudoku-service");

/// How long the server may take to answer its first request after it was started.
const STARTUP_LIMIT: Duration = Duration::from_secs(15);

fn project_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifests_dir() -> PathBuf {
    project_root().join("deploy").join("kubernetes")
}

// ---- reading the manifests ------------------------------------------------------------

/// One YAML document of a manifest file.
struct Document {
    file: String,
    value: Value,
}

/// Every non-empty document of every YAML file under `deploy/kubernetes`, in file order.
fn documents() -> Vec<Document> {
    let mut files: Vec<PathBuf> = fs::read_dir(manifests_dir())
        .expect("deploy/kubernetes must exist")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            )
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no YAML files in deploy/kubernetes");

    let mut documents = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {file}: {e}"));
        for (index, document) in serde_yaml_ng::Deserializer::from_str(&text).enumerate() {
            let value = Value::deserialize(document)
                .unwrap_or_else(|e| panic!("{file}, document {}: not valid YAML: {e}", index + 1));
            if !value.is_null() {
                documents.push(Document {
                    file: file.clone(),
                    value,
                });
            }
        }
    }
    documents
}

/// The Kubernetes resources (everything but kustomize's own file), by kind; each kind once.
fn resources() -> BTreeMap<String, Value> {
    let mut by_kind = BTreeMap::new();
    for document in documents() {
        let kind = text(&document.value["kind"], &format!("{}: kind", document.file));
        if kind == "Kustomization" {
            continue;
        }
        let name = &document.value["metadata"]["name"];
        assert!(
            name.as_str().is_some_and(|n| !n.is_empty()),
            "{}: {kind} has no name",
            document.file
        );
        let previous = by_kind.insert(kind.clone(), document.value);
        assert!(previous.is_none(), "{kind} is defined twice");
    }
    by_kind
}

fn resource<'a>(resources: &'a BTreeMap<String, Value>, kind: &str) -> &'a Value {
    resources
        .get(kind)
        .unwrap_or_else(|| panic!("deploy/kubernetes has no {kind}"))
}

/// The string at `value`, or a test failure naming `what`.
fn text(value: &Value, what: &str) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => panic!("{what}: expected a string, found {other:?}"),
    }
}

fn number(value: &Value, what: &str) -> u64 {
    value
        .as_u64()
        .unwrap_or_else(|| panic!("{what}: expected a whole number, found {value:?}"))
}

fn items<'a>(value: &'a Value, what: &str) -> &'a [Value] {
    value
        .as_sequence()
        .unwrap_or_else(|| panic!("{what}: expected a list, found {value:?}"))
}

/// The Deployment's one container.
fn container(deployment: &Value) -> &Value {
    let containers = items(
        &deployment["spec"]["template"]["spec"]["containers"],
        "containers",
    );
    assert_eq!(
        containers.len(),
        1,
        "the Deployment runs exactly one container"
    );
    &containers[0]
}

/// The container's environment as written in the Deployment (`value:` entries only).
fn container_env(container: &Value) -> BTreeMap<String, String> {
    items(&container["env"], "container env")
        .iter()
        .map(|entry| {
            let name = text(&entry["name"], "env name");
            let value = text(&entry["value"], &format!("env {name}: value"));
            (name, value)
        })
        .collect()
}

/// The number of the container port that `port` (a name or a number) refers to.
fn resolve_port(container: &Value, port: &Value) -> u64 {
    let ports = items(&container["ports"], "container ports");
    if let Some(number) = port.as_u64() {
        assert!(
            ports
                .iter()
                .any(|p| p["containerPort"].as_u64() == Some(number)),
            "port {number} is not a container port"
        );
        return number;
    }
    let name = text(port, "port");
    let named = ports
        .iter()
        .find(|p| p["name"].as_str() == Some(name.as_str()))
        .unwrap_or_else(|| panic!("no container port is named {name:?}"));
    number(&named["containerPort"], "containerPort")
}

/// The port of a `host:port` listen address.
fn port_of(address: &str) -> u64 {
    let address: SocketAddr = address
        .parse()
        .unwrap_or_else(|e| panic!("{address:?}: {e}"));
    u64::from(address.port())
}

/// A Kubernetes CPU quantity ("2", "1500m", 0.5) in millicores.
fn millicores(quantity: &str) -> u64 {
    match quantity.strip_suffix('m') {
        Some(milli) => milli
            .parse()
            .unwrap_or_else(|e| panic!("cpu {quantity:?}: {e}")),
        None => {
            let cores: f64 = quantity
                .parse()
                .unwrap_or_else(|e| panic!("cpu {quantity:?}: {e}"));
            (cores * 1000.0).round() as u64
        }
    }
}

/// Checks that every label of `selector` is on the pods of `deployment`.
fn assert_selects_pods(selector: &Value, deployment: &Value, who: &str) {
    let pod_labels = &deployment["spec"]["template"]["metadata"]["labels"];
    let selector = selector
        .as_mapping()
        .unwrap_or_else(|| panic!("{who}: no label selector"));
    assert!(!selector.is_empty(), "{who}: empty selector");
    for (key, value) in selector {
        assert_eq!(
            &pod_labels[key], value,
            "{who} selects label {key:?}, the pods lack it"
        );
    }
}

// ---- reading the Dockerfile -----------------------------------------------------------

/// One instruction of the Dockerfile: its keyword in upper case and the rest of the line.
struct Instruction {
    keyword: String,
    arguments: String,
}

/// The Dockerfile's instructions, with comments dropped and continuation lines joined.
fn dockerfile() -> Vec<Instruction> {
    let text =
        fs::read_to_string(project_root().join("Dockerfile")).expect("Dockerfile must exist");
    let mut instructions = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || (trimmed.is_empty() && pending.is_empty()) {
            continue;
        }
        match trimmed.strip_suffix('\\') {
            Some(head) => {
                pending.push_str(head);
                pending.push(' ');
            }
            None => {
                pending.push_str(trimmed);
                let (keyword, arguments) = pending
                    .split_once(char::is_whitespace)
                    .unwrap_or((&pending, ""));
                instructions.push(Instruction {
                    keyword: keyword.to_ascii_uppercase(),
                    arguments: arguments.trim().to_owned(),
                });
                pending.clear();
            }
        }
    }
    instructions
}

/// The instructions of the Dockerfile's last stage: the image that ships.
fn runtime_stage(instructions: &[Instruction]) -> &[Instruction] {
    let start = instructions
        .iter()
        .rposition(|i| i.keyword == "FROM")
        .expect("the Dockerfile has a FROM");
    &instructions[start..]
}

fn only<'a>(stage: &'a [Instruction], keyword: &str) -> &'a str {
    let found: Vec<&Instruction> = stage.iter().filter(|i| i.keyword == keyword).collect();
    assert_eq!(
        found.len(),
        1,
        "the runtime stage has exactly one {keyword}"
    );
    &found[0].arguments
}

/// The exec-form (JSON array) arguments of an instruction such as ENTRYPOINT or CMD.
fn exec_form(arguments: &str, what: &str) -> Vec<String> {
    serde_json::from_str(arguments).unwrap_or_else(|e| {
        panic!("{what} must be in exec form (a JSON array), got {arguments:?}: {e}")
    })
}

/// `NAME=value` pairs of the runtime stage's ENV instructions.
fn dockerfile_env(stage: &[Instruction]) -> BTreeMap<String, String> {
    stage
        .iter()
        .filter(|i| i.keyword == "ENV")
        .flat_map(|i| i.arguments.split_whitespace())
        .map(|pair| {
            let (name, value) = pair
                .split_once('=')
                .unwrap_or_else(|| panic!("ENV {pair:?}: use NAME=value"));
            (name.to_owned(), value.trim_matches('"').to_owned())
        })
        .collect()
}

/// The HEALTHCHECK's command, after its `--interval=...` options and `CMD`.
fn healthcheck_command(stage: &[Instruction]) -> Vec<String> {
    let arguments = only(stage, "HEALTHCHECK");
    let command = arguments
        .split_once("CMD")
        .map(|(_, command)| command.trim())
        .unwrap_or_else(|| panic!("HEALTHCHECK without CMD: {arguments:?}"));
    exec_form(command, "HEALTHCHECK CMD")
}

// ---- asking the binary ----------------------------------------------------------------

/// `sudoku-service serve --help`, run with an empty environment so that defaults show.
fn serve_help() -> String {
    let output = Command::new(BINARY)
        .args(["serve", "--help"])
        .env_clear()
        .output()
        .expect("running sudoku-service serve --help");
    assert!(output.status.success(), "serve --help failed: {output:?}");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The environment variables that clap documents as `[env: NAME=...]` in `help`.
fn documented_env_vars(help: &str) -> BTreeSet<String> {
    help.split("[env: ")
        .skip(1)
        .map(|rest| {
            rest.split(['=', ']'])
                .next()
                .unwrap_or_default()
                .trim()
                .to_owned()
        })
        .collect()
}

// ---- tests: the manifests on their own ------------------------------------------------

#[test]
fn manifests_parse_and_define_the_resources_for_scaling_out() {
    let resources = resources();
    for (kind, api_version) in [
        ("Deployment", "apps/v1"),
        ("Service", "v1"),
        ("HorizontalPodAutoscaler", "autoscaling/v2"),
        ("PodDisruptionBudget", "policy/v1"),
    ] {
        let resource = resource(&resources, kind);
        assert_eq!(
            text(&resource["apiVersion"], kind),
            api_version,
            "{kind} apiVersion"
        );
    }
}

#[test]
fn kustomization_lists_every_manifest() {
    let dir = manifests_dir();
    let kustomization: Value = serde_yaml_ng::from_str(
        &fs::read_to_string(dir.join("kustomization.yaml")).expect("kustomization.yaml"),
    )
    .expect("kustomization.yaml is YAML");
    let listed: BTreeSet<String> = items(&kustomization["resources"], "kustomization resources")
        .iter()
        .map(|r| text(r, "kustomization resource"))
        .collect();
    let files: BTreeSet<String> = documents()
        .into_iter()
        .filter(|d| d.value["kind"].as_str() != Some("Kustomization"))
        .map(|d| d.file)
        .collect();
    assert_eq!(
        listed, files,
        "kustomization.yaml must list exactly the manifest files"
    );
}

#[test]
fn service_autoscaler_and_budget_point_at_the_deployment() {
    let resources = resources();
    let deployment = resource(&resources, "Deployment");
    let name = &deployment["metadata"]["name"];
    let container = container(deployment);

    assert_selects_pods(
        &deployment["spec"]["selector"]["matchLabels"],
        deployment,
        "Deployment selector",
    );

    let service = resource(&resources, "Service");
    assert_selects_pods(&service["spec"]["selector"], deployment, "Service");
    for port in items(&service["spec"]["ports"], "Service ports") {
        resolve_port(container, &port["targetPort"]);
    }

    let budget = resource(&resources, "PodDisruptionBudget");
    assert_selects_pods(
        &budget["spec"]["selector"]["matchLabels"],
        deployment,
        "PodDisruptionBudget",
    );

    let autoscaler = resource(&resources, "HorizontalPodAutoscaler");
    let target = &autoscaler["spec"]["scaleTargetRef"];
    assert_eq!(target["kind"].as_str(), Some("Deployment"));
    assert_eq!(
        &target["name"], name,
        "the autoscaler scales the Deployment"
    );
    let min = number(&autoscaler["spec"]["minReplicas"], "minReplicas");
    let max = number(&autoscaler["spec"]["maxReplicas"], "maxReplicas");
    assert!(
        min >= 2 && max > min,
        "autoscaler range {min}..={max}: at least two pods, room to grow"
    );
    let metrics = items(&autoscaler["spec"]["metrics"], "autoscaler metrics");
    assert!(
        metrics
            .iter()
            .any(|m| m["resource"]["name"].as_str() == Some("cpu")),
        "the autoscaler scales on CPU"
    );
    // A budget that allows no disruption at the minimum size would block every node drain.
    if let Some(min_available) = budget["spec"]["minAvailable"].as_u64() {
        assert!(
            min_available < min,
            "minAvailable {min_available} must stay below minReplicas {min}"
        );
    }
}

#[test]
fn pods_are_sized_and_locked_down() {
    let resources = resources();
    let deployment = resource(&resources, "Deployment");
    let pod = &deployment["spec"]["template"]["spec"];
    let container = container(deployment);

    for side in ["requests", "limits"] {
        for what in ["cpu", "memory"] {
            text(
                &container["resources"][side][what],
                &format!("resources.{side}.{what}"),
            );
        }
    }

    let uid = dockerfile_user().0;
    for (context, at) in [
        (&pod["securityContext"], "pod"),
        (&container["securityContext"], "container"),
    ] {
        if !context["runAsUser"].is_null() {
            assert_eq!(
                number(&context["runAsUser"], "runAsUser"),
                uid,
                "{at} runAsUser = the image's USER"
            );
        }
    }
    let pod_context = &pod["securityContext"];
    let container_context = &container["securityContext"];
    let either = |field: &str| {
        let value = &container_context[field];
        if value.is_null() {
            &pod_context[field]
        } else {
            value
        }
    };
    assert_eq!(either("runAsUser").as_u64(), Some(uid), "runAsUser is set");
    assert_eq!(either("runAsNonRoot").as_bool(), Some(true), "runAsNonRoot");
    assert_eq!(
        container_context["readOnlyRootFilesystem"].as_bool(),
        Some(true)
    );
    assert_eq!(
        container_context["allowPrivilegeEscalation"].as_bool(),
        Some(false)
    );
    let dropped: Vec<String> = items(
        &container_context["capabilities"]["drop"],
        "capabilities.drop",
    )
    .iter()
    .map(|c| text(c, "capability"))
    .collect();
    assert_eq!(dropped, ["ALL"], "every capability is dropped");
}

#[test]
fn solver_concurrency_matches_the_cpu_limit() {
    let resources = resources();
    let container = container(resource(&resources, "Deployment"));
    let limit = millicores(&text(&container["resources"]["limits"]["cpu"], "CPU limit"));
    let concurrency: u64 = container_env(container)["SOLVER_CONCURRENCY"]
        .parse()
        .expect("SOLVER_CONCURRENCY is a number");
    assert_eq!(
        concurrency * 1000,
        limit,
        "one solver thread per CPU of the limit: SOLVER_CONCURRENCY={concurrency}, CPU limit {limit}m"
    );
}

#[test]
fn termination_grace_period_outlasts_the_servers_drain() {
    let resources = resources();
    let deployment = resource(&resources, "Deployment");
    let pod = &deployment["spec"]["template"]["spec"];
    let container = container(deployment);

    let grace = number(
        &pod["terminationGracePeriodSeconds"],
        "terminationGracePeriodSeconds",
    );
    let env = container_env(container);
    let seconds = |name: &str| -> u64 {
        env.get(name)
            .unwrap_or_else(|| panic!("the Deployment sets {name}"))
            .parse()
            .unwrap_or_else(|_| panic!("{name} is a number"))
    };
    let (delay, drain) = (seconds("DRAIN_DELAY_SECS"), seconds("SHUTDOWN_GRACE_SECS"));
    assert!(
        grace > delay + drain,
        "terminationGracePeriodSeconds {grace} must exceed DRAIN_DELAY_SECS {delay} s + SHUTDOWN_GRACE_SECS {drain} s"
    );
    // The server's drain delay does what a preStop pause would; both would add up.
    assert!(
        container["lifecycle"]["preStop"].is_null(),
        "a preStop hook besides DRAIN_DELAY_SECS"
    );
}

// ---- tests: the manifests and the Dockerfile against each other -----------------------

/// The runtime image's numeric `USER uid:gid`.
fn dockerfile_user() -> (u64, u64) {
    let instructions = dockerfile();
    let user = only(runtime_stage(&instructions), "USER").to_owned();
    let (uid, gid) = user.split_once(':').unwrap_or((&user, &user));
    let parse = |id: &str| {
        id.parse::<u64>()
            .unwrap_or_else(|_| panic!("USER {user:?} must be numeric uid:gid"))
    };
    (parse(uid), parse(gid))
}

#[test]
fn dockerfile_runs_a_non_root_exec_form_service() {
    let instructions = dockerfile();
    let stage = runtime_stage(&instructions);
    assert!(
        instructions.iter().filter(|i| i.keyword == "FROM").count() >= 2,
        "multi-stage build"
    );
    assert!(
        instructions
            .iter()
            .any(|i| i.keyword == "RUN" && i.arguments.contains("cargo build --release --locked")),
        "the builder runs cargo build --release --locked"
    );
    let (uid, gid) = dockerfile_user();
    assert!(uid != 0 && gid != 0, "the image runs as a non-root user");
    assert_eq!(only(stage, "STOPSIGNAL"), "SIGTERM");

    let entrypoint = exec_form(only(stage, "ENTRYPOINT"), "ENTRYPOINT");
    assert!(
        entrypoint[0].ends_with("/sudoku-service"),
        "ENTRYPOINT runs the binary: {entrypoint:?}"
    );
    let healthcheck = healthcheck_command(stage);
    assert_eq!(
        healthcheck[0], entrypoint[0],
        "HEALTHCHECK runs the same binary"
    );
    assert_eq!(
        healthcheck[1..],
        ["healthcheck"],
        "HEALTHCHECK runs the healthcheck subcommand"
    );
}

#[test]
fn dockerfile_pins_every_base_image_by_tag_and_digest() {
    let instructions = dockerfile();
    let mut stages = Vec::new();
    for from in instructions.iter().filter(|i| i.keyword == "FROM") {
        let mut words = from.arguments.split_whitespace();
        let image = words.next().expect("FROM names an image");
        if !stages.contains(&image) {
            let (name, digest) = image
                .split_once("@sha256:")
                .unwrap_or_else(|| panic!("base image {image:?} must be pinned by digest"));
            assert!(
                digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
                "{image:?}: a digest is 64 hex digits"
            );
            assert!(
                name.rsplit('/')
                    .next()
                    .is_some_and(|last| last.contains(':')),
                "{image:?}: keep the tag before the digest, so a reader sees which image it is"
            );
        }
        if let (Some(as_word), Some(stage)) = (words.next(), words.next()) {
            assert!(as_word.eq_ignore_ascii_case("AS"), "FROM image AS name");
            stages.push(stage);
        }
    }
    assert!(!stages.is_empty(), "the builder stage is named");
}

#[test]
fn every_image_tag_in_the_docs_and_manifests_is_the_crate_version() {
    let expected = format!("sudoku-service:{}", env!("CARGO_PKG_VERSION"));
    let files = [
        "README.md",
        "Dockerfile",
        "deploy/README.md",
        "deploy/kubernetes/deployment.yaml",
        "deploy/kubernetes/kustomization.yaml",
    ];
    let mut tags = 0;
    for file in files {
        let text = std::fs::read_to_string(project_root().join(file)).unwrap();
        // An image reference: the name, a colon, then a tag (not `sudoku-service:80`, a
        // Service address, nor a problem URN).
        for (index, _) in text.match_indices("sudoku-service:") {
            let tag: String = text[index..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || ":.-_".contains(*c))
                .collect();
            let is_image = tag.split(':').nth(1).is_some_and(|t| t.contains('.'));
            if is_image {
                assert_eq!(tag, expected, "{file}");
                tags += 1;
            }
        }
    }
    assert!(tags >= 5, "only {tags} image references found");
}

#[test]
fn image_and_deployment_agree_on_the_port() {
    let instructions = dockerfile();
    let stage = runtime_stage(&instructions);
    let exposed: u64 = only(stage, "EXPOSE")
        .trim_end_matches("/tcp")
        .parse()
        .expect("EXPOSE names one TCP port");
    assert_eq!(
        port_of(&dockerfile_env(stage)["LISTEN_ADDR"]),
        exposed,
        "image LISTEN_ADDR vs EXPOSE"
    );

    let resources = resources();
    let container = container(resource(&resources, "Deployment"));
    let ports = items(&container["ports"], "container ports");
    assert_eq!(ports.len(), 1, "the container has one port");
    let container_port = number(&ports[0]["containerPort"], "containerPort");
    assert_eq!(
        container_port, exposed,
        "containerPort vs the Dockerfile's EXPOSE"
    );
    if let Some(address) = container_env(container).get("LISTEN_ADDR") {
        assert_eq!(
            port_of(address),
            container_port,
            "Deployment LISTEN_ADDR vs containerPort"
        );
    }
    for probe in ["readinessProbe", "livenessProbe"] {
        let port = resolve_port(container, &container[probe]["httpGet"]["port"]);
        assert_eq!(port, container_port, "{probe} asks the service's port");
    }
}

// ---- tests: the manifests and the Dockerfile against the binary -----------------------

#[test]
fn every_configured_variable_is_a_flag_of_serve() {
    let help = serve_help();
    let documented = documented_env_vars(&help);
    assert!(
        documented.contains("LISTEN_ADDR"),
        "serve --help documents LISTEN_ADDR:\n{help}"
    );

    let resources = resources();
    let deployment_env = container_env(container(resource(&resources, "Deployment")));
    let instructions = dockerfile();
    let image_env = dockerfile_env(runtime_stage(&instructions));
    for (origin, names) in [
        ("Deployment", deployment_env.keys()),
        ("Dockerfile ENV", image_env.keys()),
    ] {
        for name in names {
            assert!(
                documented.contains(name),
                "{origin} sets {name}, which `serve --help` does not document; it has {documented:?}"
            );
        }
    }
}

#[test]
fn the_default_listen_address_uses_the_container_port() {
    let help = serve_help();
    let at = help
        .find("[env: LISTEN_ADDR=")
        .expect("serve --help documents LISTEN_ADDR");
    // clap prints `[env: NAME=] [default: VALUE]` together, in the option's description.
    let after = &help[at..];
    let default = after
        .split_once("[default: ")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(value, _)| value.trim())
        .expect("LISTEN_ADDR has a default in serve --help");

    let resources = resources();
    let container = container(resource(&resources, "Deployment"));
    let container_port = number(
        &items(&container["ports"], "ports")[0]["containerPort"],
        "containerPort",
    );
    assert_eq!(
        port_of(default),
        container_port,
        "LISTEN_ADDR default {default} vs containerPort"
    );
}

#[test]
fn probe_paths_are_routes_of_the_api_description() {
    let resources = resources();
    let container = container(resource(&resources, "Deployment"));
    let readiness = text(
        &container["readinessProbe"]["httpGet"]["path"],
        "readiness path",
    );
    let liveness = text(
        &container["livenessProbe"]["httpGet"]["path"],
        "liveness path",
    );
    assert_eq!(
        readiness, "/readyz",
        "readiness asks /readyz (503 while draining)"
    );
    assert_eq!(liveness, "/healthz", "liveness asks /healthz");

    let spec: Value = serde_yaml_ng::from_str(
        &fs::read_to_string(project_root().join("openapi.yaml")).expect("openapi.yaml must exist"),
    )
    .expect("openapi.yaml is YAML");
    for path in [&readiness, &liveness] {
        let operation = &spec["paths"][path.as_str()]["get"];
        assert!(operation.is_mapping(), "openapi.yaml has no GET {path}");
    }
}

/// A server process that is killed if a test fails before it stops it.
struct Server {
    child: Child,
    address: SocketAddr,
    log: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Server {
    /// Starts `sudoku-service serve` with exactly the environment `env`, on a free loopback
    /// port, and waits until it answers.
    fn start(mut env: BTreeMap<String, String>) -> Server {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        env.insert("LISTEN_ADDR".into(), address.to_string());
        env.remove("PORT");

        let log = Path::new(env!("CARGO_TARGET_TMPDIR")).join("deploy-serve.log");
        let log_file = fs::File::create(&log).expect("creating the server log");
        let child = Command::new(BINARY)
            .arg("serve")
            .env_clear()
            .envs(&env)
            .stdin(Stdio::null())
            .stdout(log_file.try_clone().expect("log handle"))
            .stderr(log_file)
            .spawn()
            .expect("starting sudoku-service serve");
        let mut server = Server {
            child,
            address,
            log,
        };

        let deadline = Instant::now() + STARTUP_LIMIT;
        loop {
            if let Ok(status) = http_get(address, "/healthz") {
                assert_eq!(
                    status,
                    200,
                    "/healthz answered {status}; log: {}",
                    server.log.display()
                );
                return server;
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!(
                    "serve exited with {status} before answering; log: {}",
                    server.log.display()
                );
            }
            assert!(
                Instant::now() < deadline,
                "serve did not answer within {STARTUP_LIMIT:?}"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends SIGTERM and waits up to `limit` for the process to exit.
    #[cfg(unix)]
    fn terminate(&mut self, limit: Duration) -> (ExitStatus, Duration) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("pid fits pid_t");
        // SAFETY: `pid` is our own child, which has not been reaped yet.
        assert_eq!(
            unsafe { libc::kill(pid, libc::SIGTERM) },
            0,
            "kill(SIGTERM)"
        );
        let sent = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for serve") {
                return (status, sent.elapsed());
            }
            assert!(
                sent.elapsed() < limit,
                "serve still running {limit:?} after SIGTERM"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The status code of `GET path` on `address`, over a fresh HTTP/1.1 connection.
fn http_get(address: SocketAddr, path: &str) -> std::io::Result<u16> {
    // Nothing listening yet is an error the caller retries on.
    RawConnection::try_open(address)?
        .send(request_bytes("GET", path, ""))
        .response()
        .map(|answer| answer.status)
        .ok_or_else(|| std::io::Error::other("the connection closed without an answer"))
}

/// The deployed configuration, run for real: the server starts with the Deployment's
/// environment plus the image's, its probe paths answer 200, the image's HEALTHCHECK
/// command passes against it, and SIGTERM ends it with exit 0 inside the grace period.
#[cfg(unix)]
#[test]
fn the_deployed_configuration_serves_its_probes_and_stops_on_sigterm() {
    let resources = resources();
    let deployment = resource(&resources, "Deployment");
    let container = container(deployment);
    let instructions = dockerfile();
    let stage = runtime_stage(&instructions);

    let mut env = dockerfile_env(stage);
    env.extend(container_env(container));
    // The drain delay gives load balancers time to notice; nothing routes here, and the
    // delay would only make the test wait.
    env.insert("DRAIN_DELAY_SECS".into(), "0".into());
    let drain: u64 = env["SHUTDOWN_GRACE_SECS"]
        .parse()
        .expect("SHUTDOWN_GRACE_SECS is a number");
    let mut server = Server::start(env.clone());

    for probe in ["readinessProbe", "livenessProbe"] {
        let path = text(&container[probe]["httpGet"]["path"], "probe path");
        let status = http_get(server.address, &path).expect("probe request");
        assert_eq!(
            status,
            200,
            "{probe} GET {path}; log: {}",
            server.log.display()
        );
    }

    // The image's HEALTHCHECK, with the binary built here in place of the image's path.
    let healthcheck = healthcheck_command(stage);
    let mut env_for_check = env.clone();
    env_for_check.insert("LISTEN_ADDR".into(), server.address.to_string());
    let check = Command::new(BINARY)
        .args(&healthcheck[1..])
        .env_clear()
        .envs(&env_for_check)
        .output()
        .expect("running the HEALTHCHECK command");
    assert!(
        check.status.success(),
        "HEALTHCHECK {healthcheck:?} failed against a healthy server: {check:?}"
    );

    let grace = Duration::from_secs(number(
        &deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"],
        "terminationGracePeriodSeconds",
    ));
    let (status, took) = server.terminate(grace);
    assert_eq!(
        status.code(),
        Some(0),
        "exit status after SIGTERM; log: {}",
        server.log.display()
    );
    assert!(
        took <= Duration::from_secs(drain),
        "an idle server drains at once, took {took:?}"
    );

    let after = Command::new(BINARY)
        .args(&healthcheck[1..])
        .env_clear()
        .envs(&env_for_check)
        .output()
        .expect("running the HEALTHCHECK command");
    assert_eq!(
        after.status.code(),
        Some(1),
        "HEALTHCHECK must fail once the server is gone: {after:?}"
    );
}
