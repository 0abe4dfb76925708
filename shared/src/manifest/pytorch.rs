//! The PyTorchJob target (`kubeflow.org/v1`, Training Operator v1.9; k8s/RULES.md
//! section 7): Master 1 + Worker N sharing one pod template.

use super::object::{Map, Object, ObjectMeta};
use super::pod::{ContainerPort, PodTemplate};
use super::shell::kubelet_literal;
use super::{Job, RenderError, Target, admission, is_dns1035_label};
use crate::catalog::Admission;
use crate::injected::MASTER_PORT;
use crate::names::{DNS_LABEL_MAX, pytorch_master, pytorch_worker};
use serde::Serialize;
use std::collections::BTreeMap;

/// A PyTorchJob.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PyTorchJob {
    /// `kubeflow.org/v1`.
    pub api_version: &'static str,
    /// `PyTorchJob`.
    pub kind: &'static str,
    /// Name, namespace, labels, annotations.
    pub metadata: ObjectMeta,
    /// The spec.
    pub spec: PyTorchJobSpec,
}

/// `spec`. `nprocPerNode` is deliberately absent: a number there multiplies
/// `WORLD_SIZE`, which must count machines (SPEC.md section 8).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PyTorchJobSpec {
    /// Retries, clean-up, suspension, gang scheduling.
    pub run_policy: RunPolicy,
    /// `Master` and, with workers, `Worker`.
    pub pytorch_replica_specs: BTreeMap<&'static str, ReplicaSpec>,
}

/// `runPolicy`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunPolicy {
    /// Restarts before the job fails: always 0. Berth re-runs the whole gang per fault
    /// tolerance (SPEC.md section 5), so the operator retries nothing itself.
    pub backoff_limit: u32,
    /// Which pods to delete when the job ends.
    pub clean_pod_policy: &'static str,
    /// Created suspended for Kueue.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub suspend: bool,
    /// Volcano gang settings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduling_policy: Option<SchedulingPolicy>,
}

/// `runPolicy.schedulingPolicy`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SchedulingPolicy {
    /// Every replica: the gang starts whole or not at all.
    pub min_available: u32,
    /// Volcano queue.
    pub queue: String,
    /// Priority class of the PodGroup.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority_class: Option<String>,
}

/// One entry of `pytorchReplicaSpecs`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSpec {
    /// Always written, also the master's 1 (the webhook rejects it omitted).
    pub replicas: u32,
    /// Always `Never`: a failed replica fails the job (k8s/RULES.md section 7.3), and
    /// Berth's re-run of the whole gang is the only retry.
    pub restart_policy: &'static str,
    /// The pod template, the same for master and workers.
    pub template: PodTemplate,
}

/// Renders PyTorchJobs.
#[derive(Clone, Copy, Debug)]
pub struct PyTorchJobTarget;

/// The port the operator reads the rendezvous port from.
pub const PORT_NAME: &str = "pytorchjob-port";

impl Target for PyTorchJobTarget {
    fn check_name(&self, name: &str) -> Result<(), RenderError> {
        if !is_dns1035_label(name) {
            return Err(RenderError::Name {
                name: name.to_owned(),
                reason: "a PyTorchJob name must be a DNS-1035 label",
            });
        }
        let master = pytorch_master(name);
        if master.len() > DNS_LABEL_MAX {
            return Err(RenderError::Name {
                name: master,
                reason: "a replica Service name must be at most 63 characters",
            });
        }
        Ok(())
    }

    fn container_name(&self) -> &'static str {
        // The training operator's webhook requires this name.
        "pytorch"
    }

    fn job(&self, job: &Job<'_>, mut template: PodTemplate) -> Result<Object, RenderError> {
        let workers = job.spec.compute.workers;
        if workers > 0 {
            let last = pytorch_worker(job.name, workers - 1);
            if last.len() > DNS_LABEL_MAX {
                return Err(RenderError::Name {
                    name: last,
                    reason: "a replica Service name must be at most 63 characters",
                });
            }
        }
        let container = &mut template.spec.containers[0];
        // Written out so the operator's default and the metrics port can never collide.
        container.ports.insert(
            0,
            ContainerPort {
                name: PORT_NAME,
                container_port: MASTER_PORT,
                protocol: "TCP",
            },
        );
        let mut script = String::new();
        if job.spec.advanced.ssh {
            script.push_str(&super::pod::ssh_setup(true));
        }
        script.push_str(&job.spec.environment.command);
        container.command = vec!["bash".to_owned(), "-c".to_owned(), kubelet_literal(&script)];

        // Fault tolerance is Berth's: its runner re-runs the whole gang on a failed job,
        // up to the task's max retries, each attempt in the task's history (as on the
        // local backend). An operator retrying as well would count every failure twice.
        let (backoff_limit, restart_policy) = (0, "Never");
        let mut replicas = BTreeMap::new();
        replicas.insert(
            "Master",
            ReplicaSpec {
                replicas: 1,
                restart_policy,
                template: template.clone(),
            },
        );
        if workers > 0 {
            replicas.insert(
                "Worker",
                ReplicaSpec {
                    replicas: workers,
                    restart_policy,
                    template,
                },
            );
        }
        let scheduling_policy = match &job.kube.admission {
            Admission::Volcano { queue } => Some(SchedulingPolicy {
                min_available: workers + 1,
                queue: queue.clone(),
                priority_class: job.priority_class(),
            }),
            _ => None,
        };
        let mut labels: Map = job.job_labels();
        labels.extend(admission::job_labels(job));
        Ok(Object::PyTorchJob(Box::new(PyTorchJob {
            api_version: "kubeflow.org/v1",
            kind: "PyTorchJob",
            metadata: ObjectMeta {
                name: job.name.to_owned(),
                namespace: Some(job.namespace.clone()),
                labels,
                annotations: job.job_annotations(),
            },
            spec: PyTorchJobSpec {
                run_policy: RunPolicy {
                    backoff_limit,
                    // Running pods are deleted when the job ends, so no replica keeps
                    // its GPUs; finished pods stay for their logs.
                    clean_pod_policy: "Running",
                    suspend: admission::suspended(job),
                    scheduling_policy,
                },
                pytorch_replica_specs: replicas,
            },
        })))
    }
}
