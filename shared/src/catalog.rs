//! The catalog: everything the create form chooses from (SPEC.md section 1).
//!
//! The server serves one per user ([`Catalog::for_user`]); the form never hard-codes a
//! choice. Pool ids are unique across the whole catalog, because quotas name a pool.

use crate::resources::Resources;
use crate::task::{IdleStability, ImageSource, InstanceType, ResourceKind, Tag};
use serde::Serialize;
use std::collections::BTreeMap;

/// Who is asking: the validator checks membership, quota and persistent env for them,
/// and the platform injects these into every pod.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct User {
    /// Login name (`X_USER_NAME`).
    pub name: String,
    /// Organisation (`X_ORG_NAME`).
    pub org: String,
    /// Tenant id (`X_TENANT_ID`).
    pub tenant_id: String,
}

/// Everything the form can choose from, and the numbers quota math needs.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Catalog {
    /// Regions with their clusters.
    pub regions: Vec<Region>,
    /// Project groups and their members.
    pub project_groups: Vec<ProjectGroup>,
    /// The tenant's maintained tags and whether tags are checked against them.
    pub tags: TagPolicy,
    /// Users' persistent env vars [持久环境变量].
    pub persistent_env: Vec<PersistentEnvVar>,
    /// IANA time-zone names the form offers.
    pub time_zones: Vec<String>,
    /// Image-pull retries when the task does not set its own.
    pub image_pull_retries_default: i64,
    /// Quota per user, resource kind, pool and spec.
    pub quotas: Vec<Quota>,
}

/// A region [区域].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Region {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Clusters in the region.
    pub clusters: Vec<Cluster>,
}

/// A cluster [集群]: choosing one filters pools, specs, images, volumes, datasets, models.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cluster {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Resource pools.
    pub pools: Vec<Pool>,
    /// Instance specs sold in this cluster.
    pub specs: Vec<InstanceSpec>,
    /// Images usable here.
    pub images: Vec<Image>,
    /// Volumes.
    pub volumes: Vec<Volume>,
    /// Datasets.
    pub datasets: Vec<DataItem>,
    /// Models.
    pub models: Vec<DataItem>,
    /// Idle capacity per spec [闲时数量/闲时资源碎片].
    pub idle: Vec<IdleOffer>,
    /// How jobs are placed and admitted on this cluster's Kubernetes; defaults to
    /// plain scheduling in namespace `default`, so catalogs without it still load.
    pub kubernetes: KubeSettings,
}

/// The Kubernetes side of a cluster: where its jobs go and who admits them as a gang.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct KubeSettings {
    /// The namespace of a task's objects; `{tenant}`, `{project_group}` and `{user}`
    /// are replaced by the task's values. The result must be a DNS-1123 label.
    pub namespace: String,
    /// The gang admission the cluster runs.
    pub admission: Admission,
    /// Pod priority class per resource priority; an unset entry (or an idle task,
    /// which has no priority) gives the pod no class.
    pub priority_classes: PriorityClasses,
    /// How metrics are scraped when a task turns monitoring on.
    pub monitoring: Scrape,
}

impl Default for KubeSettings {
    fn default() -> Self {
        KubeSettings {
            namespace: "default".to_owned(),
            admission: Admission::None,
            priority_classes: PriorityClasses::default(),
            monitoring: Scrape::Annotations,
        }
    }
}

/// Who admits a job's pods all at once (k8s/RULES.md sections 9 and 10).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "scheduler", deny_unknown_fields)]
pub enum Admission {
    /// No gang admission: the default scheduler places pods one by one.
    #[default]
    None,
    /// Kueue: the job is created suspended in a LocalQueue and admitted by quota.
    Kueue {
        /// The LocalQueue in the task's namespace; at most 63 characters (a label value).
        local_queue: String,
    },
    /// Volcano: a PodGroup with every replica as its minimum member.
    Volcano {
        /// The Volcano queue.
        queue: String,
    },
}

/// Pod priority class names per resource priority.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct PriorityClasses {
    /// For priority low.
    pub low: Option<String>,
    /// For priority normal.
    pub normal: Option<String>,
    /// For priority high.
    pub high: Option<String>,
}

/// How a cluster's Prometheus finds task metrics.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scrape {
    /// `prometheus.io/*` annotations on the pods.
    #[default]
    Annotations,
    /// A `monitoring.coreos.com/v1` PodMonitor (Prometheus Operator).
    PodMonitor,
}

/// Whether a pool is shared by tenants or dedicated to one [共享/专属].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharing {
    /// Shared by tenants.
    #[default]
    Shared,
    /// Dedicated to this tenant.
    Dedicated,
}

/// A resource pool [资源池].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pool {
    /// Stable id, unique across the catalog.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Shared or dedicated.
    pub sharing: Sharing,
    /// Resource kinds this pool serves.
    pub kinds: Vec<ResourceKind>,
    /// Nodes with their capacity.
    pub nodes: Vec<Node>,
}

/// One machine in a pool.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Node {
    /// Node name.
    pub name: String,
    /// GPU model, or none for a CPU node.
    pub gpu_model: Option<String>,
    /// Capacity; what is taken now is in the live usage (the catalog answer's `usage`).
    pub total: Resources,
    /// Kubernetes node labels.
    pub labels: BTreeMap<String, String>,
}

impl Node {
    /// Whether a replica of `spec` may run here: the GPU model (or its absence) matches.
    pub fn hosts(&self, spec: &InstanceSpec) -> bool {
        self.gpu_model == spec.gpu_model
    }
}

/// An instance spec [实例规格]: what one unit contains.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct InstanceSpec {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// GPU or CPU.
    pub instance_type: InstanceType,
    /// GPU model, none for CPU specs.
    pub gpu_model: Option<String>,
    /// Resources in one unit.
    pub per_unit: Resources,
    /// Most units one node can host [单节点实例规格数 upper bound].
    pub max_units_per_node: u32,
}

/// A catalog image [镜像].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Image {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Built-in or custom.
    pub source: ImageSource,
    /// Full image reference.
    pub address: String,
    /// Capabilities: `ray`, `ray-dashboard`, framework tags such as `pytorch`.
    pub capabilities: Vec<String>,
}

impl Image {
    /// Whether the image declares a capability.
    pub fn has(&self, capability: &str) -> bool {
        self.capabilities.iter().any(|c| c == capability)
    }
}

/// Volume access mode.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum AccessMode {
    /// Read-write by one node at a time.
    #[default]
    #[serde(rename = "rwo")]
    ReadWriteOnce,
    /// Read-write by many nodes.
    #[serde(rename = "rwx")]
    ReadWriteMany,
}

/// A volume [存储].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Volume {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// RWO or RWX.
    pub access_mode: AccessMode,
    /// Capacity in GiB.
    pub capacity_gib: u64,
}

/// A dataset [数据集] or model [模型], mounted read-only.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DataItem {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Version label.
    pub version: String,
}

/// A project group [项目组].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct ProjectGroup {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// User names of the members.
    pub members: Vec<String>,
}

/// Tag rules of the tenant [标签验证].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct TagPolicy {
    /// When on, every tag must be one of `maintained`.
    pub validation: bool,
    /// Tags the administrators maintain.
    pub maintained: Vec<Tag>,
}

/// A user's persistent env var, added to every task they run.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct PersistentEnvVar {
    /// Owner.
    pub user: String,
    /// Variable name.
    pub name: String,
    /// Value; masked for anyone but the owner when `hidden`.
    pub value: String,
    /// Stored as a secret.
    pub hidden: bool,
}

/// Quota for one user, resource kind, pool and spec [配额].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Quota {
    /// User name.
    pub user: String,
    /// Resource kind (reserved or on-demand; the others use no quota).
    pub kind: Option<ResourceKind>,
    /// Pool id.
    pub pool: String,
    /// Spec id.
    pub spec: String,
    /// The most the user may hold at once; what is used now is in the live usage (the
    /// catalog answer's `usage`).
    pub limit: Resources,
}

/// Idle capacity of one spec [闲时数量].
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IdleOffer {
    /// Spec id.
    pub spec: String,
    /// How stable this idle capacity is.
    pub stability: IdleStability,
    /// Idle units in all.
    pub quantity: u32,
    /// How the idle units are spread over nodes [闲时资源碎片].
    #[serde(default)]
    pub fragments: Vec<IdleFragment>,
}

/// `nodes` nodes that each have `units` idle units of a spec.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IdleFragment {
    /// How many nodes look like this.
    pub nodes: u32,
    /// Idle units on each of them.
    pub units: u32,
}

impl Catalog {
    /// Every node of every pool.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> {
        self.regions
            .iter()
            .flat_map(|r| &r.clusters)
            .flat_map(|c| &c.pools)
            .flat_map(|p| &p.nodes)
    }

    /// Reads a catalog from JSON.
    ///
    /// # Errors
    ///
    /// The JSON error: a syntax error names the line and column, a value of the wrong
    /// shape its place (`regions[0].clusters[1].pools[2].gpu_model`).
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        crate::read::from_json(text)
    }

    /// The region with this id.
    pub fn region(&self, id: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.id == id)
    }

    /// The cluster with this id in this region.
    pub fn cluster(&self, region: &str, cluster: &str) -> Option<&Cluster> {
        self.region(region)?
            .clusters
            .iter()
            .find(|c| c.id == cluster)
    }

    /// Spec `id` as people know it in `task`'s cluster: its catalog name, else its id.
    /// The console and the server's events name a spec alike.
    pub fn spec_name(&self, task: &crate::TaskSpec, id: &str) -> String {
        self.cluster(&task.basic.region, &task.basic.cluster)
            .and_then(|c| c.spec(id))
            .map_or_else(|| id.to_owned(), |s| s.name.clone())
    }

    /// The quota row for this user, kind, pool and spec.
    pub fn quota(&self, user: &str, kind: ResourceKind, pool: &str, spec: &str) -> Option<&Quota> {
        self.quotas
            .iter()
            .find(|q| q.user == user && q.kind == Some(kind) && q.pool == pool && q.spec == spec)
    }

    /// The user's persistent env vars.
    pub fn persistent_env_of<'a>(
        &'a self,
        user: &'a str,
    ) -> impl Iterator<Item = &'a PersistentEnvVar> + 'a {
        self.persistent_env.iter().filter(move |v| v.user == user)
    }

    /// What `user` may see: their groups, their quotas, their persistent env vars.
    pub fn for_user(&self, user: &User) -> Catalog {
        let mut view = self.clone();
        view.project_groups
            .retain(|g| g.members.contains(&user.name));
        view.quotas.retain(|q| q.user == user.name);
        view.persistent_env.retain(|v| v.user == user.name);
        view
    }
}

impl Cluster {
    /// The pool with this id.
    pub fn pool(&self, id: &str) -> Option<&Pool> {
        self.pools.iter().find(|p| p.id == id)
    }

    /// The first pool that serves `kind`: where on-demand, spot and idle tasks go when
    /// the user picks no pool.
    pub fn default_pool_for(&self, kind: ResourceKind) -> Option<&Pool> {
        self.pools.iter().find(|p| p.kinds.contains(&kind))
    }

    /// The spec with this id.
    pub fn spec(&self, id: &str) -> Option<&InstanceSpec> {
        self.specs.iter().find(|s| s.id == id)
    }

    /// The image with this id from this source.
    pub fn image(&self, source: ImageSource, id: &str) -> Option<&Image> {
        self.images
            .iter()
            .find(|i| i.source == source && i.id == id)
    }

    /// The volume with this id.
    pub fn volume(&self, id: &str) -> Option<&Volume> {
        self.volumes.iter().find(|v| v.id == id)
    }

    /// The idle offers for a spec at or above a stability level (any level when `None`),
    /// each with its position in the cluster's list (which names its nodes).
    pub fn idle_offers<'a>(
        &'a self,
        spec: &'a str,
        at_least: Option<IdleStability>,
    ) -> impl Iterator<Item = (usize, &'a IdleOffer)> + 'a {
        self.idle.iter().enumerate().filter(move |(_, o)| {
            o.spec == spec && at_least.is_none_or(|level| o.stability >= level)
        })
    }

    /// Specs of this instance type that some node of `pool` can host: what the form offers.
    pub fn specs_in<'a>(
        &'a self,
        pool: &'a Pool,
        instance_type: InstanceType,
    ) -> impl Iterator<Item = &'a InstanceSpec> + 'a {
        self.specs.iter().filter(move |s| {
            s.instance_type == instance_type && pool.nodes.iter().any(|n| n.hosts(s))
        })
    }
}
