"""Suggest a correction: each entry page's links to its own YAML file and to a pre-filled new issue.

Only when ``repo_url`` is set in ``mkdocs.yml``. ``edit_uri`` is MkDocs' path from the
repository to the docs folder (``edit/main/content/``); the entry files live beside
that folder, so the docs folder's part is dropped to reach the repository's root.
Unset, MkDocs guesses ``edit/master/docs/`` for GitHub: set it when the branch is
another. The new-issue form is GitHub's (``issues/new?title=&body=``) or GitLab's;
another host gets the edit link only, and a data folder outside the checkout (whose
files the repository cannot hold) the issue link only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from ..data.reading.model import Entry
from ..render.urls import entry_url, question_url


@dataclass(frozen=True)
class RepoLinks:
    repo_url: str
    #: Where the repository's files are edited, ending in '/' (None: no edit links).
    edit_base: str | None
    #: The checkout's root folder on this machine (the folder of mkdocs.yml).
    root: Path
    #: The site's public address, for the page link in an issue.
    site_url: str | None = None
    version: str = ""

    @classmethod
    def from_config(
        cls,
        repo_url: str | None,
        edit_uri: str | None,
        docs_dir: str,
        root: Path,
        site_url: str | None = None,
        version: str = "",
    ) -> RepoLinks | None:
        """The links of a site configured with ``repo_url`` (None without it).

        >>> RepoLinks.from_config("https://github.com/o/hr", "edit/main/content/", "/x/content", Path("/x")).edit_base
        'https://github.com/o/hr/edit/main/'
        >>> RepoLinks.from_config("https://github.com/o/hr/", "edit/master/docs/", "/x/content", Path("/x")).edit_base
        'https://github.com/o/hr/edit/master/'
        """
        if not repo_url:
            return None
        repo_url = repo_url.rstrip("/")
        base = None
        if edit_uri:
            uri = edit_uri if edit_uri.endswith("/") else edit_uri + "/"
            docs = Path(docs_dir)
            docs_part = (
                docs.relative_to(root) if docs.is_absolute() and docs.is_relative_to(root) else docs
            ).as_posix()
            for suffix in (docs_part + "/", "docs/"):  # "docs/": MkDocs' guess when edit_uri is not set
                if uri.endswith("/" + suffix) or uri == suffix:
                    uri = uri[: -len(suffix)]
                    break
            base = uri if urlsplit(uri).scheme else f"{repo_url}/{uri.lstrip('/')}"
        return cls(repo_url, base, root, site_url.rstrip("/") + "/" if site_url else None, version)

    def file_in_repo(self, entry: Entry) -> str | None:
        """The entry file's path in the repository (None when the data lives outside the checkout)."""
        try:
            return entry.path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def edit_url(self, entry: Entry) -> str | None:
        path = self.file_in_repo(entry)
        return self.edit_base + quote(path) if self.edit_base and path else None

    def issue_url(self, entry: Entry, question: str = "") -> str | None:
        """A new issue about the entry, or one of its questions (``question``: its id), its title and body filled in
        (GitHub's or GitLab's form): the entry's code, the question's citation, the page and the data version.
        Every part is percent-encoded whole: a title may hold ``&``, ``#`` or ``%``."""
        asked = next((q for q in entry.questions if q.id == question), None) if question else None
        cite = f"{entry.code}/{question}" if asked else entry.code
        if asked is not None:
            title = f"[{cite}] {asked.q['zh']} · {asked.q['en']}"
        else:
            title = f"[{cite}] {entry.title['zh']} · {entry.title['en']}"
        lines = [f"条目 · Entry: {entry.code} {entry.title['zh']} · {entry.title['en']} ({entry.ref})"]
        if asked is not None:
            lines.append(f"问题 · Question: {cite} {asked.q['zh']} · {asked.q['en']}")
        page = question_url(entry, question) if asked else entry_url(entry)
        lines.append(f"页面 · Page: {self.site_url}{page}" if self.site_url else f"页面 · Page: {page}")
        path = self.file_in_repo(entry)
        if path:
            lines.append(f"文件 · File: {path}")
        if self.version:
            lines.append(f"数据版本 · Data version: {self.version}")
        lines += [
            "",
            "哪里不对 · What is wrong:",
            "",
            "",
            "建议的更正 · Suggested correction:",
            "",
            "",
            "出处 · Source (rulebook page, official FAQ…):",
            "",
        ]
        return new_issue_url(self.repo_url, title, "\n".join(lines))

    def translation_url(self, game: str) -> str | None:
        """A new issue to send back a translator's file for ``game`` (its name), the file to be attached to it."""
        lines = [f"游戏 · Game: {game}"]
        if self.version:
            lines.append(f"下载时的数据版本 · Data version downloaded: {self.version}")
        lines += [
            "",
            "请把改好的 XLIFF 或 PO 文件拖到这里附上 · Attach the edited XLIFF or PO file here (drag it in).",
            "",
            "维护者导入 · The maintainer imports it: houserules l10n import FILE --dry-run, then without --dry-run",
            "",
        ]
        return new_issue_url(self.repo_url, f"译文 · Translation: {game}", "\n".join(lines))


def new_issue_url(repo_url: str, title: str, body: str) -> str | None:
    """A new issue on ``repo_url`` with its title and body filled in (GitHub's or GitLab's form; None on another
    host); every part percent-encoded whole.

    >>> new_issue_url("https://gitlab.com/o/hr", "a&b", "#1")
    'https://gitlab.com/o/hr/-/issues/new?issue%5Btitle%5D=a%26b&issue%5Bdescription%5D=%231'
    """
    host = urlsplit(repo_url).netloc.lower()
    if "github" in host:
        return f"{repo_url}/issues/new?" + urlencode({"title": title, "body": body}, safe="", quote_via=quote)
    if "gitlab" in host:
        return f"{repo_url}/-/issues/new?" + urlencode(
            {"issue[title]": title, "issue[description]": body}, safe="", quote_via=quote
        )
    return None


#: Stands for the query in :func:`missing_ruling_url` (the search worker writes the query, URL-encoded, there).
QUERY_MARK = "HRQUERY"


def missing_ruling_url(repo: RepoLinks) -> str | None:
    """A new issue asking for the ruling a told question found none for, with :data:`QUERY_MARK` where the
    question goes (GitHub's or GitLab's form; None on another host): what the site's search offers when no
    ruling answers a question exactly.

    >>> missing_ruling_url(RepoLinks("https://github.com/o/hr", None, Path("/x"), None, "v1")).count(QUERY_MARK)
    2
    """
    title = f"没有条目回答 · No ruling answers: {QUERY_MARK}"
    lines = [f"问题 · Question: {QUERY_MARK}"]
    if repo.version:
        lines.append(f"数据版本 · Data version: {repo.version}")
    lines += ["", "出处 · Source (rulebook page, official FAQ…):", ""]
    return new_issue_url(repo.repo_url, title, "\n".join(lines))
