"""Where the published site lives: its address and its repository, from the environment first.

A fork publishes at its own address (``https://<owner>.github.io/<repo>/``), so the
QR codes of the printed FAQ, the feed's absolute links and the pages' edit links
cannot come from a committed ``mkdocs.yml``. Read in this order:

- ``HOUSERULES_SITE_URL``, ``HOUSERULES_REPO_URL``, ``HOUSERULES_EDIT_URI``;
- in GitHub Actions, the repository (``GITHUB_SERVER_URL``/``GITHUB_REPOSITORY``, branch
  ``GITHUB_REF_NAME``); the Pages address is handed over by the workflow as
  ``HOUSERULES_SITE_URL`` (``actions/configure-pages`` knows it, custom domains included);
- in GitLab CI, ``CI_PAGES_URL``, ``CI_PROJECT_URL`` and ``CI_COMMIT_REF_NAME``;
- else ``site_url``, ``repo_url`` and ``edit_uri`` of ``mkdocs.yml`` (the caller's fallback).

>>> environment_urls({"HOUSERULES_SITE_URL": "https://o.github.io/hr", "GITHUB_ACTIONS": "true",
...     "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/hr", "GITHUB_REF_NAME": "main"})
{'site_url': 'https://o.github.io/hr/', 'repo_url': 'https://github.com/o/hr', 'edit_uri': 'edit/main/content/'}
>>> environment_urls({"GITLAB_CI": "true", "CI_PAGES_URL": "https://o.gitlab.io/hr",
...     "CI_PROJECT_URL": "https://gitlab.com/o/hr", "CI_COMMIT_REF_NAME": "main"})
{'site_url': 'https://o.gitlab.io/hr/', 'repo_url': 'https://gitlab.com/o/hr', 'edit_uri': '-/edit/main/content/'}
>>> environment_urls({})
{}
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from urllib.parse import urlsplit

from ..errors import HouserulesError, visible

SITE_URL = "HOUSERULES_SITE_URL"
REPO_URL = "HOUSERULES_REPO_URL"
EDIT_URI = "HOUSERULES_EDIT_URI"
#: The folder of the hand-written pages in the repository (``docs_dir`` of mkdocs.yml).
DOCS_DIR = "content"


def http_address(value: str) -> bool:
    """Whether ``value`` is an http(s) address with a host (a site's or a repository's public address).

    >>> http_address("https://o.github.io/hr/"), http_address("javascript:alert(1)"), http_address("file:///etc")
    (True, False, False)
    """
    parts = urlsplit(value)
    return parts.scheme in {"http", "https"} and bool(parts.netloc)


def _address(name: str, value: str) -> str:
    if not http_address(value):
        raise HouserulesError(
            f"{name}={value!r} is not an http(s) address — set it to a full address such as "
            "https://your-name.github.io/houserules/ (or unset it to use mkdocs.yml)"
        )
    return value


def edit_path(value: str) -> bool:
    r"""Whether ``value`` may be ``edit_uri``: a path in the repository (``edit/main/content/``, joined to
    the repository's address) or an http(s) address with a host. Nothing a browser reads as another
    scheme (``javascript:``, ``data:``, ``vbscript:``, ``file:``) or as another host (``//host``,
    ``/\\host``), and no space, control, format or separator character, which browsers drop or read
    otherwise than this test does (``java\tscript:``).

    >>> [edit_path(v) for v in ("edit/main/content/", "https://git.example/o/hr/-/edit/main/", "javascript:alert(1)")]
    [True, True, False]
    >>> [edit_path(v) for v in ("//evil.example/x", "/\\evil.example", "java\nscript:x", "edit/ main/")]
    [False, False, False, False]
    """
    if not value or "\\" in value or value.startswith("//"):
        return False
    if any(c.isspace() or unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"} for c in value):
        return False
    return http_address(value) if urlsplit(value).scheme or ":" in value.split("/", 1)[0] else True


def _edit(value: str) -> str:
    if not edit_path(value):
        raise HouserulesError(
            f"{EDIT_URI}={visible(repr(value))} is neither a path in the repository nor an http(s) address — set "
            "it to a path such as edit/main/content/ (or a full https:// address), or unset it to use the default"
        )
    return value


def _edit_uri(repo_url: str, branch: str) -> str:
    """The edit path MkDocs needs for ``repo_url`` (GitLab's has ``-/``)."""
    prefix = "-/edit" if "gitlab" in urlsplit(repo_url).netloc.lower() else "edit"
    return f"{prefix}/{branch}/{DOCS_DIR}/"


def environment_urls(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``site_url``, ``repo_url`` and ``edit_uri`` the environment sets (only those it sets)."""
    env = os.environ if env is None else env
    site = env.get(SITE_URL, "").strip()
    repo = env.get(REPO_URL, "").strip()
    branch = ""
    if env.get("GITHUB_ACTIONS") == "true":
        if not repo and env.get("GITHUB_REPOSITORY"):
            repo = f"{env.get('GITHUB_SERVER_URL') or 'https://github.com'}/{env['GITHUB_REPOSITORY']}"
        branch = env.get("GITHUB_REF_NAME", "")
    elif env.get("GITLAB_CI") == "true":
        site = site or env.get("CI_PAGES_URL", "").strip()
        repo = repo or env.get("CI_PROJECT_URL", "").strip()
        branch = env.get("CI_COMMIT_REF_NAME", "")
    found: dict[str, str] = {}
    if site:
        found["site_url"] = _address(SITE_URL, site).rstrip("/") + "/"
    if repo:
        found["repo_url"] = _address(REPO_URL, repo).rstrip("/")
        edit = env.get(EDIT_URI, "").strip()
        found["edit_uri"] = _edit(edit) if edit else _edit_uri(found["repo_url"], branch or "main")
    return found
