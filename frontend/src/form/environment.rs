//! Environment [环境信息]: image, env vars, mounts and the command.

use super::context::{FormCx, options, unwire, wire};
use super::field::{Control, Lens, SelectField, TextField, text_lens};
use super::lists::{EnvEditor, MountKind, MountsEditor};
use super::section::Section;
use leptos::prelude::*;
use shared::task::ImageSource;

/// The environment section.
#[component]
pub fn EnvironmentSection() -> impl IntoView {
    let cx = FormCx::use_context();
    let source = Lens {
        get: cx.watch(move |s| wire(&s.environment.image.source)),
        set: Callback::new(move |v: String| {
            cx.spec.update(|s| {
                let source = unwire(&v).unwrap_or_default();
                // A catalog id means nothing as an address and the other way round.
                if s.environment.image.source != source {
                    s.environment.image.value.clear();
                }
                s.environment.image.source = source;
            });
        }),
    };
    let sources = Signal::derive(move || {
        options(
            cx.lang(),
            "image_source",
            &[
                ImageSource::BuiltIn,
                ImageSource::Custom,
                ImageSource::Address,
            ],
        )
    });
    let source_now = cx.watch(move |s| s.environment.image.source);
    let images = Signal::derive(move || {
        let source = source_now.get();
        cx.cluster()
            .map(|c| {
                c.images
                    .iter()
                    .filter(|i| i.source == source)
                    .map(|i| (i.id.clone(), format!("{} — {}", i.name, i.address)))
                    .collect()
            })
            .unwrap_or_default()
    });
    // A memo, so typing in the field does not rebuild it (and lose the focus).
    let is_address = cx.watch(move |s| s.environment.image.source == ImageSource::Address);
    view! {
        <Section path="environment">
            <SelectField path="environment.image.source" lens=source options=sources required=true />
            {move || if is_address.get() {
                view! { <TextField path="environment.image.value" lens=text_lens!(cx, environment.image.value) /> }.into_any()
            } else {
                view! { <SelectField path="environment.image.value" lens=text_lens!(cx, environment.image.value) options=images /> }.into_any()
            }}
            <EnvEditor />
            // Set in every task of the user's besides these, and seen nowhere else in the
            // console: a newcomer found WANDB_API_KEY and HF_HOME in a task's log and
            // could not tell where they came from (novice explorer).
            {move || {
                let l = cx.lang();
                let vars = cx.persistent_env(l);
                (!vars.is_empty()).then(|| view! {
                    <p class="note" data-testid="persistent-env">
                        {shared::messages::text(l, "ui.form.persistent_env", &[("vars", shared::messages::list(l, &vars))])}
                    </p>
                })
            }}
            <MountsEditor kind=MountKind::Storage />
            <MountsEditor kind=MountKind::Datasets />
            <MountsEditor kind=MountKind::Models />
            <TextField path="environment.command" control=Control::Area lens=text_lens!(cx, environment.command) />
        </Section>
    }
}
