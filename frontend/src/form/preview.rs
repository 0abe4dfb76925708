//! What will be submitted, as YAML; export as YAML or JSON; import from either.

use super::context::FormCx;
use super::transfer::{self, ImportError};
use leptos::prelude::*;
use shared::{Report, TaskSpec};

fn data_url(mime: &str, text: &str) -> String {
    format!(
        "data:{mime};charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}

/// What the import box says under it: the last import's refusal, or that it went in.
#[derive(Clone)]
enum ImportNote {
    Refused(ImportError),
    Imported,
}

/// An import's refusal, with the fields of the wrong shape at their paths; an unknown
/// field's line in `text`, the text refused, when its key stands once in it, which puts
/// the caret there in the import box `area`.
fn refusal(err: ImportError, text: String, area: NodeRef<leptos::html::Textarea>) -> impl IntoView {
    let cx = FormCx::use_context();
    let findings = match &err {
        ImportError::Shape(report) => report.issues().to_vec(),
        _ => Vec::new(),
    };
    view! {
        <p class="banner error">{move || err.message(cx.lang())}</p>
        <ul class="findings">
            {findings.into_iter().map(|issue| {
                let path = issue.path.to_string();
                // A field that is no field has no words of the form's: its place is its
                // parent's, and its key is said once, in its path ("Basic information ›
                // owner basic.owner is not a known field" named it twice).
                let unknown = matches!(
                    &issue.code,
                    shared::IssueCode::ValueInvalid { expected: shared::validate::Expected::KnownField { .. }, .. }
                );
                let place = if unknown {
                    path.rfind(['.', '[']).map(|at| path[..at].to_owned())
                } else {
                    Some(path.clone())
                };
                let (code, at) = (issue.code.code(), path.clone());
                // Where it is in the text (low-vision recheck: named without its line,
                // in a box with no line numbers): only where its key stands once, so
                // the line said is never another field's.
                let found = unknown
                    .then(|| path.rsplit(['.', '[']).next().filter(|key| !key.ends_with(']')))
                    .flatten()
                    .and_then(|key| transfer::key_place(&text, key));
                let text = text.clone();
                let line = found.map(|(line, column)| view! {
                    " "
                    <button type="button" class="link" data-testid="import-at-line" on:click=move |_| {
                        if let Some(area) = area.get_untracked() {
                            let at = transfer::caret_at(&text, line, column);
                            let _ = area.focus();
                            let _ = area.set_selection_range(at, at);
                        }
                    }>{move || shared::messages::text(cx.lang(), "ui.form.import.at_line", &[("line", line.to_string())])}</button>
                });
                // A runtime env written as a YAML mapping, as Ray's own files write it:
                // the form takes it as text, which a block scalar keeps (Ray explorer:
                // "should be text" said no more).
                let block = path == "ray.runtime_env"
                    && matches!(
                        &issue.code,
                        shared::IssueCode::ValueInvalid { found: Some(shared::validate::Found::Object), .. }
                    );
                view! {
                    // Named by the form's words for the field, then by its place in the
                    // text imported, which is where it is mended (Chinese newcomer: the
                    // path alone had the reader guess which field it was).
                    <li class="finding error" data-code=code data-path=at>
                        {place.map(|place| view! { {move || crate::components::field_place(cx.lang(), &place)}" " })}<code>{path}</code>{line}" "{move || {
                            let l = cx.lang();
                            let finding = issue.message(l);
                            if block {
                                let hint = shared::messages::text(l, "ui.form.import.runtime_env_block", &[]);
                                shared::messages::text(l, "ui.form.import.hinted", &[("finding", finding), ("hint", hint)])
                            } else {
                                finding
                            }
                        }}
                    </li>
                }
            }).collect_view()}
        </ul>
    }
}

/// The largest file the import reads, against a file chosen by mistake (a dataset's),
/// which the page would read and parse at length: a spec is far smaller, but a file of
/// one may hold long comments, and the same text pasted was read (migrant explorer: a
/// commented 2 MB file was refused chosen and imported pasted). What the spec holds is
/// checked as for any text.
const IMPORT_FILE_MAX: f64 = 4.0 * 1024.0 * 1024.0;

/// The preview, the export links and the import box.
#[component]
pub fn Preview(
    /// What the form started from (blank, a clone, the last import): an import over a
    /// draft that differs from it asks first.
    origin: StoredValue<TaskSpec>,
    /// Asks for the use again: a refusal may be quota spent since the plan was drawn.
    refresh_usage: Callback<()>,
) -> impl IntoView {
    let cx = FormCx::use_context();
    // What the server stores: the spec without the fields its type or kind drops.
    let submitted = Memo::new(move |_| cx.spec.get().normalized());
    let yaml = Memo::new(move |_| submitted.with(transfer::to_yaml));
    // The YAML is read only while its `<details>` is open: memos are lazy, so a closed
    // preview costs a keystroke neither the normalized copy nor the YAML.
    let open = RwSignal::new(false);
    let on_toggle = move |ev: leptos::ev::Event| {
        let details = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        open.set(details.is_some_and(|d| d.has_attribute("open")));
    };
    let json = move || submitted.with_untracked(transfer::to_json);
    let file = move |ext: &str| {
        let name = cx.spec.with_untracked(|s| s.basic.name_prefix.clone());
        let name = if name.is_empty() {
            "task".to_owned()
        } else {
            name
        };
        format!("{name}.{ext}")
    };
    // The export links carry the whole spec in their address: rewritten on every
    // keystroke, that was two more serializations, a URI encoding and two long
    // attributes per keystroke. They are brought up to date instead when a pointer comes
    // over them, when they get the focus, when any button presses them (a middle click
    // opens, a right click offers "Save link as", while the pointer may have rested
    // there since the spec changed), when their menu opens by the keyboard, and when they
    // are clicked (before the browser follows the link), so every way to use one sees
    // the current spec.
    let refresh = move |ev: leptos::ev::Event, ext: &'static str| {
        let Some(link) = ev
            .current_target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        else {
            return;
        };
        let (mime, text) = if ext == "yaml" {
            ("application/yaml", yaml.get_untracked())
        } else {
            ("application/json", json())
        };
        let _ = link.set_attribute("href", &data_url(mime, &text));
        let _ = link.set_attribute("download", &file(ext));
    };
    // The Kubernetes objects come from the server (`POST /api/v1/render`): the renderer
    // stays out of the console's bundle. Rendered on request, for the spec as it is then.
    // With whether a refusal's findings were placed in the form (it was not edited
    // while the request was out).
    let rendered = RwSignal::new(None::<(crate::api::Result<Vec<serde_json::Value>>, bool)>);
    let rendered_for = RwSignal::new(None::<String>);
    let base = StoredValue::new(crate::api::Base::here());
    let render_now = move |ev: leptos::ev::MouseEvent| {
        // The focus goes to this form's findings after a refusal (a portal may hold two).
        let form = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("form").ok().flatten());
        let draft = cx.spec.get_untracked();
        let spec = serde_json::to_string(&submitted.get_untracked()).unwrap_or_default();
        rendered_for.set(Some(spec.clone()));
        let base = base.get_value();
        leptos::task::spawn_local(async move {
            let objects = crate::api::render(&base, spec.clone()).await;
            // Only the answer for the spec last asked about is shown.
            if rendered_for.with_untracked(|last| last.as_deref() == Some(spec.as_str())) {
                // A refusal by findings is shown as submit's is: at each field, in the
                // summary and the sections' counts, until the draft changes.
                let placed = match &objects {
                    Err(crate::api::ClientError::Api(body))
                        if !body.issues.is_empty()
                            && cx.spec.with_untracked(|now| *now == draft) =>
                    {
                        let mut report = Report::new();
                        for issue in &body.issues {
                            report.push_issue(issue.clone().into());
                        }
                        cx.server.set(Some((draft, report)));
                        // As a refused submit does: the plan beside it is drawn again from
                        // the use now, not in up to 30 s; Render is now off, and the focus
                        // goes to the findings, each a way to its field.
                        refresh_usage.run(());
                        crate::components::refocus_if_lost(form, &[".findings-summary"]);
                        true
                    }
                    _ => false,
                };
                rendered.set(Some((objects, placed)));
            }
        });
    };
    // Once objects are shown, whether they are still the spec's is asked per keystroke;
    // a memo keeps the objects' text from being rebuilt each time.
    let stale = Memo::new(move |_| {
        rendered_for.with(|sent| {
            sent.as_ref().is_some_and(|sent| {
                *sent != submitted.with(|s| serde_json::to_string(s).unwrap_or_default())
            })
        })
    });
    // The objects themselves stand outside the live region that says the render came:
    // inside it, a screen reader read all 5 KB of them aloud (keyboard recheck).
    let manifests_text = move || {
        let (Ok(objects), _) = rendered.get()? else {
            return None;
        };
        let text = objects
            .iter()
            .map(super::transfer::value_to_yaml)
            .collect::<Vec<_>>()
            .join("---\n");
        Some(view! {
            <pre class="preview" data-testid="manifests" tabindex="0"
                aria-label=move || cx.text("ui.form.manifests.title")>{text}</pre>
        })
    };
    let manifests = move || {
        let (result, placed) = rendered.get()?;
        Some(match result {
            Ok(_) => view! {
                <p class="note" data-testid="manifests-note">
                    {move || cx.text(if stale.get() { "ui.form.manifests.stale" } else { "ui.form.manifests.note" })}
                </p>
            }
            .into_any(),
            Err(err) => {
                // A refusal by findings placed in the form is said there, at the fields
                // and in the summary; one that could not be (the draft was edited while
                // the request was out) lists them here, where it says to fix them, as a
                // rule only the server has is in no other list of the form.
                let issues: Vec<shared::Issue> = match &err {
                    crate::api::ClientError::Api(_) if placed => Vec::new(),
                    crate::api::ClientError::Api(body) => body
                        .issues
                        .iter()
                        .cloned()
                        .map(shared::Issue::from)
                        .collect(),
                    crate::api::ClientError::Network(_) => Vec::new(),
                };
                view! {
                    <div class="banner error" role="alert" data-testid="manifests-error">
                        <p>{move || shared::messages::text(cx.lang(), "ui.form.manifests.failed", &[("detail", err.localized(cx.lang()))])}</p>
                        {(!issues.is_empty()).then(|| view! {
                            <ul data-testid="manifests-findings">
                                {issues.into_iter().map(|issue| {
                                    let place = issue.path.to_string();
                                    let target = place.clone();
                                    view! {
                                        <li>
                                            // A way to its field, as the summary's lines are.
                                            <button type="button" class="goto" on:click=move |_| {
                                                cx.touch(&target);
                                                crate::components::focus_field(cx.ids, &target);
                                            }>
                                                {move || crate::components::field_place(cx.lang(), &place)}
                                                {move || cx.text("ui.form.summary.after_place")}
                                                {move || crate::components::issue_text(&issue, cx.lang())}
                                            </button>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        })}
                    </div>
                }
                .into_any()
            }
        })
    };
    let import_text = RwSignal::new(String::new());
    let import_note = RwSignal::new(None::<ImportNote>);
    // A refusal is brought into view below the buttons the focus stays on: in a short
    // window it came half below the fold (reflow explorer, 320 × 450 CSS px).
    let note_box = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        // Not `with`: the effect's first run comes a tick after it is made, when a form
        // mounted and taken out at once has dropped the note.
        if import_note.try_with(|n| matches!(n, Some(ImportNote::Refused(_)))) != Some(true) {
            return;
        }
        request_animation_frame(move || {
            // The form may be gone by the next frame (a portal's unmount).
            let Some(note) = note_box.try_get_untracked().flatten() else {
                return;
            };
            let below = web_sys::window()
                .and_then(|w| w.inner_height().ok())
                .and_then(|h| h.as_f64())
                .is_some_and(|h| note.get_bounding_client_rect().bottom() > h);
            if below {
                note.scroll_into_view_with_bool(false);
            }
        });
    });
    // "Imported" is said of the spec it brought: once the form is edited, or started
    // over, it goes, or a language switch, which speaks every live region again, said it
    // of a form changed since (keyboard explorer). The draft is watched only while the
    // word is shown: no keystroke's work otherwise.
    let imported_spec = StoredValue::new(None::<TaskSpec>);
    Effect::new(move |_| {
        if !import_note.with(|n| matches!(n, Some(ImportNote::Imported))) {
            return;
        }
        if cx
            .spec
            .with(|now| imported_spec.with_value(|i| i.as_ref() != Some(now)))
        {
            import_note.set(None);
        }
    });
    // An import replaces the whole draft: over one the user has edited it asks first, as
    // Start over does, at the safe answer.
    let pending = RwSignal::new(None::<TaskSpec>);
    let import_button = NodeRef::<leptos::html::Button>::new();
    let import_area = NodeRef::<leptos::html::Textarea>::new();
    // The text the last refusal was of, for the lines it names.
    let refused_text = StoredValue::new(String::new());
    let keep_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(keep) = keep_button.get() {
            let _ = keep.focus();
        }
    });
    let back_to_import = move || {
        pending.set(None);
        if let Some(button) = import_button.get_untracked() {
            let _ = button.focus();
        }
    };
    let replace = move |spec: TaskSpec| {
        cx.server.set(None);
        origin.set_value(spec.clone());
        imported_spec.set_value(Some(spec.clone()));
        cx.spec.set(spec);
        cx.reset_unparsed();
        // An imported spec is checked like any input: every finding shows.
        cx.show_all(true);
        // Said where the user is: the fields it changed may be far above.
        import_note.set(Some(ImportNote::Imported));
        import_text.set(String::new());
    };
    let apply = move |text: String| match transfer::from_text(&text) {
        Ok(spec) => {
            let edited = cx
                .spec
                .with_untracked(|now| origin.with_value(|o| now != o));
            if edited {
                // The last import's word is not this one's: the question stands alone
                // (explorer, round 13: "Imported" under a question not yet answered).
                import_note.set(None);
                pending.set(Some(spec));
            } else {
                replace(spec);
            }
        }
        Err(err) => {
            // The caret where the reader stopped, in the box: "line 9, column 29" of a
            // box four lines tall with no line numbers was counted by hand at 200 %
            // (low-vision recheck).
            if let ImportError::Syntax(detail) = &err
                && let Some((line, column, _)) = transfer::place(detail)
                && let Some(area) = import_area.get_untracked()
            {
                let at = transfer::caret_at(&text, line, column);
                let _ = area.focus();
                let _ = area.set_selection_range(at, at);
            }
            refused_text.set_value(text);
            import_note.set(Some(ImportNote::Refused(err)));
        }
    };
    let confirm = move |_| {
        let spec = pending.get_untracked();
        back_to_import();
        if let Some(spec) = spec {
            replace(spec);
        }
    };
    let import = move |()| {
        let text = import_text.get_untracked();
        if transfer::is_json(&text) || crate::yaml::is_ready() {
            apply(text);
        } else {
            // YAML: read once the reader, fetched on first need, is here.
            let ready = crate::yaml::ready(&base.get_value());
            leptos::task::spawn_local(async move {
                let _ = ready.await;
                apply(text);
            });
        }
    };
    // A file is read as its text and imported as pasted text is: an export comes back
    // without opening it to copy its text.
    let import_file = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        let file = js_sys::Reflect::get(&input, &"files".into())
            .ok()
            .and_then(|files| js_sys::Reflect::get(&files, &0.into()).ok())
            .filter(|file| file.is_object());
        // The same file chosen again is a change too.
        input.set_value("");
        let Some(file) = file else {
            return;
        };
        let refuse = move |key| import_note.set(Some(ImportNote::Refused(ImportError::File(key))));
        let size = js_sys::Reflect::get(&file, &"size".into())
            .ok()
            .and_then(|s| s.as_f64())
            .unwrap_or(0.0);
        if size > IMPORT_FILE_MAX {
            refuse("ui.form.import.file_too_large");
            return;
        }
        let bytes = js_sys::Reflect::get(&file, &"arrayBuffer".into())
            .ok()
            .and_then(|read| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(read).ok())
            .and_then(|read| read.call0(&file).ok())
            .map(js_sys::Promise::from);
        leptos::task::spawn_local(async move {
            let bytes = match bytes {
                Some(read) => wasm_bindgen_futures::JsFuture::from(read).await.ok(),
                None => None,
            };
            let Some(bytes) = bytes else {
                refuse("ui.form.import.file_unreadable");
                return;
            };
            // Read as UTF-8 or not at all: a file in another encoding (GBK from an
            // editor on Chinese Windows) would come in with its text replaced.
            match String::from_utf8(js_sys::Uint8Array::new(&bytes).to_vec()) {
                Ok(text) => {
                    import_text.set(text);
                    import(());
                }
                Err(_) => refuse("ui.form.import.file_not_utf8"),
            }
        });
    };
    let id = move |name: &str| cx.id(name);
    let (blocked_id, import_id, note_id, confirm_id) = (
        id("berth-render-blocked"),
        id("berth-form-import"),
        id("berth-form-import-note"),
        id("berth-import-confirm-text"),
    );
    let blocked_ref = blocked_id.clone();
    // The note on boxes holding no number, only while it is in the page: every id a
    // control names must be there.
    let (hidden_id, held_id) = (id("berth-export-hidden"), id("berth-export-held"));
    let described = Signal::derive(move || {
        if cx.held_texts().is_empty() {
            hidden_id.clone()
        } else {
            format!("{hidden_id} {held_id}")
        }
    });
    view! {
        <section class="transfer" aria-labelledby=id("berth-preview-title")>
            <details on:toggle=on_toggle>
                <summary id=id("berth-preview-title")>{move || cx.text("ui.form.preview.title")}</summary>
                // Focusable to scroll by keyboard, so named (keyboard explorer: it had no name).
                <pre class="preview" data-testid="preview" tabindex="0"
                    aria-label=move || cx.text("ui.form.preview.title")>
                    {move || if open.get() { yaml.get() } else { String::new() }}
                </pre>
            </details>
            <details>
                <summary>{move || cx.text("ui.form.manifests.title")}</summary>
                // As submit is: the server refuses a spec with errors, which the form lists.
                <button type="button" data-testid="render" on:click=render_now
                    disabled=move || cx.report.with(Report::has_errors)
                    aria-describedby=move || cx.report.with(Report::has_errors).then(|| blocked_ref.clone())>
                    {move || cx.text("ui.form.manifests.render")}
                </button>
                <p class="help" id=blocked_id data-testid="render-blocked">
                    {move || cx.report.with(Report::has_errors).then(|| cx.text("ui.form.manifests.blocked"))}
                </p>
                <div aria-live="polite">{manifests}</div>
                {manifests_text}
            </details>
            <p class="export">
                <a data-testid="export-yaml" aria-describedby=described href=data_url("application/yaml", &yaml.get_untracked()) download=file("yaml")
                    on:pointerenter=move |ev| refresh(ev.into(), "yaml") on:focus=move |ev| refresh(ev.into(), "yaml")
                    on:pointerdown=move |ev| refresh(ev.into(), "yaml") on:contextmenu=move |ev| refresh(ev.into(), "yaml")
                    on:click=move |ev| refresh(ev.into(), "yaml")>
                    {move || cx.text("ui.form.export.yaml")}
                </a>
                " · "
                <a data-testid="export-json" aria-describedby=described href=data_url("application/json", &json()) download=file("json")
                    on:pointerenter=move |ev| refresh(ev.into(), "json") on:focus=move |ev| refresh(ev.into(), "json")
                    on:pointerdown=move |ev| refresh(ev.into(), "json") on:contextmenu=move |ev| refresh(ev.into(), "json")
                    on:click=move |ev| refresh(ev.into(), "json")>
                    {move || cx.text("ui.form.export.json")}
                </a>
            </p>
            // An exported file is the thing most likely to be mailed or committed: what it
            // carries of hidden values is said where it is made.
            <p class="help" id=id("berth-export-hidden") data-testid="export-hidden">{move || cx.text("ui.form.export.hidden")}</p>
            // A number box holding text that is no number keeps the draft's last number:
            // the files carry that, not what the box shows (explorer: an export then an
            // import gave a valid number the user never saw).
            {move || {
                let held = cx.held_texts();
                (!held.is_empty()).then(|| {
                    let l = cx.lang();
                    let places: Vec<String> = held
                        .iter()
                        .map(|(path, _)| crate::components::field_place(l, path))
                        .collect();
                    view! {
                        <p class="help warning" id=id("berth-export-held") data-testid="export-held">
                            {shared::messages::text(l, "ui.form.export.held", &[("fields", shared::messages::list(l, &places))])}
                        </p>
                    }
                })
            }}
            <details>
                <summary>{move || cx.text("ui.form.import.title")}</summary>
                <label for=import_id.clone()>{move || cx.text("ui.form.import.label")}</label>
                // Marked while the note under it refuses its text (a file's read into it
                // too), or the file chosen: the refusal was only said (keyboard explorer).
                <textarea id=import_id name="import" data-testid="import-text" spellcheck="false"
                    aria-describedby=note_id.clone()
                    aria-invalid=move || import_note.with(|n| matches!(n, Some(ImportNote::Refused(e)) if !matches!(e, ImportError::File(_)))).then_some("true")
                    prop:value=move || import_text.get() node_ref=import_area
                    on:input=move |ev| import_text.set(event_target_value(&ev))></textarea>
                <button type="button" class="import" data-testid="import" on:click=move |_| import(()) node_ref=import_button>{move || cx.text("ui.form.import.button")}</button>
                // The browser's own picker speaks the browser's language ("Choose File",
                // "No file chosen" in a Chinese form: Chinese newcomer): it is kept for the
                // keyboard and screen readers, out of sight, behind words of the form's.
                <label class="import-file">
                    <span>{move || cx.text("ui.form.import.file")}</span>
                    " "
                    <input type="file" class="file-input" data-testid="import-file" aria-describedby=note_id.clone()
                        aria-invalid=move || import_note.with(|n| matches!(n, Some(ImportNote::Refused(ImportError::File(_))))).then_some("true")
                        accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml" on:change=import_file />
                    <span class="file-choose" aria-hidden="true">{move || cx.text("ui.form.import.choose")}</span>
                </label>
                {move || pending.with(Option::is_some).then(|| {
                    // Gone when the focus lands past it, as the task page's questions.
                    let question_box = NodeRef::new();
                    crate::components::close_when_focus_elsewhere(question_box, move || pending.set(None));
                    view! {
                    <div class="confirm" role="alertdialog" aria-labelledby=confirm_id.clone() data-testid="confirm-import"
                        on:keydown=move |ev| if ev.key() == "Escape" { back_to_import() } node_ref=question_box>
                        <p id=confirm_id.clone()>{move || cx.text("ui.form.import.confirm")}</p>
                        <button type="button" class="danger" data-testid="confirm-import-yes" on:click=confirm>{move || cx.text("ui.form.import.yes")}</button>
                        <button type="button" data-testid="confirm-import-no" on:click=move |_| back_to_import() node_ref=keep_button>{move || cx.text("ui.detail.cancel")}</button>
                    </div>
                    }
                })}
                <div id=note_id aria-live="polite" data-testid="import-note" node_ref=note_box>
                    {move || import_note.get().map(|note| match note {
                        ImportNote::Imported => view! {
                            <p class="banner info">{move || cx.text("ui.form.import.done")}</p>
                        }.into_any(),
                        ImportNote::Refused(err) => refusal(err, refused_text.get_value(), import_area).into_any(),
                    })}
                </div>
            </details>
        </section>
    }
}
