//! A crash and a restart: the real `berth` binary is killed with SIGKILL while tasks run
//! and wait, and a new one on the same data directory must recover them (SPEC.md
//! section 7): nothing lost or duplicated, the queue in order, running tasks re-run or
//! failed per their fault tolerance, with an event saying why, and quota as held.

use serde_json::{Value, json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::Berth as Server;

/// A `berth` on a free loopback port over `data` with `catalog`, retrying at once (the
/// backoff's own test sets one).
fn start(data: &Path, catalog: &Path) -> Server {
    start_logging(data, catalog, None)
}

/// [`start`], its log written to `log` when given.
fn start_logging(data: &Path, catalog: &Path, log: Option<&Path>) -> Server {
    let config = catalog.with_file_name("no-backoff.toml");
    std::fs::write(&config, "[retries]\nbackoff_seconds = 0\n").expect("writable");
    Server::start_logging(
        &[
            ("BERTH_DATA_DIR", data.as_os_str()),
            ("BERTH_CATALOG", catalog.as_os_str()),
            ("BERTH_CONFIG", config.as_os_str()),
        ],
        log,
    )
}

/// Kills, when dropped, every process left working under the data directory (the
/// replicas run in their own process groups, so they outlive a killed server).
struct Leftovers(PathBuf);

impl Drop for Leftovers {
    fn drop(&mut self) {
        for pid in processes_under(&self.0) {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    }
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

fn get(url: &str) -> Value {
    let mut response = agent().get(url).call().expect("the server answers");
    assert_eq!(response.status().as_u16(), 200, "GET {url}");
    let text = response.body_mut().read_to_string().expect("readable");
    serde_json::from_str(&text).expect("JSON")
}

fn submit(server: &Server, spec: &Value) -> String {
    let mut response = agent()
        .post(&format!("{}/api/v1/tasks", server.url))
        .header("content-type", "application/json")
        .send(spec.to_string())
        .expect("the server answers");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("readable");
    assert_eq!(status, 201, "{text}");
    let task: Value = serde_json::from_str(&text).expect("JSON");
    task["id"].as_str().expect("an id").to_owned()
}

fn task(server: &Server, id: &str) -> Value {
    get(&format!("{}/api/v1/tasks/{id}", server.url))
}

fn events(server: &Server, id: &str) -> String {
    get(&format!("{}/api/v1/tasks/{id}/events", server.url)).to_string()
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

/// One replica of 8 A100 GPUs (a whole node) on the Shanghai shared pool, on demand.
fn spec(fault_tolerance: bool) -> Value {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["environment"]["command"] = "sleep 1000".into();
    spec["environment"]["storage"] = json!([]);
    spec["environment"]["datasets"] = json!([]);
    spec["environment"]["models"] = json!([]);
    spec["advanced"]["ssh"] = false.into();
    spec["advanced"]["fault_tolerance"] = json!({ "enabled": fault_tolerance, "max_retries": 3 });
    spec["compute"]["workers"] = 0.into();
    spec["compute"]["units_per_node"] = 8.into();
    spec
}

const LINE: (&str, &str, &str) = ("on_demand", "sh-a-shared", "a100-1g");

/// The demo catalog with room in the on-demand A100 quota for five whole nodes: the
/// pool has three empty A100 nodes (the other five have 2 GPUs free), so the fourth
/// and fifth whole-node tasks queue for capacity, not quota.
fn catalog(dir: &Path) -> PathBuf {
    catalog_with(
        dir,
        json!({ "gpu": 64, "vcpu": 768, "memory_gib": 7680 }),
        |_| {},
    )
}

/// The demo catalog with `limit` on the on-demand A100 line, then `edit`ed.
fn catalog_with(dir: &Path, limit: Value, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut file: Value = serde_json::from_str(shared::demo::CATALOG_FILE).expect("JSON");
    for q in file["catalog"]["quotas"].as_array_mut().expect("quotas") {
        if (q["kind"].as_str(), q["pool"].as_str(), q["spec"].as_str())
            == (Some(LINE.0), Some(LINE.1), Some(LINE.2))
        {
            q["limit"] = limit.clone();
        }
    }
    edit(&mut file);
    let path = dir.join("catalog.json");
    std::fs::write(&path, file.to_string()).expect("writable");
    path
}

/// GPUs the on-demand A100 line has in use, and GPUs allocated on the pool's nodes.
fn gpus_in_use(server: &Server) -> (u64, u64) {
    let catalog = get(&format!("{}/api/v1/catalog", server.url));
    let quota = catalog["usage"]["quota"]
        .as_array()
        .expect("quota lines")
        .iter()
        .find(|q| {
            (q["kind"].as_str(), q["pool"].as_str(), q["spec"].as_str())
                == (Some(LINE.0), Some(LINE.1), Some(LINE.2))
        })
        .map_or(0, |q| q["used"]["gpu"].as_u64().expect("a number"));
    let nodes = catalog["usage"]["nodes"]
        .as_object()
        .expect("node allocations")
        .iter()
        .filter(|(name, _)| name.starts_with("sh-a-a100-"))
        .map(|(_, used)| used["gpu"].as_u64().expect("a number"))
        .sum();
    (quota, nodes)
}

fn phase(task: &Value) -> &str {
    task["phase"].as_str().expect("a phase")
}

#[test]
fn a_killed_server_recovers_every_task_once_with_the_queue_and_quota_as_they_were() {
    let data = super::temp_dir("restart-data");
    let _leftovers = Leftovers(data.clone());
    let catalog = catalog(&super::temp_dir("restart-catalog"));
    let mut first = start(&data, &catalog);
    let (_, base_nodes) = gpus_in_use(&first);

    let tolerant = submit(&first, &spec(true));
    let intolerant = submit(&first, &spec(false));
    let filler = submit(&first, &spec(true));
    let queued = [submit(&first, &spec(true)), submit(&first, &spec(true))];
    for id in [&tolerant, &intolerant, &filler] {
        wait_for(&first, id, |t| phase(t) == "running");
    }
    for id in &queued {
        assert_eq!(phase(&task(&first, id)), "queued");
    }
    assert_eq!(gpus_in_use(&first), (40, base_nodes + 24));
    let old_replicas = processes_under(&data.join("tasks"));
    assert!(old_replicas.len() >= 3, "a process per running replica");

    first.crash();
    let log = data.with_file_name("restart-second.log");
    let second = start_logging(&data, &catalog, Some(&log));

    // Every task is there exactly once.
    let page = get(&format!("{}/api/v1/tasks?limit=100", second.url));
    let ids: Vec<&str> = page["tasks"]
        .as_array()
        .expect("tasks")
        .iter()
        .map(|t| t["id"].as_str().expect("an id"))
        .collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "duplicated ids: {ids:?}");
    let expected: HashSet<&str> = [&tolerant, &intolerant, &filler, &queued[0], &queued[1]]
        .into_iter()
        .map(String::as_str)
        .collect();
    assert_eq!(unique, expected);

    // Without fault tolerance: failed, and the event says why.
    let failed = wait_for(&second, &intolerant, |t| phase(t) == "failed");
    let why = failed["history"]
        .as_array()
        .expect("history")
        .last()
        .expect("a step")["reason"]
        .as_str()
        .expect("a reason")
        .to_owned();
    assert!(why.contains("the server stopped while it ran"), "{why}");
    let said = events(&second, &intolerant);
    assert!(said.contains("fault tolerance is off"), "{said}");

    // With fault tolerance: queued again and re-run, with an event saying so.
    for id in [&tolerant, &filler] {
        let rerun = wait_for(&second, id, |t| phase(t) == "running");
        assert_eq!(rerun["attempts"], 2, "{rerun}");
        let said = events(&second, id);
        assert!(said.contains("the server stopped while it ran"), "{said}");
        assert!(said.contains("re-running it"), "{said}");
    }

    // Its log says what became of them, in one line (lab admin explorer: nothing was
    // said of the tasks a restart ended or re-ran).
    let logged = std::fs::read_to_string(&log).expect("the log is written");
    assert!(
        logged.contains(
            "took over the tasks an earlier server left: queued again, taken back running, \
             re-run, waiting to retry, ended while it was down, failed, stopped queued=2 \
             taken_back=0 rerun=2 retrying=0 ended_while_down=0 failed=1 stopped=0"
        ),
        "{logged}"
    );

    // The queue kept its order: the failed task's node goes to the first waiting task,
    // and the second still waits.
    wait_for(&second, &queued[0], |t| phase(t) == "running");
    assert_eq!(phase(&task(&second, &queued[1])), "queued");

    // Quota and nodes: four whole nodes held (three running, one waiting holds quota),
    // the failed task's given back.
    assert_eq!(gpus_in_use(&second), (32, base_nodes + 24));

    // What the first server ran is gone: its replicas died with the recovery.
    let survivors: Vec<u32> = processes_under(&data.join("tasks"))
        .into_iter()
        .filter(|pid| old_replicas.contains(pid))
        .collect();
    assert!(
        survivors.is_empty(),
        "replicas of the killed server still run: {survivors:?}"
    );

    // Why a task waits is said once while it stays the same: the restarted server, which
    // knew no reason yet, did not write the same line again (explorer, round 19: one more
    // at each change of lead).
    let said = get(&format!("{}/api/v1/tasks/{}/events", second.url, queued[1]));
    let waits: Vec<&str> = said
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["kind"] == "queued")
        .map(|e| e["message"].as_str().expect("a message"))
        .collect();
    assert!(waits.len() >= 2, "accepted, then why it waits: {waits:?}");
    assert!(
        waits.windows(2).all(|w| w[0] != w[1]),
        "the same line twice: {waits:?}"
    );
}

/// A stop the server answered is carried out though the server dies before the
/// replicas' exits are in: the task ends stopped, not re-run by fault tolerance (the
/// exploratory test's case: a replica that ignores SIGTERM, and a crash in its grace).
#[test]
fn a_stop_asked_for_before_a_crash_ends_the_task_after_the_restart() {
    let data = super::temp_dir("restart-stop-data");
    let _leftovers = Leftovers(data.clone());
    let catalog = catalog(&super::temp_dir("restart-stop-catalog"));
    let mut first = start(&data, &catalog);
    let (base_quota, base_nodes) = gpus_in_use(&first);
    let mut stubborn = spec(true);
    stubborn["environment"]["command"] = "trap '' TERM; echo trapped; sleep 1000".into();
    let id = submit(&first, &stubborn);
    wait_for(&first, &id, |t| phase(t) == "running");
    // The shell sets its trap first: the stop's SIGTERM must find it.
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let mut log = agent()
            .get(&format!("{}/api/v1/tasks/{id}/logs?replica=0", first.url))
            .call()
            .expect("the server answers");
        if log
            .body_mut()
            .read_to_string()
            .unwrap_or_default()
            .contains("trapped")
        {
            break;
        }
        assert!(Instant::now() < until, "the trap was never set");
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut response = agent()
        .post(&format!("{}/api/v1/tasks/{id}/stop", first.url))
        .header("content-type", "application/json")
        .send("{}")
        .expect("the server answers");
    assert_eq!(response.status().as_u16(), 200);
    let _ = response.body_mut().read_to_string();
    let under_way = task(&first, &id);
    assert_eq!(phase(&under_way), "running", "still in its grace");
    assert!(under_way["stopping_since"].is_i64(), "{under_way}");
    first.crash();

    let second = start(&data, &catalog);
    let stopped = wait_for(&second, &id, |t| phase(t) != "running");
    assert_eq!(phase(&stopped), "stopped", "{stopped}");
    assert_eq!(stopped["attempts"], 1, "{stopped}");
    // Its stop is no longer under way, though its `stopping` event stays.
    assert_eq!(stopped.get("stopping_since"), None, "{stopped}");
    let listed = get(&format!("{}/api/v1/tasks", second.url));
    assert!(
        listed["tasks"]
            .as_array()
            .expect("rows")
            .iter()
            .any(|row| row["id"] == id.as_str() && row.get("stopping_since").is_none()),
        "{listed}"
    );
    let said = events(&second, &id);
    assert!(said.contains("\"stopping\""), "{said}");
    assert!(!said.contains("re-running it"), "{said}");
    assert_eq!(gpus_in_use(&second), (base_quota, base_nodes));
    assert!(
        processes_under(&data.join("tasks")).is_empty(),
        "the stubborn replica still runs"
    );
}

/// Processes whose command line holds `marker`.
fn processes_running(marker: &str) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|line| String::from_utf8_lossy(&line).contains(marker))
        })
        .collect()
}

/// A replica whose command moved out of its working directory (`cd /mnt/code &&
/// torchrun …`) is ended by the next server all the same: left running, it would train
/// beside its own re-run, on GPUs the server counts as free.
#[test]
fn a_replica_that_left_its_directory_is_ended_after_a_crash() {
    const MARKER: &str = "1000.271828";
    struct Kill;
    impl Drop for Kill {
        fn drop(&mut self) {
            for pid in processes_running(MARKER) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
    }
    let _kill = Kill;
    let data = super::temp_dir("restart-cd-data");
    let _leftovers = Leftovers(data.clone());
    let catalog = catalog(&super::temp_dir("restart-cd-catalog"));
    let mut first = start(&data, &catalog);
    let mut wanderer = spec(false);
    wanderer["environment"]["command"] = format!("cd / && sleep {MARKER}").into();
    let id = submit(&first, &wanderer);
    wait_for(&first, &id, |t| phase(t) == "running");
    let until = Instant::now() + Duration::from_secs(10);
    while processes_running(MARKER).is_empty() {
        assert!(Instant::now() < until, "the replica never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    first.crash();
    let second = start(&data, &catalog);
    wait_for(&second, &id, |t| phase(t) == "failed");
    // Gone once its SIGKILL has landed: on a loaded machine that may be a moment after
    // the end is recorded (the full suite, run beside two browsers, saw it there once).
    let until = Instant::now() + Duration::from_secs(5);
    while !processes_running(MARKER).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        processes_running(MARKER),
        Vec::<u32>::new(),
        "it still runs"
    );
}

/// The nodes every interrupted task gave back go to the queue in its order, once all of
/// them are back: ended one at a time, each with a pass of its own, the first node freed
/// went to a small task queued after a large one, and the large one waited another run.
#[test]
fn after_a_crash_the_nodes_freed_go_to_the_queue_in_order() {
    let data = super::temp_dir("restart-order-data");
    let _leftovers = Leftovers(data.clone());
    let catalog = catalog(&super::temp_dir("restart-order-catalog"));
    let mut first = start(&data, &catalog);
    // The pool's three empty nodes run three tasks without fault tolerance.
    let running = [
        submit(&first, &spec(false)),
        submit(&first, &spec(false)),
        submit(&first, &spec(false)),
    ];
    for id in &running {
        wait_for(&first, id, |t| phase(t) == "running");
    }
    // Behind them, a gang of three whole nodes, then one of one node.
    let mut large = spec(false);
    large["compute"]["workers"] = 2.into();
    let large = submit(&first, &large);
    let small = submit(&first, &spec(false));
    for id in [&large, &small] {
        assert_eq!(phase(&task(&first, id)), "queued");
    }
    first.crash();

    let second = start(&data, &catalog);
    for id in &running {
        wait_for(&second, id, |t| phase(t) == "failed");
    }
    wait_for(&second, &large, |t| phase(t) == "running");
    let small_now = task(&second, &small);
    assert_eq!(phase(&small_now), "queued", "{small_now}");
    // Why the small one waits is said of the nodes as they are after the recovery.
    let said = events(&second, &small);
    assert!(!said.contains("no node has a free GPU"), "{said}");
}

/// A task queued on a catalog that then changed so it can never start is failed at the
/// restart, saying why, instead of waiting for ever: its quota shrank below it, or its
/// cluster left the catalog.
#[test]
fn a_queued_task_the_changed_catalog_can_never_run_fails_at_the_restart() {
    for (case, limit, gone) in [
        (
            "quota",
            json!({ "gpu": 4, "vcpu": 48, "memory_gib": 480 }),
            false,
        ),
        (
            "cluster",
            json!({ "gpu": 64, "vcpu": 768, "memory_gib": 7680 }),
            true,
        ),
    ] {
        let data = super::temp_dir(&format!("restart-catalog-{case}-data"));
        let _leftovers = Leftovers(data.clone());
        let dir = super::temp_dir(&format!("restart-catalog-{case}"));
        let mut first = start(&data, &catalog(&dir));
        let running: Vec<String> = (0..3).map(|_| submit(&first, &spec(false))).collect();
        for id in &running {
            wait_for(&first, id, |t| phase(t) == "running");
        }
        let waiting = submit(&first, &spec(false));
        assert_eq!(phase(&task(&first, &waiting)), "queued");
        first.crash();

        let changed = catalog_with(
            &super::temp_dir(&format!("restart-catalog-{case}-2")),
            limit,
            |file| {
                if gone {
                    for region in file["catalog"]["regions"].as_array_mut().expect("regions") {
                        region["clusters"]
                            .as_array_mut()
                            .expect("clusters")
                            .retain(|c| c["id"] != "sh-a");
                    }
                    file["catalog"]["quotas"]
                        .as_array_mut()
                        .expect("quotas")
                        .retain(|q| !q["pool"].as_str().is_some_and(|p| p.starts_with("sh-a")));
                    let usage = &mut file["usage"];
                    usage["nodes"]
                        .as_object_mut()
                        .expect("nodes")
                        .retain(|name, _| !name.starts_with("sh-a"));
                    usage["quota"]
                        .as_array_mut()
                        .expect("quota")
                        .retain(|q| !q["pool"].as_str().is_some_and(|p| p.starts_with("sh-a")));
                }
            },
        );
        let second = start(&data, &changed);
        let failed = wait_for(&second, &waiting, |t| phase(t) != "queued");
        assert_eq!(phase(&failed), "failed", "{case}: {failed}");
        let said = events(&second, &waiting);
        let why = if gone {
            "the catalog no longer has cluster sh-a, where this task runs"
        } else {
            "no spec of this task fits its pool or its quota"
        };
        assert!(said.contains(why), "{case}: {said}");
    }
}

/// A command that runs until `go` exists, then exits with `code`.
fn until(go: &Path, code: u32) -> String {
    format!(
        "while [ ! -e {} ]; do sleep 0.05; done; exit {code}",
        go.display()
    )
}

/// Waits until nothing runs in task `id`'s directory any more: its replicas (and what
/// records their ends) are done.
fn wait_ended(data: &Path, id: &str) {
    let dir = data.join("tasks").join(id);
    let until = Instant::now() + Duration::from_secs(30);
    while !processes_under(&dir).is_empty() {
        assert!(Instant::now() < until, "task {id}'s replicas still run");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The last reason in a task's history.
fn last_reason(task: &Value) -> String {
    task["history"]
        .as_array()
        .expect("history")
        .last()
        .expect("a step")["reason"]
        .as_str()
        .expect("a reason")
        .to_owned()
}

/// Replicas that end on their own while the server is down end their task as they
/// would have with the server up (README "Restarts"): a gang whose replicas exit 0
/// succeeds, one whose replica exits 3 fails with that code, not as interrupted.
#[test]
fn replicas_that_end_while_the_server_is_down_end_their_task_as_they_ended() {
    let data = super::temp_dir("restart-ended-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-ended-catalog");
    let catalog = catalog(&dir);
    let go = dir.join("go");
    let mut first = start(&data, &catalog);
    let base = gpus_in_use(&first);
    let mut pair = spec(false);
    pair["compute"]["workers"] = 1.into();
    pair["environment"]["command"] = until(&go, 0).into();
    let pair = submit(&first, &pair);
    let mut failing = spec(false);
    failing["environment"]["command"] = until(&go, 3).into();
    let failing = submit(&first, &failing);
    for id in [&pair, &failing] {
        wait_for(&first, id, |t| phase(t) == "running");
    }
    first.crash();
    std::fs::write(&go, "").expect("writable");
    for id in [&pair, &failing] {
        wait_ended(&data, id);
    }

    let second = start(&data, &catalog);
    let succeeded = wait_for(&second, &pair, |t| phase(t) != "running");
    assert_eq!(phase(&succeeded), "succeeded", "{succeeded}");
    assert_eq!(succeeded["attempts"], 1, "{succeeded}");
    let said = events(&second, &pair);
    for replica in ["0 (master)", "1 (worker 0)"] {
        let exited = format!("attempt 1: replica {replica} ended with exit code 0");
        assert!(said.contains(&exited), "{said}");
    }
    assert!(
        said.contains("every replica ended while the server was stopped"),
        "{said}"
    );
    assert!(said.contains("every replica ended well"), "{said}");
    assert!(!said.contains("the server stopped while it ran"), "{said}");
    // Listed as they happened: the restart's note comes with the first end it tells of,
    // not at the restart before the ends it introduces.
    let times: Vec<i64> = get(&format!("{}/api/v1/tasks/{pair}/events", second.url))
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["at"].as_i64().expect("a time"))
        .collect();
    assert!(times.is_sorted(), "events out of order: {said}");

    let failed = wait_for(&second, &failing, |t| phase(t) != "running");
    assert_eq!(phase(&failed), "failed", "{failed}");
    assert_eq!(
        last_reason(&failed),
        "replica 0 (master) ended with exit code 3"
    );
    let said = events(&second, &failing);
    assert!(
        said.contains("attempt 1: replica 0 (master) ended with exit code 3"),
        "{said}"
    );
    assert!(!said.contains("the server stopped while it ran"), "{said}");
    // Both ended: their nodes and quota are free again.
    assert_eq!(gpus_in_use(&second), base);
}

/// A SIGTERM that reaches the replicas while no server runs (a reboot, a service manager
/// stopping every process) did not come from Berth: the command that catches it and exits
/// 0 was cut short, not done. The task is counted interrupted, as before exits were
/// recorded, not succeeded (and no success alert fires).
#[test]
fn a_sigterm_from_outside_while_the_server_is_down_interrupts_the_task() {
    let data = super::temp_dir("restart-term-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-term-catalog");
    let catalog = catalog(&dir);
    let mut first = start(&data, &catalog);
    let marker = format!("berth-outside-term-{}", std::process::id());
    let mut graceful = spec(false);
    graceful["environment"]["command"] =
        format!(": {marker}; trap 'exit 0' TERM; while :; do sleep 0.1; done").into();
    let id = submit(&first, &graceful);
    wait_for(&first, &id, |t| phase(t) == "running");
    first.crash();
    let sent = std::process::Command::new("pkill")
        .args(["-TERM", "-f", &marker])
        .status()
        .expect("pkill runs");
    assert!(
        sent.success(),
        "the replica's processes were there to signal"
    );
    wait_ended(&data, &id);

    let second = start(&data, &catalog);
    let ended = wait_for(&second, &id, |t| phase(t) != "running");
    assert_eq!(phase(&ended), "failed", "{ended}");
    let said = events(&second, &id);
    assert!(said.contains("the server stopped while it ran"), "{said}");
    assert!(
        !said.contains("every replica ended while the server was stopped"),
        "{said}"
    );
}

/// A replica that failed while the server was down is handled as a live failure: with
/// fault tolerance the gang runs again (and, failing each time, fails after its
/// retries). A gang with a replica still running at the restart was interrupted: it is
/// ended and failed as such, though its other replica had ended.
#[test]
fn a_failure_while_the_server_is_down_is_retried_and_a_half_ended_gang_is_interrupted() {
    let data = super::temp_dir("restart-retry-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-retry-catalog");
    let catalog = catalog(&dir);
    let go = dir.join("go");
    let mut first = start(&data, &catalog);
    let mut tolerant = spec(true);
    tolerant["environment"]["command"] = until(&go, 3).into();
    let tolerant = submit(&first, &tolerant);
    let mut half = spec(false);
    half["compute"]["workers"] = 1.into();
    half["environment"]["command"] = format!(
        "if [ \"$RANK\" = 1 ]; then exec sleep 1000; fi; {}",
        until(&go, 0)
    )
    .into();
    let half = submit(&first, &half);
    for id in [&tolerant, &half] {
        wait_for(&first, id, |t| phase(t) == "running");
    }
    first.crash();
    std::fs::write(&go, "").expect("writable");
    wait_ended(&data, &tolerant);

    let second = start(&data, &catalog);
    let failed = wait_for(&second, &tolerant, |t| phase(t) == "failed");
    assert_eq!(failed["attempts"], 4, "{failed}");
    assert_eq!(
        last_reason(&failed),
        "after 4 attempts; the last: replica 0 (master) ended with exit code 3"
    );
    let said = events(&second, &tolerant);
    assert!(
        said.contains("attempt 1: replica 0 (master) ended with exit code 3"),
        "{said}"
    );
    assert!(
        said.contains("attempt 1 failed (replica 0 (master) ended with exit code 3); retry 1 of 3"),
        "{said}"
    );
    assert!(!said.contains("the server stopped while it ran"), "{said}");

    let interrupted = wait_for(&second, &half, |t| phase(t) != "running");
    assert_eq!(phase(&interrupted), "failed", "{interrupted}");
    let said = events(&second, &half);
    assert!(said.contains("fault tolerance is off"), "{said}");
    assert!(
        !said.contains("ended while the server was stopped"),
        "{said}"
    );
    assert!(
        processes_under(&data.join("tasks")).is_empty(),
        "the replica still running at the restart was ended"
    );
}

/// Milliseconds since the Unix epoch of `time`, as the API gives times.
fn millis(time: std::time::SystemTime) -> i64 {
    let ms = time
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after the epoch")
        .as_millis();
    i64::try_from(ms).expect("in range")
}

/// The task's `exited` events: `(at, message)`.
fn exited_events(server: &Server, id: &str) -> Vec<(i64, String)> {
    get(&format!("{}/api/v1/tasks/{id}/events", server.url))
        .as_array()
        .expect("a list of events")
        .iter()
        .filter(|e| e["kind"] == "exited")
        .map(|e| {
            let at = e["at"].as_i64().expect("a time");
            (at, e["message"].as_str().expect("words").to_owned())
        })
        .collect()
}

/// Waits until `server` has recorded the `exited` event `heard` of task `id`.
fn wait_heard(server: &Server, id: &str, heard: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while !exited_events(server, id).iter().any(|(_, m)| m == heard) {
        assert!(Instant::now() < until, "not heard: {heard}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An exit the server heard before it was killed is not heard again at the restart: one
/// `exited` event per replica (README "Restarts"). The exit replayed carries the time the
/// replica ended, when its wrapper wrote its exit status, not the restart's; so does the
/// task's end, which came with its last replica's.
#[test]
fn a_restart_replays_only_unheard_exits_at_the_times_the_replicas_ended() {
    let data = super::temp_dir("restart-heard-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-heard-catalog");
    let catalog = catalog(&dir);
    let go = dir.join("go");
    let mut first = start(&data, &catalog);
    let mut pair = spec(false);
    pair["compute"]["workers"] = 1.into();
    pair["environment"]["command"] =
        format!("if [ \"$RANK\" = 0 ]; then exit 0; fi; {}", until(&go, 0)).into();
    let id = submit(&first, &pair);
    let heard = "attempt 1: replica 0 (master) ended with exit code 0";
    wait_heard(&first, &id, heard);
    first.crash();
    std::fs::write(&go, "").expect("writable");
    wait_ended(&data, &id);
    // Far enough from the replica's end that a time taken at the restart shows.
    std::thread::sleep(Duration::from_millis(1500));
    let restarted_at = millis(std::time::SystemTime::now());

    let second = start(&data, &catalog);
    let ended = wait_for(&second, &id, |t| phase(t) != "running");
    assert_eq!(phase(&ended), "succeeded", "{ended}");
    let exits = exited_events(&second, &id);
    let count = |words: &str| exits.iter().filter(|(_, m)| m == words).count();
    assert_eq!(count(heard), 1, "{exits:?}");
    let late = "attempt 1: replica 1 (worker 0) ended with exit code 0";
    assert_eq!(count(late), 1, "{exits:?}");
    // Replica 0 was heard to end before the stop: not "every replica" ended meanwhile
    // (restarts explorer).
    let rest = "attempt 1: the replicas still running ended while the server was stopped, \
                as each recorded";
    assert_eq!(count(rest), 1, "{exits:?}");

    let recorded = data
        .join("tasks")
        .join(&id)
        .join("attempt-1")
        .join("replica-1")
        .join("exit-status");
    let ended_at = millis(
        std::fs::metadata(&recorded)
            .and_then(|m| m.modified())
            .expect("replica 1 recorded its end"),
    );
    assert!(ended_at < restarted_at);
    let (at, _) = exits.iter().find(|(_, m)| m == late).expect("its exit");
    assert_eq!(*at, ended_at, "{exits:?}");
    let end = ended["history"]
        .as_array()
        .and_then(|h| h.last())
        .expect("its end");
    assert_eq!(end["phase"], "succeeded");
    assert_eq!(end["at"].as_i64(), Some(ended_at), "{ended}");
}

/// A replica failed and the server heard it, so it sent SIGTERM to the rest of the gang
/// (README "Lifecycle"); it was killed before it heard them end. At the restart the
/// attempt ends as it would have: failed with the heard replica's reason, not as
/// interrupted by the SIGTERM its own server sent.
#[test]
fn a_failure_heard_before_a_crash_is_the_attempts_end_after_it() {
    let data = super::temp_dir("restart-failed-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-failed-catalog");
    let catalog = catalog(&dir);
    let (go, termed, ready) = (dir.join("go"), dir.join("termed"), dir.join("ready"));
    let mut first = start(&data, &catalog);
    let mut pair = spec(false);
    pair["compute"]["workers"] = 1.into();
    // Replica 1 lives on through the SIGTERM, noting it, until told to end. Replica 0
    // fails once replica 1 has its trap: on a busy machine the SIGTERM came first, and
    // replica 1 died of it with nothing noted.
    pair["environment"]["command"] = format!(
        "if [ \"$RANK\" = 0 ]; then while [ ! -e {ready} ]; do sleep 0.05; done; exit 3; fi; \
         trap 'touch {termed}' TERM; touch {ready}; {rest}",
        ready = ready.display(),
        termed = termed.display(),
        rest = until(&go, 0)
    )
    .into();
    let id = submit(&first, &pair);
    let heard = "attempt 1: replica 0 (master) ended with exit code 3";
    wait_heard(&first, &id, heard);
    let until_termed = Instant::now() + Duration::from_secs(30);
    while !termed.exists() {
        assert!(
            Instant::now() < until_termed,
            "replica 1 got no SIGTERM from its server"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    first.crash();
    std::fs::write(&go, "").expect("writable");
    wait_ended(&data, &id);
    let recorded = data
        .join("tasks")
        .join(&id)
        .join("attempt-1")
        .join("replica-1")
        .join("exit-status");
    let status = std::fs::read_to_string(&recorded).expect("replica 1 recorded its end");
    assert!(status.ends_with(" term\n"), "{status:?}");

    let second = start(&data, &catalog);
    let ended = wait_for(&second, &id, |t| phase(t) != "running");
    assert_eq!(phase(&ended), "failed", "{ended}");
    assert!(
        last_reason(&ended).contains("replica 0 (master) ended with exit code 3"),
        "{ended}"
    );
    let said = events(&second, &id);
    assert!(!said.contains("the server stopped while it ran"), "{said}");
}

/// A retry waiting out its backoff when the server is killed (README, Running tasks)
/// is neither lost nor started at once by the next server, nor made to wait afresh: it
/// waits until the time its `retrying` event set, which its page says before and after.
#[test]
fn a_retry_waiting_across_a_restart_waits_until_the_time_it_was_given() {
    let data = super::temp_dir("restart-backoff-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-backoff-catalog");
    let catalog = catalog(&dir);
    let config = dir.join("berth.toml");
    // Long enough for the crash and the next server's start to come within the wait on
    // a loaded machine.
    std::fs::write(&config, "[retries]\nbackoff_seconds = 15\n").expect("writable");
    let start = || {
        Server::start(&[
            ("BERTH_DATA_DIR", data.as_os_str()),
            ("BERTH_CATALOG", catalog.as_os_str()),
            ("BERTH_CONFIG", config.as_os_str()),
        ])
    };
    let mut first = start();
    let mut failing = spec(true);
    failing["environment"]["command"] = "exit 3".into();
    failing["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    let id = submit(&first, &failing);
    // The step is written a moment before the wait starts: waited for together.
    let waiting = wait_for(&first, &id, |t| {
        phase(t) == "retrying" && t["reason"].is_string()
    });
    let until = waiting["reason"].clone();
    assert!(
        until.as_str().is_some_and(|r| r.contains(" UTC")),
        "{waiting}"
    );

    first.crash();
    let second = start();
    let back = task(&second, &id);
    assert_eq!(phase(&back), "retrying", "{back}");
    assert_eq!(back["reason"], until, "the same time, not a wait afresh");
    let done = wait_for(&second, &id, |t| phase(t) == "failed");
    assert_eq!(done["attempts"], 2, "run once more, once: {done}");
    let events = get(&format!("{}/api/v1/tasks/{id}/events", second.url));
    let at = |kind: &str| super::event_times(&events, kind);
    let (failed, admitted) = (at("retrying"), at("admitted"));
    assert_eq!((failed.len(), admitted.len()), (1, 2), "{events}");
    assert!(admitted[1] - failed[0] >= 15_000, "{events}");
}

/// A failure heard at the restart, on a catalog that changed so the task can never start
/// again, fails the task (README "Restarts") also when its retry would wait out a
/// backoff first: resting, then queued, it waited for ever.
#[test]
fn a_failure_heard_late_on_a_catalog_that_can_no_longer_run_it_fails_with_a_backoff() {
    let data = super::temp_dir("restart-late-backoff-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-late-backoff-catalog");
    let go = dir.join("go");
    let mut first = start(&data, &catalog(&dir));
    let mut tolerant = spec(true);
    tolerant["environment"]["command"] = until(&go, 3).into();
    let id = submit(&first, &tolerant);
    wait_for(&first, &id, |t| phase(t) == "running");
    first.crash();
    std::fs::write(&go, "").expect("writable");
    wait_ended(&data, &id);

    // The quota shrank below the task's one replica of 8 GPUs.
    let changed = catalog_with(
        &super::temp_dir("restart-late-backoff-catalog-2"),
        json!({ "gpu": 4, "vcpu": 48, "memory_gib": 480 }),
        |_| {},
    );
    let config = dir.join("backoff.toml");
    std::fs::write(&config, "[retries]\nbackoff_seconds = 1\n").expect("writable");
    let second = Server::start(&[
        ("BERTH_DATA_DIR", data.as_os_str()),
        ("BERTH_CATALOG", changed.as_os_str()),
        ("BERTH_CONFIG", config.as_os_str()),
    ]);
    let failed = wait_for(&second, &id, |t| phase(t) == "failed");
    assert_eq!(failed["attempts"], 1, "{failed}");
    let said = events(&second, &id);
    assert!(
        said.contains("no spec of this task fits its pool or its quota"),
        "{said}"
    );
}

/// A re-run after a server stop is not one of the task's retries (SPEC.md section 5:
/// retries are for its own failures): a task allowed one retry that two restarts
/// interrupted runs a third time, and its own failure then still gets its retry, said
/// with both numbers, before it fails. The view counts the re-runs for the console.
#[test]
fn re_runs_after_server_stops_use_none_of_the_tasks_retries() {
    let data = super::temp_dir("restart-reruns-data");
    let _leftovers = Leftovers(data.clone());
    let dir = super::temp_dir("restart-reruns-catalog");
    let catalog = catalog(&dir);
    let go = dir.join("go");
    let mut tolerant = spec(true);
    tolerant["environment"]["command"] = until(&go, 3).into();
    tolerant["advanced"]["fault_tolerance"] = json!({ "enabled": true, "max_retries": 1 });
    // No mail relay here: a fired alert is recorded as not sent, an `alert` event.
    tolerant["advanced"]["alerts"] =
        json!([{ "event": "retried", "channel": "email", "target": "bob@example.com" }]);
    fn alerts(server: &Server, id: &str) -> usize {
        let events = get(&format!("{}/api/v1/tasks/{id}/events", server.url));
        (events.as_array().expect("events").iter())
            .filter(|e| e["kind"] == "alert")
            .count()
    }

    // A backoff of 1 s for retry 1, 2 s for retry 2, 4 s for retry 3: the retry's own
    // number sets it, not its attempt's (restarts explorer: 4 s after two re-runs).
    let config = dir.join("backoff.toml");
    std::fs::write(&config, "[retries]\nbackoff_seconds = 1\n").expect("writable");
    let start = || {
        Server::start(&[
            ("BERTH_DATA_DIR", data.as_os_str()),
            ("BERTH_CATALOG", catalog.as_os_str()),
            ("BERTH_CONFIG", config.as_os_str()),
        ])
    };
    let mut server = start();
    let id = submit(&server, &tolerant);
    wait_for(&server, &id, |t| phase(t) == "running");
    for attempt in [2, 3] {
        server.crash();
        server = start();
        let rerun = wait_for(&server, &id, |t| {
            phase(t) == "running" && t["attempts"] == attempt
        });
        assert_eq!(rerun["reruns"], attempt - 1, "{rerun}");
        assert_eq!(rerun["retries_used"], Value::Null, "none used: {rerun}");
    }
    let said = events(&server, &id);
    assert!(said.contains("uses none of its retries"), "{said}");
    assert!(!said.contains("used its retries"), "{said}");
    assert_eq!(alerts(&server, &id), 0, "a re-run is no retry: {said}");

    // Its own failure: the one retry it was allowed, then the end.
    std::fs::write(&go, "").expect("writable");
    let failed = wait_for(&server, &id, |t| phase(t) == "failed");
    assert_eq!(failed["attempts"], 4, "{failed}");
    assert_eq!(failed["reruns"], 2, "{failed}");
    assert_eq!(failed["retries_used"], 1, "{failed}");
    let said = events(&server, &id);
    assert!(
        said.contains(
            "attempt 3 failed (replica 0 (master) ended with exit code 3); retry 1 of 1 \
             (re-runs after the server stopped are not counted) starts 1 s after it at the \
             earliest"
        ),
        "{said}"
    );
    assert!(
        last_reason(&failed).starts_with("after 4 attempts"),
        "{failed}"
    );
    assert_eq!(alerts(&server, &id), 1, "its own retry is said");
}

/// Re-runs after a server stop are not for ever: a task the server stopped during twenty
/// of its runs fails at the next stop, in case it is what stops the server (README
/// "Restarts"; restarts explorer: nothing limited them).
#[test]
fn a_task_the_server_stopped_during_twenty_runs_is_not_run_again() {
    let data = super::temp_dir("restart-cap-data");
    let _leftovers = Leftovers(data.clone());
    let catalog = catalog(&super::temp_dir("restart-cap-catalog"));
    let mut server = start(&data, &catalog);
    let id = submit(&server, &spec(true));
    wait_for(&server, &id, |t| phase(t) == "running");
    for attempt in 2..=21 {
        server.crash();
        server = start(&data, &catalog);
        wait_for(&server, &id, |t| {
            phase(t) == "running" && t["attempts"] == attempt
        });
    }
    server.crash();
    server = start(&data, &catalog);
    let failed = wait_for(&server, &id, |t| phase(t) == "failed");
    assert_eq!(failed["attempts"], 21, "{failed}");
    assert_eq!(failed["reruns"], 20, "{failed}");
    assert!(
        last_reason(&failed).starts_with(
            "its run was cut short again by a server stopping (or another taking the lead) \
             while it ran or started, as 20 of its runs were before: it is not run again"
        ),
        "{failed}"
    );
}
