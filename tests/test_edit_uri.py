"""``HOUSERULES_EDIT_URI`` is checked as the other addresses are: a path in the repository or an
http(s) address, never a ``javascript:`` href.

The edit path becomes the "edit this page" link of every page (MkDocs joins it to the
repository's address; the entry pages' own links too, ``site.repo.RepoLinks``). Refused: any
other scheme, in any case, behind spaces or controls a browser drops (``java\\tscript:``), an
address of another host (``//host``, ``/\\host``), and any space, control, format or separator
character. A property test hands it any text and checks that what it accepts always makes http(s)
links, and on the repository's host when it is a path.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from houserules.errors import HouserulesError
from houserules.site.publishing import edit_path, environment_urls
from houserules.site.repo import RepoLinks

REPO = "https://github.com/o/hr"
BAD = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "javascript://%0aalert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "ftp://files.example/x",
    "https:evil.example/x",
    "http://",
    "//evil.example/edit/",
    "///evil.example/edit/",
    "/\\evil.example/edit/",
    "\\\\evil.example\\edit",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java\rscript:alert(1)",
    "\x01javascript:alert(1)",
    "\u200bjavascript:alert(1)",
    "\u2028javascript:alert(1)",
    "edit/\u202emain/",
    "edit/ main/",
    "edit/main/\x7f",
    "edit/\u3000main/",
]
GOOD = [
    "edit/main/content/",
    "-/edit/main/content/",
    "blob/dev/docs",
    "/o/hr/edit/main/content/",
    "https://github.com/o/hr/edit/dev/content/",
    "http://git.example:8080/o/hr/-/edit/main/",
]


def env(edit: str) -> dict[str, str]:
    return {"HOUSERULES_REPO_URL": REPO, "HOUSERULES_EDIT_URI": edit}


@pytest.mark.parametrize("value", BAD, ids=repr)
def test_a_bad_edit_uri_is_refused_with_a_clear_message(value):
    with pytest.raises(HouserulesError) as caught:
        environment_urls(env(value))
    message = str(caught.value)
    assert message.startswith("HOUSERULES_EDIT_URI='")
    assert message.endswith(
        "' is neither a path in the repository nor an http(s) address — set it to a path such as "
        "edit/main/content/ (or a full https:// address), or unset it to use the default"
    )
    assert all(c.isprintable() for c in message)  # the value's controls shown as escapes


@pytest.mark.parametrize("value", GOOD)
def test_a_path_or_an_http_address_is_kept(value):
    assert environment_urls(env(value))["edit_uri"] == value


def test_without_it_the_default_path_is_used():
    assert environment_urls(env(""))["edit_uri"] == "edit/main/content/"


def links(edit: str) -> list[str]:
    """The edit links made from ``edit``: MkDocs' for a page, and the entry pages' own."""
    base = RepoLinks.from_config(REPO, edit, "/x/content", Path("/x")).edit_base
    return [urljoin(REPO + "/", (edit if edit.endswith("/") else edit + "/") + "index.md"), f"{base}rules_data/x.yaml"]


@given(
    st.one_of(
        st.sampled_from(BAD + GOOD),
        st.text(alphabet="jvascript:/\\.%@ \t\n\u2028\u200b\x00edit-ABChttps", max_size=24),
        st.text(max_size=12),
    )
)
def test_what_is_accepted_always_links_to_an_http_address(value):
    if value.strip() and not edit_path(value.strip()):
        with pytest.raises(HouserulesError):
            environment_urls(env(value))
        return
    edit = environment_urls(env(value))["edit_uri"]
    for link in links(edit):
        parts = urlsplit(link)
        assert parts.scheme in {"http", "https"} and parts.netloc, (value, link)
        if not urlsplit(edit).scheme:
            assert parts.netloc == "github.com", (value, link)
