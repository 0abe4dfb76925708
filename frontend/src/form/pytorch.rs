//! The PyTorchJob section: what the training operator makes of the task — the pods it
//! creates and the variables it injects — so the command can use them.

use super::context::FormCx;
use super::section::Section;
use leptos::prelude::*;
use shared::injected::{MASTER_PORT, PYTORCH_DISTRIBUTED};

/// The PyTorchJob section (read-only facts that follow the form).
#[component]
pub fn PyTorchSection() -> impl IntoView {
    let cx = FormCx::use_context();
    let pods = move || {
        let (prefix, workers) = cx
            .spec
            .with(|s| (s.basic.name_prefix.clone(), s.compute.workers));
        let name = if prefix.is_empty() {
            cx.text("ui.form.prefix_placeholder")
        } else {
            prefix
        };
        let name = format!("{name}-xxxxx");
        let mut text = shared::messages::text(
            cx.lang(),
            "ui.form.pytorch.pods",
            &[
                ("master", shared::names::pytorch_master(&name)),
                ("replicas", (u64::from(workers) + 1).to_string()),
            ],
        );
        let worker = |i| shared::names::pytorch_worker(&name, i);
        let workers = match workers {
            0 => None,
            1 => Some(("ui.form.pytorch.worker", vec![("worker", worker(0))])),
            n => Some((
                "ui.form.pytorch.workers",
                vec![("first", worker(0)), ("last", worker(n - 1))],
            )),
        };
        if let Some((key, args)) = workers {
            text.push(' ');
            text.push_str(&shared::messages::text(cx.lang(), key, &args));
        }
        text
    };
    // The local backend gives each task a port of its own (MASTER_PORT), not the
    // training operator's.
    let local = use_context::<super::ray::RayClusters>().is_some_and(|r| !r.0);
    let injected = move || {
        let lang = cx.lang();
        // A list in Chinese is joined with 、, as the findings write it.
        let comma = if lang == shared::Lang::Zh {
            "、"
        } else {
            ", "
        };
        shared::messages::text(
            lang,
            if local {
                "ui.form.pytorch.injected_local"
            } else {
                "ui.form.pytorch.injected"
            },
            &[
                ("names", PYTORCH_DISTRIBUTED.join(comma)),
                ("port", MASTER_PORT.to_string()),
            ],
        )
    };
    view! {
        <Section path="pytorch" legend="ui.form.pytorch.title">
            <p class="note" data-testid="pytorch-pods">{pods}</p>
            <p class="note" data-testid="pytorch-injected">{injected}</p>
        </Section>
    }
}
