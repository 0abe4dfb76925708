//! Where a form starts: a blank-but-sensible spec for the user's catalog, or the draft
//! saved in the browser's storage as the user typed.

use leptos::prelude::*;
use shared::task::{AlertChannel, HIDDEN_VALUE_MASK};
use shared::{Catalog, TaskSpec, TaskType, User};
use std::time::Duration;

/// The storage key of the draft: the console's form, and a form embedded in an element
/// without an id.
pub const DRAFT_KEY: &str = "berth.task_form.draft";

/// The storage key this form keeps its draft under: [`DRAFT_KEY`], or for a form a
/// portal mounted into an element with an id, that key with `#<id>` after it, so two
/// forms on one page keep their drafts apart. Provided by the mount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot(pub String);

impl Slot {
    /// The draft key of the form being built.
    pub fn here() -> Slot {
        use_context::<Slot>().unwrap_or_else(|| Slot(DRAFT_KEY.to_owned()))
    }
}

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

/// The browser's zone when the catalog offers it (by any of its names: the catalog's
/// name then), else the catalog's first zone.
pub fn time_zone_for(catalog: &Catalog, browser: Option<&str>) -> String {
    browser
        .and_then(|zone| offered_as(catalog, zone))
        .or_else(|| catalog.time_zones.first().cloned())
        .unwrap_or_default()
}

/// The catalog's name for `zone`, when it offers it under that name or another of the
/// same zone: Chromium names India's zone `Asia/Calcutta`, which a catalog offering
/// `Asia/Kolkata` did not match, and the form then chose Shanghai (zone explorer).
pub fn offered_as(catalog: &Catalog, zone: &str) -> Option<String> {
    catalog
        .time_zones
        .iter()
        .find(|z| *z == zone)
        .or_else(|| catalog.time_zones.iter().find(|z| same_zone(z, zone)))
        .cloned()
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "export function same_zone(a, b) { \
    const id = (timeZone) => { try { return new Intl.DateTimeFormat('en', { timeZone }) \
      .resolvedOptions().timeZone; } catch (e) { return null; } }; \
    const x = id(a); return x !== null && x === id(b); }")]
extern "C" {
    /// Whether two IANA names are one zone as the browser knows them (a zone and its
    /// old name resolve alike); false for a name it does not know.
    pub fn same_zone(a: &str, b: &str) -> bool;
}

/// The IANA zone the browser runs in (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
pub fn browser_time_zone() -> Option<String> {
    let format = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new());
    js_sys::Reflect::get(&format.resolved_options(), &"timeZone".into())
        .ok()?
        .as_string()
}

/// Where drafts are kept: the tab's own session storage first, which a reload keeps and
/// no other tab writes, so two forms open at once do not write over each other's draft;
/// then local storage, the last draft of any tab, for a tab opened later.
fn storages() -> impl Iterator<Item = web_sys::Storage> {
    let window = web_sys::window();
    let tab = window
        .as_ref()
        .and_then(|w| w.session_storage().ok().flatten());
    let any = window.and_then(|w| w.local_storage().ok().flatten());
    tab.into_iter().chain(any)
}

/// The saved draft, when there is one that still reads as a spec: this tab's, else the
/// last one saved in any tab.
pub fn load(key: &str) -> Option<TaskSpec> {
    load_with_held(key).map(|(spec, _)| spec)
}

/// As [`load`], with the texts its number boxes held that were no number of their field
/// (`2.5` in Workers), by path, from the same storage: the draft keeps the box's last
/// number, and coming back showed that number with nothing said.
pub fn load_with_held(key: &str) -> Option<(TaskSpec, Vec<(String, String)>)> {
    storages().find_map(|storage| {
        let text = storage.get_item(key).ok().flatten()?;
        let spec = shared::parse_spec(&text).ok()?;
        let held = storage
            .get_item(&held_key(key))
            .ok()
            .flatten()
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(path, text)| (path.to_owned(), text.to_owned()))
            .collect();
        Some((spec, held))
    })
}

/// Makes the last draft of any tab this tab's own when this tab has none: copied into
/// the tab's storage, which a reload of the tab reads first, and not written over the
/// last draft of any tab, which may be newer by then: an older tab reloaded wrote its
/// draft there, and a tab opened next started from it (network explorer). Whether the
/// draft came from another tab.
pub fn adopt(key: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let (Some(tab), Some(any)) = (
        window.session_storage().ok().flatten(),
        window.local_storage().ok().flatten(),
    ) else {
        return false;
    };
    if tab.get_item(key).ok().flatten().is_some() || any.get_item(key).ok().flatten().is_none() {
        return false;
    }
    for item in [
        key.to_owned(),
        held_key(key),
        sent_key(key),
        detached_key(key),
    ] {
        if let Some(value) = any.get_item(&item).ok().flatten() {
            let _ = tab.set_item(&item, &value);
        }
    }
    true
}

/// Where the texts a draft's number boxes hold are kept beside it: one `path<TAB>text` a
/// line (a number box's text has neither).
fn held_key(key: &str) -> String {
    format!("{key}.held")
}

/// Where the names of a clone's hidden values still its task's are kept beside it
/// ([`kept_secrets`]).
fn kept_key(key: &str) -> String {
    format!("{key}.kept")
}

/// The names of `spec`'s hidden env vars and webhook targets whose values are still
/// `origin`'s, the cloned task's, which the server keeps for its owner: a clone's draft
/// keeps their names, not their values, so a reload puts them back from the task rather
/// than asking for them again (Ray explorer: the only way back was to start over, losing
/// the edits). A value the user changed is not named: the draft cannot keep it, and it
/// is asked for again.
pub fn kept_secrets(spec: &TaskSpec, origin: &TaskSpec) -> Vec<String> {
    // Found by its value, as one renamed is still the task's (recheck: a rename alone
    // asked for the token again): named `NEW=OLD` then, as no name holds a `=`.
    let theirs = |name: &str, value: &str| {
        let mut same = origin
            .environment
            .env
            .iter()
            .filter(|o| o.hidden && o.value == value);
        let first = same.clone().next()?;
        Some(if same.any(|o| o.name == name) {
            name.to_owned()
        } else {
            format!("{name}={}", first.name)
        })
    };
    let vars = spec
        .environment
        .env
        .iter()
        .filter(|v| v.hidden && v.value != HIDDEN_VALUE_MASK)
        .filter_map(|v| theirs(&v.name, &v.value));
    // A webhook's target is masked in the draft too (its token is in its path): one
    // still the task's is named by its place in both lists, as targets have no names
    // (Ray recheck: a clone reloaded asked for the task's own hook again).
    let hooks =
        spec.advanced
            .alerts
            .iter()
            .enumerate()
            .filter_map(|(at, alert)| {
                let hidden = alert.channel == AlertChannel::Webhook && !alert.target_is_masked();
                let theirs =
                    origin.advanced.alerts.iter().position(|o| {
                        o.channel == AlertChannel::Webhook && o.target == alert.target
                    });
                theirs
                    .filter(|_| hidden)
                    .map(|theirs| format!("{ALERT_NAME}{at}]={theirs}"))
            });
    vars.chain(hooks).collect()
}

/// How [`kept_secrets`] names a webhook's target: `advanced.alerts[3]=1`, its place in
/// the draft's list and in the task's. No env var's name holds a `.` or a `[`.
const ALERT_NAME: &str = "advanced.alerts[";

/// Puts back into `spec`'s masked hidden values and targets named in `names` the cloned
/// task's own (`origin`, as the server gave it: masked too for anyone but its owner).
pub fn restore_secrets(spec: &mut TaskSpec, origin: &TaskSpec, names: &[String]) {
    for var in spec
        .environment
        .env
        .iter_mut()
        .filter(|v| v.hidden && v.value == HIDDEN_VALUE_MASK)
    {
        let Some(was) = names.iter().find_map(|n| match n.split_once('=') {
            Some((name, was)) => (name == var.name).then_some(was),
            None => (*n == var.name).then_some(n.as_str()),
        }) else {
            continue;
        };
        if let Some(theirs) = origin
            .environment
            .env
            .iter()
            .find(|o| o.hidden && o.name == was && o.value != HIDDEN_VALUE_MASK)
        {
            var.value = theirs.value.clone();
        }
    }
    let hooks = names.iter().filter_map(|name| {
        let (at, theirs) = name.strip_prefix(ALERT_NAME)?.split_once("]=")?;
        Some((at.parse::<usize>().ok()?, theirs.parse::<usize>().ok()?))
    });
    for (at, theirs) in hooks {
        let (Some(alert), Some(theirs)) = (
            spec.advanced.alerts.get_mut(at),
            origin.advanced.alerts.get(theirs),
        ) else {
            continue;
        };
        // Only where the draft holds the task's target as others read it: the same
        // site, still masked, and the task's own given (its owner's answer).
        if alert.target_is_masked()
            && theirs.channel == AlertChannel::Webhook
            && !theirs.target_is_masked()
            && theirs.shown_target() == alert.target
        {
            alert.target = theirs.target.clone();
        }
    }
}

/// The names [`save`] kept beside the draft at `key` ([`kept_secrets`]).
pub fn load_kept(key: &str) -> Vec<String> {
    storages()
        .find_map(|storage| storage.get_item(&kept_key(key)).ok().flatten())
        .map(|names| names.lines().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// Where the idempotency key of a submit of the draft is kept beside it, with a digest of
/// the spec it went with, until an answer says what was made: a reload after a submit
/// whose answer never came (a hung connection) sent the restored draft with a new key, and
/// the server made a second task of it (network explorer).
fn sent_key(key: &str) -> String {
    format!("{key}.sent")
}

fn detached_key(key: &str) -> String {
    format!("{key}.detached")
}

/// Notes that the draft saved under `key`, a clone's, was started over: it copies its
/// task no more, after a reload too (review: the reloaded clone's address made it a
/// copy again, and its task was stored as one). Forgotten with the draft.
pub fn detach(key: &str) {
    for storage in storages() {
        let _ = storage.set_item(&detached_key(key), "1");
    }
}

/// Whether the draft under `key` was started over ([`detach`]).
pub fn detached(key: &str) -> bool {
    storages().any(|s| s.get_item(&detached_key(key)).ok().flatten().is_some())
}

/// Undoes [`detach`]: the task's page was shown since, and its Clone asks for a copy
/// of it again (the edits kept then offer a way back to its spec).
pub fn attach(key: &str) {
    for storage in storages() {
        let _ = storage.remove_item(&detached_key(key));
    }
}

/// The key a clone of task `id` keeps its edits under: its own, not the user's draft
/// of `/new`, which editing a clone wrote over.
pub fn clone_key(id: &str) -> String {
    format!("{DRAFT_KEY}.clone.{id}")
}

/// Keeps `idempotency`, the key a submit of the spec whose digest is `digest` was sent
/// with, beside the draft saved under `key`. The digest is of the spec as others read it
/// (hidden values masked): nothing of a secret is kept, as in the draft.
pub fn save_sent(key: &str, digest: u64, idempotency: &str) {
    for storage in storages() {
        let _ = storage.set_item(&sent_key(key), &format!("{digest:x} {idempotency}"));
    }
}

/// Keeps, in this tab only, that the draft under `key` was submitted as task `id`, with
/// when and in which page: a reload pressed while a slow submit was out landed on a
/// blank form, the draft forgotten by the answer that came meanwhile, and nothing said a
/// task was made (network explorer). Read once by the tab's next form ([`take_made`]).
pub fn save_made(key: &str, id: &str) {
    if let Some(tab) = web_sys::window().and_then(|w| w.session_storage().ok().flatten()) {
        let now = js_sys::Date::now() as u64;
        let _ = tab.set_item(&made_key(key), &format!("{now} {} {id}", this_page()));
    }
}

/// The task [`save_made`] noted in another page of this tab (the one the reload left)
/// in the last [`MADE_SAID_FOR`]: a form opened later in the same page, after it moved
/// on to the task's page, has nothing to say. The note is forgotten.
pub fn take_made(key: &str) -> Option<String> {
    let tab = web_sys::window()?.session_storage().ok().flatten()?;
    let note = tab.get_item(&made_key(key)).ok().flatten()?;
    let _ = tab.remove_item(&made_key(key));
    let mut parts = note.splitn(3, ' ');
    let (at, page, id) = (parts.next()?, parts.next()?, parts.next()?);
    // Whole milliseconds: reading a float brings core's float parser into the wasm.
    let age = (js_sys::Date::now() as u64).saturating_sub(at.parse::<u64>().ok()?);
    (page != this_page() && age < MADE_SAID_FOR.as_secs() * 1000).then(|| id.to_owned())
}

/// A name of this page, the document the console runs in, another after a reload.
fn this_page() -> String {
    thread_local! {
        static PAGE: String = format!("{:x}", (js_sys::Math::random() * 1e15) as u64);
    }
    PAGE.with(Clone::clone)
}

/// How long after a submit a reloaded form says what it made.
pub const MADE_SAID_FOR: Duration = Duration::from_secs(120);

fn made_key(key: &str) -> String {
    format!("{key}.made")
}

/// The digest and key [`save_sent`] kept beside the draft [`load`] reads, from the same
/// storage: another tab's last submit is not this tab's draft's.
pub fn load_sent(key: &str) -> Option<(u64, String)> {
    let storage = storages().find(|s| s.get_item(key).ok().flatten().is_some())?;
    let text = storage.get_item(&sent_key(key)).ok().flatten()?;
    let (digest, idempotency) = text.split_once(' ')?;
    Some((
        u64::from_str_radix(digest, 16).ok()?,
        idempotency.to_owned(),
    ))
}

/// Forgets the key kept beside the draft once an answer has said what became of its
/// submit.
pub fn clear_sent(key: &str) {
    for storage in storages() {
        let _ = storage.remove_item(&sent_key(key));
    }
}

/// Saves the draft, its hidden values and webhook targets masked as anyone but the owner
/// reads them; a full or refused storage only loses the draft.
///
/// Browser storage is plain text that outlives the tab (and, in an embedding page, is the
/// portal's), so a secret is not kept there: a restored draft shows the mask, which the
/// rules flag (`env.value.masked`, `advanced.alerts.target.masked`) until the value is
/// typed again. A hook's path and query are as secret as a token (chat hooks carry theirs
/// there), and a URL may hold a password.
/// The names of hidden values still the cloned task's are kept beside it, by name
/// (`kept`, [`kept_secrets`]).
pub fn save(key: &str, spec: &TaskSpec, held: &[(String, String)], kept: &[String]) {
    if let Some((text, held)) = stored_texts(spec, held) {
        let kept = kept.join("\n");
        for storage in storages() {
            let _ = storage.set_item(key, &text);
            let _ = if held.is_empty() {
                storage.remove_item(&held_key(key))
            } else {
                storage.set_item(&held_key(key), &held)
            };
            let _ = if kept.is_empty() {
                storage.remove_item(&kept_key(key))
            } else {
                storage.set_item(&kept_key(key), &kept)
            };
        }
    }
}

/// The draft and its boxes' texts as [`save`] stores them.
pub fn stored_texts(spec: &TaskSpec, held: &[(String, String)]) -> Option<(String, String)> {
    let text = serde_json::to_string(&spec.for_others()).ok()?;
    let held = held
        .iter()
        .filter(|(path, text)| !(path.contains(['\t', '\n']) || text.contains(['\t', '\n'])))
        .map(|(path, text)| format!("{path}\t{text}\n"))
        .collect();
    Some((text, held))
}

/// Forgets this tab's draft (after a submit, or when the user starts over), and the
/// last draft of any tab only when it is this one: another tab's is not this tab's to
/// forget.
pub fn clear(key: &str) {
    let window = web_sys::window();
    let tab = window
        .as_ref()
        .and_then(|w| w.session_storage().ok().flatten());
    let any = window.and_then(|w| w.local_storage().ok().flatten());
    let mine = tab.as_ref().and_then(|t| t.get_item(key).ok().flatten());
    if let Some(tab) = &tab {
        let _ = tab.remove_item(key);
        let _ = tab.remove_item(&held_key(key));
        let _ = tab.remove_item(&kept_key(key));
        let _ = tab.remove_item(&sent_key(key));
        let _ = tab.remove_item(&detached_key(key));
    }
    if let Some(any) = any {
        let last = any.get_item(key).ok().flatten();
        if mine.is_none() || last == mine {
            let _ = any.remove_item(key);
            let _ = any.remove_item(&held_key(key));
            let _ = any.remove_item(&kept_key(key));
            let _ = any.remove_item(&sent_key(key));
            let _ = any.remove_item(&detached_key(key));
        }
    }
}

/// A draft as [`save`] stored it: its text, its boxes' texts ([`stored_texts`]), and the
/// hidden values it names ([`kept_secrets`]).
pub type Stored = (String, String, Vec<String>);

/// How long a change may wait before it reaches local storage. Writing the draft
/// (serializing it, and `localStorage.setItem`, which is synchronous) cost about 1 ms per
/// keystroke, more than the check; a typist's burst now writes once.
pub const SAVE_DELAY: Duration = Duration::from_millis(400);

/// Keeps the saved draft following the form's spec, off the keystroke: a change is
/// written at most [`SAVE_DELAY`] later, and at once when the page is hidden or left
/// (`pagehide`, `visibilitychange`: a reload, a closed tab) or the form goes away, so a
/// reload still finds every change.
#[derive(Clone, Copy)]
pub struct Autosave {
    spec: RwSignal<TaskSpec>,
    /// The texts number boxes hold that are no number of their field, by path.
    held: Signal<Vec<(String, String)>>,
    /// Its storage key ([`Slot`]).
    key: StoredValue<String>,
    /// A change not yet written.
    dirty: StoredValue<bool>,
    /// The next change is the form put back where it started ([`Autosave::restart`]).
    quiet: StoredValue<bool>,
    /// The pending write, if any.
    timer: StoredValue<Option<TimeoutHandle>>,
    /// The draft restored, as stored, until the first write: putting its boxes' texts
    /// back is a change that writes the same again, and written, an older tab reloaded
    /// wrote over a newer tab's last draft (review). With the hidden values it named
    /// ([`kept_secrets`]): one changed stores as the same masked text.
    loaded: StoredValue<Option<Stored>>,
    /// The spec the form started from (a clone's task's), whose hidden values a draft
    /// names when they are still its own ([`kept_secrets`]).
    origin: StoredValue<TaskSpec>,
}

impl Autosave {
    /// Starts following `spec`. The spec as it starts is not written: a clone's is
    /// someone else's, a blank form's no one's work, and a restored draft is in storage
    /// already ([`adopt`] made another tab's this tab's own).
    pub fn follow(
        spec: RwSignal<TaskSpec>,
        held: Signal<Vec<(String, String)>>,
        slot: Slot,
        (loaded, origin): (Option<Stored>, StoredValue<TaskSpec>),
    ) -> Autosave {
        let this = Autosave {
            spec,
            held,
            key: StoredValue::new(slot.0),
            dirty: StoredValue::new(false),
            quiet: StoredValue::new(false),
            timer: StoredValue::new(None),
            loaded: StoredValue::new(loaded),
            origin,
        };
        Effect::new(move |ran: Option<()>| {
            spec.track();
            held.track();
            if ran.is_none() {
                return;
            }
            if this.quiet.try_update_value(std::mem::take) == Some(true) {
                return;
            }
            this.dirty.set_value(true);
            // Not restarted by every keystroke: while the user keeps typing the draft is
            // still written every SAVE_DELAY.
            if this.timer.with_value(Option::is_none) {
                let handle = set_timeout_with_handle(
                    move || {
                        this.timer.try_set_value(None);
                        this.flush();
                    },
                    SAVE_DELAY,
                );
                this.timer.set_value(handle.ok());
            }
        });
        let hide = window_event_listener(leptos::ev::pagehide, move |_| this.flush());
        let hidden = window_event_listener(leptos::ev::visibilitychange, move |_| {
            if document().hidden() {
                this.flush();
            }
        });
        on_cleanup(move || {
            hide.remove();
            hidden.remove();
            this.cancel();
            this.flush();
        });
        this
    }

    /// Writes a pending change now.
    pub fn flush(&self) {
        if self.dirty.try_get_value() == Some(true) {
            self.dirty.try_set_value(false);
            if let Some(key) = self.key.try_get_value() {
                let held = self.held.try_get_untracked().unwrap_or_default();
                let kept = self
                    .spec
                    .try_with_untracked(|spec| {
                        self.origin
                            .try_with_value(|origin| kept_secrets(spec, origin))
                    })
                    .flatten()
                    .unwrap_or_default();
                // The draft as restored is in storage already. Written out to compare
                // only while there is one: each write serializes the draft.
                let same = self.loaded.try_with_value(|loaded| {
                    loaded.as_ref().is_some_and(|(text, texts, named)| {
                        *named == kept
                            && self
                                .spec
                                .try_with_untracked(|spec| stored_texts(spec, &held))
                                .flatten()
                                .is_some_and(|(t, h)| t == *text && h == *texts)
                    })
                });
                if same == Some(false) {
                    self.loaded.try_set_value(None);
                    self.spec
                        .try_with_untracked(|spec| save(&key, spec, &held, &kept));
                }
            }
        }
    }

    /// Forgets the draft, and any change not yet written (after a submit).
    pub fn forget(&self) {
        self.cancel();
        self.dirty.try_set_value(false);
        if let Some(key) = self.key.try_get_value() {
            clear(&key);
        }
    }

    /// Forgets the draft, and the change the form makes next: the form put back where it
    /// started (Start over, a clone from the task's spec again) is no one's work, and
    /// written, it came back as a restored draft. Called before that change.
    pub fn restart(&self) {
        self.forget();
        self.quiet.try_set_value(true);
    }

    fn cancel(&self) {
        if let Some(Some(handle)) = self.timer.try_update_value(Option::take) {
            handle.clear();
        }
    }
}
