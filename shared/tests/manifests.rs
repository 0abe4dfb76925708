//! The objects `shared::manifest::render` gives, checked the way the Kubernetes API
//! server, the operators and the kubelet would check them (k8s/RULES.md).
//!
//! - Custom resources (PyTorchJob, RayJob, Kueue ResourceFlavor) against the upstream
//!   CRD `openAPIV3Schema` in `../shared/k8s/crds` (`BERTH_K8S_CRDS` overrides), with
//!   the `jsonschema` crate as draft 4, plus what the API server adds (RULES.md 0):
//!   unknown fields are errors (as `fieldValidation=Strict`) outside
//!   `x-kubernetes-preserve-unknown-fields` subtrees, `additionalProperties` maps and
//!   schema-less `type: object` maps (pod template `metadata`); `x-kubernetes-list-type`
//!   `map` and `set` uniqueness. `x-kubernetes-int-or-string` quantities are checked by
//!   the schema's own `anyOf` + pattern. CEL rules are not evaluated: the create-time
//!   ones that apply to what Berth writes (RayJob `suspend` needs
//!   `shutdownAfterJobFinishes`, TTL > 0 needs it too) are asserted by hand.
//! - Core rules the schemas leave open (RULES.md 1, 2, 4, 5, 6): object names DNS-1123
//!   subdomains, namespaces and container and volume names DNS-1123 labels, label keys
//!   and values, annotation size, Secret `data` base64, port names, mounts naming a
//!   volume at unique absolute paths, requests equal to limits with whole GPUs.
//! - The PodMonitor has no CRD here; its shape is asserted by hand.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use serde_json::Value;
use shared::catalog::{Admission, Catalog, KubeSettings, PriorityClasses, Scrape};
use shared::manifest::{RenderError, SshKeyPair, render};
use shared::names::{
    final_name, max_name_prefix_len, pytorch_master, pytorch_worker, ray_head_service,
    ray_pod_group, suffix_from,
};
use shared::task::{IdleStability, Priority, ResourceKind};
use shared::{TaskSpec, TaskType, demo};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::OnceLock;

// ---------------------------------------------------------------- fixtures

const UUID: &str = "5f0c8a3e-2b1d-4c6e-9f7a-1d2e3f4a5b6c";

fn key() -> SshKeyPair {
    SshKeyPair {
        private_key:
            "-----BEGIN OPENSSH PRIVATE KEY-----\ntest\n-----END OPENSSH PRIVATE KEY-----\n"
                .to_owned(),
        public_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAITest berth".to_owned(),
    }
}

fn objects(spec: &TaskSpec, name: &str, catalog: &Catalog) -> Vec<Value> {
    render(spec, name, UUID, catalog, &demo::user(), Some(&key()))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .iter()
        .map(|o| serde_json::to_value(o).expect("serialises"))
        .collect()
}

fn job_of(objects: &[Value]) -> &Value {
    objects.last().expect("the job comes last")
}

/// The catalog with every cluster's Kubernetes settings replaced.
fn with_kube(admission: Admission, monitoring: Scrape) -> Catalog {
    let mut catalog = demo::catalog();
    for cluster in catalog.regions.iter_mut().flat_map(|r| &mut r.clusters) {
        cluster.kubernetes = KubeSettings {
            namespace: "{tenant}-{project_group}".to_owned(),
            admission: admission.clone(),
            priority_classes: PriorityClasses {
                low: Some("berth-low".into()),
                normal: Some("berth-normal".into()),
                high: None,
            },
            monitoring,
        };
    }
    catalog
}

/// The RayJob example moved to cluster `sh-a`, which serves every resource kind.
fn ray_on_sh_a() -> TaskSpec {
    demo::ray().with(|s| {
        s.basic.region = "cn-east".into();
        s.basic.cluster = "sh-a".into();
        s.basic.project_group = "nlp".into();
        s.compute.pool = Some("sh-a-shared".into());
    })
}

fn set_kind(spec: &mut TaskSpec, kind: ResourceKind) {
    let c = &mut spec.compute;
    c.kind = Some(kind);
    c.specs = vec!["a100-1g".into()];
    c.accept_idle = false;
    c.prefer_idle = false;
    c.idle_stability = None;
    c.priority = None;
    c.guarantee = None;
    match kind {
        ResourceKind::Reserved => c.pool = Some("sh-a-shared".into()),
        ResourceKind::OnDemand => {
            c.pool = None;
            c.priority = Some(Priority::Normal);
            c.guarantee = Some(true);
        }
        ResourceKind::Spot => {
            c.pool = None;
            c.priority = Some(Priority::Low);
        }
        ResourceKind::Idle => {
            c.pool = None;
            c.idle_stability = Some(IdleStability::Medium);
        }
    }
}

/// Option sets: everything off on one machine; everything on with several workers;
/// text that the kubelet and shells would rewrite.
fn options(spec: &mut TaskSpec, variant: &str) {
    let ray = spec.is_ray();
    match variant {
        "plain" => {
            spec.compute.workers = 0;
            spec.compute.head_spec = None;
            spec.environment.env.clear();
            spec.environment.storage.clear();
            spec.environment.datasets.clear();
            spec.environment.models.clear();
            spec.advanced.ssh = false;
            spec.advanced.monitoring.enabled = false;
            spec.advanced.fault_tolerance.enabled = false;
            spec.ray = Default::default();
            if !ray {
                spec.environment.command = "python train.py".into();
            }
        }
        "full" => {
            spec.compute.workers = 3;
            spec.advanced.ssh = true;
            spec.advanced.monitoring.enabled = true;
            spec.advanced.monitoring.port = 9400;
            spec.advanced.fault_tolerance.enabled = true;
            spec.environment.env.push(shared::task::EnvVar {
                name: "API_TOKEN".into(),
                value: "t0k$n".into(),
                hidden: true,
            });
            spec.environment.datasets.push(shared::task::Mount {
                id: "ds-c4".into(),
                path: "/mnt/data/c4-again".into(),
            });
            if ray {
                spec.compute.head_spec = Some("cpu-8c".into());
                spec.ray.autoscaling.enabled = true;
                spec.ray.autoscaling.min_workers = 1;
                spec.ray.autoscaling.max_workers = 4;
                spec.ray.debug.enabled = true;
                spec.ray.debug.keep_secs = 900;
                spec.ray.shared_storage.enabled = true;
            }
        }
        "dollar" => {
            spec.compute.workers = 1;
            spec.environment.command = r#"echo "$HOME" '$(RANK)' $$ `date` \n; x=$((1+2))"#.into();
            spec.environment.env.push(shared::task::EnvVar {
                name: "PATTERN".into(),
                value: "a$(B)c$$".into(),
                hidden: false,
            });
        }
        other => unreachable!("{other}"),
    }
}

struct Case {
    label: String,
    spec: TaskSpec,
    catalog: Catalog,
}

/// Both task types × the four resource kinds × three option sets × three admissions
/// × two scrape modes.
fn corpus() -> Vec<Case> {
    let mut cases = Vec::new();
    let admissions = [
        Admission::None,
        Admission::Kueue {
            local_queue: "team-a".into(),
        },
        Admission::Volcano {
            queue: "research".into(),
        },
    ];
    for (type_label, base) in [("pytorch", demo::pytorch()), ("ray", ray_on_sh_a())] {
        for kind in [
            ResourceKind::Reserved,
            ResourceKind::OnDemand,
            ResourceKind::Spot,
            ResourceKind::Idle,
        ] {
            for variant in ["plain", "full", "dollar"] {
                let mut spec = base.clone();
                set_kind(&mut spec, kind);
                options(&mut spec, variant);
                for admission in &admissions {
                    for scrape in [Scrape::Annotations, Scrape::PodMonitor] {
                        cases.push(Case {
                            label: format!(
                                "{type_label}/{kind:?}/{variant}/{admission:?}/{scrape:?}"
                            ),
                            spec: spec.clone(),
                            catalog: with_kube(admission.clone(), scrape),
                        });
                    }
                }
            }
        }
    }
    cases
}

// ---------------------------------------------------------------- CRD schemas

fn crds_dir() -> PathBuf {
    let dir = std::env::var_os("BERTH_K8S_CRDS")
        .map_or_else(|| PathBuf::from("../shared/k8s/crds"), PathBuf::from);
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir)
}

fn yaml_to_json(yaml: &yaml_rust2::Yaml) -> Value {
    use yaml_rust2::Yaml;
    match yaml {
        Yaml::Real(r) => r.parse::<f64>().map_or(Value::Null, Value::from),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::String(s) => Value::from(s.as_str()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => items.iter().map(yaml_to_json).collect(),
        Yaml::Hash(map) => map
            .iter()
            .map(|(k, v)| {
                let key = match k {
                    Yaml::String(s) => s.clone(),
                    other => yaml_to_json(other).to_string(),
                };
                (key, yaml_to_json(v))
            })
            .collect::<serde_json::Map<_, _>>()
            .into(),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

struct Crd {
    schema: Value,
    validator: jsonschema::Validator,
}

fn load_crd(file: &str, version: &str) -> Crd {
    let path = crds_dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set BERTH_K8S_CRDS)", path.display()));
    let docs = yaml_rust2::YamlLoader::load_from_str(&text).expect("the CRD is YAML");
    let crd = yaml_to_json(&docs[0]);
    let schema = crd["spec"]["versions"]
        .as_array()
        .expect("versions")
        .iter()
        .find(|v| v["name"] == version)
        .map(|v| v["schema"]["openAPIV3Schema"].clone())
        .unwrap_or_else(|| panic!("{file} has no version {version}"));
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .expect("the CRD schema compiles");
    Crd { schema, validator }
}

fn crd_for(api_version: &str, kind: &str) -> Option<&'static Crd> {
    static PYTORCH: OnceLock<Crd> = OnceLock::new();
    static RAY: OnceLock<Crd> = OnceLock::new();
    static FLAVOR: OnceLock<Crd> = OnceLock::new();
    match (api_version, kind) {
        ("kubeflow.org/v1", "PyTorchJob") => {
            Some(PYTORCH.get_or_init(|| load_crd("kubeflow.org_pytorchjobs.yaml", "v1")))
        }
        ("ray.io/v1", "RayJob") => Some(RAY.get_or_init(|| load_crd("ray.io_rayjobs.yaml", "v1"))),
        ("kueue.x-k8s.io/v1beta2", "ResourceFlavor") => {
            Some(FLAVOR.get_or_init(|| load_crd("kueue.x-k8s.io_resourceflavors.yaml", "v1beta2")))
        }
        _ => None,
    }
}

/// What the API server checks beyond JSON Schema: unknown fields (strict) and
/// list-map / list-set uniqueness.
fn structural(schema: &Value, value: &Value, path: &str, errors: &mut Vec<String>) {
    if schema["x-kubernetes-preserve-unknown-fields"] == true {
        return;
    }
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            if properties.is_none() && additional.is_none() {
                // A schema-less map (pod template `metadata`): nothing to prune against.
                return;
            }
            for (key, item) in map {
                let child = format!("{path}.{key}");
                match (properties.and_then(|p| p.get(key)), additional) {
                    (Some(s), _) | (None, Some(s)) => structural(s, item, &child, errors),
                    (None, None) => errors.push(format!("{child}: unknown field")),
                }
            }
        }
        Value::Array(items) => {
            match schema["x-kubernetes-list-type"].as_str() {
                Some("map") => {
                    let keys: Vec<&str> = schema["x-kubernetes-list-map-keys"]
                        .as_array()
                        .map(|k| k.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    let mut seen = BTreeSet::new();
                    for item in items {
                        let tuple: Vec<String> =
                            keys.iter().map(|k| item[*k].to_string()).collect();
                        if !seen.insert(tuple.clone()) {
                            errors.push(format!("{path}: duplicate list-map key {tuple:?}"));
                        }
                    }
                }
                Some("set") => {
                    let mut seen = BTreeSet::new();
                    for item in items {
                        if !seen.insert(item.to_string()) {
                            errors.push(format!("{path}: duplicate list-set item {item}"));
                        }
                    }
                }
                _ => {}
            }
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    structural(item_schema, item, &format!("{path}[{i}]"), errors);
                }
            }
        }
        _ => {}
    }
}

fn crd_errors(object: &Value) -> Vec<String> {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let kind = object["kind"].as_str().unwrap_or_default();
    let Some(crd) = crd_for(api_version, kind) else {
        return Vec::new();
    };
    let mut errors: Vec<String> = crd
        .validator
        .iter_errors(object)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    structural(&crd.schema, object, "", &mut errors);
    errors
}

// ---------------------------------------------------------------- Kubernetes' own rules

fn is_dns_label(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253 && s.split('.').all(is_dns_label)
}

fn is_dns1035_label(s: &str) -> bool {
    is_dns_label(s) && s.as_bytes()[0].is_ascii_lowercase()
}

fn is_label_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(c))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

fn is_label_key(s: &str) -> bool {
    match s.split_once('/') {
        Some((prefix, name)) => is_dns_subdomain(prefix) && is_label_name(name),
        None => is_label_name(s),
    }
}

fn is_label_value(s: &str) -> bool {
    s.is_empty() || is_label_name(s)
}

fn is_iana_port_name(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 15
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && b.iter().any(u8::is_ascii_lowercase)
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && !s.contains("--")
}

fn base64_decodes(s: &str) -> bool {
    s.len().is_multiple_of(4)
        && s.trim_end_matches('=').len() + 2 >= s.len()
        && s.trim_end_matches('=')
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
}

fn meta_errors(object: &Value, errors: &mut Vec<String>) {
    let meta = &object["metadata"];
    let name = meta["name"].as_str().unwrap_or_default();
    if !is_dns_subdomain(name) {
        errors.push(format!(
            "metadata.name {name:?} is not a DNS-1123 subdomain"
        ));
    }
    if let Some(ns) = meta["namespace"].as_str()
        && !is_dns_label(ns)
    {
        errors.push(format!("namespace {ns:?} is not a DNS-1123 label"));
    }
    label_errors(&meta["labels"], "metadata.labels", errors);
    annotation_errors(&meta["annotations"], "metadata.annotations", errors);
}

fn label_errors(labels: &Value, at: &str, errors: &mut Vec<String>) {
    for (k, v) in labels.as_object().into_iter().flatten() {
        if !is_label_key(k) {
            errors.push(format!("{at}: bad label key {k:?}"));
        }
        if !v.as_str().is_some_and(is_label_value) {
            errors.push(format!("{at}: bad label value {v} for {k:?}"));
        }
    }
}

fn annotation_errors(annotations: &Value, at: &str, errors: &mut Vec<String>) {
    let mut size = 0;
    for (k, v) in annotations.as_object().into_iter().flatten() {
        if !is_label_key(&k.to_lowercase()) {
            errors.push(format!("{at}: bad annotation key {k:?}"));
        }
        size += k.len() + v.as_str().map_or(usize::MAX / 2, str::len);
    }
    if size > 256 * 1024 {
        errors.push(format!("{at}: {size} bytes, over 256 KiB"));
    }
}

/// Every pod template in a job object.
fn templates(job: &Value) -> Vec<(String, &Value)> {
    let spec = &job["spec"];
    let mut out = Vec::new();
    for (role, replica) in spec["pytorchReplicaSpecs"]
        .as_object()
        .into_iter()
        .flatten()
    {
        out.push((role.clone(), &replica["template"]));
    }
    let cluster = &spec["rayClusterSpec"];
    if cluster.is_object() {
        out.push(("head".into(), &cluster["headGroupSpec"]["template"]));
        for group in cluster["workerGroupSpecs"].as_array().into_iter().flatten() {
            out.push(("workers".into(), &group["template"]));
        }
        out.push(("submitter".into(), &spec["submitterPodTemplate"]));
    }
    out
}

/// Whether the kubelet's `$(VAR)` expansion would change `text`: a `$` not doubled.
fn has_lone_dollar(text: &str) -> bool {
    text.replace("$$", "").contains('$')
}

fn pod_errors(role: &str, template: &Value, errors: &mut Vec<String>) {
    label_errors(&template["metadata"]["labels"], role, errors);
    annotation_errors(&template["metadata"]["annotations"], role, errors);
    let spec = &template["spec"];
    let mut volumes = BTreeSet::new();
    for volume in spec["volumes"].as_array().into_iter().flatten() {
        let name = volume["name"].as_str().unwrap_or_default();
        if !is_dns_label(name) || !volumes.insert(name) {
            errors.push(format!("{role}: volume name {name:?} invalid or repeated"));
        }
        if ["shared-mem", "ray-logs"].contains(&name) {
            errors.push(format!(
                "{role}: volume {name:?} takes a name KubeRay injects"
            ));
        }
        let sources = ["persistentVolumeClaim", "secret", "configMap", "emptyDir"]
            .iter()
            .filter(|s| volume.get(**s).is_some())
            .count();
        if sources != 1 {
            errors.push(format!("{role}: volume {name:?} has {sources} sources"));
        }
        if let Some(claim) = volume["persistentVolumeClaim"]["claimName"].as_str()
            && !is_dns_subdomain(claim)
        {
            errors.push(format!("{role}: claim {claim:?} is not an object name"));
        }
    }
    let mut containers = BTreeSet::new();
    let mut port_names = BTreeSet::new();
    for container in spec["containers"].as_array().into_iter().flatten() {
        let name = container["name"].as_str().unwrap_or_default();
        if !is_dns_label(name) || !containers.insert(name) {
            errors.push(format!(
                "{role}: container name {name:?} invalid or repeated"
            ));
        }
        if container["image"].as_str().is_none_or(str::is_empty) {
            errors.push(format!("{role}/{name}: no image"));
        }
        for port in container["ports"].as_array().into_iter().flatten() {
            let port_name = port["name"].as_str().unwrap_or_default();
            let number = port["containerPort"].as_u64().unwrap_or(0);
            if !is_iana_port_name(port_name) || !port_names.insert(port_name) {
                errors.push(format!(
                    "{role}/{name}: port name {port_name:?} invalid or repeated"
                ));
            }
            if !(1..=65535).contains(&number) {
                errors.push(format!("{role}/{name}: port {number} out of range"));
            }
        }
        let mut paths = BTreeSet::new();
        for mount in container["volumeMounts"].as_array().into_iter().flatten() {
            let path = mount["mountPath"].as_str().unwrap_or_default();
            if !path.starts_with('/') || path.contains(':') || !paths.insert(path) {
                errors.push(format!(
                    "{role}/{name}: mount path {path:?} bad or repeated"
                ));
            }
            let volume = mount["name"].as_str().unwrap_or_default();
            if !volumes.contains(volume) {
                errors.push(format!("{role}/{name}: mount names no volume {volume:?}"));
            }
            if let Some(sub) = mount["subPath"].as_str()
                && (sub.starts_with('/') || sub.split('/').any(|p| p == ".."))
            {
                errors.push(format!("{role}/{name}: subPath {sub:?} not relative"));
            }
        }
        let resources = &container["resources"];
        if resources["requests"] != resources["limits"] {
            errors.push(format!("{role}/{name}: requests differ from limits"));
        }
        if let Some(gpu) = resources["limits"].get("nvidia.com/gpu")
            && !gpu
                .as_str()
                .is_some_and(|g| g.parse::<u64>().is_ok_and(|n| n > 0))
        {
            errors.push(format!("{role}/{name}: GPU {gpu} is not a whole number"));
        }
        for part in container["command"].as_array().into_iter().flatten() {
            if has_lone_dollar(part.as_str().unwrap_or_default()) {
                errors.push(format!(
                    "{role}/{name}: a `$` in the command is not doubled"
                ));
            }
        }
        for var in container["env"].as_array().into_iter().flatten() {
            if let Some(value) = var["value"].as_str()
                && has_lone_dollar(value)
            {
                errors.push(format!("{role}/{name}: env {} has a lone `$`", var["name"]));
            }
        }
    }
}

fn core_errors(object: &Value, objects: &[Value], errors: &mut Vec<String>) {
    meta_errors(object, errors);
    match object["kind"].as_str().unwrap_or_default() {
        "Secret" => {
            if object["type"] != "Opaque" {
                errors.push("Secret type is not Opaque".into());
            }
            for (k, v) in object["data"].as_object().into_iter().flatten() {
                let key_ok = !k.is_empty()
                    && k.bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c));
                if !key_ok || !v.as_str().is_some_and(base64_decodes) {
                    errors.push(format!("Secret key {k:?} or its base64 value is invalid"));
                }
            }
        }
        "ConfigMap" => {
            for k in object["data"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k)
            {
                if !k
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"-._".contains(&c))
                {
                    errors.push(format!("ConfigMap key {k:?} is invalid"));
                }
            }
        }
        "PodMonitor" => {
            let spec = &object["spec"];
            let selector = &spec["selector"]["matchLabels"];
            label_errors(selector, "PodMonitor selector", errors);
            let job = job_of(objects);
            for (role, template) in templates(job) {
                for (k, v) in selector.as_object().into_iter().flatten() {
                    if template["metadata"]["labels"][k] != *v {
                        errors.push(format!("PodMonitor does not select the {role} pods"));
                    }
                }
            }
            let port = spec["podMetricsEndpoints"][0]["port"]
                .as_str()
                .unwrap_or_default();
            let served = templates(job).iter().any(|(_, t)| {
                t["spec"]["containers"][0]["ports"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| p["name"] == port)
            });
            if !served {
                errors.push(format!(
                    "PodMonitor port {port:?} is served by no container"
                ));
            }
        }
        "PyTorchJob" | "RayJob" => {
            for (role, template) in templates(object) {
                pod_errors(&role, template, errors);
            }
        }
        _ => {}
    }
    if object["kind"] == "RayJob" {
        let spec = &object["spec"];
        // CEL and controller rules of KubeRay that apply to what Berth writes.
        if (spec["suspend"] == true || spec["ttlSecondsAfterFinished"].as_u64() > Some(0))
            && spec["shutdownAfterJobFinishes"] != true
        {
            errors.push("suspend or a TTL without shutdownAfterJobFinishes".into());
        }
    }
}

// ---------------------------------------------------------------- the corpus

#[test]
fn every_rendered_object_of_the_corpus_passes_the_schemas_and_kubernetes_rules() {
    let cases = corpus();
    assert_eq!(cases.len(), 2 * 4 * 3 * 3 * 2);
    let mut failures = Vec::new();
    let mut kinds = BTreeSet::new();
    for case in &cases {
        let check = shared::check(&case.spec, &case.catalog, &demo::usage(), &demo::user());
        let blocking: Vec<&str> = check
            .issues
            .errors()
            .map(|i| i.code.code())
            .filter(|c| !c.starts_with("compute.quota") && !c.starts_with("compute.gang"))
            .collect();
        assert!(
            blocking.is_empty(),
            "{}: the spec is invalid: {blocking:?}",
            case.label
        );
        let task_type = case.spec.task_type().expect("typed");
        let prefix = &case.spec.basic.name_prefix;
        let name = final_name(prefix, "bcdfg");
        let objects = objects(&case.spec, &name, &case.catalog);
        for object in &objects {
            kinds.insert(object["kind"].as_str().unwrap_or_default().to_owned());
            let mut errors = crd_errors(object);
            core_errors(object, &objects, &mut errors);
            for e in errors {
                failures.push(format!(
                    "{} {} {}: {e}",
                    case.label, object["kind"], object["metadata"]["name"]
                ));
            }
        }
        assert_eq!(
            job_of(&objects)["kind"],
            match task_type {
                TaskType::PyTorchJob => "PyTorchJob",
                TaskType::RayJob => "RayJob",
            }
        );
    }
    assert!(
        failures.is_empty(),
        "{} problem(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The corpus reaches every kind of object the renderer writes.
    let expected: BTreeSet<String> = [
        "ConfigMap",
        "PodMonitor",
        "PyTorchJob",
        "RayJob",
        "ResourceFlavor",
        "Secret",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(kinds, expected);
}

#[test]
fn the_checks_catch_what_the_api_server_would_refuse() {
    let catalog = demo::catalog();
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &catalog);
    let job = job_of(&objects).clone();
    assert!(crd_errors(&job).is_empty(), "{:?}", crd_errors(&job));

    let mut unknown = job.clone();
    unknown["spec"]["runPolicy"]["retries"] = 3.into();
    assert!(
        crd_errors(&unknown)
            .iter()
            .any(|e| e.contains("unknown field"))
    );

    let mut twice = job.clone();
    let env =
        twice["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["env"]
            .as_array_mut()
            .expect("env");
    let first = env[0].clone();
    env.push(first);
    assert!(
        crd_errors(&twice)
            .iter()
            .any(|e| e.contains("duplicate list-map key"))
    );

    let mut quantity = job.clone();
    quantity["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["resources"]
        ["limits"]["cpu"] = "12 cores".into();
    assert!(
        !crd_errors(&quantity).is_empty(),
        "a bad quantity is caught"
    );

    let mut dollar = job;
    dollar["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["command"]
        [2] = "echo $(RANK)".into();
    let mut errors = Vec::new();
    core_errors(&dollar, &objects, &mut errors);
    assert!(
        errors.iter().any(|e| e.contains("not doubled")),
        "{errors:?}"
    );
}

// ---------------------------------------------------------------- the traps of RULES.md

fn template<'a>(job: &'a Value, role: &str) -> &'a Value {
    &job["spec"]["pytorchReplicaSpecs"][role]["template"]
}

fn env_map(container: &Value) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    for var in container["env"].as_array().into_iter().flatten() {
        let name = var["name"].as_str().expect("name").to_owned();
        assert!(
            map.insert(name.clone(), var.clone()).is_none(),
            "{name} twice"
        );
    }
    map
}

#[test]
fn nproc_per_node_is_left_unset_so_world_size_counts_machines() {
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &demo::catalog());
    let spec = &job_of(&objects)["spec"];
    assert!(spec.get("nprocPerNode").is_none());
    assert!(spec.get("elasticPolicy").is_none());
}

#[test]
fn a_single_machine_has_master_replicas_1_and_no_worker_entry() {
    let single = demo::pytorch().with(|s| s.compute.workers = 0);
    let objects = objects(&single, "llama-finetune-bcdfg", &demo::catalog());
    let replicas = &job_of(&objects)["spec"]["pytorchReplicaSpecs"];
    assert_eq!(replicas["Master"]["replicas"], 1);
    assert!(replicas.get("Worker").is_none());
    assert_eq!(replicas.as_object().map(|m| m.len()), Some(1));

    let four = demo::pytorch().with(|s| s.compute.workers = 3);
    let objects = self::objects(&four, "llama-finetune-bcdfg", &demo::catalog());
    let replicas = &job_of(&objects)["spec"]["pytorchReplicaSpecs"];
    assert_eq!(replicas["Master"]["replicas"], 1);
    assert_eq!(replicas["Worker"]["replicas"], 3);
}

#[test]
fn the_container_is_named_pytorch_and_declares_the_master_port() {
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &demo::catalog());
    for role in ["Master", "Worker"] {
        let container = &template(job_of(&objects), role)["spec"]["containers"][0];
        assert_eq!(container["name"], "pytorch");
        assert_eq!(container["ports"][0]["name"], "pytorchjob-port");
        assert_eq!(container["ports"][0]["containerPort"], 23456);
    }
}

#[test]
fn env_has_one_entry_per_name_and_leaves_operator_names_to_the_operator() {
    // alice's persistent env has HF_HOME; the task sets it again, and RANK and PET_X,
    // which the training operator injects itself.
    let spec = demo::pytorch().with(|s| {
        for (name, value) in [("HF_HOME", "/task/hf"), ("RANK", "7"), ("PET_NNODES", "9")] {
            s.environment.env.push(shared::task::EnvVar {
                name: name.into(),
                value: value.into(),
                hidden: false,
            });
        }
    });
    let objects = objects(&spec, "llama-finetune-bcdfg", &demo::catalog());
    let env = env_map(&template(job_of(&objects), "Master")["spec"]["containers"][0]);
    assert_eq!(env["HF_HOME"]["value"], "/task/hf", "the task's value wins");
    assert!(!env.contains_key("RANK") && !env.contains_key("PET_NNODES"));
    assert_eq!(env["TASK_UUID"]["value"], UUID);
    assert_eq!(env["X_USER_NAME"]["value"], "alice");
    assert_eq!(env["X_CLUSTER"]["value"], "sh-a");
    assert_eq!(env["TZ"]["value"], "Asia/Shanghai");
}

#[test]
fn only_the_exact_names_an_operator_injects_are_left_to_it() {
    // RULES.md 3.3 lists what each operator sets; a user's RAY_* or PET_* var outside
    // that list reaches the pods (Ray reads RAY_DEDUP_LOGS and the like from them).
    let with = |spec: TaskSpec, names: &[&str]| {
        spec.with(|s| {
            for name in names {
                s.environment.env.push(shared::task::EnvVar {
                    name: (*name).into(),
                    value: "1".into(),
                    hidden: false,
                });
            }
        })
    };
    let pytorch = with(
        demo::pytorch(),
        &[
            "PET_LOG_DIR",
            "RAY_DEDUP_LOGS",
            "PET_NODE_RANK",
            "MASTER_PORT",
            "PYTHONUNBUFFERED",
        ],
    );
    let objects = objects(&pytorch, "llama-finetune-bcdfg", &demo::catalog());
    let env = env_map(&template(job_of(&objects), "Worker")["spec"]["containers"][0]);
    for kept in ["PET_LOG_DIR", "RAY_DEDUP_LOGS"] {
        assert_eq!(env[kept]["value"], "1", "{kept}");
    }
    for dropped in ["PET_NODE_RANK", "MASTER_PORT", "PYTHONUNBUFFERED"] {
        assert!(!env.contains_key(dropped), "{dropped}");
    }

    let ray = with(
        ray_on_sh_a(),
        &[
            "RAY_DEDUP_LOGS",
            "PET_LOG_DIR",
            "PYTHONUNBUFFERED",
            "RAY_ADDRESS",
            "RAY_IP",
            "RAY_USAGE_STATS_ENABLED",
            "KUBERAY_GEN_RAY_START_CMD",
        ],
    );
    let objects = objects_for_ray_spec(&ray);
    let cluster = &job_of(&objects)["spec"]["rayClusterSpec"];
    for template in [
        &cluster["headGroupSpec"]["template"],
        &cluster["workerGroupSpecs"][0]["template"],
    ] {
        let env = env_map(&template["spec"]["containers"][0]);
        for kept in ["RAY_DEDUP_LOGS", "PET_LOG_DIR", "PYTHONUNBUFFERED"] {
            assert_eq!(env[kept]["value"], "1", "{kept}");
        }
        for dropped in [
            "RAY_ADDRESS",
            "RAY_IP",
            "RAY_USAGE_STATS_ENABLED",
            "KUBERAY_GEN_RAY_START_CMD",
        ] {
            assert!(!env.contains_key(dropped), "{dropped}");
        }
    }
}

fn objects_for_ray_spec(spec: &TaskSpec) -> Vec<Value> {
    objects(spec, "ray-tune-bcdfg", &demo::catalog())
}

#[test]
fn hidden_values_are_referenced_from_a_secret_never_inlined() {
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &demo::catalog());
    let text = serde_json::to_string(job_of(&objects)).expect("JSON");
    assert!(!text.contains("hf_demo_secret") && !text.contains("wandb-demo-secret"));
    let env = env_map(&template(job_of(&objects), "Master")["spec"]["containers"][0]);
    for name in ["HF_TOKEN", "WANDB_API_KEY"] {
        assert_eq!(
            env[name]["valueFrom"]["secretKeyRef"]["name"],
            "llama-finetune-bcdfg-env"
        );
        assert_eq!(env[name]["valueFrom"]["secretKeyRef"]["key"], name);
    }
    let secret = &objects[0];
    assert_eq!(
        (secret["kind"].as_str(), secret["metadata"]["name"].as_str()),
        (Some("Secret"), Some("llama-finetune-bcdfg-env"))
    );
    assert_eq!(
        secret["data"]["HF_TOKEN"], "aGZfZGVtb19zZWNyZXQ=",
        "base64 of hf_demo_secret"
    );
}

#[test]
fn every_dollar_is_doubled_in_command_and_env_values() {
    let spec = demo::pytorch().with(|s| {
        s.advanced.ssh = false;
        s.environment.command = "echo $HOME $(RANK) $$".into();
        s.environment.env.push(shared::task::EnvVar {
            name: "PATTERN".into(),
            value: "a$(B)".into(),
            hidden: false,
        });
    });
    let objects = objects(&spec, "llama-finetune-bcdfg", &demo::catalog());
    let container = &template(job_of(&objects), "Master")["spec"]["containers"][0];
    assert_eq!(
        container["command"],
        serde_json::json!(["bash", "-c", "echo $$HOME $$(RANK) $$$$"])
    );
    assert_eq!(env_map(container)["PATTERN"]["value"], "a$$(B)");
}

/// The kubelet's expansion of a command in which every `$` is doubled: `$$` → `$`.
fn kubelet(text: &str) -> String {
    assert!(!has_lone_dollar(text), "{text}");
    text.replace("$$", "$")
}

/// Runs `program args…` and returns its stdout; panics when it cannot start.
fn run(program: &str, args: &[&str]) -> (bool, Vec<u8>) {
    let output = std::process::Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    (output.status.success(), output.stdout)
}

#[test]
fn the_ray_entrypoint_runs_the_command_exactly_through_submitter_ray_cli_and_job_shell() {
    // Commands with the shell syntax RULES.md 8.1 warns about; each must print what it
    // prints when run as `bash -c` directly.
    let commands = [
        "echo plain words",
        r#"printf '%s|' "a b" 'it'"'"'s' $((2+3)); echo"#,
        "x=$(echo sub); echo \"$x\" && echo and; echo semi | tr a-z A-Z",
        "echo \"$0\" '$(RANK)' \\$HOME `echo tick` \"quote\\\"d\"",
        "echo line1\necho '  two  spaces  '\n# a comment\necho *",
    ];
    for command in commands {
        let spec = ray_on_sh_a().with(|s| s.environment.command = command.into());
        let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
        let entrypoint = job_of(&objects)["spec"]["entrypoint"]
            .as_str()
            .expect("entrypoint")
            .to_owned();
        // 1. The kubelet, then KubeRay's `bash -ce "… ray job submit … -- <entrypoint>"`:
        //    the words `ray job submit` receives.
        let (ok, words) = run(
            "bash",
            &["-ce", &format!("printf '%s\\0' {}", kubelet(&entrypoint))],
        );
        assert!(ok, "{entrypoint}");
        let words: Vec<String> = words
            .split(|b| *b == 0)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        // 2. `ray job submit` joins them with `subprocess.list2cmdline`.
        let mut args = vec![
            "-c",
            "import subprocess, sys; sys.stdout.write(subprocess.list2cmdline(sys.argv[1:]))",
        ];
        args.extend(words.iter().map(String::as_str));
        let (ok, line) = run("python3", &args);
        assert!(ok);
        // 3. Ray runs the line with /bin/sh.
        let (_, through) = run("sh", &["-c", &String::from_utf8_lossy(&line)]);
        let (ok, direct) = run("bash", &["-c", command]);
        assert!(ok, "{command}");
        assert_eq!(
            String::from_utf8_lossy(&through),
            String::from_utf8_lossy(&direct),
            "{command} → {entrypoint}"
        );
    }
    // A plain command stays readable.
    let spec = ray_on_sh_a().with(|s| s.environment.command = "python tune.py --samples 32".into());
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    assert_eq!(
        job_of(&objects)["spec"]["entrypoint"],
        "python tune.py --samples 32"
    );
}

/// Runs the submitter's command as its pod would: the kubelet's expansion, then
/// `bash -ce`, with KubeRay's `RAY_DASHBOARD_ADDRESS` and `RAY_JOB_SUBMISSION_ID`, and a
/// `python` (the health probe) and `ray` on `PATH` that record what they get. Returns
/// what `ray job submit` received: its arguments and the runtime env file's bytes.
fn run_submitter(command: &Value, dashboard: &str) -> (Vec<String>, Option<Vec<u8>>) {
    let words: Vec<&str> = command
        .as_array()
        .expect("the submitter has a command")
        .iter()
        .map(|w| w.as_str().expect("a word"))
        .collect();
    let (program, flags, script, args) = match words.as_slice() {
        [program, flags, script] => (program, flags, script, &[][..]),
        [program, flags, script, name, _] => {
            assert_eq!(*name, "berth-submitter");
            (program, flags, script, &words[3..5])
        }
        _ => panic!("bash -ce <script> [berth-submitter <runtime env>]: {words:?}"),
    };
    assert_eq!((*program, *flags), ("bash", "-ce"));
    static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "berth-submitter-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a scratch directory");
    let fake = |name: &str, body: &str| {
        use std::os::unix::fs::PermissionsExt;
        let path = bin.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("a fake program");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    };
    // The dashboard is healthy; the job was not submitted yet.
    fake("python", "exit 0");
    fake(
        "ray",
        r#"case "$2" in
status) exit 1 ;;
submit)
  for word in "$@"; do printf '%s\0' "$word"; done > "$OUT/submit"
  while [ $# -gt 0 ]; do
    if [ "$1" = --runtime-env ]; then cat "$2" > "$OUT/runtime_env"; fi
    shift
  done ;;
logs) printf '%s ' "$@" > "$OUT/logs" ;;
esac"#,
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = std::process::Command::new("bash")
        .args(["-ce", &kubelet(script)])
        .args(args.iter().map(|a| kubelet(a)))
        .env("PATH", path)
        .env("OUT", &dir)
        .env("RAY_DASHBOARD_ADDRESS", dashboard)
        .env("RAY_JOB_SUBMISSION_ID", "rayjob-x-abcde")
        .env("HOME", "/home/expanded")
        .status()
        .expect("bash runs");
    assert!(status.success(), "{script}");
    let submitted = std::fs::read(dir.join("submit")).expect("ray job submit ran");
    let args = submitted
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    let runtime_env = std::fs::read(dir.join("runtime_env")).ok();
    let logs = std::fs::read_to_string(dir.join("logs")).expect("the logs are followed");
    assert_eq!(
        logs,
        "job logs --address http://head-svc:8265 --follow rayjob-x-abcde "
    );
    std::fs::remove_dir_all(&dir).ok();
    (args, runtime_env)
}

#[test]
fn the_runtime_env_reaches_ray_job_submit_exactly_as_written() {
    // KubeRay's own submitter puts it as JSON between double quotes on its `bash -ce`
    // line, where `$HOME` and `` `id` `` would be expanded (RULES.md 8.1).
    let runtime_envs = [
        "env_vars:\n  A: a$HOME\n  B: \"`id`\"\n  C: 'quote'\n",
        "env_vars: {P: \"$(RANK) $$ ${X} \\\\ \\\" 'it''s'\"}\npip: [\"torch>=2\"]  # ; rm -rf / &\n",
        "pip:\n  - ray[tune]==2.40.0\nworking_dir: \"!x\"\n\n",
    ];
    for runtime_env in runtime_envs {
        let spec = ray_on_sh_a().with(|s| s.ray.runtime_env = runtime_env.into());
        let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
        let job = job_of(&objects);
        assert_eq!(
            job["spec"]["runtimeEnvYAML"],
            Value::Null,
            "not KubeRay's way"
        );
        let command = &job["spec"]["submitterPodTemplate"]["spec"]["containers"][0]["command"];
        let (args, written) = run_submitter(command, "head-svc:8265");
        assert_eq!(
            String::from_utf8_lossy(&written.expect("a runtime env file")),
            runtime_env
        );
        let at = args
            .iter()
            .position(|a| a == "--runtime-env")
            .expect("--runtime-env");
        assert_eq!(args[at + 1], shared::manifest::ray::RUNTIME_ENV_FILE);
        let words = |flag: &str| {
            let at = args.iter().position(|a| a == flag).expect(flag);
            args[at + 1].clone()
        };
        assert_eq!(args[..2], ["job", "submit"]);
        assert_eq!(words("--address"), "http://head-svc:8265");
        assert_eq!(words("--submission-id"), "rayjob-x-abcde");
        assert!(args.contains(&"--no-wait".to_owned()), "{args:?}");
        // The entrypoint follows `--` as KubeRay splices it.
        let dash = args.iter().position(|a| a == "--").expect("--");
        assert_eq!(args[dash + 1..], ["python", "tune.py", "--samples", "32"]);
    }
}

/// Linux takes at most 128 KiB (`MAX_ARG_STRLEN`) in one argument: a command and a
/// runtime env each within their limits, the command base64 encoded, went over it in the
/// one `bash -ce` argument, and the submitter never started (manifest audit). Each is an
/// argument of its own now, and the submitter runs (a refused `execve` fails the run).
#[test]
fn the_largest_command_and_runtime_env_reach_ray_job_submit() {
    let command = format!("echo \"{}\" $HOME", "y".repeat(65_000));
    let runtime_env = format!(
        "pip:\n{}",
        (0..3_600)
            .map(|i| format!("  - pkg{i:05}==1.0\n"))
            .collect::<String>()
    );
    assert!(command.len() <= 64 * 1024 && runtime_env.len() <= 64 * 1024);
    assert!(command.len() * 4 / 3 + runtime_env.len() > 128 * 1024);
    let spec = ray_on_sh_a().with(|s| {
        s.environment.command = command.clone();
        s.ray.runtime_env = runtime_env.clone();
    });
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    let job = job_of(&objects);
    let argv = &job["spec"]["submitterPodTemplate"]["spec"]["containers"][0]["command"];
    for arg in argv.as_array().expect("a command") {
        let arg = kubelet(arg.as_str().expect("a word"));
        assert!(
            arg.len() < 128 * 1024,
            "{} bytes in one argument",
            arg.len()
        );
    }
    let (args, written) = run_submitter(argv, "head-svc:8265");
    assert_eq!(
        String::from_utf8_lossy(&written.expect("a runtime env file")),
        runtime_env
    );
    assert!(args.contains(&"--runtime-env".to_owned()), "{args:?}");
}

#[test]
fn the_submitter_runs_a_job_without_runtime_env_and_an_address_given_with_its_scheme() {
    let spec = ray_on_sh_a().with(|s| {
        s.ray.runtime_env = " \n".into();
        s.environment.command = "echo \"$HOME\" `id`".into();
    });
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    let job = job_of(&objects);
    let command = &job["spec"]["submitterPodTemplate"]["spec"]["containers"][0]["command"];
    let (args, written) = run_submitter(command, "http://head-svc:8265");
    assert_eq!(written, None);
    assert!(!args.contains(&"--runtime-env".to_owned()), "{args:?}");
    assert_eq!(args[3], "http://head-svc:8265");
    // The same words as the entrypoint KubeRay shows would give its `bash -ce` line.
    let entrypoint = job["spec"]["entrypoint"].as_str().expect("entrypoint");
    let (ok, words) = run(
        "bash",
        &["-ce", &format!("printf '%s\\0' {}", kubelet(entrypoint))],
    );
    assert!(ok);
    let words: Vec<String> = words
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect();
    let dash = args.iter().position(|a| a == "--").expect("--");
    assert_eq!(args[dash + 1..], words[..]);
}

#[test]
fn no_volume_takes_a_name_kuberay_injects() {
    let spec = ray_on_sh_a().with(|s| {
        s.advanced.ssh = true;
        s.environment.storage.push(shared::task::Mount {
            id: "vol-scratch".into(),
            path: "/mnt/scratch".into(),
        });
    });
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    for (role, template) in templates(job_of(&objects)) {
        for volume in template["spec"]["volumes"].as_array().into_iter().flatten() {
            assert!(
                !["shared-mem", "ray-logs"].contains(&volume["name"].as_str().unwrap_or_default()),
                "{role}"
            );
        }
    }
    let head = &job_of(&objects)["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"];
    let shared_mount = head["containers"][0]["volumeMounts"]
        .as_array()
        .expect("mounts")
        .iter()
        .find(|m| m["mountPath"] == "/tmp/ray")
        .expect("shared storage at /tmp/ray");
    assert_eq!(shared_mount["name"], "ray-shared");
}

#[test]
fn a_rayjob_name_is_at_most_47_characters() {
    let spec = ray_on_sh_a();
    let ok = "r".repeat(47);
    assert!(render(&spec, &ok, UUID, &demo::catalog(), &demo::user(), None).is_ok());
    let long = "r".repeat(48);
    assert!(matches!(
        render(&spec, &long, UUID, &demo::catalog(), &demo::user(), None),
        Err(RenderError::Name { .. })
    ));
}

// ---------------------------------------------------------------- admission and options

#[test]
fn kueue_suspends_the_job_names_the_queue_and_lists_the_specs_as_flavors_in_order() {
    let catalog = with_kube(
        Admission::Kueue {
            local_queue: "team-a".into(),
        },
        Scrape::Annotations,
    );
    let spec = demo::pytorch().with(|s| {
        s.compute.kind = Some(ResourceKind::Reserved);
        s.compute.pool = Some("sh-a-h100".into());
        s.compute.priority = None;
        s.compute.guarantee = None;
        s.compute.specs = vec!["h100-8g".into(), "h100-1g".into()];
        s.compute.units_per_node = 1;
    });
    let objects = objects(&spec, "llama-finetune-bcdfg", &catalog);
    let job = job_of(&objects);
    assert_eq!(
        job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"],
        "team-a"
    );
    assert_eq!(job["spec"]["runPolicy"]["suspend"], true);
    let flavors: Vec<&str> = objects
        .iter()
        .filter(|o| o["kind"] == "ResourceFlavor")
        .map(|o| o["metadata"]["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(flavors, ["berth-h100-8g", "berth-h100-1g"]);
    let flavor = objects
        .iter()
        .find(|o| o["kind"] == "ResourceFlavor")
        .expect("flavor");
    assert_eq!(flavor["spec"]["nodeLabels"]["berth.dev/gpu-model"], "h100");
    assert!(
        flavor["metadata"].get("namespace").is_none(),
        "cluster-scoped"
    );
    // The replicas are sized for the first spec, so they keep its node selector: Kueue
    // assigns only a flavor whose node labels match it (RULES.md 9), never another
    // spec's nodes.
    for role in ["Master", "Worker"] {
        assert_eq!(
            template(job, role)["spec"]["nodeSelector"],
            flavor["spec"]["nodeLabels"],
            "{role}"
        );
    }
    // Resources come from the first spec: 8 GPUs.
    assert_eq!(
        template(job, "Master")["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"],
        "8"
    );
}

#[test]
fn two_pools_hosting_a_spec_write_one_flavor_that_each_pool_s_pods_match() {
    // The H100 nodes of sh-a in two pools, each pool's nodes labelled apart.
    let mut catalog = demo::catalog();
    let cluster = catalog
        .regions
        .iter_mut()
        .flat_map(|r| &mut r.clusters)
        .find(|c| c.id == "sh-a")
        .expect("sh-a");
    let mut second = cluster
        .pools
        .iter()
        .find(|p| p.id == "sh-a-h100")
        .expect("sh-a-h100")
        .clone();
    second.id = "sh-a-h100-b".into();
    for node in &mut second.nodes {
        node.name = node.name.replace("h100", "h100b");
        node.labels.insert("berth.dev/pool".into(), "b".into());
    }
    for pool in cluster.pools.iter_mut().filter(|p| p.id == "sh-a-h100") {
        for node in &mut pool.nodes {
            node.labels.insert("berth.dev/pool".into(), "a".into());
        }
    }
    cluster.pools.push(second);
    let in_pool = |pool: &str| {
        let spec = demo::pytorch().with(|s| {
            s.compute.kind = Some(ResourceKind::Reserved);
            s.compute.pool = Some(pool.into());
            s.compute.priority = None;
            s.compute.guarantee = None;
            s.compute.specs = vec!["h100-8g".into()];
            s.compute.units_per_node = 1;
        });
        objects(&spec, "llama-finetune-bcdfg", &catalog)
    };
    let (a, b) = (in_pool("sh-a-h100"), in_pool("sh-a-h100-b"));
    let flavor = flavor_labels(&a, "h100-8g");
    assert_eq!(
        flavor,
        flavor_labels(&b, "h100-8g"),
        "neither task rewrites the other's flavor"
    );
    assert_eq!(
        flavor,
        &serde_json::json!({ "berth.dev/gpu-model": "h100" })
    );
    // Kueue matches a pod set to a flavor on the flavor's own label keys only
    // (flavorassigner `flavorSelector`): each pool's pods keep their pool's selector and
    // agree with the flavor on its keys.
    for (objects, pool) in [(&a, "a"), (&b, "b")] {
        for role in ["Master", "Worker"] {
            let selector = &template(job_of(objects), role)["spec"]["nodeSelector"];
            assert_eq!(selector["berth.dev/pool"], pool, "{role}");
            for (key, value) in flavor.as_object().expect("labels") {
                assert_eq!(&selector[key], value, "{role} {key}");
            }
        }
    }
}

/// The node labels of the flavor `berth-<spec>` among `objects`.
fn flavor_labels<'a>(objects: &'a [Value], spec: &str) -> &'a Value {
    &objects
        .iter()
        .find(|o| o["kind"] == "ResourceFlavor" && o["metadata"]["name"] == format!("berth-{spec}"))
        .unwrap_or_else(|| panic!("flavor of {spec}"))["spec"]["nodeLabels"]
}

#[test]
fn under_kueue_every_pod_keeps_the_node_selector_of_the_spec_that_sizes_it() {
    // Kueue assigns a pod set any flavor of the ClusterQueue whose node labels its node
    // selector allows (RULES.md 9). Resources come from one spec (the head's own, or the
    // first of the list), so each template keeps that spec's selector: a CPU head sized
    // for cpu-8c never lands on another flavor's nodes, nor a100 workers on h100 nodes.
    let catalog = demo::catalog();
    let spec = ray_on_sh_a().with(|s| {
        s.compute.specs = vec!["a100-1g".into(), "h100-1g".into()];
        s.compute.pool = None;
        s.compute.kind = Some(ResourceKind::OnDemand);
    });
    assert_eq!(spec.head_spec(), Some("cpu-8c"));
    let objects = objects(&spec, "ray-tune-bcdfg", &catalog);
    let cluster = &job_of(&objects)["spec"]["rayClusterSpec"];
    assert_eq!(job_of(&objects)["spec"]["suspend"], true, "under Kueue");
    let head = &cluster["headGroupSpec"]["template"]["spec"];
    let worker = &cluster["workerGroupSpecs"][0]["template"]["spec"];
    assert!(
        head["nodeSelector"]
            .as_object()
            .is_some_and(|m| !m.is_empty()),
        "{head}"
    );
    assert_eq!(head["nodeSelector"], *flavor_labels(&objects, "cpu-8c"));
    assert_eq!(worker["nodeSelector"], *flavor_labels(&objects, "a100-1g"));
    assert_ne!(worker["nodeSelector"], *flavor_labels(&objects, "h100-1g"));
    // Sized for a100-1g: one GPU per unit.
    assert_eq!(
        worker["containers"][0]["resources"]["limits"]["nvidia.com/gpu"],
        spec.compute.units_per_node.to_string()
    );
}

#[test]
fn volcano_gangs_every_replica_and_sets_the_scheduler() {
    let catalog = with_kube(
        Admission::Volcano {
            queue: "research".into(),
        },
        Scrape::Annotations,
    );
    let spec = demo::pytorch().with(|s| s.compute.workers = 5);
    let objects = objects(&spec, "llama-finetune-bcdfg", &catalog);
    let job = job_of(&objects);
    let policy = &job["spec"]["runPolicy"]["schedulingPolicy"];
    assert_eq!(policy["minAvailable"], 6);
    assert_eq!(policy["queue"], "research");
    assert_eq!(policy["priorityClass"], "berth-normal");
    assert!(job["spec"]["runPolicy"].get("suspend").is_none());
    let pod = &template(job, "Worker")["spec"];
    assert_eq!(pod["schedulerName"], "volcano");
    assert_eq!(pod["priorityClassName"], "berth-normal");
    assert_eq!(pod["nodeSelector"]["berth.dev/gpu-model"], "a100");

    let ray = objects_for_ray(&catalog);
    let labels = &job_of(&ray)["metadata"]["labels"];
    assert_eq!(labels["volcano.sh/queue-name"], "research");
    assert_eq!(labels["ray.io/scheduler-name"], "volcano");
}

#[test]
fn a_task_with_no_resource_priority_gets_the_normal_class() {
    // README: the queue order is high, normal, low, and none is normal; the pods rank so
    // too (no class would put them below berth-normal ones on the cluster).
    let catalog = with_kube(
        Admission::Volcano {
            queue: "research".into(),
        },
        Scrape::Annotations,
    );
    let mut spec = demo::pytorch();
    set_kind(&mut spec, ResourceKind::Reserved);
    assert_eq!(spec.compute.priority, None);
    let objects = objects(&spec, "llama-finetune-bcdfg", &catalog);
    let job = job_of(&objects);
    for role in ["Master", "Worker"] {
        assert_eq!(
            template(job, role)["spec"]["priorityClassName"],
            "berth-normal",
            "{role}"
        );
    }
    assert_eq!(
        job["spec"]["runPolicy"]["schedulingPolicy"]["priorityClass"],
        "berth-normal"
    );

    let mut ray = ray_on_sh_a();
    set_kind(&mut ray, ResourceKind::Idle);
    let objects = objects_for_ray_spec_on(&ray, &catalog);
    let job = job_of(&objects);
    assert_eq!(
        job["metadata"]["labels"]["ray.io/priority-class-name"],
        "berth-normal"
    );
    assert_eq!(
        job["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]["priorityClassName"],
        "berth-normal"
    );
}

fn objects_for_ray_spec_on(spec: &TaskSpec, catalog: &Catalog) -> Vec<Value> {
    objects(spec, "ray-tune-bcdfg", catalog)
}

fn objects_for_ray(catalog: &Catalog) -> Vec<Value> {
    objects(&ray_on_sh_a(), "ray-tune-bcdfg", catalog)
}

#[test]
fn resources_per_replica_come_from_the_spec_times_units_with_requests_equal_to_limits() {
    // a100-1g is 1 GPU, 12 vCPUs, 120 GiB; the example takes 2 units per replica.
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &demo::catalog());
    let resources = &template(job_of(&objects), "Worker")["spec"]["containers"][0]["resources"];
    let expected = serde_json::json!({"nvidia.com/gpu": "2", "cpu": "24", "memory": "240Gi"});
    assert_eq!(resources["limits"], expected);
    assert_eq!(resources["requests"], expected);
}

#[test]
fn the_operators_retry_nothing_so_berth_s_whole_gang_re_run_is_the_only_retry() {
    // SPEC.md 5: max retries counts Berth's re-runs of the whole gang (each in the task's
    // history); an operator retrying too would multiply them. A replica that fails fails
    // the job at once (RULES.md 7.3: with `Never` a failed pod fails the job; 8.1: each
    // RayJob retry is a new Ray cluster).
    for enabled in [true, false] {
        let spec = demo::pytorch().with(|s| {
            s.advanced.fault_tolerance.enabled = enabled;
            s.advanced.fault_tolerance.max_retries = 3;
        });
        let objects = objects(&spec, "llama-finetune-bcdfg", &demo::catalog());
        let job = job_of(&objects);
        assert_eq!(job["spec"]["runPolicy"]["backoffLimit"], 0, "{enabled}");
        for role in ["Master", "Worker"] {
            assert_eq!(
                job["spec"]["pytorchReplicaSpecs"][role]["restartPolicy"], "Never",
                "{role}, fault tolerance {enabled}"
            );
        }

        let ray = ray_on_sh_a().with(|s| {
            s.advanced.fault_tolerance.enabled = enabled;
            s.advanced.fault_tolerance.max_retries = 5;
        });
        let objects = self::objects(&ray, "ray-tune-bcdfg", &demo::catalog());
        assert_eq!(job_of(&objects)["spec"]["backoffLimit"], 0, "{enabled}");
    }
}

#[test]
fn ray_autoscaling_debug_and_shutdown_map_to_the_rayjob_fields() {
    let spec = ray_on_sh_a().with(|s| {
        s.ray.debug.enabled = true;
        s.ray.debug.keep_secs = 1200;
        s.ray.autoscaling.upscaling_mode = shared::task::UpscalingMode::Conservative;
        s.ray.autoscaling.idle_timeout_secs = 90;
    });
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    let job = &job_of(&objects)["spec"];
    assert_eq!(job["shutdownAfterJobFinishes"], true);
    assert_eq!(job["ttlSecondsAfterFinished"], 1200);
    let cluster = &job["rayClusterSpec"];
    assert_eq!(cluster["enableInTreeAutoscaling"], true);
    assert_eq!(
        cluster["autoscalerOptions"]["upscalingMode"],
        "Conservative"
    );
    assert_eq!(cluster["autoscalerOptions"]["idleTimeoutSeconds"], 90);
    let group = &cluster["workerGroupSpecs"][0];
    assert_eq!(
        (
            group["minReplicas"].as_u64(),
            group["replicas"].as_u64(),
            group["maxReplicas"].as_u64()
        ),
        (Some(1), Some(2), Some(4))
    );
    // The head has its own spec: cpu-8c, no GPU.
    let head =
        &cluster["headGroupSpec"]["template"]["spec"]["containers"][0]["resources"]["limits"];
    assert!(head.get("nvidia.com/gpu").is_none());
    assert_eq!(head["cpu"], "32", "cpu-8c × 4 units");

    let fixed = ray_on_sh_a().with(|s| s.ray.autoscaling.enabled = false);
    let objects = self::objects(&fixed, "ray-tune-bcdfg", &demo::catalog());
    let job = &job_of(&objects)["spec"];
    assert_eq!(job["ttlSecondsAfterFinished"], 0);
    let group = &job["rayClusterSpec"]["workerGroupSpecs"][0];
    assert_eq!(
        (
            group["minReplicas"].as_u64(),
            group["replicas"].as_u64(),
            group["maxReplicas"].as_u64()
        ),
        (Some(2), Some(2), Some(2))
    );
    assert!(job["rayClusterSpec"].get("autoscalerOptions").is_none());
}

#[test]
fn pod_ssh_ships_the_key_and_every_replica_host_name() {
    let spec = demo::pytorch().with(|s| s.compute.workers = 2);
    let objects = objects(&spec, "llama-finetune-bcdfg", &demo::catalog());
    let hosts = objects
        .iter()
        .find(|o| o["kind"] == "ConfigMap")
        .expect("hostfile names");
    assert_eq!(
        hosts["data"]["hostfile.hostname"],
        "llama-finetune-bcdfg-master-0\nllama-finetune-bcdfg-worker-0\nllama-finetune-bcdfg-worker-1\n"
    );
    let key = objects
        .iter()
        .find(|o| o["metadata"]["name"] == "llama-finetune-bcdfg-ssh")
        .expect("the key Secret");
    assert!(key["data"]["id_ed25519"].is_string() && key["data"]["authorized_keys"].is_string());
    let command = template(job_of(&objects), "Master")["spec"]["containers"][0]["command"][2]
        .as_str()
        .expect("command")
        .to_owned();
    assert!(command.contains("/root/hostfile") && command.ends_with("--out /volume/ckpt"));
    assert!(matches!(
        render(
            &spec,
            "llama-finetune-bcdfg",
            UUID,
            &demo::catalog(),
            &demo::user(),
            None
        ),
        Err(RenderError::NoSshKey)
    ));
}

#[test]
fn the_ssh_hook_of_ray_pods_has_no_dollar_for_the_kubelet_to_touch() {
    let spec = ray_on_sh_a().with(|s| s.advanced.ssh = true);
    let objects = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    let head = &job_of(&objects)["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]["containers"]
        [0];
    let hook = head["lifecycle"]["postStart"]["exec"]["command"][2]
        .as_str()
        .expect("hook");
    assert!(!hook.contains('$') && hook.contains("/root/.ssh"));
}

#[test]
fn monitoring_is_a_pod_monitor_or_scrape_annotations_as_the_cluster_says() {
    let spec = demo::pytorch();
    let monitor = objects(
        &spec,
        "llama-finetune-bcdfg",
        &with_kube(Admission::None, Scrape::PodMonitor),
    );
    let pm = monitor
        .iter()
        .find(|o| o["kind"] == "PodMonitor")
        .expect("PodMonitor");
    assert_eq!(pm["spec"]["podMetricsEndpoints"][0]["path"], "/metrics");
    assert!(
        template(job_of(&monitor), "Master")["metadata"]
            .get("annotations")
            .is_none()
    );
    let annotated = objects(
        &spec,
        "llama-finetune-bcdfg",
        &with_kube(Admission::None, Scrape::Annotations),
    );
    assert!(!annotated.iter().any(|o| o["kind"] == "PodMonitor"));
    let annotations = &template(job_of(&annotated), "Master")["metadata"]["annotations"];
    assert_eq!(annotations["prometheus.io/port"], "9090");
    assert_eq!(annotations["prometheus.io/path"], "/metrics");
}

#[test]
fn objects_come_in_apply_order_secrets_first_the_job_last() {
    let objects = objects(&demo::pytorch(), "llama-finetune-bcdfg", &demo::catalog());
    let kinds: Vec<&str> = objects
        .iter()
        .map(|o| o["kind"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        kinds,
        [
            "Secret",
            "Secret",
            "ConfigMap",
            "ResourceFlavor",
            "PodMonitor",
            "PyTorchJob"
        ]
    );
}

#[test]
fn a_1024_worker_job_keeps_every_object_well_below_the_etcd_request_limit() {
    // RULES.md 2.3: etcd takes about 1.5 MiB per request; keep each object under 1 MiB.
    let spec = demo::pytorch().with(|s| s.compute.workers = 1024);
    for object in objects(&spec, "llama-finetune-bcdfg", &demo::catalog()) {
        let size = serde_json::to_vec(&object).expect("JSON").len();
        assert!(size < 1024 * 1024, "{} is {size} bytes", object["kind"]);
    }
}

// ---------------------------------------------------------------- names

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every object and pod name a PyTorchJob creates stays within Kubernetes' limits
    /// at any allowed prefix length and replica count; one character more breaks one.
    #[test]
    fn pytorch_names_fit_at_every_allowed_prefix(workers in 0u32..=1024, seed in any::<u64>(), cut in 0usize..48) {
        let max = max_name_prefix_len(TaskType::PyTorchJob, workers);
        let len = max - cut.min(max - 1);
        let prefix: String = std::iter::once('p').chain((1..len).map(|i| if i % 7 == 3 { '-' } else { 'x' })).collect();
        let prefix = prefix.trim_end_matches('-');
        let name = final_name(prefix, &suffix_from(seed));
        let spec = demo::pytorch().with(|s| s.compute.workers = workers);
        let objects = objects(&spec, &name, &demo::catalog());
        for object in &objects {
            prop_assert!(is_dns_subdomain(object["metadata"]["name"].as_str().unwrap_or_default()));
        }
        prop_assert!(is_dns1035_label(&name));
        prop_assert!(is_dns1035_label(&pytorch_master(&name)));
        if workers > 0 {
            prop_assert!(is_dns1035_label(&pytorch_worker(&name, workers - 1)));
            let longer = final_name(&format!("{}x", "p".repeat(max)), &suffix_from(seed));
            prop_assert!(render(&spec, &longer, UUID, &demo::catalog(), &demo::user(), Some(&key())).is_err());
        }
    }

    /// A RayJob's name and the names KubeRay and Volcano derive from it fit.
    #[test]
    fn ray_names_fit_at_every_allowed_prefix(workers in 0u32..=1024, seed in any::<u64>(), len in 1usize..=41) {
        prop_assert_eq!(max_name_prefix_len(TaskType::RayJob, workers), 41);
        let name = final_name(&"r".repeat(len), &suffix_from(seed));
        let spec = ray_on_sh_a().with(|s| {
            s.compute.workers = workers;
            s.ray.autoscaling.enabled = false;
        });
        let objects = objects(&spec, &name, &demo::catalog());
        for object in &objects {
            prop_assert!(is_dns_subdomain(object["metadata"]["name"].as_str().unwrap_or_default()));
        }
        prop_assert!(name.len() <= 47);
        prop_assert!(is_dns1035_label(&ray_head_service(&name)));
        prop_assert!(is_dns_label(&ray_pod_group(&name)));
        // KubeRay's cluster `<name>-xxxxx` and its longest Service suffix.
        let serve = format!("{name}-abcde-serve-svc");
        prop_assert!(serve.len() <= 63);
    }
}

// ---------------------------------------------------------------- golden files

/// The reviewed complete outputs. `BERTH_BLESS=1` rewrites them; read the diff.
#[test]
fn the_examples_render_to_their_golden_files() {
    for (file, spec, name) in [
        (
            "pytorch-kueue.yaml",
            demo::pytorch(),
            "llama-finetune-bcdfg",
        ),
        ("ray-volcano.yaml", demo::ray(), "ray-tune-bcdfg"),
    ] {
        let objects = render(
            &spec,
            name,
            UUID,
            &demo::catalog(),
            &demo::user(),
            Some(&key()),
        )
        .expect("renders");
        let mut text = String::new();
        for object in &objects {
            text.push_str("---\n");
            text.push_str(&serde_yaml_ng::to_string(object).expect("YAML"));
        }
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(file);
        if std::env::var_os("BERTH_BLESS").is_some() {
            std::fs::write(&path, &text).expect("writes");
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            golden == text,
            "{file} differs; rerun with BERTH_BLESS=1 and review the diff"
        );
    }
}

/// The job says its resource kind and an idle task's stability as labels, and its pool
/// as an annotation (a pool id need not be a label value): an administrator finds the
/// jobs that may be preempted (`-l berth.dev/resource-kind=idle`), which the objects
/// did not say (Kubernetes administrator's exploratory test).
#[test]
fn the_job_says_its_resource_kind_stability_and_pool() {
    let mut idle = demo::pytorch();
    set_kind(&mut idle, ResourceKind::Idle);
    let rendered = objects(&idle, "idle-task-bcdfg", &demo::catalog());
    let meta = &job_of(&rendered)["metadata"];
    assert_eq!(meta["labels"]["berth.dev/resource-kind"], "idle");
    assert_eq!(meta["labels"]["berth.dev/idle-stability"], "medium");
    // The pool the kind's default gives, named though the spec leaves it to the catalog.
    let pool = demo::catalog()
        .cluster("cn-east", "sh-a")
        .and_then(|c| c.default_pool_for(ResourceKind::Idle))
        .map(|p| p.id.clone())
        .expect("sh-a has an idle pool");
    assert_eq!(meta["annotations"]["berth.dev/pool"], pool.as_str());
    let mut spot = demo::pytorch();
    set_kind(&mut spot, ResourceKind::Spot);
    let rendered = objects(&spot, "spot-task-bcdfg", &demo::catalog());
    let labels = &job_of(&rendered)["metadata"]["labels"];
    assert_eq!(labels["berth.dev/resource-kind"], "spot");
    assert!(labels.get("berth.dev/idle-stability").is_none(), "{labels}");
}

/// A RayJob's submitter pod mounts the task's datasets, models and RWX volumes, each
/// read-only at its path, so a runtime env's local `working_dir` there is packaged by
/// `ray job submit`; an RWO volume is left out (the submitter may land on another node
/// and wait for it for ever), and so are Ray's shared storage and the SSH key (Ray
/// explorer: the submitter mounted nothing).
#[test]
fn the_submitter_mounts_what_many_nodes_may_read() {
    let spec = demo::ray().with(|s| {
        s.environment.storage = vec![
            shared::task::Mount {
                id: "vol-ckpt".into(),
                path: "/volume/ckpt".into(),
            },
            shared::task::Mount {
                id: "vol-scratch".into(),
                path: "/scratch".into(),
            },
        ];
        s.advanced.ssh = true;
    });
    let rendered = objects(&spec, "ray-tune-bcdfg", &demo::catalog());
    let submitter = &job_of(&rendered)["spec"]["submitterPodTemplate"]["spec"];
    let mounts: Vec<(&str, bool)> = submitter["containers"][0]["volumeMounts"]
        .as_array()
        .expect("mounts")
        .iter()
        .map(|m| (m["mountPath"].as_str().unwrap(), m["readOnly"] == true))
        .collect();
    assert_eq!(
        mounts,
        [("/volume/ckpt", true), ("/mnt/data/imagenet", true)]
    );
    for volume in submitter["volumes"].as_array().expect("volumes") {
        assert_eq!(
            volume["persistentVolumeClaim"]["readOnly"], true,
            "{volume}"
        );
    }
    // The head keeps its own, read-write where the task asked.
    let head = &job_of(&rendered)["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"];
    let head_mounts = head["containers"][0]["volumeMounts"].to_string();
    assert!(
        head_mounts.contains("/scratch") && head_mounts.contains("/tmp/ray"),
        "{head_mounts}"
    );
}
