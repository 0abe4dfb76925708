//! The RayJob target (`ray.io/v1`, KubeRay v1.7; k8s/RULES.md section 8): a head
//! group, one worker group, the entrypoint, the runtime env and the submitter.

use super::object::{Map, Object, ObjectMeta};
use super::pod::{
    Container, ExecAction, Lifecycle, LifecycleHandler, PodSpec, PodTemplate, ResourceRequirements,
    TemplateMeta,
};
use super::shell::{kubelet_literal, single_quoted};
use super::{Job, RenderError, Target, admission, is_dns1035_label};
use crate::catalog::{Admission, InstanceSpec};
use crate::names::RAYJOB_NAME_MAX;
use crate::task::UpscalingMode;
use serde::Serialize;

/// A RayJob.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RayJob {
    /// `ray.io/v1`.
    pub api_version: &'static str,
    /// `RayJob`.
    pub kind: &'static str,
    /// Name, namespace, labels, annotations.
    pub metadata: ObjectMeta,
    /// The spec.
    pub spec: RayJobSpec,
}

/// `spec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RayJobSpec {
    /// The command, as [`entrypoint`] makes it survive the submitter's shells.
    /// Berth's submitter command ([`submitter_command`]) runs it; KubeRay shows it.
    pub entrypoint: String,
    /// A Kubernetes Job runs `ray job submit`.
    pub submission_mode: &'static str,
    /// Always true: Kueue and `suspend` require it, and the cluster is freed.
    pub shutdown_after_job_finishes: bool,
    /// Debug keep time, else 0.
    pub ttl_seconds_after_finished: u32,
    /// Retries; each would create a new Ray cluster. Always 0: Berth re-runs the whole
    /// gang per fault tolerance (SPEC.md section 5), so KubeRay retries nothing itself.
    pub backoff_limit: u32,
    /// Created suspended for Kueue.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub suspend: bool,
    /// The Ray cluster.
    pub ray_cluster_spec: RayClusterSpec,
    /// The submitter pod, with requests equal to limits so quota counts it exactly.
    pub submitter_pod_template: PodTemplate,
}

/// `rayClusterSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RayClusterSpec {
    /// Ray autoscaling.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub enable_in_tree_autoscaling: bool,
    /// Autoscaler settings, with autoscaling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autoscaler_options: Option<AutoscalerOptions>,
    /// The head.
    pub head_group_spec: HeadGroupSpec,
    /// The one worker group; none for a head-only job.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub worker_group_specs: Vec<WorkerGroupSpec>,
}

/// `autoscalerOptions`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoscalerOptions {
    /// `Default`, `Aggressive` or `Conservative`.
    pub upscaling_mode: &'static str,
    /// Seconds an idle worker is kept.
    pub idle_timeout_seconds: u32,
}

/// `headGroupSpec`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadGroupSpec {
    /// `ray start` flags (none: KubeRay's defaults).
    pub ray_start_params: Map,
    /// The head pod.
    pub template: PodTemplate,
}

/// One of `workerGroupSpecs`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkerGroupSpec {
    /// A short DNS-1123 label (not `head`, which Kueue forbids).
    pub group_name: &'static str,
    /// Workers to start with.
    pub replicas: u32,
    /// Fewest workers (required by the CRD; the fixed count without autoscaling).
    pub min_replicas: u32,
    /// Most workers.
    pub max_replicas: u32,
    /// `ray start` flags.
    pub ray_start_params: Map,
    /// The worker pod.
    pub template: PodTemplate,
}

/// Renders RayJobs.
#[derive(Clone, Copy, Debug)]
pub struct RayJobTarget;

/// The worker group's name.
pub const WORKER_GROUP: &str = "workers";

/// The head's own spec, when a RayJob sets one.
///
/// # Errors
///
/// [`RenderError::UnknownSpec`] when it is not in the cluster.
pub fn head_spec<'a>(job: &Job<'a>) -> Result<Option<&'a InstanceSpec>, RenderError> {
    job.spec
        .head_spec()
        .map(|id| {
            job.cluster
                .spec(id)
                .ok_or_else(|| RenderError::UnknownSpec {
                    spec: id.to_owned(),
                })
        })
        .transpose()
}

/// The entrypoint for `ray job submit … -- <entrypoint>`, so that the command runs
/// exactly as `bash -c <command>` would run it. It passes three layers: KubeRay splices
/// it unquoted into the submitter's `bash -ce` line (after the kubelet's `$(VAR)`
/// expansion); `ray job submit` joins the words it receives with Python's
/// `subprocess.list2cmdline` (Windows-style double quotes); Ray runs that line with
/// `/bin/sh`.
///
/// A plain command (letters, digits, spaces and `._-/=,:@%+`) means the same to all
/// three and is kept as written, so it stays readable. Anything else travels base64
/// encoded, in single-quoted words with no space or quote for `list2cmdline` to touch,
/// and is decoded by the job's shell: `set -f; IFS=; exec bash -c $(echo <base64> |
/// base64 -d)` (no field splitting or globbing of the decoded text).
pub fn entrypoint(command: &str) -> String {
    kubelet_literal(&entrypoint_words(command))
}

/// [`entrypoint`] before the kubelet's layer: the words as the submitter's shell reads
/// them.
fn entrypoint_words(command: &str) -> String {
    let plain = !command.trim().is_empty()
        && command
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" ._-/=,:@%+".contains(&b));
    if plain {
        return command.to_owned();
    }
    let encoded = super::shell::base64(command.as_bytes());
    let words = [
        "set", "-f;", "IFS=;", "exec", "bash", "-c", "$(echo", &encoded, "|", "base64", "-d)",
    ];
    let line: Vec<String> = words.iter().map(|w| single_quoted(w)).collect();
    line.join(" ")
}

/// The Python program (`python -c <it> <file>`) that drops the context variables the
/// platform sets in every pod ([`crate::injected::CONTEXT`]: `TASK_UUID`, `X_*`) from
/// the runtime env file's `env_vars`: Ray gives the job's processes those over their
/// pod's environment, and the platform's value wins (SPEC.md section 8), as the form
/// warns (`env.name.platform_injected`) and the local backend does. The file is read and
/// written with PyYAML (which `ray job submit` reads it with, and installs), and only
/// rewritten when it held one of them. KubeRay's own `RAY_*` variables are left: Ray
/// reads many `RAY_*` settings that users set there on purpose.
pub fn runtime_env_filter() -> String {
    let names: Vec<String> = crate::injected::CONTEXT
        .iter()
        .map(|n| format!("'{n}'"))
        .collect();
    format!(
        "import sys,yaml;p=sys.argv[1];d=yaml.safe_load(open(p));\
         e=d.get('env_vars') if isinstance(d,dict) else None;\
         k=[n for n in ({}) if isinstance(e,dict) and n in e];\
         [e.pop(n) for n in k];k and yaml.safe_dump(d,open(p,'w'))",
        names.join(",")
    )
}

/// Where the submitter writes the runtime env for `ray job submit --runtime-env`.
pub const RUNTIME_ENV_FILE: &str = "/tmp/berth-runtime-env.yaml";

/// The submitter container's command (`bash -ce <script>`, then `berth-submitter
/// <runtime env>` when there is one; `$` doubled for the kubelet): what KubeRay v1.7 runs in K8sJobMode (`BuildJobSubmitCommand`,
/// `common/job.go`): wait until the dashboard's GCS is healthy, submit under the
/// submission id KubeRay gives (`--no-wait`, skipped when a retried submitter finds the
/// job submitted), then follow the job's logs; the entrypoint goes after `--` as
/// KubeRay splices it ([`entrypoint`]).
///
/// Berth writes it because KubeRay passes `runtimeEnvYAML` as JSON inside double quotes
/// (Go's `strconv.Quote`) on its `bash -ce` line, where the shell expands `$` and
/// backticks. Here the runtime env YAML is an argument of its own (`$1` of the
/// script: Linux takes at most 128 KiB in one argument, and a 64 KiB command, base64
/// encoded, with a 64 KiB runtime env in the same one was refused, so the submitter
/// never started), written to [`RUNTIME_ENV_FILE`] as it is, which `ray job submit --runtime-env` reads with
/// PyYAML's `safe_load` (the reader Berth validates it as). KubeRay keeps a command the
/// template sets and adds `RAY_DASHBOARD_ADDRESS` (without `http://`) and
/// `RAY_JOB_SUBMISSION_ID` to the container's env (`configureSubmitterContainer`).
/// Before the submit, [`runtime_env_filter`] takes the platform's context variables out
/// of the file's `env_vars`.
pub fn submitter_command(command: &str, runtime_env: &str) -> Vec<String> {
    let mut script = vec![
        "address=http://${RAY_DASHBOARD_ADDRESS#http://}".to_owned(),
        "until python -c \"import urllib.request; r=urllib.request.urlopen('$address/api/gcs_healthz', timeout=10); exit(0 if b'success' in r.read() else 1)\" >/dev/null 2>&1; do echo \"Waiting for Ray Dashboard GCS to become healthy at $address ...\"; sleep 2; done".to_owned(),
    ];
    let mut submit = "ray job submit --address \"$address\" --no-wait".to_owned();
    let with_runtime_env = !runtime_env.trim().is_empty();
    if with_runtime_env {
        script.push(format!("printf '%s' \"$1\" > {RUNTIME_ENV_FILE}"));
        script.push(format!(
            "python -c {} {RUNTIME_ENV_FILE}",
            single_quoted(&runtime_env_filter())
        ));
        submit.push_str(&format!(" --runtime-env {RUNTIME_ENV_FILE}"));
    }
    script.push(format!(
        "if ! ray job status --address \"$address\" \"$RAY_JOB_SUBMISSION_ID\" >/dev/null 2>&1; then {submit} --submission-id \"$RAY_JOB_SUBMISSION_ID\" -- {} ; fi",
        entrypoint_words(command)
    ));
    script
        .push("ray job logs --address \"$address\" --follow \"$RAY_JOB_SUBMISSION_ID\"".to_owned());
    let mut argv = vec![
        "bash".to_owned(),
        "-ce".to_owned(),
        kubelet_literal(&script.join("\n")),
    ];
    if with_runtime_env {
        argv.push("berth-submitter".to_owned());
        argv.push(kubelet_literal(runtime_env));
    }
    argv
}

impl Target for RayJobTarget {
    fn check_name(&self, name: &str) -> Result<(), RenderError> {
        if !is_dns1035_label(name) {
            return Err(RenderError::Name {
                name: name.to_owned(),
                reason: "a RayJob name must be a DNS-1035 label",
            });
        }
        if name.len() > RAYJOB_NAME_MAX {
            return Err(RenderError::Name {
                name: name.to_owned(),
                reason: "a RayJob name must be at most 47 characters",
            });
        }
        Ok(())
    }

    fn container_name(&self) -> &'static str {
        "ray-head"
    }

    fn job(&self, job: &Job<'_>, mut worker: PodTemplate) -> Result<Object, RenderError> {
        let spec = job.spec;
        let ray = &spec.ray;
        let kueue = matches!(job.kube.admission, Admission::Kueue { .. });
        // KubeRay's pods restart nothing themselves (autoscaler v2 requires `Never`);
        // a failed attempt is retried as a whole by Berth's runner, never by KubeRay.
        worker.spec.restart_policy = Some("Never");
        if spec.advanced.ssh {
            // KubeRay owns the Ray container's command, so the key is installed by a
            // hook; its script has no `$`, which the kubelet leaves alone in hooks.
            worker.spec.containers[0].lifecycle = Some(Lifecycle {
                post_start: LifecycleHandler {
                    exec: ExecAction {
                        command: vec![
                            "bash".to_owned(),
                            "-c".to_owned(),
                            super::pod::ssh_setup(false),
                        ],
                    },
                },
            });
        }
        let mut head = worker.clone();
        if let Some(head_spec) = head_spec(job)? {
            head.spec.containers[0].resources =
                ResourceRequirements::of(head_spec, spec.compute.units_per_node);
            // Under Kueue too: the head is sized for its own spec, so only that spec's
            // flavor may admit it.
            head.spec.node_selector = super::pod::node_labels(job, head_spec);
        }
        worker.spec.containers[0].name = "ray-worker".to_owned();

        let autoscaling = &ray.autoscaling;
        let workers = spec.compute.workers;
        let (min, max) = if autoscaling.enabled {
            (autoscaling.min_workers, autoscaling.max_workers)
        } else {
            (workers, workers)
        };
        let worker_group_specs = if max > 0 {
            vec![WorkerGroupSpec {
                group_name: WORKER_GROUP,
                replicas: workers,
                min_replicas: min,
                max_replicas: max,
                ray_start_params: Map::new(),
                template: worker,
            }]
        } else {
            Vec::new()
        };
        let (submitter_volumes, submitter_mounts) = super::pod::submitter_volumes(job);
        let submitter = PodTemplate {
            metadata: TemplateMeta {
                labels: job.task_labels(),
                annotations: Map::new(),
            },
            spec: PodSpec {
                restart_policy: Some("Never"),
                scheduler_name: head.spec.scheduler_name.clone(),
                priority_class_name: head.spec.priority_class_name.clone(),
                node_selector: Map::new(),
                // Berth's command, which KubeRay keeps: its own would let the shell
                // expand the runtime env ([`submitter_command`]).
                containers: vec![Container {
                    name: "ray-job-submitter".to_owned(),
                    image: job.image.clone(),
                    command: submitter_command(&spec.environment.command, &ray.runtime_env),
                    env: Vec::new(),
                    ports: Vec::new(),
                    resources: ResourceRequirements::fixed("1", "1Gi"),
                    volume_mounts: submitter_mounts,
                    lifecycle: None,
                }],
                volumes: submitter_volumes,
            },
        };
        let mut labels = job.job_labels();
        labels.extend(admission::job_labels(job));
        let mut annotations = job.job_annotations();
        if kueue && autoscaling.enabled {
            // Kueue refuses an autoscaling RayJob unless it opts into elastic workloads.
            annotations.insert("kueue.x-k8s.io/elastic-job".to_owned(), "true".to_owned());
        }
        if ray.shared_storage.enabled && ray.shared_storage.clean_on_exit {
            annotations.insert(
                "berth.dev/clean-shared-storage".to_owned(),
                "true".to_owned(),
            );
        }
        Ok(Object::RayJob(Box::new(RayJob {
            api_version: "ray.io/v1",
            kind: "RayJob",
            metadata: ObjectMeta {
                name: job.name.to_owned(),
                namespace: Some(job.namespace.clone()),
                labels,
                annotations,
            },
            spec: RayJobSpec {
                entrypoint: entrypoint(&spec.environment.command),
                submission_mode: "K8sJobMode",
                shutdown_after_job_finishes: true,
                ttl_seconds_after_finished: if ray.debug.enabled {
                    ray.debug.keep_secs
                } else {
                    0
                },
                backoff_limit: 0,
                suspend: admission::suspended(job),
                ray_cluster_spec: RayClusterSpec {
                    enable_in_tree_autoscaling: autoscaling.enabled,
                    autoscaler_options: autoscaling.enabled.then_some(AutoscalerOptions {
                        upscaling_mode: match autoscaling.upscaling_mode {
                            UpscalingMode::Default => "Default",
                            UpscalingMode::Aggressive => "Aggressive",
                            UpscalingMode::Conservative => "Conservative",
                        },
                        idle_timeout_seconds: autoscaling.idle_timeout_secs,
                    }),
                    head_group_spec: HeadGroupSpec {
                        ray_start_params: Map::new(),
                        template: head,
                    },
                    worker_group_specs,
                },
                submitter_pod_template: submitter,
            },
        })))
    }
}
