//! The form's state, shared with every section through context: the draft spec, the
//! check the shared crate runs on it, and which findings are shown where.

use crate::i18n::UiLang;
use leptos::prelude::*;
use shared::catalog::Cluster;
use shared::usage::Usage;
use shared::validate::{Expected, Found};
use shared::{Catalog, Check, Issue, Lang, Plan, Report, Severity, TaskSpec, User};
use std::collections::{BTreeMap, HashSet};
use std::ops::Bound;
use std::sync::Arc;

/// Brings one watched value up to date with the draft.
type Watcher = Arc<dyn Fn(&TaskSpec) + Send + Sync>;

/// Brings one field's shown findings up to date.
type FindingsWatcher = Arc<dyn Fn(&Showing<'_>) + Send + Sync>;

/// Closures that bring values up to date, by registration: the values read out of the
/// draft by [`FormCx::watch`], and the findings fields show ([`FormCx::findings_at`]).
struct Watchers<W> {
    next: u64,
    /// By id, which only grows: pushed in order. A list, not a `BTreeMap`: each map of
    /// another type brought its own copy of the map's code into the wasm.
    all: Vec<(u64, W)>,
}

impl<W> Default for Watchers<W> {
    fn default() -> Self {
        Watchers {
            next: 0,
            all: Vec::new(),
        }
    }
}

impl<W: Clone + Send + Sync + 'static> Watchers<W> {
    /// Registers `watcher` until the calling owner is cleaned up.
    fn register(this: StoredValue<Watchers<W>>, watcher: W) {
        let id = this
            .try_update_value(|w| {
                w.next += 1;
                w.all.push((w.next, watcher));
                w.next
            })
            .unwrap_or_default();
        on_cleanup(move || {
            this.try_update_value(|w| {
                if let Ok(at) = w.all.binary_search_by_key(&id, |(id, _)| *id) {
                    w.all.remove(at);
                }
            });
        });
    }

    /// Every watcher, copied out: running one may build or drop controls, which register.
    fn all(this: StoredValue<Watchers<W>>) -> Vec<W> {
        this.with_value(|w| w.all.iter().map(|(_, w)| w.clone()).collect())
    }
}

/// The specs a switch of resource kind took out of the priority list, as the new kind's
/// pool does not offer them.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecsLeftOut {
    /// The kind switched from.
    pub kind: Option<shared::task::ResourceKind>,
    /// The specs' ids.
    pub specs: Vec<String>,
    /// The draft the switch made.
    pub after: TaskSpec,
}

/// What decides the findings a field shows.
struct Showing<'a> {
    located: &'a BTreeMap<String, Vec<Issue>>,
    reveal: bool,
    touched: &'a HashSet<String>,
    fresh: &'a HashSet<String>,
}

impl Showing<'_> {
    /// The findings exactly at `path` (or beneath it, with `under`) that its field shows.
    fn at(&self, path: &str, under: bool) -> Vec<Issue> {
        if !self.shows(path) {
            return Vec::new();
        }
        let found: Vec<Issue> = if under {
            within(self.located, path)
                .flat_map(|(_, issues)| issues.iter().cloned())
                .collect()
        } else {
            self.located.get(path).cloned().unwrap_or_default()
        };
        // Errors first, as the summary lists them: a runtime env's warning about an
        // unknown key stood above the errors that block the submit.
        crate::components::errors_first(found, |i| i.severity)
    }

    /// Whether the field at `path` shows its findings.
    fn shows(&self, path: &str) -> bool {
        // A group's own findings (a tag row's, the autoscaling range's) show once any
        // field in it was edited.
        let edited = self.touched.iter().any(|t| is_within(t, path));
        let revealed = self.reveal && !self.fresh.iter().any(|row| is_within(path, row));
        edited || revealed
    }
}

/// Which of the page's forms this is, for the ids of its elements: a portal may mount
/// two forms on one page (`mountTaskForm`), and each `<label for>`, `aria-describedby`
/// and focus move of the second would otherwise find the first form's element of the
/// same id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ids {
    /// 0 for the page's first form.
    number: u32,
    /// This form's own, as the page's forms hold numbers.
    token: u64,
}

/// A form that holds a number: its number, a token of its own, and its `<form>` once in
/// the page.
struct Holder {
    number: u32,
    token: u64,
    form: Option<web_sys::Element>,
    /// Its form was in the page when placed: mounted into an element not yet in the
    /// page (a framework that mounts before it attaches), it is not "gone" while out.
    placed_in_page: bool,
}

thread_local! {
    /// The numbers the page's forms hold.
    static FORMS: std::cell::RefCell<Vec<Holder>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The last token handed out.
    static TOKENS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Ids {
    /// The lowest number no form in the page holds, held until the calling owner is
    /// cleaned up. A form whose element has left the page without its owner being
    /// cleaned up (a test that stopped midway) holds none; its cleanup, if it ever runs,
    /// frees only its own entry, by its token, not the number another form took since.
    /// A form mounted into an element not yet in the page holds its number while out.
    fn take() -> Ids {
        let token = TOKENS.with(|t| {
            t.set(t.get() + 1);
            t.get()
        });
        let number = FORMS.with_borrow_mut(|held| {
            held.retain(|h| !h.placed_in_page || h.form.as_ref().is_none_or(|f| f.is_connected()));
            let number = (0..)
                .find(|n| held.iter().all(|h| h.number != *n))
                .unwrap_or_default();
            held.push(Holder {
                number,
                token,
                form: None,
                placed_in_page: false,
            });
            number
        });
        on_cleanup(move || FORMS.with_borrow_mut(|held| held.retain(|h| h.token != token)));
        Ids { number, token }
    }

    /// Notes the form's element, once in the page.
    pub fn placed(self, form: web_sys::Element) {
        FORMS.with_borrow_mut(|held| {
            if let Some(entry) = held.iter_mut().find(|h| h.token == self.token) {
                entry.placed_in_page = form.is_connected();
                entry.form = Some(form);
            }
        });
    }

    /// This form's `<form>`, once in the page.
    pub fn form(self) -> Option<web_sys::Element> {
        FORMS.with_borrow(|held| {
            held.iter()
                .find(|h| h.token == self.token)
                .and_then(|h| h.form.clone())
        })
    }

    /// `id` in this form: as it is in the page's first form (the console's one), with a
    /// prefix in any other (`b1-plan-title`), which no id of the first form starts with.
    pub fn of(self, id: &str) -> String {
        match self.number {
            0 => id.to_owned(),
            n => format!("b{n}-{id}"),
        }
    }
}

/// The form in context. Copy: every field is an arena handle.
#[derive(Clone, Copy)]
pub struct FormCx {
    /// The draft: the spec exactly as the user has filled it so far.
    pub spec: RwSignal<TaskSpec>,
    /// The shared crate's check of the draft, recomputed on every change.
    pub check: Memo<Check>,
    /// The server's findings (a 422 at submit) with the spec they were about; shown
    /// instead of the local ones while the draft is still that spec.
    pub server: RwSignal<Option<(TaskSpec, Report)>>,
    /// The findings the form shows.
    pub report: Memo<Report>,
    /// The check's quota and placement plan, apart: most keystrokes (a name, a
    /// command) leave it as it was, and then the plan panel is not touched.
    pub plan: Memo<Option<Plan>>,
    /// The index of the spec of the priority list the task would use.
    pub used_spec: Memo<Option<usize>>,
    /// Whether the plan's queue would be so with none of Berth's tasks running: the
    /// task waits for capacity used outside Berth, as the server's reason says once it
    /// is submitted ("will queue" alone read as waiting for Berth's tasks).
    /// Said with why it would queue then, and the key of the words for it
    /// ([`shared::quota::outside_berth_key`]).
    pub waits_outside: Memo<Option<(shared::quota::QueueReason, &'static str)>>,
    /// What the form chooses from.
    pub catalog: StoredValue<Catalog>,
    /// The chosen cluster: what [`FormCx::cluster`] reads, so the option lists that
    /// depend on the cluster are not recomputed by every keystroke, and the cluster is
    /// not copied out of the catalog by each of them.
    cluster: Memo<Option<Arc<Cluster>>>,
    /// The findings by their path as text, built once per change of the report: a
    /// field looks up its own entry (and a section its range) instead of filtering
    /// every finding, and sorted paths keep a path's descendants next to it.
    located: Memo<BTreeMap<String, Vec<Issue>>>,
    /// What the controls show, each read out of the draft by one closure: see
    /// [`FormCx::watch`].
    watchers: StoredValue<Watchers<Watcher>>,
    /// The findings each field shows, each looked up by one closure: see
    /// [`FormCx::findings_at`].
    shown: StoredValue<Watchers<FindingsWatcher>>,
    /// Paths the user has edited: their findings show at the field.
    touched: RwSignal<HashSet<String>>,
    /// Every finding shows at its field (after a submit attempt, an import, a restored
    /// draft or a prefilled spec), not only those of edited fields: see
    /// [`FormCx::show_all`].
    reveal: RwSignal<bool>,
    /// Rows added since every finding showed, quiet as a fresh form's fields are until
    /// edited: a spec row just added said "is required" before it was chosen.
    fresh: RwSignal<HashSet<String>>,
    /// The number controls whose text is not a number of their kind (`2.5` for workers),
    /// by path: the draft keeps its last value, and the report says what is wrong, as an
    /// error, so what is submitted is never other than what the box shows.
    unparsed: RwSignal<Vec<(String, Held)>>,
    /// The console language.
    pub lang: UiLang,
    /// The ids of this form's elements.
    pub ids: Ids,
    /// Who fills the form, for the rules [`FormCx::unread_u32`] asks.
    user: StoredValue<User>,
    /// The pools' and quota's use the check plans against.
    usage: Signal<Usage>,
    /// Of that use, what Berth's tasks do not take (the catalog answer's `outside`).
    outside: Signal<Usage>,
    /// The last switch (see [`FormCx::switch`]): its select, the draft before it and
    /// the draft it made.
    switched: StoredValue<Option<(&'static str, TaskSpec, TaskSpec)>>,
    /// What the last switch of resource kind took out of the spec list: said while the
    /// draft is as it left it, which choosing the kind before again undoes (the list
    /// emptied without a word: keyboard explorer). A switch of region or cluster says
    /// its own (`LeftOutNote`).
    pub specs_dropped: RwSignal<Option<SpecsLeftOut>>,
}

impl FormCx {
    /// Provides a form for `spec` to the tree below.
    pub fn provide(
        spec: TaskSpec,
        mut catalog: Catalog,
        usage: Signal<Usage>,
        outside: Signal<Usage>,
        held: Signal<Vec<shared::quota::HeldRoom>>,
        user: User,
    ) -> FormCx {
        // The groups offered are the user's, as the server's catalog answer has them; a
        // portal may pass a catalog with every group (the rules find a non-member either
        // way).
        catalog
            .project_groups
            .retain(|g| g.members.contains(&user.name));
        // Shared, not copied, by each plan told beside the queue's kept room: the catalog
        // does not change under a form.
        let shared_catalog = Arc::new(catalog.clone());
        let catalog = StoredValue::new(catalog);
        let rules_user = StoredValue::new(user.clone());
        let spec = RwSignal::new(spec);
        let base = crate::api::Base::here();
        let check = Memo::new(move |_| {
            // A RayJob asks for the YAML reader at once; until it is here a runtime env's
            // `unread` is held back, and this runs again when it arrives (crate::yaml).
            let reader = crate::yaml::state();
            let mut check = usage
                .with(|u| spec.with(|s| catalog.with_value(|c| shared::check(s, c, u, &user))));
            // As the queue will start it, beside the room it keeps for tasks passed over
            // too often (the server's `/validate` says it alike): "starts now" was said
            // of a task that then waited (README's known gaps), and its spec's row and
            // findings said it still once the headline did not (verdict explorer).
            held.with(|held| {
                if held.is_empty() {
                    return;
                }
                usage.with(|usage| {
                    spec.with(|s| {
                        let catalog = Arc::clone(&shared_catalog);
                        let live = shared::usage::LiveUsage::new(catalog, usage.clone());
                        // An overflow is already a finding of the check's own.
                        let _ = shared::quota::check_beside_held(&mut check, s, &live, &user, held);
                    })
                })
            });
            if spec.with(|s| s.basic.task_type == Some(shared::TaskType::RayJob)) {
                crate::yaml::want(&base);
            }
            let unread = |i: &Issue| matches!(i.code, shared::IssueCode::RuntimeEnvUnread);
            if reader != crate::yaml::Reader::Failed && check.issues.issues().iter().any(unread) {
                let mut held = Report::new();
                for issue in check.issues.issues().iter().filter(|i| !unread(i)) {
                    held.push_issue(issue.clone());
                }
                check.issues = held;
            }
            check
        });
        let server = RwSignal::new(None::<(TaskSpec, Report)>);
        // In path order, a few at most: a list rather than a map (as `Watchers`).
        let unparsed = RwSignal::new(Vec::<(String, Held)>::new());
        let report = Memo::new(move |_| {
            let theirs = server.with(|answer| {
                answer
                    .as_ref()
                    .filter(|(sent, _)| spec.with(|s| s == sent))
                    .map(|(_, report)| report.clone())
            });
            let mut report = theirs.unwrap_or_else(|| check.with(|c| c.issues.clone()));
            unparsed.with(|bad| {
                // A box holding text says what is wrong with that text alone: the rules'
                // findings there are about the draft's last number, which it no longer
                // shows ("must be between 0 and 1024" under an emptied box).
                // So is the autoscaling range of a box it names: "now 5 ≤ 2 ≤ 4" quoted
                // the 5 of an emptied Min workers (explorer).
                if !bad.is_empty() {
                    let ranged = bad.iter().any(|(p, _)| RANGE_BOXES.contains(&p.as_str()));
                    let mut shown = Report::new();
                    for issue in report.issues() {
                        let path = issue.path.to_string();
                        let stale = bad.iter().any(|(p, _)| *p == path)
                            || ranged
                                && matches!(issue.code, shared::IssueCode::AutoscalingRange { .. });
                        if !stale {
                            shown.push_issue(issue.clone());
                        }
                    }
                    report = shown;
                }
                for (
                    path,
                    Held {
                        text,
                        unread,
                        bad_input,
                        ..
                    },
                ) in bad
                {
                    // A box the browser holds text in that is no number (`1e` on the way
                    // to `1e3`) reads as empty: what is wrong is the text, which the
                    // browser does not show the page, not that the box is empty.
                    let code = match unread {
                        Unread::Rule(code) => code.clone(),
                        _ if text.trim().is_empty() && !bad_input => {
                            shared::IssueCode::ValueRequired
                        }
                        // A number box holds a number's text or none: `-1` in a box
                        // of 0 or more was said to be "the text "-1"" (explorer).
                        Unread::Shape(expected) => shared::IssueCode::ValueInvalid {
                            expected: expected.clone(),
                            found: (!bad_input).then(|| {
                                let number = text.bytes().any(|b| b.is_ascii_digit())
                                    && text.trim().bytes().all(|b| {
                                        b.is_ascii_digit()
                                            || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
                                    });
                                if number {
                                    Found::Number(text.trim().to_owned())
                                } else {
                                    Found::Text(text.clone())
                                }
                            }),
                        },
                    };
                    // An error whatever the rule's own weight: the draft still holds
                    // the box's last number, which the box no longer shows, so submit
                    // waits until the box holds what can be sent (a threshold its event
                    // takes none of, held as `-1`, would have sent the last one).
                    report.push_issue(Issue {
                        path: shared::FieldPath::parse(path),
                        code,
                        severity: Severity::Error,
                    });
                }
            });
            report
        });
        // A number box of the compute section or of autoscaling holding text that is
        // not a number: the check ran on the draft's last number, not what the box
        // shows, so its verdict would be about another task.
        let plan = Memo::new(move |_| {
            let held = unparsed.with(|bad| {
                bad.iter()
                    .map(|(p, _)| p)
                    .any(|p| is_within(p, "compute") || RANGE_BOXES.contains(&p.as_str()))
            });
            if held {
                return None;
            }
            check.with(|c| c.plan.clone())
        });
        // The spec the scheduler would start it on, beside room kept for others too.
        let used_spec =
            Memo::new(move |_| plan.with(|p| p.as_ref().and_then(|p| p.used()).map(|u| u.index)));
        // The server's rule (its scheduler's reason): the plan on the use outside Berth
        // alone would start it now, or it waits for an offer, which says what it waits
        // for. The draft is read untracked: a plan unchanged is a task unchanged here.
        let waits_outside = Memo::new(move |_| {
            use shared::quota::{Outcome, QueueReason};
            let queued = plan.with(|p| match p.as_ref().map(|p| &p.outcome) {
                // Nor one waiting for room kept in the queue, which is Berth's to give.
                Some(Outcome::Queue { reason, .. })
                    if !matches!(
                        reason,
                        QueueReason::NoIdleOffer { .. } | QueueReason::PassedOver
                    ) =>
                {
                    Some(reason.clone())
                }
                _ => None,
            })?;
            outside.with(|outside| {
                spec.with_untracked(|s| {
                    catalog.with_value(|c| {
                        rules_user.with_value(|user| {
                            // Said by the plan on that use: what is free now says nothing of
                            // what would be (explorer: "0 of 13 replicas fit, even if all
                            // Berth's tasks end", where 12 would).
                            let reason = match shared::quota::plan(s, c, outside, user) {
                                Ok(Some(p)) => match p.outcome {
                                    Outcome::Now { .. } => return None,
                                    Outcome::Queue { reason, .. } => reason,
                                    Outcome::Blocked => queued,
                                },
                                _ => queued,
                            };
                            Some((reason, shared::quota::outside_berth_key(s)))
                        })
                    })
                })
            })
        });
        let watchers = StoredValue::new(Watchers::<Watcher>::default());
        // The one node downstream of the draft on behalf of all the controls: after each
        // change it runs every watcher, which sets its value only if it changed.
        Effect::new(move |_| {
            spec.track();
            let all = Watchers::all(watchers);
            spec.with_untracked(|s| {
                for watcher in &all {
                    watcher(s);
                }
            });
        });
        let located = Memo::new(move |_| {
            report.with(|r| {
                let mut located = BTreeMap::<String, Vec<Issue>>::new();
                for issue in r.issues() {
                    located
                        .entry(issue.path.to_string())
                        .or_default()
                        .push(issue.clone());
                }
                located
            })
        });
        let touched = RwSignal::new(HashSet::new());
        let reveal = RwSignal::new(false);
        let fresh = RwSignal::new(HashSet::new());
        let shown = StoredValue::new(Watchers::<FindingsWatcher>::default());
        // Likewise the one node downstream of the findings on behalf of every field: a
        // memo per field was run again, its sources dropped and tracked anew, by every
        // change of the report, for the one or two fields whose findings changed.
        Effect::new(move |_| {
            let all = Watchers::all(shown);
            let reveal = reveal.get();
            touched.with(|touched| {
                fresh.with(|fresh| {
                    located.with(|located| {
                        let showing = Showing {
                            located,
                            reveal,
                            touched,
                            fresh,
                        };
                        for watcher in &all {
                            watcher(&showing);
                        }
                    })
                })
            });
        });
        let cx = FormCx {
            spec,
            watchers,
            check,
            server,
            report,
            plan,
            used_spec,
            catalog,
            cluster: {
                let place = Memo::new(move |_| {
                    spec.with(|s| (s.basic.region.clone(), s.basic.cluster.clone()))
                });
                // Recomputed only when the place changes, and then always new.
                Memo::new_with_compare(
                    move |_| {
                        place.with(|(region, cluster)| {
                            catalog
                                .with_value(|c| c.cluster(region, cluster).cloned().map(Arc::new))
                        })
                    },
                    |_, _| true,
                )
            },
            located,
            shown,
            touched,
            reveal,
            fresh,
            unparsed,
            lang: UiLang::use_context(),
            ids: Ids::take(),
            switched: StoredValue::new(None),
            specs_dropped: RwSignal::new(None),
            waits_outside,
            user: rules_user,
            usage,
            outside,
        };
        provide_context(cx);
        cx
    }

    /// The form in context.
    ///
    /// # Panics
    ///
    /// Outside a [`crate::form::TaskForm`]: a section editor is meaningless without one.
    pub fn use_context() -> FormCx {
        use_context::<FormCx>().expect("a section editor inside a TaskForm")
    }

    /// A value read out of the draft by `read`, tracked, which changes only when the
    /// value does.
    ///
    /// Not a memo of the draft: every reactive node downstream of the draft is marked
    /// and checked by every keystroke, whether or not it then recomputes, and a form has
    /// a hundred controls. Watched values hang off one effect instead, which runs the
    /// `read` closures (plain calls) and sets only the values that changed, so a
    /// keystroke reaches the reactive graph of the one control it changes. `read` must
    /// read only the draft (and the catalog): it is not tracked.
    pub fn watch<T>(&self, read: impl Fn(&TaskSpec) -> T + Send + Sync + 'static) -> Signal<T>
    where
        T: Clone + PartialEq + Send + Sync + 'static,
    {
        let value = ArcRwSignal::new(self.spec.with_untracked(&read));
        let writer = value.clone();
        let watcher: Watcher = Arc::new(move |s| {
            let next = read(s);
            if writer.with_untracked(|now| *now != next) {
                writer.set(next);
            }
        });
        Watchers::register(self.watchers, watcher);
        Signal::from(value)
    }

    /// The findings exactly at `path` (or beneath it, with `under`) that its field
    /// shows, tracked: all of them once revealed or the field is edited, else none.
    ///
    /// Like [`FormCx::watch`], not a memo: one effect follows the findings and sets only
    /// the fields' values that changed.
    pub fn findings_at(&self, path: &str, under: bool) -> Signal<Vec<Issue>> {
        let path = path.to_owned();
        let read = move |s: &Showing<'_>| s.at(&path, under);
        let now = self.touched.with_untracked(|touched| {
            self.fresh.with_untracked(|fresh| {
                self.located.with_untracked(|located| {
                    read(&Showing {
                        located,
                        reveal: self.reveal.get_untracked(),
                        touched,
                        fresh,
                    })
                })
            })
        });
        let value = ArcRwSignal::new(now);
        let writer = value.clone();
        let watcher: FindingsWatcher = Arc::new(move |s| {
            let next = read(s);
            if writer.with_untracked(|now| *now != next) {
                writer.set(next);
            }
        });
        Watchers::register(self.shown, watcher);
        Signal::from(value)
    }

    /// The id of this form's element `id` (see [`Ids`]).
    pub fn id(&self, id: &str) -> String {
        self.ids.of(id)
    }

    /// The id of this form's control at `path` (see [`control_id`]).
    /// The draft's plan as it would be at the idle level `level`: the plan panel offers
    /// the lower levels that would start the task now, not those that merely have an
    /// offer (review: one too fragmented for the gang still queued).
    pub fn plan_at_level(&self, level: shared::task::IdleStability) -> Option<Plan> {
        let mut spec = self.spec.get_untracked();
        spec.compute.idle_stability = Some(level);
        self.plan_of(&spec)
    }

    /// The most workers, fewer than the draft's, with which the task would start now, and
    /// the plan it would start by: the plan panel offers it when the draft would not start
    /// (novice explorer: "or smaller if it cannot start today" was found by trial).
    pub fn most_workers_now(&self) -> Option<(u32, Plan)> {
        let workers = self.spec.with_untracked(|s| s.compute.workers);
        self.most_starting(0, workers, |s, n| s.compute.workers = n)
    }

    /// The most units per node below the draft's with which it would start now, and the
    /// plan it would then have; `None` when even 1 would not, or it takes 1 already. For a
    /// replica too large for what is free now, which no count of workers mends.
    pub fn most_units_now(&self) -> Option<(u32, Plan)> {
        let units = self.spec.with_untracked(|s| s.compute.units_per_node);
        self.most_starting(1, units, |s, n| s.compute.units_per_node = n)
    }

    /// The largest count from `least` up to below `over` that, `set` into the draft,
    /// starts it now, with that plan. Fewer workers or units never need more quota nor
    /// more of a node, so it is found by halves: a handful of plans, not one per count.
    fn most_starting(
        &self,
        least: u32,
        over: u32,
        set: impl Fn(&mut TaskSpec, u32),
    ) -> Option<(u32, Plan)> {
        if over <= least {
            return None;
        }
        let spec = self.spec.get_untracked();
        let starts_with = |n: u32| {
            let mut fewer = spec.clone();
            set(&mut fewer, n);
            self.plan_of(&fewer)
                .filter(|p| matches!(p.outcome, shared::quota::Outcome::Now { .. }))
        };
        let mut found = (least, starts_with(least)?);
        let mut over = over;
        while over - found.0 > 1 {
            let mid = found.0 + (over - found.0) / 2;
            match starts_with(mid) {
                Some(plan) => found = (mid, plan),
                None => over = mid,
            }
        }
        Some(found)
    }

    /// Moves the keyboard to this form's control at `path`: a button that changed it goes
    /// away with what it offered, and the focus fell to the page's top (recheck).
    pub fn focus_control(&self, path: &str) {
        if let Some(control) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&self.control_id(path)))
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let _ = control.focus();
        }
    }

    /// Of the user's use now of the quota line of `kind`, `pool` and `spec`, what the
    /// platform counts outside Berth's tasks.
    pub fn quota_used_outside(
        &self,
        kind: shared::task::ResourceKind,
        pool: &str,
        spec: &str,
    ) -> shared::Resources {
        self.user.with_value(|user| {
            self.outside.with(|outside| {
                outside
                    .quota
                    .iter()
                    .filter(|q| {
                        q.user == user.name && q.kind == kind && q.pool == pool && q.spec == spec
                    })
                    .fold(shared::Resources::default(), |sum, q| {
                        sum.saturating_add(q.used)
                    })
            })
        })
    }

    /// The user's persistent env vars, each as the form lists them: `NAME=value`, or the
    /// name alone, said hidden, for a secret.
    pub fn persistent_env(&self, lang: Lang) -> Vec<String> {
        self.user.with_value(|user| {
            self.catalog.with_value(|catalog| {
                catalog
                    .persistent_env_of(&user.name)
                    .map(|v| {
                        if v.hidden {
                            shared::messages::text(
                                lang,
                                "ui.form.persistent_env.hidden",
                                &[("name", v.name.clone())],
                            )
                        } else {
                            format!("{}={}", v.name, v.value)
                        }
                    })
                    .collect()
            })
        })
    }

    /// GPUs one replica of the draft gets: what a torchrun launch's `--nproc_per_node`
    /// should be. Read when asked, not tracked.
    pub fn gpus_per_replica(&self) -> Option<u64> {
        let plan = self.plan.get_untracked();
        self.spec.with_untracked(|spec| {
            self.usage.with_untracked(|usage| {
                self.catalog.with_value(|catalog| {
                    self.user.with_value(|user| {
                        shared::validate::command::gpus_per_replica_of(
                            spec,
                            catalog,
                            usage,
                            user,
                            plan.as_ref(),
                        )
                    })
                })
            })
        })
    }

    /// The plan of `spec` on this form's catalog, use and user.
    fn plan_of(&self, spec: &TaskSpec) -> Option<Plan> {
        self.usage.with_untracked(|usage| {
            self.catalog.with_value(|catalog| {
                self.user.with_value(|user| {
                    shared::quota::plan(spec, catalog, usage, user)
                        .ok()
                        .flatten()
                })
            })
        })
    }

    pub fn control_id(&self, path: &str) -> String {
        self.ids.of(&control_id(path))
    }

    /// The current language, tracked.
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// The message `key` in the current language, tracked.
    pub fn text(&self, key: &str) -> String {
        shared::messages::text(self.lang(), key, &[])
    }

    /// Changes the draft through the choice `select` (the kind, the task type, the
    /// region, the cluster), which drops what the new choice does not use: from the
    /// draft before this select's last change while nothing else changed since. A
    /// keyboard user arrowing through a closed select changes it at each option passed:
    /// ↓ then ↑ on the kind lost the pool and the spec list, and a kind passed on the way
    /// to another lost what that one keeps (explorer).
    pub fn switch(&self, select: &'static str, change: impl FnOnce(&mut TaskSpec)) {
        let now = self.spec.get_untracked();
        let before = match self.switched.get_value() {
            Some((last, before, after)) if last == select && after == now => before,
            _ => now,
        };
        let mut next = before.clone();
        change(&mut next);
        if select == "compute.kind" {
            let dropped: Vec<String> = before
                .compute
                .specs
                .iter()
                .filter(|id| !id.is_empty() && !next.compute.specs.contains(id))
                .cloned()
                .collect();
            let said = (!dropped.is_empty()).then(|| SpecsLeftOut {
                kind: before.compute.kind,
                specs: dropped,
                after: next.clone(),
            });
            if self.specs_dropped.with_untracked(|was| *was != said) {
                self.specs_dropped.set(said);
            }
        }
        self.switched
            .set_value(Some((select, before, next.clone())));
        self.spec.set(next);
    }

    /// Changes the draft through the field at `path`, which then shows its findings.
    pub fn edit(&self, path: &str, change: impl FnOnce(&mut TaskSpec)) {
        self.touch(path);
        // A row added or removed moves the rows below it: text held for one of them
        // would be said of another, and a row left quiet would be another row. A row
        // added and left for the next one is left, and says what it lacks.
        self.forget_unparsed(path);
        if self
            .fresh
            .with_untracked(|rows| rows.iter().any(|row| is_within(row, path)))
        {
            self.fresh
                .update(|rows| rows.retain(|row| !is_within(row, path)));
        }
        self.spec.update(change);
    }

    /// Stores what a number control reads: the number when `text` is one (`read`), else
    /// holds the text so the report says what is wrong (`unread`) and the draft keeps its
    /// value. `shown` is the draft's value as the control writes it.
    pub fn set_number<T>(
        &self,
        path: &str,
        text: String,
        read: impl FnOnce(&str) -> Option<T>,
        unread: impl Into<Unread>,
        shown: Signal<String>,
        store: impl FnOnce(&mut TaskSpec, T),
    ) {
        match read(&text) {
            Some(value) => {
                self.forget_unparsed(path);
                self.spec.update(|s| store(s, value));
            }
            None => self.unparsed.update(|bad| {
                let held = Held {
                    bad_input: text.trim().is_empty() && holds_bad_input(&self.control_id(path)),
                    text,
                    unread: unread.into(),
                    shown,
                };
                // Kept in path order, as their findings are reported.
                match bad.binary_search_by(|(p, _)| p.as_str().cmp(path)) {
                    Ok(at) => bad[at].1 = held,
                    Err(at) => bad.insert(at, (path.to_owned(), held)),
                }
            }),
        }
    }

    /// The text the number control at `path` holds that is not a number, if any, with
    /// the draft's value as it writes it.
    pub fn held(&self, path: &str) -> Option<(String, Signal<String>)> {
        self.unparsed.with_untracked(|bad| {
            bad.iter()
                .find(|(p, _)| p == path)
                .map(|(_, h)| (h.text.clone(), h.shown))
        })
    }

    /// The texts number boxes hold that are no number of their field, by path, tracked:
    /// what a saved draft keeps beside its spec.
    pub fn held_texts(&self) -> Vec<(String, String)> {
        self.unparsed.with(|bad| {
            bad.iter()
                .map(|(path, held)| (path.clone(), held.text.clone()))
                .collect()
        })
    }

    /// Puts a restored draft's held texts ([`FormCx::held_texts`]) back in their number
    /// boxes, each read as if typed there: held, and said wrong, as before the reload.
    /// Once the boxes are in the page.
    pub fn hold_again(&self, texts: &[(String, String)]) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        for (path, text) in texts {
            let Some(control) = document.get_element_by_id(&self.control_id(path)) else {
                continue;
            };
            let _ = js_sys::Reflect::set(&control, &"value".into(), &text.into());
            if let Ok(event) = web_sys::Event::new_with_event_init_dict("input", &init) {
                let _ = control.dispatch_event(&event);
            }
        }
    }

    /// After the whole draft is replaced (start over, an import): the number controls
    /// that held text show the new draft's value, which their own value may not have
    /// changed from, and nothing held is reported any more.
    pub fn reset_unparsed(&self) {
        let held = self.unparsed.with_untracked(|bad| {
            bad.iter()
                .map(|(path, held)| (path.clone(), held.shown))
                .collect::<Vec<_>>()
        });
        if held.is_empty() {
            return;
        }
        self.unparsed.update(Vec::clear);
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        for (path, shown) in held {
            if let Some(control) = document.get_element_by_id(&self.control_id(&path)) {
                let text = shown.get_untracked();
                let _ = js_sys::Reflect::set(&control, &"value".into(), &text.into());
            }
        }
    }

    /// Drops the held text of number controls at or beneath `path` (`""`: all of them,
    /// when the whole draft is replaced).
    pub fn forget_unparsed(&self, path: &str) {
        if self.unparsed.with_untracked(|bad| {
            bad.iter()
                .any(|(k, _)| is_within(k, path) || path.is_empty())
        }) {
            self.unparsed
                .update(|bad| bad.retain(|(k, _)| !(path.is_empty() || is_within(k, path))));
        }
    }

    /// Shows every finding at its field (`true`: a submit attempt, an import, a restored
    /// draft or a prefilled spec), or only those of edited fields (`false`: started
    /// over).
    pub fn show_all(&self, on: bool) {
        self.fresh.update(HashSet::clear);
        self.reveal.set(on);
    }

    /// Marks the row at `row`, just added, quiet until edited in a form that shows
    /// every finding: its fields are blank because it is new, not because they were
    /// left so.
    pub fn added_row(&self, row: &str) {
        if self.reveal.get_untracked() {
            self.fresh.update(|rows| {
                rows.insert(row.to_owned());
            });
        }
    }

    /// Forgets which fields were edited: a form started over shows findings as a fresh
    /// one does, once each field is edited (keyboard explorer: the blank form said its
    /// name prefix and resource kind were required, as they had been edited before).
    pub fn untouch_all(&self) {
        if self.touched.with_untracked(|t| !t.is_empty()) {
            self.touched.update(HashSet::clear);
        }
    }

    /// Marks a field edited.
    pub fn touch(&self, path: &str) {
        if !self.touched.with_untracked(|t| t.contains(path)) {
            self.touched.update(|t| {
                t.insert(path.to_owned());
            });
        }
    }

    /// Errors, warnings and hints beneath `prefix` (a section), tracked.
    /// The errors are those their fields show; the fourth count is the errors of fields
    /// not yet edited, which a fresh form does not show (novice explorer: a blank form's
    /// legends said "1 error" in red before a key was pressed).
    pub fn counts_under(&self, prefix: &str) -> [usize; 4] {
        self.touched.with(|touched| {
            self.fresh.with(|fresh| {
                self.located.with(|located| {
                    let showing = Showing {
                        located,
                        reveal: self.reveal.get(),
                        touched,
                        fresh,
                    };
                    let mut counts = [0; 4];
                    for (path, issues) in within(located, prefix) {
                        let shown = showing.shows(path);
                        for issue in issues {
                            let i = severity_index(issue.severity);
                            counts[if i == 0 && !shown { 3 } else { i }] += 1;
                        }
                    }
                    counts
                })
            })
        })
    }

    /// The chosen cluster, tracked.
    pub fn cluster(&self) -> Option<Arc<Cluster>> {
        self.cluster.get()
    }

    /// What the `u32` box at `path` says of `text` it does not read (`-1`, `1.5`; see
    /// [`super::field::whole_u32`]): too large, as the API says it; else the field's
    /// own rule where it refuses 0, the draft's nearest number to such text (max
    /// retries 1 to 100, a port, units per node: "a whole number, 0 or more" named a
    /// range the rule does not take, explorer); else, for a number below 0, its rule for
    /// the largest number, which names its range (workers "between 0 and 1024": "expected
    /// a whole number, 0 or more, found the number -1" read as a parser's words, Ray
    /// explorer; a fraction is told it is no whole number, which is what is wrong with
    /// it); else that it is no whole number, 0 or more. `set` writes a number into the
    /// field.
    pub fn unread_u32(&self, path: &str, text: &str, set: impl Fn(&mut TaskSpec, u32)) -> Unread {
        if let Some(code) = super::field::too_large(text) {
            return Unread::Rule(code);
        }
        // An empty box is required, whatever the rule.
        if text.trim().is_empty() {
            return Expected::WholeNumber.into();
        }
        let rule_at = |n: u32| {
            let mut spec = self.spec.get_untracked();
            set(&mut spec, n);
            self.catalog.with_value(|c| {
                self.user.with_value(|u| {
                    shared::validate(&spec, c, &Default::default(), u)
                        .issues()
                        .iter()
                        .find(|i| i.severity == Severity::Error && i.path.to_string() == path)
                        .map(|i| i.code.clone())
                })
            })
        };
        let below_zero = text.trim_start().starts_with('-');
        match rule_at(0).or_else(|| below_zero.then(|| rule_at(u32::MAX)).flatten()) {
            Some(code) => Unread::Rule(code),
            None => Expected::WholeNumber.into(),
        }
    }
}

/// The number boxes the autoscaling range is read from: text held in one leaves the
/// range, and the plan, about a number the box no longer shows.
const RANGE_BOXES: [&str; 3] = [
    "compute.workers",
    "ray.autoscaling.min_workers",
    "ray.autoscaling.max_workers",
];

/// What a number control's report says of text that is not a number of its kind.
#[derive(Clone)]
pub enum Unread {
    /// The shape finding: what the box holds is not `Expected`.
    Shape(Expected),
    /// The field's own rule, where the shape's words would allow what the rule refuses
    /// (an alert's threshold: "a whole number, 0 or more" under `0.5`, where the rule
    /// wants at least 1).
    Rule(shared::IssueCode),
}

impl From<Expected> for Unread {
    fn from(expected: Expected) -> Self {
        Unread::Shape(expected)
    }
}

/// A number control's text that is not a number of its kind.
#[derive(Clone)]
struct Held {
    /// The browser holds text in the box that is no number, which reads as empty.
    bad_input: bool,
    text: String,
    unread: Unread,
    /// The draft's value as the control writes it, to show again when the draft is
    /// replaced.
    shown: Signal<String>,
}

/// Whether the number control `id` holds text that is no number, which its value reads
/// as empty (the constraint validation API's `badInput`).
pub fn holds_bad_input(id: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| js_sys::Reflect::get(&e, &"validity".into()).ok())
        .and_then(|v| js_sys::Reflect::get(&v, &"badInput".into()).ok())
        .and_then(|b| b.as_bool())
        .unwrap_or(false)
}

/// Whether `at` is `path` or a field beneath it (`basic.tags[1].key` is within
/// `basic.tags[1]` and `basic.tags`, not within `basic.tag`).
fn is_within(at: &str, path: &str) -> bool {
    at.strip_prefix(path)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// The entries at `path` and beneath it (`path.x`, `path[0]`), in path order.
///
/// Every path that starts with `path` sorts from `path` on and before any path that
/// does not, so the range stops at the first that does not start with it; one that
/// starts with it without being beneath it (`compute.spec_x` for `compute.spec`) is
/// skipped, not a stop, since a descendant may sort after it.
fn within<'a>(
    located: &'a BTreeMap<String, Vec<Issue>>,
    path: &'a str,
) -> impl Iterator<Item = (&'a String, &'a Vec<Issue>)> + 'a {
    located
        .range::<str, _>((Bound::Included(path), Bound::Unbounded))
        .take_while(move |(at, _)| at.starts_with(path))
        .filter(move |(at, _)| is_within(at, path))
}

/// Position of a severity in a `[errors, warnings, hints]` count.
pub fn severity_index(severity: Severity) -> usize {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// The DOM id of the control at `path` (`environment.env[2].value` →
/// `f-environment-env-2-value`), so findings and the summary can point at it.
pub fn control_id(path: &str) -> String {
    let mut id = String::from("f-");
    for c in path.chars() {
        id.push(if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '-'
        });
    }
    id.replace("--", "-").trim_end_matches('-').to_owned()
}

/// The message key of a field's label or help: its path without list indices
/// (`environment.env[2].value` → `field.environment.env.value.label`).
pub fn field_key(path: &str, what: &str) -> String {
    format!("field.{}.{what}", bare(path))
}

/// A field's place without list indices (`environment.env[2].value` →
/// `environment.env.value`): what its label and its rules are known by.
pub fn bare(path: &str) -> String {
    let mut bare = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => in_index = true,
            ']' => in_index = false,
            c if !in_index => bare.push(c),
            _ => {}
        }
    }
    bare
}

/// An enum's wire name (`on_demand`), the value its `<option>` carries.
///
/// Through JSON text, not `serde_json::Value`: the console already serializes every
/// enum to text with the spec, so this adds no second serializer to the bundle.
pub fn wire<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .ok()
        .and_then(|text| shared::read::from_json::<String>(&text).ok())
        .unwrap_or_default()
}

/// The enum for a wire name; `None` for the empty "choose…" value. Read by
/// `shared::read`, the spec's reader, so each enum has one reader in the bundle.
pub fn unwire<T: shared::read::Read>(text: &str) -> Option<T> {
    serde_json::to_string(text)
        .ok()
        .and_then(|quoted| shared::read::from_json(&quoted).ok())
}

/// `(wire name, message)` options for enum values, labelled `ui.form.option.<group>.<wire>`.
pub fn options<T: serde::Serialize>(
    lang: Lang,
    group: &str,
    values: &[T],
) -> Vec<(String, String)> {
    values
        .iter()
        .map(|v| {
            let name = wire(v);
            let shown =
                shared::messages::text(lang, &format!("ui.form.option.{group}.{name}"), &[]);
            (name, shown)
        })
        .collect()
}
