"""axe-core on every page kind in both palettes on a desktop, the search dialog closed and open: the matrix of
tests/test_a11y.py (a phone there), in a module of its own so that two workers run the two side by side."""

from __future__ import annotations

import pytest
from test_a11y import DESKTOP, _matrix, base_url, check_page, matrix_tab

pytestmark = pytest.mark.browser

__all__ = ["base_url"]  # the served site, a fixture of this module too


@pytest.fixture(scope="module")
def tab(browser):
    yield from matrix_tab(browser, DESKTOP)


@pytest.mark.parametrize("kind, search, scheme", _matrix(("home", "entry")))  # the short-link and 404 pages: a phone
def test_axe_finds_no_violation_on_a_desktop(tab, base_url, kind, search, scheme):
    check_page(tab, base_url, kind, search, scheme)
