//! The real `berth` binary on a free port, over real HTTP.

#[test]
fn the_server_answers_every_corpus_case_exactly_as_the_crate_does() {
    let data = super::temp_dir("http-data");
    let server = super::Berth::start(&[("BERTH_DATA_DIR", data.as_os_str())]);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let catalog = shared::demo::catalog();
    let user = shared::demo::user();
    let usage = shared::demo::usage();
    let cases = shared::demo::corpus();
    assert!(cases.len() > 50, "the corpus is loaded");
    for case in cases {
        let mut response = agent
            .post(&format!("{}/api/v1/validate", server.url))
            .header("content-type", "application/json")
            .send(case.spec.to_string())
            .expect("the server answers");
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .expect("the answer is readable");
        let body: serde_json::Value = serde_json::from_str(&text).expect("the answer is JSON");
        let expected = match shared::parse_value(case.spec.clone()) {
            Ok(spec) => (200, {
                let mut check =
                    shared::check(&spec, &catalog, &usage, &user).localized(shared::Lang::En);
                // The API's words for a tag not maintained list the maintained ones.
                shared::messages::with_maintained(
                    &mut check.issues,
                    shared::Lang::En,
                    &catalog.tags.maintained,
                );
                serde_json::to_value(check).unwrap()
            }),
            Err(issues) => (
                422,
                serde_json::to_value(issues.localized(shared::Lang::En)).unwrap(),
            ),
        };
        let answered = if status == 200 {
            body
        } else {
            body["issues"].clone()
        };
        assert_eq!((status, answered), expected, "{}: {}", case.file, case.name);
    }
}
