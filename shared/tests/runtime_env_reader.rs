//! Runtime envs read by a reader set with `set_runtime_env_reader`, as the validator
//! package reads them through its YAML module: in a process of its own, since the reader
//! set stays for the process.

use shared::demo::{corpus, findings_for};
use shared::validate::{read_runtime_env, set_runtime_env_reader};

/// The package's YAML module, in the same process; a text it cannot read (a module that
/// failed, a call that threw) has no answer.
fn reader(text: &str) -> Option<String> {
    (!text.contains("# unreadable")).then(|| read_runtime_env(text))
}

#[test]
fn through_a_reader_every_case_gives_its_findings_and_an_unread_env_is_an_error() {
    set_runtime_env_reader(reader);
    // Every case of the corpus, runtime envs and all, as when read here.
    for case in corpus() {
        assert_eq!(
            findings_for(&case.spec),
            case.findings,
            "{}: {}",
            case.file,
            case.name
        );
    }
    // No answer: the runtime env is an error, never passed unread.
    let mut spec: serde_json::Value =
        serde_json::from_str(shared::demo::RAY_EXAMPLE).expect("the example is JSON");
    assert_eq!(findings_for(&spec), vec![]);
    spec["ray"]["runtime_env"] = "pip: [torch]  # unreadable\n".into();
    assert_eq!(
        findings_for(&spec),
        vec![(
            "ray.runtime_env".to_owned(),
            "ray.runtime_env.unread".to_owned()
        )]
    );
}
