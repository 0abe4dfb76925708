//! The local backend: every replica of a gang is a process on this machine. It owns the
//! task directories under its data directory and the GPU device indices it hands out;
//! it must not depend on the scheduler or the store (they call it through [`Backend`]).
//!
//! # What it emulates
//!
//! - Each replica runs `bash -c <command>` in its own process group, in its own working
//!   directory `<data_dir>/tasks/<task>/attempt-<n>/replica-<i>/work`, with stdout and
//!   stderr in one log file `<data_dir>/tasks/<task>/attempt-<n>/replica-<i>.log`.
//! - The group's main process is a small bash wrapper (`WRAPPER`) that runs that
//!   `bash -c <command>` as its child and, when it ends, writes its exit status to
//!   `replica-<i>/exit-status` (a new file renamed into place), so that the end of a
//!   replica that outlives its server is known to the next one ([`recorded_exit`]). The
//!   command sees what it would see run directly: the same argv, environment, working
//!   directory, stdin and signals; the wrapper exits with its status. A command killed
//!   by signal `n` is then seen as exit code `128 + n` (as bash reports it), and such
//!   codes are reported as signal `n`.
//! - The environment is exactly the replica's [`Replica::env`], on top of two defaults
//!   the user's values override: `PATH` (the server's own, as an image's `PATH` would
//!   be) and `HOME` (the replica's working directory, so caches stay in the data
//!   directory). The backend then sets `CUDA_VISIBLE_DEVICES` (a RayJob also
//!   `RAY_ADDRESS`), and those win.
//! - GPUs: each node has device indices `0..gpus_per_node(node)`; a replica takes the
//!   lowest free ones and gives them back when it exits. A replica without GPUs gets an
//!   empty `CUDA_VISIBLE_DEVICES`, so CUDA sees none.
//! - Mounts and pod SSH hostfiles appear at their paths through bubblewrap (`bwrap`):
//!   every replica gets its own root, rebuilt from the host's top-level entries, so a
//!   missing mount point is created in a private tmpfs and never on the host.
//!   Datasets and models are bound read-only. `/root/hostfile` lists `127.0.0.1` once
//!   per replica and `/root/hostfile.hostname` the replica host names (`<task>-master-0`,
//!   `<task>-worker-<i>`; a RayJob's `<task>-head`, `<task>-worker-<i>`).
//! - Stop: SIGTERM to every process of the attempt, SIGKILL after the grace period.
//!   When a replica's main process ends, whatever it left running in its process group
//!   is killed, as a container runtime would.
//!
//! # What it does not emulate
//!
//! - No Ray cluster. A RayJob's entrypoint runs once, as the submitter would: with
//!   replica 0's environment (and GPUs) plus `RAY_ADDRESS=127.0.0.1:6379`. Nothing
//!   listens there unless the user's code starts Ray itself; only replica 0 reports
//!   events.
//! - No isolation beyond the mounts: replicas share this machine's network (every
//!   address is `127.0.0.1`), processes (a sandboxed replica sees only its own, in a PID
//!   namespace of its own), users and GPUs. `CUDA_VISIBLE_DEVICES` is a
//!   convention CUDA honours, not a limit.
//! - No images: the command runs with this machine's tools.
//! - Under pod SSH, `/root` shows the host's entries, but a file created directly in it
//!   lives in a private tmpfs and is gone when the replica ends (likewise a mount point
//!   missing inside another mount's volume: the volume is not changed to make one).
//! - bubblewrap is required for a gang with mounts or pod SSH: without `bwrap` such a
//!   gang fails to start with [`BackendError::Start`]. Gangs without either run without
//!   it. Under bubblewrap the main process is `bwrap`, with the wrapper inside it; a
//!   sandboxed replica, every process of it, dies with its server (`--die-with-parent`
//!   in a PID namespace of its own, `--unshare-pid`), so it records no exit then.

use super::{Backend, BackendError, Event, Gang, Replica, Result};
use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use shared::TaskId;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::process::{Child, Command};
use tokio::sync::{broadcast, watch};

/// A runtime env's env var value as Ray sets it: `$NAME` and `${NAME}` replaced by the
/// variable's value where it is set (Python's `os.path.expandvars`), then a `${NAME}`
/// of the variable itself that was not set dropped (Ray's `update_envs`), so that
/// `PATH: /opt/bin:${PATH}` prepends.
fn expand_vars(value: &str, name: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (var, len) = match after.strip_prefix('{') {
            Some(braced) => match braced.find('}') {
                Some(end) => (&braced[..end], end + 2),
                None => ("", 0),
            },
            None => {
                let end = after.find(|c: char| !word(c)).unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        match (var.is_empty(), lookup(var)) {
            (false, Some(found)) => out.push_str(&found),
            _ => out.push_str(&rest[at..at + 1 + len]),
        }
        rest = &rest[at + 1 + len..];
    }
    out.push_str(rest);
    out.replace(&format!("${{{name}}}"), "")
}

/// The variable every replica, and so what it starts, carries: its directory. A process
/// with it under this data directory's tasks folder is a replica's, not an operator's
/// shell that went there to read a log ([`LocalBackend::end_leftovers`]).
const REPLICA_MARK: &str = "BERTH_REPLICA";
/// Where a RayJob's entrypoint finds "its cluster" (Ray's default GCS port).
const RAY_ADDRESS: &str = "127.0.0.1:6379";
/// Events kept for slow receivers.
const EVENT_CAPACITY: usize = 1024;
/// How long `stop` waits for the exits after SIGKILL.
const REAP_WAIT: Duration = Duration::from_secs(5);
/// The file in a replica's directory that holds its command's exit status.
const EXIT_FILE: &str = "exit-status";
/// The file in a replica's directory where the server records the end it saw (its
/// wrapper's wait status, a SIGKILL too): what [`Backend::replay`] tells again.
const ENDED_FILE: &str = "ended";

/// The folder in a sandboxed replica's directory that it sees as `/tmp`.
const OWN_TMP: &str = "tmp";

/// The main process of every replica: `bash -c WRAPPER <bash> <exit file> <mv> <command>`.
///
/// - `trap … TERM`: a stop's SIGTERM goes to the whole group; caught (not ignored, which
///   the command would inherit and could not undo), it lets the wrapper outlive the
///   command to record its end, while the command gets SIGTERM as it would alone. One
///   that comes before the command started means it is not started (as SIGTERM: 143),
///   where it would otherwise miss the signal and run out the grace. The trap marks it
///   with an extra argument, not a variable, which the replica's environment may hold.
/// - `( … exec "$0" … )`: the command's shell is started from a subshell, which drops
///   the trap, and only if no stop was asked (`<exit file>.stop`, made before the
///   SIGTERM is sent). A SIGTERM that came while the wrapper forked was otherwise lost:
///   to the wrapper, whose trap runs only after the command, and to the child, whose
///   copy of the trap is dropped unrun when bash resets its signals. The command then
///   ran out the grace and was killed. Made before the signal, the file is seen by every
///   child that could have missed it; a child that checked before it was made still has
///   SIGTERM's default action, or the command's own, when the signal comes.
/// - `SHLVL`: bash counts itself in `SHLVL`; the wrapper takes its own count back out, so
///   the command's shell sets the value it would set run directly.
/// - `"$0" -c "$3"`: the command's shell has the argv it would have (`argv[0]` the bash
///   path, as the server starts it), and the wrapper's environment, which is the
///   replica's.
/// - The wrapper's own stderr is `/dev/null` and the command's the log (fd 3 while the
///   wrapper runs, closed for the command): bash would otherwise add a line such as
///   `Terminated` to the log when the command dies of a signal.
/// - `BASH_ENV` and `ENV`, the files a non-interactive bash runs first, reach the
///   wrapper under other names ([`WRAPPED_STARTUP`]) and are given back to the command's
///   shell only: read by the wrapper as well, a file that echoes or prepends to `PATH`
///   did so twice. (`SHELLOPTS` cannot be held back so, being read-only in bash: with
///   `xtrace` in it the wrapper's lines are traced into the log; and `$PPID` is the
///   wrapper.)
/// - The status goes to a new file renamed into place, so a reader finds the whole
///   status or none; `mv` is the server's own (found on its `PATH`), as the task's
///   `PATH` may lack it. A failure to write it is silent: the log is the command's.
///   A SIGTERM while the command ran is written beside the status (`143 term`): no live
///   server heard the end, so it came from outside (a reboot, a service manager), and
///   the next server counts the attempt interrupted, not ended by the command.
const WRAPPER: &str = r#"trap 'set -- "$@" stopped' TERM
exec 3>&2 2>/dev/null
case $SHLVL in 1) unset SHLVL ;; *) SHLVL=$((SHLVL - 1)) ;; esac
if [ -n "${BERTH_WRAPPED_BASH_ENV+x}" ]; then export BASH_ENV="$BERTH_WRAPPED_BASH_ENV"; fi
if [ -n "${BERTH_WRAPPED_ENV+x}" ]; then export ENV="$BERTH_WRAPPED_ENV"; fi
unset BERTH_WRAPPED_BASH_ENV BERTH_WRAPPED_ENV
if [ $# -gt 3 ]; then s=143; else ( [ -e "$1.stop" ] && exit 143; exec "$0" -c "$3" ) 2>&3 3>&-; s=$?; fi
{ printf '%s%s\n' "$s" "${4:+ term}" >"$1.tmp" && "$2" -f "$1.tmp" "$1"; } 2>/dev/null
exit "$s"
"#;

/// The startup files' variables as the wrapper gets them ([`WRAPPER`]): the replica's
/// name, and the name it has until the command's shell starts.
const WRAPPED_STARTUP: [(&str, &str); 2] = [
    ("BASH_ENV", "BERTH_WRAPPED_BASH_ENV"),
    ("ENV", "BERTH_WRAPPED_ENV"),
];

/// The name under which the wrapper gets the variable the command sees as `name`: every
/// place that sets one goes through it (the replica's variables and a runtime env's).
fn wrapped(name: &str) -> &str {
    WRAPPED_STARTUP
        .iter()
        .find(|(own, _)| *own == name)
        .map_or(name, |(_, wrapped)| wrapped)
}

/// How many GPUs a node has, by node name.
type GpuCount = dyn Fn(&str) -> u64 + Send + Sync;

/// Runs every replica as a process on this machine (see the module docs).
pub struct LocalBackend {
    data_dir: PathBuf,
    gpus_per_node: Box<GpuCount>,
    bwrap: Option<PathBuf>,
    /// The shell that runs each command, found on the server's `PATH`: a task's own
    /// `PATH` (in its env vars) must not decide whether its replicas can start.
    bash: PathBuf,
    /// `mv`, found on the server's `PATH`, with which a replica's wrapper puts its exit
    /// status in place.
    mv: PathBuf,
    state: Arc<Mutex<State>>,
    events: broadcast::Sender<Event>,
}

/// What the backend tracks: free GPU indices per node and the attempts with live
/// replicas.
#[derive(Default)]
struct State {
    /// Free device indices per node, ascending; filled on a node's first use.
    free_gpus: HashMap<String, Vec<u64>>,
    attempts: HashMap<(TaskId, u32), Attempt>,
}

/// An attempt with at least one replica not yet reaped.
struct Attempt {
    /// Every replica started, running or not.
    replicas: Vec<u32>,
    running: Vec<Running>,
    /// How many replicas are still running; `stop` waits on it.
    remaining: watch::Sender<usize>,
    /// Stopped already: a second stop (Stop pressed twice, a client's retry) signals
    /// nothing, as a second SIGTERM breaks off what a command does on the first (a
    /// checkpoint saved, torchrun's shutdown of its workers). The first stop's SIGKILL
    /// still comes after its grace.
    stopping: bool,
}

/// A replica's process group.
struct Running {
    replica: u32,
    /// The group id, which is the main process's pid.
    group: Pid,
    /// Whether the main process is `bwrap` (which dies of SIGTERM before its command
    /// could handle it, so SIGTERM skips it).
    sandboxed: bool,
    /// Made before a stop's SIGTERM, so the wrapper does not start the command after it
    /// ([`WRAPPER`]).
    stop_file: PathBuf,
}

/// A spawned replica, before its waiter takes it.
struct Spawned {
    replica: u32,
    node: String,
    devices: Vec<u64>,
    child: Child,
    sandboxed: bool,
    /// The replica's own `/tmp` (sandboxed replicas), removed once it has ended.
    own_tmp: Option<PathBuf>,
}

impl LocalBackend {
    /// A backend keeping task directories under `data_dir`, handing out device indices
    /// `0..gpus_per_node(node)` on each node. It uses `bwrap` from `PATH` when present.
    pub fn new(
        data_dir: PathBuf,
        gpus_per_node: impl Fn(&str) -> u64 + Send + Sync + 'static,
    ) -> Self {
        // Replicas change directory, so relative paths would point elsewhere.
        let data_dir = std::path::absolute(&data_dir).unwrap_or(data_dir);
        Self {
            data_dir,
            gpus_per_node: Box::new(gpus_per_node),
            bwrap: find_in_path("bwrap"),
            bash: find_in_path("bash").unwrap_or_else(|| PathBuf::from("/bin/bash")),
            mv: find_in_path("mv").unwrap_or_else(|| PathBuf::from("/bin/mv")),
            state: Arc::default(),
            events: broadcast::channel(EVENT_CAPACITY).0,
        }
    }

    /// Uses this bubblewrap binary, or none (gangs with mounts or pod SSH then fail to
    /// start).
    #[must_use]
    pub fn with_bwrap(mut self, bwrap: Option<PathBuf>) -> Self {
        self.bwrap = bwrap;
        self
    }

    /// The bubblewrap binary in use, if any.
    pub fn bwrap(&self) -> Option<&Path> {
        self.bwrap.as_deref()
    }

    fn attempt_dir(&self, task: &TaskId, attempt: u32) -> PathBuf {
        self.data_dir
            .join("tasks")
            .join(&task.0)
            .join(format!("attempt-{attempt}"))
    }

    fn replica_dir(&self, task: &TaskId, attempt: u32, replica: u32) -> PathBuf {
        self.attempt_dir(task, attempt)
            .join(format!("replica-{replica}"))
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Takes the lowest free device indices for each replica, all or none.
    fn take_gpus(&self, task: &TaskId, replicas: &[Replica]) -> Result<Vec<Vec<u64>>> {
        let mut state = self.lock();
        let mut taken: Vec<Vec<u64>> = Vec::with_capacity(replicas.len());
        for replica in replicas {
            let free = state
                .free_gpus
                .entry(replica.node.clone())
                .or_insert_with(|| (0..(self.gpus_per_node)(&replica.node)).collect());
            let want = usize::try_from(replica.gpus).unwrap_or(usize::MAX);
            if free.len() < want {
                let reason = format!(
                    "node {} has {} free GPUs, the replica needs {}",
                    replica.node,
                    free.len(),
                    replica.gpus
                );
                for (done, devices) in replicas.iter().zip(taken) {
                    give_back(&mut state, &done.node, devices);
                }
                return Err(BackendError::Start {
                    task: task.clone(),
                    replica: replica.index,
                    reason,
                });
            }
            taken.push(free.drain(..want).collect());
        }
        Ok(taken)
    }

    /// Creates a replica's directories, files and process; gives the process and its
    /// own `/tmp` folder, if it has one.
    fn spawn(
        &self,
        gang: &Gang,
        replica: &Replica,
        devices: &[u64],
        bwrap: Option<&Path>,
    ) -> Result<(Child, Option<PathBuf>)> {
        let io_error = |source| BackendError::Io {
            task: gang.task.clone(),
            source,
        };
        let dir = self.replica_dir(&gang.task, gang.attempt, replica.index);
        let work = dir.join("work");
        std::fs::create_dir_all(&work).map_err(io_error)?;
        let exit_file = dir.join(EXIT_FILE);
        // Nothing an earlier start of this attempt recorded may pass for its end, or
        // keep its command from starting.
        for earlier in [
            exit_file.clone(),
            stop_file(&exit_file),
            dir.join(ENDED_FILE),
        ] {
            match std::fs::remove_file(earlier) {
                Err(error) if error.kind() != io::ErrorKind::NotFound => {
                    return Err(io_error(error));
                }
                _ => {}
            }
        }
        let log = File::create(self.log_path(&gang.task, gang.attempt, replica.index))
            .map_err(io_error)?;
        let log_err = log.try_clone().map_err(io_error)?;

        let mut own_tmp = None;
        let mut command = match bwrap {
            None => {
                let mut command = Command::new(&self.bash);
                command.current_dir(&work);
                command
            }
            Some(bwrap) => {
                let mut binds: Vec<Bind> = gang
                    .mounts
                    .iter()
                    .map(|mount| Bind {
                        target: PathBuf::from(&mount.target),
                        source: mount.source.clone(),
                        read_only: mount.read_only,
                    })
                    .collect();
                // A container's /tmp is its own, and so is a sandboxed replica's: a folder
                // in its directory, emptied at its start and removed at its end. It neither
                // sees nor fills the host's /tmp, and a mount below it (a RayJob's shared
                // storage at /tmp/ray) needs no copy of the host's entries: shadowing a
                // busy host /tmp took one bwrap argument triple per entry, past bwrap's
                // limit of 9,000 arguments.
                // A volume mounted at /tmp itself is the replica's /tmp, as on a cluster.
                if !binds.iter().any(|bind| bind.target == Path::new("/tmp")) {
                    let tmp = dir.join(OWN_TMP);
                    match std::fs::remove_dir_all(&tmp) {
                        Err(error) if error.kind() != io::ErrorKind::NotFound => {
                            return Err(io_error(error));
                        }
                        _ => {}
                    }
                    std::fs::create_dir_all(&tmp).map_err(io_error)?;
                    binds.push(Bind {
                        target: PathBuf::from("/tmp"),
                        source: tmp.clone(),
                        read_only: false,
                    });
                    own_tmp = Some(tmp);
                }
                // A data directory below /tmp (a test's, a trial's) stays reachable.
                if dir.starts_with("/tmp") {
                    binds.push(Bind {
                        target: dir.clone(),
                        source: dir.clone(),
                        read_only: false,
                    });
                }
                if gang.ssh {
                    let (addresses, names) = hostfiles(gang);
                    for (name, text) in [("hostfile", addresses), ("hostfile.hostname", names)] {
                        let file = dir.join(name);
                        std::fs::write(&file, text).map_err(io_error)?;
                        binds.push(Bind {
                            target: Path::new("/root").join(name),
                            source: file,
                            read_only: false,
                        });
                    }
                }
                // Mount points below /tmp are made in the replica's own /tmp, so no host
                // directory is shadowed for them.
                if let Some(tmp) = &own_tmp {
                    for bind in &binds {
                        let Ok(below) = bind.target.strip_prefix("/tmp") else {
                            continue;
                        };
                        if below.as_os_str().is_empty() {
                            continue;
                        }
                        let point = tmp.join(below);
                        if bind.source.is_dir() {
                            std::fs::create_dir_all(&point).map_err(io_error)?;
                        } else if let Some(parent) = point.parent() {
                            std::fs::create_dir_all(parent).map_err(io_error)?;
                            File::create(&point).map_err(io_error)?;
                        }
                    }
                }
                let args = sandbox_args(&binds).map_err(|error| BackendError::Start {
                    task: gang.task.clone(),
                    replica: replica.index,
                    reason: format!("cannot prepare the mounts: {error}"),
                })?;
                let mut command = Command::new(bwrap);
                command
                    .args(args)
                    .arg("--chdir")
                    .arg(&work)
                    // Its own PID namespace, whose first process is bwrap's: when that
                    // dies (with the server, `--die-with-parent`) the kernel ends every
                    // process in it. Without it only the wrapper died, and the command
                    // ran on, re-parented, holding its mounts and GPUs.
                    .arg("--unshare-pid")
                    .arg("--die-with-parent")
                    .arg("--")
                    .arg(&self.bash);
                command
            }
        };
        command
            .arg("-c")
            .arg(WRAPPER)
            .arg(&self.bash)
            .arg(&exit_file)
            .arg(&self.mv)
            .arg(&gang.command)
            .env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH")
                    .unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin".into()),
            )
            .env("HOME", &work)
            .envs(
                replica
                    .env
                    .iter()
                    .map(|(name, value)| (wrapped(name), value)),
            )
            .env("CUDA_VISIBLE_DEVICES", join(devices))
            .env(REPLICA_MARK, &dir)
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(log_err)
            .process_group(0);
        if gang.ray {
            command.env("RAY_ADDRESS", RAY_ADDRESS);
        }
        // Replicas in PID namespaces of their own, on one machine under one hostname,
        // are each a host of its own to NCCL, as pods (each its own hostname) are on a
        // node: NCCL would otherwise take them for processes of one host and share GPU
        // memory between them by means that do not cross PID namespaces. A task's own
        // value stays.
        if bwrap.is_some() && !replica.env.iter().any(|(name, _)| name == "NCCL_HOSTID") {
            command.env(
                "NCCL_HOSTID",
                format!("{}-{}-{}", gang.task, gang.attempt, replica.index),
            );
        }
        // The value the command will see for `name`, as set so far.
        let set = |command: &Command, name: &str| {
            let (_, value) = command
                .as_std()
                .get_envs()
                .find(|(k, _)| *k == wrapped(name))?;
            Some(value?.to_string_lossy().into_owned())
        };
        for (name, value) in &gang.runtime_env {
            // The platform's context (`TASK_UUID`, `X_*`) and `RAY_ADDRESS` win, as the
            // form's `env.name.platform_injected` says and a cluster does (its submitter
            // takes the context out of `env_vars`; Ray's job supervisor sets the
            // entrypoint's `RAY_ADDRESS` to the cluster); Ray gives the job's processes
            // the user's value of any other name, and so does this.
            if shared::injected::CONTEXT.contains(&name.as_str())
                || name == "RAY_ADDRESS"
                || name == REPLICA_MARK
            {
                continue;
            }
            let value = expand_vars(value, name, |var| set(&command, var));
            command.env(wrapped(name), value);
        }
        let child = command.spawn().map_err(|error| BackendError::Start {
            task: gang.task.clone(),
            replica: replica.index,
            reason: format!("cannot run the command: {error}"),
        })?;
        Ok((child, own_tmp))
    }

    /// Waits for a replica's exit in the background, then cleans up after it and
    /// reports it.
    fn watch(&self, task: TaskId, attempt: u32, spawned: Spawned) {
        let state = Arc::clone(&self.state);
        let events = self.events.clone();
        let ended_file = self
            .replica_dir(&task, attempt, spawned.replica)
            .join(ENDED_FILE);
        let attempt_dir = self.attempt_dir(&task, attempt);
        let Spawned {
            replica,
            node,
            devices,
            mut child,
            sandboxed: _,
            own_tmp,
        } = spawned;
        tokio::spawn(async move {
            let status = child.wait().await;
            let (code, signal) = match status {
                Ok(status) => how_it_ended(status.code(), status.signal()),
                Err(error) => {
                    tracing::warn!(%task, attempt, replica, %error, "cannot wait for a replica");
                    (None, None)
                }
            };
            // Before the replica leaves the running ones: a replay that finds it gone
            // finds its end.
            record_end(&ended_file, code, signal);
            // What the attempt's replicas started outside their process groups (`setsid`,
            // a daemon) dies with the attempt, as it would with a pod's containers:
            // before its end is told, so the next task is not placed on GPUs it still
            // holds. Once an attempt, when its last replica has ended: a look at every
            // process's environment, too dear for each replica of a large gang.
            let last = lock(&state)
                .attempts
                .get(&(task.clone(), attempt))
                .is_some_and(|entry| entry.running.iter().all(|r| r.replica == replica));
            if last {
                let dir = attempt_dir.clone();
                let escaped = tokio::task::spawn_blocking(move || {
                    let groups = marked_groups(&dir);
                    for group in &groups {
                        let _ = killpg(*group, Signal::SIGKILL);
                    }
                    groups.len()
                })
                .await
                .unwrap_or(0);
                if escaped > 0 {
                    tracing::info!(%task, attempt, escaped, "ended what the attempt's replicas left running outside their process groups");
                }
            }
            {
                let mut state = lock(&state);
                let key = (task.clone(), attempt);
                if let Some(entry) = state.attempts.get_mut(&key) {
                    if let Some(at) = entry.running.iter().position(|r| r.replica == replica) {
                        let running = entry.running.swap_remove(at);
                        // Leftovers of the replica die with its main process.
                        let _ = killpg(running.group, Signal::SIGKILL);
                    }
                    let left = entry.running.len();
                    entry.remaining.send_replace(left);
                    if left == 0 {
                        state.attempts.remove(&key);
                    }
                }
                give_back(&mut state, &node, devices);
                // Under the lock: a replay, which reads the state under it too, sees the
                // replica running and its end still to come, or ended and its event sent.
                let _ = events.send(Event::Exited {
                    task,
                    attempt,
                    replica,
                    code,
                    signal,
                    at: None,
                });
            }
            if let Some(tmp) = own_tmp {
                // What is left in it is the replica's scratch, as a container's /tmp is;
                // removed after the exit is told, which a large scratch would delay.
                let _ = tokio::fs::remove_dir_all(tmp).await;
            }
        });
    }
}

#[async_trait::async_trait]
impl Backend for LocalBackend {
    async fn start(&self, gang: Gang) -> Result<()> {
        let start_error = |replica: u32, reason: &str| BackendError::Start {
            task: gang.task.clone(),
            replica,
            reason: reason.to_owned(),
        };
        let Some(first) = gang.replicas.first() else {
            return Err(start_error(0, "the gang has no replicas"));
        };
        let bwrap = if gang.mounts.is_empty() && !gang.ssh {
            None
        } else {
            Some(self.bwrap.clone().ok_or_else(|| {
                start_error(
                    first.index,
                    "bubblewrap (bwrap) is not installed; the local backend needs it for \
                     mounts and pod SSH hostfiles",
                )
            })?)
        };
        if let Some(missing) = gang.mounts.iter().find(|mount| !mount.source.is_dir()) {
            let reason = format!(
                "the directory {} to mount at {} does not exist",
                missing.source.display(),
                missing.target
            );
            return Err(start_error(first.index, &reason));
        }
        if self
            .lock()
            .attempts
            .contains_key(&(gang.task.clone(), gang.attempt))
        {
            return Err(start_error(first.index, "this attempt is already running"));
        }
        // A RayJob's entrypoint runs once, as the submitter (module docs).
        let replicas = if gang.ray {
            vec![first.clone()]
        } else {
            gang.replicas.clone()
        };
        let gpus = self.take_gpus(&gang.task, &replicas)?;

        let mut spawned: Vec<Spawned> = Vec::with_capacity(replicas.len());
        for (replica, devices) in replicas.iter().zip(&gpus) {
            match self.spawn(&gang, replica, devices, bwrap.as_deref()) {
                Ok((child, own_tmp)) => spawned.push(Spawned {
                    replica: replica.index,
                    node: replica.node.clone(),
                    devices: devices.clone(),
                    child,
                    sandboxed: bwrap.is_some(),
                    own_tmp,
                }),
                Err(error) => {
                    for mut started in spawned {
                        if let Some(pid) = started.child.id().and_then(pid) {
                            let _ = killpg(pid, Signal::SIGKILL);
                        }
                        let _ = started.child.wait().await;
                        if let Some(tmp) = started.own_tmp {
                            let _ = tokio::fs::remove_dir_all(tmp).await;
                        }
                    }
                    let mut state = self.lock();
                    for (replica, devices) in replicas.iter().zip(gpus.clone()) {
                        give_back(&mut state, &replica.node, devices);
                    }
                    return Err(error);
                }
            }
        }

        let running = spawned
            .iter()
            .filter_map(|s| {
                Some(Running {
                    replica: s.replica,
                    group: s.child.id().and_then(pid)?,
                    sandboxed: s.sandboxed,
                    stop_file: stop_file(
                        &self
                            .replica_dir(&gang.task, gang.attempt, s.replica)
                            .join(EXIT_FILE),
                    ),
                })
            })
            .collect::<Vec<_>>();
        self.lock().attempts.insert(
            (gang.task.clone(), gang.attempt),
            Attempt {
                replicas: running.iter().map(|r| r.replica).collect(),
                remaining: watch::Sender::new(running.len()),
                running,
                stopping: false,
            },
        );
        // Started goes out before any exit: the waiters begin after it.
        let _ = self.events.send(Event::Started {
            task: gang.task.clone(),
            attempt: gang.attempt,
        });
        for spawned in spawned {
            self.watch(gang.task.clone(), gang.attempt, spawned);
        }
        Ok(())
    }

    async fn stop(&self, task: &TaskId, attempt: u32, grace: Duration) -> Result<()> {
        let key = (task.clone(), attempt);
        let not_running = || BackendError::NotRunning {
            task: task.clone(),
            attempt,
        };
        let mut remaining = {
            let mut state = self.lock();
            let entry = state.attempts.get_mut(&key).ok_or_else(not_running)?;
            if std::mem::replace(&mut entry.stopping, true) {
                return Ok(());
            }
            for running in &entry.running {
                terminate(running);
            }
            entry.remaining.subscribe()
        };
        let all_exited = tokio::time::timeout(grace, remaining.wait_for(|n| *n == 0))
            .await
            .is_ok();
        if !all_exited {
            if let Some(entry) = self.lock().attempts.get(&key) {
                for running in &entry.running {
                    let _ = killpg(running.group, Signal::SIGKILL);
                }
            }
            // The exits are reported once the waiters reap them; wait for that, briefly.
            let _ = tokio::time::timeout(REAP_WAIT, remaining.wait_for(|n| *n == 0)).await;
        }
        Ok(())
    }

    fn events(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// From the state (an attempt still running) or, once every replica has ended, from
    /// the ends recorded in the replicas' directories; nothing for an attempt not every
    /// replica of which this server saw end (a start that failed kills what it started
    /// unrecorded, as the runner fails its task itself).
    fn replays(&self) -> bool {
        true
    }

    async fn replay(&self, task: &TaskId, attempt: u32) -> Vec<Event> {
        let started = Event::Started {
            task: task.clone(),
            attempt,
        };
        let exited = |replica: u32| {
            let file = self.replica_dir(task, attempt, replica).join(ENDED_FILE);
            let (code, signal) = read_end(&file)?;
            // Dated when it was written, not when the replay is heard: a stop hours
            // after a lost exit would otherwise end the task then (review).
            let at = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
            Some(Event::Exited {
                task: task.clone(),
                attempt,
                replica,
                code,
                signal,
                at,
            })
        };
        // Which have ended, under the lock; their files read after it, as each was
        // written before its replica left the running ones: a gang of a thousand read
        // its files with every other replica's end waiting on the lock (review).
        let ended: Option<Vec<u32>> = {
            let state = self.lock();
            state.attempts.get(&(task.clone(), attempt)).map(|entry| {
                let running: HashSet<u32> = entry.running.iter().map(|r| r.replica).collect();
                entry
                    .replicas
                    .iter()
                    .copied()
                    .filter(|i| !running.contains(i))
                    .collect()
            })
        };
        if let Some(ended) = ended {
            return std::iter::once(Some(started))
                .chain(ended.into_iter().map(exited))
                .flatten()
                .collect();
        }
        let Ok(entries) = std::fs::read_dir(self.attempt_dir(task, attempt)) else {
            return Vec::new();
        };
        let mut replicas: Vec<u32> = entries
            .filter_map(|entry| {
                let entry = entry.ok()?;
                let name = entry.file_name();
                let index = name.to_str()?.strip_prefix("replica-")?.parse().ok()?;
                entry.file_type().ok()?.is_dir().then_some(index)
            })
            .collect();
        replicas.sort_unstable();
        let ends: Option<Vec<Event>> = replicas.into_iter().map(exited).collect();
        match ends {
            Some(ends) if !ends.is_empty() => std::iter::once(started).chain(ends).collect(),
            _ => Vec::new(),
        }
    }

    /// Every replica starts with [`REPLICA_MARK`] naming its directory under
    /// `<data_dir>/tasks`, which what it runs inherits wherever it goes with `cd`, and
    /// is the leader of its own process group: SIGKILL to the group of each process
    /// with that mark that this backend did not start. Not a process that merely works
    /// there: an operator's shell that went to a task's folder to read a log was killed
    /// at the next start. (Sandboxed replicas die with their server already:
    /// `bwrap --die-with-parent`.)
    async fn end_leftovers(&self) -> usize {
        let ours: Vec<Pid> = self
            .lock()
            .attempts
            .values()
            .flat_map(|a| a.running.iter().map(|r| r.group))
            .collect();
        let mut groups = marked_groups(&self.data_dir.join("tasks"));
        groups.retain(|group| !ours.contains(group));
        for group in &groups {
            let _ = killpg(*group, Signal::SIGKILL);
        }
        groups.len()
    }

    fn leftovers_are_local(&self) -> bool {
        true
    }

    fn task_folders(&self) -> Vec<TaskId> {
        let Ok(entries) = std::fs::read_dir(self.data_dir.join("tasks")) else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| Some(TaskId(entry.ok()?.file_name().into_string().ok()?)))
            .collect()
    }

    fn remove_task(&self, task: &TaskId) {
        let folder = self.data_dir.join("tasks").join(&task.0);
        match std::fs::remove_dir_all(&folder) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                tracing::warn!(folder = %folder.display(), %error, "cannot remove a deleted task's folder");
            }
            _ => {}
        }
    }

    fn log_path(&self, task: &TaskId, attempt: u32, replica: u32) -> PathBuf {
        self.attempt_dir(task, attempt)
            .join(format!("replica-{replica}.log"))
    }
}

/// How a replica ended, as its wrapper's wait status says (exit code, or signal): the
/// wrapper exits with its command's status, where a command killed by signal `n` shows
/// as `128 + n` (bash's, and bubblewrap's, way of saying it), so such codes are signals.
fn how_it_ended(code: Option<i32>, signal: Option<i32>) -> (Option<i32>, Option<i32>) {
    match code {
        Some(code) if (129..=128 + 64).contains(&code) => (None, Some(code - 128)),
        _ => (code, signal),
    }
}

/// Records in `file` the end the server saw of a replica ([`ENDED_FILE`]): `code signal`,
/// `-` for none. A failure is only logged: the event is sent all the same, and only a
/// replay after lost events misses the record.
fn record_end(file: &Path, code: Option<i32>, signal: Option<i32>) {
    let word = |n: Option<i32>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    if let Err(error) = std::fs::write(file, format!("{} {}\n", word(code), word(signal))) {
        tracing::warn!(file = %file.display(), %error, "cannot record a replica's end");
    }
}

/// The end [`record_end`] wrote, if it did.
fn read_end(file: &Path) -> Option<(Option<i32>, Option<i32>)> {
    let text = std::fs::read_to_string(file).ok()?;
    let (code, signal) = text.strip_suffix('\n')?.split_once(' ')?;
    let number = |word: &str| match word {
        "-" => Some(None),
        word => word.parse().ok().map(Some),
    };
    Some((number(code)?, number(signal)?))
}

/// The end of a replica as its wrapper recorded it beside its log: how it ended (exit
/// code, or signal), and when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedExit {
    /// Its exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// When it was recorded (the file's modification time).
    pub at: std::time::SystemTime,
    /// Whether a SIGTERM reached the replica while its command ran: with no server to
    /// send it, from outside Berth.
    pub terminated: bool,
}

/// The exit the wrapper of the replica whose log is at `log` (a
/// [`Backend::log_path`] of this backend) recorded, if it recorded one: it does when its
/// command ends, whether or not a server is there to see it; not when it was killed
/// with its command (SIGKILL, or a sandbox dying with its server).
///
/// This is how a server that starts learns how the replicas its predecessor ran ended
/// while no server watched them.
pub fn recorded_exit(log: &Path) -> Option<RecordedExit> {
    // `<attempt>/replica-<i>.log` beside the replica's directory `<attempt>/replica-<i>`.
    let file = log.with_extension("").join(EXIT_FILE);
    let text = std::fs::read_to_string(&file).ok()?;
    let line = text.strip_suffix('\n')?;
    let (status, terminated) = match line.strip_suffix(" term") {
        Some(status) => (status, true),
        None => (line, false),
    };
    let status: i32 = status.parse().ok()?;
    let at = std::fs::metadata(&file).and_then(|m| m.modified()).ok()?;
    let (code, signal) = how_it_ended(Some(status), None);
    Some(RecordedExit {
        code,
        signal,
        at,
        terminated,
    })
}

/// Locks the state; a panic while holding it leaves consistent data (every update is a
/// single step), so a poisoned lock is used as is.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn give_back(state: &mut State, node: &str, devices: Vec<u64>) {
    if let Some(free) = state.free_gpus.get_mut(node) {
        free.extend(devices);
        free.sort_unstable();
    }
}

fn pid(id: u32) -> Option<Pid> {
    i32::try_from(id).ok().map(Pid::from_raw)
}

fn join(devices: &[u64]) -> String {
    devices
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// SIGTERM to a replica's processes. Under bubblewrap the main process is `bwrap`,
/// which would die at once and take its command with it (`--die-with-parent`), so only
/// the other members of the group get it; `bwrap` exits when its command does.
fn terminate(running: &Running) {
    // Failing to make it leaves only the narrow race it closes ([`WRAPPER`]) open.
    let _ = File::create(&running.stop_file);
    if !running.sandboxed {
        let _ = killpg(running.group, Signal::SIGTERM);
        return;
    }
    for member in group_members(running.group) {
        if member != running.group {
            let _ = kill(member, Signal::SIGTERM);
        }
    }
}

/// The file whose presence tells a replica's wrapper that a stop was asked.
fn stop_file(exit_file: &Path) -> PathBuf {
    exit_file.with_extension("stop")
}

/// The processes of a process group, read from `/proc`.
fn group_members(group: Pid) -> Vec<Pid> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let id: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            (process_group(id)? == group).then(|| Pid::from_raw(id))
        })
        .collect()
}

/// The process groups of the processes marked ([`marked_under`]) under `named` (or the
/// folder it resolves to), but this server's own.
fn marked_groups(named: &Path) -> Vec<Pid> {
    let resolved = std::fs::canonicalize(named).unwrap_or_else(|_| named.to_owned());
    let own = nix::unistd::getpgrp();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut groups: Vec<Pid> = entries
        .filter_map(|entry| {
            let id: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            marked_under(id, &resolved, named).then(|| process_group(id))?
        })
        .filter(|group| *group != own)
        .collect();
    groups.sort_unstable();
    groups.dedup();
    groups
}

/// Whether process `id` was started with [`REPLICA_MARK`] or its `HOME` under `dir`
/// (resolved, or as `named`), as a replica and what it runs are, wherever they `cd` to;
/// an operator's shell that went there keeps its own `HOME`. The `HOME` finds what a
/// server before the mark started, and what was started with the mark cleared but not
/// `HOME` (`sudo`, `env -u`). A process that clears both escapes.
fn marked_under(id: i32, dir: &Path, named: &Path) -> bool {
    let Ok(environ) = std::fs::read(format!("/proc/{id}/environ")) else {
        return false;
    };
    let mark = format!("{REPLICA_MARK}=");
    environ
        .split(|b| *b == 0)
        .filter_map(|var| {
            var.strip_prefix(mark.as_bytes())
                .or_else(|| var.strip_prefix(b"HOME="))
        })
        .map(|value| Path::new(std::ffi::OsStr::from_bytes(value)))
        .any(|value| value.starts_with(dir) || value.starts_with(named))
}

/// The process group of a process, read from `/proc`.
fn process_group(id: i32) -> Option<Pid> {
    let stat = std::fs::read_to_string(format!("/proc/{id}/stat")).ok()?;
    // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
    let fields = &stat[stat.rfind(')')? + 1..];
    fields
        .split_whitespace()
        .nth(2)?
        .parse()
        .ok()
        .map(Pid::from_raw)
}

/// The pod SSH hostfiles: one address per replica, and the replica host names.
fn hostfiles(gang: &Gang) -> (String, String) {
    let task = &gang.task.0;
    let mut addresses = String::new();
    let mut names = String::new();
    for replica in &gang.replicas {
        addresses.push_str("127.0.0.1\n");
        let name = match (replica.index, gang.ray) {
            (0, false) => shared::names::pytorch_master(task),
            (0, true) => format!("{task}-head"),
            (i, _) => shared::names::pytorch_worker(task, i - 1),
        };
        names.push_str(&name);
        names.push('\n');
    }
    (addresses, names)
}

fn find_in_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
}

/// A host path to show at `target` inside the sandbox.
#[derive(Debug)]
struct Bind {
    target: PathBuf,
    source: PathBuf,
    read_only: bool,
}

/// bubblewrap arguments for a private root showing the host plus `binds`, such that no
/// mount point is ever created on the host.
///
/// # Design
///
/// `bwrap --dev-bind / /` creates a missing mount point in the host directory it
/// binds. Instead, the root is bwrap's own tmpfs holding a bind (or symlink) per host
/// top-level entry. Where a bind's target does not exist in what the sandbox shows, its
/// deepest existing ancestor is "shadowed": a tmpfs on it, its entries bound back one by
/// one, so the missing directories are created in that tmpfs. Binds and shadows are laid
/// out shallowest first, so a deeper one lands on top of what is above it.
///
/// The cost: a shadowed directory shows its entries, but new files written directly in
/// it go to the tmpfs and vanish with the replica. That happens only for a mount inside
/// another mount whose mount point the outer volume lacks (the outer volume is not
/// changed to make one), and for pod SSH's `/root`.
fn sandbox_args(binds: &[Bind]) -> io::Result<Vec<OsString>> {
    let mut binds: Vec<&Bind> = binds.iter().collect();
    binds.sort_by_key(|bind| depth(&bind.target));
    // The host path the sandbox shows at `path`, through the deepest bind above it.
    let host = |path: &Path| -> PathBuf {
        binds
            .iter()
            .filter(|bind| path.starts_with(&bind.target))
            .max_by_key(|bind| depth(&bind.target))
            .and_then(|bind| Some(bind.source.join(path.strip_prefix(&bind.target).ok()?)))
            .unwrap_or_else(|| path.to_path_buf())
    };
    let mut shadows: Vec<PathBuf> = Vec::new();
    for bind in &binds {
        let target = &bind.target;
        if !target.is_absolute() || target.parent().is_none() {
            return Err(io::Error::other(format!(
                "mount path {} is not an absolute path below /",
                target.display()
            )));
        }
        let shown = match (target.parent(), target.file_name()) {
            (Some(parent), Some(name)) => host(parent).join(name),
            _ => continue,
        };
        if shown.exists() {
            continue;
        }
        let existing = target
            .ancestors()
            .skip(1)
            .find(|dir| host(dir).is_dir())
            .unwrap_or(Path::new("/"));
        if existing != Path::new("/") && !shadows.iter().any(|s| s == existing) {
            shadows.push(existing.to_path_buf());
        }
    }

    let mut args: Vec<OsString> = Vec::new();
    rebind_entries(&mut args, Path::new("/"), Path::new("/"))?;
    args.extend(["--proc".into(), "/proc".into()]);
    args.extend(["--dev-bind".into(), "/dev".into(), "/dev".into()]);

    // Shallowest first; at one depth, a bind before a shadow of that same directory
    // (the shadow then shows the bound directory's entries).
    enum Step<'b> {
        Bind(&'b Bind),
        Shadow(PathBuf),
    }
    let mut steps: Vec<(usize, u8, Step<'_>)> = binds
        .iter()
        .map(|bind| (depth(&bind.target), 0, Step::Bind(bind)))
        .chain(
            shadows
                .into_iter()
                .map(|dir| (depth(&dir), 1, Step::Shadow(dir))),
        )
        .collect();
    steps.sort_by_key(|(depth, order, _)| (*depth, *order));
    for (_, _, step) in steps {
        match step {
            Step::Bind(bind) => {
                let flag = if bind.read_only {
                    "--ro-bind"
                } else {
                    "--bind"
                };
                args.extend([
                    flag.into(),
                    bind.source.clone().into(),
                    bind.target.clone().into(),
                ]);
            }
            Step::Shadow(dir) => {
                args.extend(["--tmpfs".into(), dir.clone().into_os_string()]);
                rebind_entries(&mut args, &host(&dir), &dir)?;
            }
        }
    }
    Ok(args)
}

/// Binds each entry of host directory `source` at the same name under `target`
/// (symlinks as symlinks). At the root, `/proc` and `/dev` are left to bwrap.
fn rebind_entries(args: &mut Vec<OsString>, source: &Path, target: &Path) -> io::Result<()> {
    let mut entries = std::fs::read_dir(source)?.collect::<io::Result<Vec<_>>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        if target == Path::new("/") && (name == "proc" || name == "dev") {
            continue;
        }
        let inside = target.join(&name);
        if entry.file_type()?.is_symlink() {
            let link = std::fs::read_link(entry.path())?;
            args.extend(["--symlink".into(), link.into(), inside.into()]);
        } else {
            args.extend(["--dev-bind".into(), entry.path().into(), inside.into()]);
        }
    }
    Ok(())
}

fn depth(path: &Path) -> usize {
    path.components().count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Mount;
    use std::time::Instant;

    const WAIT: Duration = Duration::from_secs(10);

    fn backend(gpus: u64) -> (tempfile::TempDir, LocalBackend) {
        let dir = tempfile::Builder::new()
            .prefix("berth-local-")
            .tempdir_in(std::env::temp_dir())
            .expect("a temporary directory");
        let backend = LocalBackend::new(dir.path().to_path_buf(), move |_| gpus);
        (dir, backend)
    }

    fn gang(command: &str, replicas: u32, gpus: u64) -> Gang {
        let task = TaskId("demo-abcde".to_owned());
        Gang {
            task: task.clone(),
            attempt: 1,
            command: command.to_owned(),
            ray: false,
            replicas: (0..replicas)
                .map(|rank| Replica {
                    index: rank,
                    node: "node-a".to_owned(),
                    gpus,
                    env: vec![
                        ("MASTER_ADDR".to_owned(), "127.0.0.1".to_owned()),
                        ("MASTER_PORT".to_owned(), "23456".to_owned()),
                        ("WORLD_SIZE".to_owned(), replicas.to_string()),
                        ("RANK".to_owned(), rank.to_string()),
                    ],
                })
                .collect(),
            mounts: Vec::new(),
            ssh: false,
            runtime_env: Vec::new(),
            source: None,
        }
    }

    /// Collects events until `exits` replicas exited; returns (started, exits by replica).
    async fn run_until_exits(
        events: &mut broadcast::Receiver<Event>,
        exits: usize,
    ) -> (bool, Vec<(u32, Option<i32>, Option<i32>)>) {
        let mut started = false;
        let mut seen = Vec::new();
        tokio::time::timeout(WAIT, async {
            while seen.len() < exits {
                match events.recv().await.expect("the backend keeps sending") {
                    Event::Started { .. } => started = true,
                    Event::Exited {
                        replica,
                        code,
                        signal,
                        ..
                    } => {
                        assert!(started, "Started comes before any exit");
                        seen.push((replica, code, signal));
                    }
                    other => panic!("the local backend reports processes, not {other:?}"),
                }
            }
        })
        .await
        .expect("the replicas exit in time");
        seen.sort_unstable();
        (started, seen)
    }

    fn log(backend: &LocalBackend, gang: &Gang, replica: u32) -> String {
        std::fs::read_to_string(backend.log_path(&gang.task, gang.attempt, replica))
            .expect("the replica's log")
    }

    fn listing(dir: &Path) -> Vec<OsString> {
        let mut names: Vec<OsString> = std::fs::read_dir(dir)
            .map(|entries| entries.filter_map(|e| Some(e.ok()?.file_name())).collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Whether bubblewrap is here; prints why a test is skipped when it is not.
    fn has_bwrap(backend: &LocalBackend, test: &str) -> bool {
        let found = backend.bwrap().is_some();
        if !found {
            println!("skipping {test}: bwrap is not installed (apt-get install -y bubblewrap)");
        }
        found
    }

    #[tokio::test]
    async fn two_replicas_run_with_their_ranks_gpus_and_logs() {
        let (_dir, backend) = backend(4);
        let gang = gang(
            "echo \"$RANK $WORLD_SIZE $MASTER_ADDR $CUDA_VISIBLE_DEVICES\"; \
             echo \"cargo=${CARGO_MANIFEST_DIR:-unset} pwd=$PWD home=$HOME\" >&2",
            2,
            2,
        );
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("the gang starts");
        let (started, exits) = run_until_exits(&mut events, 2).await;
        assert!(started);
        assert_eq!(exits, vec![(0, Some(0), None), (1, Some(0), None)]);
        let (first, second) = (log(&backend, &gang, 0), log(&backend, &gang, 1));
        assert!(first.starts_with("0 2 127.0.0.1 0,1\n"), "{first}");
        assert!(second.starts_with("1 2 127.0.0.1 2,3\n"), "{second}");
        // Only the replica's own environment, in its own working directory.
        let work = backend
            .attempt_dir(&gang.task, 1)
            .join("replica-1")
            .join("work");
        let expected = format!("cargo=unset pwd={0} home={0}\n", work.display());
        assert!(second.ends_with(&expected), "{second}");

        // Both replicas gave their GPUs back: all four fit again.
        let mut again = self::gang("true", 1, 4);
        again.attempt = 2;
        backend.start(again).await.expect("the GPUs were released");
        run_until_exits(&mut events, 1).await;
    }

    #[tokio::test]
    async fn a_failing_command_reports_its_exit_code() {
        let (_dir, backend) = backend(0);
        let mut events = backend.events();
        backend.start(gang("exit 3", 1, 0)).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert_eq!(exits, vec![(0, Some(3), None)]);
    }

    #[tokio::test]
    async fn each_replica_records_its_exit_beside_its_log() {
        let (_dir, backend) = backend(0);
        let mut events = backend.events();
        let gang = gang("exit \"$RANK\"", 2, 0);
        backend.start(gang.clone()).await.expect("starts");
        run_until_exits(&mut events, 2).await;
        let recorded = |replica| {
            recorded_exit(&backend.log_path(&gang.task, 1, replica))
                .map(|e| (e.code, e.signal, e.terminated))
        };
        assert_eq!(recorded(0), Some((Some(0), None, false)));
        assert_eq!(recorded(1), Some((Some(1), None, false)));
        assert_eq!(recorded(2), None, "no such replica");

        // A command a SIGTERM ended: as its exit was reported, and marked as one a
        // SIGTERM reached (with no server to send it, it came from outside). One that
        // catches it and exits 0 is marked too: it was cut short, not done.
        let log = stop_once_it_prints(&backend, "echo ready; sleep 1000", 2).await;
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert_eq!(exits, vec![(0, None, Some(15))]);
        assert_eq!(
            recorded_exit(&log).map(|e| (e.code, e.signal, e.terminated)),
            Some((None, Some(15), true))
        );
        assert_eq!(std::fs::read_to_string(&log).expect("its log"), "ready\n");

        let catcher = "trap 'exit 0' TERM; echo ready; sleep 1000 & wait";
        let log = stop_once_it_prints(&backend, catcher, 3).await;
        run_until_exits(&mut events, 1).await;
        assert_eq!(
            recorded_exit(&log).map(|e| (e.code, e.signal, e.terminated)),
            Some((Some(0), None, true))
        );
    }

    /// Starts `command` as attempt `attempt` of one replica and stops it once it has
    /// printed (the wrapper catches SIGTERM once it runs the command, not before); gives
    /// its log's path.
    async fn stop_once_it_prints(backend: &LocalBackend, command: &str, attempt: u32) -> PathBuf {
        let mut gang = gang(command, 1, 0);
        gang.attempt = attempt;
        backend.start(gang.clone()).await.expect("starts");
        let log = backend.log_path(&gang.task, attempt, 0);
        let begin = Instant::now();
        while std::fs::read_to_string(&log).unwrap_or_default().is_empty() {
            assert!(begin.elapsed() < WAIT, "the command never ran");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        backend
            .stop(&gang.task, attempt, Duration::from_secs(5))
            .await
            .expect("stops");
        log
    }

    /// The wrapper that records the exit is invisible to the command: what it prints of
    /// its arguments and environment is what `bash -c` alone prints with the same
    /// environment.
    #[tokio::test]
    async fn the_command_sees_what_bash_alone_would_show_it() {
        let (dir, backend) = backend(0);
        let probe = "echo \"$0|$#|$*|$-\"; env | sort; trap -p; ulimit -a | md5sum";
        let mut gang = gang(probe, 1, 0);
        // A startup file bash runs first (as module systems and conda set one): run by
        // the command's shell alone, once, as without the wrapper.
        let startup = dir.path().join("startup.sh");
        std::fs::write(
            &startup,
            "echo startup-ran; export PATH=\"/opt/extra/bin:$PATH\"\n",
        )
        .expect("a startup file");
        gang.replicas[0]
            .env
            .push(("BASH_ENV".to_owned(), startup.display().to_string()));
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        run_until_exits(&mut events, 1).await;
        let work = backend
            .attempt_dir(&gang.task, 1)
            .join("replica-0")
            .join("work");
        let alone = std::process::Command::new(&backend.bash)
            .arg("-c")
            .arg(probe)
            .current_dir(&work)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").expect("a PATH"))
            .env("HOME", &work)
            .envs(gang.replicas[0].env.iter().map(|(n, v)| (n, v)))
            .env("CUDA_VISIBLE_DEVICES", "")
            // The one variable it sees that it would not alone, as a pod sees those of
            // its cluster: what tells its processes from others on the machine.
            .env(
                REPLICA_MARK,
                work.parent().expect("the replica's directory"),
            )
            .stdin(Stdio::null())
            .output()
            .expect("bash runs");
        assert_eq!(
            log(&backend, &gang, 0),
            String::from_utf8_lossy(&alone.stdout)
        );
    }

    /// Issue: an operator's shell that went to a task's folder to `tail -f` a log was
    /// killed at the next server start, as every process working under the tasks folder
    /// was. Only what carries a replica's mark, or a replica's `HOME` (what a server
    /// before the mark left), is a leftover.
    #[tokio::test]
    async fn leftovers_are_the_marked_processes_not_any_in_the_tasks_folder() {
        let (dir, backend) = backend(0);
        let folder = dir.path().join("tasks/demo-abcde/attempt-1");
        std::fs::create_dir_all(&folder).expect("a task folder");
        let sleep = |home: Option<&Path>, mark: Option<&Path>| {
            use std::os::unix::process::CommandExt;
            let mut command = std::process::Command::new("sleep");
            command.arg("1000").current_dir(&folder).process_group(0);
            if let Some(home) = home {
                command.env("HOME", home);
            }
            if let Some(mark) = mark {
                command.env(REPLICA_MARK, mark);
            }
            command.spawn().expect("sleep runs")
        };
        let mut shell = sleep(None, None);
        let replica = folder.join("replica-0");
        let mut marked = sleep(None, Some(&replica));
        let mut unmarked = sleep(Some(&replica.join("work")), None);
        // A spawn returns once the child has begun its exec, before the kernel has set
        // where its environment is: read then, `/proc/<pid>/environ` is empty (one run
        // in a dozen under load). A leftover an earlier server left is long past that.
        for child in [&shell, &marked, &unmarked] {
            let environ = format!("/proc/{}/environ", child.id());
            for _ in 0..400 {
                if std::fs::read(&environ).is_ok_and(|e| !e.is_empty()) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        assert_eq!(backend.end_leftovers().await, 2);
        for leftover in [&mut marked, &mut unmarked] {
            let ended = leftover.wait().expect("the leftover is reaped");
            assert_eq!(ended.signal(), Some(9));
        }
        let shell_ran_on = shell.try_wait().expect("the shell is looked at").is_none();
        let _ = shell.kill();
        let _ = shell.wait();
        assert!(shell_ran_on, "the operator's shell was killed");
    }

    #[tokio::test]
    async fn stop_ends_a_sleeping_gang_with_sigterm_within_the_grace() {
        let (_dir, backend) = backend(0);
        let gang = gang("sleep 1000", 2, 0);
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        // Asked at once: a stop that raced the wrappers' forks ran out the grace, and a
        // SIGKILL (9) ended the replica that missed the SIGTERM.
        let grace = Duration::from_secs(5);
        backend.stop(&gang.task, 1, grace).await.expect("stops");
        let (_, exits) = run_until_exits(&mut events, 2).await;
        assert_eq!(exits, vec![(0, None, Some(15)), (1, None, Some(15))]);
        assert!(matches!(
            backend.stop(&gang.task, 1, grace).await,
            Err(BackendError::NotRunning { attempt: 1, .. })
        ));
    }

    /// Issue: a process a replica started in a session of its own (`setsid`) outlived
    /// the task, still holding what it held, as only the replicas' process groups were
    /// signalled. It ends with its attempt, before the attempt's end is told.
    #[tokio::test]
    async fn what_a_replica_started_outside_its_group_ends_with_the_attempt() {
        let (_dir, backend) = backend(0);
        let gang = gang("setsid sleep 1000 & echo $!; sleep 0.2", 2, 0);
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 2).await;
        assert_eq!(exits, vec![(0, Some(0), None), (1, Some(0), None)]);
        for replica in 0..2 {
            let pid: i32 = log(&backend, &gang, replica)
                .trim()
                .parse()
                .expect("the escapee's pid");
            // Ended: gone, or a zombie until whatever adopted it reaps it. Killed before
            // the end is told, but SIGKILL takes effect when the process next runs,
            // which on a busy machine may be a moment after (seen as `R`).
            let state_of = || {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .ok()
                    .and_then(|stat| stat[stat.rfind(')')? + 2..].chars().next())
            };
            let begin = Instant::now();
            let mut state = state_of();
            while !matches!(state, None | Some('Z')) && begin.elapsed() < WAIT {
                tokio::time::sleep(Duration::from_millis(10)).await;
                state = state_of();
            }
            if state.is_some() {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            assert!(
                matches!(state, None | Some('Z')),
                "replica {replica}'s escapee {pid}: {state:?}"
            );
        }
    }

    /// The wrapper does not start a command once a stop was asked, whether or not its
    /// SIGTERM reached it: it ends as SIGTERM would have ended it.
    #[test]
    fn the_wrapper_starts_no_command_after_a_stop_was_asked() {
        let (dir, backend) = backend(0);
        let exit_file = dir.path().join(EXIT_FILE);
        let run = || {
            std::process::Command::new(&backend.bash)
                .arg("-c")
                .arg(WRAPPER)
                .arg(&backend.bash)
                .arg(&exit_file)
                .arg(&backend.mv)
                .arg("echo ran")
                .output()
                .expect("bash runs")
        };
        let ran = run();
        assert_eq!(
            (ran.status.code(), &ran.stdout[..]),
            (Some(0), &b"ran\n"[..])
        );
        File::create(stop_file(&exit_file)).expect("a stop file");
        let stopped = run();
        assert_eq!(
            (stopped.status.code(), &stopped.stdout[..]),
            (Some(143), &b""[..])
        );
        assert_eq!(
            std::fs::read_to_string(&exit_file).expect("its status"),
            "143\n"
        );
    }

    /// A stop asked again while the first waits out its grace signals nothing more: the
    /// command that handles SIGTERM gets it once, and the first stop's SIGKILL ends it.
    #[tokio::test]
    async fn a_second_stop_sends_no_second_sigterm() {
        let (_dir, backend) = backend(0);
        let backend = Arc::new(backend);
        let gang = gang(
            "trap 'echo got TERM' TERM; echo ready; while :; do sleep 0.1; done",
            1,
            0,
        );
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let log_path = backend.log_path(&gang.task, 1, 0);
        let begin = Instant::now();
        while !std::fs::read_to_string(&log_path)
            .unwrap_or_default()
            .contains("ready")
        {
            assert!(begin.elapsed() < WAIT, "the command never ran");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let grace = Duration::from_millis(1500);
        let first = {
            let (backend, task) = (Arc::clone(&backend), gang.task.clone());
            tokio::spawn(async move { backend.stop(&task, 1, grace).await })
        };
        // The first stop has signalled once the trap has run.
        while !std::fs::read_to_string(&log_path)
            .unwrap_or_default()
            .contains("got TERM")
        {
            assert!(begin.elapsed() < WAIT, "the first SIGTERM never came");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        backend.stop(&gang.task, 1, grace).await.expect("stops");
        backend.stop(&gang.task, 1, grace).await.expect("stops");
        first.await.expect("joins").expect("stops");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert_eq!(exits, vec![(0, None, Some(9))]);
        assert_eq!(log(&backend, &gang, 0).matches("got TERM").count(), 1);
    }

    #[tokio::test]
    async fn stop_kills_a_command_that_ignores_sigterm_after_the_grace() {
        let (_dir, backend) = backend(0);
        let gang = gang("trap '' TERM; sleep 1000", 1, 0);
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        tokio::time::sleep(Duration::from_millis(200)).await; // let bash set the trap
        let begin = Instant::now();
        let grace = Duration::from_millis(500);
        backend.stop(&gang.task, 1, grace).await.expect("stops");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert!(begin.elapsed() >= grace);
        assert_eq!(exits, vec![(0, None, Some(9))]);
    }

    #[tokio::test]
    async fn mounts_are_read_only_or_writable_and_create_nothing_on_the_host() {
        let (dir, backend) = backend(0);
        if !has_bwrap(&backend, "mounts test") {
            return;
        }
        let (data, out) = (dir.path().join("dataset"), dir.path().join("volume"));
        std::fs::create_dir_all(&data).expect("dataset dir");
        std::fs::create_dir_all(&out).expect("volume dir");
        std::fs::write(data.join("hello"), "hello from the dataset\n").expect("a file");
        // A parent that does not exist on the host, under a directory that does.
        let parent = format!("/mnt/berth-test-{}", std::process::id());
        let before = listing(Path::new("/mnt"));
        let mut gang = gang(
            &format!(
                "cat {parent}/data/hello; \
                 touch {parent}/data/x 2>/dev/null && echo data-writable || echo data-read-only; \
                 echo written > {parent}/out/result && echo out-writable; \
                 touch /volume/new/file && echo deep-writable"
            ),
            1,
            0,
        );
        gang.mounts = vec![
            Mount {
                source: data.clone(),
                target: format!("{parent}/data"),
                read_only: true,
            },
            Mount {
                source: out.clone(),
                target: format!("{parent}/out"),
                read_only: false,
            },
            Mount {
                source: out.clone(),
                target: "/volume/new".to_owned(),
                read_only: false,
            },
        ];
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        let text = log(&backend, &gang, 0);
        assert_eq!(exits, vec![(0, Some(0), None)], "{text}");
        assert_eq!(
            text,
            "hello from the dataset\ndata-read-only\nout-writable\ndeep-writable\n"
        );
        assert!(!data.join("x").exists());
        assert_eq!(
            std::fs::read_to_string(out.join("result")).expect("written"),
            "written\n"
        );
        assert!(out.join("file").exists());
        assert_eq!(listing(Path::new("/mnt")), before);
        assert!(!Path::new(&parent).exists());
        assert!(!Path::new("/volume").exists());
    }

    /// A sandboxed replica ends whole when its main process, `bwrap`, dies as it does
    /// with a crashed server (`--die-with-parent`): a process the command started in a
    /// session of its own, which a kill of the group would miss, goes too, as every
    /// process of the replica's PID namespace does (explorer, round 19: the command ran
    /// on after a kill -9 of the server, writing to its volume).
    #[tokio::test]
    async fn a_sandboxed_replica_ends_whole_when_its_bwrap_dies() {
        let (dir, backend) = backend(0);
        if !has_bwrap(&backend, "PID namespace test") {
            return;
        }
        let volume = dir.path().join("vol");
        std::fs::create_dir_all(&volume).expect("volume dir");
        // A duration no other process here sleeps for, to find it by.
        let marker = format!("sleep 61.{}", std::process::id());
        let mut gang = gang(
            &format!(
                "cat /proc/1/comm; echo \"$NCCL_HOSTID\"; setsid {marker} & echo started; wait"
            ),
            1,
            0,
        );
        gang.mounts = vec![Mount {
            source: volume,
            target: "/mnt/vol".to_owned(),
            read_only: false,
        }];
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let sleeping = || {
            std::fs::read_dir("/proc")
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
                .any(|cmdline| {
                    String::from_utf8_lossy(&cmdline).replace('\0', " ").trim() == marker
                })
        };
        for _ in 0..200 {
            if log(&backend, &gang, 0).contains("started") && sleeping() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(sleeping(), "{}", log(&backend, &gang, 0));
        let main = backend
            .lock()
            .attempts
            .get(&(gang.task.clone(), 1))
            .expect("running")
            .running[0]
            .group;
        kill(main, Signal::SIGKILL).expect("killed");
        let _ = run_until_exits(&mut events, 1).await;
        for _ in 0..200 {
            if !sleeping() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        assert!(!sleeping(), "the command's process outlived its replica");
        // Its first process was bwrap's, whose end ended the namespace; to NCCL it is a
        // host of its own.
        assert!(
            log(&backend, &gang, 0).starts_with(&format!("bwrap\n{}-1-0\n", gang.task)),
            "{}",
            log(&backend, &gang, 0)
        );
    }

    #[tokio::test]
    async fn a_sandboxed_replicas_tmp_is_its_own_and_gone_at_its_end() {
        let (dir, backend) = backend(0);
        if !has_bwrap(&backend, "own /tmp test") {
            return;
        }
        let shared = dir.path().join("shared");
        std::fs::create_dir_all(&shared).expect("volume dir");
        // The host's /tmp is neither shown nor written: a container's is its own.
        let host_tmp = std::fs::canonicalize("/tmp").expect("/tmp");
        let host_file = host_tmp.join(format!("berth-host-{}", std::process::id()));
        std::fs::write(&host_file, "host").expect("a host file");
        let mut gang = gang(
            &format!(
                "ls -A /tmp; test -e {} && echo host-seen; echo mine > /tmp/scratch; \
                 echo kept > /tmp/ray/mark; pwd",
                host_file.display()
            ),
            1,
            0,
        );
        gang.mounts = vec![Mount {
            source: shared.clone(),
            target: "/tmp/ray".to_owned(),
            read_only: false,
        }];
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        let text = log(&backend, &gang, 0);
        let _ = std::fs::remove_file(&host_file);
        assert_eq!(exits, vec![(0, Some(0), None)], "{text}");
        let work = backend.replica_dir(&gang.task, 1, 0).join("work");
        let first = |path: &Path| {
            path.strip_prefix("/tmp")
                .ok()
                .and_then(|p| p.components().next())
                .map(|c| format!("{}\n", c.as_os_str().to_string_lossy()))
                .unwrap_or_default()
        };
        // Only the mount point, and the way to the replica's directory when the data
        // directory is below /tmp.
        let mut listed = vec!["ray\n".to_owned(), first(&work)];
        listed.retain(|line| !line.is_empty());
        listed.sort();
        assert_eq!(text, format!("{}{}\n", listed.concat(), work.display()));
        assert_eq!(
            std::fs::read_to_string(shared.join("mark")).expect("the mount is written"),
            "kept\n"
        );
        assert!(!host_tmp.join("scratch").exists());
        // Removed once the exit has been told.
        let own = backend.replica_dir(&gang.task, 1, 0).join(OWN_TMP);
        for _ in 0..100 {
            if !own.exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(!own.exists());
    }

    #[tokio::test]
    async fn a_volume_mounted_at_tmp_is_the_replicas_tmp() {
        // A data directory outside /tmp, as a server's is: one below it is reached through
        // the volume's mount point, which is not made in a user's volume (README).
        let outside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/berth-local-tests");
        std::fs::create_dir_all(&outside).expect("a folder in the target dir");
        let dir = tempfile::Builder::new()
            .prefix("berth-local-")
            .tempdir_in(&outside)
            .expect("a temporary directory");
        let backend = LocalBackend::new(dir.path().to_path_buf(), |_| 0);
        if !has_bwrap(&backend, "volume at /tmp test") {
            return;
        }
        let volume = dir.path().join("volume");
        std::fs::create_dir_all(&volume).expect("volume dir");
        std::fs::write(volume.join("input"), "from the volume\n").expect("a file");
        let mut gang = gang("cat /tmp/input; echo saved > /tmp/checkpoint", 1, 0);
        gang.mounts = vec![Mount {
            source: volume.clone(),
            target: "/tmp".to_owned(),
            read_only: false,
        }];
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        let text = log(&backend, &gang, 0);
        assert_eq!(exits, vec![(0, Some(0), None)], "{text}");
        assert_eq!(text, "from the volume\n");
        assert_eq!(
            std::fs::read_to_string(volume.join("checkpoint")).expect("kept in the volume"),
            "saved\n"
        );
    }

    #[tokio::test]
    async fn pod_ssh_hostfiles_are_readable_inside_and_not_on_the_host() {
        let (_dir, backend) = backend(0);
        if !has_bwrap(&backend, "hostfile test") {
            return;
        }
        let before = listing(Path::new("/root"));
        let mut gang = gang(
            "cat /root/hostfile /root/hostfile.hostname; echo \"rank $RANK\"",
            2,
            0,
        );
        gang.ssh = true;
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 2).await;
        assert_eq!(exits, vec![(0, Some(0), None), (1, Some(0), None)]);
        for replica in 0..2 {
            assert_eq!(
                log(&backend, &gang, replica),
                format!(
                    "127.0.0.1\n127.0.0.1\ndemo-abcde-master-0\ndemo-abcde-worker-0\nrank {replica}\n"
                )
            );
        }
        assert_eq!(listing(Path::new("/root")), before);
    }

    #[tokio::test]
    async fn stop_under_bubblewrap_reports_sigterm() {
        let (dir, backend) = backend(0);
        if !has_bwrap(&backend, "sandboxed stop test") {
            return;
        }
        let mut gang = gang("sleep 1000", 1, 0);
        gang.mounts = vec![Mount {
            source: dir.path().to_path_buf(),
            target: "/volume/data".to_owned(),
            read_only: true,
        }];
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        tokio::time::sleep(Duration::from_millis(200)).await; // let bwrap start bash
        let grace = Duration::from_secs(5);
        let begin = Instant::now();
        backend.stop(&gang.task, 1, grace).await.expect("stops");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert!(begin.elapsed() < grace, "took {:?}", begin.elapsed());
        assert_eq!(exits, vec![(0, None, Some(15))]);
    }

    #[tokio::test]
    async fn mounts_without_bwrap_fail_to_start_with_a_reason() {
        let (dir, backend) = backend(0);
        let backend = backend.with_bwrap(None);
        let mut gang = gang("true", 1, 0);
        gang.mounts = vec![Mount {
            source: dir.path().to_path_buf(),
            target: "/tmp/ray".to_owned(),
            read_only: false,
        }];
        match backend.start(gang).await {
            Err(BackendError::Start { reason, .. }) => assert!(reason.contains("bwrap")),
            other => panic!("expected a start error, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_missing_mount_source_fails_to_start_with_a_reason() {
        let (dir, backend) = backend(0);
        let mut gang = gang("true", 1, 0);
        gang.mounts = vec![Mount {
            source: dir.path().join("absent"),
            target: "/volume/data".to_owned(),
            read_only: true,
        }];
        match backend.start(gang).await {
            Err(BackendError::Start { reason, .. }) => assert!(reason.contains("absent")),
            other => panic!("expected a start error, got {other:?}"),
        }
    }

    #[test]
    fn runtime_env_values_expand_as_ray_expands_them() {
        let env = |var: &str| match var {
            "PATH" => Some("/usr/bin".to_owned()),
            "A" => Some("x".to_owned()),
            _ => None,
        };
        assert_eq!(
            expand_vars("/opt/bin:${PATH}", "PATH", env),
            "/opt/bin:/usr/bin"
        );
        assert_eq!(expand_vars("$A-$A_b-${A}", "B", env), "x-$A_b-x");
        // Unset: left as written (Python), but a variable's own `${NAME}` dropped (Ray).
        assert_eq!(expand_vars("${LD}:/lib:$LD", "LD", env), ":/lib:$LD");
        assert_eq!(expand_vars("$ ${ $", "C", env), "$ ${ $");
        assert_eq!(expand_vars("价格 $A 元", "C", env), "价格 x 元");
    }

    #[tokio::test]
    async fn a_ray_job_runs_its_entrypoint_once_with_the_ray_address() {
        let (_dir, backend) = backend(0);
        // With its runtime env's env_vars, as Ray gives them to the entrypoint: PATH
        // prepended to, the replica's own variables expanded.
        let mut gang = gang(
            "echo \"$RAY_ADDRESS $RANK\"; echo \"$GREETING\"; echo \"${PATH%%:*}\"; command -v bash >/dev/null && echo found-bash",
            3,
            0,
        );
        let said = run_entrypoint(
            &backend,
            &mut gang,
            &[("PATH", "/opt/tools:${PATH}"), ("GREETING", "hi $RANK")],
        )
        .await;
        assert_eq!(said, "127.0.0.1:6379 0\nhi 0\n/opt/tools\nfound-bash\n");
        assert!(!backend.log_path(&gang.task, 1, 1).exists());
    }

    /// Runs `gang` as a RayJob with `runtime_env`'s env_vars, which must exit 0 (its
    /// entrypoint alone, as replica 0); gives its log.
    async fn run_entrypoint(
        backend: &LocalBackend,
        gang: &mut Gang,
        runtime_env: &[(&str, &str)],
    ) -> String {
        gang.ray = true;
        gang.runtime_env = runtime_env
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect();
        let mut events = backend.events();
        backend.start(gang.clone()).await.expect("starts");
        let (_, exits) = run_until_exits(&mut events, 1).await;
        assert_eq!(exits, vec![(0, Some(0), None)]);
        log(backend, gang, 0)
    }

    /// A startup file a RayJob's runtime env names runs once, in the entrypoint's shell,
    /// as one a replica's own variables name does.
    #[tokio::test]
    async fn a_runtime_envs_startup_file_runs_once() {
        let (dir, backend) = backend(0);
        let startup = dir.path().join("startup.sh");
        std::fs::write(&startup, "echo startup-ran\n").expect("a startup file");
        let mut gang = gang("echo \"entrypoint $BASH_ENV\"", 1, 0);
        let startup = startup.display().to_string();
        let said = run_entrypoint(&backend, &mut gang, &[("BASH_ENV", &startup)]).await;
        assert_eq!(said, format!("startup-ran\nentrypoint {startup}\n"));
    }

    /// The form warns that the platform's value of its context names and of
    /// `RAY_ADDRESS` replaces the user's (`env.name.platform_injected`), as on a cluster
    /// (the submitter takes the context out of the runtime env, and Ray's job supervisor
    /// sets the entrypoint's `RAY_ADDRESS`); another `RAY_*` name is the user's to set,
    /// as Ray gives the job's processes the runtime env's value.
    #[tokio::test]
    async fn a_runtime_env_does_not_replace_the_platforms_context() {
        let (_dir, backend) = backend(0);
        let mut gang = gang(
            "echo \"$TASK_UUID $RAY_ADDRESS $RAY_DEDUP_LOGS $MINE\"",
            1,
            0,
        );
        gang.replicas[0]
            .env
            .push(("TASK_UUID".to_owned(), "demo-abcde".to_owned()));
        let user =
            ["TASK_UUID", "RAY_ADDRESS", "RAY_DEDUP_LOGS", "MINE"].map(|name| (name, "user"));
        let said = run_entrypoint(&backend, &mut gang, &user).await;
        assert_eq!(said, "demo-abcde 127.0.0.1:6379 user user\n");
    }

    #[tokio::test]
    async fn a_failure_in_the_middle_of_a_gang_leaves_nothing_running() {
        let (_dir, backend) = backend(2);
        let gang = gang("sleep 1000", 2, 1);
        // Replica 1's log cannot be created: a directory is in its way.
        std::fs::create_dir_all(backend.log_path(&gang.task, 1, 1)).expect("a directory");
        let mut events = backend.events();
        assert!(matches!(
            backend.start(gang.clone()).await,
            Err(BackendError::Io { .. })
        ));
        assert!(matches!(
            backend.stop(&gang.task, 1, Duration::ZERO).await,
            Err(BackendError::NotRunning { .. })
        ));
        assert!(matches!(
            events.try_recv(),
            Err(broadcast::error::TryRecvError::Empty)
        ));
        // Replica 0's GPU is free again.
        let mut again = self::gang("true", 1, 2);
        again.attempt = 2;
        backend.start(again).await.expect("both GPUs are free");
    }
}
