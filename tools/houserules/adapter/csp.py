"""A Content-Security-Policy for every page, as defence in depth.

Data never reaches a page as markup (see :mod:`houserules.render.text`), but if
a bug ever let it, the policy stops it from running: scripts only from the site
itself and the theme's own inline scripts, allowed one by one by their hash;
no inline event handlers, no plugins, no requests to other hosts.
"""

from __future__ import annotations

import base64
import hashlib
import re

#: Inline scripts (not ``src=``, not JSON data blocks, which never run).
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>(.*?)</script>", re.S)
_HEAD = re.compile(r"<head[^>]*>", re.I)
_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">')


def policy(html: str) -> str:
    """The policy of one page: its inline scripts by hash, everything else from the site itself."""
    hashes = sorted(
        {
            "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
            for body in _INLINE_SCRIPT.findall(html)
        }
    )
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' " + " ".join(hashes) if hashes else "script-src 'self'",
            # Material sets style attributes from its scripts (palette, scroll positions).
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "font-src 'self' data:",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "frame-src 'self' blob:",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


def add_policy(html: str) -> str:
    """``html`` with the policy of the scripts it holds now as the first element of ``<head>``, in place of
    an earlier one (the live preview adds its reload script to pages already built with a policy).

    >>> page = add_policy('<html><head><title>x</title><script>var a=1</script></head></html>')
    >>> page.startswith('<html><head><meta http-equiv="Content-Security-Policy" content="default-src')
    True
    >>> "script-src 'self' 'sha256-" in page
    True
    >>> add_policy(page) == page, add_policy(page.replace("a=1", "a=2")) == page.replace("a=1", "a=2")
    (True, False)
    """
    html = _META.sub("", html, count=1)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(html)}">'
    return _HEAD.sub(lambda m: m.group(0) + meta, html, count=1)
