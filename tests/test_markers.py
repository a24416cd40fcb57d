"""The markers tell the truth: an unmarked test that launches Chromium, lays out a PDF or builds the real site fails.

The guards live in tests/conftest.py; each one fails the test before the expensive work starts.
"""

from __future__ import annotations

import pytest

from conftest import DATA, module_order, require_marker


def test_an_unmarked_test_that_launches_chromium_fails():
    from playwright.sync_api import BrowserType

    with pytest.raises(pytest.fail.Exception, match="launches Chromium but is not marked browser"):
        BrowserType.launch(None)


def test_an_unmarked_test_that_lays_out_a_pdf_fails():
    from houserules.print import pdf

    with pytest.raises(pytest.fail.Exception, match="lays out a PDF but is not marked slow or browser"):
        pdf.render("<p>x</p>", "a4")


def test_an_unmarked_test_that_builds_the_printed_faq_fails(tmp_path):
    from houserules.print import faq

    with pytest.raises(pytest.fail.Exception, match="builds the printed FAQ but is not marked slow"):
        faq.build_pdfs(None, tmp_path, None)


def test_an_unmarked_test_that_builds_the_real_site_fails(tmp_path):
    from houserules import build

    with pytest.raises(pytest.fail.Exception, match="builds the whole site of the real data but is not marked slow"):
        build.mkdocs_build(None, DATA, tmp_path)


@pytest.mark.slow
def test_a_marked_test_passes_the_guard():
    require_marker("builds a site", "slow", "browser")


def test_the_module_with_most_tests_of_the_real_site_goes_first_then_the_most_tests():
    """Workers take modules in this order: the real data's site starts building at once, on one worker."""
    from types import SimpleNamespace

    def items(module: str, count: int, *fixtures: str) -> list:
        return [SimpleNamespace(nodeid=f"{module}::t{n}", fixturenames=fixtures) for n in range(count)]

    collected = (
        items("tests/test_check.py", 40)
        + items("tests/test_pages.py", 3, "built_site")
        + items("tests/test_matrix.py", 20, "browser", "built_site")
        + items("tests/test_search.py", 60)
        + items("tests/test_other.py", 20)
    )
    assert module_order(collected) == [
        "tests/test_matrix.py",
        "tests/test_search.py",
        "tests/test_check.py",
        "tests/test_other.py",
        "tests/test_pages.py",
    ]
    assert module_order(items("tests/test_a.py", 1) + items("tests/test_b.py", 2)) == [
        "tests/test_b.py",
        "tests/test_a.py",
    ]


def test_the_long_modules_of_few_tests_go_next_after_the_real_site_longest_first():
    """A module of a few long tests (conftest.LONG_MODULES) starts before the modules of many short ones."""
    from types import SimpleNamespace

    from conftest import LONG_MODULES

    def items(module: str, count: int, *fixtures: str) -> list:
        return [SimpleNamespace(nodeid=f"{module}::t{n}", fixturenames=fixtures) for n in range(count)]

    first, second = LONG_MODULES[:2]
    collected = (
        items("tests/test_check.py", 40)
        + items(second, 2)
        + items("tests/test_pages.py", 3, "built_site")
        + items(first, 1)
    )
    assert module_order(collected) == ["tests/test_pages.py", first, second, "tests/test_check.py"]
