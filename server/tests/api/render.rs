//! `POST /api/v1/render` and `berth render FILE…`: the objects a spec becomes.

use super::routes::{call, post};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use std::process::Command;

fn kinds(objects: &[Value]) -> Vec<&str> {
    objects
        .iter()
        .map(|o| o["kind"].as_str().unwrap_or_default())
        .collect()
}

#[tokio::test]
async fn render_answers_the_objects_of_a_valid_spec_with_hidden_values_masked() {
    let (status, body) = call(post("/api/v1/render", shared::demo::PYTORCH_EXAMPLE)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let objects = body["objects"].as_array().expect("objects");
    // The demo catalog's sh-a cluster admits through Kueue and scrapes with a PodMonitor.
    assert_eq!(
        kinds(objects),
        [
            "Secret",
            "Secret",
            "ConfigMap",
            "ResourceFlavor",
            "PodMonitor",
            "PyTorchJob"
        ]
    );
    let job = objects.last().expect("the job");
    assert_eq!(job["apiVersion"], "kubeflow.org/v1");
    assert_eq!(job["metadata"]["name"], "llama-finetune-xxxxx");
    assert_eq!(job["metadata"]["namespace"], "t-acme-nlp");
    assert_eq!(
        job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"],
        "berth"
    );
    let text = body.to_string();
    for secret in ["hf_demo_secret", "wandb-demo-secret"] {
        assert!(!text.contains(secret), "{secret} is shown");
    }
    // Neither in base64, as a Secret holds it.
    assert!(!text.contains("aGZfZGVtb19zZWNyZXQ="));

    let (status, body) = call(post("/api/v1/render", shared::demo::RAY_EXAMPLE)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let job = body["objects"]
        .as_array()
        .and_then(|o| o.last())
        .expect("job");
    assert_eq!(
        (job["apiVersion"].as_str(), job["kind"].as_str()),
        (Some("ray.io/v1"), Some("RayJob"))
    );
}

/// The objects are those the task would run as: sized by the spec its plan uses, not the
/// list's first one (Kubernetes explorer: `[h100-1g, a100-1g]` on a pool of A100s was
/// rendered for two H100s with no node selector), by the API and by `berth render`.
#[tokio::test]
async fn render_sizes_the_job_by_the_spec_its_plan_uses() {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["compute"]["specs"] = serde_json::json!(["h100-1g", "a100-1g"]);
    let units = spec["compute"]["units_per_node"].as_u64().expect("units");
    let (status, body) = call(post("/api/v1/render", spec.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let job = body["objects"]
        .as_array()
        .and_then(|o| o.last())
        .expect("the job")
        .clone();
    let worker = &job["spec"]["pytorchReplicaSpecs"]["Worker"]["template"]["spec"];
    let limits = &worker["containers"][0]["resources"]["limits"];
    assert_eq!(limits["nvidia.com/gpu"], units.to_string(), "{job}");
    assert_eq!(limits["cpu"], (12 * units).to_string(), "{job}");
    assert_eq!(
        worker["nodeSelector"]["berth.dev/gpu-model"], "a100",
        "{job}"
    );
    // The list as it runs: the spec used first, the other after it.
    let dir = super::temp_dir("render-order");
    let file = dir.join("two-specs.json");
    std::fs::write(&file, spec.to_string()).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_berth"))
        .arg("render")
        .arg(&file)
        .output()
        .expect("berth runs");
    let yaml = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{yaml}");
    assert!(yaml.contains("berth.dev/gpu-model: a100"), "{yaml}");
    assert!(!yaml.contains("225Gi") && !yaml.contains("450Gi"), "{yaml}");
}

#[tokio::test]
async fn render_refuses_a_spec_with_errors_with_its_findings() {
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).expect("JSON");
    spec["compute"]["workers"] = 2000.into();
    let (status, body) = call(post("/api/v1/render", spec.to_string())).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "spec.invalid");
    let codes: Vec<&str> = body["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|i| i["code"].as_str())
        .collect();
    assert!(codes.contains(&"compute.workers.out_of_range"), "{codes:?}");

    let (status, body) = call(post("/api/v1/render", r#"{"compute": {"workers": "two"}}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}

fn berth() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_berth"));
    for var in [
        "BERTH_ADDR",
        "BERTH_DIST",
        "BERTH_CATALOG",
        "BERTH_USER",
        "BERTH_DATA_DIR",
        "BERTH_CONFIG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("RUST_LOG", "warn");
    cmd
}

#[test]
fn berth_render_prints_one_yaml_stream_and_exits_1_on_a_spec_with_errors() {
    let dir = super::temp_dir("render-cli");
    let pytorch = dir.join("pytorch.json");
    let ray = dir.join("ray.yaml");
    let bad = dir.join("bad.json");
    std::fs::write(&pytorch, shared::demo::PYTORCH_EXAMPLE).expect("writes");
    let ray_yaml: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
    std::fs::write(&ray, serde_yaml_ng::to_string(&ray_yaml).expect("YAML")).expect("writes");
    std::fs::write(&bad, r#"{"basic": {"task_type": "pytorch_job"}}"#).expect("writes");

    let output = berth()
        .arg("render")
        .arg(&pytorch)
        .arg(&ray)
        .output()
        .expect("berth runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let documents: Vec<Value> = serde_yaml_ng::Deserializer::from_str(&stdout)
        .map(|d| Value::deserialize(d).expect("each document is YAML"))
        .filter(|d| !d.is_null())
        .collect();
    let kinds = kinds(&documents);
    assert_eq!(kinds.first(), Some(&"Secret"));
    assert!(
        kinds.contains(&"PyTorchJob") && kinds.last() == Some(&"RayJob"),
        "{kinds:?}"
    );
    // The same objects the API answers.
    let job = documents
        .iter()
        .find(|d| d["kind"] == "PyTorchJob")
        .expect("job");
    assert_eq!(job["metadata"]["name"], "llama-finetune-xxxxx");

    let output = berth()
        .arg("render")
        .arg(&bad)
        .output()
        .expect("berth runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(
        stderr.contains("bad.json") && stderr.contains("value.required"),
        "{stderr}"
    );

    let output = berth()
        .arg("render")
        .arg(dir.join("missing.json"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
}

#[tokio::test]
async fn with_the_kubernetes_backend_the_preview_names_the_namespace_the_objects_go_to() {
    // The catalog's rule gives `t-acme-nlp`; this server applies into the
    // `[kubernetes] namespace` template's `berth-nlp`, so the preview must say so.
    let config = server::Config {
        backend: server::config::Backend::Kubernetes,
        ..server::Config::demo(super::temp_dir("dist"))
    };
    let app = server::app(server::AppState::new(config).expect("the demo state"));
    let (status, body) =
        super::answer(&app, post("/api/v1/render", shared::demo::PYTORCH_EXAMPLE)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let objects = body["objects"].as_array().expect("objects");
    for object in objects {
        if object["kind"] != "ResourceFlavor" {
            assert_eq!(object["metadata"]["namespace"], "berth-nlp", "{object}");
        }
    }
}
