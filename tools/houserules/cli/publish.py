"""``houserules publish --check``: what CI runs before it publishes the site, runnable locally.

The site is built as ``houserules build`` builds it (``--no-build``: the one in ``-o DIR``), then
every internal link, anchor and offline file is checked (:mod:`houserules.site.linkcheck`). Data holding
a placeholder of ``houserules new-game`` (a warning of the check) is not built: a published page never
shows one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import HouserulesError, written_path
from .common import NO_PRECOMPRESS_HELP, PROFILE_HELP, checked, profiled, reading

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
    parser.add_argument("--profile", type=Path, metavar="FILE", help=PROFILE_HELP)
    parser.add_argument("--no-precompress", action="store_true", help=NO_PRECOMPRESS_HELP)

    def run(args: argparse.Namespace) -> int:
        from ..build import build_site, configured_site_url
        from ..site.linkcheck import LinkCheck

        target = args.output
        if not args.no_build:
            from ..check.placeholders import game_placeholders

            with reading(args.data, "publish"):
                report = checked(args.data)
                left = list(game_placeholders(report.kb))  # warnings for a preview; never on a published page
                if left:
                    raise HouserulesError(
                        f"{len(left)} placeholders (TODO…) are still in the games' game.yaml (listed above), and the "
                        "site would show them; fill them in, then publish"
                    )
                kb, profile = profiled(report, args.profile)
                target = build_site(kb, args.data, args.output, profile=profile, precompress=not args.no_precompress)
            print(f"built {written_path(target)} ({report.summary()})")
        elif not (target / "index.html").is_file():
            raise HouserulesError(f"no built site in {target} (no index.html); build it first, or drop --no-build")
        check = LinkCheck(target, configured_site_url(args.data))
        problems = check.problems()
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            raise HouserulesError(
                f"{len(problems)} broken links or missing files in {written_path(target)}; "
                "fix them before publishing (the site online stays as it was)"
            )
        print(f"checked {written_path(target)}: {check.pages} pages, {check.links} internal links, ready to publish")
        return 0

    return run
