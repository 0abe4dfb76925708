//! `berth validate FILE…`: the findings `POST /api/v1/validate` would answer, for spec
//! files on disk; `berth render FILE…`: the objects `POST /api/v1/render` would answer,
//! as one YAML stream.
//!
//! A file is read as YAML when it ends in `.yaml` or `.yml`, as JSON when it ends in
//! `.json`, otherwise as JSON when its first character opens an object or a list and as
//! YAML else. The file `-` is standard input, told apart by its first character. YAML is turned into JSON text first, so both go through the same
//! `shared::check_json`. Either is read strictly: an object with a key twice is refused,
//! as the API refuses it.
//!
//! Exit codes: 0 when no file has an error finding, 1 when one has, 2 when a file cannot
//! be read or is not JSON or YAML (this wins over 1).

use crate::config::{Format, RenderArgs, ValidateArgs};
use crate::error::cap_findings;
use crate::json::{JsonError, check_strict, scan};
use crate::state::AppState;
use serde_json::{Value, json};
use shared::Lang;
use shared::validate::LocalizedCheck;
use std::io::Write;
use std::path::Path;

/// Exit code when every file passed.
pub const EXIT_OK: u8 = 0;
/// Exit code when a file has an error finding.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code when a file cannot be read or parsed, or the catalog cannot be loaded.
pub const EXIT_UNREADABLE: u8 = 2;

/// What one file gave.
enum Outcome {
    /// Its findings, capped as the API caps them, and how many it has of each severity
    /// before the cap.
    Checked(Box<LocalizedCheck>, Counts),
    /// It could not be read or is not JSON/YAML.
    Unreadable {
        code: &'static str,
        detail: String,
        position: Option<(usize, usize)>,
    },
}

/// How many findings of each severity a file has, counted before the cap: the summary
/// line counted only the findings shown, "21 errors" over 300,000 (operator
/// exploration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    errors: usize,
    warnings: usize,
    infos: usize,
}

impl Counts {
    fn of(issues: &[shared::validate::LocalizedIssue]) -> Counts {
        let mut counts = Counts::default();
        for issue in issues {
            match issue.severity {
                shared::Severity::Error => counts.errors += 1,
                shared::Severity::Warning => counts.warnings += 1,
                shared::Severity::Info => counts.infos += 1,
            }
        }
        counts
    }
}

/// A checked file's outcome: its findings capped, counted before.
fn checked(mut check: LocalizedCheck, lang: Lang, maintained: &[shared::task::Tag]) -> Outcome {
    let counts = Counts::of(&check.issues);
    (check.issues, check.truncated) = cap_findings(check.issues);
    shared::messages::with_maintained(&mut check.issues, lang, maintained);
    Outcome::Checked(Box::new(check), counts)
}

/// Checks every file against the state's catalog and prints the findings to `out`;
/// returns the exit code.
///
/// # Errors
///
/// Only when writing to `out` fails.
pub fn validate(state: &AppState, args: &ValidateArgs, out: &mut dyn Write) -> std::io::Result<u8> {
    let lang = Lang::from(args.lang);
    let user = state.user();
    if args.files.is_empty() {
        return check_catalog(state, args.format, lang, out);
    }
    let mut code = EXIT_OK;
    let mut documents = Vec::new();
    let mut stdin_read = false;
    for file in &args.files {
        let outcome = match read_once(file, &mut stdin_read) {
            Ok(text) => {
                let check = checked(
                    shared::check_json(&text, &state.catalog, &state.usage, &user).localized(lang),
                    lang,
                    &state.catalog.tags.maintained,
                );
                if let Outcome::Checked(_, counts) = &check
                    && counts.errors > 0
                {
                    code = code.max(EXIT_FINDINGS);
                }
                check
            }
            Err(unreadable) => {
                code = EXIT_UNREADABLE;
                unreadable
            }
        };
        match args.format {
            Format::Text => print_text(out, file, &outcome, lang)?,
            Format::Json => documents.push(as_json(file, outcome)),
        }
    }
    match args.format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, &Value::Array(documents))?;
            writeln!(out)?;
        }
        // Whose quotas and groups the files were checked against (lab admin explorer:
        // checked as the demo's `alice`, unsaid).
        Format::Text => writeln!(
            out,
            "{}",
            shared::messages::text(
                lang,
                "ui.cli.checked_as",
                &[("user", user.name), ("catalog", catalog_name(state, lang))]
            )
        )?,
    }
    Ok(code)
}

/// The catalog the state was loaded from, as the command's lines name it.
fn catalog_name(state: &AppState, lang: Lang) -> String {
    match &state.config.catalog {
        Some(path) => path.display().to_string(),
        None => shared::messages::text(lang, "ui.cli.demo_catalog", &[]),
    }
}

/// `berth validate` with no file: the catalog and settings loaded (a catalog that
/// cannot is refused before this, with its reason), what they hold, and what in them
/// loads but cannot be meant (lab admin explorer: a catalog could be checked only by
/// starting a server and reading its log).
fn check_catalog(
    state: &AppState,
    format: Format,
    lang: Lang,
    out: &mut dyn Write,
) -> std::io::Result<u8> {
    let catalog = &state.catalog;
    let warnings = state.warnings();
    let clusters = catalog
        .regions
        .iter()
        .map(|r| r.clusters.len())
        .sum::<usize>();
    let specs = catalog
        .regions
        .iter()
        .flat_map(|r| &r.clusters)
        .map(|c| c.specs.len())
        .sum::<usize>();
    match format {
        Format::Json => {
            let document = json!({
                "catalog": catalog_name(state, Lang::En),
                "regions": catalog.regions.len(),
                "clusters": clusters,
                "specs": specs,
                "quotas": catalog.quotas.len(),
                "warnings": warnings,
            });
            serde_json::to_writer_pretty(&mut *out, &document)?;
            writeln!(out)?;
        }
        Format::Text => {
            let said = shared::messages::text(
                lang,
                "ui.cli.catalog_loads",
                &[
                    ("catalog", catalog_name(state, lang)),
                    ("regions", catalog.regions.len().to_string()),
                    ("clusters", clusters.to_string()),
                    ("specs", specs.to_string()),
                    ("quotas", catalog.quotas.len().to_string()),
                    ("warnings", warnings.len().to_string()),
                ],
            );
            writeln!(out, "{said}")?;
            // In English, as the server's log says them.
            for warning in &warnings {
                writeln!(out, "warning: {warning}")?;
            }
        }
    }
    Ok(EXIT_OK)
}

/// Renders every file and prints the objects to `out` as one YAML stream (each object
/// a `---` document), in file order; findings of a spec with errors and unreadable
/// files go to `err`. Returns the exit code: 0 when every file rendered, 1 when a spec
/// has errors, 2 when a file cannot be read or rendered (this wins over 1).
///
/// # Errors
///
/// Only when writing fails.
pub fn render(
    state: &AppState,
    args: &RenderArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<u8> {
    let lang = Lang::from(args.lang);
    let user = state.user();
    let mut code = EXIT_OK;
    let mut stdin_read = false;
    for file in &args.files {
        let text = match read_once(file, &mut stdin_read) {
            Ok(text) => text,
            Err(unreadable) => {
                print_text(err, file, &unreadable, lang)?;
                code = EXIT_UNREADABLE;
                continue;
            }
        };
        let check = shared::check_json(&text, &state.catalog, &state.usage, &user);
        if check.issues.has_errors() {
            let check = checked(check.localized(lang), lang, &state.catalog.tags.maintained);
            print_text(err, file, &check, lang)?;
            code = code.max(EXIT_FINDINGS);
            continue;
        }
        let spec = shared::parse_spec(&text)
            .expect("a spec without error findings parses")
            .normalized();
        let spec = crate::routes::render::as_it_would_run(&spec, check.plan.as_ref());
        match shared::manifest::preview(&spec, &state.catalog, &user) {
            Ok(objects) => {
                writeln!(out, "# {}", file.display())?;
                for object in &objects {
                    let yaml = serde_yaml_ng::to_string(object).map_err(std::io::Error::other)?;
                    write!(out, "---\n{yaml}")?;
                }
            }
            Err(why) => {
                writeln!(err, "{}: cannot render: {why}", file.display())?;
                code = EXIT_UNREADABLE;
            }
        }
    }
    Ok(code)
}

/// The file named `-`: standard input, as most tools read it.
pub const STDIN: &str = "-";

/// [`read_json`], refusing standard input named again: read once, it was then said to
/// have nothing in it (review).
fn read_once(file: &Path, stdin_read: &mut bool) -> Result<String, Outcome> {
    if file == Path::new(STDIN) && std::mem::replace(stdin_read, true) {
        return Err(Outcome::Unreadable {
            code: "file.unreadable",
            detail: "standard input (-) is named twice; it can be read once".to_owned(),
            position: None,
        });
    }
    read_json(file)
}

/// The file as strict JSON text; `-` is standard input, read by its first character.
fn read_json(file: &Path) -> Result<String, Outcome> {
    let bytes = if file == Path::new(STDIN) {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes).map(|_| bytes)
    } else {
        std::fs::read(file)
    }
    .map_err(|err| Outcome::Unreadable {
        code: "file.unreadable",
        detail: format!("cannot read the file: {err}"),
        position: None,
    })?;
    let mut text = String::from_utf8(bytes).map_err(|_| Outcome::Unreadable {
        code: "file.unreadable",
        detail: "the file is not UTF-8 text".to_owned(),
        position: None,
    })?;
    // A byte order mark is read past, as the API reads past one (editors and PowerShell
    // write one): the file the API took was refused here (README exploration).
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    if is_yaml(file, &text) {
        yaml_to_json(&text)
    } else {
        check_strict(&text).map_err(|err| {
            let code = match err {
                JsonError::DuplicateKey { .. } => "body.duplicate_key",
                JsonError::Syntax { .. } => "body.invalid_json",
            };
            Outcome::Unreadable {
                code,
                position: Some(err.position()),
                detail: err.to_string().replace("the request body", "the file"),
            }
        })?;
        Ok(text)
    }
}

fn is_yaml(file: &Path, text: &str) -> bool {
    if file == Path::new(STDIN) {
        return !text.trim_start().starts_with(['{', '[']);
    }
    match file.extension().and_then(|e| e.to_str()) {
        Some("yaml" | "yml") => true,
        Some("json") => false,
        _ => !text.trim_start().starts_with(['{', '[']),
    }
}

/// YAML text as JSON text, refusing a mapping with a key twice, and a file with no
/// YAML document, which the YAML reader called "invalid type: Option value, expected
/// any JSON value" (operator exploration).
fn yaml_to_json(text: &str) -> Result<String, Outcome> {
    if is_blank_yaml(text) {
        return Err(Outcome::Unreadable {
            code: "body.invalid_yaml",
            detail: "the file is not valid YAML: there is nothing in it (only blank lines or \
                     comments); write the spec as a YAML mapping"
                .to_owned(),
            position: Some((1, 1)),
        });
    }
    let unreadable = |err: serde_yaml_ng::Error, duplicate: Option<(String, String)>| {
        let position = err.location().map(|l| (l.line(), l.column()));
        let (code, detail) = match duplicate {
            Some((key, object)) => (
                "body.duplicate_key",
                format!("the key `{key}` appears twice in {object}"),
            ),
            None => (
                "body.invalid_yaml",
                format!("the file is not valid YAML: {err}"),
            ),
        };
        Outcome::Unreadable {
            code,
            detail,
            position,
        }
    };
    scan(serde_yaml_ng::Deserializer::from_str(text)).map_err(|(e, d)| unreadable(e, d))?;
    let value: Value = serde_yaml_ng::from_str(text).map_err(|e| unreadable(e, None))?;
    Ok(value.to_string())
}

/// Whether `text` holds no YAML value: only blank lines, comments and document markers.
fn is_blank_yaml(text: &str) -> bool {
    text.lines().all(|line| {
        // A comment after a document marker (`--- # spec`) is still nothing.
        let line = line.split_once(" #").map_or(line, |(head, _)| head).trim();
        line.is_empty() || line.starts_with('#') || line == "---" || line == "..."
    })
}

/// A file's findings as lines, in `lang`: Chinese said its summary, severities and cut
/// in English (operator exploration). English keeps the words scripts already read.
fn print_text(
    out: &mut dyn Write,
    file: &Path,
    outcome: &Outcome,
    lang: Lang,
) -> std::io::Result<()> {
    let name = file.display();
    match outcome {
        Outcome::Unreadable {
            code,
            detail,
            position,
        } => match position {
            Some((line, column)) => writeln!(out, "{name}:{line}:{column}: {detail} [{code}]"),
            None => writeln!(out, "{name}: {detail} [{code}]"),
        },
        Outcome::Checked(check, counts) => {
            match lang {
                Lang::En => writeln!(
                    out,
                    "{name}: {} errors, {} warnings, {} infos",
                    counts.errors, counts.warnings, counts.infos,
                )?,
                Lang::Zh => {
                    let count = |key: &str, n: usize| {
                        shared::messages::text(lang, key, &[("count", n.to_string())])
                    };
                    writeln!(
                        out,
                        "{name}：{}，{}，{}",
                        count("ui.form.count.errors", counts.errors),
                        count("ui.form.count.warnings", counts.warnings),
                        count("ui.form.count.hints", counts.infos),
                    )?;
                }
            }
            for issue in &check.issues {
                let path = issue.path.to_string();
                let path = if path.is_empty() { "(spec)" } else { &path };
                let severity = match lang {
                    Lang::En => issue.severity.as_str().to_owned(),
                    Lang::Zh => shared::messages::text(
                        lang,
                        &format!("ui.form.severity.{}", issue.severity.as_str()),
                        &[],
                    ),
                };
                writeln!(
                    out,
                    "  {severity:<7} {path}: {} [{}]",
                    issue.message,
                    issue.code.code()
                )?;
            }
            if check.truncated > 0 {
                match lang {
                    Lang::En => writeln!(
                        out,
                        "  … and {} more findings of the same codes",
                        check.truncated
                    )?,
                    Lang::Zh => writeln!(out, "  ……另有 {} 条同一代码的发现", check.truncated)?,
                }
            }
            Ok(())
        }
    }
}

fn as_json(file: &Path, outcome: Outcome) -> Value {
    let name = file.display().to_string();
    match outcome {
        Outcome::Checked(check, _) => {
            let mut value = json!({ "file": name });
            if let (Value::Object(map), Value::Object(check)) =
                (&mut value, serde_json::to_value(*check).unwrap_or_default())
            {
                map.extend(check);
            }
            value
        }
        Outcome::Unreadable {
            code,
            detail,
            position,
        } => json!({
            "file": name,
            "error": {
                "code": code,
                "detail": detail,
                "line": position.map(|p| p.0),
                "column": position.map(|p| p.1),
            }
        }),
    }
}
