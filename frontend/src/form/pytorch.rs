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
        if workers > 0 {
            text.push(' ');
            text.push_str(&shared::messages::text(
                cx.lang(),
                "ui.form.pytorch.workers",
                &[
                    ("first", shared::names::pytorch_worker(&name, 0)),
                    ("last", shared::names::pytorch_worker(&name, workers - 1)),
                ],
            ));
        }
        text
    };
    let injected = move || {
        shared::messages::text(
            cx.lang(),
            "ui.form.pytorch.injected",
            &[
                ("names", PYTORCH_DISTRIBUTED.join(", ")),
                ("port", MASTER_PORT.to_string()),
            ],
        )
    };
    view! {
        <Section path="pytorch" legend="ui.form.pytorch.title">
            <p class="note" data-testid="pytorch-pods">{pods}</p>
            <p class="note">{injected}</p>
        </Section>
    }
}
