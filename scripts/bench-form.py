#!/usr/bin/env python3
"""Keystroke to paint on the create form against a bare <input> on the same page.

Driven by scripts/bench-form.sh, which builds the console, starts the server and
chromedriver and passes their URLs. Python's standard library only: the WebDriver HTTP
API through urllib, the DevTools protocol through chromedriver's goog/cdp/execute.

Usage: bench-form.py SERVER_URL DRIVER_URL EXAMPLE_JSON RUNS SAMPLES WARMUP
       bench-form.py --profile SERVER_URL DRIVER_URL EXAMPLE_JSON SAMPLES
       bench-form.py --trace SERVER_URL DRIVER_URL EXAMPLE_JSON SAMPLES

With --profile, no timing: the same keystrokes (unthrottled) under the DevTools
protocol's CPU profiler and performance metrics, to see where a keystroke's time goes.
Build the console with names for Rust functions to show (scripts/bench-form.sh does,
with BENCH_PROFILE=1).

With --trace, a Chromium trace (devtools.timeline) of the keystrokes, unthrottled, each
followed by a quiet frame: per keystroke, the main thread's time per trace event (style
recalculation, layout, pre-paint, paint, layerize, commit) and how many elements a
style recalculation and how many objects a layout touched.
"""

import json
import os
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request

DRAFT_KEY = "berth.task_form.draft"
CHROME_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--window-size=1400,1000", "--lang=en",
]
TARGETS = ["bare", "name_prefix", "workers"]
# BENCH_SCROLL=0: the first two passes' way: the targets stay where the page puts them
# (the workers field below the fold) and a sample follows the previous one's frame
# within 0-17 ms, instead of each target scrolled into view and two frames between.
SCROLL = os.environ.get("BENCH_SCROLL", "1") != "0"
# A keystroke as the browser sends one: `beforeinput` before the value changes, then
# `input`. Runs before commit a15d6a7 sent `input` alone (BENCH_BEFOREINPUT=0 still does),
# which no typist's keystroke does: the form reads the typed control's place at
# `beforeinput`, while the page is as last laid out, and without it read it at `input`,
# laying the page out in script for the new text first (form/anchor.rs).
BEFOREINPUT = os.environ.get("BENCH_BEFOREINPUT", "1") != "0"
KEYSTROKE_JS = r"""
function keystroke(el, value) {
  if (%s) {
    el.dispatchEvent(new InputEvent("beforeinput",
      { bubbles: true, cancelable: true, composed: true, inputType: "insertText", data: value.slice(-1) }));
  }
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}
""" % ("true" if BEFOREINPUT else "false")

# One sample: a keystroke (`beforeinput`, the value set, `input`: the control's on:input handler runs, the
# spec is re-checked, Leptos's effects repaint findings and plan in microtasks), then wait
# for the next frame: requestAnimationFrame, then a MessageChannel message posted from
# inside that callback, which runs once the frame's style, layout and paint are done.
#   paint  = dispatch -> that message (the keystroke-to-paint latency)
#   work   = dispatch -> the end of its microtasks (a MessageChannel message posted right
#            after the dispatch; or the frame's start when the frame comes first)
#   render = frame start (rAF callback) -> the message after it
#   frame  = work + render: the main thread's time for the keystroke's frame
# Each sample starts after a random 0-17 ms delay, so keystrokes land at random points of
# the 60 Hz frame clock as a typist's do, rather than always just after a frame.
BENCH_JS = KEYSTROKE_JS + r"""
const [samples, warmup, scroll, done] = [arguments[0], arguments[1], arguments[2], arguments[arguments.length - 1]];
const form = document.querySelector("form.task-form");
let bare = document.getElementById("bench-bare");
if (!bare) {
  bare = document.createElement("input");
  bare.id = "bench-bare";
  bare.type = "text";
  window.__bareValue = "";
  bare.addEventListener("input", (ev) => { window.__bareValue = ev.target.value; });
  form.parentNode.insertBefore(bare, form);
}
const controls = {
  bare,
  name_prefix: document.querySelector("[name='basic.name_prefix']"),
  workers: document.querySelector("[name='compute.workers']"),
};
// Valid and invalid names alternate (a digit first and "_" break two rules, as the
// upper-case name used before did until upper case became one finding), so the field's
// two findings and the summary's items appear and clear; workers alternate 1 and 2, so the
// plan panel changes.
const values = {
  bare: (i) => (i % 2 ? "bench-b" : "bench-a"),
  name_prefix: (i) => (i % 2 ? "7b_name" : "good-name"),
  workers: (i) => (i % 2 ? "2" : "1"),
};
const loaf = [];
let observer = null;
if (PerformanceObserver.supportedEntryTypes.includes("long-animation-frame")) {
  observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) loaf.push(e.duration); });
  observer.observe({ type: "long-animation-frame" });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const frames = async (n) => { for (let k = 0; k < n; k++) await new Promise((r) => requestAnimationFrame(r)); };
let shown = null;
function sample(el, value) {
  return new Promise((resolve) => {
    const after = new MessageChannel();
    const frame = new MessageChannel();
    let tWork = null;
    after.port1.onmessage = () => { if (tWork === null) tWork = performance.now(); };
    const t0 = performance.now();
    keystroke(el, value);
    after.port2.postMessage(0);
    requestAnimationFrame(() => {
      const tRaf = performance.now();
      if (tWork === null) tWork = tRaf;
      frame.port1.onmessage = () => {
        const t1 = performance.now();
        resolve({ paint: t1 - t0, work: tWork - t0, render: t1 - tRaf, frame: tWork - t0 + t1 - tRaf });
      };
      frame.port2.postMessage(0);
    });
  });
}
(async () => {
  const out = { bare: [], name_prefix: [], workers: [] };
  const checks = { name_invalid: 0, name_valid: 0, plan_changed: 0, bare_stored: 0 };
  const plan = () => form.innerText;
  let lastPlan = plan();
  const order = ["bare", "name_prefix", "bare", "workers"];
  const counts = { bare: 0, name_prefix: 0, workers: 0 };
  const need = (k) => counts[k] < (k === "bare" ? 2 : 1) * (samples + warmup);
  for (let round = 0; need("bare") || need("name_prefix") || need("workers"); round++) {
    for (const target of order) {
      if (!need(target)) continue;
      const i = counts[target]++;
      // A typist's field is on screen (focus scrolls it there): the workers field is
      // below the fold in the bench's window, the bare input and the name above it.
      // Scrolled outside the timed part, then two frames: as the targets alternate, every
      // sample so starts from a page whose previous frame is done, as a typist's
      // keystrokes (a few a second) do. Without them (BENCH_SCROLL=0) a sample follows
      // the previous one's frame within 0-17 ms, and at CPU 4x the bare input's paint p50
      // fell below its unthrottled one: it caught frames the form's samples had queued.
      if (scroll && controls[target] !== shown) {
        // Focused as well: a typist types into the focused field, and the form keeps a
        // field's finding lines while it has the focus.
        controls[target].focus({ preventScroll: true });
        controls[target].scrollIntoView({ block: "nearest" });
        shown = controls[target];
        await frames(2);
      }
      await sleep(Math.random() * 17);
      const r = await sample(controls[target], values[target](i));
      if (i >= (target === "bare" ? 2 : 1) * warmup) out[target].push(r);
      // The work really happened: outside the timed part, check what the page shows.
      if (target === "name_prefix") {
        const invalid = controls.name_prefix.getAttribute("aria-invalid") === "true";
        if (i % 2 && invalid) checks.name_invalid++;
        if (!(i % 2) && !invalid) checks.name_valid++;
      } else if (target === "workers") {
        const now = plan();
        if (now !== lastPlan) checks.plan_changed++;
        lastPlan = now;
      } else if (window.__bareValue === values.bare(i)) {
        checks.bare_stored++;
      }
    }
  }
  if (observer) observer.disconnect();
  done({ out, checks, counts, loaf, loafSupported: observer !== null });
})();
"""


class Driver:
    def __init__(self, url):
        self.url = url.rstrip("/")
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=900) as res:
                return json.load(res)["value"]
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"{method} {path}: {err.code} {err.read().decode()[:2000]}") from None

    def start(self, trace_categories=None):
        profile = tempfile.mkdtemp(prefix="berth-bench-form-")
        options = {"binary": "/usr/bin/chromium", "args": CHROME_ARGS + [f"--user-data-dir={profile}"]}
        always = {"goog:chromeOptions": options}
        if trace_categories:
            # chromedriver records a Chromium trace of these categories into its
            # "performance" log, flushed when the log is read.
            options["perfLoggingPrefs"] = {"enableNetwork": False, "enablePage": False,
                                           "traceCategories": trace_categories, "bufferUsageReportingInterval": 100000}
            always["goog:loggingPrefs"] = {"performance": "ALL"}
        caps = {"capabilities": {"alwaysMatch": always}}
        self.session = self.call("POST", "/session", caps)["sessionId"]
        self.s("POST", "/timeouts", {"script": 900_000, "pageLoad": 60_000})

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def js_async(self, script, *args):
        return self.s("POST", "/execute/async", {"script": script, "args": list(args)})

    def cdp(self, cmd, params):
        return self.s("POST", "/goog/cdp/execute", {"cmd": cmd, "params": params})

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", f"/session/{self.session}")
            except Exception:
                pass
            self.session = None


def percentile(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def summarise(result, samples):
    rows = {}
    for target in TARGETS:
        xs = result["out"][target]
        rows[target] = {
            metric: {"p50": percentile([x[metric] for x in xs], 0.5),
                     "p90": percentile([x[metric] for x in xs], 0.9),
                     "max": max(x[metric] for x in xs)}
            for metric in ("paint", "work", "render", "frame")
        }
        rows[target]["n"] = len(xs)
    checks = result["checks"]
    # Every name sample must have shown or cleared its finding, and the plan must have
    # changed on every workers sample: otherwise the figures measure nothing.
    # (Counted over every sample, warm-up included.)
    counts = result["counts"]
    problems = []
    if checks["name_invalid"] + checks["name_valid"] != counts["name_prefix"]:
        problems.append(f"the name's finding followed {checks['name_invalid'] + checks['name_valid']}"
                        f" of {counts['name_prefix']} name samples")
    if checks["plan_changed"] != counts["workers"]:
        problems.append(f"the form's text changed on {checks['plan_changed']} of {counts['workers']} workers samples")
    if checks["bare_stored"] != counts["bare"]:
        problems.append(f"the bare input stored {checks['bare_stored']} of {counts['bare']} values")
    over16 = {t: sum(1 for x in result["out"][t] if x["frame"] > 16) for t in TARGETS}
    return {"rows": rows, "checks": checks, "over16": over16, "problems": problems,
            "loaf": result["loaf"], "loafSupported": result["loafSupported"]}


# A fixed piece of work, timed in the page: the check that a CPU throttle holds. Chromium
# has been seen to answer Emulation.setCPUThrottlingRate without slowing the page (see
# throttle()); the bare input's times then betray it only afterwards.
SPIN_JS = r"""
const times = [];
for (let round = 0; round < 7; round++) {
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < 300000; i++) x = (x + Math.sqrt(i) * 1.0001) % 1e9;
  times.push(performance.now() - t0);
  window.__spin = x;
}
times.sort((a, b) => a - b);
return [times[0], times[3]];
"""


def spin_ms(d):
    """The fixed loop's (fastest, median) time in ms."""
    return d.js(SPIN_JS)


def throttle(d, rate, base):
    """Sets the CPU throttle and checks that it took: the fixed loop's median must run
    about `rate` times slower than its fastest unthrottled time (`base` ms). Applied
    again up to 5 times, then fails.

    Why it may not take: on Linux, Chromium throttles the renderer's main thread from a
    thread of its own that signals it every 200 µs; the main thread's handler then
    spins for (rate - 1) times the wall time it ran since the last signal, counted up to
    1 ms. On a loaded machine that thread wakes late, so the main thread runs longer
    between signals than the 1 ms counted, and is slowed less (a weak throttle); and
    time the main thread waited for a core counts as time it ran, so it can be slowed
    more than asked. Only a check of the page's own speed tells."""
    for attempt in range(5):
        d.cdp("Emulation.setCPUThrottlingRate", {"rate": rate})
        time.sleep(0.2)
        slowed = spin_ms(d)[1]
        if rate == 1 or slowed >= 0.6 * rate * base:
            if attempt:
                print(f"  note: the CPU {rate}x throttle took on attempt {attempt + 1}", file=sys.stderr)
            return slowed
        print(f"  note: CPU {rate}x asked, but a fixed loop took {slowed:.1f} ms against {base:.1f} ms"
              " unthrottled: applying it again", file=sys.stderr)
        d.cdp("Emulation.setCPUThrottlingRate", {"rate": 1})
        time.sleep(0.2)
    raise RuntimeError(f"the CPU {rate}x throttle did not take in 5 attempts")


def open_form(d, server, example):
    """Restores `example` as the draft and opens the form at /new, once it shows it."""
    d.go(server + "/")
    d.js("localStorage.setItem(arguments[0], arguments[1]);", DRAFT_KEY, example)
    d.go(server + "/new")
    for _ in range(200):
        ready = d.js("""
            const name = document.querySelector("[name='basic.name_prefix']");
            const workers = document.querySelector("[name='compute.workers']");
            return !!(name && workers && name.value === "llama-finetune");""")
        if ready:
            return
        time.sleep(0.1)
    raise RuntimeError("the form did not restore the example draft at /new")


def insert_bare(d):
    """The bare input, before the form, as the timed runs' script inserts it."""
    d.js("""const form = document.querySelector("form.task-form");
            const bare = document.createElement("input"); bare.id = "bench-bare";
            bare.addEventListener("input", (ev) => { window.__bareValue = ev.target.value; });
            form.parentNode.insertBefore(bare, form);""")


def one_run(driver_url, server, example, samples, warmup):
    d = Driver(driver_url)
    d.start()
    try:
        open_form(d, server, example)
        out = {}
        base = spin_ms(d)[0]
        for label, rate in (("unthrottled", 1), ("cpu 4x", 4)):
            slowed = throttle(d, rate, base)
            out[label] = summarise(d.js_async(BENCH_JS, samples, warmup, SCROLL), samples)
            out[label]["spin"] = slowed / base
            # Held to the end? A throttle that weakened while the samples ran leaves the
            # run out of the medians.
            after = spin_ms(d)[1]
            out[label]["spin_after"] = after / base
            out[label]["weak"] = rate > 1 and after < 0.6 * rate * base
        d.cdp("Emulation.setCPUThrottlingRate", {"rate": 1})
        return out
    finally:
        d.quit()


# One target's control and the bench's values for it, as the profile and the trace type
# them (their scripts take the target and the number of samples).
KEYSTROKES_JS = KEYSTROKE_JS + r"""
const [target, samples, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const el = target === "bare" ? document.getElementById("bench-bare")
  : document.querySelector(target === "name_prefix" ? "[name='basic.name_prefix']" : "[name='compute.workers']");
const values = {
  bare: (i) => (i % 2 ? "bench-b" : "bench-a"),
  name_prefix: (i) => (i % 2 ? "7b_name" : "good-name"),
  workers: (i) => (i % 2 ? "2" : "1"),
};
// Focused and on screen, as a typist's field is, then two frames.
const show = async () => {
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "nearest" });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
};
"""


# The profile's keystrokes: the bench's own values, without waits between them beyond
# the frame, each target on its own so its profile is its own.
PROFILE_JS = KEYSTROKES_JS + r"""
(async () => {
  await show();
  for (let i = 0; i < samples; i++) {
    keystroke(el, values[target](i));
    await new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));
  }
  done(true);
})();
"""

METRICS = ["ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration",
           "RecalcStyleCount", "LayoutCount", "Nodes"]


def self_times(profile):
    """Self time (ms) per function name, from a CDP Profiler profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    per_node = {}
    stamps = profile["timeDeltas"]
    for sample, delta in zip(profile["samples"][1:], stamps[1:]):
        per_node[sample] = per_node.get(sample, 0) + delta / 1000
    out = {}
    for node_id, ms in per_node.items():
        frame = nodes[node_id]["callFrame"]
        name = frame["functionName"] or f"({frame['url'].rsplit('/', 1)[-1] or 'anonymous'})"
        out[name] = out.get(name, 0) + ms
    return out


def inclusive_times(profile):
    """Inclusive time (ms) per function name (a name counted once per stack)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {}
    for n in profile["nodes"]:
        for c in n.get("children", []):
            parent[c] = n["id"]
    out = {}
    for sample, delta in zip(profile["samples"][1:], profile["timeDeltas"][1:]):
        seen = set()
        node = sample
        while node is not None:
            name = nodes[node]["callFrame"]["functionName"]
            if name and name not in seen:
                seen.add(name)
                out[name] = out.get(name, 0) + delta / 1000
            node = parent.get(node)
    return out


def profile_main(server, driver_url, example, samples):
    d = Driver(driver_url)
    d.start()
    try:
        open_form(d, server, example)
        insert_bare(d)
        d.cdp("Performance.enable", {})
        d.cdp("Profiler.enable", {})
        d.cdp("Profiler.setSamplingInterval", {"interval": 100})
        for target in TARGETS:
            d.js_async(PROFILE_JS, target, 20)
            before = {m["name"]: m["value"] for m in d.cdp("Performance.getMetrics", {})["metrics"]}
            d.cdp("Profiler.start", {})
            d.js_async(PROFILE_JS, target, samples)
            prof = d.cdp("Profiler.stop", {})["profile"]
            if os.environ.get("BENCH_PROFILE_OUT"):
                # The raw profile, for DevTools or a closer look at its call tree.
                with open(os.path.join(os.environ["BENCH_PROFILE_OUT"], f"{target}.cpuprofile"), "w") as f:
                    json.dump(prof, f)
            after = {m["name"]: m["value"] for m in d.cdp("Performance.getMetrics", {})["metrics"]}
            print(f"## {target}: {samples} keystrokes, per keystroke")
            for m in METRICS:
                delta = after.get(m, 0) - before.get(m, 0)
                scale = 1000 if m.endswith("Duration") else 1
                print(f"  {m}: {delta * scale / samples:.3f}{' ms' if scale == 1000 else ''}"
                      + (f" (now {after.get(m, 0):.0f})" if m == "Nodes" else ""))
            selfs = self_times(prof)
            total = sum(v for k, v in selfs.items() if k not in ("(idle)", "(program)"))
            print(f"  sampled JS+wasm time (without idle/program): {total / samples:.3f} ms")
            print("  top self time (ms per keystroke):")
            for name, ms in sorted(selfs.items(), key=lambda kv: -kv[1])[:25]:
                print(f"    {ms / samples:8.4f}  {name[:150]}")
            print("  top inclusive time (ms per keystroke):")
            for name, ms in sorted(inclusive_times(prof).items(), key=lambda kv: -kv[1])[:80]:
                print(f"    {ms / samples:8.4f}  {name[:150]}")
    finally:
        d.quit()


# The trace's keystrokes: as the profile's, each preceded by a console.timeStamp that
# marks where its events start in the trace.
TRACE_JS = KEYSTROKES_JS + r"""
const frame = () => new Promise((r) => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); }));
(async () => {
  await show();
  await frame();
  await frame();
  for (let i = 0; i < samples; i++) {
    console.timeStamp(`bench-${target}-${i}`);
    keystroke(el, values[target](i));
    await frame();
    // A quiet frame between keystrokes, so each keystroke's rendering is its own.
    await frame();
  }
  console.timeStamp(`bench-${target}-end`);
  await frame();
  done(true);
})();
"""

TRACE_CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline"
# Renderer main-thread events that make up a keystroke's work and frame.
TRACE_EVENTS = ["EventDispatch", "FunctionCall", "RunMicrotasks", "UpdateLayoutTree", "Layout", "PrePaint",
                "Paint", "Layerize", "UpdateLayer", "Commit", "HitTest", "ScheduleStyleRecalculation",
                "InvalidateLayout", "IntersectionObserverController::computeIntersections"]


def trace_events(d):
    """The trace: chromedriver's performance log. Reading it ends the trace (chromedriver
    does not start another), so it is read once, after every target's keystrokes."""
    events = []
    for entry in d.s("POST", "/se/log", {"type": "performance"}):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Tracing.dataCollected":
            events.append(msg["params"])
    return events


def trace_summary(events, target, samples):
    """Per keystroke of `target`: time (ms) per event on the renderer's main thread, and
    what style recalculation and layout touched."""
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    marks = {}
    for e in events:
        if e.get("name") == "TimeStamp":
            msg = e["args"].get("data", {}).get("message", "")
            if msg.startswith(f"bench-{target}-"):
                marks[msg.rsplit("-", 1)[1]] = e["ts"]
    starts = [marks[str(i)] for i in range(samples) if str(i) in marks]
    if not starts or "end" not in marks:
        raise RuntimeError(f"the trace has no marks for {target} (found {len(marks)})")
    bounds = starts + [marks["end"]]
    per = [dict() for _ in starts]
    style, layout = [], []
    open_b = {}
    for e in sorted((e for e in events if (e.get("pid"), e.get("tid")) in mains), key=lambda e: e["ts"]):
        ph, name = e.get("ph"), e.get("name")
        if ph == "B":
            open_b[name] = e
            continue
        if ph == "E" and name in open_b:
            b = open_b.pop(name)
            e = dict(b, dur=e["ts"] - b["ts"], args={**b.get("args", {}), **e.get("args", {})})
        elif ph != "X":
            continue
        ts = e["ts"]
        k = next((i for i in range(len(starts)) if bounds[i] <= ts < bounds[i + 1]), None)
        if k is None:
            continue
        per[k][name] = per[k].get(name, 0) + e.get("dur", 0) / 1000
        if name == "UpdateLayoutTree":
            style.append(e["args"].get("elementCount", 0))
        elif name == "Layout":
            begin = e["args"].get("beginData", {})
            end = e["args"].get("endData", {})
            layout.append((begin.get("dirtyObjects"), begin.get("totalObjects"), begin.get("partialLayout"),
                           len(end.get("layoutRoots", []) or [])))
    names = sorted({n for p in per for n in p}, key=lambda n: -sum(p.get(n, 0) for p in per))
    print(f"## {target}: {len(per)} keystrokes traced; ms per keystroke on the renderer main thread"
          " (median, mean)")
    for n in names[:25]:
        xs = [p.get(n, 0) for p in per]
        print(f"  {n:55} {statistics.median(xs):7.3f} {statistics.mean(xs):7.3f}")
    if style:
        print(f"  UpdateLayoutTree: {len(style)} recalcs; elements per recalc median {statistics.median(style)},"
              f" max {max(style)}")
    if layout:
        dirty = [x[0] for x in layout if x[0] is not None]
        total = [x[1] for x in layout if x[1] is not None]
        partial = sum(1 for x in layout if x[2])
        roots = [x[3] for x in layout]
        print(f"  Layout: {len(layout)} layouts; dirty objects median {statistics.median(dirty) if dirty else '?'}"
              f" max {max(dirty) if dirty else '?'}; total objects median {statistics.median(total) if total else '?'};"
              f" partial {partial}; layout roots median {statistics.median(roots)} max {max(roots)}")


def trace_main(server, driver_url, example, samples):
    d = Driver(driver_url)
    d.start(trace_categories=TRACE_CATEGORIES)
    try:
        open_form(d, server, example)
        insert_bare(d)
        for target in TARGETS:
            d.js_async(TRACE_JS, target, samples)
        events = trace_events(d)
        for target in TARGETS:
            trace_summary(events, target, samples)
    finally:
        d.quit()


def fmt(ms):
    return f"{ms:.1f}"


def main():
    if sys.argv[1] == "--trace":
        server, driver_url, example_path, samples = sys.argv[2:6]
        trace_main(server, driver_url, open(example_path).read(), int(samples))
        return
    if sys.argv[1] == "--profile":
        server, driver_url, example_path, samples = sys.argv[2:6]
        profile_main(server, driver_url, open(example_path).read(), int(samples))
        return
    server, driver_url, example_path, runs, samples, warmup = sys.argv[1:7]
    runs, samples, warmup = int(runs), int(samples), int(warmup)
    example = open(example_path).read()
    results = []
    for run in range(runs):
        load = open("/proc/loadavg").read().split()[:3]
        r = one_run(driver_url, server, example, samples, warmup)
        results.append(r)
        for label, s in r.items():
            rows = s["rows"]
            print(f"run {run + 1} {label} (load {' '.join(load)}):", file=sys.stderr)
            for t in TARGETS:
                p = rows[t]["paint"]
                print(f"  {t:12} n={rows[t]['n']} paint p50 {fmt(p['p50'])} p90 {fmt(p['p90'])} max {fmt(p['max'])} ms;"
                      f" work p50 {fmt(rows[t]['work']['p50'])} max {fmt(rows[t]['work']['max'])};"
                      f" frame p50 {fmt(rows[t]['frame']['p50'])} max {fmt(rows[t]['frame']['max'])}",
                      file=sys.stderr)
            print(f"  fixed loop ÷ unthrottled: {s['spin']:.2f} before the samples, {s['spin_after']:.2f} after",
                  file=sys.stderr)
            if s["weak"]:
                print(f"  WARNING: run {run + 1}'s throttle weakened during the samples: left out of the medians",
                      file=sys.stderr)
            loaf = s["loaf"]
            print(f"  long-animation-frame entries (>= 50 ms): {len(loaf)}"
                  f"{' max ' + fmt(max(loaf)) if loaf else ''}"
                  f"{'' if s['loafSupported'] else ' (not supported)'}; checks {s['checks']}",
                  file=sys.stderr)
            for p in s["problems"]:
                print(f"  PROBLEM: {p}", file=sys.stderr)
    failed = any(s["problems"] for r in results for s in r.values())

    # The median over runs of each figure, and of each run's same-run ratio.
    # A half whose throttle weakened is left out; all of them weak, the table says so.
    def kept(label):
        good = [r for r in results if not r[label]["weak"]]
        return good or results

    def med(label, target, metric, stat):
        return statistics.median(r[label]["rows"][target][metric][stat] for r in kept(label))

    def ratio(label, target, metric):
        return statistics.median(r[label]["rows"][target][metric]["p50"] / r[label]["rows"]["bare"][metric]["p50"]
                                 for r in kept(label))

    weak = [i + 1 for i, r in enumerate(results) if r["cpu 4x"]["weak"]]
    print(f"Median of {runs} runs, {samples} samples per target per run after {warmup} warm-up"
          " (bare: twice as many, once before each form sample); times in ms."
          + (f" CPU 4x: run(s) {', '.join(map(str, weak))} left out (throttle weakened)" if weak else "")
          + (" (every run's throttle weakened: all kept)" if len(weak) == len(results) else ""))
    print("Per-run paint p50 ÷ bare: " + "; ".join(
        f"{label} {t} " + ", ".join(f"{r[label]['rows'][t]['paint']['p50'] / r[label]['rows']['bare']['paint']['p50']:.2f}"
                                    for r in results)
        for label in ("unthrottled", "cpu 4x") for t in TARGETS[1:]))
    print()
    print("| CPU | target | paint p50 | p90 | max | p50 ÷ bare | work p50 | max | p50 ÷ bare | frame max |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    names = {"bare": "bare `<input>`", "name_prefix": "`basic.name_prefix`", "workers": "`compute.workers`"}
    for label in ("unthrottled", "cpu 4x"):
        for t in TARGETS:
            print(f"| {label} | {names[t]} | {fmt(med(label, t, 'paint', 'p50'))} | {fmt(med(label, t, 'paint', 'p90'))}"
                  f" | {fmt(med(label, t, 'paint', 'max'))} | {ratio(label, t, 'paint'):.2f}"
                  f" | {med(label, t, 'work', 'p50'):.2f} | {fmt(med(label, t, 'work', 'max'))}"
                  f" | {ratio(label, t, 'work'):.1f} | {fmt(med(label, t, 'frame', 'max'))} |")
    print()
    for label in ("unthrottled", "cpu 4x"):
        per_run = [max(r[label]["rows"][t]["frame"]["max"] for t in TARGETS) for r in results]
        loaf = [max(r[label]["loaf"], default=0) for r in results]
        over = [sum(r[label]["over16"][t] for t in TARGETS[1:]) for r in results]
        print(f"{label}: longest keystroke frame per run {', '.join(fmt(x) for x in per_run)} ms;"
              f" form keystroke frames over 16 ms per run {', '.join(str(x) for x in over)};"
              f" long-animation-frame (>= 50 ms) max per run {', '.join(fmt(x) for x in loaf)} ms")
    if failed:
        print("some runs did not show the expected findings or plan changes (above)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
