//! Gang admission, chosen per cluster in the catalog (k8s/RULES.md sections 9, 10).
//!
//! - Kueue: the job carries the LocalQueue label and is created suspended; Kueue
//!   unsuspends it on admission and injects the chosen flavor's node labels. Each spec
//!   of the priority list (and a RayJob head's own spec) is a ResourceFlavor, rendered
//!   in priority order, its node labels those of every node of the cluster hosting the
//!   spec, so tasks of two pools hosting it write the same flavor. The pods are sized
//!   for one spec (the first of the list, or the head's own), so each template keeps
//!   that spec's node selector (its pool's nodes): Kueue assigns only a flavor whose
//!   node labels it matches (k8s/RULES.md section 9), never one whose nodes the pods
//!   were not sized for. Another spec of the list is no fallback here; the server puts
//!   the plan's spec first when it submits.
//! - Volcano: pods use the `volcano` scheduler and the operator creates a PodGroup
//!   whose minimum member is every replica.

use super::object::{Map, Object, ObjectMeta, ResourceFlavor, ResourceFlavorSpec};
use super::pod::PodTemplate;
use super::{Job, RenderError, is_dns_label};
use crate::catalog::Admission;

/// Kueue's label naming the LocalQueue.
pub const KUEUE_QUEUE_LABEL: &str = "kueue.x-k8s.io/queue-name";

/// The ResourceFlavor of one instance spec.
pub fn flavor_name(spec_id: &str) -> String {
    format!("berth-{spec_id}")
}

/// The ResourceFlavors of the task's specs, in priority order (head spec last), under
/// Kueue; none otherwise.
///
/// # Errors
///
/// [`RenderError::Name`] when a spec id makes no valid object name.
pub fn flavors(job: &Job<'_>) -> Result<Vec<Object>, RenderError> {
    if !matches!(job.kube.admission, Admission::Kueue { .. }) {
        return Ok(Vec::new());
    }
    let mut specs = job.specs.clone();
    if let Some(head) = super::ray::head_spec(job)?
        && !specs.iter().any(|s| s.id == head.id)
    {
        specs.push(head);
    }
    specs
        .into_iter()
        .map(|spec| {
            let name = flavor_name(&spec.id);
            if !is_dns_label(&name) {
                return Err(RenderError::Name {
                    name,
                    reason: "a ResourceFlavor name must be a DNS-1123 label",
                });
            }
            Ok(Object::ResourceFlavor(ResourceFlavor {
                api_version: "kueue.x-k8s.io/v1beta2",
                kind: "ResourceFlavor",
                metadata: ObjectMeta {
                    name,
                    namespace: None,
                    labels: Map::new(),
                    annotations: Map::new(),
                },
                spec: ResourceFlavorSpec {
                    node_labels: super::pod::cluster_node_labels(job, spec),
                },
            }))
        })
        .collect()
}

/// What admission changes in every pod template.
pub fn apply_to_pod(job: &Job<'_>, pod: &mut PodTemplate) {
    match &job.kube.admission {
        // Kueue: the template keeps the node selector of the spec that sizes it.
        Admission::None | Admission::Kueue { .. } => {}
        Admission::Volcano { .. } => pod.spec.scheduler_name = Some("volcano".to_owned()),
    }
}

/// Labels admission adds to the job object: Kueue's queue label; for a RayJob under
/// Volcano, KubeRay's scheduler, queue and priority labels (the PyTorchJob carries
/// its Volcano settings in `runPolicy.schedulingPolicy` instead).
pub fn job_labels(job: &Job<'_>) -> Map {
    let mut labels = Map::new();
    match &job.kube.admission {
        Admission::None => {}
        Admission::Kueue { local_queue } => {
            labels.insert(KUEUE_QUEUE_LABEL.to_owned(), local_queue.clone());
        }
        Admission::Volcano { queue } if job.spec.is_ray() => {
            labels.insert("ray.io/scheduler-name".to_owned(), "volcano".to_owned());
            labels.insert("volcano.sh/queue-name".to_owned(), queue.clone());
            if let Some(class) = job.priority_class() {
                labels.insert("ray.io/priority-class-name".to_owned(), class);
            }
        }
        Admission::Volcano { .. } => {}
    }
    labels
}

/// Whether the job is created suspended: under Kueue, which unsuspends it on admission.
pub fn suspended(job: &Job<'_>) -> bool {
    matches!(job.kube.admission, Admission::Kueue { .. })
}
