"""axe-core (the npm package pinned in package.json, installed by ``npm ci``) run on a page in Playwright.

The rules are WCAG 2.1 A and AA (tags wcag2a, wcag2aa, wcag21a, wcag21aa) plus all of axe's
best practices (landmarks, heading order, one h1 and the rest): the site passes them all.
"""

from __future__ import annotations

import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@functools.cache
def axe_source() -> str:
    if not AXE_JS.is_file():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `npm ci` in {ROOT} (make setup does it)")
    return AXE_JS.read_text(encoding="utf-8")


def axe_version(page) -> str:
    inject(page)
    return page.evaluate("() => axe.version")


def inject(page) -> None:
    """Load axe into ``page`` (evaluated through the debugger protocol, so the page's CSP does not block it)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())


def violations(page) -> list[dict]:
    """axe's violations on ``page`` as it is now: [{id, impact, help, nodes: [{target, summary}]}]."""
    inject(page)
    options = {
        "runOnly": {"type": "tag", "values": TAGS},
        "resultTypes": ["violations"],
    }
    return page.evaluate(
        """async (options) => {
            const result = await axe.run(document, options);
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}));
        }""",
        options,
    )


def describe(found: list[dict], limit: int = 4) -> str:
    """One line per rule with its first few nodes: readable in a failed assertion."""
    lines = []
    for v in found:
        nodes = "; ".join(n["target"] for n in v["nodes"][:limit])
        more = f" (+{len(v['nodes']) - limit})" if len(v["nodes"]) > limit else ""
        lines.append(f"{v['id']} [{len(v['nodes'])}] {v['help']}: {nodes}{more}")
    return "\n".join(lines)
