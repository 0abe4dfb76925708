"""Drives bench.html in headless Chromium through chromedriver (WebDriver over plain
HTTP, standard library only) and prints µs per call and same-run ratios.

Usage: drive.py CHROMEDRIVER_URL PAGE_URL RUNS CALLS ROUNDS
"""

import json
import statistics
import sys
import tempfile
import time
import urllib.request


def call(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as resp:
        return json.load(resp)["value"]


def run_once(driver, page, calls, rounds):
    # The flags these machines need (../shared/TOOLCHAIN.md), as tests/e2e/harness.rs.
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            f"--user-data-dir={tempfile.mkdtemp(prefix='berth-bench-')}"]
    caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
        "binary": "/usr/bin/chromium", "args": args}}}}
    session = call("POST", f"{driver}/session", caps)["sessionId"]
    base = f"{driver}/session/{session}"
    try:
        call("POST", f"{base}/timeouts", {"script": 600_000})
        call("POST", f"{base}/url", {"url": page})
        for _ in range(100):
            if call("POST", f"{base}/execute/sync",
                    {"script": "return document.body && document.body.dataset.ready", "args": []}):
                break
            time.sleep(0.1)
        script = ("const done = arguments[arguments.length - 1];"
                  "window.runBench(arguments[0], arguments[1])"
                  ".then(done, (e) => done({ error: String(e) }));")
        result = call("POST", f"{base}/execute/async", {"script": script, "args": [calls, rounds]})
        if isinstance(result, dict):
            sys.exit(f"the bench page failed: {result['error']}")
        return dict(result)
    finally:
        call("DELETE", base)


def main():
    driver, page, runs, calls, rounds = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    ratios = {}
    for run in range(1, runs + 1):
        result = run_once(driver, page, calls, rounds)
        old = next(k for k in result if k.startswith("validateTask"))
        print(f"run {run} (median of {rounds} rounds of {calls} calls; validateTask {calls // 10})")
        for name, us in result.items():
            ratio = us / result[old]
            ratios.setdefault(name, []).append(ratio)
            print(f"  {us:9.2f} µs/call  {ratio:6.3f} × validateTask   {name}")
    print(f"median over {runs} runs of the same-run ratio to validateTask (and its inverse):")
    for name, rs in ratios.items():
        m = statistics.median(rs)
        print(f"  {m:6.3f} ×  ({1 / m:6.1f} × faster)   {name}")


if __name__ == "__main__":
    main()
