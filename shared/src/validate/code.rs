//! [`IssueCode`]: one variant per rule, its frozen dotted code, severity and messages.
//!
//! Messages are short phrases that do not repeat the field's label: the console shows
//! them under the field, and the API pairs them with the path.

use super::issue::{Lang, Severity};
pub use super::runtime_env::YamlFault;
use super::shape::{Expected, Found};
use crate::messages::{list, text};
use crate::quota::{NeverReason, QueueReason, Shortfall};
use crate::resources::Dimension;
use crate::task::InstanceType;
use crate::vocab::ResourceKind;
use crate::wire::{Fields, unexpected};
use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Deserializer, Serialize};

macro_rules! issue_codes {
    ($( $(#[$doc:meta])* $variant:ident $({ $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? })? = $code:tt, $sev:ident; )*) => {
        /// The rule a finding breaks, with the values its message needs.
        ///
        /// On the wire: `{"code": "env.name.reserved_prefix", "params": {...}}`.
        // Read by hand (`IssueCode::from_wire`), not derived: serde's derive for an
        // adjacently tagged enum flattened into `Issue` buffers every finding through
        // its `Content` and instantiates each variant's reader for it, about 109 KB of
        // the console's wasm (BENCHMARKS.md). The wire is the same.
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "code", content = "params")]
        pub enum IssueCode {
            $( $(#[$doc])* #[serde(rename = $code)] $variant $({ $($(#[$fdoc])* $field: $ty),* })?, )*
        }

        impl IssueCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [&'static str] = &[$($code),*];

            /// The frozen dotted code.
            pub fn code(&self) -> &'static str {
                match self { $( Self::$variant { .. } => $code, )* }
            }

            /// The severity, fixed per code.
            pub fn severity(&self) -> Severity {
                match self { $( Self::$variant { .. } => Severity::$sev, )* }
            }

            /// The finding `code` with its `params` as the wire has them: an object of
            /// the variant's fields, absent (or `null`) for a code without values.
            ///
            /// # Errors
            ///
            /// serde's words for an unknown code, a missing or mistyped value.
            pub(crate) fn from_wire(
                code: &str,
                params: Option<serde_json::Value>,
            ) -> Result<Self, serde_json::Error> {
                let mut params = Params::new(params);
                let code = match code {
                    $( $code => Self::$variant $({ $($field: params.take(stringify!($field))?),* })?, )*
                    other => return Err(de::Error::unknown_variant(other, Self::ALL)),
                };
                params.done()?;
                Ok(code)
            }

            /// As [`IssueCode::from_wire`], from the JSON value `shared::read` parsed:
            /// the console's reader of the server's findings, which carries no
            /// serde_json `Value` reader for them.
            ///
            /// # Errors
            ///
            /// An unknown code (at `code`), a missing or mistyped value (at `params`).
            pub(crate) fn read_wire(
                code: &str,
                params: Option<crate::read::Json<'_, '_>>,
            ) -> Result<Self, crate::read::ReadError> {
                let mut params = crate::read::Params::new(params);
                let code = match code {
                    $( $code => Self::$variant $({ $($field: params.field(stringify!($field)).map_err(|e| e.at_field("params"))?),* })?, )*
                    other => return Err(crate::read::ReadError::unknown_variant(other, Self::ALL).at_field("code")),
                };
                params.done()?;
                Ok(code)
            }
        }
    };
}

/// A finding's `params` while its fields are taken out one by one: one reader per field
/// type rather than one per variant.
struct Params {
    given: Option<serde_json::Value>,
    fields: Option<Fields>,
}

impl Params {
    fn new(given: Option<serde_json::Value>) -> Self {
        Params {
            given: given.filter(|params| !params.is_null()),
            fields: None,
        }
    }

    /// The field `name` of a code with values, whose params must be an object.
    fn take<T: DeserializeOwned>(&mut self, name: &'static str) -> Result<T, serde_json::Error> {
        if self.fields.is_none() {
            self.fields = Some(Fields::new(match self.given.take() {
                Some(serde_json::Value::Object(fields)) => fields,
                Some(other) => {
                    return Err(de::Error::invalid_type(
                        unexpected(&other),
                        &"the code's params",
                    ));
                }
                None => return Err(de::Error::missing_field("params")),
            }));
        }
        self.fields.as_mut().map_or_else(
            || Err(de::Error::missing_field("params")),
            |fields| fields.take(name),
        )
    }

    /// A code without values takes no params.
    fn done(self) -> Result<(), serde_json::Error> {
        match self.given {
            Some(other) => Err(de::Error::invalid_type(unexpected(&other), &"no params")),
            None => Ok(()),
        }
    }
}

/// A finding's code and params as the wire has them.
#[derive(Deserialize)]
struct WireCode {
    code: String,
    #[serde(default)]
    params: Option<serde_json::Value>,
}

impl<'de> Deserialize<'de> for IssueCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireCode::deserialize(deserializer)?;
        IssueCode::from_wire(&wire.code, wire.params).map_err(de::Error::custom)
    }
}

issue_codes! {
    /// A value has the wrong type or shape for its field.
    ValueInvalid { /** What the field should hold. */ expected: Expected, /** What it held. */ found: Option<Found> } = "value.invalid", Error;
    /// A required field is empty.
    ValueRequired = "value.required", Error;
    /// The spec's `version` is not one this build reads.
    SpecVersionUnsupported { /** Version found. */ found: u32, /** Version supported. */ supported: u32 } = "spec.version.unsupported", Error;

    /// The region is not in the catalog.
    RegionUnknown = "basic.region.unknown", Error;
    /// The cluster is not in the chosen region.
    ClusterUnknown = "basic.cluster.unknown", Error;
    /// The user is not a member of the project group, or it does not exist.
    ProjectGroupNotMember = "basic.project_group.not_member", Error;
    /// The name prefix has characters other than lowercase letters, digits and `-`.
    NamePrefixInvalidChars = "basic.name_prefix.invalid_chars", Error;
    /// The name prefix does not start with a lowercase letter.
    NamePrefixBadStart = "basic.name_prefix.bad_start", Error;
    /// The name prefix does not end with a letter or digit.
    NamePrefixBadEnd = "basic.name_prefix.bad_end", Error;
    /// The name prefix is too long for the names the operator derives from it.
    NamePrefixTooLong { /** Longest allowed prefix. */ max: usize, /** Its length now. */ len: usize } = "basic.name_prefix.too_long", Error;
    /// The time zone is not in the catalog's list.
    TimeZoneUnknown = "basic.time_zone.unknown", Error;
    /// More tags than allowed.
    TagsTooMany { /** Most tags allowed. */ max: usize } = "basic.tags.too_many", Error;
    /// A tag key is not label-like.
    TagKeyInvalid = "basic.tags.key.invalid", Error;
    /// A tag key under a prefix the platform or an operator owns.
    TagKeyReserved = "basic.tags.key.reserved", Error;
    /// A tag value is not label-like.
    TagValueInvalid = "basic.tags.value.invalid", Error;
    /// The same tag key twice.
    TagDuplicate = "basic.tags.duplicate", Error;
    /// Tag validation is on and the tag is not maintained.
    TagNotMaintained = "basic.tags.not_maintained", Error;

    /// The catalog image does not exist in this cluster.
    ImageUnknown = "image.unknown", Error;
    /// The image address does not parse as an image reference.
    ImageAddressInvalid = "image.address.invalid", Error;
    /// A RayJob with a catalog image that has no Ray runtime.
    ImageRayMissing = "image.ray.missing", Error;
    /// A RayJob with a free image address: Ray cannot be verified.
    ImageRayUnverified = "image.ray.unverified", Warning;
    /// A RayJob image without the dashboard dependencies.
    ImageRayDashboardMissing = "image.ray_dashboard.missing", Info;
    /// A PyTorchJob with a catalog image that has no PyTorch.
    ImagePytorchMissing = "image.pytorch.missing", Warning;

    /// Env var name is not `[A-Za-z_][A-Za-z0-9_]*`.
    EnvNameInvalid = "env.name.invalid", Error;
    /// Env var name starts with `KUBERNETES_`.
    EnvNameReservedPrefix = "env.name.reserved_prefix", Error;
    /// The same env var name twice.
    EnvNameDuplicate = "env.name.duplicate", Error;
    /// A name the platform injects; the platform's value wins.
    EnvNamePlatformInjected = "env.name.platform_injected", Warning;
    /// Same name as a persistent env var; this task's value wins.
    EnvNameShadowsPersistent = "env.name.shadows_persistent", Info;
    /// A `TZ` env var other than the task's time zone: its pods run in the var's zone.
    EnvNameOverridesTimeZone { /** The task's time zone. */ zone: String } = "env.name.overrides_time_zone", Info;
    /// One value is over the per-value limit.
    EnvValueTooLong { /** Limit in bytes. */ max_bytes: usize } = "env.value.too_long", Error;
    /// All values together are over the limit.
    EnvValuesTooLong { /** Limit in bytes. */ max_bytes: usize, /** Bytes now. */ total: usize } = "env.values.too_long", Error;
    /// A value holds a NUL character.
    EnvValueNul = "env.value.nul", Error;
    /// A value that begins or ends with a blank (a non-breaking or full-width one too)
    /// or holds a zero-width character or a carriage return (a Windows line end): a
    /// token pasted so fails its login, unseen.
    EnvValueStrayBlank = "env.value.stray_blank", Warning;
    /// A value is the mask another user's hidden value is shown as (a clone of their
    /// task): the task would run with the mask, not the secret.
    EnvValueMasked = "env.value.masked", Error;

    /// The volume is not in this cluster.
    VolumeUnknown = "storage.volume.unknown", Error;
    /// The same volume at the same path twice.
    StorageDuplicate = "storage.duplicate", Error;
    /// An RWO volume on a task with more than one pod.
    StorageRwoMultiPod { /** Pods of the task. */ pods: u64 } = "storage.volume.rwo_multi_pod", Warning;
    /// No storage volume at all: outputs are lost when the task ends.
    StorageNone = "storage.none", Info;
    /// The dataset is not in this cluster.
    DatasetUnknown = "datasets.unknown", Error;
    /// The model is not in this cluster.
    ModelUnknown = "models.unknown", Error;
    /// Mount path is not absolute.
    MountPathNotAbsolute = "mount.path.not_absolute", Error;
    /// Mount path has `..`, `.`, `//` or a trailing `/`.
    MountPathNotNormalized = "mount.path.not_normalized", Error;
    /// Mount path is `/`.
    MountPathRoot = "mount.path.root", Error;
    /// Mount path has `:` or a control character.
    MountPathInvalidChars = "mount.path.invalid_chars", Error;
    /// A name of the mount path begins or ends with a blank (a space, a non-breaking or
    /// full-width one), or the path holds a zero-width character: pasted, it mounts the
    /// volume beside the path the job writes to, which lands on the container's disk.
    MountPathStrayBlank = "mount.path.stray_blank", Error;
    /// Mount path has a name over 255 bytes, or is over 4,095 bytes in all.
    MountPathTooLong = "mount.path.too_long", Error;
    /// Two mounts at one path.
    MountPathConflict { /** The other mount. */ other: String } = "mount.path.conflict", Error;
    /// One mount inside another.
    MountPathNested { /** The enclosing mount path. */ parent: String } = "mount.path.nested", Warning;
    /// Mount at or under `/proc`, `/sys` or `/dev`.
    MountPathSystem = "mount.path.system", Error;
    /// Mount hides the image's own files.
    MountPathShadowsImage { /** The image directory hidden. */ dir: String } = "mount.path.shadows_image", Warning;
    /// Mount outside `/volume` and `/mnt`.
    MountPathOutsideRecommended = "mount.path.outside_recommended", Info;
    /// Mount at `/tmp/ray` while RayJob shared storage takes it.
    MountPathRayReserved = "mount.path.ray_reserved", Error;
    /// Mount at `/root` or above while pod SSH writes its hostfiles there.
    MountPathHidesSshHostfile = "mount.path.hides_ssh_hostfile", Warning;
    /// Mount beneath a directory pod SSH mounts read-only, or a read-only mount above
    /// one: the runtime cannot make the inner mount's mount point, so the pod never starts.
    MountPathSshReadOnly {
        /** The directory pod SSH mounts. */ dir: String,
        /** Whether the mount is read-only and holds `dir` (else it lies inside `dir`). */ above: bool,
    } = "mount.path.ssh_read_only", Error;

    /// Command over the length limit.
    CommandTooLong { /** Limit in bytes. */ max_bytes: usize } = "command.too_long", Error;
    /// Command holding a NUL character: no process can be started with it.
    CommandNul = "command.nul", Error;
    /// `torchrun --nproc_per_node` differs from the GPUs of one replica.
    CommandNprocMismatch { /** Value written. */ written: u64, /** GPUs per replica. */ gpus: u64 } = "command.torchrun.nproc_per_node", Warning;
    /// `torchrun --nnodes` differs from the replica count.
    CommandNnodesMismatch { /** Value written. */ written: u64, /** Replicas. */ replicas: u64 } = "command.torchrun.nnodes", Warning;
    /// A multi-replica PyTorchJob whose command uses none of the injected variables.
    CommandDistributedEnvUnused = "command.distributed_env_unused", Warning;
    /// A character that came with a paste from a chat or a web page, which the shell
    /// reads as part of a word: a curly quote, a long dash or a blank other than a space
    /// or a tab outside quotes and comments, a carriage return anywhere.
    CommandPastedChar { /** Its line, from 1. */ line: u64, /** The character. */ found: String } = "command.pasted_char", Warning;

    /// The pool is not in this cluster.
    PoolUnknown = "compute.pool.unknown", Error;
    /// The pool does not serve the chosen resource kind.
    PoolKindMismatch = "compute.pool.kind_mismatch", Error;
    /// No pool of this cluster serves the resource kind.
    PoolNoneForKind = "compute.pool.none_for_kind", Error;
    /// Spot: no spec of this type is available in the current filter.
    SpotUnavailable = "compute.spot.unavailable", Error;
    /// Idle resources take no priority.
    IdlePriorityNotAllowed = "compute.idle.priority_not_allowed", Error;
    /// Idle resources take no guarantee.
    IdleGuaranteeNotAllowed = "compute.idle.guarantee_not_allowed", Error;
    /// Workers outside 0–1,024.
    WorkersOutOfRange { /** Most workers. */ max: u32 } = "compute.workers.out_of_range", Error;
    /// The spec is not in this cluster.
    SpecUnknown = "compute.spec.unknown", Error;
    /// The spec is not of the chosen instance type.
    SpecTypeMismatch { /** The chosen type. */ expected: InstanceType } = "compute.spec.type_mismatch", Error;
    /// No node of the pool can host the Ray head's spec. (A worker spec of the priority
    /// list no node hosts is `compute.gang.skipped` or `compute.gang.never_fits`, as the
    /// plan says of any spec that can never fit.)
    SpecNotInPool = "compute.spec.not_in_pool", Error;
    /// The same spec twice in the priority list.
    SpecDuplicate = "compute.specs.duplicate", Error;
    /// The priority list mixes GPU models.
    SpecsMixedGpuModels = "compute.specs.mixed_gpu_models", Warning;
    /// Units per node outside 1 and the spec's maximum.
    UnitsOutOfRange {
        /** Most units one node hosts; 0 when no chosen spec is known to bound them. */ max: u32,
        /** The chosen spec that bounds them (the first of the fewest); empty with `max` 0. */ spec: String,
    } = "compute.units_per_node.out_of_range", Error;
    /// The demand overflows the arithmetic.
    DemandOverflow = "compute.demand.overflow", Error;
    /// No quota at all for this kind, pool and spec.
    QuotaNone = "compute.quota.none", Error;
    /// Demand above the remaining quota in one dimension.
    QuotaExceeded { /** Dimension short. */ dimension: Dimension, /** Demand. */ requested: u64, /** Remaining quota. */ remaining: u64 } = "compute.quota.exceeded", Error;
    /// A spec of the priority list skipped for quota while another spec can be used.
    QuotaSkipped { /** The quota line's spec. */ spec: String, /** Each short dimension; empty when there is no quota at all. */ short: Vec<Shortfall> } = "compute.quota.skipped", Warning;
    /// A spec of the priority list skipped because it can never fit, while another can be used.
    GangSkipped { /** Why it can never fit. */ reason: NeverReason } = "compute.gang.skipped", Warning;
    /// A PyTorchJob's spec with Ray settings or a head spec: they are dropped on submit.
    TypeRayUnused = "basic.task_type.ray_unused", Info;
    /// A field the chosen resource kind does not use: it is dropped on submit.
    KindFieldUnused { /** The chosen kind. */ kind: ResourceKind } = "compute.kind.field_unused", Info;
    /// Demand above the pool's free amount: the task will queue.
    /// One finding for all short dimensions, so a task too large for the pool reads as one
    /// warning, not three.
    PoolAvailabilityExceeded { /** Each short dimension: demand, and free in the pool as `remaining`. */ short: Vec<Shortfall>, /** Whether `remaining` is idle capacity at the chosen stability or above (idle resources), not the pool's free capacity. */ idle: bool } = "compute.pool.availability_exceeded", Warning;
    /// Not all replicas can be placed now: the task will queue.
    GangWillQueue { /** Why. */ reason: QueueReason } = "compute.gang.will_queue", Warning;
    /// The replicas can never be placed at once.
    GangNeverFits { /** Why. */ reason: NeverReason } = "compute.gang.never_fits", Error;

    /// Max retries outside 1–100.
    MaxRetriesOutOfRange = "advanced.fault_tolerance.max_retries.out_of_range", Error;
    /// Metrics port outside 1–65535.
    MonitoringPortOutOfRange = "advanced.monitoring.port.out_of_range", Error;
    /// Metrics port is the master port.
    MonitoringPortIsMaster { /** The master port. */ port: u32 } = "advanced.monitoring.port.master", Error;
    /// Metrics port is one of Ray's own ports in a RayJob.
    MonitoringPortIsRay { /** The Ray port. */ port: u32 } = "advanced.monitoring.port.ray", Error;
    /// Metrics port 22 while pod SSH is on.
    MonitoringPortIsSsh = "advanced.monitoring.port.ssh", Error;
    /// Metrics path does not start with `/`.
    MonitoringPathInvalid = "advanced.monitoring.path.invalid", Error;
    /// Image-pull retries below −1.
    ImagePullRetriesOutOfRange = "advanced.image_pull_retries.out_of_range", Error;
    /// SSH on a task with one pod.
    SshSinglePod = "advanced.ssh.single_pod", Info;
    /// A threshold event without a positive threshold.
    AlertThresholdInvalid = "advanced.alerts.threshold.invalid", Error;
    /// A threshold on an event that takes none.
    AlertThresholdUnused = "advanced.alerts.threshold.unused", Warning;
    /// A target its channel refuses that has a space (or another blank) at its start or
    /// end: "not an email address" would not say why.
    AlertTargetSpaces = "advanced.alerts.target.spaces", Error;
    /// Email target is not an email address.
    AlertEmailInvalid = "advanced.alerts.target.email", Error;
    /// Webhook target is not an https URL.
    AlertUrlInvalid = "advanced.alerts.target.url", Error;
    /// A webhook target is the masked form others read it in (a clone of another
    /// user's task): alerts would go to the mask's path, not the owner's hook.
    AlertTargetMasked = "advanced.alerts.target.masked", Error;
    /// More alert subscriptions than allowed.
    AlertsTooMany { /** Most subscriptions allowed. */ max: usize } = "advanced.alerts.too_many", Error;
    /// A subscription that repeats an earlier one: the server fires it once.
    AlertDuplicate = "advanced.alerts.duplicate", Warning;

    /// Runtime env is not YAML.
    RuntimeEnvInvalidYaml {
        /** Line (from 1) where the reader stopped. */ line: usize,
        /** Column (from 1) where the reader stopped. */ column: usize,
        /** What is wrong there. */ fault: YamlFault,
        /** The line of the `[` or `{` still open there, for a flow fault. */ open_line: Option<usize>,
        /** The reader's own words (English). */ detail: String,
    } = "ray.runtime_env.invalid_yaml", Error;
    /// Runtime env over the length limit.
    RuntimeEnvTooLong { /** Limit in bytes. */ max_bytes: usize } = "ray.runtime_env.too_long", Error;
    /// Runtime env uses YAML aliases, which could expand without bound.
    RuntimeEnvAlias = "ray.runtime_env.alias", Error;
    /// Runtime env not read: the validator package was given no YAML reader.
    RuntimeEnvUnread = "ray.runtime_env.unread", Error;
    /// Runtime env has a YAML tag PyYAML's safe loader does not read.
    RuntimeEnvTag { /** The tag as written. */ tag: String } = "ray.runtime_env.tag", Error;
    /// Runtime env has a key that is not a string (or a list or mapping as a key).
    RuntimeEnvKeyNotString = "ray.runtime_env.key_not_string", Error;
    /// Runtime env is not a mapping.
    RuntimeEnvNotMapping = "ray.runtime_env.not_mapping", Error;
    /// Runtime env has a key Ray does not know.
    RuntimeEnvUnknownKey { /** The key. */ key: String } = "ray.runtime_env.unknown_key", Warning;
    /// Runtime env gives a top-level key twice: PyYAML keeps the last without a word.
    RuntimeEnvDuplicateKey { /** The key. */ key: String } = "ray.runtime_env.duplicate_key", Warning;
    /// `env_vars` does not map strings to strings.
    RuntimeEnvEnvVars = "ray.runtime_env.env_vars", Error;
    /// `pip` and `conda` together.
    RuntimeEnvPipAndConda = "ray.runtime_env.pip_and_conda", Error;
    /// The shared-storage volume is not RWX.
    SharedStorageNotRwx = "ray.shared_storage.not_rwx", Error;
    /// Debug keep time outside 1–86,400 seconds.
    DebugKeepOutOfRange = "ray.debug.keep_secs.out_of_range", Error;
    /// Autoscaling needs min ≤ workers ≤ max.
    AutoscalingRange { /** Minimum. */ min: u32, /** Workers. */ workers: u32, /** Maximum. */ max: u32 } = "ray.autoscaling.range", Error;
    /// Autoscaling whose maximum is 0: it can never add a worker.
    AutoscalingMaxZero = "ray.autoscaling.max_workers.zero", Warning;
}

impl IssueCode {
    /// The message in one language, rendered from the message catalog.
    pub fn message(&self, lang: Lang) -> String {
        let (key, args) = self.key_and_args(lang);
        text(lang, key, &args)
    }

    /// The catalog key of this finding's wording and the values its placeholders take.
    ///
    /// The key is the dotted code, or `code#variant` where some values read differently.
    /// Words inside the message (units, kinds, reasons) are rendered in `lang` here.
    fn key_and_args(&self, lang: Lang) -> (&'static str, Vec<(&'static str, String)>) {
        use IssueCode::*;
        let n = |v: &dyn ToString| v.to_string();
        let kib = |max_bytes: usize| vec![("kib", n(&(max_bytes / 1024)))];
        let args = match self {
            ValueInvalid { expected, found } => {
                return super::shape::key_and_args(expected, found, lang);
            }
            SpecVersionUnsupported { found, supported } => {
                vec![("found", n(found)), ("supported", n(supported))]
            }
            NamePrefixTooLong { max, len } => vec![("len", n(len)), ("max", n(max))],
            TagsTooMany { max } | AlertsTooMany { max } => vec![("max", n(max))],
            EnvValueTooLong { max_bytes }
            | CommandTooLong { max_bytes }
            | RuntimeEnvTooLong { max_bytes } => kib(*max_bytes),
            // In bytes: a total just over the limit, rounded to KiB, read as a whole KiB
            // over it ("257 KiB" for 256 KiB and one byte).
            EnvValuesTooLong { max_bytes, total } => vec![
                ("total", n(total)),
                ("max", n(max_bytes)),
                ("max_kib", n(&(max_bytes / 1024))),
            ],
            StorageRwoMultiPod { pods } => vec![("pods", n(pods))],
            MountPathConflict { other } => vec![("other", other.clone())],
            MountPathNested { parent } => vec![("parent", parent.clone())],
            MountPathShadowsImage { dir } => vec![("dir", dir.clone())],
            EnvNameOverridesTimeZone { zone } => vec![("zone", zone.clone())],
            MountPathSshReadOnly { dir, above: true } => {
                return ("mount.path.ssh_read_only#above", vec![("dir", dir.clone())]);
            }
            MountPathSshReadOnly { dir, .. } => vec![("dir", dir.clone())],
            CommandNprocMismatch { written, gpus } => {
                vec![("written", n(written)), ("gpus", n(gpus))]
            }
            CommandNnodesMismatch { written, replicas } => {
                vec![("written", n(written)), ("replicas", n(replicas))]
            }
            CommandPastedChar { line, found } => {
                let c = found.chars().next().unwrap_or_default();
                let code = format!("U+{:04X}", u32::from(c));
                let shown = if super::command::LOOKALIKES.contains(&c) {
                    format!("{found} ({code})")
                } else {
                    code
                };
                vec![("line", n(line)), ("char", shown)]
            }
            WorkersOutOfRange { max } => vec![("max", n(max))],
            SpecTypeMismatch { expected } => vec![(
                "type",
                match expected {
                    InstanceType::Gpu => "GPU",
                    InstanceType::Cpu => "CPU",
                }
                .to_owned(),
            )],
            // Below 1 with no known spec to bound it: only the lower bound is known.
            UnitsOutOfRange { max: 0, .. } => {
                return ("compute.units_per_node.out_of_range#no_max", vec![]);
            }
            // At most 1: "between 1 and 1" read as a fault, in either language.
            UnitsOutOfRange { max: 1, spec } => {
                return (
                    "compute.units_per_node.out_of_range#one",
                    vec![("spec", spec.clone())],
                );
            }
            UnitsOutOfRange { max, spec } => vec![("max", n(max)), ("spec", spec.clone())],
            QuotaExceeded {
                dimension,
                requested,
                remaining,
            } => vec![
                ("requested", n(requested)),
                ("unit", dimension.unit_for(lang, *requested)),
                ("remaining", n(remaining)),
                ("short", n(&(requested - remaining))),
            ],
            PoolAvailabilityExceeded { short, idle } => {
                // What is free carries its unit as the need does: "has 4, 48, 480" left
                // the reader to match them up (explorer).
                let amounts = |of: fn(&Shortfall) -> u64| {
                    let said: Vec<String> = short
                        .iter()
                        .map(|s| {
                            let args = [
                                ("amount", n(&of(s))),
                                ("unit", s.dimension.unit_for(lang, of(s))),
                            ];
                            text(lang, "quantity", &args)
                        })
                        .collect();
                    list(lang, &said)
                };
                let args = vec![
                    ("requested", amounts(|s| s.requested)),
                    ("remaining", amounts(|s| s.remaining)),
                ];
                if *idle {
                    return ("compute.pool.availability_exceeded#idle", args);
                }
                args
            }
            QuotaSkipped { spec, short } if short.is_empty() => {
                return (
                    "compute.quota.skipped#no_quota",
                    vec![("spec", spec.clone())],
                );
            }
            QuotaSkipped { spec, short } => {
                let items: Vec<String> = short
                    .iter()
                    .map(|s| {
                        let args = [
                            ("requested", n(&s.requested)),
                            ("unit", s.dimension.unit_for(lang, s.requested)),
                            ("remaining", n(&s.remaining)),
                            ("short", n(&s.requested.saturating_sub(s.remaining))),
                        ];
                        text(lang, "compute.quota.skipped.item", &args)
                    })
                    .collect();
                vec![
                    ("short", items.join(&text(lang, "list.sep", &[]))),
                    ("spec", spec.clone()),
                ]
            }
            GangSkipped { reason } | GangNeverFits { reason } => {
                vec![("reason", reason.message(lang))]
            }
            GangWillQueue { reason } => vec![("reason", reason.message(lang))],
            KindFieldUnused { kind } => {
                let key = match kind {
                    ResourceKind::Reserved => "resource_kind.reserved",
                    ResourceKind::OnDemand => "resource_kind.on_demand",
                    ResourceKind::Spot => "resource_kind.spot",
                    ResourceKind::Idle => "resource_kind.idle",
                };
                vec![("kind", text(lang, key, &[]))]
            }
            MonitoringPortIsMaster { port } => vec![("port", n(port))],
            MonitoringPortIsRay { port } => {
                let key = match port {
                    6379 => "ray_port.gcs",
                    8265 => "ray_port.dashboard",
                    10001 => "ray_port.client",
                    8080 => "ray_port.metrics_export",
                    52365 => "ray_port.dashboard_agent",
                    _ => "ray_port.own",
                };
                vec![("port", n(port)), ("name", text(lang, key, &[]))]
            }
            RuntimeEnvInvalidYaml {
                line,
                column,
                fault,
                open_line,
                detail,
            } => {
                let (open, close) = match fault {
                    YamlFault::FlowMapping => ("{", "}"),
                    _ => ("[", "]"),
                };
                let args = [
                    ("open_line", open_line.map(|l| n(&l)).unwrap_or_default()),
                    ("open", open.to_owned()),
                    ("close", close.to_owned()),
                    ("detail", detail.clone()),
                ];
                // Rare faults (an unknown escape, a reserved character, a value its tag
                // does not fit) quote the reader's English, said to be so: a message
                // each in every language is not worth its bytes in the validator package.
                let key = match fault {
                    YamlFault::FlowList | YamlFault::FlowMapping => {
                        "ray.runtime_env.invalid_yaml.flow"
                    }
                    YamlFault::Quote => "ray.runtime_env.invalid_yaml.quote",
                    YamlFault::Tab => "ray.runtime_env.invalid_yaml.tab",
                    YamlFault::Colon => "ray.runtime_env.invalid_yaml.colon",
                    YamlFault::Indent => "ray.runtime_env.invalid_yaml.indent",
                    YamlFault::MissingKey => "ray.runtime_env.invalid_yaml.missing_key",
                    YamlFault::Other => "ray.runtime_env.invalid_yaml.other",
                };
                let reason = text(lang, key, &args);
                vec![("line", n(line)), ("column", n(column)), ("reason", reason)]
            }
            RuntimeEnvTag { tag } => vec![("tag", tag.clone())],
            RuntimeEnvUnknownKey { key } | RuntimeEnvDuplicateKey { key } => {
                vec![("key", key.clone())]
            }
            AutoscalingRange { min, workers, max } => {
                vec![("min", n(min)), ("workers", n(workers)), ("max", n(max))]
            }
            ValueRequired
            | RegionUnknown
            | ClusterUnknown
            | ProjectGroupNotMember
            | NamePrefixInvalidChars
            | NamePrefixBadStart
            | NamePrefixBadEnd
            | TimeZoneUnknown
            | TagKeyInvalid
            | TagKeyReserved
            | TagValueInvalid
            | TagDuplicate
            | TagNotMaintained
            | ImageUnknown
            | ImageAddressInvalid
            | ImageRayMissing
            | ImageRayUnverified
            | ImageRayDashboardMissing
            | ImagePytorchMissing
            | EnvNameInvalid
            | EnvNameReservedPrefix
            | EnvNameDuplicate
            | EnvNamePlatformInjected
            | EnvNameShadowsPersistent
            | EnvValueNul
            | EnvValueStrayBlank
            | EnvValueMasked
            | VolumeUnknown
            | StorageDuplicate
            | StorageNone
            | DatasetUnknown
            | ModelUnknown
            | MountPathNotAbsolute
            | MountPathNotNormalized
            | MountPathRoot
            | MountPathInvalidChars
            | MountPathStrayBlank
            | MountPathTooLong
            | MountPathSystem
            | MountPathOutsideRecommended
            | MountPathRayReserved
            | MountPathHidesSshHostfile
            | CommandDistributedEnvUnused
            | CommandNul
            | PoolUnknown
            | PoolKindMismatch
            | PoolNoneForKind
            | SpotUnavailable
            | IdlePriorityNotAllowed
            | IdleGuaranteeNotAllowed
            | SpecUnknown
            | SpecNotInPool
            | TypeRayUnused
            | SpecDuplicate
            | SpecsMixedGpuModels
            | DemandOverflow
            | QuotaNone
            | MaxRetriesOutOfRange
            | MonitoringPortOutOfRange
            | MonitoringPortIsSsh
            | MonitoringPathInvalid
            | ImagePullRetriesOutOfRange
            | SshSinglePod
            | AlertThresholdInvalid
            | AlertThresholdUnused
            | AlertTargetSpaces
            | AlertEmailInvalid
            | AlertUrlInvalid
            | AlertTargetMasked
            | AlertDuplicate
            | RuntimeEnvAlias
            | RuntimeEnvUnread
            | RuntimeEnvKeyNotString
            | RuntimeEnvNotMapping
            | RuntimeEnvEnvVars
            | RuntimeEnvPipAndConda
            | SharedStorageNotRwx
            | AutoscalingMaxZero
            | DebugKeepOutOfRange => vec![],
        };
        (self.code(), args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::{findings_only_has_key, has_key, languages};
    use crate::path::FieldPath;
    use crate::resources::Dimension;
    use std::collections::BTreeSet;

    /// One value of every code: unit variants read from their code alone, the others
    /// built here, with each wording variant and each reason.
    fn samples() -> Vec<IssueCode> {
        use IssueCode::*;
        let short = |dimension, requested, remaining| Shortfall {
            dimension,
            requested,
            remaining,
        };
        let shorts = vec![
            short(Dimension::Gpu, 8, 6),
            short(Dimension::MemoryGib, 960, 720),
        ];
        let queue = [
            QueueReason::NoNodeHostsOne {
                dimension: Dimension::Gpu,
                largest_free: 4,
                need: 8,
            },
            QueueReason::NotEnoughAtOnce {
                placeable: 2,
                replicas: 3,
            },
            QueueReason::HeadHasNoRoom {
                dimension: Dimension::Vcpu,
                largest_free: 4,
                need: 8,
            },
            QueueReason::NoIdleOffer {
                spec: "cpu-8c".into(),
            },
        ];
        let never = [
            NeverReason::NoMatchingNode {
                gpu_model: Some("H100".into()),
            },
            NeverReason::NoMatchingNode { gpu_model: None },
            NeverReason::ReplicaTooLarge {
                dimension: Dimension::MemoryGib,
                largest_total: 512,
                need: 960,
            },
            NeverReason::HeadTooLarge {
                dimension: Dimension::Gpu,
                largest_total: 8,
                need: 16,
            },
            NeverReason::PoolTooSmall {
                capacity: 2,
                replicas: 3,
            },
        ];
        let mut out: Vec<IssueCode> = IssueCode::ALL
            .iter()
            .filter_map(|code| serde_json::from_value(serde_json::json!({ "code": code })).ok())
            .collect();
        out.extend([
            ValueInvalid {
                expected: Expected::WholeNumber,
                found: Some(Found::Null),
            },
            SpecVersionUnsupported {
                found: 2,
                supported: 1,
            },
            NamePrefixTooLong { max: 40, len: 50 },
            TagsTooMany { max: 20 },
            AlertsTooMany { max: 20 },
            EnvValueTooLong { max_bytes: 32768 },
            EnvValuesTooLong {
                max_bytes: 262_144,
                total: 300_000,
            },
            StorageRwoMultiPod { pods: 3 },
            MountPathConflict {
                other: "data".into(),
            },
            MountPathNested {
                parent: "/mnt".into(),
            },
            MountPathShadowsImage { dir: "/opt".into() },
            EnvNameOverridesTimeZone {
                zone: "Asia/Shanghai".into(),
            },
            MountPathSshReadOnly {
                dir: "/etc/berth/ssh".into(),
                above: false,
            },
            MountPathSshReadOnly {
                dir: "/etc/berth/ssh".into(),
                above: true,
            },
            CommandTooLong { max_bytes: 65536 },
            CommandNul,
            CommandNprocMismatch {
                written: 4,
                gpus: 8,
            },
            CommandNnodesMismatch {
                written: 2,
                replicas: 3,
            },
            CommandPastedChar {
                line: 2,
                found: "\u{201c}".into(),
            },
            WorkersOutOfRange { max: 1024 },
            SpecTypeMismatch {
                expected: InstanceType::Gpu,
            },
            SpecTypeMismatch {
                expected: InstanceType::Cpu,
            },
            UnitsOutOfRange {
                max: 8,
                spec: "a100-1g".into(),
            },
            UnitsOutOfRange {
                max: 0,
                spec: String::new(),
            },
            QuotaExceeded {
                dimension: Dimension::Vcpu,
                requested: 128,
                remaining: 96,
            },
            QuotaSkipped {
                spec: "gpu-8x".into(),
                short: vec![],
            },
            QuotaSkipped {
                spec: "gpu-8x".into(),
                short: shorts.clone(),
            },
            PoolAvailabilityExceeded {
                short: shorts,
                idle: false,
            },
            MonitoringPortIsMaster { port: 23456 },
            RuntimeEnvInvalidYaml {
                line: 2,
                column: 9,
                fault: YamlFault::FlowList,
                open_line: Some(1),
                detail: "illegal placement of ':' indicator".into(),
            },
            RuntimeEnvInvalidYaml {
                line: 1,
                column: 5,
                fault: YamlFault::Other,
                open_line: None,
                detail: "'x' is not an integer".into(),
            },
            RuntimeEnvTooLong { max_bytes: 65536 },
            RuntimeEnvTag {
                tag: "!!python/name".into(),
            },
            RuntimeEnvUnknownKey { key: "pips".into() },
            RuntimeEnvDuplicateKey { key: "pip".into() },
            AutoscalingRange {
                min: 2,
                workers: 1,
                max: 4,
            },
        ]);
        for kind in [
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
            ResourceKind::Idle,
        ] {
            out.push(KindFieldUnused { kind });
        }
        for port in [6379, 8265, 10001, 8080, 52365, 1] {
            out.push(MonitoringPortIsRay { port });
        }
        for reason in queue {
            out.push(GangWillQueue { reason });
        }
        for reason in never {
            out.push(GangSkipped {
                reason: reason.clone(),
            });
            out.push(GangNeverFits { reason });
        }
        out
    }

    #[test]
    fn every_finding_reads_back_from_its_wire_json() {
        use crate::validate::{Issue, LocalizedIssue};
        for sample in samples() {
            let code: IssueCode =
                serde_json::from_value(serde_json::to_value(&sample).unwrap()).unwrap();
            assert_eq!(code, sample);
            let issue = Issue::new(FieldPath::root().key("compute").index(0), sample);
            let wire = serde_json::to_string(&issue).unwrap();
            assert_eq!(
                serde_json::from_str::<Issue>(&wire).unwrap(),
                issue,
                "{wire}"
            );
            for lang in languages() {
                let localized = issue.localized(lang);
                let wire = serde_json::to_string(&localized).unwrap();
                let read: LocalizedIssue = serde_json::from_str(&wire).unwrap();
                assert_eq!(read, localized, "{wire}");
                // The console's reader of the API's answers reads it the same.
                let read: LocalizedIssue = crate::read::from_json(&wire).unwrap();
                assert_eq!(read, localized, "{wire}");
                // A localized finding read as a plain one drops only its message.
                assert_eq!(serde_json::from_str::<Issue>(&wire).unwrap(), issue);
            }
        }
    }

    /// The console's reader of findings (`read_wire`) against the server's
    /// (`from_wire`), on every sample and on params of the wrong shape.
    #[test]
    fn both_readers_of_a_code_and_its_params_agree() {
        let both = |code: &str, params: &str| {
            let value: serde_json::Value = serde_json::from_str(params).unwrap();
            let serde = IssueCode::from_wire(code, Some(value)).map_err(|_| ());
            let mut tape = serde_json::from_str::<crate::read::Tape<'_>>(params).unwrap();
            let read = IssueCode::read_wire(code, Some(tape.json())).map_err(|_| ());
            assert_eq!(read, serde, "{code} {params}");
            read
        };
        for sample in samples() {
            let wire = serde_json::to_value(&sample).unwrap();
            let params = wire
                .get("params")
                .map_or("null".to_owned(), ToString::to_string);
            assert_eq!(both(sample.code(), &params), Ok(sample));
        }
        // Whether each reads: a code without values takes no params, a code with values
        // an object of them (other fields ignored), a known code only.
        for (code, params, reads) in [
            ("basic.name_prefix.bad_end", "{}", false),
            ("basic.name_prefix.bad_end", "{\"max\": 1}", false),
            ("basic.name_prefix.too_long", "null", false),
            ("basic.name_prefix.too_long", "[40, 45]", false),
            ("basic.name_prefix.too_long", "{\"max\": 40}", false),
            (
                "basic.name_prefix.too_long",
                "{\"max\": \"40\", \"len\": 45}",
                false,
            ),
            (
                "basic.name_prefix.too_long",
                "{\"max\": 40, \"len\": 45, \"new\": 1}",
                true,
            ),
            ("no.such.code", "null", false),
        ] {
            assert_eq!(both(code, params).is_ok(), reads, "{code} {params}");
        }
        let mut tape = serde_json::from_str::<crate::read::Tape<'_>>("{\"max\": 1}").unwrap();
        let error = IssueCode::read_wire("basic.name_prefix.too_long", Some(tape.json()));
        assert_eq!(
            error.unwrap_err().to_string(),
            "params: missing field `len`"
        );
    }

    #[test]
    fn a_finding_on_the_wire_is_its_fields_beside_code_and_params() {
        use crate::validate::Issue;
        let read = |json: &str| serde_json::from_str::<Issue>(json).map_err(|e| e.to_string());
        let issue = read(
            r#"{"path": "compute.workers", "code": "compute.workers.out_of_range",
                "params": {"max": 8}, "severity": "error", "other": 1}"#,
        )
        .unwrap();
        assert_eq!(issue.code, IssueCode::WorkersOutOfRange { max: 8 });
        assert_eq!(issue.path.to_string(), "compute.workers");
        let unit = r#"{"path": "", "code": "value.required", "severity": "error"}"#;
        assert_eq!(read(unit).unwrap().code, IssueCode::ValueRequired);
        let null = r#"{"path": "", "code": "value.required", "params": null, "severity": "error"}"#;
        assert_eq!(read(null).unwrap().code, IssueCode::ValueRequired);
        // An absent option is none, as serde's derive reads it.
        let json = r#"{"path": "", "code": "value.invalid", "params": {"expected": {"kind": "text"}},
                       "severity": "error"}"#;
        let code = read(json).unwrap().code;
        assert_eq!(
            code,
            IssueCode::ValueInvalid {
                expected: Expected::Text,
                found: None
            }
        );
        let refused = [
            (
                r#"{"path": "", "code": "no.such", "severity": "error"}"#,
                "unknown variant `no.such`",
            ),
            (
                r#"{"path": "", "code": "compute.workers.out_of_range", "severity": "error"}"#,
                "missing field `params`",
            ),
            (
                r#"{"path": "", "code": "compute.workers.out_of_range", "params": {}, "severity": "error"}"#,
                "missing field `max`",
            ),
            (
                r#"{"path": "", "code": "compute.workers.out_of_range", "params": {"max": "8"}, "severity": "error"}"#,
                "expected u32",
            ),
            (
                r#"{"path": "", "code": "compute.workers.out_of_range", "params": [8], "severity": "error"}"#,
                "invalid type: sequence",
            ),
            (
                r#"{"path": "", "code": "value.required", "params": {"max": 8}, "severity": "error"}"#,
                "invalid type: map",
            ),
            (
                r#"{"path": "", "code": "value.required"}"#,
                "missing field `severity`",
            ),
        ];
        for (json, expected) in refused {
            let err = read(json).unwrap_err();
            assert!(err.contains(expected), "{json}: {err}");
        }
    }

    #[test]
    fn every_code_has_a_sample() {
        let sampled: BTreeSet<&str> = samples().iter().map(IssueCode::code).collect();
        let all: BTreeSet<&str> = IssueCode::ALL.iter().copied().collect();
        assert_eq!(sampled, all, "add a sample for each new code with values");
    }

    #[test]
    fn every_code_renders_from_the_catalog_in_every_language() {
        for code in IssueCode::ALL {
            for lang in languages() {
                assert!(has_key(lang, code), "{lang:?} has no message for {code}");
                assert!(
                    findings_only_has_key(lang, code),
                    "{lang:?}: no {code} in the package"
                );
            }
        }
        for sample in samples() {
            for lang in languages() {
                let (key, _) = sample.key_and_args(lang);
                assert!(has_key(lang, key), "{lang:?} has no message for {key}");
                assert!(
                    findings_only_has_key(lang, key),
                    "{lang:?}: the validator package would lack {key}"
                );
                let text = sample.message(lang);
                assert!(
                    !text.contains('{') && !text.contains('}'),
                    "{lang:?} {key}: placeholder left in {text:?}"
                );
                assert!(!text.is_empty(), "{lang:?} {key}: empty message");
            }
        }
    }

    #[test]
    fn wordings_that_tests_elsewhere_do_not_pin_stay_as_they_were() {
        let code = IssueCode::QuotaSkipped {
            spec: "gpu-8x".into(),
            short: vec![Shortfall {
                dimension: Dimension::Gpu,
                requested: 8,
                remaining: 6,
            }],
        };
        assert_eq!(
            code.message(Lang::En),
            "skipped: needs 8 GPUs (6 left, 2 short) of your gpu-8x quota; another spec of the list is used"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "已跳过：需要 gpu-8x 配额 8 张 GPU（剩余 6，缺少 2），将使用列表中的其他规格"
        );
        // Units below 1 with no known spec to bound them: only the lower bound is said.
        let code = IssueCode::UnitsOutOfRange {
            max: 0,
            spec: String::new(),
        };
        assert_eq!(code.message(Lang::En), "must be a whole number, at least 1");
        assert_eq!(code.message(Lang::Zh), "必须是不小于 1 的整数");
        let code = IssueCode::UnitsOutOfRange {
            max: 8,
            spec: "a100-1g".into(),
        };
        assert_eq!(
            code.message(Lang::En),
            "must be a whole number between 1 and 8, the most a100-1g takes per node"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "必须是 1 到 8 之间的整数（规格 a100-1g 单节点最多 8）"
        );
        let code = IssueCode::EnvValuesTooLong {
            max_bytes: 262_144,
            total: 262_145,
        };
        assert_eq!(
            code.message(Lang::En),
            "all values together are 262145 bytes; at most 262144 (256 KiB)"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "所有变量值合计 262145 字节，最多 262144 字节（256 KiB）"
        );
        let code = IssueCode::MonitoringPortIsRay { port: 8080 };
        assert_eq!(code.message(Lang::Zh), "8080 是 Ray 的指标导出端口，请更换");
        let code = IssueCode::MonitoringPortIsRay { port: 6379 };
        assert_eq!(code.message(Lang::Zh), "6379 是 Ray 的 GCS 端口，请更换");
        let code = IssueCode::KindFieldUnused {
            kind: ResourceKind::Idle,
        };
        assert_eq!(code.message(Lang::Zh), "闲时资源不使用此项，提交时将被移除");
        let code = IssueCode::GangNeverFits {
            reason: NeverReason::NoMatchingNode { gpu_model: None },
        };
        assert_eq!(
            code.message(Lang::En),
            "can never start: no node of the pool is a CPU node"
        );
    }

    #[test]
    fn a_runtime_env_syntax_error_says_where_and_why_in_the_readers_language() {
        // `pip: [a` then `env_vars:`: the parser stops on line 2, the `[` of line 1 is
        // what was left open, and zh reads no English (the explorer's report).
        let code = IssueCode::RuntimeEnvInvalidYaml {
            line: 2,
            column: 9,
            fault: YamlFault::FlowList,
            open_line: Some(1),
            detail: "illegal placement of ':' indicator".into(),
        };
        assert_eq!(
            code.message(Lang::En),
            "is not valid YAML (line 2, column 9): inside the '[' of line 1, a ',' or ']' is \
             expected here"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "不是有效的 YAML（第 2 行第 9 列）：在第 1 行的“[”之内，此处应为“,”或“]”"
        );
        let code = IssueCode::RuntimeEnvInvalidYaml {
            line: 1,
            column: 2,
            fault: YamlFault::FlowMapping,
            open_line: Some(1),
            detail: String::new(),
        };
        assert!(code.message(Lang::En).contains("inside the '{' of line 1"));
        assert!(code.message(Lang::En).contains("or '}' is expected"));
        // The reader's own words, rare as they are, are said to be its in zh.
        let code = IssueCode::RuntimeEnvInvalidYaml {
            line: 1,
            column: 10,
            fault: YamlFault::Other,
            open_line: None,
            detail: "'x' is not an integer".into(),
        };
        assert_eq!(
            code.message(Lang::Zh),
            "不是有效的 YAML（第 1 行第 10 列）：YAML 语法错误（解析器原文：'x' is not an integer）"
        );
        // Every fault has words in every language, not the key.
        for fault in YamlFault::ALL {
            let code = IssueCode::RuntimeEnvInvalidYaml {
                line: 1,
                column: 1,
                fault,
                open_line: Some(1),
                detail: "the parser's words".into(),
            };
            for lang in languages() {
                let text = code.message(lang);
                assert!(!text.contains("invalid_yaml"), "{lang:?} {fault:?}: {text}");
            }
        }
    }

    #[test]
    fn a_pool_too_small_in_three_dimensions_reads_as_one_sentence_each_amount_with_its_unit() {
        let short = |dimension, requested, remaining| Shortfall {
            dimension,
            requested,
            remaining,
        };
        let code = IssueCode::PoolAvailabilityExceeded {
            short: vec![
                short(Dimension::Gpu, 8, 6),
                short(Dimension::Vcpu, 128, 96),
                short(Dimension::MemoryGib, 960, 720),
            ],
            idle: false,
        };
        assert_eq!(
            code.message(Lang::En),
            "needs 8 GPUs, 128 vCPUs and 960 GiB of memory but the pool has 6 GPUs, 96 vCPUs and 720 GiB of memory free now; the task will queue"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "需要 8 张 GPU、128 个 vCPU、960 GiB 内存，资源池当前可用 6 张 GPU、96 个 vCPU、720 GiB 内存，任务将排队"
        );
    }
}
