//! The task list at `/`: phase chips, filters kept in the address's query string, a
//! page at a time, refreshed in place while it is on screen.

use super::{ErrorBanner, LISTED_PHASES, PhaseBadge, format_task_time, phase_label};
use crate::api::{self, ClientError, ListFilter};
use crate::i18n::UiLang;
use crate::nav::{self, Link, Route};
use leptos::prelude::*;
use shared::TaskType;
use shared::api::{CatalogResponse, TaskView};
use shared::record::{TaskPhase, Timestamp};
use std::collections::HashMap;
use std::time::Duration;

/// Tasks per page.
pub const PAGE_SIZE: u32 = 20;

/// How often the shown tasks are fetched again: calm enough for the server, quick
/// enough to see a task start.
const REFRESH: Duration = Duration::from_secs(4);
/// How long a row that left the list is kept in its place, at most, while the focus (not
/// the pointer) keeps it.
const KEPT_MS: f64 = 60_000.0;
/// How long a touch on the table counts as the reader being at it.
const TOUCH_KEEPS_MS: f64 = 10_000.0;
/// How many filters' rows left on the list page Back finds as they were.
const KEPT_FILTERS: usize = 5;
/// The rows after a live refresh: the refreshed page, then, when more rows were shown
/// than it fetched again (`deeper`), the rows below it as they were, until the user pages
/// again: a refresh never shortens the list. They are the old rows after the page's last
/// one, so tasks new at the top, which push old ones past the page's end, lose none.
pub fn refreshed(old: Vec<TaskView>, page: Vec<TaskView>, deeper: bool) -> Vec<TaskView> {
    if !deeper {
        return page;
    }
    let from = page
        .last()
        .and_then(|last| old.iter().position(|t| t.task.id == last.task.id))
        .map_or(0, |at| at + 1);
    let below: Vec<TaskView> = old
        .into_iter()
        .skip(from)
        .filter(|old| !page.iter().any(|t| t.task.id == old.task.id))
        .collect();
    let mut rows = page;
    rows.extend(below);
    rows
}

/// The rows after a refresh with the rows it no longer lists (a task that left the
/// filter, one deleted) kept where they were, each after the row it followed, and their
/// ids: under the reader's pointer, a task that ended above it moved every row below up
/// one, and a click opened the next task (busy explorer, a `running` list).
pub fn kept_in_place(old: &[TaskView], rows: Vec<TaskView>) -> (Vec<TaskView>, Vec<String>) {
    // The map the table keeps of its rows (one kind of map in the bundle, not three).
    let listed = places(&rows);
    // Each row gone, after the row still listed it followed (none: at the top).
    let mut gone: Vec<(Option<usize>, &TaskView)> = Vec::new();
    let mut before = None;
    for row in old {
        match listed.get(&row.task.id.0) {
            Some(at) => before = Some(*at),
            None => gone.push((before, row)),
        }
    }
    let kept = gone.iter().map(|(_, t)| t.task.id.0.clone()).collect();
    if gone.is_empty() {
        return (rows, kept);
    }
    let after = |at: Option<usize>| {
        gone.iter()
            .filter(move |(before, _)| *before == at)
            .map(|(_, t)| (*t).clone())
    };
    let mut out: Vec<TaskView> = after(None).collect();
    for (at, row) in rows.into_iter().enumerate() {
        out.push(row);
        out.extend(after(Some(at)));
    }
    (out, kept)
}

/// Where each task is in `rows`, by id.
fn places(rows: &[TaskView]) -> HashMap<String, usize> {
    rows.iter()
        .enumerate()
        .map(|(i, v)| (v.task.id.0.clone(), i))
        .collect()
}

/// The most rows a live refresh fetches again; rows below them stay as loaded. A
/// refresh of 200 left rows past the 200th as loaded, deleted tasks and ended ones too,
/// with nothing to say so (busy explorer, 400 rows loaded).
const REFRESH_MOST: u32 = 1000;
/// The rows a refresh asks for in one request: more are asked for page by page.
const REFRESH_PAGE: u32 = 200;

/// The first `limit` tasks of `filter`, as one page: asked for [`REFRESH_PAGE`] at a
/// time, each request after the first from the cursor of the one before. The pages'
/// cursors follow the list's order, so a task new at the top meanwhile moves no task
/// into or out of a later page; a task listed twice is kept once.
async fn first_tasks(
    filter: &ListFilter,
    limit: u32,
    lang: shared::Lang,
) -> Result<shared::api::TaskPage, ClientError> {
    let mut page = api::list_tasks(filter, None, limit.min(REFRESH_PAGE), lang).await?;
    let mut ids = places(&page.tasks);
    while (page.tasks.len() as u32) < limit
        && let Some(cursor) = page.next.take()
    {
        let wanted = (limit - page.tasks.len() as u32).min(REFRESH_PAGE);
        let more = api::list_tasks(filter, Some(&cursor), wanted, lang).await?;
        let before = page.tasks.len();
        page.tasks.extend(more.tasks.into_iter().filter(|t| {
            let at = ids.len();
            ids.insert(t.task.id.0.clone(), at).is_none()
        }));
        page.next = more.next;
        // A page that brought nothing new would be asked for again and again.
        if page.tasks.len() == before {
            break;
        }
    }
    Ok(page)
}

/// What the list showed when it was left: its rows, where "More" stopped and how far the
/// page was scrolled, so that coming back to the same filters (the task page's Back, the
/// browser's) finds the list as it was, then refreshed. Provided by the console; a list
/// without it (an embedding page's) starts afresh.
#[derive(Clone, Copy)]
pub struct ListMemory(
    StoredValue<Option<Shown>, LocalStorage>,
    /// The task whose page was shown since the list was left.
    StoredValue<Option<String>>,
);

struct Shown {
    query: String,
    tasks: Vec<TaskView>,
    next: Option<String>,
    scroll: f64,
}

impl ListMemory {
    /// Provides an empty memory to the views below.
    pub fn provide() -> Self {
        let memory = ListMemory(StoredValue::new_local(None), StoredValue::new(None));
        provide_context(memory);
        memory
    }

    /// Notes that task `id`'s page is shown: back at the list, the keyboard is on its
    /// row again, not at the page's top (lead explorer). Told by the task's page, as a
    /// click's bubbling up to the list came after the list had gone.
    pub fn showed(self, id: &str) {
        self.1.set_value(Some(id.to_owned()));
    }

    /// The memory the console provides, if any.
    pub fn use_context() -> Option<Self> {
        use_context::<Self>()
    }

    /// What was shown for these filters (the list's query), taken.
    fn take(self, query: &str) -> Option<Shown> {
        let shown = self.0.try_update_value(Option::take).flatten()?;
        (shown.query == query).then_some(shown)
    }

    /// Leaves out a task that is gone (deleted on its page), which the list would
    /// otherwise show again until its refresh.
    pub fn forget(self, id: &str) {
        self.0.update_value(|shown| {
            if let Some(shown) = shown {
                shown.tasks.retain(|t| t.task.id.0 != id);
            }
        });
    }
}

/// The list page: reads its filters from the address, keeps them there as they change.
#[component]
pub fn TaskListPage(
    /// Who the user is and the catalog's project groups (for the "whose" filter).
    session: CatalogResponse,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let mut first = ListFilter::from_query(&nav::current_query());
    // A tag filter no tag could match, from the address, is not applied: its box keeps
    // the text and says why, as when it is typed.
    let tag_refused = RwSignal::new(TagRefused::of(&first.tag, &session));
    if tag_refused.with_untracked(Option::is_some) {
        first.tag.clear();
    }
    let filter = RwSignal::new(first);
    // What the address asked for that the list does not apply, said until the filters
    // change: the address is rewritten without it.
    let ignored = RwSignal::new(ListFilter::ignored(&nav::current_query()));
    let memory = ListMemory::use_context();
    let shown = memory.and_then(|m| m.take(&filter.with_untracked(ListFilter::to_query)));
    let back_at = shown.as_ref().map(|s| s.scroll);
    // The task whose page was shown since: back here, the keyboard is on its row again.
    // Taken either way: left another way later, the list comes back with the focus at
    // its top.
    let showed = memory.and_then(|m| m.1.try_update_value(Option::take).flatten());
    let refocus = StoredValue::new(shown.as_ref().and(showed));
    // The filters the rows shown were loaded for: after a filter's change, until its
    // first page comes, the rows are the filters' before.
    let rows_for = StoredValue::new(shown.as_ref().map(|s| s.query.clone()));
    let (rows, cursor) = shown.map(|s| (s.tasks, s.next)).unwrap_or_default();
    let tasks = RwSignal::new(rows);
    let next = RwSignal::new(cursor);
    let error = RwSignal::new(None::<ClientError>);
    // The error is More's, which the refresh does not ask again: its banner does not say
    // the list asks again by itself (review).
    let more_failed = RwSignal::new(false);
    Effect::new(move |_| {
        if error.with(Option::is_none) {
            more_failed.set(false);
        }
    });
    let loaded = RwSignal::new(back_at.is_some());
    // A filter's first page is on its way: the count says so, then the new count, so a
    // screen reader hears a filter's rows come though their number is the one before
    // (screen-reader explorer: Failed 1, then Succeeded 1, said nothing).
    let first_asked = RwSignal::new(false);
    // The button stays the same element from page to page, so it keeps the focus.
    let more = Memo::new(move |_| next.with(Option::is_some));
    let updated = RwSignal::new(None::<f64>);
    // Answers to an older filter are dropped: each load carries the filter it was for.
    let generation = StoredValue::new(0u64);
    // Pages added by "More": a refresh that began before one was added would drop it.
    let appended = StoredValue::new(0u64);
    // Tasks new at the top since the rows were drawn, newest first: held until the reader
    // asks for them, as a row put above the others moved every row on screen down one,
    // and the one under the pointer changed (explorer, layout shift).
    let arrived = RwSignal::new(Vec::<TaskView>::new());
    // Rows the list no longer has, kept where they were while the reader is at the table
    // (its pointer over it, or the focus in it), each said to have left: gone at the
    // first refresh after the reader has left the table, and at any change of the rows
    // the reader asks for.
    let departed = RwSignal::new(Vec::<String>::new());
    // When each was first kept: a reader whose focus stays in the table kept them for
    // ever (review); a minute is time enough to see it go.
    let departed_at = StoredValue::new(Vec::<(String, f64)>::new());
    // How each row that left is now, read once as it leaves (none: deleted): "no longer
    // in this list" said nothing of how a run ended (sweep explorer).
    let left_now = RwSignal::new(Vec::<LeftNow>::new());
    // The latest refresh: one of several requests, begun before another, could end
    // after it and bring older rows back; its answer is dropped (review).
    let refreshes = StoredValue::new(0u64);
    // The latest is out: the clock's next waits for it (one that always took longer
    // than the clock would be dropped each time), a language's or Back's does not.
    let in_flight = StoredValue::new(false);
    // How many tasks of each phase the filters select: the chips' numbers, asked again
    // with each refresh (lead explorer: "20 shown" was the only number). None until
    // answered, or from a server that does not count: the chips then say no number.
    let counts = RwSignal::new(None::<shared::api::PhaseCounts>);
    // The numbers shown are the filters' before, while those of the new ones are asked
    // for: kept, greyed, so the chips keep their width (slow-laptop explorer: each
    // filter change shrank every chip and grew it back, moving those under the pointer).
    let counts_stale = RwSignal::new(false);
    let counts_asked = StoredValue::new(0u64);
    // The filters counted (their phase aside), and whether an ask for them is out: the
    // refresh asks no more while one is (review: a count slower than the refresh was
    // dropped each time, and asks piled up).
    let counted_for = StoredValue::new(None::<String>);
    let counting = StoredValue::new(false);
    let count = move |f: ListFilter| {
        let key = ListFilter {
            phase: None,
            active: false,
            ..f.clone()
        }
        .to_query();
        let same = counted_for.with_value(|was| was.as_deref() == Some(key.as_str()));
        if same && counting.get_value() {
            return;
        }
        // Numbers of other filters are not these filters' (review).
        if !same {
            if counts.with_untracked(Option::is_some) {
                counts_stale.set(true);
            }
            counted_for.set_value(Some(key));
        }
        counts_asked.update_value(|n| *n += 1);
        let mine = counts_asked.get_value();
        counting.set_value(true);
        leptos::task::spawn_local(async move {
            let answer = api::phase_counts(&f).await;
            if counts_asked.try_get_value() != Some(mine) {
                return;
            }
            counting.try_set_value(false);
            if counts_stale.get_untracked() {
                counts_stale.set(false);
            }
            match answer {
                Ok(now) => {
                    if counts.with_untracked(|c| *c != Some(now)) {
                        counts.set(Some(now));
                    }
                }
                // The server out of reach a moment: these filters' numbers, kept greyed
                // until it answers (network explorer: every chip lost its number and
                // shrank as the connection dropped).
                Err(api::ClientError::Network(_))
                    if same && counts.with_untracked(Option::is_some) =>
                {
                    counts_stale.set(true);
                }
                // Not numbers of other filters', nor of long before: none.
                Err(_) => counts.set(None),
            }
        });
    };
    let section = NodeRef::<leptos::html::Section>::new();
    // Told by the pointer's own events over the table, not by `:hover`, which a touch
    // leaves set after the finger has gone. A signal: the table holds late reasons by it
    // (`pointer-here`, pages.css).
    let pointer_in = RwSignal::new(false);
    // A finger has no hover: a touch on the table (a tap, a scroll) counts as being at it
    // for a while after (midday session's known gap: on a touch screen rows were never
    // kept in place, and a row left under a finger about to tap).
    let touched_at = StoredValue::new(f64::NEG_INFINITY);
    let at_table = move || {
        let Some(table) = section
            .get_untracked()
            .and_then(|s| s.query_selector(".table-scroll").ok().flatten())
        else {
            return false;
        };
        // A focus the reader moved there by keyboard, not one a click or the page put
        // there (back from a task, after More): those stayed while the reader read
        // elsewhere, and rows were kept for ever (review).
        pointer_in.get_untracked()
            || js_sys::Date::now() - touched_at.get_value() < TOUCH_KEEPS_MS
            || document().active_element().is_some_and(|active| {
                table.contains(Some(&active)) && active.matches(":focus-visible").unwrap_or(false)
            })
    };

    let load_first = move |f: ListFilter| {
        count(f.clone());
        generation.update_value(|g| *g += 1);
        rows_for.set_value(None);
        first_asked.set(true);
        let mine = generation.get_value();
        leptos::task::spawn_local(async move {
            let result = api::list_tasks(&f, None, PAGE_SIZE, lang.get_untracked()).await;
            // Left meanwhile: the list's values are gone with it.
            if generation.try_get_value() != Some(mine) {
                return;
            }
            match result {
                Ok(page) => {
                    rows_for.set_value(Some(f.to_query()));
                    arrived.set(Vec::new());
                    departed.set(Vec::new());
                    tasks.set(page.tasks);
                    next.set(page.next);
                    error.set(None);
                    updated.set(Some(js_sys::Date::now()));
                }
                // The rows shown were another filter's: under this one's chip they would
                // be read as its tasks.
                Err(err) => {
                    // No rows, of these filters: the live refresh asks again.
                    rows_for.set_value(Some(f.to_query()));
                    arrived.set(Vec::new());
                    departed.set(Vec::new());
                    tasks.set(Vec::new());
                    next.set(None);
                    updated.set(None);
                    error.set(Some(err));
                }
            }
            loaded.set(true);
            first_asked.set(false);
        });
    };

    let load_more = move |ev: leptos::ev::MouseEvent| {
        let Some(cursor) = next.get_untracked() else {
            return;
        };
        let list = ev
            .current_target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("section.task-list").ok().flatten());
        let f = filter.get_untracked();
        let mine = generation.get_value();
        leptos::task::spawn_local(async move {
            let result = api::list_tasks(&f, Some(&cursor), PAGE_SIZE, lang.get_untracked()).await;
            // Left meanwhile: the list's values are gone with it.
            if generation.try_get_value() != Some(mine) {
                return;
            }
            match result {
                Ok(page) => {
                    let first_new = page.tasks.first().map(|t| t.task.id.0.clone());
                    tasks.update(|shown| {
                        // A task submitted since the first page shifts the pages by one:
                        // never show a row twice.
                        for task in page.tasks {
                            if !shown.iter().any(|t| t.task.id == task.task.id) {
                                shown.push(task);
                            }
                        }
                    });
                    appended.update_value(|a| *a += 1);
                    let last = page.next.is_none();
                    next.set(page.next);
                    // The last page takes the button, and the focus with it: the reader
                    // goes on at the first row it brought.
                    if let (true, Some(list), Some(id)) = (last, list, first_new) {
                        focus_row(Some(list), id, false);
                    }
                }
                Err(err) => {
                    more_failed.set(true);
                    error.set(Some(err));
                }
            }
        });
    };

    // The rows the list has, without those kept after they left: what Back comes back
    // to (kept, they came back as rows of the list, their old phase said as now).
    let listed = move || {
        departed.with_untracked(|d| {
            tasks.with_untracked(|t| {
                t.iter()
                    .filter(|v| !d.contains(&v.task.id.0))
                    .cloned()
                    .collect::<Vec<_>>()
            })
        })
    };
    let listed_now = move || {
        let d = departed.try_get_untracked()?;
        tasks.try_with_untracked(|t| {
            t.iter()
                .filter(|v| !d.contains(&v.task.id.0))
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    // Live refresh: the rows shown so far, fetched again as one page. Rows are keyed by
    // id and last change, so unchanged rows keep their place, focus and selection. Tasks
    // new at the top wait in `arrived` when `hold`: while the reader is on the list, not
    // when it has just been drawn again (back from a task, whose new tasks the reader may
    // have just submitted).
    let refresh = move |hold: bool| {
        let hidden = web_sys::window()
            .and_then(|w| w.document())
            .is_some_and(|d| d.hidden());
        // Nor while a filter's first page is on its way: the rows are the filters'
        // before, and tasks of the new filter would be held as new against them.
        if hidden || !loaded.get_untracked() || rows_for.with_value(Option::is_none) {
            return;
        }
        let f = filter.get_untracked();
        count(f.clone());
        // Rows kept after they left are not the list's: counted, the page asked for
        // reached past its end.
        let shown = (tasks.with_untracked(Vec::len) - departed.with_untracked(Vec::len)) as u32;
        // Every task shown: a page of room beyond them, so that tasks new at the top
        // push none of them out of the list (and "More" back in).
        let room = if next.with_untracked(Option::is_none) {
            PAGE_SIZE
        } else {
            0
        };
        // The tasks held at the top come again first, then every row shown.
        let waiting = arrived.with_untracked(Vec::len) as u32;
        let limit = (shown + waiting + room).clamp(PAGE_SIZE, REFRESH_MOST);
        let (mine, pages) = (generation.get_value(), appended.get_value());
        let asked_in = lang.get_untracked();
        refreshes.update_value(|n| *n += 1);
        let this = refreshes.get_value();
        in_flight.set_value(true);
        leptos::task::spawn_local(async move {
            let mut result = first_tasks(&f, limit, asked_in).await;
            // New tasks as many as the rows asked for (a sweep submitted while the list
            // is open) reach none of the rows shown, and replaced them all, the focus
            // with them (lead explorer: 22 new over 20 rows): asked for further, until
            // the page reaches them, they wait above them as fewer do. Rows past the
            // last shown row are not the list's yet: More still brings them.
            // A page of tasks all newer than every row shown is such a sweep; one of
            // older tasks is rows that left the filter (review: a `running` list whose
            // rows all ended was asked for a thousand rows).
            // The page gone while the list was asked for: nothing to refresh (a test's
            // console showed the disposed rows read here).
            let Some(newest_shown) =
                tasks.try_with_untracked(|rows| rows.iter().map(|r| r.task.created_at).max())
            else {
                return;
            };
            let shown_row = move |t: &TaskView| {
                tasks
                    .try_with_untracked(|rows| rows.iter().any(|r| r.task.id == t.task.id))
                    .unwrap_or(false)
            };
            let is_burst = move |page: &shared::api::TaskPage| {
                page.next.is_some()
                    && newest_shown
                        .is_some_and(|newest| page.tasks.iter().all(|t| t.task.created_at > newest))
            };
            let mut further = limit;
            while hold && result.as_ref().is_ok_and(is_burst) {
                // Left meanwhile, or overtaken by a later refresh: asked no further.
                if generation.try_get_value() != Some(mine)
                    || refreshes.try_get_value() != Some(this)
                {
                    break;
                }
                if further >= REFRESH_MOST {
                    // More new than the most a refresh asks for: the page of new tasks
                    // is shown as a first load is, with More after it.
                    result = first_tasks(&f, limit, asked_in).await;
                    break;
                }
                further = (further * 2).min(REFRESH_MOST);
                result = first_tasks(&f, further, asked_in).await;
                // Rows past the last shown row are not the list's yet: More brings them.
                if let Ok(page) = &mut result
                    && !is_burst(page)
                    && let Some(last) = page.tasks.iter().rposition(shown_row)
                    && last + 1 < page.tasks.len()
                {
                    page.tasks.truncate(last + 1);
                    page.next = next.try_get_untracked().flatten();
                }
            }
            if refreshes.try_get_value() == Some(this) {
                in_flight.try_set_value(false);
            }
            // Asked before a switch of language: the one asked at the switch words the
            // reasons (this one put the old words back for a refresh: review).
            if generation.try_get_value() != Some(mine)
                || appended.try_get_value() != Some(pages)
                || refreshes.try_get_value() != Some(this)
                || lang.get_untracked() != asked_in
            {
                return;
            }
            match result {
                Ok(page) => {
                    // Rows past the most a refresh asks for stay as loaded. So do those
                    // of a whole list that more new tasks than its room pushed past the
                    // page, when the page still reaches rows it had: nothing lies
                    // between (with a gap, the page's cursor leads on instead).
                    let reaches = page.tasks.last().is_some_and(|last| {
                        tasks.with_untracked(|rows| rows.iter().any(|t| t.task.id == last.task.id))
                    });
                    let mut page_tasks = page.tasks;
                    // Only above rows it reaches: a page of new tasks alone is shown as a
                    // first load is, with More after it.
                    let held: Vec<TaskView> = if hold && reaches {
                        let new = tasks.with_untracked(|rows| {
                            page_tasks
                                .iter()
                                .take_while(|t| !rows.iter().any(|r| r.task.id == t.task.id))
                                .count()
                        });
                        page_tasks.drain(..new).collect()
                    } else {
                        Vec::new()
                    };
                    // Held tasks took places of the page too: the rows it pushed past its
                    // end stay below it, and so does the cursor after them (a list with
                    // More lost a row at each arrival: review).
                    let deeper = shown > limit
                        || (page.next.is_some() && reaches && (room > 0 || !held.is_empty()));
                    let keep = hold && at_table();
                    // The rows the page answers for: all when it is the list's last, else
                    // those down to the last of its rows that was shown (below it the
                    // page may reach rows not yet shown, pulled up by those that left;
                    // the rows shown past it are past its end, not gone).
                    let whole = page.next.is_none();
                    let reached = tasks.with_untracked(|rows| {
                        page_tasks
                            .iter()
                            .rev()
                            .find_map(|p| rows.iter().position(|r| r.task.id == p.task.id))
                            .map_or(0, |at| at + 1)
                    });
                    let now_ms = js_sys::Date::now();
                    // The minute is the focus's: under a pointer still on the table, a row
                    // taken out after it moved the rows below (sweep explorer). The pointer
                    // leaves, and they go at the next refresh.
                    let pointer_there = pointer_in.get_untracked();
                    let fresh = |t: &TaskView| {
                        pointer_there
                            || departed_at.with_value(|d| {
                                d.iter()
                                    .find(|(id, _)| *id == t.task.id.0)
                                    .is_none_or(|(_, since)| now_ms - since < KEPT_MS)
                            })
                    };
                    let mut kept = Vec::new();
                    let mut entered: Vec<TaskView> = Vec::new();
                    let was_kept = departed.get_untracked();
                    // The row the keyboard is on, and the rows' order, in case the row goes.
                    let focused = section.get_untracked().and_then(|list| focused_row(&list));
                    let order: Vec<String> = tasks
                        .with_untracked(|rows| rows.iter().map(|r| r.task.id.0.clone()).collect());
                    tasks.update(|rows| {
                        let old = std::mem::take(rows);
                        let old_ids: Vec<String> =
                            old.iter().map(|t| t.task.id.0.clone()).collect();
                        // Rows kept after they left are not the list's rows below the
                        // page: there, one came back as a row of the list, its old
                        // phase said as now (review).
                        let listed: Vec<TaskView> = old
                            .iter()
                            .filter(|t| !was_kept.contains(&t.task.id.0))
                            .cloned()
                            .collect();
                        let now = refreshed(listed, page_tasks, deeper);
                        *rows = if keep {
                            let covered = if whole { old.len() } else { reached };
                            // Those the page answers for, and those kept already wherever
                            // they are.
                            let answered: Vec<TaskView> = old
                                .into_iter()
                                .enumerate()
                                .filter(|(i, t)| {
                                    (*i < covered || was_kept.contains(&t.task.id.0)) && fresh(t)
                                })
                                .map(|(_, t)| t)
                                .collect();
                            let (now, gone) = kept_in_place(&answered, now);
                            kept = gone;
                            // A task that enters the list below its top (its phase now
                            // the filter's) waits with the new ones, as they do: put in
                            // at once, it moved every row below it under a still
                            // pointer (sweep explorer, the Running chip).
                            // Between rows shown: not above them (new, held already) nor
                            // below the last (the list's next rows, pulled up by those
                            // that left).
                            let was = |t: &TaskView| old_ids.contains(&t.task.id.0);
                            let first_old = now.iter().position(was);
                            let last_old = now.iter().rposition(was);
                            let mut shown = Vec::with_capacity(now.len());
                            for (i, t) in now.into_iter().enumerate() {
                                let between = first_old.is_some_and(|f| f < i)
                                    && last_old.is_some_and(|l| i < l);
                                if between && !was(&t) {
                                    entered.push(t);
                                } else {
                                    shown.push(t);
                                }
                            }
                            shown
                        } else {
                            now
                        };
                    });
                    // The new tasks above the rows, then those that entered below them.
                    let mut held = held;
                    held.extend(entered);
                    if arrived.with_untracked(|a| *a != held) {
                        arrived.set(held);
                    }
                    departed_at.update_value(|d| {
                        d.retain(|(id, _)| kept.contains(id));
                        for id in &kept {
                            if !d.iter().any(|(at, _)| at == id) {
                                d.push((id.clone(), now_ms));
                            }
                        }
                    });
                    let newly: Vec<String> = kept
                        .iter()
                        .filter(|id| !was_kept.contains(id))
                        .cloned()
                        .collect();
                    if left_now.with_untracked(|n| {
                        n.iter()
                            .any(|(id, _)| !kept.contains(id) || newly.contains(id))
                    }) {
                        left_now.update(|n| {
                            n.retain(|(id, _)| kept.contains(id) && !newly.contains(id));
                        });
                    }
                    // Each kept row's task asked for again at every refresh, not only as
                    // it leaves: one stopped, then deleted, read "now Stopped" for its
                    // minute (phone recheck). A deleted one stays deleted.
                    let ask: Vec<String> = kept
                        .iter()
                        .filter(|id| {
                            !left_now.with_untracked(|n| {
                                n.iter().any(|(at, now)| at == *id && now.is_none())
                            })
                        })
                        .cloned()
                        .collect();
                    for id in ask {
                        leptos::task::spawn_local(async move {
                            let now = match api::fetch_task(&id, asked_in).await {
                                Ok(view) => Some(view.task.phase),
                                Err(api::ClientError::Api(body)) if body.code == "task.deleted" => {
                                    None
                                }
                                // Not the reader's to see now, or unreached: said as it was.
                                Err(_) => return,
                            };
                            if departed.try_with_untracked(|d| d.contains(&id)) != Some(true) {
                                return;
                            }
                            let known = left_now.try_with_untracked(|n| {
                                n.iter().find(|(at, _)| *at == id).map(|(_, was)| *was)
                            });
                            match known {
                                Some(Some(was)) if was == now => {}
                                Some(Some(_)) => {
                                    left_now.try_update(|n| {
                                        if let Some(entry) = n.iter_mut().find(|(at, _)| *at == id)
                                        {
                                            entry.1 = now;
                                        }
                                    });
                                }
                                _ => {
                                    left_now.try_update(|n| n.push((id, now)));
                                }
                            }
                        });
                    }
                    if departed.with_untracked(|d| *d != kept) {
                        departed.set(kept);
                    }
                    // Its row gone, the keyboard goes on from the row after it (or before,
                    // at the end), not from the page's top: back from a task stopped on its
                    // page, its row had left a Running list, and the focus with it (sweep
                    // explorer).
                    if let Some(id) = focused {
                        let present = |id: &String| {
                            tasks.with_untracked(|rows| rows.iter().any(|r| r.task.id.0 == *id))
                        };
                        if !present(&id)
                            && let Some(at) = order.iter().position(|o| *o == id)
                            && let Some(next) = order[at + 1..]
                                .iter()
                                .chain(order[..at].iter().rev())
                                .find(|o| present(o))
                        {
                            focus_row(section.get_untracked().map(Into::into), next.clone(), false);
                        }
                    }
                    if !deeper {
                        next.set(page.next);
                    }
                    updated.set(Some(js_sys::Date::now()));
                    error.set(None);
                }
                // A failed refresh says so, and the last rows stay.
                Err(err) => error.set(Some(err)),
            }
        });
    };
    let tick = move || {
        if !in_flight.get_value() {
            refresh(true);
        }
    };
    if let Ok(handle) = set_interval_with_handle(tick, REFRESH) {
        on_cleanup(move || handle.clear());
    }
    // The reasons worded again at once in a language switched to, not at the next
    // refresh.
    Effect::new(move |first: Option<()>| {
        lang.get();
        if first.is_some() {
            refresh(true);
        }
    });
    // Back at rows remembered: they are shown at once, scrolled to where they were, and
    // refreshed rather than loaded again from the first page.
    let returning = StoredValue::new(back_at);
    // The rows of the last filters left on this page, for Back to them: they came back
    // at their first page, at the top, the pages "More" had added gone (lead explorer).
    let left = StoredValue::new(Vec::<Shown>::new());
    let popped_to = StoredValue::new(false);
    // A change of filters is a step Back returns from; the address the page opened at is
    // only written as the filters read it.
    Effect::new(move |before: Option<()>| {
        let f = filter.get();
        let query = f.to_query();
        if nav::at_list() && query != nav::current_query() {
            nav::set_query(&query, before.is_some());
        }
        nav::remember_list_query(&query);
        if before.is_some() && ignored.with_untracked(|i| !i.is_empty()) {
            ignored.set(Vec::new());
        }
        let window = web_sys::window();
        // The filters' rows being left, as they are, for Back to them.
        if let Some(was) = rows_for.get_value().filter(|was| *was != query) {
            let kept = Shown {
                query: was,
                tasks: listed(),
                next: next.get_untracked(),
                scroll: window
                    .as_ref()
                    .and_then(|w| w.scroll_y().ok())
                    .unwrap_or(0.0),
            };
            left.update_value(|left| {
                left.retain(|s| s.query != kept.query);
                left.push(kept);
                if left.len() > KEPT_FILTERS {
                    left.remove(0);
                }
            });
        }
        let back_to = popped_to.try_update_value(std::mem::take).unwrap_or(false);
        let earlier = back_to
            .then(|| {
                left.try_update_value(|left| {
                    let at = left.iter().position(|s| s.query == query)?;
                    Some(left.remove(at))
                })
            })
            .flatten()
            .flatten();
        match returning.try_update_value(Option::take).flatten() {
            Some(y) => {
                if let Some(window) = window {
                    window.scroll_to_with_x_and_y(0.0, y);
                }
                if let Some(id) = refocus.try_update_value(Option::take).flatten() {
                    focus_row(None, id, true);
                }
                refresh(false);
            }
            None => match earlier {
                // Shown at once where it was, then refreshed as a return to the list is.
                Some(shown) => {
                    generation.update_value(|g| *g += 1);
                    rows_for.set_value(Some(shown.query));
                    arrived.set(Vec::new());
                    departed.set(Vec::new());
                    tasks.set(shown.tasks);
                    next.set(shown.next);
                    error.set(None);
                    loaded.set(true);
                    let y = shown.scroll;
                    request_animation_frame(move || {
                        if let Some(window) = web_sys::window() {
                            window.scroll_to_with_x_and_y(0.0, y);
                        }
                    });
                    refresh(false);
                }
                None => load_first(f),
            },
        }
    });
    // Back and Forward between the list's own entries bring their filters back.
    let popped = window_event_listener(leptos::ev::popstate, move |_| {
        if nav::at_list() {
            let now = ListFilter::from_query(&nav::current_query());
            if filter.with_untracked(|f| *f != now) {
                popped_to.set_value(true);
                filter.set(now);
            }
        }
    });
    on_cleanup(move || popped.remove());
    if let Some(memory) = memory {
        let scroll = StoredValue::new(back_at.unwrap_or(0.0));
        let follow = window_event_listener(leptos::ev::scroll, move |_| {
            if let Some(y) = web_sys::window().and_then(|w| w.scroll_y().ok()) {
                scroll.set_value(y);
            }
        });
        on_cleanup(move || {
            follow.remove();
            // Remembered only as the rows of the filters they were loaded for.
            let query = filter.try_with_untracked(ListFilter::to_query);
            let settled = query.is_some() && rows_for.try_get_value().flatten() == query;
            let shown = settled.then(|| {
                Some(Shown {
                    query: query?,
                    tasks: listed_now()?,
                    next: next.try_get_untracked()?,
                    scroll: scroll.try_get_value()?,
                })
            });
            memory.0.try_set_value(shown.flatten());
        });
    }

    // The held tasks go on top of the rows, and the focus, which was on the button
    // that goes away, to the newest one's link.
    let show_arrived = move |ev: leptos::ev::MouseEvent| {
        let list = ev
            .current_target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.closest("section.task-list").ok().flatten());
        let held = arrived.try_update(std::mem::take).unwrap_or_default();
        let first = held.first().map(|t| t.task.id.0.clone());
        // The rows move as asked: those that left go with it.
        let gone = departed.try_update(std::mem::take).unwrap_or_default();
        tasks.update(|rows| {
            rows.retain(|r| {
                !held.iter().any(|t| t.task.id == r.task.id) && !gone.contains(&r.task.id.0)
            });
            // Each in its place in the list's order, newest first: the new ones at the
            // top, one that entered the filter below them where it belongs.
            for task in held {
                let at = rows
                    .iter()
                    .position(|r| r.task.created_at < task.task.created_at)
                    .unwrap_or(rows.len());
                rows.insert(at, task);
            }
        });
        if let (Some(list), Some(id)) = (list, first) {
            focus_row(Some(list), id, false);
        }
    };
    // A row's Stop asks first, in a dialog over the list: a question put among the rows
    // or above them would move them under the pointer.
    let stop_dialog = NodeRef::<leptos::html::Dialog>::new();
    let stop_cancel = NodeRef::<leptos::html::Button>::new();
    // The task asked about, and its phase as the question opened.
    let stop_asking = RwSignal::new(None::<(String, TaskPhase)>);
    // Its phase now, as the refresh tells it: a queued run that starts while its question
    // is open (another's stop freed room) is asked about as running (sweep recheck: it
    // said "it has not started" over a running row).
    let asked_phase = Memo::new(move |_| {
        stop_asking.with(|asked| {
            asked.as_ref().map(|(id, was)| {
                tasks.with(|rows| {
                    rows.iter()
                        .find(|r| r.task.id.0 == *id)
                        .map_or(*was, |r| r.task.phase)
                })
            })
        })
    });
    let stop_error = RwSignal::new(None::<ClientError>);
    let stop_busy = RwSignal::new(false);
    // The task whose stop was asked last, and whether it ended at once (one that waited).
    let stop_said = RwSignal::new(None::<(String, bool)>);
    let ask_stop = Callback::new(move |id: String| {
        let phase = tasks.with_untracked(|rows| {
            rows.iter()
                .find(|r| r.task.id.0 == id)
                .map(|r| r.task.phase)
        });
        if let (Some(phase), Some(dialog)) = (phase, stop_dialog.get_untracked()) {
            stop_error.set(None);
            stop_asking.set(Some((id, phase)));
            let _ = dialog.show_modal();
            // At the safe answer, as the task's page asks. Not by `autofocus`, which
            // Chromium also reads as the page loads, and says it ignored in the console.
            if let Some(cancel) = stop_cancel.get_untracked() {
                let _ = cancel.focus();
            }
        }
    });
    let close_stop = move || {
        if let Some(dialog) = stop_dialog.get_untracked() {
            dialog.close();
        }
    };
    // The task asked about ended, or its stop was asked elsewhere, while the question was
    // open (a refresh says so), or the server said so (`task.conflict`: it had ended).
    let stop_over = move || {
        let ended = stop_asking.with(|asked| {
            asked.as_ref().is_some_and(|(id, _)| {
                tasks.with(|rows| {
                    rows.iter().any(|r| {
                        r.task.id.0 == *id
                            && (r.task.phase.is_finished() || r.stopping_since.is_some())
                    })
                })
            })
        });
        ended
            || stop_error
                .with(|e| matches!(e, Some(ClientError::Api(body)) if body.code == "task.conflict"))
    };
    let stop_yes = move |_| {
        let Some((id, _)) = stop_asking.get_untracked() else {
            return;
        };
        if stop_busy.get_untracked() || untrack(stop_over) {
            return;
        }
        stop_busy.set(true);
        stop_error.set(None);
        leptos::task::spawn_local(async move {
            let answer = api::stop_task(&id).await;
            if stop_busy.is_disposed() {
                return;
            }
            stop_busy.set(false);
            match answer {
                Ok(view) => {
                    stop_said.set(Some((id.clone(), view.task.phase.is_finished())));
                    // Its row says "Stopping" at once, not at the next refresh.
                    tasks.update(|rows| {
                        if let Some(row) = rows.iter_mut().find(|r| r.task.id == view.task.id) {
                            *row = view;
                        }
                    });
                    close_stop();
                    // Its Stop went with the question: the keyboard goes on from its row.
                    focus_row(None, id, true);
                }
                // Said in the question, which stays: the task may have ended meanwhile.
                Err(err) => stop_error.set(Some(err)),
            }
            tick();
        });
    };
    let table_groups = session.catalog.project_groups.clone();
    let user = session.user.name.clone();
    let owners = StoredValue::new(owners_for(&session));
    view! {
        <section class="task-list" aria-labelledby="list-title" node_ref=section>
            <div class="page-head">
                <h1 id="list-title">{crate::i18n::tr("ui.list.title")}</h1>
                <Link to=Route::New { clone: None } class="button primary" test_id="list-new">
                    {crate::i18n::tr("ui.list.new")}
                </Link>
            </div>
            <PhaseChips filter counts stale=counts_stale />
            <Filters filter session tag_refused />
            {move || {
                let pairs = ignored.get();
                (!pairs.is_empty()).then(|| view! {
                    <p class="note" role="status" data-testid="ignored-filters">
                        {move || {
                            // The values a filter takes, as the address writes them.
                            let l = lang.get();
                            let phases: Vec<String> = std::iter::once("active".to_owned())
                                .chain(LISTED_PHASES.iter().map(api::wire_name))
                                .collect();
                            let types: Vec<String> = TaskType::ALL.iter().map(api::wire_name).collect();
                            let takes = [
                                ("phases", shared::messages::list(l, &phases)),
                                ("types", shared::messages::list(l, &types)),
                            ];
                            // The first few, each cut short: an address of forty long
                            // pairs pushed the table a screen and a half down and the page
                            // wider than the window (network explorer).
                            let mut said: Vec<String> = pairs
                                .iter()
                                .take(IGNORED_SAID)
                                .map(|(pair, why)| lang.text_with("ui.list.ignored.item", &[
                                    ("pair", shortened(pair)),
                                    ("reason", lang.text_with(why, &takes)),
                                ]))
                                .collect();
                            if pairs.len() > IGNORED_SAID {
                                said.push(lang.text_with("ui.list.ignored.more", &[("count", (pairs.len() - IGNORED_SAID).to_string())]));
                            }
                            lang.text_with("ui.list.ignored", &[("pairs", shared::messages::list(lang.get(), &said))])
                        }}
                    </p>
                })
            }}
            <ErrorBanner error retried=Signal::derive(move || !more_failed.get()) />
            // The count and the new tasks are spoken as they change; the update time,
            // new at every refresh, is not: the whole line was read out every 4 s
            // (keyboard explorer).
            <p class="list-status" data-testid="list-status">
                // No count until a page has come: "0 shown" beside a failed first load
                // read as a list with nothing in it (explorer).
                <span aria-live="polite">{move || if first_asked.get() && loaded.get_untracked() {
                    Some(lang.text("ui.list.loading"))
                } else if loaded.get() && error.with(Option::is_none) || tasks.with(|t| !t.is_empty()) {
                    // Rows kept where they were after they left are not the list's.
                    let count = departed.with(|d| tasks.with(|t| t.iter().filter(|v| !d.contains(&v.task.id.0)).count()));
                    Some(lang.text_with("ui.list.shown", &[("count", count.to_string())]))
                } else if !loaded.get() && error.with(Option::is_none) {
                    // Asked, not answered yet: the table's headers alone read as no
                    // tasks (recheck explorer, on a connection that hung).
                    Some(lang.text("ui.list.loading"))
                } else {
                    None
                }}</span>
                {move || updated.get().map(|at| {
                    let at = shared::record::Timestamp(at as i64);
                    // In the reader's zone, as the rows' times are.
                    format!(" · {}", lang.text_with("ui.list.updated", &[("time", super::format_time(lang.get(), at))]))
                })}
                // On the status line, which is there anyway: the rows stay where they are.
                <span aria-live="polite">{move || arrived.with(|a| !a.is_empty()).then(|| view! {
                    " · "
                    <button type="button" class="link arrived" data-testid="list-arrived" on:click=show_arrived>
                        {move || lang.text_with("ui.list.arrived", &[("count", arrived.with(Vec::len).to_string())])}
                    </button>
                })}</span>
            </p>
            <div class:pointer-here=move || pointer_in.get()
                on:pointerenter=move |ev: leptos::ev::PointerEvent| pointer_in.set(ev.pointer_type() == "mouse" || ev.pointer_type() == "pen")
                on:pointerleave=move |_| pointer_in.set(false)
                on:pointerdown=move |ev: leptos::ev::PointerEvent| if ev.pointer_type() == "touch" { touched_at.set_value(js_sys::Date::now()) }>
                <TaskTable tasks=tasks.into() groups=table_groups left=Signal::from(departed) left_now
                    read_at=Signal::derive(move || updated.get().unwrap_or_else(js_sys::Date::now))
                    stop=(user, ask_stop) />
            </div>
            <dialog class="list-stop" role="alertdialog" aria-labelledby="list-stop-text" data-testid="list-stop-confirm"
                // Not when opened again meanwhile (the close event comes after a task):
                // that would forget the question asked since.
                node_ref=stop_dialog on:close=move |_| {
                    if stop_dialog.get_untracked().is_some_and(|d| !d.open()) {
                        // The Stop that opened it may have gone with its task's end: the
                        // keyboard goes on from the row, not from the page's top (sweep
                        // recheck, a refused stop closed).
                        // Chromium leaves the focus on the closed question's button until
                        // its next style update, where no opener got it back.
                        if let (Some(dialog), Some(active)) = (stop_dialog.get_untracked(), document().active_element())
                            && dialog.contains(Some(&active))
                            && let Ok(active) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(active)
                        {
                            let _ = active.blur();
                        }
                        if let Some((id, _)) = stop_asking.get_untracked() {
                            focus_row(None, id, false);
                        }
                        stop_asking.set(None);
                        stop_error.set(None);
                    }
                }
                // Nor does it select the question's first word (recheck).
                on:mousedown=move |ev: leptos::ev::MouseEvent| {
                    if ev.detail() > 1 {
                        ev.prevent_default();
                    }
                }
                // A second click of a double click lands on the backdrop, which took the
                // focus from Cancel.
                on:click=move |ev| {
                    let on_dialog = ev.target().is_some_and(|t| {
                        stop_dialog.get_untracked().is_some_and(|d| {
                            let d: &wasm_bindgen::JsValue = d.as_ref();
                            let t: &wasm_bindgen::JsValue = t.as_ref();
                            d == t
                        })
                    });
                    if on_dialog && let Some(cancel) = stop_cancel.get_untracked() {
                        let _ = cancel.focus();
                    }
                }>
                <p id="list-stop-text">{move || stop_asking.with(|a| a.as_ref().map(|(id, _)| id.clone())).zip(asked_phase.get()).map(|(id, phase)| {
                    // As the task's page asks it; once there is nothing to stop, the
                    // task alone, as the question's first sentence no longer holds.
                    let asked = if stop_over() { "ui.list.stop_over" } else { super::task_detail::stop_question(phase) };
                    lang.text_with(asked, &[("name", id)])
                })}</p>
                {move || {
                    let said = if stop_over() {
                        lang.text("ui.detail.stop_meanwhile")
                    } else {
                        stop_error.with(|e| e.as_ref().map(|e| e.localized(lang.get())))?
                    };
                    Some(view! { <p class="refused" role="alert" data-testid="list-stop-error">{said}</p> })
                }}
                // Off, not gone, once there is nothing to stop: the focus stays on it.
                <button type="button" class="danger" data-testid="list-stop-yes"
                    aria-disabled=move || (stop_busy.get() || stop_over()).then_some("true") on:click=stop_yes>
                    {crate::i18n::tr("ui.detail.stop_yes")}
                </button>
                <button type="button" data-testid="list-stop-no" node_ref=stop_cancel on:click=move |_| close_stop()>
                    {crate::i18n::tr("ui.detail.cancel")}
                </button>
            </dialog>
            <p class="visually-hidden" role="status" data-testid="list-stop-said">
                {move || stop_said.get().map(|(id, ended)| {
                    lang.text_with(if ended { "ui.list.stopped" } else { "ui.list.stop_asked" }, &[("name", id)])
                })}
            </p>
            {move || (loaded.get() && tasks.with(Vec::is_empty) && error.with(Option::is_none)).then(|| view! {
                // With no filter set, nothing matches because there is nothing yet
                // (explorer: a first-time user read "these filters", which there were none of).
                <p class="empty" data-testid="list-empty">{crate::i18n::tr(
                    if filter.with_untracked(|f| *f == ListFilter::default()) { "ui.list.empty#none" } else { "ui.list.empty" }
                )}</p>
                // An owner typed in part finds nothing, the filter taking a whole name:
                // said, with the names it may have meant (low-vision recheck: no word of
                // why).
                {move || {
                    let typed = filter.with(|f| f.owner.trim().to_owned());
                    let near = owners.with_value(|owners| near_owners(&typed, owners))?;
                    let key = if near.is_empty() { "ui.list.empty.owner_unknown" } else { "ui.list.empty.owner_near" };
                    Some(view! {
                        <p class="empty" data-testid="list-empty-owner">
                            {move || lang.text_with(key, &[("owner", typed.clone())])}
                            {near.iter().map(|name| {
                                let take = name.clone();
                                view! {
                                    " "
                                    <button type="button" class="link" data-testid="list-owner-near" on:click=move |_| {
                                        let take = take.clone();
                                        filter.update(|f| set_owner(f, take));
                                    }>{name.clone()}</button>
                                }
                            }).collect_view()}
                        </p>
                    })
                }}
            })}
            {move || more.get().then(|| view! {
                <button type="button" class="more" on:click=load_more data-testid="list-more">
                    {crate::i18n::tr("ui.list.more")}
                </button>
            })}
        </section>
    }
}

/// The id of the row of `list` the keyboard's focus is in, if any.
fn focused_row(list: &web_sys::Element) -> Option<String> {
    let active = document().active_element()?;
    if !list.contains(Some(&active)) {
        return None;
    }
    active
        .closest("tr[data-id]")
        .ok()??
        .get_attribute("data-id")
}

/// Focuses the link of row `id` in the next frame, once it is built: when the focus has
/// fallen to the page's body (a user who moved it meanwhile keeps it where it is); or,
/// `back` at the list from that task's page, from where the page put it (its top), and
/// without scrolling: the list is back where it was scrolled, the row in view as it was
/// when followed.
fn focus_row(list: Option<web_sys::Element>, id: String, back: bool) {
    request_animation_frame(move || {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let lost = document
            .active_element()
            .is_none_or(|active| active.tag_name() == "BODY");
        if !(lost || back) || list.as_ref().is_some_and(|l| !l.is_connected()) {
            return;
        }
        // A task id is the server's (`t-00042`): nothing in it needs quoting but a quote.
        if id.contains(['"', '\\']) {
            return;
        }
        let selector = format!("tr[data-id=\"{id}\"] [data-testid='task-link']");
        let found = match &list {
            Some(list) => list.query_selector(&selector),
            None => document.query_selector(&selector),
        };
        if let Some(link) = found
            .ok()
            .flatten()
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
        {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(back);
            let _ = link.focus_with_options(&options);
        }
    });
}

/// One chip per phase, and "all": a click filters the list to that phase.
#[component]
pub fn PhaseChips(
    /// The list's filter; the chips set its phase.
    filter: RwSignal<ListFilter>,
    /// How many tasks of each phase the other filters select, when known.
    #[prop(into, default = Signal::stored(None))]
    counts: Signal<Option<shared::api::PhaseCounts>>,
    /// The counts are the filters' before, those of the new ones on their way.
    #[prop(into, default = Signal::stored(false))]
    stale: Signal<bool>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let selected = move || filter.with(|f| f.phase);
    let active = move || filter.with(|f| f.phase.is_none() && f.active);
    // A chip's number, once counted: `of` picks it from the counts.
    let number = move |of: &dyn Fn(&shared::api::PhaseCounts) -> u64| {
        counts.get().map(|c| {
            let n = of(&c);
            view! { " " <span class="count" class:stale=stale>{n}</span> }
        })
    };
    // The tasks not ended: a chip of its own, whose number is theirs.
    let active_count = |c: &shared::api::PhaseCounts| -> u64 {
        LISTED_PHASES
            .into_iter()
            .filter(|p| !p.is_finished())
            .map(|p| c.of(p))
            .sum()
    };
    view! {
        <div class="chips" role="group" aria-label=crate::i18n::tr("ui.list.chips") data-testid="phase-chips">
            <button
                type="button"
                class="chip"
                aria-pressed=move || (selected().is_none() && !active()).to_string()
                on:click=move |_| filter.update(|f| {
                    f.phase = None;
                    f.active = false;
                })
                data-phase="all"
            >
                {crate::i18n::tr("ui.list.chip_all")}
                {move || number(&shared::api::PhaseCounts::total)}
            </button>
            <button
                type="button"
                class="chip"
                aria-pressed=move || active().to_string()
                on:click=move |_| filter.update(|f| {
                    f.phase = None;
                    f.active = true;
                })
                data-phase="active"
            >
                {crate::i18n::tr("ui.list.chip_active")}
                {move || number(&active_count)}
            </button>
            {LISTED_PHASES.into_iter().map(|phase| view! {
                <button
                    type="button"
                    class=format!("chip phase-{}", api::wire_name(&phase))
                    aria-pressed=move || (selected() == Some(phase)).to_string()
                    on:click=move |_| filter.update(|f| {
                        f.phase = Some(phase);
                        f.active = false;
                    })
                    data-phase=api::wire_name(&phase)
                >
                    {move || phase_label(lang.get(), phase)}
                    {move || number(&|c| c.of(phase))}
                </button>
            }).collect_view()}
        </div>
    }
}

/// A tag filter no tag could match: the text typed, which part of it breaks the tag
/// rules and the rule's finding. Said at its box in the console's words, and not applied:
/// the server's refusal came in its English words in a banner above the table, and once
/// dismissed the list said no task matched a filter it had never applied (newcomer
/// explorer).
#[derive(Clone, Debug)]
pub struct TagRefused {
    text: String,
    part: shared::validate::TagPart,
    issue: shared::Issue,
    /// It reads as several tags (`a=1, b=2`): said as such, not as a value of one tag
    /// that has a comma (sweep explorer).
    several: bool,
}

impl TagRefused {
    /// Why no tag could match `text` as a filter, if none could.
    fn of(text: &str, session: &CatalogResponse) -> Option<TagRefused> {
        if text.trim().is_empty() {
            return None;
        }
        let (part, issue) =
            shared::validate::TagFilter::parse(text).refusal(&session.catalog, &session.user)?;
        // Pieces a list's separators part, or two pairs apart (`a=1 b=2`; `team=a b`
        // is one value with a blank).
        let listed = |split: &dyn Fn(char) -> bool| {
            let pieces = text.split(split).filter(|piece| !piece.trim().is_empty());
            pieces.clone().count() > 1
                && (text.contains([',', '，', ';', '；'])
                    || pieces.filter(|p| p.contains('=')).count() > 1)
        };
        let several = listed(&|c| matches!(c, ',' | '，' | ';' | '；') || c.is_whitespace());
        Some(TagRefused {
            text: text.to_owned(),
            part,
            issue,
            several,
        })
    }
}

/// The most pairs of the address the list says it did not apply.
const IGNORED_SAID: usize = 5;

/// `text` at most 60 characters long, cut with an ellipsis.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Type, tag, name and whose tasks; "clear" empties them all.
#[component]
pub fn Filters(
    filter: RwSignal<ListFilter>,
    /// The catalog and user: the project groups for the "whose" filter, the tag rules
    /// for the tag filter.
    session: CatalogResponse,
    /// The tag filter refused, if it is.
    tag_refused: RwSignal<Option<TagRefused>>,
) -> impl IntoView {
    let lang = UiLang::use_context();
    let groups = session.catalog.project_groups.clone();
    // The owner box offers the reader's groups' members, whose tasks it may show (lead
    // explorer: it took a whole name, with nothing to choose from).
    let members = owners_for(&session);
    let session = StoredValue::new(session);
    let known: Vec<String> = groups.iter().map(|g| g.id.clone()).collect();
    let scope_value = move || {
        filter.with(|f| {
            if f.mine {
                "mine".to_owned()
            } else if !f.group.is_empty() {
                format!("group:{}", f.group)
            } else {
                String::new()
            }
        })
    };
    let set_scope = move |value: String| {
        filter.update(|f| {
            f.mine = value == "mine";
            // Mine is one owner: another typed in the owner box goes.
            if f.mine {
                f.owner.clear();
            }
            f.group = value
                .strip_prefix("group:")
                .map(str::to_owned)
                .unwrap_or_default();
        })
    };
    let type_value = move || {
        filter
            .with(|f| f.task_type)
            .map(|t| api::wire_name(&t))
            .unwrap_or_default()
    };
    // The text filters apply as the user pauses typing, as the chips and selects apply at
    // once; not at every keystroke, each of which would be a request and a step Back
    // returns through. Enter or leaving the box applies at once.
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let apply_text = move |value: String, set: fn(&mut ListFilter, String), tag: bool| {
        if let Some(handle) = pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
        if tag {
            let refused = session.with_value(|s| TagRefused::of(&value, s));
            let was = tag_refused.with_untracked(Option::is_some);
            if refused.is_some() || was {
                tag_refused.set(refused);
            }
            // Refused: the list is filtered by no tag, as the refusal says, not by the
            // one before it, which nothing on the page would show (review).
            if tag_refused.with_untracked(Option::is_some) {
                if filter.with_untracked(|f| !f.tag.is_empty()) {
                    filter.update(|f| f.tag.clear());
                }
                return;
            }
        }
        if filter.with_untracked(|f| {
            let mut next = f.clone();
            set(&mut next, value.clone());
            next == *f
        }) {
            return;
        }
        filter.update(|f| set(f, value));
    };
    // Typed text applies over the filters as they are then, a chip or a select changed
    // meanwhile included; not over filters Back brought (the pause is dropped then), nor
    // while an input method composes (pinyin): its text is not the word yet, and writing
    // the box back would break the composition.
    let typed = move |ev: leptos::ev::Event, set: fn(&mut ListFilter, String), tag: bool| {
        if crate::components::composing(&ev) {
            return;
        }
        let value = event_target_value(&ev);
        if let Some(handle) = pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
        let handle = set_timeout_with_handle(
            move || apply_text(value, set, tag),
            Duration::from_millis(400),
        );
        pending.set_value(handle.ok());
    };
    // Dropped typing leaves its box: each box is written again from its filter, which
    // may not have changed (Back to the same name), and left there, the text would apply
    // when the box lost the focus.
    let rewrite = RwSignal::new(0u32);
    let drop_typed = move || {
        if let Some(handle) = pending.try_update_value(Option::take).flatten() {
            handle.clear();
        }
        // The box is written again from its filter: a refusal of other text goes.
        if tag_refused.try_with_untracked(Option::is_some) == Some(true) {
            tag_refused.set(None);
        }
        rewrite.update(|n| *n += 1);
    };
    let popped = window_event_listener(leptos::ev::popstate, move |_| drop_typed());
    on_cleanup(move || {
        popped.remove();
        drop_typed();
    });
    // Each box follows its own filter only: rewritten at every change of the filters, a
    // box lost what was typed in it when a chip was pressed before the pause.
    let tag_value = Memo::new(move |_| filter.with(|f| f.tag.clone()));
    let name_value = Memo::new(move |_| filter.with(|f| f.name.clone()));
    let owner_value = Memo::new(move |_| filter.with(|f| f.owner.clone()));
    let shown = move |value: Memo<String>| {
        move || {
            rewrite.track();
            let shown = value.get();
            // A refused tag from the address, which the filter never took, stays in its
            // box to be mended. Not followed: typed text is never written back.
            match tag_refused.with_untracked(|r| r.as_ref().map(|r| r.text.clone())) {
                Some(text) if shown.is_empty() && value == tag_value => text,
                _ => shown,
            }
        }
    };
    // A text box of the bar, whose filter `set` writes: applied as the user pauses
    // typing, at once on Enter or on leaving it.
    let text_filter = move |label: &'static str,
                            test_id: &'static str,
                            placeholder: Option<&'static str>,
                            value: Memo<String>,
                            set: fn(&mut ListFilter, String),
                            list: Option<&'static str>| {
        let tag = value == tag_value;
        let refused = move || tag && tag_refused.with(Option::is_some);
        view! {
            <label>
                <span>{crate::i18n::tr(label)}</span>
                <input
                    type="search"
                    data-testid=test_id
                    placeholder=placeholder.map(crate::i18n::tr)
                    // Wide enough for its hint beside the arrow of its list of names: at
                    // the default 20 it read "a user's name, whol" (keyboard explorer).
                    size=move || placeholder.map(|key| hint_width(&lang.text(key), list.is_some()))
                    prop:value=shown(value)
                    aria-invalid=move || refused().then_some("true")
                    aria-describedby=tag.then_some(TAG_REFUSED_ID)
                    list=list
                    on:input=move |ev| typed(ev, set, tag)
                    on:compositionend=move |ev| typed(ev.into(), set, tag)
                    on:change=move |ev| apply_text(event_target_value(&ev), set, tag)
                />
            </label>
        }
    };
    // On a phone the boxes fold behind one button that counts those in use: open, they
    // filled the first screen, a row and a half of tasks below them (phone explorer). A
    // refused tag keeps them open, its box to be mended.
    let folded = RwSignal::new(true);
    // Named with their values: a count alone left the reader to open the boxes to learn
    // why a task they expected was not listed (low-vision recheck).
    let group_names = StoredValue::new(groups.clone());
    let in_use = move || {
        filter.with(|f| {
            let scope = if f.mine {
                Some(lang.text("ui.list.scope.mine"))
            } else if f.group.is_empty() {
                None
            } else {
                let name = group_names.with_value(|groups| super::group_name(groups, &f.group));
                Some(lang.text_with("ui.list.scope.group", &[("group", name)]))
            };
            [
                (
                    "ui.list.filter.type",
                    f.task_type.map(|t| t.as_str().to_owned()),
                ),
                ("ui.list.filter.tag", Some(f.tag.clone())),
                ("ui.list.filter.name", Some(f.name.clone())),
                ("ui.list.filter.owner", Some(f.owner.clone())),
                ("ui.list.filter.scope", scope),
                ("ui.list.filter.made_from", Some(f.made_from.clone())),
            ]
            .into_iter()
            .filter_map(|(label, value)| {
                value.filter(|v| !v.is_empty()).map(|value| {
                    lang.text_with(
                        "ui.list.filters_toggle.item",
                        &[("filter", lang.text(label)), ("value", value)],
                    )
                })
            })
            .collect::<Vec<_>>()
        })
    };
    view! {
        <form class="filters" class:folded=move || folded.get() && tag_refused.with(Option::is_none)
            role="search" aria-label=crate::i18n::tr("ui.list.filters") on:submit=|ev| ev.prevent_default()>
            <button type="button" class="filters-toggle" data-testid="filters-toggle"
                aria-expanded=move || (!folded.get()).to_string() on:click=move |_| folded.update(|f| *f = !*f)>
                {move || match in_use() {
                    on if on.is_empty() => lang.text("ui.list.filters_toggle"),
                    on => lang.text_with("ui.list.filters_toggle#on", &[
                        ("count", on.len().to_string()),
                        ("which", on.join(&lang.text("ui.list.filters_toggle.between"))),
                    ]),
                }}
            </button>
            <label>
                <span>{crate::i18n::tr("ui.list.filter.type")}</span>
                <select
                    data-testid="filter-type"
                    prop:value=type_value
                    on:change=move |ev| {
                        let value = event_target_value(&ev);
                        filter.update(|f| f.task_type = crate::form::context::unwire(&value));
                    }
                >
                    <option value="">{crate::i18n::tr("ui.list.any")}</option>
                    {TaskType::ALL.into_iter().map(|t| view! {
                        <option value=api::wire_name(&t) selected=move || type_value() == api::wire_name(&t)>{t.as_str()}</option>
                    }).collect_view()}
                </select>
            </label>
            {text_filter("ui.list.filter.tag", "filter-tag", Some("ui.list.filter.tag_help"), tag_value, |f, v| f.tag = v, None)}
            {text_filter("ui.list.filter.name", "filter-name", None, name_value, |f, v| f.name = v, None)}
            // A user's name as a whole: a lead reviews one colleague's tasks among the
            // group's (lead explorer: only the API could).
            {text_filter("ui.list.filter.owner", "filter-owner", Some("ui.list.filter.owner_help"), owner_value, set_owner, Some(OWNERS_ID))}
            <datalist id=OWNERS_ID data-testid="owner-names">
                {members.into_iter().map(|m| view! { <option value=m></option> }).collect_view()}
            </datalist>
            <label>
                <span>{crate::i18n::tr("ui.list.filter.scope")}</span>
                <select data-testid="filter-scope" prop:value=scope_value on:change=move |ev| set_scope(event_target_value(&ev))>
                    <option value="">{crate::i18n::tr("ui.list.scope.all")}</option>
                    <option value="mine" selected=move || scope_value() == "mine">{crate::i18n::tr("ui.list.scope.mine")}</option>
                    {groups.into_iter().map(|g| {
                        let value = format!("group:{}", g.id);
                        let selected = value.clone();
                        view! {
                            <option value=value selected=move || scope_value() == selected>
                                {move || lang.text_with("ui.list.scope.group", &[("group", g.name.clone())])}
                            </option>
                        }
                    }).collect_view()}
                    // A group from the address that the user's groups lack (a shared
                    // address): the select shows what the list is filtered by.
                    {move || {
                        let group = filter.with(|f| f.group.clone());
                        (!group.is_empty() && !known.contains(&group)).then(|| {
                            let value = format!("group:{group}");
                            view! {
                                // Said, or an empty list reads as a group with no task.
                                <option value=value selected=true>
                                    {move || lang.text_with("ui.list.scope.group_other", &[("group", group.clone())])}
                                </option>
                            }
                        })
                    }}
                </select>
            </label>
            // The tasks made from one, which its page links to: no box of the bar's, so
            // said, with a way out (lineage explorer: its page named ten, then "and more",
            // with no way to the others).
            {move || {
                let from = filter.with(|f| f.made_from.clone());
                (!from.is_empty()).then(|| view! {
                    <span class="made-from-filter" data-testid="filter-made-from">
                        {crate::i18n::tr("ui.list.filter.made_from")}
                        " "
                        <Link to=Route::Detail(from.clone()) test_id="filter-made-from-task">{from.clone()}</Link>
                        " "
                        <button type="button" data-testid="filter-made-from-remove" on:click=move |_| {
                            filter.update(|f| f.made_from.clear());
                            // It goes with the filter: the keyboard goes on in the bar.
                            crate::components::refocus_if_lost(None, &["[data-testid='filter-clear']"]);
                        }>
                            {crate::i18n::tr("ui.list.filter.made_from_remove")}
                        </button>
                    </span>
                })
            }}
            <button type="button" class="clear" data-testid="filter-clear" on:click=move |_| {
                drop_typed();
                filter.set(ListFilter::default());
            }>
                {crate::i18n::tr("ui.list.clear")}
            </button>
            // In the page while empty (out of the bar's flow), so that a reader hears it
            // as it fills.
            <p id=TAG_REFUSED_ID class="filter-refused" role="status" data-testid="filter-tag-refused">
                {move || tag_refused.get().map(|r| {
                    let l = lang.get();
                    view! {
                        <span class="finding error">
                            {crate::components::severity_badge(move || l, shared::Severity::Error)}
                            {if r.several {
                                lang.text("ui.list.filter.tag_several")
                            } else {
                                lang.text_with("ui.list.filter.tag_refused", &[
                                    ("part", lang.text(if r.part == shared::validate::TagPart::Value { "ui.list.filter.tag_part.value" } else { "ui.list.filter.tag_part.key" })),
                                    ("reason", crate::components::issue_text(&r.issue, l)),
                                ])
                            }}
                        </span>
                    }
                })}
            </p>
        </form>
    }
}

/// The tag filter's refusal, which its box names as its description.
const TAG_REFUSED_ID: &str = "filter-tag-refused";

/// The id of the owner box's list of names to choose from.
const OWNERS_ID: &str = "berth-owner-names";

/// An owner typed in the filter bar: someone else's tasks are not the reader's own.
/// A text box's `size` that shows `hint` whole: a Chinese character is about two of
/// the average characters `size` counts, and a list's arrow takes about four.
fn hint_width(hint: &str, list: bool) -> usize {
    let width: usize = hint.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
    (width + if list { 6 } else { 2 }).max(20)
}

/// Whose tasks the reader may see: themselves and their groups' members, by name.
fn owners_for(session: &CatalogResponse) -> Vec<String> {
    let mut owners: Vec<String> = session
        .catalog
        .project_groups
        .iter()
        .filter(|g| g.members.contains(&session.user.name))
        .flat_map(|g| g.members.iter().cloned())
        .chain([session.user.name.clone()])
        .collect();
    owners.sort();
    owners.dedup();
    owners
}

/// For an owner filter that names no one whose tasks the reader may see, the names that
/// hold what was typed (any case); `None` for no filter or a name of theirs.
fn near_owners(typed: &str, owners: &[String]) -> Option<Vec<String>> {
    if typed.is_empty() || owners.iter().any(|o| o == typed) {
        return None;
    }
    // ASCII case only: `to_lowercase` brings Unicode's case tables (compute.rs).
    let typed = typed.to_ascii_lowercase();
    Some(
        owners
            .iter()
            .filter(|o| o.to_ascii_lowercase().contains(&typed))
            .cloned()
            .collect(),
    )
}

fn set_owner(filter: &mut ListFilter, owner: String) {
    if !owner.trim().is_empty() {
        filter.mine = false;
    }
    filter.owner = owner;
}

/// A row that left the list, by its task's id, and its task's phase now (none: deleted).
pub type LeftNow = (String, Option<TaskPhase>);

/// The tasks as a table, newest first. A row is re-rendered only when its task changed.
#[component]
pub fn TaskTable(
    /// The rows.
    tasks: Signal<Vec<TaskView>>,
    /// The catalog's project groups, to name each task's group.
    #[prop(optional)]
    groups: Vec<shared::catalog::ProjectGroup>,
    /// Rows kept where they were though the list no longer has them: each says it left.
    #[prop(optional, into)]
    left: Option<Signal<Vec<String>>>,
    /// How each row that left is now, once read (none: deleted).
    #[prop(optional, into)]
    left_now: Option<Signal<Vec<LeftNow>>>,
    /// When the rows were read (ms since the epoch): a running task's time run is
    /// counted to then, so it agrees with the list's "updated" time and moves with it.
    #[prop(optional, into)]
    read_at: Option<Signal<f64>>,
    /// Asks to stop a task by its id: each of `user`'s tasks that can still be stopped
    /// has a Stop beside its phase. None: no Stop.
    #[prop(optional)]
    stop: Option<(String, Callback<String>)>,
) -> impl IntoView {
    let groups = StoredValue::new(groups);
    let lang = UiLang::use_context();
    let head = |key: &'static str| view! { <th scope="col">{move || lang.text(key)}</th> };
    // Where each task is in the rows, once per change of them: each row finds its task
    // there, not by a search of the rows (a refresh of 500 rows searched them 500 times).
    let places = Memo::new(move |_| tasks.with(|t| places(t)));
    // A narrow screen scrolls the table in its box, not the page; the table stays a
    // table (a table made a block loses its semantics in some screen readers).
    view! {
        // Focusable, so a keyboard can scroll a table wider than a narrow window. Named
        // apart from the page's own region, which the list's heading names (screen-reader
        // explorer: two regions were called "Training tasks").
        <div class="table-scroll" tabindex="0" role="region" aria-label=move || lang.text("ui.list.table")>
            <table class="tasks" data-testid="task-table">
                <thead>
                    <tr>
                        // The phase next to the name: on a phone the columns after the
                        // name scroll under it, and the first screen showed the type of
                        // every row and no phase (narrow-screen explorer).
                        {head("ui.list.col.name")}
                        <th scope="col" class="phase-col">{move || lang.text("ui.list.col.phase")}</th>
                        {head("ui.list.col.type")}
                        {head("ui.list.col.owner")}
                        {head("ui.list.col.group")}
                        {head("ui.list.col.created")}
                        {head("ui.list.col.ran")}
                        {head("ui.list.col.tags")}
                    </tr>
                </thead>
                <tbody>
                    // Keyed by the task alone, its changing cells following it: a row built
                    // again at each change of its task took the focus from a reader on it.
                    <For
                        each=move || tasks.with(|t| t.iter().map(|v| v.task.id.0.clone()).collect::<Vec<_>>())
                        key=String::clone
                        children=move |id| {
                            let row = {
                                let id = id.clone();
                                Memo::new(move |_| {
                                    let i = places.with(|p| p.get(&id).copied())?;
                                    tasks.with(|t| t.get(i).cloned())
                                })
                            };
                            let Some(view) = row.get_untracked() else {
                                return ().into_any();
                            };
                            let task = view.task;
                            let (stem, tail) = match id.rfind('-') {
                                Some(at) => (id[..at].to_owned(), id[at..].to_owned()),
                                None => (id.clone(), String::new()),
                            };
                            let created = task.created_at;
                            let zone = task.spec.basic.time_zone.clone();
                            let phase = Signal::derive(move || row.with(|v| v.as_ref().map_or(task.phase, |v| v.task.phase)));
                            let stopping = Signal::derive(move || row.with(|v| v.as_ref().is_some_and(|v| v.stopping_since.is_some())));
                            // Why a waiting task waits, under its phase: a reader scanning
                            // the list sees what each waits on without opening it (explorer).
                            let waits = Memo::new(move |_| row.with(|v| v.as_ref().and_then(|v| waits_for(lang.get(), v))));
                            // Once a reason has shown, its line stays, empty, when it goes: a
                            // retried task's row grew and shrank at each retry, moving every
                            // row below it (explorer: 5 times in 43 s).
                            let waiting = Memo::new(move |before: Option<&bool>| {
                                before.copied().unwrap_or(false) || waits.with(Option::is_some)
                            });
                            // A reason that comes, or grows to a failure's two lines, after
                            // the row was drawn waits for a pointer resting on the table to
                            // leave it (pages.css): a run that failed under it moved every
                            // row below by two lines (sweep recheck).
                            let appeared = !waiting.get_untracked();
                            let failed_late = task.phase != TaskPhase::Failed;
                            let gone = {
                                let id = id.clone();
                                Memo::new(move |_| left.is_some_and(|l| l.with(|l| l.contains(&id))))
                            };
                            let left_id = id.clone();
                            let listed_to = StoredValue::new(None::<f64>);
                            let open = RwSignal::new(false);
                            view! {
                                <tr data-testid="task-row" data-id=id.clone() data-phase=move || api::wire_name(&phase.get())
                                    class:left=move || gone.get()>
                                    // Whole on hover where a narrow window cuts it short.
                                    <th scope="row" title=id.clone()>
                                        // Cut in its middle where a phone cuts it (pages.css),
                                        // not at its end: the random suffix is what tells a
                                        // clone from its task (narrow-screen explorer: two rows
                                        // read `llama-ft-zoom150…`).
                                        <Link to=Route::Detail(id.clone()) test_id="task-link">
                                            <span class="stem">{stem}</span><span class="tail">{tail}</span>
                                        </Link>
                                    </th>
                                    <td class="phase-cell">
                                        // Its phase as last listed would be read as now.
                                        {move || if gone.get() {
                                            let now = {
                                                let id = left_id.clone();
                                                move || left_now.and_then(|n| n.with(|n| n.iter().find(|(at, _)| *at == id).map(|(_, now)| *now)))
                                            };
                                            let said = move || match now() {
                                                None => lang.text("ui.list.left"),
                                                Some(None) => lang.text("ui.list.left#deleted"),
                                                Some(Some(phase)) => lang.text_with("ui.list.left#now", &[("phase", super::phase_label(lang.get(), phase))]),
                                            };
                                            view! { <span class="left-note" data-testid="row-left" title=said.clone()>{said.clone()}</span> }.into_any()
                                        } else {
                                            view! { <PhaseBadge phase stopping /> }.into_any()
                                        }}
                                        // Beside the phase it ends, in a column there already:
                                        // a sweep's runs were stopped one page at a time
                                        // (sweep explorer).
                                        {stop.clone().filter(|(user, _)| *user == task.owner).map(|(_, ask)| {
                                            let id = id.clone();
                                            move || (!gone.get() && !phase.get().is_finished() && !stopping.get()).then(|| {
                                                let (id, named) = (id.clone(), id.clone());
                                                view! {
                                                    " "
                                                    <button type="button" class="link row-stop" data-testid="row-stop"
                                                        aria-label=move || lang.text_with("ui.list.stop_named", &[("name", named.clone())])
                                                        on:click=move |_| ask.run(id.clone())>
                                                        {crate::i18n::tr("ui.detail.stop")}
                                                    </button>
                                                }
                                            })
                                        })}
                                        // One line, as wide whatever it says, cut short with
                                        // the whole reason on hover, or whole once pressed (a
                                        // phone has no hover): a refresh that rewords it moves
                                        // nothing. Reworded in place, not built again.
                                        {move || waiting.get().then(|| view! {
                                            <span class="waits" data-testid="row-reason" class:ended=move || phase.get() == TaskPhase::Failed
                                                class:appeared=appeared class:failed-late=failed_late class:open=move || open.get()
                                                // The keyboard's too (low-vision recheck: a
                                                // press or a tap only).
                                                tabindex="0" role="button" aria-expanded=move || open.get().to_string()
                                                on:click=move |_| open.update(|o| *o = !*o)
                                                on:keydown=move |ev| if matches!(ev.key().as_str(), "Enter" | " ") {
                                                    ev.prevent_default();
                                                    open.update(|o| *o = !*o);
                                                }
                                                title=move || waits.get().unwrap_or_default()>
                                                {move || waits.get().unwrap_or_default()}
                                            </span>
                                        })}
                                    </td>
                                    <td>{task.spec.basic.task_type.map(TaskType::as_str).unwrap_or_default()}</td>
                                    <td>{task.owner.clone()}</td>
                                    <td>{groups.with_value(|g| super::group_name(g, &task.spec.basic.project_group))}</td>
                                    // In the reader's zone: a list read as one timeline
                                    // had rows 3 s apart read 13 hours apart, in their
                                    // tasks' zones (zone and cloud-console explorers). The
                                    // task's own zone, as its page shows it, on hover.
                                    <td class="when" title=move || lang.text_with("ui.list.task_zone", &[("time", format_task_time(lang.get(), created, &zone))])>{move || super::format_time(lang.get(), created)}</td>
                                    // Zone-free, so a lead can compare colleagues' runs
                                    // whatever zone each task's times are in (lead explorer).
                                    <td class="ran" data-testid="row-ran">
                                        {move || {
                                            let now = read_at.map_or_else(js_sys::Date::now, |at| at.get());
                                            // A row that left holds its task as last listed:
                                            // counted to that read, not on at each refresh
                                            // (coordinator explorer: a stopped task's 13 s
                                            // grew to 25 s while its row stayed).
                                            let now = if gone.get() {
                                                listed_to.get_value().unwrap_or(now)
                                            } else {
                                                listed_to.set_value(Some(now));
                                                now
                                            };
                                            row.with(|v| v.as_ref().and_then(|v| v.task.ran_for(Timestamp(now as i64))))
                                                .map_or_else(|| "—".to_owned(), |ran| super::format_duration(lang.get(), Timestamp(0), Timestamp(ran)))
                                        }}
                                    </td>
                                    <td class="tags">
                                        {move || row.with(|v| v.as_ref().map(|v| v.tags.iter().map(|tag| view! { <span class="tag">{tag.text()}</span> }).collect_view()))}
                                    </td>
                                </tr>
                            }.into_any()
                        }
                    />
                </tbody>
            </table>
        </div>
    }
}

/// Why a queued or retrying task waits, as its page says it: its retry's backoff with
/// the time in the reader's zone, else the server's reason; and why a failed task failed
/// (which replica, its exit code, the attempt), as its page says it: a reader scanning
/// failures opened each task to learn it (failure explorer).
fn waits_for(lang: shared::Lang, view: &TaskView) -> Option<String> {
    if view.task.phase == TaskPhase::Failed {
        return super::task_detail::failed_because(view);
    }
    if !matches!(view.task.phase, TaskPhase::Queued | TaskPhase::Retrying) {
        return None;
    }
    match (view.retry_at, &view.reason) {
        (Some(due), _) => {
            let now = shared::record::Timestamp(js_sys::Date::now() as i64);
            // The reader's zone, as the list's other times.
            let at = super::format_time_from(lang, due, now, "");
            Some(shared::messages::text(
                lang,
                "event.retrying.waits",
                &[("at", at)],
            ))
        }
        (None, reason) => reason
            .clone()
            .filter(|r| !r.is_empty())
            .map(|r| super::task_detail::of_the_run(lang, view, r)),
    }
}
