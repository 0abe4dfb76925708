//! The task spec: everything a user fills in on the create form (SPEC.md sections 2–6).
//!
//! A [`TaskSpec`] is also the form's state while it is half filled: required text may be
//! empty and choices may be unset, because an empty required field is a validation
//! finding, not a parse failure. Only [`crate::validate::validated`] turns a spec into a
//! [`crate::Validated`] one, which is what the server stores and schedules.
//!
//! # JSON shape
//!
//! Every field has a default, so `{"version": 1}` is a (very incomplete) spec. Names are
//! snake_case, enums travel as snake_case strings. `examples/` in this crate holds a
//! complete PyTorchJob and a complete RayJob.

use crate::path::field_key;
pub use crate::vocab::{IdleStability, InstanceType, Priority, ResourceKind, TaskType};
use serde::Serialize;

/// The spec format this crate reads and writes.
pub const SPEC_VERSION: u32 = 1;

/// A training task as the user describes it.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct TaskSpec {
    /// Format version; must be 1.
    pub version: u32,
    /// Basic information [基本信息].
    pub basic: Basic,
    /// Image, env vars, mounts and command [环境信息].
    pub environment: Environment,
    /// Resource kind, replicas and instance specs [计算资源].
    pub compute: Compute,
    /// Fault tolerance, monitoring, SSH, alerts [高级选项].
    pub advanced: Advanced,
    /// RayJob-only settings; ignored and dropped for a PyTorchJob.
    pub ray: RaySettings,
}

impl Default for TaskSpec {
    fn default() -> Self {
        TaskSpec {
            version: SPEC_VERSION,
            basic: Basic::default(),
            environment: Environment::default(),
            compute: Compute::default(),
            advanced: Advanced::default(),
            ray: RaySettings::default(),
        }
    }
}

impl TaskSpec {
    /// The task type, when chosen.
    pub fn task_type(&self) -> Option<TaskType> {
        self.basic.task_type
    }

    /// Whether this is a RayJob.
    pub fn is_ray(&self) -> bool {
        self.basic.task_type == Some(TaskType::RayJob)
    }

    /// Whether the task is a RayJob that autoscales: its workers are counted at their
    /// maximum ([`TaskSpec::scheduled_workers`]).
    pub fn autoscales(&self) -> bool {
        self.is_ray() && self.ray.autoscaling.enabled
    }

    /// Worker count the scheduler must place: the autoscaling maximum when a RayJob
    /// autoscales (SPEC.md section 4: "a Ray autoscaling job counts its maximum workers").
    pub fn scheduled_workers(&self) -> u32 {
        if self.autoscales() {
            self.ray.autoscaling.max_workers
        } else {
            self.compute.workers
        }
    }

    /// Pods that need an instance spec: the master or head plus the workers.
    pub fn replicas(&self) -> u64 {
        1 + u64::from(self.scheduled_workers())
    }

    /// The head's own spec [Head 实例规格], when a RayJob sets one; otherwise the head
    /// uses the workers' spec. Either way it is one replica of `units_per_node` units.
    pub fn head_spec(&self) -> Option<&str> {
        self.compute
            .head_spec
            .as_deref()
            .filter(|h| self.is_ray() && !h.is_empty())
    }

    /// This spec with the other task type's fields dropped (SPEC.md section 2: switching
    /// the type keeps shared fields and drops the other type's).
    /// Fields of a resource kind the task does not use are dropped the same way
    /// ([`Compute::unused_fields`]).
    pub fn normalized(mut self) -> Self {
        if !self.is_ray() {
            self.ray = RaySettings::default();
            self.compute.head_spec = None;
        }
        for field in self.compute.unused_fields() {
            self.compute.clear(field);
        }
        self
    }

    /// This spec with its resource kind switched to `kind`, and the fields the new kind
    /// does not use dropped (SPEC.md section 4), idle's priority and guarantee among
    /// them: idle refuses those as errors in a spec that carries them, but a switch of the
    /// kind drops them, as it drops every other field the kind leaves behind.
    pub fn with_kind(mut self, kind: Option<crate::vocab::ResourceKind>) -> Self {
        self.compute.kind = kind;
        if kind == Some(crate::vocab::ResourceKind::Idle) {
            self.compute.priority = None;
            self.compute.guarantee = None;
        }
        self.normalized()
    }

    /// [`TaskSpec::with_kind`] in `cluster`: also without the pool that does not serve
    /// the new kind, and the specs (the head's too) that no pool of the cluster serving it
    /// can host; fields the switch made unusable, as a switch of the cluster drops what
    /// the cluster lacks. A spec another pool of the kind hosts stays, for the user to
    /// pick that pool.
    pub fn with_kind_in(
        self,
        kind: Option<crate::vocab::ResourceKind>,
        cluster: &crate::catalog::Cluster,
    ) -> Self {
        let mut s = self.with_kind(kind);
        let Some(kind) = s.compute.kind else {
            return s;
        };
        let serves = |p: &&crate::catalog::Pool| p.kinds.contains(&kind);
        if let Some(pool) = &s.compute.pool
            && !cluster.pools.iter().filter(serves).any(|p| &p.id == pool)
        {
            s.compute.pool = None;
        }
        let hosted = |id: &String| {
            cluster.specs.iter().filter(|x| &x.id == id).any(|spec| {
                cluster
                    .pools
                    .iter()
                    .filter(serves)
                    .any(|p| p.nodes.iter().any(|n| n.hosts(spec)))
            })
        };
        s.compute.specs.retain(|id| id.is_empty() || hosted(id));
        if !s.compute.head_spec.as_ref().is_none_or(hosted) {
            s.compute.head_spec = None;
        }
        s
    }

    /// This spec with one change: how tests and fixtures build "a valid spec with one
    /// field changed" (`demo::pytorch().with(|s| s.compute.workers = 3)`).
    pub fn with(mut self, change: impl FnOnce(&mut TaskSpec)) -> Self {
        change(&mut self);
        self
    }

    /// A copy with its hidden env values masked: what the task record keeps (the values
    /// themselves are stored apart). Its webhook targets stay whole, as the server calls
    /// them; [`TaskSpec::for_others`] is what anyone else may read, and what a saved draft
    /// keeps.
    pub fn masked(&self) -> Self {
        let mut copy = self.clone();
        for var in copy.environment.env.iter_mut().filter(|v| v.hidden) {
            var.value = HIDDEN_VALUE_MASK.to_owned();
        }
        copy
    }

    /// A copy safe to show to someone other than the owner (a group member, a share
    /// link's reader): [`TaskSpec::masked`], and each alert's target as
    /// [`Alert::shown_target`] gives it.
    pub fn for_others(&self) -> Self {
        let mut copy = self.masked();
        for alert in &mut copy.advanced.alerts {
            alert.target = alert.shown_target();
        }
        copy
    }
}

/// What a hidden env value is replaced with wherever it is shown to someone else.
pub const HIDDEN_VALUE_MASK: &str = "******";

/// Basic information [基本信息].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Basic {
    /// Region id [区域].
    pub region: String,
    /// Cluster id within the region [集群].
    pub cluster: String,
    /// Project group id [项目组].
    pub project_group: String,
    /// Name prefix [名称前缀]; the final name appends `-` and 5 random characters.
    pub name_prefix: String,
    /// Task type [任务类型].
    pub task_type: Option<TaskType>,
    /// Visible to the whole project group [在项目组内公开].
    pub visible_in_group: bool,
    /// IANA time-zone name [时区].
    pub time_zone: String,
    /// Tags [标签].
    pub tags: Vec<Tag>,
}

/// A `key: value` tag on a task.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Tag {
    /// Label-like key.
    pub key: String,
    /// Label-like value; may be empty.
    pub value: String,
}

impl Tag {
    /// The tag as it is written in a filter and said to readers: `key=value`, or the key
    /// alone when its value is empty.
    pub fn text(&self) -> String {
        if self.value.is_empty() {
            self.key.clone()
        } else {
            format!("{}={}", self.key, self.value)
        }
    }
}

/// Environment [环境信息].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Environment {
    /// Image [镜像].
    pub image: ImageChoice,
    /// Env vars for this task [环境变量].
    pub env: Vec<EnvVar>,
    /// Volumes and their mount paths [存储].
    pub storage: Vec<Mount>,
    /// Datasets, mounted read-only [数据集].
    pub datasets: Vec<Mount>,
    /// Models, mounted read-only [模型].
    pub models: Vec<Mount>,
    /// Command run with `bash -c` [命令]; for a RayJob, the Ray entrypoint.
    pub command: String,
}

/// Where the image comes from.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum ImageSource {
    /// A platform image from the catalog [内置].
    #[default]
    BuiltIn,
    /// A tenant image from the catalog [自定义].
    Custom,
    /// A free image reference typed by the user [镜像地址].
    Address,
}

/// The chosen image: a catalog id, or an address when `source` is `address`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct ImageChoice {
    /// Which list the image comes from.
    pub source: ImageSource,
    /// The catalog image id, or the image reference when `source` is `address`.
    pub value: String,
}

/// One env var of the task.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct EnvVar {
    /// Variable name.
    pub name: String,
    /// Variable value.
    pub value: String,
    /// Stored as a secret and shown masked to anyone but the owner [隐藏].
    pub hidden: bool,
}

/// A catalog item (volume, dataset or model) mounted at a path in every pod.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Mount {
    /// Catalog id of the volume, dataset or model.
    pub id: String,
    /// Absolute mount path in the container.
    pub path: String,
}

/// Compute [计算资源].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Compute {
    /// Resource kind [资源类型].
    pub kind: Option<ResourceKind>,
    /// Resource pool id [资源池]; required for reserved, else the cluster's pool for the kind.
    pub pool: Option<String>,
    /// Reserved only: also run on idle capacity [接受闲时资源].
    pub accept_idle: bool,
    /// Reserved with idle accepted: prefer idle capacity [优先闲时].
    pub prefer_idle: bool,
    /// Idle stability level [闲时稳定性等级]; required for idle, optional (any level) for
    /// reserved with idle accepted.
    pub idle_stability: Option<IdleStability>,
    /// Resource priority [资源优先级]; must be unset for idle.
    pub priority: Option<Priority>,
    /// Resource guarantee [资源保障]; must be unset for idle.
    pub guarantee: Option<bool>,
    /// Worker replicas besides the master or head [工作节点]; 0 runs on one machine.
    pub workers: u32,
    /// GPU or CPU specs [实例类型].
    pub instance_type: InstanceType,
    /// Instance spec ids in priority order, highest first [实例规格].
    pub specs: Vec<String>,
    /// Units of the spec one replica takes [单节点实例规格数].
    pub units_per_node: u32,
    /// RayJob only: the head's own spec [Head 实例规格]; default the workers' spec.
    pub head_spec: Option<String>,
}

impl Default for Compute {
    fn default() -> Self {
        Compute {
            kind: None,
            pool: None,
            accept_idle: false,
            prefer_idle: false,
            idle_stability: None,
            priority: None,
            guarantee: None,
            workers: 0,
            instance_type: InstanceType::Gpu,
            specs: Vec::new(),
            units_per_node: 1,
            head_spec: None,
        }
    }
}

impl Compute {
    /// Fields set that the chosen resource kind does not use (SPEC.md section 4): idle
    /// settings outside reserved and idle, priority and guarantee on reserved. Idle's
    /// own refusals of priority and guarantee are errors, not listed here.
    pub fn unused_fields(&self) -> Vec<&'static str> {
        let mut unused = Vec::new();
        let Some(kind) = self.kind else {
            return unused;
        };
        let reserved = kind == ResourceKind::Reserved;
        if !reserved && self.accept_idle {
            unused.push(field_key!(Compute: accept_idle));
        }
        if self.prefer_idle && !(reserved && self.accept_idle) {
            unused.push(field_key!(Compute: prefer_idle));
        }
        if self.idle_stability.is_some()
            && !(kind == ResourceKind::Idle || (reserved && self.accept_idle))
        {
            unused.push(field_key!(Compute: idle_stability));
        }
        if reserved && self.priority.is_some() {
            unused.push(field_key!(Compute: priority));
        }
        if reserved && self.guarantee.is_some() {
            unused.push(field_key!(Compute: guarantee));
        }
        unused
    }

    /// Resets one of the fields [`Compute::unused_fields`] names.
    fn clear(&mut self, field: &str) {
        match field {
            "accept_idle" => self.accept_idle = false,
            "prefer_idle" => self.prefer_idle = false,
            "idle_stability" => self.idle_stability = None,
            "priority" => self.priority = None,
            "guarantee" => self.guarantee = None,
            _ => {}
        }
    }
}

/// Advanced options [高级选项].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Advanced {
    /// Automatic fault tolerance [启用自动容错].
    pub fault_tolerance: FaultTolerance,
    /// Custom metrics dashboard [监控看板].
    pub monitoring: Monitoring,
    /// Image-pull failures tolerated [镜像拉取容错]; `None` takes the catalog default.
    pub image_pull_retries: Option<i64>,
    /// Password-less SSH between pods [Pod 间免密登录].
    pub ssh: bool,
    /// Alert subscriptions [告警订阅].
    pub alerts: Vec<Alert>,
}

/// Automatic fault tolerance settings; `max_retries` is kept while switched off.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct FaultTolerance {
    /// Retry failed attempts.
    pub enabled: bool,
    /// Attempts after the first, 1–100.
    pub max_retries: u32,
}

impl Default for FaultTolerance {
    fn default() -> Self {
        FaultTolerance {
            enabled: false,
            max_retries: 3,
        }
    }
}

/// Monitoring settings; kept while switched off.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Monitoring {
    /// Scrape the task's metrics.
    pub enabled: bool,
    /// Port the training code serves metrics on.
    pub port: u32,
    /// HTTP path of the metrics, starting with `/`.
    pub path: String,
}

impl Default for Monitoring {
    fn default() -> Self {
        Monitoring {
            enabled: false,
            port: 9090,
            path: "/metrics".to_owned(),
        }
    }
}

/// What an alert subscription fires on.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum AlertEvent {
    /// The task failed.
    Failed,
    /// The task succeeded.
    Succeeded,
    /// The task was stopped.
    Stopped,
    /// An attempt failed and the task is retrying.
    Retried,
    /// Queued longer than `threshold` minutes.
    QueuedLongerThan,
    /// Running longer than `threshold` hours.
    RunningLongerThan,
}

impl AlertEvent {
    /// Whether the event needs a threshold.
    pub fn needs_threshold(self) -> bool {
        matches!(
            self,
            AlertEvent::QueuedLongerThan | AlertEvent::RunningLongerThan
        )
    }
}

/// Where an alert is delivered.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum AlertChannel {
    /// An email address.
    #[default]
    Email,
    /// An https URL that receives a POST.
    Webhook,
}

/// One alert subscription [告警订阅].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Alert {
    /// What fires it.
    pub event: AlertEvent,
    /// Minutes (queued) or hours (running) for the threshold events.
    pub threshold: Option<u32>,
    /// How it is delivered.
    pub channel: AlertChannel,
    /// Email address or https URL.
    pub target: String,
}

impl Alert {
    /// What tells this subscription's alerts apart: its event, its threshold where its
    /// event takes one (on another it is ignored), its channel and its target. The
    /// server fires a subscription with the same as an earlier one of its task once,
    /// with it. (The checks warn of a repeat field for field, `advanced.alerts.duplicate`:
    /// one that differs only in an ignored threshold is warned of at that threshold.)
    pub fn identity(&self) -> (AlertEvent, Option<u32>, AlertChannel, &str) {
        let threshold = self.threshold.filter(|_| self.event.needs_threshold());
        (self.event, threshold, self.channel, &self.target)
    }

    /// The target as anyone but the owner reads it. A webhook keeps its scheme, host and
    /// port, so the reader sees where alerts go, and the rest becomes the mask: chat
    /// hooks carry their token in the path or query (and a URL may carry a password
    /// before its host). An email address stays: it names a mailbox, it opens none, and
    /// a group member's clone can keep it.
    pub fn shown_target(&self) -> String {
        match self.channel {
            AlertChannel::Email => self.target.clone(),
            AlertChannel::Webhook => {
                let site = fluent_uri::Uri::parse(self.target.as_str())
                    .ok()
                    .and_then(|uri| {
                        let authority = uri.authority()?;
                        let port = authority
                            .port()
                            .filter(|p| !p.as_str().is_empty())
                            .map_or(String::new(), |p| format!(":{}", p.as_str()));
                        Some(format!(
                            "{}://{}{port}/",
                            uri.scheme().as_str(),
                            authority.host()
                        ))
                    });
                // A target that does not read as a URL is masked whole.
                format!("{}{HIDDEN_VALUE_MASK}", site.unwrap_or_default())
            }
        }
    }

    /// Whether a webhook target is one [`Alert::shown_target`] masked: sent back as it
    /// is, alerts would go to the mask's path, not the owner's hook.
    pub fn target_is_masked(&self) -> bool {
        self.channel == AlertChannel::Webhook
            && self
                .target
                .strip_suffix(HIDDEN_VALUE_MASK)
                .is_some_and(|site| site.is_empty() || site.ends_with('/'))
    }
}

impl Default for Alert {
    fn default() -> Self {
        Alert {
            event: AlertEvent::Failed,
            threshold: None,
            channel: AlertChannel::Email,
            target: String::new(),
        }
    }
}

/// RayJob-only settings (SPEC.md section 6).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct RaySettings {
    /// Ray runtime env as YAML [Runtime Env]; empty for none.
    pub runtime_env: String,
    /// A volume shared by every pod at `/tmp/ray` [挂载共享存储].
    pub shared_storage: SharedStorage,
    /// Keep the Ray cluster after the job ends [Debug 模式].
    pub debug: DebugMode,
    /// Ray autoscaling [自动扩缩容].
    pub autoscaling: Autoscaling,
}

/// The mount path RayJob shared storage takes.
pub const RAY_SHARED_STORAGE_PATH: &str = "/tmp/ray";

/// RayJob shared storage.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct SharedStorage {
    /// Mount the volume at `/tmp/ray`.
    pub enabled: bool,
    /// The volume id; must be RWX.
    pub volume: String,
    /// Delete this task's data on the volume when it ends [任务退出后清理共享存储数据].
    pub clean_on_exit: bool,
}

/// RayJob debug mode.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct DebugMode {
    /// Keep the cluster after the job ends.
    pub enabled: bool,
    /// How long to keep it, 1–86,400 seconds [集群保存时间].
    pub keep_secs: u32,
}

impl Default for DebugMode {
    fn default() -> Self {
        DebugMode {
            enabled: false,
            keep_secs: 600,
        }
    }
}

/// Ray upscaling mode.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(rename_all = "snake_case")]
pub enum UpscalingMode {
    /// Ray's default pace.
    #[default]
    Default,
    /// Scale up as fast as possible.
    Aggressive,
    /// Scale up slowly.
    Conservative,
}

/// RayJob autoscaling.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(serde::Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Autoscaling {
    /// Let Ray change the worker count.
    pub enabled: bool,
    /// Fewest workers [缩容下限].
    pub min_workers: u32,
    /// Most workers [扩容上限]; quota and gang fit count this many.
    pub max_workers: u32,
    /// Seconds a worker stays idle before it is removed [回收时间].
    pub idle_timeout_secs: u32,
    /// Upscaling mode [扩容模式].
    pub upscaling_mode: UpscalingMode,
}

impl Autoscaling {
    /// Whether a gang starting with `workers` lies in the range (min ≤ workers ≤ max).
    pub fn holds(&self, workers: u32) -> bool {
        self.min_workers <= workers && workers <= self.max_workers
    }
}

impl Default for Autoscaling {
    fn default() -> Self {
        Autoscaling {
            enabled: false,
            min_workers: 0,
            max_workers: 0,
            idle_timeout_secs: 60,
            upscaling_mode: UpscalingMode::Default,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_object_is_a_default_spec() {
        let spec = crate::parse_spec("{}").expect("defaults fill every field");
        assert_eq!(spec, TaskSpec::default());
    }

    #[test]
    fn a_wrong_type_names_the_field() {
        let report = crate::parse_spec(r#"{"compute": {"workers": "two"}}"#).unwrap_err();
        assert_eq!(report.issues()[0].path.to_string(), "compute.workers");
        assert_eq!(report.issues()[0].code.code(), "value.invalid");
    }

    #[test]
    fn an_unknown_field_is_named() {
        let report = crate::parse_spec(r#"{"basic": {"nmae_prefix": "x"}}"#).unwrap_err();
        assert_eq!(report.issues()[0].path.to_string(), "basic.nmae_prefix");
    }

    #[test]
    fn switching_to_pytorch_drops_ray_fields() {
        let mut spec = TaskSpec::default();
        spec.basic.task_type = Some(TaskType::PyTorchJob);
        spec.ray.runtime_env = "pip: [torch]".into();
        spec.compute.head_spec = Some("h".into());
        let spec = spec.normalized();
        assert_eq!(spec.ray, RaySettings::default());
        assert_eq!(spec.compute.head_spec, None);
    }

    /// A switch of the kind in a cluster drops a pool that does not serve the new kind
    /// and a spec only such a pool hosts; a spec another pool of the kind hosts stays.
    #[cfg(feature = "demo")]
    #[test]
    fn switching_the_kind_in_a_cluster_drops_the_pool_and_specs_it_cannot_use() {
        use crate::vocab::ResourceKind;
        let catalog = crate::demo::catalog();
        let reserved = crate::demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = Some("sh-a-h100".into());
            s.compute.specs = vec!["h100-1g".into(), "a100-1g".into()];
        });
        let cluster = catalog
            .cluster(&reserved.basic.region, &reserved.basic.cluster)
            .expect("the demo's cluster");
        // sh-a's H100 pool is reserved only; its shared pool serves on-demand and hosts
        // a100-1g, not h100-1g.
        let on_demand = reserved
            .clone()
            .with_kind_in(Some(ResourceKind::OnDemand), cluster);
        assert_eq!(on_demand.compute.pool, None);
        assert_eq!(on_demand.compute.specs, ["a100-1g"]);
        // Back to reserved, the pool that serves it stays.
        let back = reserved
            .clone()
            .with_kind_in(Some(ResourceKind::Reserved), cluster);
        assert_eq!(back.compute.pool.as_deref(), Some("sh-a-h100"));
        assert_eq!(back.compute.specs, reserved.compute.specs);
    }

    #[test]
    fn switching_the_kind_drops_what_the_new_kind_does_not_use() {
        use crate::vocab::{Priority, ResourceKind};
        let on_demand = crate::demo::pytorch();
        assert_eq!(on_demand.compute.kind, Some(ResourceKind::OnDemand));
        assert!(on_demand.compute.priority.is_some() && on_demand.compute.guarantee.is_some());
        let idle = on_demand.clone().with_kind(Some(ResourceKind::Idle));
        assert_eq!(
            (idle.compute.priority, idle.compute.guarantee),
            (None, None)
        );
        let reserved = on_demand.clone().with_kind(Some(ResourceKind::Reserved));
        assert_eq!(
            (reserved.compute.priority, reserved.compute.guarantee),
            (None, None)
        );
        // Spot uses both: they stay.
        let spot = on_demand.clone().with_kind(Some(ResourceKind::Spot));
        assert_eq!(spot.compute.priority, on_demand.compute.priority);
        assert_eq!(spot.compute.guarantee, on_demand.compute.guarantee);
        // Given with idle rather than switched to it, they are errors, not dropped.
        let given = on_demand.with(|s| {
            s.compute.kind = Some(ResourceKind::Idle);
            s.compute.priority = Some(Priority::High);
            s.compute.guarantee = Some(true);
        });
        assert_eq!(
            given.clone().normalized().compute.priority,
            Some(Priority::High)
        );
    }

    #[test]
    fn masking_hides_only_hidden_values() {
        let mut spec = TaskSpec::default();
        spec.environment.env = vec![
            EnvVar {
                name: "A".into(),
                value: "open".into(),
                hidden: false,
            },
            EnvVar {
                name: "B".into(),
                value: "secret".into(),
                hidden: true,
            },
        ];
        let masked = spec.masked();
        assert_eq!(masked.environment.env[0].value, "open");
        assert_eq!(masked.environment.env[1].value, HIDDEN_VALUE_MASK);
    }

    fn alert(channel: AlertChannel, target: &str) -> Alert {
        Alert {
            channel,
            target: target.into(),
            ..Alert::default()
        }
    }

    #[test]
    fn others_read_where_a_webhook_goes_but_not_its_path_query_or_password() {
        let webhook = |target| alert(AlertChannel::Webhook, target);
        let spec = TaskSpec::default().with(|s| {
            s.advanced.alerts = vec![
                webhook("https://hooks.example.com/services/T0/B0/XyZsecret?token=abc#frag"),
                webhook("https://bot:pa55@open.feishu.cn:8443/hook/uuid-secret"),
                webhook("https://[2001:db8::1]/send?access_token=t0k"),
                webhook("https://hooks.example.com"),
                webhook("not a url, secret"),
                alert(AlertChannel::Email, "owner@example.com"),
            ];
            s.environment.env = vec![EnvVar {
                name: "B".into(),
                value: "secret".into(),
                hidden: true,
            }];
        });
        let shown = spec.for_others();
        let targets: Vec<&str> = shown
            .advanced
            .alerts
            .iter()
            .map(|a| a.target.as_str())
            .collect();
        assert_eq!(
            targets,
            [
                "https://hooks.example.com/******",
                "https://open.feishu.cn:8443/******",
                "https://[2001:db8::1]/******",
                "https://hooks.example.com/******",
                "******",
                "owner@example.com",
            ]
        );
        assert_eq!(shown.environment.env[0].value, HIDDEN_VALUE_MASK);
        // What the store and drafts keep: the hooks whole, as the server calls them.
        assert_eq!(spec.masked().advanced.alerts, spec.advanced.alerts);
        // Every masked webhook reads as masked; no real one, nor an email, does.
        assert!(
            shown.advanced.alerts[..5]
                .iter()
                .all(Alert::target_is_masked)
        );
        assert!(!spec.advanced.alerts.iter().any(Alert::target_is_masked));
        assert!(!alert(AlertChannel::Email, HIDDEN_VALUE_MASK).target_is_masked());
        assert!(!webhook("https://hooks.example.com/a******").target_is_masked());
    }
}
