"""``houserules publish --check``: what CI runs before it publishes the site, runnable locally.

The site is built as ``houserules build`` builds it (``--no-build``: the one in ``-o DIR``), then
every internal link, anchor and offline file is checked (:mod:`houserules.site.linkcheck`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import HouserulesError, display_path
from .common import checked

Runner = Callable[[argparse.Namespace], int]


def publish_command(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument(
        "--check",
        action="store_true",
        required=True,
        help="build the site and check every internal link, anchor and offline file (what CI publishes)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("site"), metavar="DIR", help="the site folder (default: site/)"
    )
    parser.add_argument("--no-build", action="store_true", help="check the site already built in DIR")

    def run(args: argparse.Namespace) -> int:
        from ..build import build_site, configured_site_url
        from ..site.linkcheck import LinkCheck

        target = args.output
        if not args.no_build:
            report = checked(args.data)
            target = build_site(report.kb, args.data, args.output)
            print(f"built {display_path(target)} ({report.summary()})")
        elif not (target / "index.html").is_file():
            raise HouserulesError(f"no built site in {target} (no index.html); build it first, or drop --no-build")
        check = LinkCheck(target, configured_site_url())
        problems = check.problems()
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            raise HouserulesError(
                f"{len(problems)} broken links or missing files in {display_path(target)}; "
                "fix them before publishing (the site online stays as it was)"
            )
        print(f"checked {display_path(target)}: {check.pages} pages, {check.links} internal links, ready to publish")
        return 0

    return run
