//! `berth validate FILE…`: the built binary on spec files, and where its settings come
//! from (flag > variable > config file > default).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("berth-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("temp dir is writable");
    path
}

/// `berth` with no `BERTH_*` variable from the test's environment.
fn berth() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_berth"));
    for var in [
        "BERTH_ADDR",
        "BERTH_DIST",
        "BERTH_CATALOG",
        "BERTH_USER",
        "BERTH_DATA_DIR",
        "BERTH_CONFIG",
        "BERTH_SMTP_HOST",
        "BERTH_SMTP_PORT",
        "BERTH_SMTP_TLS",
        "BERTH_SMTP_USER",
        "BERTH_SMTP_PASSWORD",
        "BERTH_SMTP_PASSWORD_FILE",
        "BERTH_MAIL_FROM",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("RUST_LOG", "warn");
    cmd
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().expect("berth runs");
    (
        status.code().expect("berth exits"),
        String::from_utf8(stdout).expect("UTF-8"),
        String::from_utf8(stderr).expect("UTF-8"),
    )
}

const WRONG_SHAPE: &str = r#"{"compute": {"workers": "two"}}"#;

#[test]
fn a_good_file_passes_and_a_bad_one_exits_1_with_its_findings() {
    let dir = folder("good-bad");
    let good = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let bad = write(&dir, "bad.json", WRONG_SHAPE);
    let (code, out, err) = run(berth().arg("validate").arg(&good));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("good.json: 0 errors"), "{out}");
    // With a byte order mark, as the API takes it.
    let marked = write(
        &dir,
        "marked.json",
        &format!("\u{feff}{}", shared::demo::PYTORCH_EXAMPLE),
    );
    let (code, out, err) = run(berth().arg("validate").arg(&marked));
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = run(berth().arg("validate").arg(&good).arg(&bad));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "error   compute.workers: is not valid: expected a whole number, 0 or more, found the text \"two\" [value.invalid]"
        ),
        "{out}"
    );
}

/// With no file the catalog and settings are checked alone, and what loads but cannot be
/// meant is said; with files, whose quotas they were checked against (lab admin
/// explorer: a catalog could be checked only by starting a server, and the files were
/// checked as the demo's `alice`, unsaid).
#[test]
fn validate_with_no_file_checks_the_catalog_and_names_the_user_checked_as() {
    let dir = folder("catalog-alone");
    let (code, out, err) = run(berth().arg("validate"));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().next(),
        Some("the demo catalog loads: regions 2, clusters 3, specs 8, quota lines 10, warnings 1."),
        "{out}"
    );
    assert!(
        out.contains("\nwarning: one unit of spec `l40s-8g` of cluster `sh-b`"),
        "{out}"
    );
    let mut file: serde_json::Value = serde_json::from_str(shared::demo::CATALOG_FILE).unwrap();
    file["catalog"]["time_zones"]
        .as_array_mut()
        .unwrap()
        .push("Asia/Shangai".into());
    let catalog = write(&dir, "catalog.json", &file.to_string());
    let (code, out, err) = run(berth().arg("validate").arg("--catalog").arg(&catalog));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("warnings 2."), "{out}");
    assert!(
        out.contains(
            "warning: the catalog's time_zones list `Asia/Shangai`, which is no time zone"
        ),
        "{out}"
    );
    let good = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let (code, out, err) = run(berth().arg("validate").arg(&good).args(["--user", "bob"]));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.ends_with("Checked as the user bob, against the demo catalog.\n"),
        "{out}"
    );
    let (_, out, _) = run(berth()
        .arg("validate")
        .arg(&good)
        .args(["--lang", "zh-CN", "--catalog"])
        .arg(&catalog));
    assert!(
        out.ends_with(&format!(
            "以用户 alice 的身份，按 {} 检查。\n",
            catalog.display()
        )),
        "{out}"
    );
}

/// A reader that stops reading (`| head`) ends the command as a SIGPIPE would, 141 and no
/// words: it exited 2, "a file cannot be read", with "Broken pipe" (operator explorer).
#[test]
fn a_reader_gone_before_the_output_ends_it_as_a_closed_pipe_does() {
    let dir = folder("closed-pipe");
    let bad = write(&dir, "bad.json", WRONG_SHAPE);
    let mut child = berth()
        .arg("validate")
        .arg(&bad)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("berth runs");
    // The read end closed before berth writes its first line.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("berth exits");
    assert_eq!(out.status.code(), Some(141), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{out:?}");
}

#[test]
fn yaml_is_read_as_json_and_messages_follow_lang() {
    let dir = folder("yaml");
    let value: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    let good = write(&dir, "ray.yaml", &serde_yaml_ng::to_string(&value).unwrap());
    let (code, out, err) = run(berth().arg("validate").arg(&good));
    assert_eq!(code, 0, "{out}{err}");
    // Told apart by content when the name says nothing.
    let bad = write(&dir, "bad-spec", "compute:\n  workers: two\n");
    let (code, out, _) = run(berth().args(["validate", "--lang", "zh-CN"]).arg(&bad));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("compute.workers: 格式不正确：应为非负整数，实际为文本 \"two\""),
        "{out}"
    );
    let twice = write(&dir, "twice.yml", "version: 1\nversion: 2\n");
    let (code, out, _) = run(berth().arg("validate").arg(&twice));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "the key `version` appears twice in the top-level object [body.duplicate_key]"
        ),
        "{out}"
    );
}

/// A YAML spec written for another tool, or by hand, with several unknown fields:
/// `berth validate` names every one at once, and checks the rest.
#[test]
fn validate_names_every_unknown_field_and_checks_the_rest() {
    let dir = folder("unknown");
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["foo"] = 1.into();
    spec["bar"] = 2.into();
    spec["basic"]["baz"] = 3.into();
    spec["basic"]["name_prefix"] = "Bad_Name".into();
    let file = write(
        &dir,
        "other.yaml",
        &serde_yaml_ng::to_string(&spec).unwrap(),
    );
    let (code, out, _) = run(berth().arg("validate").arg(&file));
    assert_eq!(code, 1, "{out}");
    let named: Vec<&str> = out
        .lines()
        .filter(|line| line.contains("is not a known field; fields here: "))
        .map(|line| {
            line.trim_start_matches("  error   ")
                .split(':')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(named, ["bar", "basic.baz", "foo"], "{out}");
    assert!(out.contains("error   basic.name_prefix: "), "{out}");
    assert!(out.contains("other.yaml: 4 errors"), "{out}");
}

#[test]
fn unreadable_or_malformed_input_exits_2() {
    let dir = folder("unreadable");
    let broken = write(&dir, "broken.json", "{\n  \"version\": 1,\n  oops\n}");
    let bad = write(&dir, "bad.json", WRONG_SHAPE);
    let (code, out, _) = run(berth().arg("validate").arg(&broken).arg(&bad));
    assert_eq!(code, 2, "2 wins over 1: {out}");
    assert!(
        out.contains("broken.json:3:3: the file is not valid JSON"),
        "{out}"
    );
    assert!(out.contains("[body.invalid_json]"), "{out}");
    let (code, out, _) = run(berth().arg("validate").arg(dir.join("missing.json")));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot read the file"), "{out}");
    let dup = write(&dir, "dup.json", r#"{"basic": {"name": "a", "name": "b"}}"#);
    let (code, out, _) = run(berth().arg("validate").arg(&dup));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("[body.duplicate_key]"), "{out}");
}

#[test]
fn json_output_is_one_document_per_file() {
    let dir = folder("json");
    let good = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let bad = write(&dir, "bad.json", WRONG_SHAPE);
    let broken = write(&dir, "broken.json", "{");
    let (code, out, _) = run(berth()
        .args(["validate", "--format", "json"])
        .arg(&good)
        .arg(&bad)
        .arg(&broken));
    assert_eq!(code, 2, "{out}");
    let docs: Value = serde_json::from_str(&out).expect("stdout is JSON");
    let docs = docs.as_array().expect("an array");
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["file"], good.display().to_string());
    assert_eq!(docs[0]["issues"], serde_json::json!([]));
    assert_eq!(docs[0]["plan"]["outcome"]["outcome"], "now");
    assert_eq!(docs[1]["issues"][0]["code"], "value.invalid");
    assert_eq!(docs[1]["issues"][0]["severity"], "error");
    assert_eq!(docs[1]["issues"][0]["path"], "compute.workers");
    assert!(docs[1]["issues"][0]["message"].is_string());
    assert_eq!(docs[2]["error"]["code"], "body.invalid_json");
    assert_eq!(docs[2]["error"]["line"], 1);
}

/// The catalog comes from a flag over a variable over the config file.
#[test]
fn settings_precedence_is_flag_then_variable_then_file() {
    let dir = folder("precedence");
    let spec = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let catalog = write(&dir, "catalog.json", shared::demo::CATALOG_FILE);
    let missing = |name: &str| dir.join(name).display().to_string();
    let config = write(
        &dir,
        "berth.toml",
        &format!("catalog = {:?}\n", missing("from-file.json")),
    );
    // The file alone: its catalog is used (and is missing).
    let (code, _, err) = run(berth()
        .arg("validate")
        .arg(&spec)
        .arg("--config")
        .arg(&config));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("from-file.json"), "{err}");
    // A variable beats the file.
    let (code, out, err) = run(berth()
        .arg("validate")
        .arg(&spec)
        .env("BERTH_CONFIG", &config)
        .env("BERTH_CATALOG", &catalog));
    assert_eq!(code, 0, "{out}{err}");
    // A flag beats the variable.
    let (code, _, err) = run(berth()
        .arg("validate")
        .arg(&spec)
        .env("BERTH_CATALOG", &catalog)
        .arg("--catalog")
        .arg(missing("from-flag.json")));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("from-flag.json"), "{err}");
}

#[test]
fn a_misspelt_config_field_is_named_with_its_line() {
    let dir = folder("misspelt");
    let spec = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let config = write(
        &dir,
        "berth.toml",
        "user = \"alice\"\n[limits]\nbody_size = 10\n",
    );
    let (code, _, err) = run(berth()
        .arg("validate")
        .arg(&spec)
        .arg("--config")
        .arg(&config));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("body_size"), "{err}");
    assert!(err.contains("line 3"), "{err}");
}

/// What `berth serve` on `addr` and the data directory `data` says as it refuses to start.
fn serve_refused(addr: &str, data: &std::path::Path) -> String {
    let output = berth()
        .args(["serve", "--addr", addr, "--dist"])
        .arg(std::env::temp_dir())
        .arg("--data-dir")
        .arg(data)
        .output()
        .expect("berth runs");
    assert!(!output.status.success());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Two servers on one data directory: the second would end the first's replicas as its
/// own leftovers (found by the review), and share its database file. It is refused, and
/// says why.
#[test]
fn a_second_server_on_a_data_directory_in_use_is_refused() {
    let data = super::temp_dir("one-dir");
    let _first = super::Berth::start(&[("BERTH_DATA_DIR", data.as_os_str())]);
    let said = serve_refused("127.0.0.1:0", &data);
    assert!(
        said.contains("another berth server uses the data directory"),
        "{said}"
    );
}

/// Two servers with two data directories on one SQLite file (`--database-url`): they
/// would both migrate it as they start, and both lead, each holding quota in its own
/// memory. SQLite serves one server (README, the configuration's `--database-url`): the
/// second is refused, naming the file and the way out; once the first has stopped, the
/// file serves another server.
#[test]
fn a_second_server_on_a_sqlite_file_in_use_is_refused() {
    let database = super::temp_dir("one-db").join("tasks.db");
    let url = format!("sqlite://{}", database.display());
    let data = super::temp_dir("first-dir");
    let mut first = super::Berth::start(&[
        ("BERTH_DATA_DIR", data.as_os_str()),
        ("BERTH_DATABASE_URL", std::ffi::OsStr::new(&url)),
    ]);
    let said = refused_to_serve(berth().env("BERTH_DATABASE_URL", &url));
    assert!(
        said.contains(&format!(
            "another berth server uses the task database {}",
            database.display()
        )) && said.contains("--database-url"),
        "{said}"
    );
    first.crash();
    let _third = super::Berth::start(&[
        ("BERTH_DATA_DIR", super::temp_dir("third-dir").as_os_str()),
        ("BERTH_DATABASE_URL", std::ffi::OsStr::new(&url)),
    ]);
}

/// What `berth serve` said on stderr when it refused to start, within 30 s (a server
/// that starts instead is killed and the test fails).
fn refused_to_serve(cmd: &mut Command) -> String {
    let data = super::temp_dir("mail-refused");
    let mut child = cmd
        .args(["serve", "--addr", "127.0.0.1:0", "--dist"])
        .arg(std::env::temp_dir())
        .arg("--data-dir")
        .arg(&data)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("berth runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().expect("berth is waited for") {
            assert!(!status.success(), "berth served and ended");
            let output = child.wait_with_output().expect("its stderr");
            return String::from_utf8_lossy(&output.stderr).into_owned();
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("berth served where it should have refused to start");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Mail settings that cannot work stop the server at its start, saying which; the
/// password, read from `BERTH_SMTP_PASSWORD`, is not in what it says.
#[test]
fn mail_settings_that_cannot_work_stop_the_server_without_showing_the_password() {
    const PASSWORD: &str = "hunter2-of-the-relay";
    // A password with no login: the variable is read.
    let said = refused_to_serve(
        berth()
            .args([
                "--smtp-host",
                "127.0.0.1",
                "--mail-from",
                "berth@example.com",
            ])
            .env("BERTH_SMTP_PASSWORD", PASSWORD),
    );
    assert!(said.contains("has no login"), "{said}");
    assert!(!said.contains(PASSWORD), "{said}");
    // The config file's relay and a password file that is not there.
    let dir = folder("mail-file");
    let config = write(
        &dir,
        "berth.toml",
        "smtp_host = \"127.0.0.1\"\nsmtp_user = \"berth\"\nmail_from = \"berth@example.com\"\n",
    );
    let missing = dir.join("no-password-here");
    let said = refused_to_serve(
        berth()
            .arg("--config")
            .arg(&config)
            .env("BERTH_SMTP_PASSWORD_FILE", &missing),
    );
    assert!(said.contains("no-password-here"), "{said}");
}

/// An unreachable PostgreSQL: the server says it connects before it waits, and, when it
/// gives up, why ("connection refused"), not only that sqlx's pool timed out; the
/// password stays masked (operator exploration).
#[test]
fn an_unreachable_database_is_said_with_its_cause() {
    // A port nothing listens on: taken, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let url = format!("postgres://berth:hunter2@127.0.0.1:{port}/tasks");
    let said = refused_to_serve(
        berth()
            .env("RUST_LOG", "info")
            .env("BERTH_DATABASE_URL", &url),
    );
    let masked = format!("postgres://berth:***@127.0.0.1:{port}/tasks");
    assert!(
        said.contains(&format!("connecting to the task database {masked}")),
        "{said}"
    );
    assert!(said.contains("refused"), "{said}");
    assert!(!said.contains("pool timed out"), "{said}");
    assert!(!said.contains("hunter2"), "{said}");
}

/// A file with no YAML in it (empty, blank lines, comments) says so, as an empty JSON
/// file does, not "invalid type: Option value, expected any JSON value" (operator
/// exploration); an empty file with no extension is taken for YAML and says the same.
#[test]
fn an_empty_yaml_file_says_there_is_nothing_in_it() {
    let dir = folder("empty-yaml");
    for (name, text) in [
        ("empty.yaml", ""),
        ("empty", ""),
        ("blank.yml", "\n  \n"),
        ("comments.yaml", "# a spec comes here\n--- # later\n"),
    ] {
        let file = write(&dir, name, text);
        let (code, out, err) = run(berth().arg("validate").arg(&file));
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(
            out.contains(&format!(
                "{name}:1:1: the file is not valid YAML: there is nothing in it"
            )) && out.contains("[body.invalid_yaml]"),
            "{name}: {out}"
        );
        assert!(!out.contains("Option value"), "{name}: {out}");
    }
}

/// A key repeated in a YAML mapping is placed at its repeat, as JSON's is, not at the
/// mapping's first line (operator exploration).
#[test]
fn a_repeated_yaml_key_is_placed_at_its_repeat() {
    let dir = folder("yaml-repeat");
    let top = write(&dir, "top.yaml", "version: 1\nversion: 2\n");
    let (code, out, _) = run(berth().arg("validate").arg(&top));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("top.yaml:2:1: the key `version` appears twice in the top-level object"),
        "{out}"
    );
    let nested = write(
        &dir,
        "nested.yaml",
        "version: 1\nbasic:\n  name: a\n  name: b\n",
    );
    let (code, out, _) = run(berth().arg("validate").arg(&nested));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("nested.yaml:4:3: the key `name` appears twice in basic"),
        "{out}"
    );
}

/// The summary line counts every finding, those past the cap too; the capped ones
/// are left out of the lines below it only (operator exploration: "21 errors" over
/// 300,000).
#[test]
fn the_summary_counts_the_findings_left_out_too() {
    let dir = folder("counts");
    let mut spec: Value = serde_json::from_str(shared::demo::PYTORCH_EXAMPLE).unwrap();
    spec["environment"]["env"] = (0..30)
        .map(|i| serde_json::json!({"name": format!("{i}bad"), "value": "v"}))
        .collect();
    let file = write(&dir, "many.json", &spec.to_string());
    let (code, out, _) = run(berth().arg("validate").arg(&file));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("many.json: 30 errors, 0 warnings"), "{out}");
    assert!(out.contains("… and 10 more findings"), "{out}");
    // `render` says the same of a spec it will not render.
    let output = berth()
        .arg("render")
        .arg(&file)
        .output()
        .expect("berth runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("many.json: 30 errors, 0 warnings"), "{said}");
    // In Chinese, the summary, the severities and the cut are Chinese too.
    let (code, out, _) = run(berth().args(["validate", "--lang", "zh-CN"]).arg(&file));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("many.json：30 个错误，0 个警告，"), "{out}");
    assert!(
        out.contains("  错误      environment.env[0].name: "),
        "{out}"
    );
    assert!(out.contains("  ……另有 10 条同一代码的发现"), "{out}");
    assert!(!out.contains("errors") && !out.contains(" error "), "{out}");
}

/// `-` is standard input, JSON or YAML by its first character, as most tools read it.
#[test]
fn a_dash_reads_the_spec_from_standard_input() {
    use std::io::Write as _;
    // `berth validate` with `args`, `text` on its standard input: its code and output.
    let validate = |args: &[&str], text: &str| {
        let mut child = berth()
            .arg("validate")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("berth runs");
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(text.as_bytes())
            .expect("berth reads its input");
        let output = child.wait_with_output().expect("berth ends");
        let out = String::from_utf8_lossy(&output.stdout).into_owned();
        (output.status.code(), out)
    };
    let value: Value = serde_json::from_str(shared::demo::RAY_EXAMPLE).unwrap();
    for text in [
        shared::demo::PYTORCH_EXAMPLE.to_owned(),
        serde_yaml_ng::to_string(&value).unwrap(),
    ] {
        let (code, out) = validate(&["-"], &text);
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains("-: 0 errors"), "{out}");
    }
    // Named twice, it is read once; the second is refused as such, not as empty.
    let (code, out) = validate(&["-", "-"], shared::demo::PYTORCH_EXAMPLE);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("-: 0 errors"), "{out}");
    assert!(out.contains("standard input (-) is named twice"), "{out}");
}

/// An address without a port says that a port is needed, with an example, not only
/// "invalid socket address" (operator exploration).
#[test]
fn an_address_without_a_port_says_host_and_port() {
    let data = super::temp_dir("addr-no-port");
    let said = serve_refused("127.0.0.1", &data);
    assert!(
        said.contains("cannot listen on 127.0.0.1 (--addr, BERTH_ADDR, addr)")
            && said.contains("host:port, as 127.0.0.1:8080"),
        "{said}"
    );
    // One copied from a browser's bar is told to leave out its scheme.
    let said = serve_refused("http://127.0.0.1:0/", &data);
    assert!(
        said.contains("; write it without the scheme, as 127.0.0.1:0"),
        "{said}"
    );
}

/// A settings variable set to nothing is named as such, not as a flag with no value
/// that no one typed (operator exploration).
#[test]
fn an_empty_settings_variable_is_named() {
    let (code, _, err) = run(berth().arg("validate").arg("-").env("BERTH_CATALOG", ""));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the environment variable BERTH_CATALOG is set but empty: unset it"),
        "{err}"
    );
    assert!(!err.contains("--catalog"), "{err}");
}

/// A data directory the server cannot write names the setting and the way out, not
/// only the file (operator exploration). Its lock is a folder here: a test run as root
/// may write any file.
#[test]
fn a_data_directory_that_cannot_be_written_names_its_setting() {
    let data = super::temp_dir("data-unwritable");
    std::fs::create_dir_all(data.join("berth.lock")).expect("temp dir is writable");
    let said = serve_refused("127.0.0.1:0", &data);
    assert!(
        said.contains(&format!(
            "cannot write {} in the data directory (--data-dir, BERTH_DATA_DIR, data_dir)",
            data.join("berth.lock").display()
        )) && said.contains("or name another"),
        "{said}"
    );
}

/// A config file's relative catalog is read from the directory Berth starts in; a
/// catalog not found there is named with the path that was tried (operator
/// exploration: "cannot read the catalog file cat.json").
#[test]
fn a_relative_catalog_not_found_is_named_with_the_path_tried() {
    let dir = folder("relative-catalog");
    let spec = write(&dir, "good.json", shared::demo::PYTORCH_EXAMPLE);
    let config = write(&dir, "berth.toml", "catalog = \"no-such-catalog.json\"\n");
    let (code, _, err) = run(berth()
        .current_dir(&dir)
        .arg("validate")
        .arg(&spec)
        .arg("--config")
        .arg(&config));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "cannot read the catalog file no-such-catalog.json ({}: a relative path is read from the directory berth starts in)",
            dir.join("no-such-catalog.json").display()
        )),
        "{err}"
    );
}

/// The serve-only settings are `berth`'s and `berth serve`'s, not `validate`'s or
/// `render`'s, whose help listed a listen address and a mail relay they never use
/// (operator exploration); given before or after `serve`, a flag still beats its
/// variable, and the one after `serve` wins.
#[test]
fn serve_settings_belong_to_serve() {
    let (code, out, _) = run(berth().args(["validate", "--help"]));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("--catalog") && out.contains("--config"),
        "{out}"
    );
    for serve_only in [
        "--addr",
        "--dist",
        "--data-dir",
        "--database-url",
        "--smtp-host",
    ] {
        assert!(!out.contains(serve_only), "{serve_only}: {out}");
    }
    let (code, out, _) = run(berth().args(["render", "--help"]));
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("--addr"), "{out}");
    let (code, _, err) = run(berth().args(["validate", "--addr", "127.0.0.1:9", "x.json"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unexpected argument '--addr'"), "{err}");
    // `berth` alone is `berth serve`: its help lists them, and names the identity modes.
    let (code, out, _) = run(berth().arg("--help"));
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("--addr") && out.contains("[env: BERTH_ADDR="),
        "{out}"
    );
    assert!(
        out.contains("in the default identity mode") && !out.contains("until sign-in"),
        "{out}"
    );
    // Which address was taken, told by the error of one with no port.
    let listened = |cmd: &mut Command| {
        let data = super::temp_dir("serve-flags");
        let output = cmd
            .env("BERTH_ADDR", "127.0.0.7")
            .env("BERTH_DIST", std::env::temp_dir())
            .env("BERTH_DATA_DIR", &data)
            .output()
            .expect("berth runs");
        assert!(!output.status.success());
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        ["127.0.0.7", "127.0.0.8", "127.0.0.9"]
            .into_iter()
            .find(|addr| said.contains(&format!("cannot listen on {addr} ")))
            .unwrap_or_else(|| panic!("{said}"))
    };
    assert_eq!(listened(&mut berth()), "127.0.0.7", "the variable");
    assert_eq!(listened(berth().arg("serve")), "127.0.0.7", "the variable");
    assert_eq!(
        listened(berth().args(["--addr", "127.0.0.8"])),
        "127.0.0.8",
        "a flag over the variable"
    );
    assert_eq!(
        listened(berth().args(["--addr", "127.0.0.8", "serve"])),
        "127.0.0.8",
        "a flag before serve over the variable"
    );
    assert_eq!(
        listened(berth().args(["serve", "--addr", "127.0.0.9"])),
        "127.0.0.9",
        "a flag after serve over the variable"
    );
    assert_eq!(
        listened(berth().args(["--addr", "127.0.0.8", "serve", "--addr", "127.0.0.9"])),
        "127.0.0.9",
        "the flag after serve"
    );
}

/// The data directory berth makes is its user's alone: its database holds every hidden
/// env value, and was readable by every user of the machine (security explorer).
#[test]
fn the_data_directory_made_is_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let data = super::temp_dir("private").join("made").join("here");
    let _berth = super::Berth::start(&[("BERTH_DATA_DIR", data.as_os_str())]);
    for dir in [data.parent().unwrap(), &data] {
        let mode = std::fs::metadata(dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", dir.display());
    }
}
