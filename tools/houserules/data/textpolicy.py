"""What data text may link to, shared by the renderer (which enforces it) and the checker (which reports it).

Entries link each other with ``[[game:id]]``; a Markdown link may only leave the
site for the open web (``https://``, ``http://``) or write a mail (``mailto:``).
Relative paths (``../../etc/passwd``), protocol-relative URLs (``//host/x``),
fragments, ``file:``, ``javascript:`` and ``data:`` are never links: the site is
opened from disk and the PDF is read offline, so such a target would reach a
reader's own files or run code.
"""

from __future__ import annotations

from urllib.parse import urlsplit

LINK_SCHEMES = ("http", "https", "mailto")


def allowed_link(url: str) -> bool:
    """Whether a Markdown link in data may point at ``url``.

    >>> [allowed_link(u) for u in ("https://mausritter.com", "mailto:a@b.c", "//evil.test/x",
    ...                            "../../etc/passwd", "#details", "javascript:alert(1)", "HTTPS://X.ORG")]
    [True, True, False, False, False, False, True]
    """
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    if parts.scheme.lower() not in LINK_SCHEMES:
        return False
    return parts.scheme.lower() == "mailto" or bool(parts.netloc)
