//! Several `berth serve` processes on one PostgreSQL database (issue 8): quota is
//! reserved in the database, so concurrent submits through two servers never admit
//! more than the quota; one server leads and places every task, whichever server
//! accepted it; another takes over when it dies.
//!
//! The database server comes from `BERTH_TEST_POSTGRES` (`scripts/postgres.sh` starts
//! one and sets it); each test makes a database of its own there. Without the variable
//! the tests print a notice and pass.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::Berth as Server;

/// A fresh database on the test server, as a URL; `None` with a notice when
/// `BERTH_TEST_POSTGRES` is unset.
fn database(what: &str) -> Option<String> {
    let Ok(url) = std::env::var("BERTH_TEST_POSTGRES") else {
        eprintln!(
            "skipped: BERTH_TEST_POSTGRES is not set (scripts/postgres.sh starts a server and sets it)"
        );
        return None;
    };
    let name = format!("berth_api_{what}_{}", std::process::id());
    // The name is made here of letters, digits and underscores: nothing to escape.
    run_on(
        &url,
        &[
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ],
    );
    // The server URL names a database after the last `/`; this test's replaces it.
    let (server, _) = url.rsplit_once('/').expect("the URL names a database");
    Some(format!("{server}/{name}"))
}

/// Runs `statements` in order on the database at `url`.
fn run_on(url: &str, statements: &[String]) {
    use sqlx::{ConnectOptions, Executor};
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            let options: sqlx::postgres::PgConnectOptions = url.parse().expect("a postgres:// URL");
            let mut admin = options.connect().await.expect("the test server answers");
            for statement in statements {
                admin
                    .execute(sqlx::AssertSqlSafe(statement.clone()))
                    .await
                    .unwrap_or_else(|e| panic!("{statement}: {e}"));
            }
        });
}

/// A `berth` on its own data directory, on the shared database.
fn start(data: &Path, catalog: &Path, database: &str) -> Server {
    Server::start(&[
        ("BERTH_DATA_DIR", data.as_os_str()),
        ("BERTH_CATALOG", catalog.as_os_str()),
        ("BERTH_DATABASE_URL", database.as_ref()),
    ])
}

/// Kills, when dropped, every process left under the data directories (replicas run
/// in their own process groups, so they outlive a killed server).
struct Leftovers(Vec<PathBuf>);

impl Drop for Leftovers {
    fn drop(&mut self) {
        for dir in &self.0 {
            for pid in processes_under(dir) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }
}

/// A leader and a follower on a new database for `what`, `None` without a test
/// PostgreSQL; the first value ends, last, what their replicas leave running.
fn leader_and_follower(what: &str) -> Option<(Leftovers, Server, Server)> {
    let database = database(what)?;
    let data = [
        super::temp_dir(&format!("pg-{what}-lead")),
        super::temp_dir(&format!("pg-{what}-follow")),
    ];
    let leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let leader = start(&data[0], &catalog, &database);
    let follower = start(&data[1], &catalog, &database);
    Some((leftovers, leader, follower))
}

/// Processes whose working directory is under `dir`.
fn processes_under(dir: &Path) -> Vec<u32> {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd.starts_with(&dir))
        })
        .collect()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

/// POSTs JSON; the status and the answer.
fn post(url: &str, body: &Value) -> (u16, Value) {
    let mut response = agent()
        .post(url)
        .header("content-type", "application/json")
        .send(body.to_string())
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("readable");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Submits `spec` through `server`; the new task's id.
fn submitted(server: &Server, spec: &Value) -> String {
    let (status, body) = post(&format!("{}/api/v1/tasks", server.url), spec);
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().expect("an id").to_owned()
}

fn task(server: &Server, id: &str) -> Value {
    let mut response = agent()
        .get(&format!("{}/api/v1/tasks/{id}", server.url))
        .call()
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200, "task {id}");
    serde_json::from_str(&response.body_mut().read_to_string().expect("readable")).expect("JSON")
}

/// The kinds of the task's events, oldest first.
fn kinds(server: &Server, id: &str) -> Vec<String> {
    let mut response = agent()
        .get(&format!("{}/api/v1/tasks/{id}/events", server.url))
        .call()
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200, "events of {id}");
    let events: Value =
        serde_json::from_str(&response.body_mut().read_to_string().expect("readable"))
            .expect("JSON");
    events
        .as_array()
        .expect("a list")
        .iter()
        .map(|e| e["kind"].as_str().expect("a kind").to_owned())
        .collect()
}

fn phase(task: &Value) -> String {
    task["phase"].as_str().expect("a phase").to_owned()
}

/// Polls until `done` holds of the task, or fails after 30 s.
fn wait_for(server: &Server, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let task = task(server, id);
        if done(&task) {
            return task;
        }
        assert!(Instant::now() < until, "task {id} is stuck: {task}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The demo catalog with the Beijing reserved A100 line cut to 10 one-GPU replicas.
fn catalog(dir: &Path) -> PathBuf {
    let mut file: Value = serde_json::from_str(shared::demo::CATALOG_FILE).expect("JSON");
    for q in file["catalog"]["quotas"].as_array_mut().expect("quotas") {
        if q["pool"] == "bj-a-shared" && q["spec"] == "a100-1g" && q["kind"] == "reserved" {
            q["limit"] = json!({ "gpu": 10, "vcpu": 120, "memory_gib": 1200 });
        }
    }
    let path = dir.join("catalog.json");
    std::fs::write(&path, file.to_string()).expect("writable");
    path
}

/// One one-GPU replica on that line.
fn spec(fault_tolerance: bool) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["basic"]["region"] = "cn-north".into();
    spec["basic"]["cluster"] = "bj-a".into();
    spec["compute"] = json!({ "kind": "reserved", "pool": "bj-a-shared", "workers": 0,
        "instance_type": "gpu", "specs": ["a100-1g"], "units_per_node": 1 });
    spec["environment"]["command"] = "sleep 1000".into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["environment"]["models"] = json!([]);
    spec["advanced"]["ssh"] = false.into();
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": fault_tolerance, "max_retries": 3 });
    spec
}

#[test]
fn concurrent_submits_through_two_servers_never_over_admit_quota() {
    let Some(database) = database("quota") else {
        return;
    };
    let data = [super::temp_dir("pg-a"), super::temp_dir("pg-b")];
    let _leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let servers = [
        start(&data[0], &catalog, &database),
        start(&data[1], &catalog, &database),
    ];

    // 50 submits at once, alternating between the servers.
    let answers: Vec<(usize, u16, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..50)
            .map(|n| {
                let url = format!("{}/api/v1/tasks", servers[n % 2].url);
                scope.spawn(move || {
                    let (status, body) = post(&url, &spec(false));
                    (n % 2, status, body)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("joins"))
            .collect()
    });
    let accepted: Vec<&(usize, u16, Value)> = answers.iter().filter(|a| a.1 == 201).collect();
    let refused: Vec<&(usize, u16, Value)> = answers.iter().filter(|a| a.1 == 422).collect();
    assert_eq!(
        (accepted.len(), refused.len()),
        (10, 40),
        "{:?}",
        answers.iter().map(|a| a.1).collect::<Vec<_>>()
    );
    for (_, _, body) in &refused {
        assert!(
            body.to_string().contains("compute.quota.exceeded"),
            "{body}"
        );
    }
    assert!(
        accepted.iter().any(|a| a.0 == 0) && accepted.iter().any(|a| a.0 == 1),
        "both servers accepted some: the quota is shared, not split"
    );

    // One server leads and runs every accepted task, whichever server took it.
    for (_, _, body) in &accepted {
        let id = body["id"].as_str().expect("an id");
        wait_for(&servers[0], id, |t| phase(t) == "running");
    }

    // Both servers show the line full, the one that does not lead from the store.
    for server in &servers {
        let text = agent()
            .get(&format!("{}/api/v1/catalog", server.url))
            .call()
            .expect("the server answers")
            .body_mut()
            .read_to_string()
            .expect("readable");
        let catalog: Value = serde_json::from_str(&text).expect("JSON");
        let line = catalog["usage"]["quota"]
            .as_array()
            .expect("quota lines")
            .iter()
            .find(|q| {
                q["pool"] == "bj-a-shared" && q["spec"] == "a100-1g" && q["kind"] == "reserved"
            })
            .cloned()
            .expect("the line is in use");
        assert_eq!(line["used"]["gpu"], 10, "{} {line}", server.url);
    }

    // A stop through the server that did not accept the task still ends its replicas.
    for (by, _, body) in &accepted {
        let id = body["id"].as_str().expect("an id");
        let (status, answer) = post(
            &format!("{}/api/v1/tasks/{id}/stop", servers[1 - by].url),
            &json!({}),
        );
        assert!(status < 300, "{status} {answer}");
    }
    for (_, _, body) in &accepted {
        let id = body["id"].as_str().expect("an id");
        wait_for(&servers[1], id, |t| phase(t) == "stopped");
    }
    let until = Instant::now() + Duration::from_secs(30);
    while data
        .iter()
        .any(|d| !processes_under(&d.join("tasks")).is_empty())
    {
        assert!(
            Instant::now() < until,
            "replicas still run after their stop"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // The leader saw the replicas end after the other server had recorded the stop:
    // the record says so once.
    for (_, _, body) in &accepted {
        let id = body["id"].as_str().expect("an id");
        let until = Instant::now() + Duration::from_secs(30);
        while !kinds(&servers[0], id).contains(&"exited".to_owned()) {
            assert!(Instant::now() < until, "no exit recorded for {id}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    for (_, _, body) in &accepted {
        let id = body["id"].as_str().expect("an id");
        let kinds = kinds(&servers[0], id);
        let stops = kinds.iter().filter(|k| *k == "stopped").count();
        assert_eq!(stops, 1, "{id}: {kinds:?}");
        assert_eq!(phase(&task(&servers[0], id)), "stopped");
    }

    // With the quota free again, either server accepts.
    let (status, body) = post(&format!("{}/api/v1/tasks", servers[1].url), &spec(false));
    assert_eq!(status, 201, "{body}");
}

#[test]
fn when_the_leader_dies_another_server_takes_over_its_tasks() {
    let Some(database) = database("takeover") else {
        return;
    };
    let data = [super::temp_dir("pg-lead"), super::temp_dir("pg-next")];
    let _leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    // The first server to start takes the lead; the second follows.
    let mut leader = start(&data[0], &catalog, &database);
    let follower = start(&data[1], &catalog, &database);

    let tolerant = submitted(&follower, &spec(true));
    wait_for(&follower, &tolerant, |t| phase(t) == "running");
    assert!(
        !processes_under(&data[0].join("tasks")).is_empty(),
        "the leader runs what the follower accepted"
    );
    assert!(processes_under(&data[1].join("tasks")).is_empty());

    leader.crash();

    // The follower leads now: it re-runs the interrupted task (fault tolerance is on)
    // on its own nodes, and places new submits.
    let rerun = wait_for(&follower, &tolerant, |t| {
        phase(t) == "running" && t["attempts"] == 2
    });
    assert_eq!(rerun["attempts"], 2, "{rerun}");
    let fresh = submitted(&follower, &spec(false));
    wait_for(&follower, &fresh, |t| phase(t) == "running");
    assert!(!processes_under(&data[1].join("tasks")).is_empty());
}

/// `/readyz` says when the task database does not answer, while `/healthz` (liveness)
/// still answers: a server cut off from its database said ok and failed every request
/// after 10 s. A server that does not lead, which reads live usage from the database,
/// then says it cannot, where it answered its own empty usage as live (multi-server
/// exploration).
#[test]
fn readyz_says_when_the_database_does_not_answer() {
    let Some(database) = database("ready") else {
        return;
    };
    let data = [
        super::temp_dir("pg-ready"),
        super::temp_dir("pg-ready-follow"),
    ];
    let _leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let server = start(&data[0], &catalog, &database);
    let follower = start(&data[1], &catalog, &database);
    let status_of = |server: &Server, path: &str| {
        agent()
            .get(&format!("{}{path}", server.url))
            .call()
            .expect("answers")
            .status()
            .as_u16()
    };
    let status = |path: &str| status_of(&server, path);
    assert_eq!(status("/readyz"), 200);
    assert_eq!(status_of(&follower, "/api/v1/catalog"), 200);
    let (_, name) = database.rsplit_once('/').unwrap();
    run_on(
        &std::env::var("BERTH_TEST_POSTGRES").unwrap(),
        &[format!("DROP DATABASE {name} WITH (FORCE)")],
    );
    let until = Instant::now() + Duration::from_secs(30);
    while status("/readyz") != 503 {
        assert!(Instant::now() < until, "readyz never said 503");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(status("/healthz"), 200);
    let mut answer = agent()
        .get(&format!("{}/api/v1/catalog", follower.url))
        .call()
        .expect("answers");
    assert_eq!(answer.status().as_u16(), 503);
    let body: Value = serde_json::from_str(&answer.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(body["code"], "store.unreachable", "{body}");
}

/// A leader stopped as a service manager stops it (SIGTERM), or by Ctrl-C: it ends what
/// it ran before it goes, and the next leader runs it again alone. Before, its replicas
/// outlived it and ran beside the second run (multi-server exploration).
#[test]
fn a_leader_stopped_by_sigterm_ends_what_it_ran_before_it_goes() {
    for signal in ["TERM", "INT"] {
        let Some((_leftovers, mut leader, follower)) = leader_and_follower("stopped") else {
            return;
        };
        let lead_dir = _leftovers.0[0].join("tasks");
        let follow_dir = _leftovers.0[1].join("tasks");
        let tolerant = submitted(&follower, &spec(true));
        wait_for(&follower, &tolerant, |t| phase(t) == "running");
        assert!(!processes_under(&lead_dir).is_empty(), "the leader runs it");
        leader.signal(signal);
        // It goes, within the replicas' grace and the connections' drain.
        let status = leader.exits_within(Duration::from_secs(30));
        assert!(status.is_some_and(|s| s.success()), "{signal}: {status:?}");
        let rerun = wait_for(&follower, &tolerant, |t| {
            phase(t) == "running" && t["attempts"] == 2
        });
        assert_eq!(rerun["attempts"], 2, "{rerun}");
        // The second run is the follower's: the stopping leader took its lock back
        // between its stop and its exit and ran it again itself, and those replicas
        // outlived it (code review).
        assert!(processes_under(&lead_dir).is_empty(), "{signal}");
        assert!(
            !processes_under(&follow_dir).is_empty(),
            "{signal}: {rerun}"
        );
    }
}

/// Ends the database sessions that hold advisory locks on `database`: the leader's lock
/// connection, as a network blip or a database restart drops it.
fn drop_the_leaders_connection(database: &str) {
    run_on(
        database,
        &[
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' \
           AND granted AND pid <> pg_backend_pid() \
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                .to_owned(),
        ],
    );
}

/// Waits until no process works under `dir`, or fails after 30 s.
fn wait_until_none_under(dir: &Path, what: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while !processes_under(dir).is_empty() {
        assert!(Instant::now() < until, "{what}: {:?}", processes_under(dir));
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A leader alive but cut from its lock (the exploratory test's dropped connection):
/// the server that leads next runs its task again, and the one that lost the lead ends
/// what it ran, unheard, so the task runs once and its record is the new leader's.
#[test]
fn a_leader_that_loses_its_lock_ends_what_it_ran() {
    let Some(database) = database("lostlead") else {
        return;
    };
    let data = [super::temp_dir("pg-lost"), super::temp_dir("pg-taker")];
    let _leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let old = start(&data[0], &catalog, &database);
    let next = start(&data[1], &catalog, &database);
    let id = submitted(&next, &spec(true));
    wait_for(&next, &id, |t| phase(t) == "running");
    assert!(!processes_under(&data[0].join("tasks")).is_empty());

    // Frozen while its connection is cut, the old leader cannot take its lock again
    // before the other does; it learns it lost the lead once it goes on.
    old.signal("STOP");
    drop_the_leaders_connection(&database);
    let rerun = wait_for(&next, &id, |t| phase(t) == "running" && t["attempts"] == 2);
    old.signal("CONT");
    assert!(
        !processes_under(&data[1].join("tasks")).is_empty(),
        "{rerun}"
    );
    wait_until_none_under(
        &data[0].join("tasks"),
        "the old leader's replicas still run",
    );
    // The old attempt's end changed nothing: the task runs its second attempt.
    std::thread::sleep(Duration::from_millis(500));
    let now = task(&old, &id);
    assert_eq!(
        (phase(&now), now["attempts"].clone()),
        ("running".into(), json!(2)),
        "{now}"
    );
}

/// A command whose first attempt waits for `flags`/go and ends well, and whose later
/// attempts run on.
fn gated(flags: &Path) -> Value {
    let f = flags.display();
    let mut gated = spec(true);
    gated["environment"]["command"] = format!(
        "if [ -e {f}/started ]; then sleep 1000; else touch {f}/started; \
         while [ ! -e {f}/go ]; do sleep 0.1; done; fi"
    )
    .into();
    gated
}

/// Two servers on a new database for `what`, the first leading, and a [`gated`] task
/// whose first attempt runs on the first while it is paused and cut from its lock, and
/// whose second the other server then runs: the database, the servers, the task, its
/// flags folder and the servers' data folders.
struct Paused {
    database: String,
    first: Server,
    second: Server,
    id: String,
    flags: PathBuf,
    data: [PathBuf; 2],
    _leftovers: Leftovers,
}

fn paused_while_another_reruns(what: &str) -> Option<Paused> {
    let database = database(what)?;
    let data = [
        super::temp_dir(&format!("pg-{what}-first")),
        super::temp_dir(&format!("pg-{what}-second")),
    ];
    let flags = super::temp_dir(&format!("pg-{what}-flags"));
    let leftovers = Leftovers(vec![data[0].clone(), data[1].clone(), flags.clone()]);
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let first = start(&data[0], &catalog, &database);
    let second = start(&data[1], &catalog, &database);
    let id = submitted(&second, &gated(&flags));
    wait_for(&first, &id, |t| phase(t) == "running");
    first.signal("STOP");
    drop_the_leaders_connection(&database);
    wait_for(&second, &id, |t| {
        phase(t) == "running" && t["attempts"] == 2
    });
    Some(Paused {
        database,
        first,
        second,
        id,
        flags,
        data,
        _leftovers: leftovers,
    })
}

/// Lets the first attempt of [`gated`] end, and waits until it has.
fn end_the_first_attempt(flags: &Path, data: &Path, id: &str) {
    std::fs::write(flags.join("go"), "").expect("writable");
    let exit = data.join(format!("tasks/{id}/attempt-1/replica-0/exit-status"));
    let until = Instant::now() + Duration::from_secs(30);
    while !exit.exists() {
        assert!(Instant::now() < until, "attempt 1 never ended");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Events after the retry that say the first attempt's end: none should be.
fn ends_after_the_retry(server: &Server, id: &str) -> Vec<String> {
    let kinds = kinds(server, id);
    let retried = kinds.iter().position(|k| k == "retrying").expect("a retry");
    kinds[retried..]
        .iter()
        .filter(|k| *k == "exited" || *k == "succeeded" || *k == "failed")
        .cloned()
        .collect()
}

/// A leader paused while another takes the lead and re-runs its task, whose attempt
/// meanwhile ends well: once it goes on, it records nothing of that attempt (README,
/// Several servers: it lets go of what it ran without recording the ends), though it
/// has not taken its turn yet when the end reaches it.
#[test]
fn a_paused_leader_records_no_end_of_what_another_ran_again() {
    let Some(Paused {
        database: _,
        first,
        second,
        id,
        flags,
        data,
        _leftovers,
    }) = paused_while_another_reruns("pausedlead")
    else {
        return;
    };
    end_the_first_attempt(&flags, &data[0], &id);
    first.signal("CONT");
    std::thread::sleep(Duration::from_secs(2));
    let now = task(&second, &id);
    assert_eq!(
        (phase(&now), now["attempts"].clone()),
        ("running".into(), json!(2)),
        "{now}"
    );
    assert_eq!(ends_after_the_retry(&second, &id), Vec::<String>::new());
    assert!(
        !processes_under(&data[1].join("tasks")).is_empty(),
        "attempt 2 runs on"
    );
}

/// A leader cut from its lock while another leads, which is cut in turn, takes the lock
/// back: another led meanwhile (a new term), so it lets go of what it ran before, and
/// records nothing of it over the other server's retry; it recovers as a new leader.
#[test]
fn a_leader_back_after_another_led_records_nothing_of_its_old_attempts() {
    let Some(Paused {
        database,
        first,
        second,
        id,
        flags,
        data,
        _leftovers,
    }) = paused_while_another_reruns("aba")
    else {
        return;
    };
    second.signal("STOP");
    drop_the_leaders_connection(&database);
    end_the_first_attempt(&flags, &data[0], &id);
    first.signal("CONT");
    // Leading again under a new term, it recovers as a new leader does: attempt 2 ran
    // on the other machine, whose end it cannot read, so it runs again. Waited for
    // running, not for the attempt's count: attempt 3 is counted while it is still being
    // placed (a loaded machine's CI saw it "scheduling").
    let now = wait_for(&first, &id, |t| {
        (t["attempts"] == 3 && phase(t) == "running") || phase(t) == "succeeded"
    });
    second.signal("CONT");
    assert_eq!(
        (phase(&now), now["attempts"].clone()),
        ("running".into(), json!(3)),
        "{now}"
    );
    assert_eq!(ends_after_the_retry(&first, &id), Vec::<String>::new());
}

/// A leader that crashed and comes back while another leads: what it left running is
/// ended when it starts, not only if it leads again some day.
#[test]
fn a_former_leader_back_as_a_follower_ends_what_it_left_running() {
    let Some(database) = database("comeback") else {
        return;
    };
    let data = [super::temp_dir("pg-back"), super::temp_dir("pg-stay")];
    let _leftovers = Leftovers(data.to_vec());
    let catalog = catalog(&super::temp_dir("pg-catalog"));
    let mut first = start(&data[0], &catalog, &database);
    let second = start(&data[1], &catalog, &database);
    let id = submitted(&second, &spec(true));
    wait_for(&second, &id, |t| phase(t) == "running");
    first.crash();
    wait_for(&second, &id, |t| {
        phase(t) == "running" && t["attempts"] == 2
    });
    // Its replicas outlive it, as documented, until it is back.
    assert!(!processes_under(&data[0].join("tasks")).is_empty());
    let _back = start(&data[0], &catalog, &database);
    wait_until_none_under(
        &data[0].join("tasks"),
        "the crashed leader's replicas still run",
    );
    assert_eq!(task(&second, &id)["attempts"], 2);
}

/// A waiting task's reason through either server: the one that does not lead makes no
/// admission passes, and said none (the exploratory test's `reason: None`).
#[test]
fn a_waiting_tasks_reason_is_told_through_every_server() {
    let Some(database) = database("reason") else {
        return;
    };
    let data = [
        super::temp_dir("pg-why-lead"),
        super::temp_dir("pg-why-follow"),
    ];
    let _leftovers = Leftovers(data.to_vec());
    // Every Beijing A100 node busy but one, with 4 of its 8 GPUs free.
    let dir = super::temp_dir("pg-catalog");
    let mut file: Value =
        serde_json::from_str(&std::fs::read_to_string(catalog(&dir)).expect("written"))
            .expect("JSON");
    for n in 0..16 {
        let gpus = if n == 0 { 4 } else { 8 };
        file["usage"]["nodes"][format!("bj-a-a100-{n:02}")] =
            json!({ "gpu": gpus, "vcpu": gpus * 12, "memory_gib": gpus * 120 });
    }
    let busy = dir.join("busy.json");
    std::fs::write(&busy, file.to_string()).expect("writable");
    let leader = start(&data[0], &busy, &database);
    let follower = start(&data[1], &busy, &database);
    let mut whole_node = spec(false);
    whole_node["compute"]["units_per_node"] = 8.into();
    let id = submitted(&follower, &whole_node);
    let led = wait_for(&leader, &id, |t| t["reason"].is_string());
    let said = led["reason"].as_str().unwrap_or_default().to_owned();
    assert!(said.contains("largest free node has 4 GPUs"), "{led}");
    let followed = wait_for(&follower, &id, |t| t["reason"].is_string());
    assert_eq!(followed["reason"], said.as_str(), "{followed}");
}

/// A replica's log through the server that did not run it: its files are on the other
/// machine, and the answer says so instead of an empty log that passes for a replica
/// that printed nothing.
#[test]
fn a_log_is_read_through_the_server_that_ran_it_and_another_says_where() {
    let Some((_leftovers, leader, follower)) = leader_and_follower("logs") else {
        return;
    };
    let mut talker = spec(false);
    talker["environment"]["command"] = "echo hello-from-the-leader; sleep 1000".into();
    let id = submitted(&follower, &talker);
    wait_for(&follower, &id, |t| phase(t) == "running");
    let read = |server: &Server| {
        let mut response = agent()
            .get(&format!("{}/api/v1/tasks/{id}/logs?replica=0", server.url))
            .call()
            .expect("the server answers");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_to_string().expect("readable"),
        )
    };
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, text) = read(&leader);
        assert_eq!(status, 200, "{text}");
        if text.contains("hello-from-the-leader") {
            break;
        }
        assert!(Instant::now() < until, "the leader's log stays empty");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, text) = read(&follower);
    assert_eq!(status, 404, "{text}");
    let problem: Value = serde_json::from_str(&text).expect("a problem");
    assert_eq!(problem["code"], "log.elsewhere", "{problem}");
    let (status, _) = post(
        &format!("{}/api/v1/tasks/{id}/stop", follower.url),
        &json!({}),
    );
    assert_eq!(status, 200);
}

/// README (`/tasks`, the API): a stop under way is told by every server on the database,
/// from what is stored, not only by the one whose runner signalled the replicas: the
/// other lists the task as stopping, with the same time, and refuses its delete as
/// `task.stopping` too.
#[test]
fn a_stop_under_way_is_told_through_every_server() {
    let Some((_leftovers, leader, follower)) = leader_and_follower("stopping") else {
        return;
    };
    let mut stubborn = spec(false);
    stubborn["environment"]["command"] = "trap '' TERM; echo trapped; sleep 1000".into();
    let id = submitted(&leader, &stubborn);
    let running = wait_for(&leader, &id, |t| phase(t) == "running");
    // Each replica's shell sets its trap first: the stop's SIGTERM must find it.
    let replicas = running["logs"].as_array().expect("its replicas").len();
    for replica in 0..replicas {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let mut response = agent()
                .get(&format!(
                    "{}/api/v1/tasks/{id}/logs?replica={replica}",
                    leader.url
                ))
                .call()
                .expect("the server answers");
            let log = response.body_mut().read_to_string().unwrap_or_default();
            if log.contains("trapped") {
                break;
            }
            assert!(
                Instant::now() < until,
                "replica {replica} never set its trap"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let (status, answer) = post(
        &format!("{}/api/v1/tasks/{id}/stop", leader.url),
        &json!({}),
    );
    assert_eq!(status, 200, "{answer}");
    let since = answer["stopping_since"].as_i64().expect("the stop's time");
    for server in [&leader, &follower] {
        assert_eq!(task(server, &id)["stopping_since"], since, "{}", server.url);
        let mut response = agent()
            .get(&format!("{}/api/v1/tasks", server.url))
            .call()
            .expect("the server answers");
        let page: Value =
            serde_json::from_str(&response.body_mut().read_to_string().expect("readable"))
                .expect("JSON");
        let row = page["tasks"]
            .as_array()
            .expect("rows")
            .iter()
            .find(|row| row["id"] == id.as_str())
            .unwrap_or_else(|| panic!("{id} is not listed: {page}"));
        assert_eq!(row["stopping_since"], since, "{}: {row}", server.url);
        let mut response = agent()
            .delete(&format!("{}/api/v1/tasks/{id}", server.url))
            .call()
            .expect("the server answers");
        assert_eq!(response.status().as_u16(), 409, "{}", server.url);
        let problem: Value =
            serde_json::from_str(&response.body_mut().read_to_string().expect("readable"))
                .expect("JSON");
        assert_eq!(problem["code"], "task.stopping", "{problem}");
    }
    // SIGKILL after the grace period.
    let stopped = wait_for(&follower, &id, |t| phase(t) == "stopped");
    assert_eq!(stopped.get("stopping_since"), None, "{stopped}");
}

/// A stop through a server that does not lead is a stop under way as one through the
/// leader is (README, the API's stop): its answer says the task is running with
/// `stopping_since`, its delete is refused as `task.stopping` meanwhile, and the task is
/// `stopped` once the leader has ended its replicas, after their `exited` events
/// (explorer, round 19: the follower ended it at once while its replicas ran on for the
/// grace, its delete allowed and its Stopped alert sent early).
#[test]
fn a_stop_through_a_server_that_does_not_lead_waits_for_the_replicas() {
    let Some((_leftovers, leader, follower)) = leader_and_follower("stop_follower") else {
        return;
    };
    let mut stubborn = spec(false);
    stubborn["environment"]["command"] = "trap '' TERM; echo trapped; sleep 1000".into();
    let id = submitted(&leader, &stubborn);
    wait_for(&leader, &id, |t| phase(t) == "running");
    let (status, answer) = post(
        &format!("{}/api/v1/tasks/{id}/stop", follower.url),
        &json!({}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(phase(&answer), "running", "{answer}");
    let since = answer["stopping_since"].as_i64().expect("the stop's time");
    for server in [&leader, &follower] {
        assert_eq!(task(server, &id)["stopping_since"], since, "{}", server.url);
        let response = agent()
            .delete(&format!("{}/api/v1/tasks/{id}", server.url))
            .call()
            .expect("the server answers");
        assert_eq!(response.status().as_u16(), 409, "{}", server.url);
    }
    // A second stop asks nothing more.
    let (status, again) = post(
        &format!("{}/api/v1/tasks/{id}/stop", follower.url),
        &json!({}),
    );
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["stopping_since"], since, "{again}");
    // SIGKILL after the grace period, by the leader.
    let stopped = wait_for(&follower, &id, |t| phase(t) == "stopped");
    assert_eq!(stopped.get("stopping_since"), None, "{stopped}");
    let kinds = kinds(&leader, &id);
    let at = |kind: &str| kinds.iter().position(|k| k == kind);
    assert_eq!(
        kinds.iter().filter(|k| *k == "stopping").count(),
        1,
        "{kinds:?}"
    );
    assert!(at("stopping") < at("exited"), "{kinds:?}");
    assert!(
        at("exited").is_some() && at("exited") < at("stopped"),
        "{kinds:?}"
    );
}

/// Retries that wait out their backoff (README, Running tasks) with a leader and a
/// follower: the follower's page says until when; a stop through the follower ends its
/// task at once, and nothing of it starts later; when the leader dies during the wait,
/// the next leader starts the other one once, at the time its failure set, not before.
#[test]
fn a_retry_waiting_with_several_servers_starts_once_on_the_leader_at_its_time() {
    let Some(database) = database("backoff") else {
        return;
    };
    let data = [super::temp_dir("pg-lead"), super::temp_dir("pg-next")];
    let _leftovers = Leftovers(data.to_vec());
    let dir = super::temp_dir("pg-catalog");
    let catalog = catalog(&dir);
    let config = dir.join("berth.toml");
    // Long enough for everything up to the leader's crash to come within the wait on
    // a loaded machine.
    std::fs::write(&config, "[retries]\nbackoff_seconds = 20\n").expect("writable");
    let start = |data: &Path| {
        Server::start(&[
            ("BERTH_DATA_DIR", data.as_os_str()),
            ("BERTH_CATALOG", catalog.as_os_str()),
            ("BERTH_DATABASE_URL", database.as_ref()),
            ("BERTH_CONFIG", config.as_os_str()),
        ])
    };
    let mut leader = start(&data[0]);
    let follower = start(&data[1]);
    let mut failing = spec(true);
    failing["environment"]["command"] = "exit 3".into();
    failing["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let kept = submitted(&follower, &failing);
    let stopped = submitted(&follower, &failing);
    for id in [&kept, &stopped] {
        // The step is written a moment before its event, which the follower's reason
        // reads: waited for together.
        let waiting = wait_for(&follower, id, |t| {
            phase(t) == "retrying" && t["reason"].is_string()
        });
        let reason = waiting["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(" UTC at the earliest"), "{waiting}");
    }

    let (status, answer) = post(
        &format!("{}/api/v1/tasks/{stopped}/stop", follower.url),
        &json!({}),
    );
    assert_eq!(
        (status, phase(&answer)),
        (200, "stopped".to_owned()),
        "{answer}"
    );
    // The leader gives its hold back when it catches up with the store, not at the time
    // its retry would have started: the other still waits then.
    let held = |server: &Server| -> u64 {
        let text = agent()
            .get(&format!("{}/api/v1/catalog", server.url))
            .call()
            .expect("the server answers")
            .body_mut()
            .read_to_string()
            .expect("readable");
        let catalog: Value = serde_json::from_str(&text).expect("JSON");
        catalog["usage"]["quota"]
            .as_array()
            .expect("quota lines")
            .iter()
            .find(|q| {
                q["pool"] == "bj-a-shared" && q["spec"] == "a100-1g" && q["kind"] == "reserved"
            })
            .map_or(0, |q| q["used"]["gpu"].as_u64().expect("a number"))
    };
    let until = Instant::now() + Duration::from_secs(10);
    while held(&leader) != 1 {
        assert!(Instant::now() < until, "the stopped task's hold stays");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(phase(&task(&follower, &kept)), "retrying");
    leader.crash();

    let done = wait_for(&follower, &kept, |t| phase(t) == "failed");
    assert_eq!(done["attempts"], 2, "{done}");
    let mut response = agent()
        .get(&format!("{}/api/v1/tasks/{kept}/events", follower.url))
        .call()
        .expect("the server answers");
    let events: Value =
        serde_json::from_str(&response.body_mut().read_to_string().expect("readable"))
            .expect("JSON");
    let at = |kind: &str| super::event_times(&events, kind);
    let (failed, admitted) = (at("retrying"), at("admitted"));
    assert_eq!((failed.len(), admitted.len()), (1, 2), "{events}");
    assert!(admitted[1] - failed[0] >= 20_000, "{events}");
    // Its second attempt ran on the new leader only.
    assert!(data[1].join("tasks").join(&kept).join("attempt-2").exists());
    assert!(!data[0].join("tasks").join(&kept).join("attempt-2").exists());

    let after = task(&follower, &stopped);
    assert_eq!(
        (phase(&after), &after["attempts"]),
        ("stopped".to_owned(), &json!(1))
    );
    let kinds = kinds(&follower, &stopped);
    assert_eq!(
        kinds.iter().filter(|k| *k == "admitted").count(),
        1,
        "{kinds:?}"
    );
}

/// A page of a task's events read over HTTP: the body and `Berth-Events-Earlier`.
fn events_page(server: &Server, id: &str, query: &str) -> (u16, Value, Option<String>) {
    let mut response = agent()
        .get(&format!("{}/api/v1/tasks/{id}/events?{query}", server.url))
        .call()
        .expect("the server answers");
    let earlier = response
        .headers()
        .get("berth-events-earlier")
        .map(|v| v.to_str().expect("text").to_owned());
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("readable");
    (status, serde_json::from_str(&text).expect("JSON"), earlier)
}

/// README (the API): a task's events are paged in PostgreSQL's query as in SQLite's:
/// the latest page and the pages before it are the events read whole, and its retries
/// alone (`kind=retrying`) are numbered among themselves.
#[test]
fn a_tasks_events_and_its_retries_are_paged_in_the_query() {
    let Some(database) = database("events") else {
        return;
    };
    let data = [super::temp_dir("pg-events")];
    let _leftovers = Leftovers(data.to_vec());
    let dir = super::temp_dir("pg-catalog");
    let catalog = catalog(&dir);
    let config = dir.join("berth.toml");
    std::fs::write(&config, "[retries]\nbackoff_seconds = 0\n").expect("writable");
    let server = Server::start(&[
        ("BERTH_DATA_DIR", data[0].as_os_str()),
        ("BERTH_CATALOG", catalog.as_os_str()),
        ("BERTH_DATABASE_URL", database.as_ref()),
        ("BERTH_CONFIG", config.as_os_str()),
    ]);
    let mut failing = spec(true);
    failing["environment"]["command"] = "exit 3".into();
    let id = submitted(&server, &failing);
    wait_for(&server, &id, |t| phase(t) == "failed");
    let (_, all, none) = events_page(&server, &id, "");
    let all = all.as_array().expect("a list").clone();
    assert_eq!(none, None);
    let mut pages = Vec::new();
    let mut query = "limit=3".to_owned();
    loop {
        let (status, page, earlier) = events_page(&server, &id, &query);
        assert_eq!(status, 200, "{page}");
        let page = page.as_array().expect("a list").clone();
        assert!(!page.is_empty() && page.len() <= 3, "{page:?}");
        pages.push(page);
        let Some(before) = earlier else { break };
        query = format!("limit=3&before={before}");
        assert!(pages.len() <= all.len(), "the pages end");
    }
    let joined: Vec<Value> = pages.into_iter().rev().flatten().collect();
    assert_eq!(joined, all);
    let retries: Vec<Value> = all
        .iter()
        .filter(|e| e["kind"] == "retrying")
        .cloned()
        .collect();
    assert_eq!(retries.len(), 3, "{all:?}");
    let (_, latest, earlier) = events_page(&server, &id, "kind=retrying&limit=2");
    assert_eq!(latest, json!(retries[1..]));
    assert_eq!(earlier.as_deref(), Some("2"));
    let (_, first, earlier) = events_page(&server, &id, "kind=retrying&limit=2&before=2");
    assert_eq!((first, earlier), (json!(retries[..1]), None));
    let (status, problem, _) = events_page(&server, &id, "kind=retrying&before=5");
    assert_eq!((status, &problem["code"]), (400, &json!("query.invalid")));
}

/// GETs `path`; the status and the answer.
fn get(server: &Server, path: &str) -> (u16, Value) {
    let mut response = agent()
        .get(&format!("{}{path}", server.url))
        .call()
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("readable");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// An exploratory tester's requests with a NUL, a 500 each on PostgreSQL (whose text
/// cannot hold one): README's error table, 400 naming the parameter. A RayJob whose
/// runtime env has the key "py\u0000modules" (it passes with a warning) lost the event
/// that says the key is not applied ("cannot record an event"): it is kept.
#[test]
fn a_nul_in_a_request_or_an_event_is_no_server_fault() {
    let Some(database) = database("nul") else {
        return;
    };
    let data = super::temp_dir("pg-nul");
    let _leftovers = Leftovers(vec![data.clone()]);
    let catalog = super::temp_dir("pg-catalog").join("catalog.json");
    std::fs::write(&catalog, shared::demo::CATALOG_FILE).expect("writable");
    let server = start(&data, &catalog, &database);
    submitted(&server, &spec(false));
    for (path, code, name) in [
        ("/api/v1/tasks?name=%00", "query.invalid", "`name`"),
        ("/api/v1/tasks?owner=%00", "query.invalid", "`owner`"),
        ("/api/v1/tasks?group=%00", "query.invalid", "`group`"),
        (
            "/api/v1/tasks?cursor=313739363232383034383630382f00",
            "query.invalid",
            "cursor",
        ),
        ("/api/v1/tasks/%00", "path.invalid", "`id`"),
        ("/api/v1/tasks/a%00/events", "path.invalid", "`id`"),
        ("/api/v1/shared/%00", "path.invalid", "`token`"),
    ] {
        let (status, body) = get(&server, path);
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(body["code"], code, "{path}: {body}");
        assert!(
            body["detail"].as_str().unwrap_or_default().contains(name),
            "{path}: {body}"
        );
    }
    let mut ray: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
    ray["environment"]["command"] = "true".into();
    ray["environment"]["storage"] = json!([]);
    ray["environment"]["datasets"] = json!([]);
    ray["ray"]["shared_storage"]["enabled"] = false.into();
    ray["ray"]["runtime_env"] = "\"py\\0modules\": [x]\nenv_vars:\n  OK: \"v\"\n".into();
    let id = submitted(&server, &ray);
    wait_for(&server, &id, |t| phase(t) == "succeeded");
    let (status, events) = get(&server, &format!("/api/v1/tasks/{id}/events"));
    assert_eq!(status, 200, "{events}");
    let job = events
        .as_array()
        .expect("a list")
        .iter()
        .find(|e| e["kind"] == "job")
        .unwrap_or_else(|| panic!("the job event is kept: {events}"));
    let said = job["message"].as_str().unwrap_or_default();
    assert!(
        said.contains("runtime env") && said.contains("py\0modules"),
        "{said}"
    );
}
