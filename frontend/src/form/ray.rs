//! The RayJob section (SPEC.md section 6): runtime env, shared storage, debug mode and
//! autoscaling.

use super::context::{FormCx, options, unwire, wire};
use super::field::{
    CheckField, Control, GroupFindings, Lens, SelectField, TextField, number_lens, text_lens,
};
use super::section::Section;
use leptos::prelude::*;
use shared::catalog::AccessMode;
use shared::task::UpscalingMode;

/// Whether the server runs RayJobs on a Ray cluster, as its catalog answer says: where
/// it does not (the local backend), debug mode says it keeps nothing.
#[derive(Clone, Copy, Debug)]
pub struct RayClusters(pub bool);

/// The RayJob section.
#[component]
pub fn RaySection() -> impl IntoView {
    let cx = FormCx::use_context();
    let storage_on = cx.watch(move |s| s.ray.shared_storage.enabled);
    let debug_on = cx.watch(move |s| s.ray.debug.enabled);
    let clusters = use_context::<RayClusters>().is_none_or(|r| r.0);
    let autoscaling_on = cx.watch(move |s| s.ray.autoscaling.enabled);
    let echo = use_context::<crate::components::PlanEcho>();
    let compute_errors = cx.findings_at("compute", true);
    let fixed = cx.watch(|s| {
        let range = &s.ray.autoscaling;
        (range.min_workers == range.max_workers && range.max_workers > 0)
            .then_some(range.max_workers)
    });
    // Only RWX volumes can be shared by every pod; the rule says so for any other. One
    // chosen anyway (an import, a clone) is still offered by its name, as RWO.
    let chosen = cx.watch(move |s| s.ray.shared_storage.volume.clone());
    let volumes = Signal::derive(move || {
        let chosen = chosen.get();
        cx.cluster()
            .map(|c| {
                c.volumes
                    .iter()
                    .filter(|v| v.access_mode == AccessMode::ReadWriteMany || v.id == chosen)
                    .map(|v| {
                        let rwo = if v.access_mode == AccessMode::ReadWriteMany {
                            ""
                        } else {
                            ", RWO"
                        };
                        (
                            v.id.clone(),
                            format!("{} ({} GiB{rwo})", v.name, v.capacity_gib),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    });
    let modes = Signal::derive(move || {
        options(
            cx.lang(),
            "upscaling",
            &[
                UpscalingMode::Default,
                UpscalingMode::Aggressive,
                UpscalingMode::Conservative,
            ],
        )
    });
    let mode = Lens {
        get: cx.watch(move |s| wire(&s.ray.autoscaling.upscaling_mode)),
        set: Callback::new(move |v: String| {
            cx.spec
                .update(|s| s.ray.autoscaling.upscaling_mode = unwire(&v).unwrap_or_default());
        }),
    };
    view! {
        <Section path="ray">
            // The note below is read with the box (screen-reader explorer: tabbing
            // through, it was never heard, and pip lists were expected to install).
            <TextField path="ray.runtime_env" control=Control::Area under=true lens=text_lens!(cx, ray.runtime_env)
                also_described_by=(!clusters).then_some(RUNTIME_ENV_LOCAL) />
            // Where no Ray cluster runs, only env_vars are applied: said before the user
            // writes a working_dir or pip list that nothing would install. Set as the
            // box's, not indented as a check box's words, which made it read as part of
            // shared storage below it (explorer).
            {(!clusters).then(|| view! {
                <p class="note field-note" id=cx.id(RUNTIME_ENV_LOCAL) data-testid="runtime-env-local">{crate::i18n::tr("ui.form.runtime_env_local")}</p>
            })}
            <CheckField path="ray.shared_storage.enabled" get=storage_on
                set=Callback::new(move |on| cx.spec.update(|s| s.ray.shared_storage.enabled = on)) />
            {move || storage_on.get().then(|| view! {
                <SelectField path="ray.shared_storage.volume" lens=text_lens!(cx, ray.shared_storage.volume) options=volumes />
                <CheckField path="ray.shared_storage.clean_on_exit"
                    get=cx.watch(move |s| s.ray.shared_storage.clean_on_exit)
                    set=Callback::new(move |on| cx.spec.update(|s| s.ray.shared_storage.clean_on_exit = on)) />
            })}
            <CheckField path="ray.debug.enabled" get=debug_on
                set=Callback::new(move |on| {
                    // Text its box held goes with the box (see the advanced section's).
                    cx.forget_unparsed("ray.debug");
                    cx.spec.update(|s| s.ray.debug.enabled = on)
                }) />
            // Said under the box that asks for what this server cannot keep, not below the
            // next field, where it read as part of autoscaling.
            {move || debug_on.get().then(|| view! {
                {(!clusters).then(|| view! {
                    <p class="note check-note" data-testid="debug-no-cluster">{crate::i18n::tr("ui.form.debug_no_cluster")}</p>
                })}
                <TextField path="ray.debug.keep_secs" control=Control::Number lens=number_lens!(cx, ray.debug.keep_secs) />
            })}
            <CheckField path="ray.autoscaling.enabled" get=autoscaling_on
                set=Callback::new(move |on| {
                    cx.forget_unparsed("ray.autoscaling");
                    cx.spec.update(|s| {
                    let scaling = &mut s.ray.autoscaling;
                    scaling.enabled = on;
                    // Turned on with no range yet: up to the workers asked for, which the
                    // range must hold (min ≤ workers ≤ max), rather than an error at once.
                    if on && scaling.max_workers == 0 {
                        scaling.max_workers = s.compute.workers;
                    }
                    })
                }) />
            // The range's finding follows the two fields it is about, on a line they keep
            // (as a field's own): above them it moved the field typed in at each
            // keystroke, and below the two fields after them it was far from either
            // (keyboard explorer). It describes both, and marks both invalid: the max
            // typed below the workers is as wrong as the min.
            <div class="group" data-group="ray.autoscaling">
                {move || autoscaling_on.get().then(|| view! {
                    <TextField path="ray.autoscaling.min_workers" control=Control::Number group="ray.autoscaling" lens=number_lens!(cx, ray.autoscaling.min_workers) />
                    <TextField path="ray.autoscaling.max_workers" control=Control::Number group="ray.autoscaling" lens=number_lens!(cx, ray.autoscaling.max_workers) />
                })}
                <GroupFindings path="ray.autoscaling" />
                // The plan counts the most workers (SPEC.md section 4): its verdict said
                // below them too, as the panel is a section above, out of sight while
                // they are typed (Ray explorer). Unheard: the panel's live region says it.
                // With the compute section's errors it sends the reader to, named: "the
                // errors say by how much" pointed to none in sight (recheck).
                {move || autoscaling_on.get().then(|| echo.map(|echo| view! {
                    <div class=move || format!("plan-echo {}", echo.said().map_or("", |(class, _)| class))
                        data-testid="plan-echo">
                        // Whole on hover, where a narrow form cuts it to two lines.
                        // Unheard, as its errors are: the panel's live region says it.
                        <p aria-hidden="true" title=move || echo.said().map(|(_, said)| said)>{move || echo.said().map(|(_, said)| said)}</p>
                        // A range of one number scales nothing, said where it is typed, not
                        // only on the task's page once it runs (recheck).
                        {move || fixed.get().map(|max| view! {
                            <p data-testid="autoscaling-fixed">{move || shared::messages::text(cx.lang(), "ui.detail.placement_autoscaling#fixed", &[("max", max.to_string())])}</p>
                        })}
                        {move || {
                            let lang = cx.lang();
                            let lines: Vec<_> = compute_errors.with(|found| {
                                found
                                    .iter()
                                    .filter(|i| i.severity == shared::Severity::Error)
                                    .map(|i| {
                                        crate::components::field_place(lang, &i.path.to_string())
                                            + &shared::messages::text(lang, "ui.form.summary.after_place", &[])
                                            + &crate::components::issue_text(i, lang)
                                    })
                                    .collect()
                            });
                            (!lines.is_empty()).then(|| view! {
                                <ul aria-hidden="true" data-testid="plan-echo-errors">
                                    {lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
                                </ul>
                            })
                        }}
                    </div>
                }))}
                {move || autoscaling_on.get().then(|| view! {
                    <TextField path="ray.autoscaling.idle_timeout_secs" control=Control::Number lens=number_lens!(cx, ray.autoscaling.idle_timeout_secs) />
                    <SelectField path="ray.autoscaling.upscaling_mode" lens=mode options=modes required=true />
                })}
            </div>
        </Section>
    }
}

/// The id of the note that this server applies only a runtime env's `env_vars`.
const RUNTIME_ENV_LOCAL: &str = "berth-runtime-env-local";
