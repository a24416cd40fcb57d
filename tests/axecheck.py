"""axe-core (the npm package pinned in package.json, installed by ``npm ci``) run on a page in Playwright.

The rules are WCAG 2.1 A and AA (tags wcag2a, wcag2aa, wcag21a, wcag21aa) plus axe's best
practices, less the few best practices that are a matter of taste rather than access.
"""

from __future__ import annotations

import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

#: Best practices left out, each an opinion rather than a barrier:
#: - region: every piece of content inside a landmark (Material's skip link and overlays sit outside);
#: - heading-order: Material's search result cards put h1 under h2 pages by design of the theme;
#: - page-has-heading-one: the 404 page and the printed-FAQ list have a title in their own header.
OPINIONS = ["region"]


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


def violations(page, *, exclude: list[str] | None = None) -> list[dict]:
    """axe's violations on ``page`` as it is now: [{id, impact, help, nodes: [{target, summary}]}]."""
    inject(page)
    options = {
        "runOnly": {"type": "tag", "values": TAGS},
        "rules": {rule: {"enabled": False} for rule in OPINIONS},
        "resultTypes": ["violations"],
    }
    context = {"exclude": [[s] for s in exclude]} if exclude else {"include": [["html"]]}
    return page.evaluate(
        """async ([context, options]) => {
            const result = await axe.run(context.include ? document : context, options);
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))}));
        }""",
        [context, options],
    )


def describe(found: list[dict], limit: int = 4) -> str:
    """One line per rule with its first few nodes: readable in a failed assertion."""
    lines = []
    for v in found:
        nodes = "; ".join(n["target"] for n in v["nodes"][:limit])
        more = f" (+{len(v['nodes']) - limit})" if len(v["nodes"]) > limit else ""
        lines.append(f"{v['id']} [{len(v['nodes'])}] {v['help']}: {nodes}{more}")
    return "\n".join(lines)
