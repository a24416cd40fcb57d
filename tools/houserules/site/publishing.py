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
from collections.abc import Mapping
from urllib.parse import urlsplit

from ..errors import HouserulesError

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
        found["edit_uri"] = edit or _edit_uri(found["repo_url"], branch or "main")
    return found
