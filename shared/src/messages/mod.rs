//! The languages users read Berth in, and one keyed catalog of every text they read.
//!
//! A leaf module: quota reasons, validation findings and the form's field labels all
//! render text from here. Each language is one file (`en.rs`, `zh.rs`) holding one
//! sorted `MESSAGES` table of `(key, template)` pairs; templates name their values as
//! `{name}` and [`text`] fills them in.
//!
//! Keys:
//! - a finding by its dotted code (`env.name.invalid`); a finding with another wording
//!   for some values as `code#variant` (`compute.quota.skipped#no_quota`), a phrase
//!   inside one as `code.item`;
//! - queue and never reasons as `queue.<kind>` and `never.<kind>`;
//! - what happened to a task (its events and phase reasons) as `event.<what>`, stored
//!   as a [`Message`] and rendered when read;
//! - units as `unit.<dimension>` and an amount with its unit as `quantity`, words used
//!   inside findings as `resource_kind.<kind>` and `ray_port.<name>`, list joiners as
//!   `list.sep` and `list.and`;
//! - the form's fields as `field.<path>.label` and `field.<path>.help`, the path being
//!   the spec's JSON keys joined by `.`, list indices left out
//!   (`environment.env.name`).
//!
//! Adding a language: copy `en.rs` to a new file, translate every template (keep the
//! `{name}` placeholders), add a [`Lang`] variant and list it in `LANGUAGES` and the packed catalogs.
//! The tests check every key and placeholder in every language.

mod en;
mod zh;

use serde::{Deserialize, Serialize};

/// The console's languages.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    Zh,
}

impl Lang {
    /// The language's BCP 47 tag, as the API writes it (`en`, `zh-CN`) and as
    /// `<html lang>`, the console's saved choice and the packages' options take it.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language a BCP 47 tag names, by its primary subtag in any case: `zh`,
    /// `zh-CN`, `zh-Hans`, `zh_TW`… or `en`, `en-US`…. One rule for the API's `?lang=`
    /// and `Accept-Language` and the packages' options: a portal passing
    /// `navigator.language` (`en-US`) was refused where the API took it.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        // By bytes: the validator package has a few hundred bytes to spare.
        let b = tag.as_bytes();
        if b.len() < 2 || b.get(2).is_some_and(|c| !matches!(c, b'-' | b'_')) {
            return None;
        }
        // `| 0x20` lowers an ASCII letter's case, and makes no other byte z, h, e or n.
        match [b[0] | 0x20, b[1] | 0x20] {
            [b'z', b'h'] => Some(Lang::Zh),
            [b'e', b'n'] => Some(Lang::En),
            _ => None,
        }
    }
}

/// One language's messages: `(key, template)` pairs sorted by key.
type Catalog = &'static [(&'static str, &'static str)];

/// Every language Berth speaks, with its catalog. Adding a language is adding its file,
/// its [`Lang`] variant and one line here and in the packed catalogs (`packed_all`,
/// `packed`); the tests then check it is complete.
#[cfg_attr(not(test), allow(dead_code))] // the build reads it packed (`packed_all`)
const LANGUAGES: &[(Lang, Catalog)] = &[(Lang::En, en::MESSAGES), (Lang::Zh, zh::MESSAGES)];

/// The catalogs [`text`] reads (packed: `packed_all`), English first.
#[cfg(all(test, feature = "console-texts"))]
const SHIPPED: &[(Lang, Catalog)] = LANGUAGES;

#[cfg(all(test, not(feature = "console-texts")))]
const SHIPPED: &[(Lang, Catalog)] = FINDINGS_ONLY;

/// [`LANGUAGES`] less the console's and the server's own texts (`field.*`, `ui.*`,
/// `event.*`, the server's queue reasons), three quarters of the catalog, left out at
/// compile time without `console-texts` (each language file stays whole): the validator
/// package shows findings and plans only.
#[cfg(test)] // the build reads the packed form of it, `packed`
const FINDINGS_ONLY: &[(Lang, Catalog)] = &[
    (Lang::En, &findings_only::EN),
    (Lang::Zh, &findings_only::ZH),
];

#[cfg(any(test, not(feature = "console-texts")))]
/// Whether `key` is a text only the console or the server shows (its own queue reasons).
const fn is_console_text(key: &str) -> bool {
    starts_with(key, "field.")
        || starts_with(key, "ui.")
        || starts_with(key, "event.")
        || starts_with(key, "queue.blocked")
        || starts_with(key, "queue.capacity_changed")
        || starts_with(key, "queue.error")
        || starts_with(key, "queue.no_idle_offer#")
        || starts_with(key, "queue.outside_berth")
        || starts_with(key, "queue.passed_over")
        || starts_with(key, "queue.spec_unresolved")
}

#[cfg(any(test, not(feature = "console-texts")))]
const fn starts_with(key: &str, prefix: &str) -> bool {
    let (key, prefix) = (key.as_bytes(), prefix.as_bytes());
    if key.len() < prefix.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if key[i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(any(test, not(feature = "console-texts")))]
mod findings_only {
    use super::{Catalog, en, is_console_text, zh};

    pub(super) const EN: [(&str, &str); kept(en::MESSAGES)] = keep(en::MESSAGES);
    pub(super) const ZH: [(&str, &str); kept(zh::MESSAGES)] = keep(zh::MESSAGES);

    const fn kept(messages: Catalog) -> usize {
        let (mut i, mut n) = (0, 0);
        while i < messages.len() {
            if !is_console_text(messages[i].0) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The messages that are not console texts, still sorted by key.
    const fn keep<const N: usize>(messages: Catalog) -> [(&'static str, &'static str); N] {
        let mut out = [("", ""); N];
        let (mut i, mut n) = (0, 0);
        while i < messages.len() {
            if !is_console_text(messages[i].0) {
                out[n] = messages[i];
                n += 1;
            }
            i += 1;
        }
        out
    }
}

/// The template for `key` in `lang`'s own catalog.
#[cfg(not(feature = "console-texts"))]
fn own_template(lang: Lang, key: &str) -> Option<&'static str> {
    packed::template(lang, key)
}

/// Compile-time packing of `(key, template)` tables, for [`packed`] and `packed_all`.
mod pack {
    use super::Catalog;

    pub(super) const fn part(pair: (&'static str, &'static str), which: usize) -> &'static [u8] {
        if which == 0 {
            pair.0.as_bytes()
        } else {
            pair.1.as_bytes()
        }
    }

    /// The bytes of the keys (`which` 0) or templates (1) of `messages`.
    pub(super) const fn bytes(messages: Catalog, which: usize) -> usize {
        let (mut i, mut n) = (0, 0);
        while i < messages.len() {
            n += part(messages[i], which).len();
            i += 1;
        }
        n
    }

    /// The keys (`which` 0) or templates (1) of `messages`, one after another.
    pub(super) const fn joined<const B: usize>(messages: Catalog, which: usize) -> [u8; B] {
        let mut out = [0; B];
        let (mut i, mut n) = (0, 0);
        while i < messages.len() {
            let text = part(messages[i], which);
            let mut j = 0;
            while j < text.len() {
                out[n] = text[j];
                n += 1;
                j += 1;
            }
            i += 1;
        }
        out
    }

    pub(super) const fn utf8(bytes: &'static [u8]) -> &'static str {
        match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => panic!("the catalog's texts are UTF-8"),
        }
    }

    /// `messages` on the keys of `on`, both sorted: an empty template where `messages`
    /// has none. A key `on` lacks would be lost, so it fails the build.
    pub(super) const fn aligned<const N: usize>(
        messages: Catalog,
        on: Catalog,
    ) -> [(&'static str, &'static str); N] {
        let mut out = [("", ""); N];
        let (mut i, mut j) = (0, 0);
        while i < N {
            let key = on[i].0;
            out[i] = (key, "");
            if j < messages.len() && same(messages[j].0, key) {
                out[i] = messages[j];
                j += 1;
            }
            i += 1;
        }
        assert!(
            j == messages.len(),
            "every key is English's too, in English's order"
        );
        out
    }

    const fn same(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// The findings' catalogs packed for the validator package: the keys once for every
/// language, each language's templates in one text, and each one's length as a byte,
/// instead of a `(&str, &str)` table per language (16 bytes of pointers a pair, which
/// brotli hardly shrinks; BENCHMARKS.md, the validator package's size, seventh pass).
/// Lengths rather than ends: a byte each, and small numbers brotli shrinks, where the
/// ends grew to `u16`s (−620 B brotli); the price is a scan instead of a binary search
/// over some 170 keys, once for each message a finding or plan says: about 0.3 µs
/// against 0.07 µs natively (BENCHMARKS.md, the validator package's size, eighth pass).
/// Built at compile time from [`FINDINGS_ONLY`], so the language files stay as they are.
#[cfg(any(test, not(feature = "console-texts")))]
mod packed {
    use super::pack::{aligned, bytes, joined, part, utf8};
    use super::{Catalog, Lang, findings_only};

    const N: usize = findings_only::EN.len();
    const KEYS: &str = utf8(&joined::<{ bytes(&findings_only::EN, 0) }>(
        &findings_only::EN,
        0,
    ));
    const KEY_LENS: [u8; N] = lens(&findings_only::EN, 0);
    const EN: &str = utf8(&joined::<{ bytes(&findings_only::EN, 1) }>(
        &findings_only::EN,
        1,
    ));
    const EN_LENS: [u8; N] = lens(&findings_only::EN, 1);
    /// Chinese on English's keys: an empty template where it has none (its `_one` texts).
    const ZH_ON_EN: [(&str, &str); N] = aligned(&findings_only::ZH, &findings_only::EN);
    const ZH: &str = utf8(&joined::<{ bytes(&ZH_ON_EN, 1) }>(&ZH_ON_EN, 1));
    const ZH_LENS: [u8; N] = lens(&ZH_ON_EN, 1);

    /// The template for `key` in `lang`'s own catalog.
    pub(super) fn template(lang: Lang, key: &str) -> Option<&'static str> {
        let (texts, lens) = match lang {
            Lang::En => (EN, &EN_LENS),
            Lang::Zh => (ZH, &ZH_LENS),
        };
        let (mut at_key, mut at_text) = (0, 0);
        for (&key_len, &text_len) in KEY_LENS.iter().zip(lens) {
            let (key_end, text_end) = (
                at_key + usize::from(key_len),
                at_text + usize::from(text_len),
            );
            // Equality (`str`'s compares the lengths first): an ordered comparison at
            // each key took twice as long again.
            if KEYS[at_key..key_end] == *key {
                let text = &texts[at_text..text_end];
                return (!text.is_empty()).then_some(text);
            }
            (at_key, at_text) = (key_end, text_end);
        }
        None
    }

    const fn lens(messages: Catalog, which: usize) -> [u8; N] {
        let mut out = [0; N];
        let mut i = 0;
        while i < N {
            let len = part(messages[i], which).len();
            assert!(
                len <= u8::MAX as usize,
                "a byte holds every key's and template's length"
            );
            out[i] = len as u8;
            i += 1;
        }
        out
    }
}

/// The template for `key` in `lang`'s own catalog.
#[cfg(feature = "console-texts")]
fn own_template(lang: Lang, key: &str) -> Option<&'static str> {
    packed_all::template(lang, key)
}

/// Every language's catalog packed for the console and the server, as [`packed`] packs
/// the findings' for the validator package: the keys once, each language's templates in
/// one text, and `u16` ends, found by a binary search (the console looks up hundreds of
/// labels as it draws the form). A `(&str, &str)` table per language was 16 bytes of
/// pointers a pair and every key twice: some 760 pairs a language. Built at compile time
/// from [`LANGUAGES`], so the language files stay as they are.
#[cfg(feature = "console-texts")]
mod packed_all {
    use super::pack::{aligned, bytes, joined, part, utf8};
    use super::{Catalog, Lang, en, zh};

    const N: usize = en::MESSAGES.len();
    const KEYS: &str = utf8(&joined::<{ bytes(en::MESSAGES, 0) }>(en::MESSAGES, 0));
    const KEY_ENDS: [u16; N] = ends(en::MESSAGES, 0);
    const EN: &str = utf8(&joined::<{ bytes(en::MESSAGES, 1) }>(en::MESSAGES, 1));
    const EN_ENDS: [u16; N] = ends(en::MESSAGES, 1);
    /// Chinese on English's keys: an empty template where it has none (its `_one` texts).
    #[allow(clippy::large_const_arrays)] // read only while compiling
    const ZH_ON_EN: [(&str, &str); N] = aligned(zh::MESSAGES, en::MESSAGES);
    const ZH: &str = utf8(&joined::<{ bytes(&ZH_ON_EN, 1) }>(&ZH_ON_EN, 1));
    const ZH_ENDS: [u16; N] = ends(&ZH_ON_EN, 1);

    /// The template for `key` in `lang`'s own catalog.
    pub(super) fn template(lang: Lang, key: &str) -> Option<&'static str> {
        let (texts, text_ends) = match lang {
            Lang::En => (EN, &EN_ENDS),
            Lang::Zh => (ZH, &ZH_ENDS),
        };
        let span = |ends: &[u16; N], i: usize| {
            let start = i.checked_sub(1).map_or(0, |before| ends[before]);
            usize::from(start)..usize::from(ends[i])
        };
        let (mut low, mut high) = (0, N);
        while low < high {
            let mid = low + (high - low) / 2;
            match KEYS[span(&KEY_ENDS, mid)].cmp(key) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => {
                    let text = &texts[span(text_ends, mid)];
                    return (!text.is_empty()).then_some(text);
                }
            }
        }
        None
    }

    /// Where each key (`which` 0) or template (1) of `messages` ends in their joined text.
    /// The binary search needs the keys sorted, each once: an order other than that
    /// fails the build.
    const fn ends(messages: Catalog, which: usize) -> [u16; N] {
        let mut out = [0; N];
        let (mut i, mut end) = (0, 0);
        while i < N {
            assert!(
                which != 0 || i == 0 || before(messages[i - 1].0, messages[i].0),
                "the keys are sorted, each once"
            );
            end += part(messages[i], which).len();
            assert!(end <= u16::MAX as usize, "a u16 holds every end");
            out[i] = end as u16;
            i += 1;
        }
        out
    }

    /// Whether `a` sorts strictly before `b`, as `str`'s order has it (by bytes).
    const fn before(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let mut i = 0;
        while i < a.len() && i < b.len() {
            if a[i] != b[i] {
                return a[i] < b[i];
            }
            i += 1;
        }
        a.len() < b.len()
    }
}

/// The template for `key` in `lang`, falling back to English.
fn template(lang: Lang, key: &str) -> Option<&'static str> {
    own_template(lang, key).or_else(|| own_template(Lang::En, key))
}

/// The text for a count of things: `key` with `{count}`, said in the singular where the
/// language has one ("1 error", "2 errors"; see [`text`]).
pub fn count(lang: Lang, key: &str, count: usize) -> String {
    text(lang, key, &[("count", count.to_string())])
}

/// The singular form of `key` for these arguments: `{key}_one`, when the catalog has it
/// and every argument it leaves out is 1. A singular text writes its count out ("1 node",
/// not "{nodes} node") and so leaves that placeholder out, which is how it says which
/// count it is the singular of. Only the language's own catalog is asked: Chinese has one
/// form for every count, so it has no `_one` texts, and English's must not stand in.
fn singular(lang: Lang, key: &str, args: &[(&str, String)]) -> Option<&'static str> {
    if !args.iter().any(|(_, value)| value == "1") {
        return None;
    }
    let one = own_template(lang, &format!("{key}_one"))?;
    let mut left_out = args
        .iter()
        .filter(|(name, _)| !one.contains(&format!("{{{name}}}")))
        .peekable();
    left_out.peek()?;
    left_out.all(|(_, value)| value == "1").then_some(one)
}

/// The text for `key` in `lang`, with each `{name}` placeholder replaced by its argument.
///
/// Where a count is 1 and the language says so differently, the key's singular is used
/// instead (`{key}_one`, see [`singular`]). A key no catalog has renders as the key
/// itself, and a placeholder without an
/// argument stays as written, so a mistake shows rather than vanishes (the tests forbid
/// both).
pub fn text(lang: Lang, key: &str, args: &[(&str, String)]) -> String {
    let Some(template) = singular(lang, key, args).or_else(|| template(lang, key)) else {
        return key.to_owned();
    };
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let value = after.find('}').and_then(|close| {
            let name = &after[..close];
            args.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (v, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A text kept as what it says rather than in one language: a catalog key and its named
/// arguments, rendered in each reader's language when it is read ([`Message::render`]).
/// Task events and phase reasons are stored this way, so a record written once reads in
/// English and in Chinese.
///
/// An argument is text (a number, a name, or words from outside Berth such as a
/// Kubernetes Event's message, which stay as they came), another message, rendered in
/// the same language (a unit, a queue reason inside an event), or a list of names,
/// joined as that language lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The catalog key.
    pub key: String,
    /// The named arguments of the key's `{placeholders}`.
    #[serde(default, skip_serializing_if = "Args::is_empty")]
    pub args: Args,
}

/// A [`Message`]'s named arguments: a map on the wire, a list kept in the names' order
/// here. A message has a handful, and a `BTreeMap`'s code (its insert alone 2.3 KB of
/// wasm) was bytes the validator package lacks for its rules.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Args(Vec<(String, Arg)>);

impl Args {
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(n, _)| n.as_str().cmp(name))
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The argument of that name.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.find(name).ok().map(|at| &self.0[at].1)
    }

    /// The argument of that name, to change.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Arg> {
        self.find(name).ok().map(|at| &mut self.0[at].1)
    }

    /// Whether there is an argument of that name.
    pub fn contains_key(&self, name: &str) -> bool {
        self.find(name).is_ok()
    }

    /// Sets `name` to `value`, replacing a value it had.
    pub fn insert(&mut self, name: String, value: Arg) {
        match self.find(&name) {
            Ok(at) => self.0[at].1 = value,
            Err(at) => self.0.insert(at, (name, value)),
        }
    }

    /// The arguments in their names' order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Arg)> {
        self.0.iter().map(|(name, value)| (name, value))
    }

    /// Every argument, in their names' order.
    pub fn values(&self) -> impl Iterator<Item = &Arg> {
        self.0.iter().map(|(_, value)| value)
    }

    /// Every argument, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Arg> {
        self.0.iter_mut().map(|(_, value)| value)
    }
}

impl std::ops::Index<&str> for Args {
    type Output = Arg;

    fn index(&self, name: &str) -> &Arg {
        self.get(name).expect("no argument of that name")
    }
}

impl std::fmt::Debug for Args {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Args {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Args {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Named;
        impl<'de> serde::de::Visitor<'de> for Named {
            type Value = Args;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map of arguments")
            }

            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Args, M::Error> {
                let mut args = Args::default();
                // A name twice: the last value, as a map read it.
                while let Some((name, value)) = map.next_entry()? {
                    args.insert(name, value);
                }
                Ok(args)
            }
        }
        deserializer.deserialize_map(Named)
    }
}

/// One argument of a [`Message`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arg {
    /// Text the same in every language.
    Text(String),
    /// Items joined as the reader's language lists them ("a, b and c", "a、b、c").
    /// Before [`Arg::Message`]: serde reads a struct from a JSON array too, so a list of
    /// one (`["pip"]`) read back as a message keyed `pip` (review).
    List(Vec<String>),
    /// A message rendered in the reader's language.
    Message(Message),
}

impl Arg {
    /// The text in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Arg::Text(text) => text.clone(),
            Arg::Message(message) => message.render(lang),
            Arg::List(items) => list(lang, items),
        }
    }
}

impl Message {
    /// A message without arguments.
    pub fn new(key: impl Into<String>) -> Self {
        Message {
            key: key.into(),
            args: Args::default(),
        }
    }

    /// Adds a text argument (`{name}` becomes `value` in every language).
    #[must_use]
    pub fn with(mut self, name: &str, value: impl ToString) -> Self {
        self.args
            .insert(name.to_owned(), Arg::Text(value.to_string()));
        self
    }

    /// Adds a list argument, joined as the reader's language lists items.
    #[must_use]
    pub fn with_list(mut self, name: &str, items: Vec<String>) -> Self {
        self.args.insert(name.to_owned(), Arg::List(items));
        self
    }

    /// Adds an argument that is itself a message, rendered in the reader's language.
    #[must_use]
    pub fn with_message(mut self, name: &str, value: Message) -> Self {
        self.args.insert(name.to_owned(), Arg::Message(value));
        self
    }

    /// Adds an argument as it is (text, a message or a list).
    #[must_use]
    pub fn with_arg(mut self, name: &str, value: Arg) -> Self {
        self.args.insert(name.to_owned(), value);
        self
    }

    /// The text in `lang` (see [`text`] for unknown keys and missing arguments).
    pub fn render(&self, lang: Lang) -> String {
        let args: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, arg)| (name.as_str(), arg.render(lang)))
            .collect();
        text(lang, &self.key, &args)
    }
}

/// A `basic.tags.not_maintained` finding's words with the tags it may be: the catalog's
/// maintained tags, the first [`MAINTAINED_SAID`] of them, then "and more"; the finding
/// alone when the catalog maintains none. The console's form and task page and the
/// API's answers say it so: offered only as a box's suggestions, the tags were never
/// seen by a reader who did not open them (Chinese newcomer), nor by a script.
#[cfg(feature = "console-texts")]
pub fn not_maintained(lang: Lang, finding: String, maintained: &[crate::task::Tag]) -> String {
    if maintained.is_empty() {
        return finding;
    }
    let mut listed: Vec<String> = maintained
        .iter()
        .take(MAINTAINED_SAID)
        .map(crate::task::Tag::text)
        .collect();
    if maintained.len() > MAINTAINED_SAID {
        listed.push(text(lang, "ui.form.tags.maintained_more", &[]));
    }
    text(
        lang,
        "ui.form.tags.maintained",
        &[
            ("finding", finding),
            ("tags", listed.join(text(lang, "list.sep", &[]).as_str())),
        ],
    )
}

/// Each finding that a tag is not maintained in `issues` said with the maintained tags
/// ([`not_maintained`]): how the API's answers word them, so that a script reading the
/// message learns what to write without reading the catalog.
#[cfg(feature = "console-texts")]
pub fn with_maintained(
    issues: &mut [crate::validate::LocalizedIssue],
    lang: Lang,
    maintained: &[crate::task::Tag],
) {
    for issue in issues {
        if issue.code == crate::IssueCode::TagNotMaintained {
            let said = std::mem::take(&mut issue.message);
            issue.message = not_maintained(lang, said, maintained);
        }
    }
}

/// The most maintained tags [`not_maintained`] lists.
#[cfg(feature = "console-texts")]
pub const MAINTAINED_SAID: usize = 12;

/// Items joined as "a, b and c" in `lang` (`list.sep`, `list.and`).
pub fn list(lang: Lang, items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!(
                "{}{}{last}",
                rest.join(&text(lang, "list.sep", &[])),
                text(lang, "list.and", &[])
            )
        }
        _ => items.concat(),
    }
}

/// The names of the `{name}` placeholders of a template.
#[cfg(test)]
fn placeholders(template: &str) -> std::collections::BTreeSet<&str> {
    let mut names = std::collections::BTreeSet::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                names.insert(&after[..close]);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    names
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[test]
fn findings_only_is_every_language_less_its_console_texts() {
    assert_eq!(FINDINGS_ONLY.len(), LANGUAGES.len());
    for ((lang, full), (slim_lang, slim)) in LANGUAGES.iter().zip(FINDINGS_ONLY) {
        assert_eq!(lang, slim_lang);
        let expected: Vec<_> = full
            .iter()
            .filter(|(key, _)| {
                !key.starts_with("field.")
                    && !key.starts_with("ui.")
                    && !key.starts_with("event.")
                    && ![
                        "queue.blocked",
                        "queue.blocked#never",
                        "queue.blocked#no_quota",
                        "queue.blocked#quota",
                        "queue.capacity_changed",
                        "queue.error",
                        "queue.no_idle_offer#also",
                        "queue.no_idle_offer#also_any",
                        "queue.no_idle_offer#also_short",
                        "queue.no_idle_offer#lower",
                        "queue.outside_berth",
                        "queue.outside_berth#fewer",
                        "queue.outside_berth#idle",
                        "queue.outside_berth#idle_lowest",
                        "queue.outside_berth#idle_unit",
                        "queue.outside_berth#idle_unit_lowest",
                        "queue.passed_over",
                        "queue.passed_over#named",
                        "queue.spec_unresolved",
                    ]
                    .contains(key)
            })
            .collect();
        assert_eq!(slim.iter().collect::<Vec<_>>(), expected, "{lang:?}");
        assert!(slim.len() > 100 && slim.len() < full.len(), "{lang:?}");
        // What findings and plans say stays: a finding, a queue reason, a unit.
        for key in [
            "env.name.invalid",
            "queue.not_enough_at_once",
            "unit.gpu",
            "list.and",
        ] {
            assert!(slim.iter().any(|(k, _)| *k == key), "{lang:?} {key}");
        }
    }
    assert_eq!(SHIPPED[0].0, Lang::En, "English first: the fallback");
}

/// A packed catalog's lookup says what `tables` say, for every key of each language, and
/// nothing for `misses`; Chinese's absent singulars fall back to nothing, not English's.
#[cfg(test)]
fn check_packed(
    tables: &[(Lang, Catalog)],
    template: fn(Lang, &str) -> Option<&'static str>,
    misses: &[&str],
) {
    for (lang, messages) in tables {
        for (key, text) in *messages {
            assert_eq!(template(*lang, key), Some(*text), "{lang:?} {key}");
        }
    }
    let singular = "unit.gpu_one";
    assert!(template(Lang::En, singular).is_some());
    assert_eq!(template(Lang::Zh, singular), None);
    for key in misses {
        for lang in [Lang::En, Lang::Zh] {
            assert_eq!(template(lang, key), None, "{lang:?} {key:?}");
        }
    }
}

#[cfg(test)]
#[test]
fn the_packed_catalog_says_what_the_findings_tables_say() {
    let misses = [
        "",
        "a",
        "zzz",
        "field.basic.name.label",
        "env.name",
        "env.name.invalidx",
    ];
    check_packed(FINDINGS_ONLY, packed::template, &misses);
}

#[cfg(all(test, feature = "console-texts"))]
#[test]
fn the_packed_catalogs_say_what_the_language_tables_say() {
    let (first, last) = (en::MESSAGES[0].0, en::MESSAGES[en::MESSAGES.len() - 1].0);
    let (past_first, past_last) = (format!("{first}x"), format!("{last}x"));
    let misses = [
        "",
        "a",
        "zzzz",
        "field.basic",
        "env.name",
        "env.name.invalidx",
        &past_first,
        &past_last,
    ];
    check_packed(LANGUAGES, packed_all::template, &misses);
}

/// Every language, for tests elsewhere in the crate.
#[cfg(test)]
pub(crate) fn languages() -> impl Iterator<Item = Lang> {
    LANGUAGES.iter().map(|(lang, _)| *lang)
}

/// Whether `lang`'s own catalog has `key` (no English fallback), for tests.
#[cfg(test)]
pub(crate) fn has_key(lang: Lang, key: &str) -> bool {
    LANGUAGES
        .iter()
        .filter(|(l, _)| *l == lang)
        .any(|(_, messages)| messages.binary_search_by(|(k, _)| (*k).cmp(key)).is_ok())
}

/// Whether the validator package's catalog for `lang` (without the console texts) has
/// `key`, for tests: what findings and plans say must be in it.
#[cfg(test)]
pub(crate) fn findings_only_has_key(lang: Lang, key: &str) -> bool {
    FINDINGS_ONLY
        .iter()
        .filter(|(l, _)| *l == lang)
        .any(|(_, messages)| messages.binary_search_by(|(k, _)| (*k).cmp(key)).is_ok())
}
