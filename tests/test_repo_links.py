"""Suggest a correction: with repo_url set, each entry page links to its YAML file and to a pre-filled new issue."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from mkdocs.commands.build import build

from conftest import GOOD, ROOT, load_kb
from houserules.build import mkdocs_config
from houserules.site.repo import RepoLinks

REPO = "https://github.com/example/houserules"
_EDIT = re.compile(r'<p class="hr-edit" data-block="edit">(.*?)</p>')


def build_with(data: Path, out: Path, **options: str) -> Path:
    """The site of ``data`` built as mkdocs.yml says, with ``options`` (repo_url, edit_uri...) added."""
    build(mkdocs_config(load_kb(data), data, out, **options))
    return out


def links(page: Path) -> list[tuple[str, str]]:
    found = _EDIT.search(page.read_text(encoding="utf-8"))
    return (
        [
            (unescape(href), re.sub(r"<[^>]+>", "", text))
            for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', found.group(1))
        ]
        if found
        else []
    )


@pytest.mark.slow
def test_without_repo_url_no_entry_page_has_edit_or_issue_links(built_site):
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert 'data-block="edit"' not in html and "issues/new" not in html


_REPORT = re.compile(r'<a class="hr-report" href="([^"]+)" data-report="issue"')


def reports(page: Path) -> list[str]:
    """The 纠错 · Report links of an entry page, in order: its one-line answer's, then each question's."""
    return [unescape(href) for href in _REPORT.findall(page.read_text(encoding="utf-8"))]


def test_each_entry_links_its_file_and_each_answer_a_prefilled_issue(tmp_path):
    site = build_with(GOOD, tmp_path / "site", repo_url=REPO, edit_uri="edit/main/content/")
    [(edit, edit_label)] = links(site / "demo/tower.html")
    assert edit == f"{REPO}/edit/main/tests/fixtures/good/demo/entries/tower.yaml"
    assert edit_label == "编辑此条目 Edit this entry"
    issue, question, unanswered = reports(site / "demo/tower.html")  # its one-line answer's, then its questions'
    assert "DM-R01%2Fwhich-roll" in question and "DM-R01%2Ftower-top" in unanswered
    parts = urlsplit(issue)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{REPO}/issues/new"
    form = parse_qs(parts.query, strict_parsing=True)
    assert form["title"] == ["[DM-R01] 塔楼 · Tower"]
    body = form["body"][0]
    assert body.startswith(
        "条目 · Entry: DM-R01 塔楼 · Tower (demo:tower)\n页面 · Page: demo/tower.html\n文件 · File: "
        "tests/fixtures/good/demo/entries/tower.yaml\n数据版本 · Data version: 2026-11-30 · "
    )
    assert "哪里不对 · What is wrong:" in body and "建议的更正 · Suggested correction:" in body
    # a question's report names its citation and its anchor
    answer, *questions = reports(site / "demo/tower-crossing.html")
    assert len(questions) == 2
    form = parse_qs(urlsplit(questions[1]).query, strict_parsing=True)
    assert form["title"] == ["[DM-A1/failed-roll] 过塔考验失败会怎样？ · What happens if I fail the roll?"]
    assert "问题 · Question: DM-A1/failed-roll 过塔考验失败会怎样？" in form["body"][0]
    assert "页面 · Page: demo/tower-crossing.html#failed-roll\n" in form["body"][0]
    for page in (site / "demo").glob("*.html"):  # every entry page, and only entry pages
        assert bool(links(page)) == bool(reports(page)) == (page.stem in {"tower", "tower-crossing", "tower-errata"})


def test_titles_are_encoded_whole_and_data_outside_the_checkout_gets_the_issue_link_only(tmp_path):
    data = tmp_path / "rules_data"
    shutil.copytree(GOOD, data)
    entry = data / "demo/entries/tower.yaml"
    entry.write_text(
        entry.read_text(encoding="utf-8").replace(
            "title: {zh: 塔楼, en: Tower}", 'title: {zh: "塔楼 & <b>#1?", en: "Tower 100% & more"}'
        ),
        encoding="utf-8",
    )
    site = build_with(
        data,
        tmp_path / "site",
        repo_url=REPO + "/",
        edit_uri="edit/main/content/",
        site_url="https://rules.example.org/hr/",
    )
    assert links(site / "demo/tower.html") == []  # no edit link: the file is not in the repository
    issue, *_ = reports(site / "demo/tower.html")
    query = urlsplit(issue).query
    assert not set(query) - set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%_.-~=&")
    form = parse_qs(query, strict_parsing=True)
    assert form["title"] == ["[DM-R01] 塔楼 & <b>#1? · Tower 100% & more"]
    assert "页面 · Page: https://rules.example.org/hr/demo/tower.html\n" in form["body"][0]
    assert "文件 · File" not in form["body"][0]  # the file is not in the repository


# repo_url, edit_uri (MkDocs' own default for GitHub when unset) → edit link of betrayal/entries/vault.yaml, issue form
CONFIGS = [
    (
        "https://github.com/o/hr",
        "edit/main/content/",
        "https://github.com/o/hr/edit/main/",
        "https://github.com/o/hr/issues/new?",
    ),
    (
        "https://github.com/o/hr",
        "edit/master/docs/",
        "https://github.com/o/hr/edit/master/",
        "https://github.com/o/hr/issues/new?",
    ),
    (
        "https://gitlab.com/o/hr",
        "-/edit/main/",
        "https://gitlab.com/o/hr/-/edit/main/",
        "https://gitlab.com/o/hr/-/issues/new?issue%5Btitle%5D=",
    ),
    (
        "https://github.com/o/hr",
        "https://github.com/o/hr/edit/dev/content/",
        "https://github.com/o/hr/edit/dev/",
        "https://github.com/o/hr/issues/new?",
    ),
    ("https://git.example.org/o/hr", "src/branch/main/", "https://git.example.org/o/hr/src/branch/main/", None),
    ("https://github.com/o/hr", "", None, "https://github.com/o/hr/issues/new?"),
]


@pytest.mark.parametrize("repo_url, edit_uri, edit_base, issue_start", CONFIGS)
def test_edit_and_issue_links_per_host_and_edit_uri(repo_url, edit_uri, edit_base, issue_start):
    kb = load_kb(ROOT / "rules_data")
    entry = kb.entries["betrayal:vault"]
    links = RepoLinks.from_config(repo_url, edit_uri, str(ROOT / "content"), ROOT)
    assert links.edit_url(entry) == (edit_base + "rules_data/betrayal/entries/vault.yaml" if edit_base else None)
    issue = links.issue_url(entry)
    assert (issue is None) if issue_start is None else issue.startswith(issue_start)
