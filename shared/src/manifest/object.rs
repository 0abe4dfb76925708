//! The Kubernetes objects Berth applies, as small serde types that serialise to
//! exactly the object (camelCase fields, empty parts left out). Only the fields Berth
//! writes exist here; k8s-openapi would be complete but too big for the console's wasm.

use serde::Serialize;
use std::collections::BTreeMap;

/// A map of labels, annotations, node selectors or Secret data, sorted by key so the
/// output is stable.
pub type Map = BTreeMap<String, String>;

/// One object a task becomes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Object {
    /// Hidden env values or the pod SSH key.
    Secret(Secret),
    /// The pod SSH hostfile names.
    ConfigMap(ConfigMap),
    /// A Kueue flavor for one spec of the priority list (cluster-scoped).
    ResourceFlavor(ResourceFlavor),
    /// The scrape target when the cluster uses the Prometheus Operator.
    PodMonitor(PodMonitor),
    /// A PyTorchJob task.
    PyTorchJob(Box<super::pytorch::PyTorchJob>),
    /// A RayJob task.
    RayJob(Box<super::ray::RayJob>),
}

impl Object {
    fn meta(&self) -> (&'static str, &'static str, &ObjectMeta) {
        match self {
            Object::Secret(o) => (o.api_version, o.kind, &o.metadata),
            Object::ConfigMap(o) => (o.api_version, o.kind, &o.metadata),
            Object::ResourceFlavor(o) => (o.api_version, o.kind, &o.metadata),
            Object::PodMonitor(o) => (o.api_version, o.kind, &o.metadata),
            Object::PyTorchJob(o) => (o.api_version, o.kind, &o.metadata),
            Object::RayJob(o) => (o.api_version, o.kind, &o.metadata),
        }
    }

    /// `apiVersion`, e.g. `kubeflow.org/v1`.
    pub fn api_version(&self) -> &'static str {
        self.meta().0
    }

    /// `kind`, e.g. `PyTorchJob`.
    pub fn kind(&self) -> &'static str {
        self.meta().1
    }

    /// `metadata.name`.
    pub fn name(&self) -> &str {
        &self.meta().2.name
    }

    /// `metadata.namespace`; `None` for a cluster-scoped object.
    pub fn namespace(&self) -> Option<&str> {
        self.meta().2.namespace.as_deref()
    }

    /// The object's metadata.
    pub fn metadata(&self) -> &ObjectMeta {
        self.meta().2
    }
}

/// `metadata` of a top-level object.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Object name.
    pub name: String,
    /// Namespace; `None` for cluster-scoped objects.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Labels.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub labels: Map,
    /// Annotations.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub annotations: Map,
}

/// A core `v1` Secret of type `Opaque`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    /// `v1`.
    pub api_version: &'static str,
    /// `Secret`.
    pub kind: &'static str,
    /// Name, namespace, labels.
    pub metadata: ObjectMeta,
    /// `Opaque`.
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// Values, base64-encoded (Kubernetes requires it of `data`).
    pub data: Map,
}

impl Secret {
    /// A Secret holding `values` (plain text, encoded here).
    pub fn new<'a>(
        metadata: ObjectMeta,
        values: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Self {
        Secret {
            api_version: "v1",
            kind: "Secret",
            metadata,
            type_: "Opaque",
            data: values
                .into_iter()
                .map(|(k, v)| (k.to_owned(), super::shell::base64(v.as_bytes())))
                .collect(),
        }
    }
}

/// A core `v1` ConfigMap.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigMap {
    /// `v1`.
    pub api_version: &'static str,
    /// `ConfigMap`.
    pub kind: &'static str,
    /// Name, namespace, labels.
    pub metadata: ObjectMeta,
    /// File contents by file name.
    pub data: Map,
}

/// A Kueue ResourceFlavor (`kueue.x-k8s.io/v1beta2`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceFlavor {
    /// `kueue.x-k8s.io/v1beta2`.
    pub api_version: &'static str,
    /// `ResourceFlavor`.
    pub kind: &'static str,
    /// Name (cluster-scoped: no namespace).
    pub metadata: ObjectMeta,
    /// The nodes of this flavor.
    pub spec: ResourceFlavorSpec,
}

/// What a ResourceFlavor selects.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceFlavorSpec {
    /// Labels of the flavor's nodes; Kueue adds them to an admitted job's node selector.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub node_labels: Map,
}

/// A Prometheus Operator PodMonitor (`monitoring.coreos.com/v1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodMonitor {
    /// `monitoring.coreos.com/v1`.
    pub api_version: &'static str,
    /// `PodMonitor`.
    pub kind: &'static str,
    /// Name, namespace, labels.
    pub metadata: ObjectMeta,
    /// Which pods and which port.
    pub spec: PodMonitorSpec,
}

/// The PodMonitor's pods and endpoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodMonitorSpec {
    /// Pods of the task.
    pub selector: LabelSelector,
    /// The metrics port by name, and its path.
    pub pod_metrics_endpoints: Vec<MetricsEndpoint>,
}

/// `matchLabels` selector.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// Labels a pod must carry.
    pub match_labels: Map,
}

/// One scrape endpoint.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetricsEndpoint {
    /// Container port name.
    pub port: String,
    /// HTTP path.
    pub path: String,
}
