"""The accessibility checkers readers' tools use, run as the tests' judges: axe-core
inside Debian's Chromium for the HTML book, Ace by DAISY for the EPUB.  Both come from
npm (``scripts/install-node-tools.sh``, which ``make test`` runs); neither downloads a
browser.  A violation is returned as one line: the rule, its impact and where."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from tests.browser import fresh
from tests.conftest import REPO

NODE_MODULES = REPO / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
ACE = NODE_MODULES / ".bin" / "ace-cli"
INSTALL = "bash scripts/install-node-tools.sh (make test runs it)"
# The reader's situations the issue names: the page in light and dark on a desktop, and
# on a 390 px phone.
VIEWS = (("light", 1400), ("dark", 1400), ("light", 390), ("dark", 390))

RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document).then(
  (result) => done(result.violations.map((v) => [v.id, v.impact,
      v.nodes.slice(0, 3).map((n) => n.target.join(" ") + ": " +
        (n.failureSummary || "").split("\\n").slice(1, 2).join("").trim())])),
  (error) => done([["axe-error", "critical", [String(error)]]]));
"""


def axe(browser: Any, address: str, scheme: str = "light", width: int = 1400) -> list[str]:
    """axe-core's violations (every rule it runs by default) on the page at ``address``,
    in ``scheme`` at ``width`` pixels."""
    assert AXE.is_file(), f"axe-core is missing: {INSTALL}"
    browser.set_window_size(width, 900)
    try:
        fresh(browser, address, scheme)
        browser.set_script_timeout(120)
        browser.execute_script(AXE.read_text(encoding="utf-8"))
        found = browser.execute_async_script(RUN_AXE)
    finally:
        browser.set_window_size(1400, 1000)
    return [f"{rule} ({impact}) at {'; '.join(nodes)}" for rule, impact, nodes in found]


def ace(epub: Path, out: Path) -> list[str]:
    """Ace by DAISY's violations on ``epub`` (its report in ``out``)."""
    assert ACE.is_file(), f"Ace by DAISY is missing: {INSTALL}"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "scripts/install-system-deps.sh --dev installs Chromium"
    env = dict(os.environ, PUPPETEER_EXECUTABLE_PATH=chromium, PUPPETEER_SKIP_DOWNLOAD="1")
    run = subprocess.run(
        [str(ACE), "--force", "--silent", "--outdir", str(out), str(epub)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    report = out / "report.json"
    assert report.is_file(), f"Ace wrote no report (exit {run.returncode}): {run.stderr[-2000:]}"
    data = json.loads(report.read_text(encoding="utf-8"))
    found = []
    for page in data.get("assertions", []):
        for test in page.get("assertions", []):
            result = test.get("earl:result", {})
            if result.get("earl:outcome") != "fail":
                continue
            rule = test["earl:test"]
            where = ", ".join(result.get("earl:pointer", {}).get("css", []))
            found.append(
                f"{page['earl:testSubject']['url']}: {rule['dct:title']} "
                f"({rule['earl:impact']}) at {where}: {result.get('dct:description', '')}"
            )
    outcome = data.get("earl:result", {}).get("earl:outcome")
    assert found or outcome == "pass", f"Ace's outcome is {outcome} with no assertion"
    return found
