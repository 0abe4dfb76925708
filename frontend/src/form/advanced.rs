//! Advanced options [高级选项]: fault tolerance, monitoring, image-pull retries, pod SSH
//! and alert subscriptions.

use super::context::{FormCx, Unread, field_key, holds_bad_input, options, unwire, wire};
use super::field::{
    CheckField, Control, Findings, Lens, SelectField, TextField, number_lens, text_lens, too_large,
    too_large_i64, whole_i64, whole_u32,
};
use super::lists::{Remove, focus_first_in};
use super::section::Section;
use leptos::prelude::*;
use shared::TaskSpec;
use shared::task::{Alert, AlertChannel, AlertEvent};
use shared::validate::Expected;

/// Whether the server sends alert emails, as its catalog answer says: where it does
/// not, an email row says so before the user counts on it.
#[derive(Clone, Copy, Debug)]
pub struct EmailAlerts(pub bool);

/// The advanced section.
#[component]
pub fn AdvancedSection() -> impl IntoView {
    let cx = FormCx::use_context();
    let retries_on = cx.watch(move |s| s.advanced.fault_tolerance.enabled);
    let monitoring_on = cx.watch(move |s| s.advanced.monitoring.enabled);
    // Empty takes the catalog's default; text that is not a whole number is held and
    // reported, never read as the default.
    let retries_shown = cx.watch(move |s| {
        s.advanced
            .image_pull_retries
            .map(|n| n.to_string())
            .unwrap_or_default()
    });
    let pull_retries = Lens {
        get: retries_shown,
        set: Callback::new(move |v: String| {
            const PATH: &str = "advanced.image_pull_retries";
            // Text the browser holds that is no number reads as empty: not the user's
            // emptying the box, which would clear it mid-word (as the threshold's).
            if v.trim().is_empty() && !holds_bad_input(&cx.control_id(PATH)) {
                cx.forget_unparsed(PATH);
                cx.spec.update(|s| s.advanced.image_pull_retries = None);
            } else {
                // A number past the field's bounds is held and said too large, as the
                // API says it: read as the bound, it was sent without a word (explorer).
                let unread =
                    too_large_i64(&v).map_or(Unread::Shape(Expected::Integer), Unread::Rule);
                cx.set_number(PATH, v, whole_i64, unread, retries_shown, |s, n| {
                    s.advanced.image_pull_retries = Some(n)
                });
            }
        }),
    };
    let default_retries = move || {
        let n = cx.catalog.with_value(|c| c.image_pull_retries_default);
        shared::messages::text(
            cx.lang(),
            "ui.form.image_pull_retries.default",
            &[("default", n.to_string())],
        )
    };
    view! {
        <Section path="advanced">
            <CheckField path="advanced.fault_tolerance.enabled"
                get=retries_on
                set=Callback::new(move |on| {
                    // Text its box held goes with the box: left, it would stop submit with
                    // an error at a box no longer there (review, round 5).
                    cx.forget_unparsed("advanced.fault_tolerance");
                    cx.spec.update(|s| s.advanced.fault_tolerance.enabled = on)
                }) />
            {move || retries_on.get().then(|| view! {
                <TextField path="advanced.fault_tolerance.max_retries" control=Control::Number
                    lens=number_lens!(cx, advanced.fault_tolerance.max_retries) />
            })}
            <CheckField path="advanced.monitoring.enabled"
                get=monitoring_on
                set=Callback::new(move |on| {
                    cx.forget_unparsed("advanced.monitoring");
                    cx.spec.update(|s| s.advanced.monitoring.enabled = on)
                }) />
            {move || monitoring_on.get().then(|| view! {
                <TextField path="advanced.monitoring.port" control=Control::Number
                    lens=number_lens!(cx, advanced.monitoring.port) />
                <TextField path="advanced.monitoring.path" lens=text_lens!(cx, advanced.monitoring.path) />
            })}
            <TextField path="advanced.image_pull_retries" control=Control::Number lens=pull_retries may_be_empty=true min="-1">
                <p class="note">{default_retries}</p>
            </TextField>
            <CheckField path="advanced.ssh"
                get=cx.watch(move |s| s.advanced.ssh)
                set=Callback::new(move |on| cx.spec.update(|s| s.advanced.ssh = on)) />
            <AlertsEditor />
        </Section>
    }
}

const ALERTS: &str = "advanced.alerts";

/// What is wrong with threshold text that is not a whole number: for an event that takes
/// a threshold, the rule's "at least 1"; for one that takes none, the box itself.
fn threshold_rule(takes: bool) -> shared::IssueCode {
    if takes {
        shared::IssueCode::AlertThresholdInvalid
    } else {
        shared::IssueCode::AlertThresholdUnused
    }
}

/// What is wrong with threshold text that is not a threshold: too large, as the API
/// says it of such a number, else [`threshold_rule`]'s.
fn threshold_unread(text: &str, takes: bool) -> Unread {
    Unread::Rule(too_large(text).unwrap_or_else(|| threshold_rule(takes)))
}

/// Alert subscriptions: event (with its threshold), channel and target per row.
#[component]
fn AlertsEditor() -> impl IntoView {
    let cx = FormCx::use_context();
    let len = cx.watch(move |s| s.advanced.alerts.len());
    let id = cx.control_id(ALERTS);
    let (label_id, help_id, msgs_id) = (
        format!("{id}-label"),
        format!("{id}-help"),
        format!("{id}-msgs"),
    );
    let described = format!("{msgs_id} {help_id}");
    let labelled = label_id.clone();
    let findings = cx.findings_at(ALERTS, false);
    let events = Signal::derive(move || {
        options(
            cx.lang(),
            "alert_event",
            &[
                AlertEvent::Failed,
                AlertEvent::Succeeded,
                AlertEvent::Stopped,
                AlertEvent::Retried,
                AlertEvent::QueuedLongerThan,
                AlertEvent::RunningLongerThan,
            ],
        )
    });
    let channels = Signal::derive(move || {
        options(
            cx.lang(),
            "alert_channel",
            &[AlertChannel::Email, AlertChannel::Webhook],
        )
    });
    let mails = use_context::<EmailAlerts>().is_none_or(|m| m.0);
    let row_lens =
        move |i: usize, read: fn(&Alert) -> String, write: fn(&mut Alert, String)| Lens {
            get: cx.watch(move |s| s.advanced.alerts.get(i).map(read).unwrap_or_default()),
            set: Callback::new(move |v: String| {
                cx.spec.update(|s| {
                    if let Some(a) = s.advanced.alerts.get_mut(i) {
                        write(a, v);
                    }
                })
            }),
        };
    let takes_threshold = move |i: usize| {
        cx.spec.with_untracked(|s| {
            s.advanced
                .alerts
                .get(i)
                .is_some_and(|a| a.event.needs_threshold())
        })
    };
    // Empty is no threshold (the rules then ask for one); other text that is not a whole
    // number is held and reported in the rule's words: at least 1.
    let threshold_lens = move |i: usize| {
        let shown = cx.watch(move |s| {
            s.advanced
                .alerts
                .get(i)
                .and_then(|a| a.threshold)
                .map(|t| t.to_string())
                .unwrap_or_default()
        });
        Lens {
            get: shown,
            set: Callback::new(move |v: String| {
                let path = format!("{ALERTS}[{i}].threshold");
                let store = move |s: &mut TaskSpec, n: Option<u32>| {
                    if let Some(a) = s.advanced.alerts.get_mut(i) {
                        a.threshold = n;
                    }
                };
                let takes = takes_threshold(i);
                // Text the browser holds that is no number (`1e` on the way to `1e3`)
                // reads as empty: not the user emptying the box, which would take the
                // threshold, and so the box and its text, away mid-word.
                if v.trim().is_empty() && !holds_bad_input(&cx.control_id(&path)) {
                    cx.forget_unparsed(&path);
                    cx.spec.update(|s| store(s, None));
                    // The box goes with a threshold its event takes none of: the
                    // keyboard goes on from the row's event, not the page's start.
                    if !takes {
                        focus_first_in(&cx.control_id(&format!("{ALERTS}[{i}].event")));
                    }
                } else {
                    let unread = threshold_unread(&v, takes);
                    cx.set_number(&path, v, whole_u32, unread, shown, move |s, n| {
                        store(s, Some(n))
                    });
                }
            }),
        }
    };
    // Text the threshold box holds was judged by the event it was typed for. Another
    // event that takes none removes the box and its threshold, so the text goes too;
    // one that takes a threshold judges the text again by its own rule.
    let event_lens = move |i: usize| {
        let lens = row_lens(
            i,
            |a| wire(&a.event),
            |a, v| {
                if let Some(e) = unwire(&v) {
                    a.event = e;
                    // A threshold belongs to the event it was set for.
                    if !e.needs_threshold() {
                        a.threshold = None;
                    }
                }
            },
        );
        Lens {
            get: lens.get,
            set: Callback::new(move |v: String| {
                let path = format!("{ALERTS}[{i}].threshold");
                let held = cx.held(&path);
                lens.set.run(v);
                if let Some((text, shown)) = held {
                    cx.forget_unparsed(&path);
                    let takes = takes_threshold(i);
                    let stays = takes
                        || cx.spec.with_untracked(|s| {
                            s.advanced
                                .alerts
                                .get(i)
                                .is_some_and(|a| a.threshold.is_some())
                        });
                    if stays {
                        let store = move |s: &mut TaskSpec, n: Option<u32>| {
                            if let Some(a) = s.advanced.alerts.get_mut(i) {
                                a.threshold = n;
                            }
                        };
                        let unread = threshold_unread(&text, takes);
                        cx.set_number(&path, text, whole_u32, unread, shown, move |s, n| {
                            store(s, Some(n))
                        });
                    }
                }
            }),
        }
    };
    view! {
        <div class="list" data-field=ALERTS role="group" aria-labelledby=labelled
            aria-describedby=described>
            <h3 id=label_id>{move || cx.text(&field_key(ALERTS, "label"))}</h3>
            <p class="help" id=help_id>{move || cx.text(&field_key(ALERTS, "help"))}</p>
            <Findings id=msgs_id findings=findings />
            {move || (0..len.get()).map(|i| {
                let row = format!("{ALERTS}[{i}]");
                let row_attr = row.clone();
                // A threshold an event takes none of (an import's, the API's) shows too,
                // with the rule's warning, until the user empties it.
                let shows_threshold = cx.watch(move |s| {
                    s.advanced
                        .alerts
                        .get(i)
                        .is_some_and(|a| a.event.needs_threshold() || a.threshold.is_some())
                });
                let unsent = cx.watch(move |s| {
                    !mails && s.advanced.alerts.get(i).is_some_and(|a| a.channel == AlertChannel::Email)
                });
                view! {
                    <div class="row" data-row=row_attr>
                        <SelectField path=format!("{row}.event") no_help=true required=true options=events
                            lens=event_lens(i) />
                        {let row = row.clone(); move || shows_threshold.get().then(|| view! {
                            <TextField path=format!("{row}.threshold") no_help=true control=Control::Number
                                lens=threshold_lens(i) />
                        })}
                        <SelectField path=format!("{row}.channel") no_help=true required=true options=channels
                            lens=row_lens(i, |a| wire(&a.channel), |a, v| a.channel = unwire(&v).unwrap_or_default()) />
                        <TextField path=format!("{row}.target") no_help=true
                            lens=row_lens(i, |a| a.target.clone(), |a, v| a.target = v) />
                        <Remove list=ALERTS index=i on_remove=Callback::new(move |()| {
                            cx.edit(ALERTS, |s| {
                                if i < s.advanced.alerts.len() {
                                    s.advanced.alerts.remove(i);
                                }
                            })
                        }) />
                        {move || unsent.get().then(|| view! {
                            <p class="note" data-testid="no-email">{move || cx.text("ui.form.alerts.no_email")}</p>
                        })}
                    </div>
                }
            }).collect_view()}
            <button type="button" class="add" id=id data-testid="add-advanced.alerts"
                on:click=move |_| {
                    cx.edit(ALERTS, |s| s.advanced.alerts.push(Alert::default()));
                    let row = format!("{ALERTS}[{}]", cx.spec.with_untracked(|s| s.advanced.alerts.len()) - 1);
                    cx.added_row(&row);
                    focus_first_in(&cx.control_id(&row));
                }>
                {move || cx.text("ui.form.add.advanced.alerts")}
            </button>
        </div>
    }
}
