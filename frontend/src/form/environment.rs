//! Environment [环境信息]: image, env vars, mounts and the command.

use super::context::{FormCx, options, unwire, wire};
use super::field::{Control, FixOffer, Lens, SelectField, TextField, text_lens};
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
                view! {
                    <TextField path="environment.image.value" lens=text_lens!(cx, environment.image.value)>
                        <ImageFix />
                    </TextField>
                }.into_any()
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
            <TextField path="environment.command" control=Control::Area lens=text_lens!(cx, environment.command)>
                <LaunchExample />
            </TextField>
        </Section>
    }
}

/// Beside a PyTorchJob's command that uses none of the injected variables (its warning
/// shown), the seeds' torchrun launch with this task's GPUs per replica, and a press that
/// launches a `python script.py …` command that way (novice explorer: "every replica may
/// train alone" said what was wrong, and nothing of how to launch it right).
#[component]
fn LaunchExample() -> impl IntoView {
    let cx = FormCx::use_context();
    let found = cx.findings_at("environment.command", false);
    let alone = Memo::new(move |_| {
        found.with(|f| {
            f.iter()
                .any(|i| i.code.code() == "command.distributed_env_unused")
        })
    });
    // The script a `python script.py …` command runs, followed as it is typed.
    let script = cx.watch(|s| python_script(&s.environment.command).map(str::to_owned));
    move || {
        if !alone.get() {
            return None;
        }
        // The GPUs of the spec the plan uses, which its units and specs change.
        cx.plan.track();
        let gpus = cx.gpus_per_replica().filter(|g| *g > 0)?;
        let script = script.get();
        let example = format!(
            "torchrun \\\n  --master_addr \"$MASTER_ADDR\" \\\n  --master_port \"$MASTER_PORT\" \\\n  --nnodes \"$WORLD_SIZE\" \\\n  --nproc_per_node {gpus} \\\n  --node_rank \"$RANK\" \\\n  {}",
            script.as_deref().unwrap_or("train.py")
        );
        let take = script.map(|_| {
            let example = example.clone();
            view! {
                <button type="button" data-testid="launch-example-use" on:click=move |_| {
                    let example = example.clone();
                    cx.edit("environment.command", move |s| s.environment.command = example);
                }>{move || cx.text("ui.form.launch_example_use")}</button>
            }
        });
        let said = cx.id("launch-example-text");
        Some(view! {
            <div class="note launch-example" data-testid="launch-example">
                <p id=said.clone()>{move || cx.text("ui.form.launch_example")}</p>
                // Scrolled by the keyboard too, as the previews are: at 320 CSS px its
                // lines' ends were cut (low-vision explorer).
                <pre tabindex="0" aria-labelledby=said>{example}</pre>
                {take}
            </div>
        })
    }
}

/// The script and its arguments of a command that is one `python script.py …` (or
/// `python3`), with nothing before it: what a torchrun launch can run in its place.
fn python_script(command: &str) -> Option<&str> {
    let command = command.trim();
    if command.contains(['\n', ';', '&', '|']) {
        return None;
    }
    let rest = command
        .strip_prefix("python3 ")
        .or_else(|| command.strip_prefix("python "))?
        .trim_start();
    let script = rest.split_whitespace().next()?;
    script.ends_with(".py").then_some(rest)
}

/// An image address pasted with blanks (a space or a non-breaking one at an end, a
/// zero-width character) is offered without them, taken with one press: the address's
/// finding gives its general form, and the address looked right (pasting researcher).
#[component]
fn ImageFix() -> impl IntoView {
    let cx = FormCx::use_context();
    let made = cx.watch(|s| {
        let typed = &s.environment.image.value;
        let plain: String = typed
            .trim()
            .chars()
            .filter(|c| !shared::validate::ZERO_WIDTH.contains(c))
            .collect();
        (plain != *typed && !plain.is_empty()).then_some(plain)
    });
    view! {
        <FixOffer path="environment.image.value" test_id="image-fix" made
            key=Signal::stored("ui.form.image_fix") arg="image"
            set=|s, take| s.environment.image.value = take />
    }
}
