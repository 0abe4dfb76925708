//! Where a form starts: a blank-but-sensible spec for the user's catalog, or the draft
//! saved in the browser's local storage as the user typed.

use shared::{Catalog, TaskSpec, TaskType, User};

/// The local-storage key of the draft.
pub const DRAFT_KEY: &str = "berth.task_form.draft";

/// A new task for this user: the first region and cluster, the user's first project
/// group, a PyTorchJob, the browser's time zone; everything the user must decide left
/// empty.
pub fn blank(catalog: &Catalog, user: &User) -> TaskSpec {
    let mut spec = TaskSpec::default();
    if let Some(region) = catalog.regions.first() {
        spec.basic.region = region.id.clone();
        if let Some(cluster) = region.clusters.first() {
            spec.basic.cluster = cluster.id.clone();
        }
    }
    if let Some(group) = catalog
        .project_groups
        .iter()
        .find(|g| g.members.contains(&user.name))
    {
        spec.basic.project_group = group.id.clone();
    }
    spec.basic.task_type = Some(TaskType::PyTorchJob);
    spec.basic.time_zone = time_zone_for(catalog, browser_time_zone().as_deref());
    spec
}

/// The browser's zone when the catalog offers it, else the catalog's first zone.
pub fn time_zone_for(catalog: &Catalog, browser: Option<&str>) -> String {
    browser
        .filter(|zone| catalog.time_zones.iter().any(|z| z == zone))
        .map(str::to_owned)
        .or_else(|| catalog.time_zones.first().cloned())
        .unwrap_or_default()
}

/// The IANA zone the browser runs in (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
pub fn browser_time_zone() -> Option<String> {
    let format = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new());
    js_sys::Reflect::get(&format.resolved_options(), &"timeZone".into())
        .ok()?
        .as_string()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The saved draft, when there is one that still reads as a spec.
pub fn load() -> Option<TaskSpec> {
    let text = storage()?.get_item(DRAFT_KEY).ok().flatten()?;
    shared::parse_spec(&text).ok()
}

/// Saves the draft; a full or refused storage only loses the draft.
pub fn save(spec: &TaskSpec) {
    if let (Some(storage), Ok(text)) = (storage(), serde_json::to_string(spec)) {
        let _ = storage.set_item(DRAFT_KEY, &text);
    }
}

/// Forgets the draft (after a submit, or when the user starts over).
pub fn clear() {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(DRAFT_KEY);
    }
}
