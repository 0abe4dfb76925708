//! Export of the spec as YAML (or JSON) and import from either, checked like any input.
//!
//! The export writes a small YAML subset (block mappings and lists, double-quoted or
//! literal strings) that any YAML reader gives back as the same JSON; the import reads
//! YAML through `shared::yaml_spec`, whose reader is the validator package's YAML module,
//! fetched beside the console (`crate::yaml`), so the console's own wasm carries none.

use serde_json::Value;
use shared::yaml_spec::YamlSpecError;
use shared::{Report, TaskSpec};
use std::fmt::Write;

/// The spec as the exports write it, fields in the spec's order; a PyTorchJob's without
/// the RayJob settings while they are as the type's switch leaves them: a whole `ray:`
/// block of defaults read as settings the task uses (explorer). Read back, they are the
/// same.
fn exported(spec: &TaskSpec) -> Value {
    // Through JSON text: the console already has that serializer and `shared::read`.
    let mut value = serde_json::to_string(spec)
        .ok()
        .and_then(|text| shared::read::from_json(&text).ok())
        .unwrap_or(Value::Null);
    if !spec.is_ray()
        && spec.ray == shared::task::RaySettings::default()
        && let Value::Object(fields) = &mut value
    {
        fields.remove("ray");
    }
    value
}

/// Where two specs differ, field by field ([`Compared`]): each leaf's path (as findings
/// write them: `compute.workers`, `environment.env[2].value`) with its value in `a` and
/// in `b`, in the specs' order (`a`'s, each field only `b` has after the field it follows
/// there). A list of named items (env vars by name, tags by key, mounts by their path,
/// alerts by all they say) is paired by name, not by row: one var removed read as every
/// later var renamed (recheck); an item one spec lacks is one row (`name=value`,
/// `id:path`). A value masked in either spec is not compared.
pub fn differences(a: &TaskSpec, b: &TaskSpec) -> Compared {
    let (mut left, mut right) = (Vec::new(), Vec::new());
    leaves(&exported(a), "", "", None, &mut left);
    leaves(&exported(b), "", "", None, &mut right);
    let mut order: Vec<&str> = left.iter().map(|l| l.key.as_str()).collect();
    let mut after: Option<usize> = None;
    for leaf in &right {
        match order.iter().position(|o| *o == leaf.key) {
            Some(at) => after = Some(at),
            None => {
                let at = after.map_or(0, |a| a + 1);
                order.insert(at, &leaf.key);
                after = Some(at);
            }
        }
    }
    let find = |side: &[Leaf], key: &str| side.iter().position(|l| l.key == key);
    let has_item = |side: &[Leaf], item: &str| side.iter().any(|l| l.head && l.key == item);
    let mut compared = Compared::default();
    for key in order {
        let (mine, theirs) = (find(&left, key), find(&right, key));
        let leaf = match (mine, theirs) {
            (Some(i), _) => &left[i],
            (None, Some(i)) => &right[i],
            (None, None) => continue,
        };
        // A named item both have is compared field by field; one only one has, as a
        // whole, in one row.
        let both = |item: &str| has_item(&left, item) && has_item(&right, item);
        let asked = if leaf.head {
            !both(&leaf.key)
        } else {
            leaf.item.as_deref().is_none_or(both)
        };
        let text = |side: &[Leaf], at: Option<usize>| at.map(|i| side[i].text.clone());
        let (mine_text, theirs_text) = (text(&left, mine), text(&right, theirs));
        if !asked || mine_text == theirs_text {
            continue;
        }
        let masked = |t: &Option<String>| t.as_deref() == Some(shared::task::HIDDEN_VALUE_MASK);
        if masked(&mine_text) || masked(&theirs_text) {
            compared.masked = true;
            continue;
        }
        compared.fields.push(Difference {
            path: leaf.path.clone(),
            mine: mine_text,
            theirs: theirs_text,
        });
    }
    compared
}

/// What [`differences`] found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compared {
    /// The fields that differ.
    pub fields: Vec<Difference>,
    /// Some values were masked in one spec or both, and not compared.
    pub masked: bool,
}

/// One field two specs give otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Where it is, in the spec that has it (the first's when both do).
    pub path: String,
    /// Its value in the first spec; none where it has no such field.
    pub mine: Option<String>,
    /// Its value in the second.
    pub theirs: Option<String>,
}

/// One leaf of a spec: the key it is paired by, its path, its value as text; a named
/// item's own row (`head`), and the named item a leaf is in.
struct Leaf {
    key: String,
    path: String,
    text: String,
    head: bool,
    item: Option<String>,
}

/// Each leaf of `value`, at `path`, paired by `key`, within named item `item`: an empty
/// list or mapping is a leaf of its own; a named item of a list ([`named`]) is paired by
/// its name, not its row, and has a row of its own for a spec that lacks it. An item
/// named as one before it in its list is paired by its name and its count (`#2`).
fn leaves(value: &Value, key: &str, path: &str, item: Option<&str>, out: &mut Vec<Leaf>) {
    let plain = |text: String| Leaf {
        key: key.to_owned(),
        path: path.to_owned(),
        text,
        head: false,
        item: item.map(str::to_owned),
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            let mut names: Vec<String> = Vec::new();
            for (i, entry) in items.iter().enumerate() {
                let at = format!("{path}[{i}]");
                match named(entry) {
                    Some((name, text)) => {
                        let before = names.iter().filter(|n| **n == name).count();
                        let keyed = match before {
                            0 => format!("{key}[={name}]"),
                            n => format!("{key}[={name}#{}]", n + 1),
                        };
                        names.push(name);
                        out.push(Leaf {
                            key: keyed.clone(),
                            path: at.clone(),
                            text,
                            head: true,
                            item: item.map(str::to_owned),
                        });
                        leaves(entry, &keyed, &at, Some(&keyed), out);
                    }
                    None => leaves(entry, &format!("{key}[{i}]"), &at, item, out),
                }
            }
        }
        Value::Object(fields) if !fields.is_empty() => {
            for (name, field) in fields {
                let join = |base: &str| {
                    if base.is_empty() {
                        name.clone()
                    } else {
                        format!("{base}.{name}")
                    }
                };
                leaves(field, &join(key), &join(path), item, out);
            }
        }
        Value::String(text) => out.push(plain(text.clone())),
        other => {
            let mut text = String::new();
            compact_json(other, &mut text);
            out.push(plain(text));
        }
    }
}

/// The name a list's item is paired by, and its text as one row, for an item that has
/// one: an env var's `name` and a tag's `key` (`name=value`); a mount's path, as a
/// spec mounts one thing at a path (`id:path`, as a container's volume is written); an
/// alert's event, threshold, channel and target together, as a spec's alerts are a set
/// (`failed · email · a@example.com`).
fn named(item: &Value) -> Option<(String, String)> {
    let text = |field: &str| item.get(field).and_then(Value::as_str);
    if let Some(name) = text("name").or_else(|| text("key")) {
        let shown = text("value").map_or_else(|| name.to_owned(), |v| format!("{name}={v}"));
        return Some((name.to_owned(), shown));
    }
    if let (Some(id), Some(path)) = (text("id"), text("path")) {
        return Some((path.to_owned(), format!("{id}:{path}")));
    }
    if item.get("event").is_some() && item.get("channel").is_some() {
        let mut shown = String::new();
        for field in ["event", "threshold", "channel", "target"] {
            let part = match item.get(field) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => continue,
            };
            if !shown.is_empty() {
                shown.push_str(" · ");
            }
            shown.push_str(&part);
        }
        return Some((shown.clone(), shown));
    }
    None
}

/// The spec as YAML ([`exported`]).
pub fn to_yaml(spec: &TaskSpec) -> String {
    value_to_yaml(&exported(spec))
}

/// The spec as JSON ([`exported`]: the JSON export kept the `ray` block the YAML one
/// leaves out), laid out as serde_json's `to_string_pretty` lays it out.
pub fn to_json(spec: &TaskSpec) -> String {
    let mut compact = String::new();
    compact_json(&exported(spec), &mut compact);
    pretty_json(&compact)
}

/// `value` as compact JSON text, as serde_json writes it but for what [`unprintable`]
/// escapes; its `Value` writer is not in the bundle, its string writer is.
fn compact_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        // With what shows as nothing escaped, as the YAML export has it (review: a
        // direction override still turned a path around in the JSON file).
        Value::String(s) => out.push_str(&quoted(s)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact_json(item, out);
            }
            out.push(']');
        }
        Value::Object(fields) => {
            out.push('{');
            for (i, (key, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&quoted(key));
                out.push(':');
                compact_json(item, out);
            }
            out.push('}');
        }
    }
}

/// Compact JSON text laid out as `serde_json::to_string_pretty` writes it (two spaces
/// a level, `"key": value`, `{}` and `[]` when empty). Why not that writer: it is a
/// second copy of the spec's serializer in the bundle (BENCHMARKS.md, console bundle),
/// and the compact one is there anyway.
pub fn pretty_json(compact: &str) -> String {
    fn newline(out: &mut String, depth: usize) {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    }
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                match chars.next_if(|next| matches!(next, '}' | ']')) {
                    Some(close) => out.push(close),
                    None => {
                        depth += 1;
                        newline(&mut out, depth);
                    }
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// Any JSON value as a YAML block (the rendered Kubernetes objects).
pub fn value_to_yaml(value: &Value) -> String {
    let mut out = String::new();
    block(value, 0, &mut out);
    out
}

/// Writes `value` as the body of a block at `indent` spaces.
fn block(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, item) in map {
                let _ = write!(out, "{pad}{}:", scalar_key(key));
                nested(item, indent, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                let _ = write!(out, "{pad}-");
                match item {
                    // A mapping in a list starts on the dash's line.
                    Value::Object(map) if !map.is_empty() => {
                        let mut inner = String::new();
                        block(item, indent + 2, &mut inner);
                        out.push(' ');
                        out.push_str(inner.trim_start());
                    }
                    _ => nested(item, indent, out),
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", inline(other, indent));
        }
    }
}

/// Writes the value of a `key:` or `-` whose line is already started.
fn nested(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            block(value, indent + 2, out);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            block(value, indent + 2, out);
        }
        other => {
            let _ = writeln!(out, " {}", inline(other, indent));
        }
    }
}

fn inline(value: &Value, indent: usize) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s, indent),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

fn scalar_key(key: &str) -> String {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        key.to_owned()
    } else {
        quoted(key)
    }
}

/// A string as a literal block when it is several plain lines (commands, runtime
/// envs read best that way), empty lines between them too (a runtime env's sections
/// were exported as one quoted line of escapes: explorer), else double-quoted with
/// JSON's escapes (valid YAML).
fn string(s: &str, indent: usize) -> String {
    let literal = s.contains('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && s.trim_end_matches('\n').len() + 1 >= s.len()
        && s.lines().all(|l| l == l.trim_end())
        && !s
            .chars()
            .any(|c| (c.is_control() && c != '\n') || unprintable(c));
    if !literal {
        return quoted(s);
    }
    let chomp = if s.ends_with('\n') { "|" } else { "|-" };
    let pad = " ".repeat(indent + 2);
    let mut out = String::from(chomp);
    for line in s.trim_end_matches('\n').split('\n') {
        // An empty line is written empty: spaces on it would be text past the block's
        // indentation once a reader takes it from a later line.
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = write!(out, "\n{pad}{line}");
        }
    }
    out
}

fn quoted(s: &str) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    if !json.chars().any(unprintable) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if unprintable(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// What JSON writes as it is but YAML does not allow in its text (DEL, the C1 controls,
/// U+FFFE, U+FFFF) or reads as a line break (NEL, U+2028, U+2029): a reader refuses the
/// first, and folds the second inside quotes. JSON's `\uXXXX` escape is YAML's too. And
/// what shows as nothing or turns the text around it (zero-width characters, direction
/// marks, embeddings, overrides and isolates, the soft hyphen): a mount path written
/// `/mnt/data/\u{202e}cba` read as `/mnt/data/abc` in the spec a colleague reviews
/// (security explorer); escaped, it reads as what it is.
fn unprintable(c: char) -> bool {
    matches!(
        c,
        '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{fffe}' | '\u{ffff}'
    ) || shared::terminal::is_invisible_mark(c)
}

/// Why an import was refused: the text does not parse, or it is not a spec (the
/// findings name the fields, as the server's 422 does).
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// Neither JSON nor YAML; the parser's message.
    Syntax(String),
    /// Not exactly one YAML document.
    Documents(usize),
    /// A YAML key that is not text, or an alias.
    NotPlain,
    /// A document of the wrong shape.
    Shape(Report),
    /// YAML, and the YAML reader (the module fetched beside the console) did not load.
    Unread,
    /// A spec of a format version this console does not read.
    Version(u32),
    /// A Kubernetes object (`apiVersion` and `kind` at its top), not a spec: someone
    /// bringing their PyTorchJob or RayJob YAML was told only that four fields were
    /// unknown (migrant explorer).
    Manifest,
    /// A file that cannot be taken as a spec's text: its refusal's message key
    /// (`ui.form.import.file_*`).
    File(&'static str),
}

impl ImportError {
    /// The refusal in plain words (the findings of a wrong shape show as findings).
    pub fn message(&self, lang: shared::Lang) -> String {
        use shared::messages::text;
        match self {
            // The JSON parser's usual words are said in the reader's language; others
            // (rarer ones, the YAML reader's) are English: the place is said in the
            // reader's language, and the words follow as they came.
            ImportError::Syntax(detail) => match place(detail) {
                Some((line, column, words))
                    if let Some(reason) = json_reason(words).or_else(|| yaml_reason(words)) =>
                {
                    text(
                        lang,
                        "ui.form.import.syntax_at#known",
                        &[
                            ("line", line.to_string()),
                            ("column", column.to_string()),
                            ("reason", text(lang, reason, &[])),
                        ],
                    )
                }
                Some((line, column, words)) => text(
                    lang,
                    "ui.form.import.syntax_at",
                    &[
                        ("line", line.to_string()),
                        ("column", column.to_string()),
                        ("detail", words.to_owned()),
                    ],
                ),
                None => text(lang, "ui.form.import.syntax", &[("detail", detail.clone())]),
            },
            ImportError::Documents(count) => text(
                lang,
                "ui.form.import.documents",
                &[("count", count.to_string())],
            ),
            ImportError::NotPlain => text(lang, "ui.form.import.not_plain", &[]),
            ImportError::File(key) => text(lang, key, &[]),
            ImportError::Unread => text(lang, "ui.form.import.unread", &[]),
            ImportError::Manifest => text(lang, "ui.form.import.manifest", &[]),
            // The rules' own words for it (`spec.version.unsupported`).
            ImportError::Version(found) => {
                let said = shared::IssueCode::SpecVersionUnsupported {
                    found: *found,
                    supported: shared::task::SPEC_VERSION,
                }
                .message(lang);
                text(lang, "ui.form.import.syntax", &[("detail", said)])
            }
            ImportError::Shape(report) => text(
                lang,
                "ui.form.import.shape",
                &[("count", report.issues().len().to_string())],
            ),
        }
    }
}

/// The message key for what serde_json says of text that is not JSON, for the mistakes
/// people make by hand (its `ErrorCode`s' words).
fn json_reason(words: &str) -> Option<&'static str> {
    Some(match words {
        "EOF while parsing a list"
        | "EOF while parsing an object"
        | "EOF while parsing a value" => "ui.form.import.json.eof",
        "EOF while parsing a string" => "ui.form.import.json.eof_string",
        "expected `:`" => "ui.form.import.json.colon",
        "expected `,` or `]`" => "ui.form.import.json.comma_bracket",
        "expected `,` or `}`" => "ui.form.import.json.comma_brace",
        "expected value" | "expected ident" => "ui.form.import.json.value",
        "key must be a string" => "ui.form.import.json.key",
        "trailing comma" => "ui.form.import.json.trailing_comma",
        "trailing characters" => "ui.form.import.json.trailing",
        "invalid number" | "number out of range" => "ui.form.import.json.number",
        "invalid escape" => "ui.form.import.json.escape",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "ui.form.import.json.control"
        }
        _ => return None,
    })
}

/// The message key for what the YAML reader (yaml-rust2) says of text that is not YAML,
/// for the mistakes people make by hand: its words came in English inside a Chinese
/// sentence, and none said "indent with spaces" (migrant explorer).
fn yaml_reason(words: &str) -> Option<&'static str> {
    Some(match words {
        "tabs disallowed within this context (block indentation)"
        | "tabs disallowed in this context"
        | "tab cannot be used as indentation"
        | "while scanning a plain scalar, found a tab"
        | "a block scalar content cannot start with a tab" => "ui.form.import.yaml.tab",
        "mapping values are not allowed in this context" => "ui.form.import.yaml.colon",
        "while parsing a block mapping, did not find expected key"
        | "while parsing a block collection, did not find expected '-' indicator"
        | "invalid indentation" => "ui.form.import.yaml.indent",
        // Single- or double-quoted alike: yaml-rust2 says the same of both.
        "while scanning a quoted scalar, found unexpected end of stream" => {
            "ui.form.import.yaml.quote"
        }
        "while parsing a flow mapping, did not find expected ',' or '}'" => {
            "ui.form.import.json.comma_brace"
        }
        "while parsing a flow sequence, expected ',' or ']'" => "ui.form.import.json.comma_bracket",
        "comments must be separated from other tokens by whitespace" => {
            "ui.form.import.yaml.comment"
        }
        "':' must be followed by a valid YAML whitespace"
        | "'-' must be followed by a valid YAML whitespace" => "ui.form.import.yaml.space_after",
        _ => return None,
    })
}

/// Where the caret stands at `line` and `column` (each from 1, a column of characters)
/// of `text`, as a text box counts it (UTF-16 units); past the text's end at its end.
pub fn caret_at(text: &str, line: usize, column: usize) -> u32 {
    let mut offset = 0;
    for (i, row) in text.split('\n').enumerate() {
        if i + 1 == line {
            offset += row
                .chars()
                .take(column.saturating_sub(1))
                .map(char::len_utf16)
                .sum::<usize>();
            return u32::try_from(offset).unwrap_or(u32::MAX);
        }
        offset += row.encode_utf16().count() + 1;
    }
    u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX)
}

/// Where `key` stands as a mapping's key in `text` (YAML's `key:`, in a flow mapping
/// too, or JSON's `"key":`), as a line and a column of characters from 1, when it stands
/// there once; `None` when not, or more than once.
pub fn key_place(text: &str, key: &str) -> Option<(usize, usize)> {
    if key.is_empty() {
        return None;
    }
    let mut found = None;
    for (i, row) in text.split('\n').enumerate() {
        let mut from = 0;
        while let Some(at) = row[from..].find(key).map(|at| at + from) {
            from = at + key.len();
            let before = row[..at].chars().next_back();
            let quoted = matches!(before, Some('"' | '\''));
            let after = &row[from..];
            let after = if quoted {
                match after.strip_prefix(before.unwrap_or('"')) {
                    Some(rest) => rest,
                    None => continue,
                }
            } else {
                after
            };
            let starts = before
                .is_none_or(|c| c.is_whitespace() || matches!(c, '{' | ',' | '-' | '"' | '\''));
            if !starts || !after.trim_start().starts_with(':') {
                continue;
            }
            if found.is_some() {
                return None;
            }
            let start = at - usize::from(quoted);
            found = Some((i + 1, row[..start].chars().count() + 1));
        }
    }
    found
}

/// The line and column a reader's error names (`… at line 3 column 1`, serde_json's and
/// yaml-rust2's wording, the latter with `at byte 20` before it), with the words before
/// the place.
pub(crate) fn place(detail: &str) -> Option<(usize, usize, &str)> {
    let at = detail.rfind(" line ")?;
    let mut rest = detail[at + " line ".len()..].split(' ');
    let line = rest.next()?.parse().ok()?;
    let column = match (rest.next(), rest.next()) {
        (Some("column"), Some(n)) => n.trim_end_matches(['.', ',']).parse().ok()?,
        _ => return None,
    };
    let words = detail[..at].trim_end();
    let words = words
        .strip_suffix(" at")
        .or_else(|| words.rsplit_once(" at byte ").map(|(w, _)| w))
        .unwrap_or(words);
    Some((line, column, words))
}

/// Whether an import's text is read as JSON (an object), not as YAML.
pub fn is_json(text: &str) -> bool {
    text.trim_start().starts_with('{')
}

/// Reads a spec from JSON or YAML.
///
/// # Errors
///
/// [`ImportError`] when the text is not one document of the spec's shape.
pub fn from_text(text: &str) -> Result<TaskSpec, ImportError> {
    // A byte order mark (Windows editors write one) is not text: the server ignores it
    // too, and left in, JSON was taken for YAML and a YAML first key was not found.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // JSON goes through the shared parser, whose findings carry the line and column;
    // text that is not JSON at all is a syntax error, not a field of the wrong shape,
    // wherever the parser was (a text cut short inside `basic` is found at `basic`).
    let spec = if is_json(text) {
        shared::parse_spec(text)
            .or_else(|report| {
                let task = serde_json::from_str(text).ok().and_then(task_spec);
                task.map_or(Err(report), shared::parse_value)
            })
            .map_err(refused)
            .map_err(|e| match e {
                ImportError::Syntax(detail) => ImportError::Syntax(in_characters(text, detail)),
                other => other,
            })?
    } else {
        from_yaml(text)?
    };
    // A spec of another format version would replace the form with fields this console
    // may read otherwise: refused whole, as the server refuses it.
    if spec.version != shared::task::SPEC_VERSION {
        return Err(ImportError::Version(spec.version));
    }
    Ok(spec)
}

/// A JSON reader's place with its column in characters, as the YAML reader's and the box's
/// are: serde_json counts bytes, and "column 40" stood 7 characters past the place in a
/// line of Chinese (low-vision recheck).
fn in_characters(text: &str, detail: String) -> String {
    let Some((line, column, _)) = place(&detail) else {
        return detail;
    };
    let Some(row) = text.split('\n').nth(line.saturating_sub(1)) else {
        return detail;
    };
    let mut end = column.saturating_sub(1).min(row.len());
    while !row.is_char_boundary(end) {
        end -= 1;
    }
    let chars = row[..end].chars().count() + usize::from(column > 0);
    let said = format!(" column {column}");
    match detail.rfind(&said) {
        Some(at) if chars != column => {
            format!(
                "{} column {chars}{}",
                &detail[..at],
                &detail[at + said.len()..]
            )
        }
        _ => detail,
    }
}

fn from_yaml(text: &str) -> Result<TaskSpec, ImportError> {
    let value = shared::yaml_spec::yaml_spec_value(text).map_err(|e| match e {
        YamlSpecError::Syntax(detail) => ImportError::Syntax(detail),
        YamlSpecError::Documents(n) => ImportError::Documents(n),
        YamlSpecError::NotPlain => ImportError::NotPlain,
        YamlSpecError::Duplicate(report) => ImportError::Shape(report),
        YamlSpecError::Unread => ImportError::Unread,
    })?;
    let value = match task_spec(value.clone()) {
        Some(spec) => spec,
        None => value,
    };
    shared::parse_value(value).map_err(refused)
}

/// The spec of a task as the API gives it (`GET /api/v1/tasks/{id}`, copied from a
/// script's output): its `id`, `phase` and `spec` at the top. It was refused as ten
/// unknown fields, with no word of the spec inside (pasting researcher).
fn task_spec(value: serde_json::Value) -> Option<serde_json::Value> {
    let serde_json::Value::Object(mut task) = value else {
        return None;
    };
    if !(task.contains_key("id") && task.contains_key("phase")) {
        return None;
    }
    task.remove("spec").filter(serde_json::Value::is_object)
}

/// The refusal of a text read whole whose shape is wrong: its fields, each named once
/// (a key that is no field may be written twice in JSON text), so that the refusal's
/// count is of fields. Text that stops being JSON is refused as such, with its place,
/// whatever unknown fields come before that place: they are named once it reads.
fn refused(report: Report) -> ImportError {
    let at_top = |name: &str| report.issues().iter().any(|i| i.path.to_string() == name);
    if at_top("apiVersion") && at_top("kind") {
        return ImportError::Manifest;
    }
    let mut fields = Report::new();
    for issue in report.issues() {
        if let shared::IssueCode::ValueInvalid {
            expected: shared::validate::Expected::Json { detail },
            ..
        } = &issue.code
        {
            return ImportError::Syntax(detail.clone());
        }
        if !fields.issues().contains(issue) {
            fields.push_issue(issue.clone());
        }
    }
    ImportError::Shape(fields)
}
