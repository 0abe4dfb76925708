//! The store conformance suite: what every [`TaskStore`] must do, run against each
//! store by [`conformance_tests!`] (SQLite on a temporary file; PostgreSQL on a fresh
//! database of the server `BERTH_TEST_POSTGRES` names, skipped with a notice when it is
//! unset — `scripts/postgres.sh` starts one and sets it).

use super::{
    Cursor, EventPage, EventQuery, HiddenValue, Inserted, ListQuery, NewTask, PostgresStore, Share,
    SqliteStore, StoreError, StoredTask, TagFilter, TaskEvent, TaskStore, Viewer, restore_hidden,
};
use shared::Resources;
use shared::api::{MadeFrom, MadeHow};
use shared::quota::NodeShare;
use shared::quota::Placement;
use shared::record::Task;
use shared::record::{PhaseChange, TaskId, TaskPhase, Timestamp};
use shared::task::Tag;
use shared::task::{EnvVar, HIDDEN_VALUE_MASK, TaskSpec, TaskType};
use shared::usage::QuotaUse;
use shared::vocab::ResourceKind;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// Where a test's database lives; [`Fixture::open`] opens (again) the same one.
pub(super) enum Fixture {
    /// A file in a directory that `open` must create.
    Sqlite(tempfile::TempDir),
    /// A database of its own on the test server.
    Postgres(Box<sqlx::postgres::PgConnectOptions>),
}

/// The variable naming the PostgreSQL server the Postgres suites use.
pub(super) const POSTGRES_VARIABLE: &str = "BERTH_TEST_POSTGRES";

impl Fixture {
    pub(super) fn sqlite() -> Option<Fixture> {
        Some(Fixture::Sqlite(tempfile::tempdir().expect("temp dir")))
    }

    /// A new, empty database on the `BERTH_TEST_POSTGRES` server; `None` (with a
    /// notice) when the variable is unset.
    pub(super) async fn postgres() -> Option<Fixture> {
        use sqlx::{ConnectOptions, Executor};
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let Ok(url) = std::env::var(POSTGRES_VARIABLE) else {
            eprintln!(
                "skipped: {POSTGRES_VARIABLE} is not set (scripts/postgres.sh starts a server and sets it)"
            );
            return None;
        };
        let server: sqlx::postgres::PgConnectOptions = url
            .parse()
            .expect("BERTH_TEST_POSTGRES is a postgres:// URL");
        let name = format!(
            "berth_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            super::super::runner::now().0
        );
        let mut admin = server.connect().await.expect("the test server answers");
        // The name is made here of digits and underscores: nothing to escape.
        let create = sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"));
        admin.execute(create).await.expect("creates a database");
        Some(Fixture::Postgres(Box::new(server.database(&name))))
    }

    pub(super) async fn open(&self) -> Arc<dyn TaskStore> {
        match self {
            Fixture::Sqlite(dir) => Arc::new(
                SqliteStore::open(&dir.path().join("data/tasks.db"))
                    .await
                    .expect("opens"),
            ),
            Fixture::Postgres(options) => Arc::new(
                PostgresStore::connect_with((**options).clone())
                    .await
                    .expect("connects"),
            ),
        }
    }
}

/// One `#[tokio::test]` per conformance test, each on a fresh database from `$fixture`
/// (an async expression giving an `Option<Fixture>`; `None` skips).
macro_rules! conformance_tests {
    ($fixture:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                let Some(fixture) = $fixture.await else { return };
                let store = fixture.open().await;
                super::$name(store).await;
            }
        )*
        #[tokio::test]
        async fn data_survives_closing_and_reopening() {
            let Some(fixture) = $fixture.await else { return };
            super::data_survives_closing_and_reopening(&fixture).await;
        }
    };
}

macro_rules! every_store_test {
    ($fixture:expr) => {
        conformance_tests!(
            $fixture;
            a_task_reads_back_with_hidden_values_masked_and_kept_apart,
            an_idempotency_key_is_used_once_per_owner,
            concurrent_inserts_with_one_key_make_one_task,
            concurrent_inserts_and_events_get_distinct_sequence_numbers,
            lists_filter_by_every_field,
            phase_counts_are_the_lists_tasks_by_phase,
            cursor_paging_has_no_duplicates_or_gaps_while_tasks_arrive,
            phases_history_holds_and_events_are_recorded_in_order,
            events_are_paged_in_the_query_and_numbered_by_kind,
            concurrent_phase_changes_keep_every_allowed_step,
            unfinished_tasks_come_in_submit_order,
            shares_name_their_task_and_tokens_are_unique,
            share_links_are_listed_and_revoked_one_by_one,
            keyed_events_and_reasons_read_back_whole,
            an_event_with_a_nul_in_its_words_is_kept,
            an_insert_answers_the_number_a_read_gives,
            refused_inserts_leave_every_connection_usable,
            a_group_insert_stores_each_task_with_its_number,
            a_taken_id_in_a_group_keeps_out_only_its_task,
            what_its_submit_said_of_the_owner_and_origin_reads_back_from_every_insert,
            a_stop_asked_of_the_current_attempt_reads_back_from_every_read,
            tags_are_replaced_only_while_they_are_the_ones_expected,
        );
    };
}

mod sqlite {
    use super::Fixture;
    every_store_test!(async { Fixture::sqlite() });
}

mod postgres {
    use super::Fixture;
    every_store_test!(Fixture::postgres());
}

fn spec() -> TaskSpec {
    shared::demo::pytorch().with(|s| {
        s.basic.project_group = "vision".into();
        s.basic.visible_in_group = false;
        s.basic.tags = vec![Tag {
            key: "team".into(),
            value: "nlp".into(),
        }];
        s.environment.env = vec![
            EnvVar {
                name: "MODE".into(),
                value: "fast".into(),
                hidden: false,
            },
            EnvVar {
                name: "TOKEN".into(),
                value: "s3cret".into(),
                hidden: true,
            },
        ];
    })
}

fn task(id: &str, owner: &str, at: i64, spec: TaskSpec) -> Task {
    Task {
        id: TaskId(id.into()),
        owner: owner.into(),
        spec,
        phase: TaskPhase::Queued,
        attempts: 0,
        created_at: Timestamp(at),
        updated_at: Timestamp(at),
        history: vec![PhaseChange {
            phase: TaskPhase::Queued,
            at: Timestamp(at),
            reason: String::new(),
            keyed: None,
        }],
    }
}

fn quota(user: &str) -> Vec<QuotaUse> {
    vec![QuotaUse {
        user: user.into(),
        kind: ResourceKind::Reserved,
        pool: "a100".into(),
        spec: "a100x8".into(),
        used: Resources::new(16, 192, 1536),
    }]
}

fn new(task: Task, key: Option<&str>) -> NewTask {
    NewTask {
        quota: quota(&task.owner),
        task,
        idempotency_key: key.map(str::to_owned),
        owner_org: String::new(),
        owner_tenant_id: String::new(),
        made_from: None,
    }
}

async fn add(store: &dyn TaskStore, id: &str, owner: &str, at: i64, spec: TaskSpec) {
    let inserted = store
        .insert(new(task(id, owner, at, spec), None))
        .await
        .expect("inserts");
    assert_eq!(inserted, Inserted::New);
}

fn id(text: &str) -> TaskId {
    TaskId(text.into())
}

fn ids(tasks: &[StoredTask]) -> Vec<&str> {
    tasks.iter().map(|t| t.task.id.0.as_str()).collect()
}

fn change(phase: TaskPhase, at: i64) -> PhaseChange {
    PhaseChange {
        phase,
        at: Timestamp(at),
        reason: format!("to {phase:?}"),
        keyed: None,
    }
}

pub(super) async fn a_task_reads_back_with_hidden_values_masked_and_kept_apart(
    store: Arc<dyn TaskStore>,
) {
    let original = task("bert-x7k2q", "alice", 100, spec());
    store
        .insert(new(original.clone(), Some("req-1")))
        .await
        .expect("inserts");

    let stored = store.get(&original.id).await.expect("found");
    assert_eq!(stored.task.spec.environment.env[1].value, HIDDEN_VALUE_MASK);
    assert_eq!(stored.task.spec.environment.env[0].value, "fast");
    assert_eq!(
        stored.task,
        Task {
            spec: original.spec.masked(),
            ..original.clone()
        }
    );
    assert_eq!(stored.seq, 1);
    assert_eq!(stored.quota, quota("alice"));
    assert_eq!(stored.placement, None);
    assert_eq!(stored.tags, original.spec.basic.tags);

    let hidden = store.hidden_values(&original.id).await.expect("found");
    assert_eq!(
        hidden,
        vec![HiddenValue {
            index: 1,
            value: "s3cret".into()
        }]
    );
    assert_eq!(restore_hidden(&stored.task.spec, &hidden), original.spec);

    assert!(matches!(
        store.get(&id("nope-aaaaa")).await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.hidden_values(&id("nope-aaaaa")).await,
        Err(StoreError::NotFound { .. })
    ));
}

/// The runner injects the owner's org and tenant from the record into every attempt,
/// also after a restart, and a task's page links the task it was made from: each way in
/// stores them, each way out reads them back, and a task given none reads as empty.
pub(super) async fn what_its_submit_said_of_the_owner_and_origin_reads_back_from_every_insert(
    store: Arc<dyn TaskStore>,
) {
    type Read = (String, String, String, Option<MadeFrom>);
    let from = |id: &str, how| {
        Some(MadeFrom {
            task: TaskId(id.into()),
            how,
        })
    };
    let expected: [Read; 4] = [
        (
            "org-00001".into(),
            "Acme AI".into(),
            "t-acme".into(),
            from("was-00001", MadeHow::Resubmit),
        ),
        ("org-00002".into(), "Globex".into(), "t-globex".into(), None),
        (
            "org-00003".into(),
            "Initech".into(),
            "t-ini".into(),
            from("was-00003", MadeHow::Clone),
        ),
        ("org-00004".into(), String::new(), String::new(), None),
    ];
    let of = |(id, org, tenant, made_from): &Read| NewTask {
        owner_org: org.clone(),
        owner_tenant_id: tenant.clone(),
        made_from: made_from.clone(),
        ..new(task(id, "bob", 100, spec()), None)
    };
    store.insert(of(&expected[0])).await.expect("inserts");
    store
        .insert_numbered(of(&expected[1]), &[])
        .await
        .expect("inserts");
    for answer in store
        .insert_group(vec![
            (of(&expected[2]), Vec::new()),
            (of(&expected[3]), Vec::new()),
        ])
        .await
    {
        answer.expect("inserts");
    }
    let read = |tasks: &[StoredTask]| {
        let mut read: Vec<Read> = tasks
            .iter()
            .map(|t| {
                (
                    t.task.id.0.clone(),
                    t.owner_org.clone(),
                    t.owner_tenant_id.clone(),
                    t.made_from.clone(),
                )
            })
            .collect();
        read.sort_by(|a, b| a.0.cmp(&b.0));
        read
    };
    let want = expected.to_vec();
    for one in &expected {
        let stored = store.get(&TaskId(one.0.clone())).await.expect("found");
        assert_eq!(read(&[stored]), std::slice::from_ref(one));
    }
    let page = store
        .list(&ListQuery {
            limit: 50,
            ..ListQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(read(&page.tasks), want);
    assert_eq!(read(&store.unfinished().await.expect("reads")), want);
    // Listed by what they were made from: the tasks made from that one only.
    let page = store
        .list(&ListQuery {
            made_from: Some(TaskId("was-00003".into())),
            limit: 50,
            ..ListQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(read(&page.tasks), [want[2].clone()]);
}

pub(super) async fn an_idempotency_key_is_used_once_per_owner(store: Arc<dyn TaskStore>) {
    let first = store
        .insert(new(task("a-11111", "alice", 1, spec()), Some("k")))
        .await
        .expect("inserts");
    assert_eq!(first, Inserted::New);
    let again = store
        .insert(new(task("a-22222", "alice", 2, spec()), Some("k")))
        .await
        .expect("answers");
    assert_eq!(again, Inserted::Existing(id("a-11111")));
    assert!(matches!(
        store.get(&id("a-22222")).await,
        Err(StoreError::NotFound { .. })
    ));
    let other_owner = store
        .insert(new(task("b-33333", "bob", 3, spec()), Some("k")))
        .await
        .expect("inserts");
    assert_eq!(other_owner, Inserted::New);
    let taken = store
        .insert(new(task("a-11111", "carol", 4, spec()), None))
        .await;
    assert!(
        matches!(taken, Err(StoreError::IdTaken { .. })),
        "{taken:?}"
    );
    assert_eq!(store.unfinished().await.expect("lists").len(), 2);
}

pub(super) async fn an_insert_answers_the_number_a_read_gives(store: Arc<dyn TaskStore>) {
    let mut numbers = Vec::new();
    for (n, key) in [(1, None), (2, Some("k")), (3, None)] {
        let t = task(&format!("num-{n:05}"), "alice", n, spec());
        let (inserted, seq) = store
            .insert_numbered(new(t, key), &[])
            .await
            .expect("inserts");
        assert_eq!(inserted, Inserted::New);
        let read = store.get(&id(&format!("num-{n:05}"))).await.expect("reads");
        assert_eq!(seq, Some(read.seq));
        numbers.push(read.seq);
    }
    assert!(
        numbers.is_sorted() && numbers[0] < numbers[2],
        "{numbers:?}"
    );
    let again = task("num-00009", "alice", 9, spec());
    let (inserted, seq) = store
        .insert_numbered(new(again, Some("k")), &[])
        .await
        .expect("answers");
    assert_eq!((inserted, seq), (Inserted::Existing(id("num-00002")), None));
}

pub(super) async fn refused_inserts_leave_every_connection_usable(store: Arc<dyn TaskStore>) {
    add(&*store, "dup-00000", "alice", 1, spec()).await;
    // More refusals than a pool has connections: one left inside its transaction
    // would hold the write lock, and a later write on it would fail.
    for n in 0..20 {
        let event = TaskEvent::keyed(
            Timestamp(n),
            "queued",
            shared::messages::Message::new("event.accepted"),
        );
        let taken = store
            .insert_numbered(new(task("dup-00000", "bob", n, spec()), None), &[event])
            .await;
        assert!(
            matches!(taken, Err(StoreError::IdTaken { .. })),
            "{taken:?}"
        );
    }
    for n in 1..20 {
        add(&*store, &format!("ok-{n:05}"), "bob", n, spec()).await;
        store
            .advance(
                &id(&format!("ok-{n:05}")),
                change(TaskPhase::Scheduling, n + 1),
                1,
            )
            .await
            .expect("a write after the refusals");
    }
    let events = store.events(&id("dup-00000")).await.expect("reads");
    assert!(events.is_empty(), "the refused inserts' events: {events:?}");
    assert_eq!(store.unfinished().await.expect("lists").len(), 20);
}

fn group(ids: &[&str]) -> Vec<(NewTask, Vec<TaskEvent>)> {
    ids.iter()
        .zip(1..)
        .map(|(id, at)| {
            let event = TaskEvent::keyed(
                Timestamp(at),
                "queued",
                shared::messages::Message::new("event.accepted"),
            );
            (new(task(id, "alice", at, spec()), None), vec![event])
        })
        .collect()
}

pub(super) async fn a_group_insert_stores_each_task_with_its_number(store: Arc<dyn TaskStore>) {
    add(&*store, "first-00000", "bob", 0, spec()).await;
    let ids = ["grp-00001", "grp-00002", "grp-00003"];
    let answers = store.insert_group(group(&ids)).await;
    assert_eq!(answers.len(), 3);
    let mut numbers = Vec::new();
    for (id_text, answer) in ids.iter().zip(answers) {
        let (inserted, seq) = answer.expect("inserts");
        assert_eq!(inserted, Inserted::New);
        let read = store.get(&id(id_text)).await.expect("reads");
        assert_eq!(seq, Some(read.seq));
        assert_eq!(read.task.spec, spec().masked());
        assert_eq!(read.tags, spec().basic.tags);
        let hidden = store.hidden_values(&id(id_text)).await.expect("reads");
        assert_eq!(hidden.len(), 1);
        assert_eq!(hidden[0].value, "s3cret");
        let events = store.events(&id(id_text)).await.expect("reads");
        assert_eq!(events.len(), 1, "{events:?}");
        numbers.push(read.seq);
    }
    // In the group's order, after the task stored before it.
    let first = store.get(&id("first-00000")).await.expect("reads").seq;
    assert!(
        first < numbers[0] && numbers.is_sorted(),
        "{first} {numbers:?}"
    );
    numbers.dedup();
    assert_eq!(numbers.len(), 3);
}

pub(super) async fn a_taken_id_in_a_group_keeps_out_only_its_task(store: Arc<dyn TaskStore>) {
    add(&*store, "grp-00002", "bob", 0, spec()).await;
    let answers = store
        .insert_group(group(&["grp-00001", "grp-00002", "grp-00003"]))
        .await;
    let outcomes: Vec<_> = answers
        .into_iter()
        .map(|answer| answer.map(|(inserted, _)| inserted))
        .collect();
    assert!(matches!(outcomes[0], Ok(Inserted::New)), "{outcomes:?}");
    assert!(
        matches!(&outcomes[1], Err(StoreError::IdTaken { task }) if task.0 == "grp-00002"),
        "{outcomes:?}"
    );
    assert!(matches!(outcomes[2], Ok(Inserted::New)), "{outcomes:?}");
    // The taken id still names bob's task, with none of the group's events.
    let taken = store.get(&id("grp-00002")).await.expect("reads");
    assert_eq!(taken.task.owner, "bob");
    assert!(
        store
            .events(&id("grp-00002"))
            .await
            .expect("reads")
            .is_empty()
    );
    assert_eq!(store.unfinished().await.expect("lists").len(), 3);
}

pub(super) async fn concurrent_inserts_with_one_key_make_one_task(store: Arc<dyn TaskStore>) {
    let mut handles = Vec::new();
    for n in 0..20 {
        let store = Arc::clone(&store);
        handles.push(tokio::spawn(async move {
            let t = task(&format!("race-{n:05}"), "alice", n, spec());
            store.insert(new(t, Some("same"))).await
        }));
    }
    let mut outcomes = Vec::new();
    for handle in handles {
        outcomes.push(handle.await.expect("joins").expect("inserts"));
    }
    let stored = store.unfinished().await.expect("lists");
    assert_eq!(stored.len(), 1);
    let winner = stored[0].task.id.clone();
    assert_eq!(outcomes.iter().filter(|o| **o == Inserted::New).count(), 1);
    for outcome in outcomes {
        assert!(
            outcome == Inserted::New || outcome == Inserted::Existing(winner.clone()),
            "{outcome:?}"
        );
    }
}

pub(super) async fn lists_filter_by_every_field(store: Arc<dyn TaskStore>) {
    add(&*store, "bert-aaaaa", "alice", 1, spec()).await;
    let ray = shared::demo::ray().with(|s| {
        s.basic.project_group = "vision".into();
        s.basic.visible_in_group = false;
    });
    add(&*store, "ray-bbbbb", "alice", 2, ray).await;
    let shared_in_group = spec().with(|s| s.basic.visible_in_group = true);
    add(&*store, "gpt-ccccc", "bob", 3, shared_in_group).await;
    let private = spec().with(|s| s.basic.tags = Vec::new());
    add(&*store, "gpt-ddddd", "bob", 4, private).await;
    let other_group = spec().with(|s| {
        s.basic.project_group = "speech".into();
        s.basic.visible_in_group = true;
    });
    add(&*store, "asr-eeeee", "carol", 5, other_group).await;
    add(&*store, "old-fffff", "alice", 6, spec()).await;
    store
        .delete(&id("old-fffff"), Timestamp(7))
        .await
        .expect("deletes");
    store
        .advance(&id("bert-aaaaa"), change(TaskPhase::Scheduling, 8), 1)
        .await
        .expect("advances");
    store
        .advance(&id("gpt-ddddd"), change(TaskPhase::Failed, 9), 0)
        .await
        .expect("ends");

    let list = |query: ListQuery| {
        let store = &store;
        async move {
            let page = store
                .list(&ListQuery { limit: 50, ..query })
                .await
                .expect("lists");
            assert_eq!(page.next, None);
            page.tasks
                .iter()
                .map(|t| t.task.id.0.clone())
                .collect::<Vec<_>>()
        }
    };
    let all = list(ListQuery::default()).await;
    assert_eq!(
        all,
        [
            "asr-eeeee",
            "gpt-ddddd",
            "gpt-ccccc",
            "ray-bbbbb",
            "bert-aaaaa"
        ],
        "newest first, deleted left out"
    );
    assert_eq!(
        list(ListQuery {
            phase: Some(TaskPhase::Deleted),
            ..Default::default()
        })
        .await,
        ["old-fffff"]
    );
    assert_eq!(
        list(ListQuery {
            phase: Some(TaskPhase::Scheduling),
            ..Default::default()
        })
        .await,
        ["bert-aaaaa"]
    );
    assert_eq!(
        list(ListQuery {
            active: true,
            ..Default::default()
        })
        .await,
        ["asr-eeeee", "gpt-ccccc", "ray-bbbbb", "bert-aaaaa"],
        "the tasks that have not ended"
    );
    assert_eq!(
        list(ListQuery {
            task_type: Some(TaskType::RayJob),
            ..Default::default()
        })
        .await,
        ["ray-bbbbb"]
    );
    assert_eq!(
        list(ListQuery {
            owner: Some("bob".into()),
            ..Default::default()
        })
        .await,
        ["gpt-ddddd", "gpt-ccccc"]
    );
    assert_eq!(
        list(ListQuery {
            project_group: Some("speech".into()),
            ..Default::default()
        })
        .await,
        ["asr-eeeee"]
    );
    assert_eq!(
        list(ListQuery {
            name_contains: Some("GPT-".into()),
            ..Default::default()
        })
        .await,
        ["gpt-ddddd", "gpt-ccccc"]
    );
    assert_eq!(
        list(ListQuery {
            name_contains: Some("%".into()),
            ..Default::default()
        })
        .await,
        Vec::<String>::new(),
        "wildcards are literal"
    );
    assert_eq!(
        list(ListQuery {
            tag: Some(TagFilter::parse("team=nlp")),
            owner: Some("bob".into()),
            ..Default::default()
        })
        .await,
        ["gpt-ccccc"]
    );
    assert_eq!(
        list(ListQuery {
            tag: Some(TagFilter::parse("team=cv")),
            ..Default::default()
        })
        .await,
        Vec::<String>::new()
    );
    store
        .set_tags(
            &id("gpt-ddddd"),
            &[Tag {
                key: "team".into(),
                value: "cv".into(),
            }],
            None,
        )
        .await
        .expect("sets tags");
    assert_eq!(
        list(ListQuery {
            tag: Some(TagFilter::parse("team")),
            owner: Some("bob".into()),
            ..Default::default()
        })
        .await,
        ["gpt-ddddd", "gpt-ccccc"]
    );
    assert_eq!(
        list(ListQuery {
            visible_to: Some(Viewer {
                user: "alice".into(),
                groups: vec!["vision".into()],
            }),
            ..Default::default()
        })
        .await,
        ["gpt-ccccc", "ray-bbbbb", "bert-aaaaa"],
        "her own, and bob's task shared in her group"
    );
    assert_eq!(
        list(ListQuery {
            visible_to: Some(Viewer {
                user: "dave".into(),
                groups: Vec::new(),
            }),
            ..Default::default()
        })
        .await,
        Vec::<String>::new()
    );
}

/// The counts of each phase are what the list gives under the same filters, counted by
/// phase: the list is their oracle. A deleted task counts nowhere.
pub(super) async fn phase_counts_are_the_lists_tasks_by_phase(store: Arc<dyn TaskStore>) {
    add(&*store, "bert-aaaaa", "alice", 1, spec()).await;
    let ray = shared::demo::ray().with(|s| s.basic.project_group = "vision".into());
    add(&*store, "ray-bbbbb", "alice", 2, ray).await;
    add(
        &*store,
        "gpt-ccccc",
        "bob",
        3,
        spec().with(|s| s.basic.visible_in_group = true),
    )
    .await;
    add(
        &*store,
        "gpt-ddddd",
        "bob",
        4,
        spec().with(|s| s.basic.tags = Vec::new()),
    )
    .await;
    add(&*store, "old-fffff", "alice", 6, spec()).await;
    store
        .delete(&id("old-fffff"), Timestamp(7))
        .await
        .expect("deletes");
    for (task, phase, at) in [
        ("bert-aaaaa", TaskPhase::Scheduling, 8),
        ("bert-aaaaa", TaskPhase::Running, 9),
        ("gpt-ccccc", TaskPhase::Scheduling, 10),
        ("gpt-ccccc", TaskPhase::Running, 11),
        ("gpt-ccccc", TaskPhase::Failed, 12),
    ] {
        store
            .advance(&id(task), change(phase, at), 1)
            .await
            .expect("advances");
    }
    let queries = [
        ListQuery::default(),
        ListQuery {
            owner: Some("bob".into()),
            ..Default::default()
        },
        ListQuery {
            task_type: Some(TaskType::PyTorchJob),
            ..Default::default()
        },
        ListQuery {
            tag: Some(TagFilter::parse("team=nlp")),
            ..Default::default()
        },
        ListQuery {
            name_contains: Some("GPT".into()),
            ..Default::default()
        },
        ListQuery {
            visible_to: Some(Viewer {
                user: "alice".into(),
                groups: vec!["nlp".into()],
            }),
            ..Default::default()
        },
    ];
    for query in queries {
        let counts = store.count_phases(&query).await.expect("counts");
        let listed = store
            .list(&ListQuery {
                limit: 500,
                ..query.clone()
            })
            .await
            .expect("lists");
        let mut tally = shared::api::PhaseCounts::default();
        for task in &listed.tasks {
            tally.add(task.task.phase, 1);
        }
        assert_eq!(counts, tally, "{query:?}");
    }
    let all = store
        .count_phases(&ListQuery::default())
        .await
        .expect("counts");
    assert_eq!(
        (all.queued, all.running, all.failed, all.total()),
        (2, 1, 1, 4)
    );
}

pub(super) async fn cursor_paging_has_no_duplicates_or_gaps_while_tasks_arrive(
    store: Arc<dyn TaskStore>,
) {
    let mut expected = Vec::new();
    for n in 0..25 {
        // Pairs share a creation time, so the id breaks ties.
        let name = format!("p-{n:05}");
        add(&*store, &name, "alice", n / 2, spec()).await;
        expected.push((n / 2, name));
    }
    expected.sort_by(|a, b| b.cmp(a));
    let expected: Vec<String> = expected.into_iter().map(|(_, name)| name).collect();

    let mut seen = Vec::new();
    let mut after = None;
    let mut late = 0;
    loop {
        let page = store
            .list(&ListQuery {
                limit: 7,
                after: after.clone(),
                ..Default::default()
            })
            .await
            .expect("lists");
        seen.extend(page.tasks.iter().map(|t| t.task.id.0.clone()));
        // Newer tasks arrive between pages.
        late += 1;
        add(
            &*store,
            &format!("late-{late:05}"),
            "alice",
            1000 + late,
            spec(),
        )
        .await;
        match page.next {
            Some(cursor) => after = Some(Cursor::decode(&cursor.encode()).expect("round-trips")),
            None => break,
        }
    }
    assert_eq!(seen, expected);
}

pub(super) async fn phases_history_holds_and_events_are_recorded_in_order(
    store: Arc<dyn TaskStore>,
) {
    let t = id("bert-aaaaa");
    add(&*store, &t.0, "alice", 1, spec()).await;
    store
        .advance(&t, change(TaskPhase::Scheduling, 2), 1)
        .await
        .expect("advances");
    store
        .advance(&t, change(TaskPhase::Running, 3), 1)
        .await
        .expect("advances");
    let refused = store.advance(&t, change(TaskPhase::Queued, 4), 1).await;
    assert!(
        matches!(refused, Err(StoreError::Phase { .. })),
        "{refused:?}"
    );
    assert!(matches!(
        store.delete(&t, Timestamp(4)).await,
        Err(StoreError::Phase { .. })
    ));

    let placement = Placement {
        user: "alice".into(),
        kind: ResourceKind::Reserved,
        pool: "a100".into(),
        index: 0,
        spec: "a100x8".into(),
        need: Resources::new(8, 96, 768),
        workers: vec![NodeShare {
            node: "node-1".into(),
            replicas: 2,
        }],
        head: None,
    };
    store
        .set_hold(&t, &quota("alice"), Some(&placement))
        .await
        .expect("holds");

    for (at, kind) in [(2, "admitted"), (3, "started"), (5, "exited")] {
        let event = TaskEvent {
            at: Timestamp(at),
            kind: kind.into(),
            message: format!("{kind} at {at}"),
            keyed: None,
        };
        store.push_event(&t, &event).await.expect("pushes");
    }

    let stored = store.get(&t).await.expect("found");
    assert_eq!(stored.task.phase, TaskPhase::Running);
    assert_eq!(stored.task.attempts, 1);
    assert_eq!(stored.task.updated_at, Timestamp(3));
    assert_eq!(
        stored.task.history,
        vec![
            PhaseChange {
                phase: TaskPhase::Queued,
                at: Timestamp(1),
                reason: String::new(),
                keyed: None,
            },
            change(TaskPhase::Scheduling, 2),
            change(TaskPhase::Running, 3),
        ]
    );
    assert_eq!(stored.placement, Some(placement));

    let kinds: Vec<String> = store
        .events(&t)
        .await
        .expect("found")
        .into_iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, ["admitted", "started", "exited"]);

    store.set_hold(&t, &[], None).await.expect("releases");
    let stored = store.get(&t).await.expect("found");
    assert_eq!((stored.quota, stored.placement), (Vec::new(), None));

    let ghost = id("ghost-zzzzz");
    let event = TaskEvent {
        at: Timestamp(1),
        kind: "queued".into(),
        message: String::new(),
        keyed: None,
    };
    assert!(matches!(
        store.push_event(&ghost, &event).await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.events(&ghost).await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.set_hold(&ghost, &[], None).await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store
            .advance(&ghost, change(TaskPhase::Scheduling, 2), 1)
            .await,
        Err(StoreError::NotFound { .. })
    ));
}

pub(super) async fn unfinished_tasks_come_in_submit_order(store: Arc<dyn TaskStore>) {
    // Creation times run backwards: the order must come from the sequence.
    for (n, name) in ["u-aaaaa", "u-bbbbb", "u-ccccc", "u-ddddd"]
        .iter()
        .enumerate()
    {
        add(&*store, name, "alice", 100 - n as i64, spec()).await;
    }
    store
        .advance(&id("u-bbbbb"), change(TaskPhase::Stopped, 200), 0)
        .await
        .expect("stops");
    store
        .delete(&id("u-ccccc"), Timestamp(201))
        .await
        .expect("deletes");
    store
        .advance(&id("u-ddddd"), change(TaskPhase::Scheduling, 202), 1)
        .await
        .expect("advances");
    let unfinished = store.unfinished().await.expect("lists");
    assert_eq!(ids(&unfinished), ["u-aaaaa", "u-ddddd"]);
    assert_eq!(unfinished[0].seq, 1);
    assert_eq!(unfinished[1].seq, 4);
}

pub(super) async fn shares_name_their_task_and_tokens_are_unique(store: Arc<dyn TaskStore>) {
    let t = id("bert-aaaaa");
    add(&*store, &t.0, "alice", 1, spec()).await;
    assert_eq!(
        store
            .create_share(&t, "tok-1", "alice", Timestamp(2))
            .await
            .expect("shares"),
        1
    );
    assert_eq!(store.shared("tok-1").await.expect("reads"), Some(t.clone()));
    assert_eq!(store.shared("tok-2").await.expect("reads"), None);
    assert!(matches!(
        store.create_share(&t, "tok-1", "alice", Timestamp(3)).await,
        Err(StoreError::TokenTaken)
    ));
    assert!(matches!(
        store
            .create_share(&id("ghost-zzzzz"), "tok-3", "alice", Timestamp(3))
            .await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.set_tags(&id("ghost-zzzzz"), &[], None).await,
        Err(StoreError::NotFound { .. })
    ));
}

/// A replacement that names the tags it read changes them only while the task still has
/// those, in that order: a save never drops tags set meanwhile by another page.
pub(super) async fn tags_are_replaced_only_while_they_are_the_ones_expected(
    store: Arc<dyn TaskStore>,
) {
    let t = id("bert-aaaaa");
    add(&*store, &t.0, "alice", 1, spec()).await;
    let tag = |key: &str, value: &str| Tag {
        key: key.into(),
        value: value.into(),
    };
    let tags = |store: Arc<dyn TaskStore>| async move {
        store.get(&id("bert-aaaaa")).await.expect("reads").tags
    };
    let read = tags(store.clone()).await;
    let theirs = [tag("team", "nlp"), tag("stage", "eval")];
    store
        .set_tags(&t, &theirs, Some(&read))
        .await
        .expect("the tags read are the tags now");
    assert_eq!(tags(store.clone()).await, theirs);
    // Made from the first read: refused, and nothing changes.
    assert!(matches!(
        store.set_tags(&t, &[tag("mine", "1")], Some(&read)).await,
        Err(StoreError::TagsChanged { .. })
    ));
    let reordered = [tag("stage", "eval"), tag("team", "nlp")];
    assert!(matches!(
        store.set_tags(&t, &[], Some(&reordered)).await,
        Err(StoreError::TagsChanged { .. })
    ));
    assert_eq!(tags(store.clone()).await, theirs);
    store
        .set_tags(&t, &[tag("mine", "1")], Some(&theirs))
        .await
        .expect("made from the tags now");
    assert_eq!(tags(store.clone()).await, [tag("mine", "1")]);
    assert!(matches!(
        store.set_tags(&id("ghost-zzzzz"), &[], Some(&[])).await,
        Err(StoreError::NotFound { .. })
    ));
}

pub(super) async fn share_links_are_listed_and_revoked_one_by_one(store: Arc<dyn TaskStore>) {
    let t = id("bert-aaaaa");
    let other = id("bert-bbbbb");
    add(&*store, &t.0, "alice", 1, spec()).await;
    add(&*store, &other.0, "alice", 2, spec()).await;
    assert_eq!(store.shares(&t).await.expect("lists"), []);
    for (token, at) in [("tok-a", 10), ("tok-b", 11), ("tok-c", 12)] {
        store
            .create_share(&t, token, "alice", Timestamp(at))
            .await
            .expect("shares");
    }
    // Another task's links are numbered on their own.
    assert_eq!(
        store
            .create_share(&other, "tok-x", "alice", Timestamp(13))
            .await
            .expect("shares"),
        1
    );
    let share = |link: u32, token: &str, at: i64| Share {
        link,
        token: token.to_owned(),
        created_at: Timestamp(at),
        created_by: "alice".to_owned(),
    };
    assert_eq!(
        store.shares(&t).await.expect("lists"),
        [
            share(1, "tok-a", 10),
            share(2, "tok-b", 11),
            share(3, "tok-c", 12)
        ]
    );

    assert!(
        store
            .revoke_share(&t, 2, Timestamp(20))
            .await
            .expect("revokes")
    );
    assert_eq!(store.shared("tok-b").await.expect("reads"), None);
    assert_eq!(store.shared("tok-a").await.expect("reads"), Some(t.clone()));
    assert_eq!(
        store.shares(&t).await.expect("lists"),
        [share(1, "tok-a", 10), share(3, "tok-c", 12)]
    );
    // Revoked already, not there, or another task's: nothing to revoke.
    assert!(
        !store
            .revoke_share(&t, 2, Timestamp(21))
            .await
            .expect("answers")
    );
    assert!(
        !store
            .revoke_share(&t, 9, Timestamp(21))
            .await
            .expect("answers")
    );
    assert!(
        !store
            .revoke_share(&other, 3, Timestamp(21))
            .await
            .expect("answers")
    );
    assert_eq!(
        store.shared("tok-x").await.expect("reads"),
        Some(other.clone())
    );
    // A revoked token is never given again, and a number never reused.
    assert!(matches!(
        store
            .create_share(&t, "tok-b", "alice", Timestamp(22))
            .await,
        Err(StoreError::TokenTaken)
    ));
    assert_eq!(
        store
            .create_share(&t, "tok-d", "alice", Timestamp(23))
            .await
            .expect("shares"),
        4
    );
    assert!(matches!(
        store.shares(&id("ghost-zzzzz")).await,
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store
            .revoke_share(&id("ghost-zzzzz"), 1, Timestamp(24))
            .await,
        Err(StoreError::NotFound { .. })
    ));
}

pub(super) async fn concurrent_inserts_and_events_get_distinct_sequence_numbers(
    store: Arc<dyn TaskStore>,
) {
    // Sequence numbers are computed by the inserting statement: writers that run side
    // by side (Postgres) must still get one number each.
    let mut handles = Vec::new();
    for n in 0..16 {
        let store = Arc::clone(&store);
        handles.push(tokio::spawn(async move {
            add(&*store, &format!("seq-{n:05}"), "alice", n, spec()).await;
        }));
    }
    for handle in handles {
        handle.await.expect("joins");
    }
    let mut seqs: Vec<i64> = store
        .unfinished()
        .await
        .expect("lists")
        .iter()
        .map(|t| t.seq)
        .collect();
    seqs.sort_unstable();
    assert_eq!(seqs, (1..=16).collect::<Vec<i64>>());

    let t = id("seq-00000");
    let mut handles = Vec::new();
    for n in 0..16 {
        let store = Arc::clone(&store);
        let t = t.clone();
        handles.push(tokio::spawn(async move {
            let event = TaskEvent {
                at: Timestamp(n),
                kind: "exited".into(),
                message: format!("replica {n}"),
                keyed: None,
            };
            store.push_event(&t, &event).await
        }));
    }
    for handle in handles {
        handle.await.expect("joins").expect("pushes");
    }
    let mut messages: Vec<String> = store
        .events(&t)
        .await
        .expect("found")
        .into_iter()
        .map(|e| e.message)
        .collect();
    messages.sort();
    let mut expected: Vec<String> = (0..16).map(|n| format!("replica {n}")).collect();
    expected.sort();
    assert_eq!(messages, expected);
    // Numbered 1 to 16, none skipped: what the events' pages count on.
    let page = store
        .events_page(&t, EventQuery::default())
        .await
        .expect("found");
    assert_eq!((page.events.len(), page.first, page.total), (16, 1, 16));
}

pub(super) async fn events_are_paged_in_the_query_and_numbered_by_kind(store: Arc<dyn TaskStore>) {
    let t = id("paged-aaaaa");
    let event = |n: i64, kind: &str| TaskEvent {
        at: Timestamp(n),
        kind: kind.into(),
        message: format!("event {n}"),
        keyed: None,
    };
    // Event 1 comes with the insert, as a submit's do; 2 to 12 after, every third a
    // retry: retries are events 3, 6, 9 and 12.
    store
        .insert_with_events(
            new(task(&t.0, "alice", 1, spec()), None),
            &[event(1, "queued")],
        )
        .await
        .expect("inserts");
    for n in 2..=12 {
        let kind = if n % 3 == 0 { "retrying" } else { "exited" };
        store.push_event(&t, &event(n, kind)).await.expect("pushes");
    }
    let read = |kinds: &'static [&'static str], before: Option<u64>, limit: Option<u32>| {
        let store = Arc::clone(&store);
        let t = t.clone();
        async move {
            let page: EventPage = store
                .events_page(
                    &t,
                    EventQuery {
                        kinds,
                        before,
                        limit,
                    },
                )
                .await
                .expect("found");
            let ats: Vec<i64> = page.events.iter().map(|e| e.at.0).collect();
            (ats, page.first, page.total)
        }
    };
    assert_eq!(read(&[], None, None).await, ((1..=12).collect(), 1, 12));
    assert_eq!(
        read(&[], None, Some(5)).await,
        (vec![8, 9, 10, 11, 12], 8, 12)
    );
    assert_eq!(
        read(&[], Some(8), Some(5)).await,
        (vec![3, 4, 5, 6, 7], 3, 12)
    );
    assert_eq!(read(&[], Some(3), Some(5)).await, (vec![1, 2], 1, 12));
    assert_eq!(read(&[], Some(1), Some(5)).await, (vec![], 1, 12));
    assert_eq!(read(&[], Some(8), None).await, ((1..=7).collect(), 1, 12));
    // Past the last is the same as none left out; a limit of none reads none.
    assert_eq!(read(&[], Some(13), Some(2)).await, (vec![11, 12], 11, 12));
    assert_eq!(read(&[], Some(99), Some(2)).await, (vec![11, 12], 11, 12));
    assert_eq!(read(&[], None, Some(0)).await, (vec![], 13, 12));
    // Of one kind, numbered among themselves: retries 1 to 4.
    let retries: &[&str] = &["retrying"];
    assert_eq!(read(retries, None, None).await, (vec![3, 6, 9, 12], 1, 4));
    assert_eq!(read(retries, None, Some(2)).await, (vec![9, 12], 3, 4));
    assert_eq!(read(retries, Some(3), Some(2)).await, (vec![3, 6], 1, 4));
    assert_eq!(read(retries, Some(2), Some(5)).await, (vec![3], 1, 4));
    assert_eq!(read(retries, Some(4), None).await, (vec![3, 6, 9], 1, 4));
    assert_eq!(read(retries, Some(9), Some(1)).await, (vec![12], 4, 4));
    let two: &[&str] = &["queued", "retrying"];
    assert_eq!(read(two, None, Some(3)).await, (vec![6, 9, 12], 3, 5));
    assert_eq!(read(&["stopping"], None, Some(3)).await, (vec![], 1, 0));
    assert!(matches!(
        store
            .events_page(&id("ghost-zzzzz"), EventQuery::default())
            .await,
        Err(StoreError::NotFound { .. })
    ));
}

pub(super) async fn concurrent_phase_changes_keep_every_allowed_step(store: Arc<dyn TaskStore>) {
    // Two servers may record the same step at once (a stop racing an exit): exactly
    // one wins, the other is refused, and the history has no gap or duplicate.
    let t = id("race-aaaaa");
    add(&*store, &t.0, "alice", 1, spec()).await;
    let mut handles = Vec::new();
    for n in 0..8 {
        let store = Arc::clone(&store);
        let t = t.clone();
        handles.push(tokio::spawn(async move {
            store
                .advance(&t, change(TaskPhase::Stopped, 10 + n), 0)
                .await
        }));
    }
    let mut won = 0;
    for handle in handles {
        match handle.await.expect("joins") {
            Ok(()) => won += 1,
            Err(StoreError::Phase { .. }) => {}
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(won, 1);
    let stored = store.get(&t).await.expect("found");
    let phases: Vec<TaskPhase> = stored.task.history.iter().map(|c| c.phase).collect();
    assert_eq!(phases, [TaskPhase::Queued, TaskPhase::Stopped]);
}

pub(super) async fn data_survives_closing_and_reopening(fixture: &Fixture) {
    let t = id("bert-aaaaa");
    let before = {
        let store = fixture.open().await;
        add(&*store, &t.0, "alice", 1, spec()).await;
        store
            .advance(&t, change(TaskPhase::Scheduling, 2), 1)
            .await
            .expect("advances");
        let event = TaskEvent {
            at: Timestamp(2),
            kind: "admitted".into(),
            message: "fits".into(),
            keyed: None,
        };
        store.push_event(&t, &event).await.expect("pushes");
        store
            .create_share(&t, "tok", "alice", Timestamp(3))
            .await
            .expect("shares");
        store.get(&t).await.expect("found")
    };
    let store = fixture.open().await;
    assert_eq!(store.get(&t).await.expect("found"), before);
    assert_eq!(store.events(&t).await.expect("found").len(), 1);
    assert_eq!(store.shared("tok").await.expect("reads"), Some(t.clone()));
    assert_eq!(
        store.hidden_values(&t).await.expect("found")[0].value,
        "s3cret"
    );
    add(&*store, "next-bbbbb", "alice", 4, spec()).await;
    let next = store.get(&id("next-bbbbb")).await.expect("found");
    assert_eq!(next.seq, 2, "the sequence continues");
}

/// PostgreSQL's text cannot hold a NUL: an event quoting a runtime env key with one
/// (`"py\u0000modules"`, which a spec may hold) was lost ("cannot record an event").
/// Every store keeps it: the key exact in the message's arguments, its English text with
/// the NUL as U+FFFD; a phase change's reason likewise.
pub(super) async fn an_event_with_a_nul_in_its_words_is_kept(store: Arc<dyn TaskStore>) {
    use shared::Lang;
    use shared::messages::Message;
    let t = id("nul-aaaaa");
    let first = TaskEvent::keyed(
        Timestamp(1),
        "job",
        // As the runner says it: a list, joined in the reader's language.
        Message::new("event.runtime_env.unapplied")
            .with_list("keys", vec!["pip".into(), "\"py\0modules\"".into()]),
    );
    store
        .insert_with_events(new(task(&t.0, "alice", 1, spec()), None), &[first])
        .await
        .expect("inserts with the event");
    let pushed = TaskEvent::keyed(
        Timestamp(2),
        "job",
        Message::new("event.note")
            .with("attempt", 1)
            .with("note", "a\0b"),
    );
    store
        .push_event(&t, &pushed)
        .await
        .expect("pushes the event");
    let old = TaskEvent {
        at: Timestamp(3),
        kind: "cluster".into(),
        message: "pod x: a\0b".into(),
        keyed: None,
    };
    store
        .push_event(&t, &old)
        .await
        .expect("pushes the unkeyed event");
    let reason = Message::new("event.note")
        .with("attempt", 1)
        .with("note", "c\0d");
    store
        .advance(
            &t,
            PhaseChange {
                phase: TaskPhase::Stopped,
                at: Timestamp(4),
                reason: reason.render(Lang::En),
                keyed: Some(reason.clone()),
            },
            0,
        )
        .await
        .expect("records the phase change");
    let events = store.events(&t).await.expect("found");
    assert_eq!(events.len(), 3, "{events:?}");
    assert!(
        events[0].text(Lang::En).contains("pip and \"py\0modules\""),
        "{events:?}"
    );
    assert!(
        events[0].text(Lang::Zh).contains("pip、\"py\0modules\""),
        "{events:?}"
    );
    assert!(
        events[0].message.contains("\"py\u{fffd}modules\""),
        "{events:?}"
    );
    assert!(events[1].text(Lang::En).contains("a\0b"), "{events:?}");
    assert_eq!(events[2].message, "pod x: a\u{fffd}b");
    let stored = store.get(&t).await.expect("found");
    let last = stored.task.history.last().expect("a history");
    assert_eq!(last.keyed, Some(reason));
    assert!(last.reason.contains("c\u{fffd}d"), "{last:?}");
}

pub(super) async fn keyed_events_and_reasons_read_back_whole(store: Arc<dyn TaskStore>) {
    use shared::Lang;
    use shared::messages::Message;
    let t = id("keyed-aaaaa");
    let reason = Message::new("event.queued").with_message(
        "reason",
        Message::new("queue.no_node_hosts_one")
            .with("largest_free", 4)
            .with_message("unit", Message::new("unit.gpu"))
            .with("need", 8),
    );
    // Inserted with its first events, as a submit does.
    let accepted = TaskEvent::keyed(
        Timestamp(1),
        "queued",
        shared::messages::Message::new("event.accepted"),
    );
    let queued = TaskEvent::keyed(Timestamp(1), "queued", reason.clone());
    store
        .insert_with_events(
            new(task(&t.0, "alice", 1, spec()), None),
            &[accepted.clone(), queued.clone()],
        )
        .await
        .expect("inserts");
    // Text from outside Berth stays as its own text inside an argument.
    let note = TaskEvent::keyed(
        Timestamp(2),
        "cluster",
        Message::new("event.note")
            .with("attempt", 1)
            .with("note", "pod x: Pulling: Pulling image \"a:1\""),
    );
    store.push_event(&t, &note).await.expect("pushes");
    // A list of one is a list, not a message keyed by its item (review: `["pip"]` read
    // back as one, and an item that is a catalog key rendered as that key's words).
    let one = TaskEvent::keyed(
        Timestamp(2),
        "job",
        Message::new("event.runtime_env.unapplied").with_list("keys", vec!["quantity".into()]),
    );
    store.push_event(&t, &one).await.expect("pushes");
    // An event written before events were keyed keeps its text.
    let old = TaskEvent {
        at: Timestamp(3),
        kind: "started".into(),
        message: "attempt 1: every replica started".into(),
        keyed: None,
    };
    store.push_event(&t, &old).await.expect("pushes");
    let events = store.events(&t).await.expect("found");
    assert_eq!(events, vec![accepted, queued, note, one, old]);
    assert!(
        events[3].text(Lang::En).contains("runtime env's quantity:"),
        "{:?}",
        events[3]
    );
    assert_eq!(
        events[1].text(Lang::Zh),
        "空闲最多的节点只有 4 张 GPU，单个副本需要 8"
    );
    assert_eq!(
        events[1].message, "the largest free node has 4 GPUs; one replica needs 8",
        "the English text is kept beside the key"
    );
    assert_eq!(events[4].text(Lang::Zh), "attempt 1: every replica started");

    let stopped = Message::new("event.stopped#before_start");
    store
        .advance(
            &t,
            PhaseChange {
                phase: TaskPhase::Stopped,
                at: Timestamp(4),
                reason: stopped.render(Lang::En),
                keyed: Some(stopped.clone()),
            },
            0,
        )
        .await
        .expect("stops");
    let by_id = store.get(&t).await.expect("found");
    assert_eq!(by_id.task.history.len(), 2);
    assert_eq!(by_id.task.history[0].keyed, None);
    assert_eq!(by_id.task.history[1].keyed, Some(stopped.clone()));
    assert_eq!(by_id.task.history[1].reason, "by a user before it started");
    // Lists read history through another query: the same record.
    let listed = store
        .list(&ListQuery {
            owner: Some("alice".into()),
            limit: 10,
            ..ListQuery::default()
        })
        .await
        .expect("lists");
    let listed = listed
        .tasks
        .into_iter()
        .find(|s| s.task.id == t)
        .expect("listed");
    assert_eq!(listed.task.history, by_id.task.history);
}

/// The console tells a stop under way from the task alone, in the list as on its page,
/// and a server that restarts, or another on the database, from what is stored: every
/// read gives when the current attempt's stop was asked (its `stopping` event), and
/// none once a new attempt started after it (`retrying`, or `queued` again).
pub(super) async fn a_stop_asked_of_the_current_attempt_reads_back_from_every_read(
    store: Arc<dyn TaskStore>,
) {
    let t = id("stop-aaaaa");
    let other = id("calm-bbbbb");
    add(&*store, &t.0, "alice", 1, spec()).await;
    add(&*store, &other.0, "alice", 2, spec()).await;
    let push = |kind: &'static str, at: i64| {
        let store = Arc::clone(&store);
        let t = t.clone();
        async move {
            let event = TaskEvent {
                at: Timestamp(at),
                kind: kind.into(),
                message: kind.into(),
                keyed: None,
            };
            store.push_event(&t, &event).await.expect("pushes");
        }
    };
    // Every way a task is read: alone, in a list page, and among the unfinished.
    let asked = |id: TaskId| {
        let store = Arc::clone(&store);
        async move {
            let alone = store.get(&id).await.expect("found").stop_asked_at;
            let page = store
                .list(&ListQuery {
                    limit: 10,
                    ..ListQuery::default()
                })
                .await
                .expect("lists");
            let listed = page.tasks.iter().find(|s| s.task.id == id).expect("listed");
            let unfinished = store.unfinished().await.expect("lists");
            let restored = unfinished
                .iter()
                .find(|s| s.task.id == id)
                .expect("unfinished");
            assert_eq!(
                listed.stop_asked_at, alone,
                "the list says as the task does"
            );
            assert_eq!(
                restored.stop_asked_at, alone,
                "recovery reads as the task does"
            );
            alone
        }
    };
    push("queued", 1).await;
    push("started", 3).await;
    assert_eq!(asked(t.clone()).await, None, "no stop was asked");
    push("stopping", 5).await;
    push("exited", 6).await;
    assert_eq!(asked(t.clone()).await, Some(Timestamp(5)));
    assert_eq!(
        asked(other.clone()).await,
        None,
        "another task's stop is not its"
    );
    // A new attempt after it: that stop was the earlier attempt's.
    push("retrying", 7).await;
    assert_eq!(asked(t.clone()).await, None);
    push("started", 8).await;
    push("stopping", 9).await;
    assert_eq!(asked(t.clone()).await, Some(Timestamp(9)));
    push("queued", 10).await;
    assert_eq!(asked(t.clone()).await, None);
}
