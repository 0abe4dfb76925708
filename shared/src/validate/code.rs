//! [`IssueCode`]: one variant per rule, its frozen dotted code, severity and messages.
//!
//! Messages are short phrases that do not repeat the field's label: the console shows
//! them under the field, and the API pairs them with the path.

use super::issue::{Lang, Severity};
use super::shape::{Expected, Found};
use crate::quota::{NeverReason, QueueReason, Shortfall};
use crate::resources::Dimension;
use crate::task::InstanceType;
use crate::vocab::ResourceKind;
use serde::{Deserialize, Serialize};

macro_rules! issue_codes {
    ($( $(#[$doc:meta])* $variant:ident $({ $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? })? = $code:literal, $sev:ident; )*) => {
        /// The rule a finding breaks, with the values its message needs.
        ///
        /// On the wire: `{"code": "env.name.reserved_prefix", "params": {...}}`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        }
    };
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
    /// One value is over the per-value limit.
    EnvValueTooLong { /** Limit in bytes. */ max_bytes: usize } = "env.value.too_long", Error;
    /// All values together are over the limit.
    EnvValuesTooLong { /** Limit in bytes. */ max_bytes: usize, /** Bytes now. */ total: usize } = "env.values.too_long", Error;
    /// A value holds a NUL character.
    EnvValueNul = "env.value.nul", Error;

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

    /// Command over the length limit.
    CommandTooLong { /** Limit in bytes. */ max_bytes: usize } = "command.too_long", Error;
    /// `torchrun --nproc_per_node` differs from the GPUs of one replica.
    CommandNprocMismatch { /** Value written. */ written: u64, /** GPUs per replica. */ gpus: u64 } = "command.torchrun.nproc_per_node", Warning;
    /// `torchrun --nnodes` differs from the replica count.
    CommandNnodesMismatch { /** Value written. */ written: u64, /** Replicas. */ replicas: u64 } = "command.torchrun.nnodes", Warning;
    /// A multi-replica PyTorchJob whose command uses none of the injected variables.
    CommandDistributedEnvUnused = "command.distributed_env_unused", Warning;

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
    /// No node of the pool can host the spec.
    SpecNotInPool = "compute.spec.not_in_pool", Error;
    /// The same spec twice in the priority list.
    SpecDuplicate = "compute.specs.duplicate", Error;
    /// The priority list mixes GPU models.
    SpecsMixedGpuModels = "compute.specs.mixed_gpu_models", Warning;
    /// Units per node outside 1 and the spec's maximum.
    UnitsOutOfRange { /** Most units one node hosts. */ max: u32 } = "compute.units_per_node.out_of_range", Error;
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
    /// A field the chosen resource kind does not use: it is dropped on submit.
    KindFieldUnused { /** The chosen kind. */ kind: ResourceKind } = "compute.kind.field_unused", Info;
    /// Demand above the pool's free amount: the task will queue.
    /// One finding for all short dimensions, so a task too large for the pool reads as one
    /// warning, not three.
    PoolAvailabilityExceeded { /** Each short dimension: demand, and free in the pool as `remaining`. */ short: Vec<Shortfall> } = "compute.pool.availability_exceeded", Warning;
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
    /// Email target is not an email address.
    AlertEmailInvalid = "advanced.alerts.target.email", Error;
    /// Webhook target is not an https URL.
    AlertUrlInvalid = "advanced.alerts.target.url", Error;

    /// Runtime env is not YAML.
    RuntimeEnvInvalidYaml { /** Parser message. */ detail: String } = "ray.runtime_env.invalid_yaml", Error;
    /// Runtime env over the length limit.
    RuntimeEnvTooLong { /** Limit in bytes. */ max_bytes: usize } = "ray.runtime_env.too_long", Error;
    /// Runtime env uses YAML aliases, which could expand without bound.
    RuntimeEnvAlias = "ray.runtime_env.alias", Error;
    /// Runtime env has a YAML tag PyYAML's safe loader does not read.
    RuntimeEnvTag { /** The tag as written. */ tag: String } = "ray.runtime_env.tag", Error;
    /// Runtime env has a key that is not a string (or a list or mapping as a key).
    RuntimeEnvKeyNotString = "ray.runtime_env.key_not_string", Error;
    /// Runtime env is not a mapping.
    RuntimeEnvNotMapping = "ray.runtime_env.not_mapping", Error;
    /// Runtime env has a key Ray does not know.
    RuntimeEnvUnknownKey { /** The key. */ key: String } = "ray.runtime_env.unknown_key", Warning;
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
}

/// "is longer than N KiB", shared by every length limit.
fn too_long(max_bytes: usize) -> (String, String) {
    let kib = max_bytes / 1024;
    (
        format!("is longer than {kib} KiB"),
        format!("超过 {kib} KiB"),
    )
}

impl IssueCode {
    /// The message in one language.
    pub fn message(&self, lang: Lang) -> String {
        let (en, zh) = self.texts();
        match lang {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    fn texts(&self) -> (String, String) {
        use IssueCode::*;
        let s = |en: &str, zh: &str| (en.to_owned(), zh.to_owned());
        match self {
            ValueInvalid { expected, found } => (
                super::shape::message(expected, found, Lang::En),
                super::shape::message(expected, found, Lang::Zh),
            ),
            ValueRequired => s("is required", "必填"),
            SpecVersionUnsupported { found, supported } => (
                format!("spec version {found} is not supported; use version {supported}"),
                format!("不支持任务规格版本 {found}，请使用版本 {supported}"),
            ),
            RegionUnknown => s(
                "is not a region you can use; pick one from the list",
                "不是可用的区域，请从列表中选择",
            ),
            ClusterUnknown => s(
                "is not a cluster of the chosen region; pick one from the list",
                "不属于所选区域，请从列表中选择集群",
            ),
            ProjectGroupNotMember => s(
                "you are not a member of this project group; pick one of yours",
                "您不是该项目组成员，请选择您所在的项目组",
            ),
            NamePrefixInvalidChars => s(
                "use only lowercase letters, digits and '-'",
                "只能使用小写字母、数字和中划线",
            ),
            NamePrefixBadStart => s("must start with a lowercase letter", "必须以小写字母开头"),
            NamePrefixBadEnd => s("must end with a letter or digit", "必须以字母或数字结尾"),
            NamePrefixTooLong { max, len } => (
                format!(
                    "is {len} characters; at most {max} fit for this task type and replica count"
                ),
                format!("当前 {len} 个字符，此任务类型和副本数下最多 {max} 个字符"),
            ),
            TimeZoneUnknown => s("is not a time zone in the list", "不是列表中的时区"),
            TagsTooMany { max } => (
                format!("at most {max} tags; remove some"),
                format!("最多 {max} 个标签，请删除多余标签"),
            ),
            TagKeyInvalid => s(
                "use 1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
                "请使用 1–63 个字母、数字、'-'、'_' 或 '.'，并以字母或数字开头和结尾",
            ),
            TagKeyReserved => s(
                "this prefix belongs to the platform or a scheduler; use your own prefix or none",
                "该前缀为平台或调度组件保留，请使用自己的前缀或不加前缀",
            ),
            TagValueInvalid => s(
                "use at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit",
                "最多 63 个字母、数字、'-'、'_' 或 '.'，并以字母或数字开头和结尾",
            ),
            TagDuplicate => s(
                "this tag key is already used; keep one",
                "标签键重复，请只保留一个",
            ),
            TagNotMaintained => s(
                "tag validation is on: choose one of the maintained tags",
                "已开启标签验证，请选择已维护的标签",
            ),
            ImageUnknown => s(
                "is not an image of this cluster; pick one from the list",
                "不是该集群中的镜像，请从列表中选择",
            ),
            ImageAddressInvalid => s(
                "is not an image reference like registry/repo:tag or registry/repo@sha256:…",
                "不是有效的镜像地址，格式如 registry/repo:tag 或 registry/repo@sha256:…",
            ),
            ImageRayMissing => s(
                "has no Ray runtime; a RayJob needs a Ray image",
                "不包含 Ray 运行环境，RayJob 需要使用 Ray 镜像",
            ),
            ImageRayUnverified => s(
                "cannot verify the Ray runtime of an image address; make sure it has Ray",
                "无法校验镜像地址中的 Ray 运行环境，请确认镜像包含 Ray",
            ),
            ImageRayDashboardMissing => s(
                "lacks the Ray Dashboard dependencies; the dashboard will be limited",
                "镜像缺少 Ray Dashboard 依赖，Dashboard 功能将受限",
            ),
            ImagePytorchMissing => s(
                "has no PyTorch; a PyTorchJob needs a PyTorch image",
                "不包含 PyTorch，PyTorchJob 需要使用 PyTorch 镜像",
            ),
            EnvNameInvalid => s(
                "use letters, digits and '_', not starting with a digit",
                "只能包含字母、数字和下划线，且不能以数字开头",
            ),
            EnvNameReservedPrefix => {
                s("must not start with KUBERNETES_", "不能以 KUBERNETES_ 开头")
            }
            EnvNameDuplicate => s(
                "is already defined above; keep one",
                "与上方的环境变量重名，请只保留一个",
            ),
            EnvNamePlatformInjected => s(
                "the platform sets this variable; its value replaces yours",
                "平台会注入该变量，以平台的值为准",
            ),
            EnvNameShadowsPersistent => s(
                "also a persistent env var; this task's value wins",
                "与持久环境变量同名，以当前任务配置为准",
            ),
            EnvValueTooLong { max_bytes } => too_long(*max_bytes),
            EnvValuesTooLong { max_bytes, total } => (
                format!(
                    "all values together are {} KiB; at most {} KiB",
                    total.div_ceil(1024),
                    max_bytes / 1024
                ),
                format!(
                    "所有变量值合计 {} KiB，最多 {} KiB",
                    total.div_ceil(1024),
                    max_bytes / 1024
                ),
            ),
            EnvValueNul => s("holds a NUL character; remove it", "包含 NUL 字符，请删除"),
            VolumeUnknown => s(
                "is not a volume of this cluster; pick one from the list",
                "不是该集群中的存储，请从列表中选择",
            ),
            StorageDuplicate => s(
                "this volume is already mounted at this path; remove one",
                "同一存储卷在同一挂载路径只能挂载一次，请删除重复项",
            ),
            StorageRwoMultiPod { pods } => (
                format!(
                    "attaches to one node only (RWO) but the task has {pods} pods; use an RWX volume"
                ),
                format!("该存储仅支持单节点挂载（RWO），任务有 {pods} 个 Pod，请使用 RWX 存储"),
            ),
            StorageNone => s(
                "no volume: the local disk is lost when the task ends; mount one for outputs and checkpoints",
                "未挂载存储：任务结束后本地磁盘数据将丢失，请挂载存储保存输出和检查点",
            ),
            DatasetUnknown => s(
                "is not a dataset of this cluster; pick one from the list",
                "不是该集群中的数据集，请从列表中选择",
            ),
            ModelUnknown => s(
                "is not a model of this cluster; pick one from the list",
                "不是该集群中的模型，请从列表中选择",
            ),
            MountPathNotAbsolute => s(
                "must be an absolute path starting with '/'",
                "必须是以 / 开头的绝对路径",
            ),
            MountPathNotNormalized => s(
                "must not contain '..', '.', '//' or end with '/'",
                "不能包含 ..、.、// 或以 / 结尾",
            ),
            MountPathRoot => s("cannot mount at '/'", "不能挂载到根目录 /"),
            MountPathInvalidChars => s(
                "must not contain ':' or control characters",
                "不能包含 : 或控制字符",
            ),
            MountPathConflict { other } => (
                format!("{other} is mounted at the same path; choose another path"),
                format!("与 {other} 的挂载路径相同，请更换路径"),
            ),
            MountPathNested { parent } => (
                format!("lies inside the mount at {parent}; one hides part of the other"),
                format!("位于 {parent} 挂载目录之内，两者会互相遮盖"),
            ),
            MountPathSystem => s(
                "cannot mount over /proc, /sys or /dev",
                "不能挂载到 /proc、/sys 或 /dev",
            ),
            MountPathShadowsImage { dir } => (
                format!("hides the image's files under {dir}; prefer /volume or /mnt"),
                format!("会覆盖镜像 {dir} 下的文件，建议使用 /volume 或 /mnt 开头的目录"),
            ),
            MountPathOutsideRecommended => s(
                "paths under /volume or /mnt are recommended",
                "建议使用 /volume、/mnt 等开头的独立目录",
            ),
            MountPathRayReserved => s(
                "/tmp/ray is taken by the RayJob shared storage",
                "/tmp/ray 已被 RayJob 共享存储占用",
            ),
            MountPathHidesSshHostfile => s(
                "hides /root/hostfile that pod SSH writes; prefer /volume or /mnt",
                "会覆盖 Pod 间免密登录写入的 /root/hostfile，建议使用 /volume 或 /mnt 开头的目录",
            ),
            CommandTooLong { max_bytes } => too_long(*max_bytes),
            CommandNprocMismatch { written, gpus } => (
                format!("--nproc_per_node is {written} but one replica has {gpus} GPUs"),
                format!("--nproc_per_node 为 {written}，但单个副本有 {gpus} 张 GPU"),
            ),
            CommandNnodesMismatch { written, replicas } => (
                format!(
                    "--nnodes is {written} but the task has {replicas} replicas; use \"$WORLD_SIZE\""
                ),
                format!(
                    "--nnodes 为 {written}，但任务有 {replicas} 个副本，建议使用 \"$WORLD_SIZE\""
                ),
            ),
            CommandDistributedEnvUnused => s(
                "uses none of MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK; every replica may train alone",
                "未使用 MASTER_ADDR、MASTER_PORT、WORLD_SIZE、RANK，各副本可能各自独立训练",
            ),
            PoolUnknown => s(
                "is not a pool of this cluster; pick one from the list",
                "不是该集群中的资源池，请从列表中选择",
            ),
            PoolKindMismatch => s(
                "does not serve this resource kind; pick another pool",
                "该资源池不支持此资源类型，请选择其他资源池",
            ),
            PoolNoneForKind => s(
                "this cluster offers no pool for this resource kind; switch region, cluster or kind",
                "该集群没有支持此资源类型的资源池，请切换区域、集群或资源类型",
            ),
            SpotUnavailable => s(
                "no spot instances are available in the current filter; switch region, cluster, resource kind or instance type",
                "当前筛选范围内暂无可用 Spot 实例，请切换区域、集群、资源类型或实例类型后再确认",
            ),
            IdlePriorityNotAllowed => s(
                "idle resources take no priority; clear it",
                "闲时资源不支持设置优先级，请清除",
            ),
            IdleGuaranteeNotAllowed => s(
                "idle resources take no guarantee; clear it",
                "闲时资源不支持资源保障，请清除",
            ),
            WorkersOutOfRange { max } => (
                format!("must be between 0 and {max}"),
                format!("必须在 0 到 {max} 之间"),
            ),
            SpecUnknown => s(
                "is not an instance spec of this cluster; pick one from the list",
                "不是该集群中的实例规格，请从列表中选择",
            ),
            SpecTypeMismatch { expected } => {
                let (en, zh) = match expected {
                    InstanceType::Gpu => ("GPU", "GPU"),
                    InstanceType::Cpu => ("CPU", "CPU"),
                };
                (
                    format!("is not a {en} spec; pick a {en} spec"),
                    format!("不是 {zh} 实例规格，请选择 {zh} 规格"),
                )
            }
            SpecNotInPool => s(
                "no node of the pool can run this spec; pick another spec or pool",
                "资源池中没有可运行该规格的节点，请更换规格或资源池",
            ),
            SpecDuplicate => s(
                "is already in the list; remove one",
                "已在列表中，请删除重复项",
            ),
            SpecsMixedGpuModels => s(
                "mixes GPU models; choose only models your code supports",
                "包含多种 GPU 型号，请仅选择训练代码兼容的规格",
            ),
            UnitsOutOfRange { max } => (
                format!("must be between 1 and {max}"),
                format!("必须在 1 到 {max} 之间"),
            ),
            DemandOverflow => s(
                "the resource demand is too large to compute",
                "资源需求过大，无法计算",
            ),
            QuotaNone => s(
                "you have no quota for this spec in this pool",
                "您在该资源池下没有此规格的配额",
            ),
            QuotaExceeded {
                dimension,
                requested,
                remaining,
            } => (
                format!(
                    "needs {requested} {unit} but {remaining} remain in your quota; {short} short",
                    unit = dimension.unit_en(),
                    short = requested - remaining
                ),
                format!(
                    "需要 {requested} {unit}，剩余配额 {remaining}，缺少 {short}",
                    unit = dimension.unit_zh(),
                    short = requested - remaining
                ),
            ),
            PoolAvailabilityExceeded { short } => {
                // "a, b and c" in English, "a、b、c" in Chinese.
                let list = |f: &dyn Fn(&Shortfall) -> String, sep: &str, and: &str| {
                    let items: Vec<String> = short.iter().map(f).collect();
                    match items.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{}{and}{last}", rest.join(sep))
                        }
                        _ => items.concat(),
                    }
                };
                (
                    format!(
                        "needs {} but the pool has {} free now; the task will queue",
                        list(
                            &|s| format!("{} {}", s.requested, s.dimension.unit_en()),
                            ", ",
                            " and "
                        ),
                        list(&|s| s.remaining.to_string(), ", ", " and "),
                    ),
                    format!(
                        "需要 {}，资源池当前可用 {}，任务将排队",
                        list(
                            &|s| format!("{} {}", s.requested, s.dimension.unit_zh()),
                            "、",
                            "、"
                        ),
                        list(&|s| s.remaining.to_string(), "、", "、"),
                    ),
                )
            }
            QuotaSkipped { spec, short } if short.is_empty() => (
                format!(
                    "skipped: you have no quota for {spec} here; the next spec in the list is used"
                ),
                format!("已跳过：您在该资源池下没有 {spec} 的配额，将使用列表中的下一个规格"),
            ),
            QuotaSkipped { spec, short } => {
                let en: Vec<String> = short
                    .iter()
                    .map(|s| {
                        format!(
                            "{} {} ({} left)",
                            s.requested,
                            s.dimension.unit_en(),
                            s.remaining
                        )
                    })
                    .collect();
                let zh: Vec<String> = short
                    .iter()
                    .map(|s| {
                        format!(
                            "{} {}（剩余 {}）",
                            s.requested,
                            s.dimension.unit_zh(),
                            s.remaining
                        )
                    })
                    .collect();
                (
                    format!(
                        "skipped: needs {} of your {spec} quota; the next spec in the list is used",
                        en.join(", ")
                    ),
                    format!(
                        "已跳过：需要 {spec} 配额 {}，将使用列表中的下一个规格",
                        zh.join("、")
                    ),
                )
            }
            GangSkipped { reason } => (
                format!(
                    "skipped: it can never start here ({}); the next spec in the list is used",
                    reason.message(Lang::En)
                ),
                format!(
                    "已跳过：该规格永远无法启动（{}），将使用列表中的下一个规格",
                    reason.message(Lang::Zh)
                ),
            ),
            KindFieldUnused { kind } => {
                let (en, zh) = match kind {
                    ResourceKind::Reserved => ("reserved instances", "预留实例"),
                    ResourceKind::OnDemand => ("on-demand instances", "按量实例"),
                    ResourceKind::Spot => ("spot instances", "Spot 实例"),
                    ResourceKind::Idle => ("idle resources", "闲时资源"),
                };
                (
                    format!("not used by {en}; it is dropped on submit"),
                    format!("{zh}不使用此项，提交时将被忽略"),
                )
            }
            GangWillQueue { reason } => (
                format!("will queue: {}", reason.message(Lang::En)),
                format!("任务将排队：{}", reason.message(Lang::Zh)),
            ),
            GangNeverFits { reason } => (
                format!("can never start: {}", reason.message(Lang::En)),
                format!("任务永远无法启动：{}", reason.message(Lang::Zh)),
            ),
            MaxRetriesOutOfRange => s("must be between 1 and 100", "必须在 1 到 100 之间"),
            MonitoringPortOutOfRange => s("must be between 1 and 65535", "必须在 1 到 65535 之间"),
            MonitoringPortIsMaster { port } => (
                format!("{port} is the master port; choose another"),
                format!("{port} 是主节点端口，请更换"),
            ),
            MonitoringPortIsRay { port } => {
                let (en, zh) = match port {
                    6379 => ("GCS", "GCS"),
                    8265 => ("dashboard", "Dashboard"),
                    10001 => ("client", "Client"),
                    8080 => ("metrics export", "指标导出"),
                    52365 => ("dashboard agent", "Dashboard Agent"),
                    _ => ("own", "内部"),
                };
                (
                    format!("{port} is Ray's {en} port; choose another"),
                    format!("{port} 是 Ray 的 {zh} 端口，请更换"),
                )
            }
            MonitoringPortIsSsh => s(
                "22 is taken by pod SSH; choose another",
                "22 端口已被 Pod 间免密登录占用，请更换",
            ),
            MonitoringPathInvalid => s(
                "must start with '/', like /metrics",
                "必须以 / 开头，例如 /metrics",
            ),
            ImagePullRetriesOutOfRange => s(
                "must be -1 (never trip), 0 (fail at once) or a positive count",
                "必须为 -1（不熔断）、0（首次失败即失败）或正整数",
            ),
            SshSinglePod => s(
                "the task has one pod; SSH between pods has no peer",
                "任务只有一个 Pod，Pod 间免密登录无对端",
            ),
            AlertThresholdInvalid => s("set a threshold of at least 1", "请设置不小于 1 的阈值"),
            AlertEmailInvalid => s("is not an email address", "不是有效的邮箱地址"),
            AlertUrlInvalid => s("must be an https:// URL", "必须是 https:// 开头的 URL"),
            RuntimeEnvInvalidYaml { detail } => (
                format!("is not valid YAML: {detail}"),
                format!("不是有效的 YAML：{detail}"),
            ),
            RuntimeEnvTooLong { max_bytes } => too_long(*max_bytes),
            RuntimeEnvAlias => s(
                "YAML anchors and aliases (&name, *name) are not accepted; write the values out",
                "不支持 YAML 锚点和别名（&name、*name），请直接写出取值",
            ),
            RuntimeEnvTag { tag } => (
                format!("Ray's YAML loader refuses the tag {tag}; remove it"),
                format!("Ray 的 YAML 解析器不支持标签 {tag}，请删除"),
            ),
            RuntimeEnvKeyNotString => s(
                "every key must be a string; quote keys like null, true or 1",
                "所有键都必须是字符串，null、true、1 等键请加引号",
            ),
            RuntimeEnvNotMapping => s(
                "must be a YAML mapping of keys to settings",
                "必须是键值映射形式的 YAML",
            ),
            RuntimeEnvUnknownKey { key } => (
                format!("Ray does not know the key '{key}'"),
                format!("Ray 不支持键 '{key}'"),
            ),
            RuntimeEnvEnvVars => s(
                "env_vars must map names to string values; quote values like yes or 8",
                "env_vars 必须是名称到字符串值的映射，yes、8 等取值请加引号",
            ),
            RuntimeEnvPipAndConda => s(
                "Ray refuses pip and conda together; keep one",
                "Ray 不允许同时使用 pip 和 conda，请只保留一个",
            ),
            SharedStorageNotRwx => s(
                "shared storage needs a volume many pods can write (RWX)",
                "共享存储需要支持多 Pod 读写（RWX）的 Volume",
            ),
            DebugKeepOutOfRange => s(
                "must be between 1 and 86400 seconds",
                "必须在 1 到 86400 秒之间",
            ),
            AutoscalingRange { min, workers, max } => (
                format!("needs min ≤ workers ≤ max; now {min} ≤ {workers} ≤ {max}"),
                format!(
                    "需满足 缩容下限 ≤ 工作节点数 ≤ 扩容上限，当前为 {min} ≤ {workers} ≤ {max}"
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::Dimension;

    #[test]
    fn a_pool_too_small_in_three_dimensions_reads_as_one_sentence() {
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
        };
        assert_eq!(
            code.message(Lang::En),
            "needs 8 GPUs, 128 vCPUs and 960 GiB of memory but the pool has 6, 96 and 720 free now; the task will queue"
        );
        assert_eq!(
            code.message(Lang::Zh),
            "需要 8 张 GPU、128 个 vCPU、960 GiB 内存，资源池当前可用 6、96、720，任务将排队"
        );
    }
}
