//! `deploy/`: the manifests that run Berth in a cluster, checked against the core API's
//! types. No OpenAPI schemas are on disk, so each document is read into its typed
//! k8s-openapi struct (which refuses a wrong `apiVersion`/`kind`, a missing required
//! field or a wrongly typed one) and written back: the result must be the document
//! itself, so a misspelt or unknown field, which the struct drops, shows as a difference.
//! Then the references between the documents are followed (selectors, Secret keys,
//! ConfigMap keys, the service account, namespaces), and the config file and catalog
//! in the ConfigMap are read by Berth's own loaders. The RBAC rules are checked against
//! the backend's requests in `server/src/backend/kube.rs`.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Secret, Service, ServiceAccount};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding, RoleBinding};
use serde::Deserialize;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn deploy_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../deploy")
}

/// Every YAML document of deploy/, with the file it is in.
fn documents() -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(deploy_dir())
        .expect("deploy/ exists")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    let mut documents = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for document in serde_yaml_ng::Deserializer::from_str(&text) {
            let value = Value::deserialize(document)
                .unwrap_or_else(|e| panic!("{name} is not valid YAML: {e}"));
            if !value.is_null() {
                documents.push((name.clone(), value));
            }
        }
    }
    documents
}

/// The document as its type, after checking that nothing is lost on the way.
fn typed<T: DeserializeOwned + Serialize>(file: &str, document: &Value) -> T {
    let object: T = serde_json::from_value(document.clone()).unwrap_or_else(|e| {
        panic!(
            "{file}: {} {} is not a valid {}: {e}",
            document["kind"],
            document["metadata"]["name"],
            std::any::type_name::<T>()
        )
    });
    let back = serde_json::to_value(&object).expect("serialises");
    if back != *document {
        panic!(
            "{file}: {} {} has fields its type does not know, or wrong values:\n{}",
            document["kind"],
            document["metadata"]["name"],
            difference(document, &back, "")
        );
    }
    object
}

/// Paths where `written` and `read` differ, one per line.
fn difference(written: &Value, read: &Value, path: &str) -> String {
    match (written, read) {
        (Value::Object(a), Value::Object(b)) => {
            let mut lines = String::new();
            for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                if x != y {
                    lines.push_str(&difference(x, y, &format!("{path}.{key}")));
                }
            }
            lines
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .filter(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| difference(x, y, &format!("{path}[{i}]")))
            .collect(),
        _ => format!("{path}: written {written}, read back {read}\n"),
    }
}

/// Every document as its type.
#[derive(Default)]
struct Deploy {
    namespaces: Vec<Namespace>,
    accounts: Vec<ServiceAccount>,
    cluster_roles: Vec<ClusterRole>,
    cluster_bindings: Vec<ClusterRoleBinding>,
    bindings: Vec<RoleBinding>,
    secrets: Vec<Secret>,
    config_maps: Vec<ConfigMap>,
    services: Vec<Service>,
    deployments: Vec<Deployment>,
}

fn deploy() -> Deploy {
    let mut deploy = Deploy::default();
    for (file, document) in documents() {
        let file = file.as_str();
        let name = document["metadata"]["name"].as_str().unwrap_or_default();
        assert!(
            !name.is_empty(),
            "{file}: a {} without a name",
            document["kind"]
        );
        let cluster_scoped = matches!(
            document["kind"].as_str(),
            Some("Namespace" | "ClusterRole" | "ClusterRoleBinding")
        );
        assert_eq!(
            document["metadata"]["namespace"].is_string(),
            !cluster_scoped,
            "{file}: {name} names a namespace exactly when its kind has one"
        );
        match document["kind"].as_str().unwrap_or_default() {
            "Namespace" => deploy.namespaces.push(typed(file, &document)),
            "ServiceAccount" => deploy.accounts.push(typed(file, &document)),
            "ClusterRole" => deploy.cluster_roles.push(typed(file, &document)),
            "ClusterRoleBinding" => deploy.cluster_bindings.push(typed(file, &document)),
            "RoleBinding" => deploy.bindings.push(typed(file, &document)),
            "Secret" => deploy.secrets.push(typed(file, &document)),
            "ConfigMap" => deploy.config_maps.push(typed(file, &document)),
            "Service" => deploy.services.push(typed(file, &document)),
            "Deployment" => deploy.deployments.push(typed(file, &document)),
            other => panic!("{file}: kind {other:?} is not checked here; add its type"),
        }
    }
    deploy
}

fn name_of(meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta) -> &str {
    meta.name.as_deref().unwrap_or_default()
}

#[test]
fn every_document_is_a_valid_core_object_with_no_unknown_field() {
    let deploy = deploy();
    assert_eq!(deploy.deployments.len(), 1);
    assert_eq!(deploy.services.len(), 1);
    assert_eq!(deploy.accounts.len(), 1);
    assert_eq!(deploy.config_maps.len(), 1);
    assert_eq!(deploy.secrets.len(), 1);
}

#[test]
fn a_misspelt_field_is_caught_by_the_round_trip() {
    let (file, mut service) = documents()
        .into_iter()
        .find(|(_, d)| d["kind"] == "Service")
        .expect("a Service");
    service["spec"]["selectr"] = service["spec"]["selector"].clone();
    let caught = std::panic::catch_unwind(|| typed::<Service>(&file, &service));
    assert!(caught.is_err(), "an unknown field must not pass");
}

#[test]
fn the_deployment_runs_two_replicas_of_berth_wired_to_its_config_secret_and_account() {
    let deploy = deploy();
    let deployment = &deploy.deployments[0];
    let namespace = deployment.metadata.namespace.as_deref().unwrap();
    let spec = &deployment.spec;
    assert_eq!(spec.replicas, Some(2));
    let template_labels = spec
        .template
        .metadata
        .as_ref()
        .and_then(|m| m.labels.clone())
        .unwrap_or_default();
    let selector = spec.selector.match_labels.clone().unwrap_or_default();
    assert!(!selector.is_empty());
    for (key, value) in &selector {
        assert_eq!(
            template_labels.get(key),
            Some(value),
            "the selector finds its pods"
        );
    }
    let pod = spec.template.spec.as_ref().expect("a pod spec");

    let account = pod
        .service_account_name
        .as_deref()
        .expect("its own account");
    assert!(
        deploy
            .accounts
            .iter()
            .any(|a| name_of(&a.metadata) == account
                && a.metadata.namespace.as_deref() == Some(namespace)),
        "service account {account} is deployed beside it"
    );

    let container = &pod.containers[0];
    let env: BTreeMap<&str, &k8s_openapi::api::core::v1::EnvVar> = container
        .env
        .iter()
        .flatten()
        .map(|e| (e.name.as_str(), e))
        .collect();
    let value = |name: &str| env.get(name).and_then(|e| e.value.as_deref());
    assert_eq!(value("BERTH_ADDR"), Some("0.0.0.0:8080"));

    // Every Secret key it reads is deployed; the database URL comes from one.
    for var in env.values() {
        let Some(key) = var
            .value_from
            .as_ref()
            .and_then(|v| v.secret_key_ref.as_ref())
        else {
            continue;
        };
        let secret = deploy
            .secrets
            .iter()
            .find(|s| {
                name_of(&s.metadata) == key.name
                    && s.metadata.namespace.as_deref() == Some(namespace)
            })
            .unwrap_or_else(|| panic!("Secret {} is deployed", key.name));
        let has_key = secret
            .string_data
            .iter()
            .flatten()
            .any(|(k, _)| *k == key.key)
            || secret.data.iter().flatten().any(|(k, _)| *k == key.key);
        assert!(has_key, "Secret {} has key {}", key.name, key.key);
    }
    assert!(
        env["BERTH_DATABASE_URL"]
            .value_from
            .as_ref()
            .and_then(|v| v.secret_key_ref.as_ref())
            .is_some(),
        "the connection string is not written in the Deployment"
    );

    // The config file and catalog it names are keys of the mounted ConfigMap.
    let volumes = pod.volumes.clone().unwrap_or_default();
    let mounts = container.volume_mounts.clone().unwrap_or_default();
    for mount in &mounts {
        assert!(
            volumes.iter().any(|v| v.name == mount.name),
            "mount {} has a volume",
            mount.name
        );
    }
    for variable in ["BERTH_CONFIG", "BERTH_CATALOG"] {
        let path = value(variable).unwrap_or_else(|| panic!("{variable} is set"));
        let (dir, file) = path.rsplit_once('/').expect("a path");
        let mount = mounts
            .iter()
            .find(|m| m.mount_path == dir)
            .unwrap_or_else(|| panic!("{dir} is mounted"));
        let volume = volumes.iter().find(|v| v.name == mount.name).unwrap();
        let map_name = &volume.config_map.as_ref().expect("a ConfigMap volume").name;
        let map = deploy
            .config_maps
            .iter()
            .find(|m| &name_of(&m.metadata).to_owned() == map_name)
            .unwrap_or_else(|| panic!("ConfigMap {map_name} is deployed"));
        assert!(
            map.data.as_ref().is_some_and(|d| d.contains_key(file)),
            "{map_name} has {file}"
        );
    }

    // The Service reaches the container's port on the Deployment's pods.
    let service = deploy.services[0].spec.as_ref().expect("a spec");
    for (key, value) in service.selector.iter().flatten() {
        assert_eq!(
            template_labels.get(key),
            Some(value),
            "the Service finds the pods"
        );
    }
    let ports = container.ports.clone().unwrap_or_default();
    for port in service.ports.iter().flatten() {
        use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
        let target = port.target_port.clone().expect("a target port");
        let found = ports.iter().any(|p| match &target {
            IntOrString::String(name) => p.name.as_deref() == Some(name),
            IntOrString::Int(number) => p.container_port == *number,
        });
        assert!(found, "target port {target:?} is a container port");
    }
    let listen: u16 = value("BERTH_ADDR")
        .and_then(|a| a.rsplit_once(':'))
        .and_then(|(_, p)| p.parse().ok())
        .expect("a port");
    assert!(ports.iter().any(|p| p.container_port == i32::from(listen)));
}

#[test]
fn the_config_map_holds_a_config_and_catalog_berth_loads() {
    let deploy = deploy();
    let data = deploy.config_maps[0].data.clone().expect("data");
    let config = server::config::FileConfig::parse(&data["berth.toml"]).expect("berth.toml loads");
    assert_eq!(config.backend, Some(server::config::Backend::Kubernetes));
    let kube = config.kubernetes.expect("[kubernetes]");
    assert!(
        kube.kubeconfig.is_none(),
        "in the cluster: the service account"
    );
    shared::CatalogFile::from_json(&data["catalog.json"]).expect("the catalog loads");
    let deployed: Value = serde_json::from_str(&data["catalog.json"]).unwrap();
    let demo: Value = serde_json::from_str(shared::demo::CATALOG_FILE).unwrap();
    assert_eq!(deployed, demo, "the demo catalog, as the comment says");
    // Each project group's namespace exists and Berth may run jobs there.
    for group in &shared::demo::catalog().project_groups {
        let namespace = kube.namespace_for(&group.id).expect("a label");
        assert!(
            deploy
                .namespaces
                .iter()
                .any(|n| name_of(&n.metadata) == namespace),
            "namespace {namespace} is deployed"
        );
        assert!(
            deploy
                .bindings
                .iter()
                .any(|b| b.metadata.namespace.as_deref() == Some(&namespace)),
            "Berth is bound to a role in {namespace}"
        );
    }
}

#[test]
fn every_namespace_and_role_an_object_names_is_deployed() {
    let deploy = deploy();
    let namespaces: Vec<&str> = deploy
        .namespaces
        .iter()
        .map(|n| name_of(&n.metadata))
        .collect();
    let named = deploy
        .accounts
        .iter()
        .map(|o| &o.metadata)
        .chain(deploy.bindings.iter().map(|o| &o.metadata))
        .chain(deploy.secrets.iter().map(|o| &o.metadata))
        .chain(deploy.config_maps.iter().map(|o| &o.metadata))
        .chain(deploy.services.iter().map(|o| &o.metadata))
        .chain(deploy.deployments.iter().map(|o| &o.metadata));
    for meta in named {
        let namespace = meta.namespace.as_deref().unwrap();
        assert!(
            namespaces.contains(&namespace),
            "namespace {namespace} is deployed"
        );
    }
    let roles: Vec<&str> = deploy
        .cluster_roles
        .iter()
        .map(|r| name_of(&r.metadata))
        .collect();
    let role_refs = deploy
        .cluster_bindings
        .iter()
        .map(|b| &b.role_ref)
        .chain(deploy.bindings.iter().map(|b| &b.role_ref));
    for role_ref in role_refs {
        assert_eq!(role_ref.kind, "ClusterRole");
        assert!(
            roles.contains(&role_ref.name.as_str()),
            "role {} is deployed",
            role_ref.name
        );
    }
}
