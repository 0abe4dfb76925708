//! A RayJob's shared storage on the local backend: the task's own directory of the
//! volume, mounted at `/tmp/ray` (through bubblewrap), and removed at the task's end
//! when "clean up shared storage on exit" is on (SPEC.md section 6).

use super::temp_dir;
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rayjobs_shared_storage_is_its_own_and_cleaned_up_on_exit_when_asked() {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join("bwrap").is_file()));
    if !on_path {
        println!("skipping: bwrap is not installed (apt-get install -y bubblewrap)");
        return;
    }
    let data = temp_dir("storage-data");
    let app = server::app(super::demo_state_with(|config| config.data_dir = data.clone()).await);
    for clean in [true, false] {
        let mut spec: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("JSON");
        spec["environment"]["command"] =
            "n=$(ls -A /tmp/ray | wc -l); echo $n > /tmp/ray/before; echo kept > /tmp/ray/mark"
                .into();
        spec["environment"]["storage"] = json!([]);
        spec["environment"]["datasets"] = json!([]);
        spec["ray"]["shared_storage"]["clean_on_exit"] = clean.into();
        let id = super::submit(&app, &spec).await;
        let mut phase = Value::Null;
        for _ in 0..300 {
            let request = Request::get(format!("/api/v1/tasks/{id}"))
                .body(Body::empty())
                .expect("a request");
            let (_, task) = super::answer(&app, request).await;
            phase = task["phase"].clone();
            if phase == "succeeded" || phase == "failed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(phase, "succeeded", "clean on exit {clean}");
        let own = data.join("volumes/vol-shared").join(&id);
        if clean {
            assert!(!own.exists(), "cleaned up: {}", own.display());
        } else {
            // Its own directory, empty when it started: the first task's data was not there.
            assert_eq!(
                std::fs::read_to_string(own.join("mark")).ok().as_deref(),
                Some("kept\n")
            );
            assert_eq!(
                std::fs::read_to_string(own.join("before")).ok().as_deref(),
                Some("0\n")
            );
        }
    }
}
