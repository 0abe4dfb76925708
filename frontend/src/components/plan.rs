//! Whether the task would start now, on what, and if not why.

use crate::i18n::{UiLang, t};
use leptos::prelude::*;
use shared::quota::{Candidate, Fit, Outcome};
use shared::task::IdleStability;
use shared::{Lang, Plan, Resources};

fn amount(r: &Resources) -> String {
    format!("{} GPU · {} vCPU · {} GiB", r.gpu, r.vcpu, r.memory_gib)
}

fn stability(level: IdleStability, lang: Lang) -> &'static str {
    match level {
        IdleStability::Low => t(lang, "low", "低"),
        IdleStability::Medium => t(lang, "medium", "中"),
        IdleStability::High => t(lang, "high", "高"),
    }
}

fn verdict(fit: &Fit, lang: Lang) -> String {
    match (fit, lang) {
        (Fit::Now { nodes }, Lang::En) => format!("fits now on {nodes} node(s)"),
        (Fit::Now { nodes }, Lang::Zh) => format!("可立即调度，占用 {nodes} 个节点"),
        (Fit::Queue { reason }, Lang::En) => format!("queues: {}", reason.message(lang)),
        (Fit::Queue { reason }, Lang::Zh) => format!("排队：{}", reason.message(lang)),
        (Fit::Never { reason }, Lang::En) => format!("never fits: {}", reason.message(lang)),
        (Fit::Never { reason }, Lang::Zh) => format!("无法调度：{}", reason.message(lang)),
    }
}

fn quota(candidate: &Candidate, lang: Lang) -> String {
    if candidate.quota.is_empty() {
        return t(lang, "no quota used", "不占用配额").to_owned();
    }
    candidate
        .quota
        .iter()
        .map(|line| match line.remaining {
            Some(left) => format!("{}: {}", line.spec, amount(&left)),
            None => format!("{}: {}", line.spec, t(lang, "no quota", "无配额")),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The placement preview: the overall outcome, then every spec of the priority list.
#[component]
pub fn PlanView(
    /// The plan; `None` while the compute section is incomplete.
    #[prop(into)]
    plan: Signal<Option<Plan>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    view! {
        <section class="plan" aria-label="Scheduling">
            <h2>{move || t(lang.get(), "Quota and scheduling", "配额和调度")}</h2>
            {move || match plan.get() {
                None => view! {
                    <p class="outcome pending" data-testid="outcome">
                        {t(lang.get(), "Choose a cluster, resource kind and instance spec to see where the task would run.",
                            "选择集群、资源类型和实例规格后，即可查看任务将在何处运行。")}
                    </p>
                }.into_any(),
                Some(plan) => {
                    let l = lang.get();
                    let outcome = match &plan.outcome {
                        Outcome::Now { index, nodes } => {
                            let spec = plan.candidate(*index).map(|c| c.spec.clone()).unwrap_or_default();
                            match l {
                                Lang::En => format!("Starts now with {spec} on {nodes} node(s)."),
                                Lang::Zh => format!("可立即启动：使用 {spec}，占用 {nodes} 个节点。"),
                            }
                        }
                        Outcome::Queue { reason, .. } => match l {
                            Lang::En => format!("Will queue as a whole: {}.", reason.message(l)),
                            Lang::Zh => format!("任务将整体排队：{}。", reason.message(l)),
                        },
                        Outcome::Blocked => t(l, "Cannot start: no spec is within quota and able to fit. See the errors.",
                            "无法启动：没有满足配额且可调度的规格，请查看错误。").to_owned(),
                    };
                    let class = match plan.outcome {
                        Outcome::Now { .. } => "outcome now",
                        Outcome::Queue { .. } => "outcome queue",
                        Outcome::Blocked => "outcome blocked",
                    };
                    let idle = plan.idle.iter().map(|offer| {
                        let fragments = offer.fragments.iter().map(|f| format!("{}×{}", f.nodes, f.units)).collect::<Vec<_>>().join(", ");
                        view! {
                            <p class="idle">
                                {t(l, "Idle capacity: ", "闲时数量：")}{offer.quantity}
                                {t(l, " units, stability ", " 份，稳定性 ")}{stability(offer.stability, l)}
                                {t(l, ", fragments (nodes×units) ", "，碎片（节点×份数）")}{fragments}
                            </p>
                        }
                    }).collect_view();
                    view! {
                        <p class=class data-testid="outcome">{outcome}</p>
                        <p class="meta">
                            {t(l, "Replicas: ", "副本数：")}{plan.replicas}
                            {t(l, " · pool: ", " · 资源池：")}{plan.pool.clone()}
                        </p>
                        {idle}
                        <table class="candidates">
                            <thead><tr>
                                <th>{t(l, "Spec (priority order)", "实例规格（按优先级）")}</th>
                                <th>{t(l, "Per replica", "单副本")}</th>
                                <th>{t(l, "Task demand", "任务需求")}</th>
                                <th>{t(l, "Quota left", "剩余配额")}</th>
                                <th>{t(l, "Pool free", "资源池可用")}</th>
                                <th>{t(l, "Gang fit", "整体调度")}</th>
                            </tr></thead>
                            <tbody>
                                {plan.candidates.iter().map(|c| view! {
                                    <tr class:ok=c.quota_ok() && c.fit.is_now() class:used=plan.used().is_some_and(|u| u.index == c.index)>
                                        <td>{c.spec.clone()}</td>
                                        <td>{amount(&c.per_replica)}</td>
                                        <td>{amount(&c.demand)}</td>
                                        <td>{quota(c, l)}</td>
                                        <td>{amount(&c.available)}</td>
                                        <td>{verdict(&c.fit, l)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any()
                }
            }}
        </section>
    }
}
