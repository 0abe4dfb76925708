//! Berth's domain: the task spec, the catalog, validation, quota and gang-fit math.
//!
//! Compiled natively for the server and to wasm32 for the console, so both run the same
//! rules. It does no I/O, reads no clock, spawns no thread and draws no random number:
//! callers pass in what it needs. It must not depend on leptos, axum, kube or tokio.
//!
//! # Overview
//!
//! From the leaves up (no module depends on one above it):
//!
//! - [`messages`]: the [`Lang`]s and one keyed catalog of every text a user reads;
//!   [`vocab`]: task type, resource kind, instance type, stability, dimension;
//!   [`path`]: field paths, built from the types; [`names`]: the Kubernetes names the
//!   operators derive.
//! - [`TaskSpec`] ([`task`]): what the user fills in; also the state of a half-filled form.
//! - [`Catalog`] ([`catalog`]): what is offered; [`Usage`] ([`usage`]): what is taken now;
//!   [`CatalogFile`]: both, as a catalog file holds them; [`read`] reads all of them and
//!   the spec from JSON (one hand-written reader under their `Deserialize`).
//! - [`quota`]: demand, quota lines, gang fit, the [`Plan`] over the spec priority list,
//!   and [`place`], the [`Placement`] a scheduler reserves and releases on [`Usage`].
//! - [`validate`]: [`check_json`] and [`check`], every finding ([`Report`]) and the plan;
//!   [`validated`] turns an error-free spec into a [`Validated`] one.
//! - [`record`]: the [`Task`] as the store keeps it, with its [`TaskPhase`]s.
//! - [`manifest`]: the Kubernetes objects a validated spec becomes ([`manifest::render`]).
//! - [`api`]: request and response bodies of the HTTP API.
//!
//! # Usage
//!
//! ```
//! use shared::{check_json, demo};
//! let result = check_json(demo::PYTORCH_EXAMPLE, &demo::catalog(), &demo::usage(), &demo::user());
//! assert!(!result.issues.has_errors(), "{}", result.issues);
//! let plan = result.plan.expect("a complete spec has a plan");
//! assert!(plan.chosen().is_some(), "the example starts now");
//! // Messages are rendered when read, in the reader's language.
//! let spec = shared::parse_spec(r#"{"compute": {"workers": "two"}}"#).unwrap_err();
//! assert_eq!(
//!     spec.issues()[0].message(shared::Lang::Zh),
//!     "格式不正确：应为非负整数，实际为文本 \"two\""
//! );
//! Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Crate features
//!
//! - `demo`: the demo catalog and example specs ([`demo`]).
//!
//! # Validation codes
//!
//! Every rule has its own frozen code. `value.*` codes are about a field's shape and
//! apply to any field; the path says which.
//!
//! | code | severity | rule |
//! | --- | --- | --- |
//! | `value.invalid` | error | A value has the wrong type or shape for its field. |
//! | `value.required` | error | A required field is empty. |
//! | `spec.version.unsupported` | error | The spec's `version` is not one this build reads. |
//! | `basic.region.unknown` | error | The region is not in the catalog. |
//! | `basic.cluster.unknown` | error | The cluster is not in the chosen region. |
//! | `basic.project_group.not_member` | error | The user is not a member of the project group, or it does not exist. |
//! | `basic.name_prefix.invalid_chars` | error | The name prefix has characters other than lowercase letters, digits and `-`. |
//! | `basic.name_prefix.bad_start` | error | The name prefix does not start with a lowercase letter. |
//! | `basic.name_prefix.bad_end` | error | The name prefix does not end with a letter or digit. |
//! | `basic.name_prefix.too_long` | error | The name prefix is too long for the names the operator derives from it. |
//! | `basic.time_zone.unknown` | error | The time zone is not in the catalog's list. |
//! | `basic.task_type.ray_unused` | info | A PyTorchJob's spec with Ray settings or a head spec; they are dropped on submit. |
//! | `basic.tags.too_many` | error | More tags than allowed. |
//! | `basic.tags.key.invalid` | error | A tag key is not label-like, or is over 63 characters, its prefix counted. |
//! | `basic.tags.key.reserved` | error | A tag key under a prefix the platform or an operator owns (`kubernetes.io/`, `k8s.io/`, `kueue.x-k8s.io/`, `volcano.sh/`, `ray.io/`, `kubeflow.org/`, `training.kubeflow.org/`, `scheduling.x-k8s.io/`, each with its subdomains, and `berth.`). |
//! | `basic.tags.value.invalid` | error | A tag value is not label-like. |
//! | `basic.tags.duplicate` | error | The same tag key twice. |
//! | `basic.tags.not_maintained` | error | Tag validation is on and the tag is not maintained. |
//! | `image.unknown` | error | The catalog image does not exist in this cluster. |
//! | `image.address.invalid` | error | The image address does not parse as an image reference. |
//! | `image.ray.missing` | error | A RayJob with a catalog image that has no Ray runtime. |
//! | `image.ray.unverified` | warning | A RayJob with a free image address: Ray cannot be verified. |
//! | `image.ray_dashboard.missing` | info | A RayJob image without the dashboard dependencies. |
//! | `image.pytorch.missing` | warning | A PyTorchJob with a catalog image without the `pytorch` capability. |
//! | `env.name.invalid` | error | Env var name is not `[A-Za-z_][A-Za-z0-9_]*`. |
//! | `env.name.reserved_prefix` | error | Env var name starts with `KUBERNETES_`. |
//! | `env.name.duplicate` | error | The same env var name twice. |
//! | `env.name.platform_injected` | warning | A name the platform injects; the platform's value wins. In a RayJob runtime env's `env_vars`, only the context names and `RAY_ADDRESS`: Ray gives the job's processes the user's value of any other `RAY_*` name. |
//! | `env.name.shadows_persistent` | info | Same name as a persistent env var; this task's value wins. |
//! | `env.name.overrides_time_zone` | info | A `TZ` env var other than the task's time zone: its pods run in the var's zone. At the var (the task's, a runtime env's) or, for a persistent one, at the time zone. |
//! | `env.value.too_long` | error | One value is over the per-value limit. |
//! | `env.values.too_long` | error | All values together are over the limit. |
//! | `env.value.nul` | error | A value holds a NUL character. |
//! | `env.value.stray_blank` | warning | An env value begins or ends with a blank (a non-breaking or full-width space too), or has a zero-width character or a carriage return. |
//! | `env.value.masked` | error | A value is the mask of a hidden value the user cannot see (a clone of another's task). |
//! | `storage.volume.unknown` | error | The volume is not in this cluster. |
//! | `storage.duplicate` | error | The same volume at the same path twice. |
//! | `storage.volume.rwo_multi_pod` | warning | An RWO volume on a task with more than one pod: it attaches to one node only. |
//! | `storage.none` | info | No storage volume at all (a RayJob's shared storage counts as one): outputs are lost when the task ends. |
//! | `datasets.unknown` | error | The dataset is not in this cluster. |
//! | `models.unknown` | error | The model is not in this cluster. |
//! | `mount.path.not_absolute` | error | Mount path is not absolute. |
//! | `mount.path.not_normalized` | error | Mount path has `..`, `.`, `//` or a trailing `/`. |
//! | `mount.path.root` | error | Mount path is `/`. |
//! | `mount.path.invalid_chars` | error | Mount path has `:` or a control character. |
//! | `mount.path.stray_blank` | error | A name of the mount path begins or ends with a blank (a non-breaking or full-width space too), or the path has a zero-width character. |
//! | `mount.path.too_long` | error | Mount path has a name over 255 bytes, or is over 4,095 bytes. |
//! | `mount.path.conflict` | error | Two mounts at one path. |
//! | `mount.path.nested` | warning | One mount inside another. |
//! | `mount.path.system` | error | Mount at or under `/proc`, `/sys` or `/dev`. |
//! | `mount.path.shadows_image` | warning | Mount hides the image's own files. |
//! | `mount.path.outside_recommended` | info | Mount outside `/volume` and `/mnt`. |
//! | `mount.path.ray_reserved` | error | Mount at `/tmp/ray` while RayJob shared storage takes it. |
//! | `mount.path.hides_ssh_hostfile` | warning | Mount at `/root` or above, in `/root/.ssh` or at `/root/hostfile` while pod SSH writes its keys and node lists there. |
//! | `mount.path.ssh_read_only` | error | With pod SSH, a mount beneath a directory it mounts read-only (`/etc/berth/ssh`, a PyTorchJob's `/etc/berth/hosts`), or a dataset or model (read-only) above one: the pod cannot start. |
//! | `command.too_long` | error | Command over the length limit. |
//! | `command.nul` | error | Command holds a NUL character. |
//! | `command.torchrun.nproc_per_node` | warning | `torchrun --nproc_per_node` differs from the GPUs of one replica. |
//! | `command.torchrun.nnodes` | warning | `torchrun --nnodes` differs from the replica count (each launch read from its own options). |
//! | `command.distributed_env_unused` | warning | A multi-replica PyTorchJob whose command uses none of the injected variables. |
//! | `command.pasted_char` | warning | A curly quote, a long dash, or a non-breaking, full-width or zero-width space outside quotes and comments, or a carriage return anywhere: the shell reads it as part of a word. |
//! | `compute.pool.unknown` | error | The pool is not in this cluster. |
//! | `compute.pool.kind_mismatch` | error | The pool does not serve the chosen resource kind. |
//! | `compute.pool.none_for_kind` | error | No pool of this cluster serves the resource kind. |
//! | `compute.spot.unavailable` | error | Spot: no spec of this type is available in the current filter. |
//! | `compute.idle.priority_not_allowed` | error | Idle resources take no priority. |
//! | `compute.idle.guarantee_not_allowed` | error | Idle resources take no guarantee. |
//! | `compute.workers.out_of_range` | error | Workers outside 0–1,024. |
//! | `compute.spec.unknown` | error | The spec is not in this cluster. |
//! | `compute.spec.type_mismatch` | error | The spec is not of the chosen instance type. |
//! | `compute.spec.not_in_pool` | error | No node of the pool can host the Ray head's spec. |
//! | `compute.specs.duplicate` | error | The same spec twice in the priority list. |
//! | `compute.specs.mixed_gpu_models` | warning | The priority list mixes GPU models. |
//! | `compute.units_per_node.out_of_range` | error | Units per node outside 1 and the chosen specs' maximum; names the spec that bounds it (the first of the fewest, the RayJob head's included). |
//! | `compute.demand.overflow` | error | The demand overflows the arithmetic. |
//! | `compute.quota.none` | error | No quota at all for this kind, pool and spec. |
//! | `compute.quota.exceeded` | error | Demand above the remaining quota in one dimension. |
//! | `compute.quota.skipped` | warning | A spec of the list skipped for quota while another spec can be used. |
//! | `compute.gang.skipped` | warning | A spec of the list skipped because it can never fit, while another can be used. |
//! | `compute.kind.field_unused` | info | A field the chosen resource kind does not use; it is dropped on submit. |
//! | `compute.pool.availability_exceeded` | warning | Demand above the pool's free amount in one or more dimensions (one finding lists them all): the task will queue. |
//! | `compute.gang.will_queue` | warning | Not all replicas can be placed now: the task will queue. |
//! | `compute.gang.never_fits` | error | The replicas can never be placed at once. |
//! | `advanced.fault_tolerance.max_retries.out_of_range` | error | Max retries outside 1–100. |
//! | `advanced.monitoring.port.out_of_range` | error | Metrics port outside 1–65535. |
//! | `advanced.monitoring.port.master` | error | A PyTorchJob's metrics port is the master port. |
//! | `advanced.monitoring.port.ray` | error | A RayJob's metrics port is one of Ray's own (6379, 8265, 10001, 8080, 52365). |
//! | `advanced.monitoring.port.ssh` | error | Metrics port 22 while pod SSH is on. |
//! | `advanced.monitoring.path.invalid` | error | Metrics path does not start with `/`, or holds a byte a URL path may not (a space, `?`, `#`, `%`, non-ASCII): Prometheus would escape it and scrape nothing. |
//! | `advanced.image_pull_retries.out_of_range` | error | Image-pull retries below −1. |
//! | `advanced.ssh.single_pod` | info | SSH on a task with one pod. |
//! | `advanced.alerts.threshold.invalid` | error | A threshold event without a positive threshold. |
//! | `advanced.alerts.threshold.unused` | warning | A threshold on an event that takes none; it is ignored. |
//! | `advanced.alerts.target.spaces` | error | A target its channel refuses starts or ends with a space (or another blank). |
//! | `advanced.alerts.target.email` | error | Email target is not an email address. |
//! | `advanced.alerts.target.url` | error | Webhook target is not an https URL. |
//! | `advanced.alerts.target.masked` | error | A webhook target is the mask others read it as (a clone of another's task). |
//! | `advanced.alerts.too_many` | error | More alert subscriptions than allowed (20). |
//! | `advanced.alerts.duplicate` | warning | A subscription repeats an earlier one field for field (event, threshold, channel, target): the server fires it once. |
//! | `ray.runtime_env.invalid_yaml` | error | Runtime env is not YAML. |
//! | `ray.runtime_env.too_long` | error | Runtime env over the length limit. |
//! | `ray.runtime_env.alias` | error | Runtime env uses YAML aliases, which could expand without bound. |
//! | `ray.runtime_env.unread` | error | Runtime env not read: the validator package was given no YAML reader (its optional module; the server and the console always read it). |
//! | `ray.runtime_env.tag` | error | Runtime env has a YAML tag PyYAML's safe loader refuses (`!!python/…`, local tags). |
//! | `ray.runtime_env.key_not_string` | error | Runtime env has a null, boolean, number, list or mapping as a key. |
//! | `ray.runtime_env.not_mapping` | error | Runtime env is not a mapping. |
//! | `ray.runtime_env.unknown_key` | warning | Runtime env has a key Ray does not know. |
//! | `ray.runtime_env.duplicate_key` | warning | Runtime env gives a top-level key twice; PyYAML keeps the last. |
//! | `ray.runtime_env.env_vars` | error | `env_vars` does not map strings to strings (as PyYAML reads them: `yes` is a boolean). |
//! | `ray.runtime_env.pip_and_conda` | error | `pip` and `conda` both non-empty. |
//! | `ray.shared_storage.not_rwx` | error | The shared-storage volume is not RWX. |
//! | `ray.debug.keep_secs.out_of_range` | error | Debug keep time outside 1–86,400 seconds. |
//! | `ray.autoscaling.range` | error | Autoscaling needs min ≤ workers ≤ max. |
//! | `ray.autoscaling.max_workers.zero` | warning | Autoscaling whose maximum is 0: it can never add a worker. |
#![deny(missing_docs)]

pub mod api;
pub mod catalog;
pub mod catalog_file;
#[cfg(any(feature = "demo", test))]
pub mod demo;
mod flat;
pub mod injected;
pub mod manifest;
pub mod messages;
pub mod names;
pub mod path;
pub mod quota;
pub mod read;
pub mod record;
pub mod resources;
pub mod task;
pub mod terminal;
pub mod usage;
pub mod validate;
pub mod vocab;
mod wire;
pub mod yaml_spec;

pub use catalog::{Catalog, User};
pub use catalog_file::CatalogFile;
pub use quota::{Fit, Outcome, Placement, Plan, place};
pub use record::{Task, TaskId, TaskPhase, Timestamp};
pub use resources::{Dimension, Resources};
pub use task::{TaskSpec, TaskType};
pub use usage::Usage;
pub use validate::{
    Check, FieldPath, Issue, IssueCode, Lang, Report, Severity, Validated, check, check_json,
    parse_spec, parse_value, validate, validated,
};

#[cfg(test)]
mod tests {
    use super::IssueCode;

    #[test]
    fn every_code_is_documented_in_the_crate_table() {
        let docs = include_str!("lib.rs");
        for code in IssueCode::ALL {
            assert!(
                docs.contains(&format!("//! | `{code}` |")),
                "{code} is missing from the table in lib.rs"
            );
        }
    }

    #[test]
    fn codes_are_unique() {
        let mut codes = IssueCode::ALL.to_vec();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), IssueCode::ALL.len());
    }
}
