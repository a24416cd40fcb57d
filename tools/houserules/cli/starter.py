"""``houserules init DIR``: a new, empty knowledge base for a group, as ``mkdocs new`` or ``hugo new site`` start one.

What the group owns is written into the folder: ``mkdocs.yml`` (its site's name, colours and address), the
hand-written pages (``content/``: home, guide, licences), an empty ``rules_data/`` with its shared synonym
table, and the README's two commands (``make serve``, ``make test``) with a ``Makefile`` and a
``requirements.txt`` that pins the houserules it was made with. What comes with houserules stays in the
installed package and moves with its version: the theme (the search box and its worker, styles, icons), the
generated pages, the checks. The files come from the package's ``starter/`` folder (a name ending in ``.in``
is a template; ``gitignore`` becomes ``.gitignore``), are written into a temporary folder beside ``DIR`` and
moved into place at the end: a failure leaves nothing behind.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..errors import HouserulesError, display_path, visible, written_path

Runner = Callable[[argparse.Namespace], int]

STARTER = Path(__file__).resolve().parents[1] / "starter"
TEMPLATE = ".in"
RENAMED = {"gitignore": ".gitignore"}
#: Characters a site name may not hold: the theme prints the name into HTML and attributes as it is.
_NOT_IN_NAME = re.compile(r"[<>&\"\\]")
#: The longest name shown under the app's icon on a phone (longer names keep the default there).
SHORT_NAME = 12


def houserules_requirement() -> tuple[str, str, str]:
    """How ``requirements.txt`` names the houserules that runs now: (requirement, version, where it came from).

    From the installation's record of where it was installed from (PEP 610 ``direct_url.json``): a
    repository at its commit, an archive, a folder (a checkout), else the version from a package index.
    The record's URL is the installer's: a folder's path as it was given to pip, made absolute.
    """
    from importlib import metadata

    # A checkout holds the metadata a build left in it (tools/houserules.egg-info) beside the installed record:
    # the installed one is the one with a record of where it came from, or of its installer.
    found = list(metadata.distributions(name="houserules"))
    if not found:
        raise HouserulesError("houserules is not installed as a package (pip install it) — cannot pin its version")
    dist = next(
        (d for d in found if d.read_text("direct_url.json")),
        next((d for d in found if d.read_text("INSTALLER")), found[0]),
    )
    version = dist.version
    record = dist.read_text("direct_url.json")
    info = json.loads(record) if record else {}
    url = str(info.get("url", ""))
    if "vcs_info" in info:
        vcs = info["vcs_info"]
        commit = vcs.get("commit_id", "")
        return f"houserules @ {vcs['vcs']}+{url}@{commit}", version, f"{url} at {commit[:12]}"
    if "archive_info" in info:
        return f"houserules @ {url}", version, url
    if "dir_info" in info:
        how = "checked out there" if info["dir_info"].get("editable") else "installed from there"
        return f"houserules @ {url}", version, f"the folder {url.removeprefix('file://')}, {how}"
    return f"houserules=={version}", version, "a package index"


def _site_name(name: str) -> str:
    from ..data.authoring.scaffold import one_line

    one_line("--name", name)
    found = _NOT_IN_NAME.search(name)
    if found:
        raise HouserulesError(
            f"--name {visible(repr(name))} holds '{found.group()}', which the site's pages would read as markup — "
            'write the name without < > & " \\'
        )
    return name.strip()


def starter_files(name: str) -> dict[str, bytes]:
    """Every file of a new knowledge base named ``name``: path inside it → contents."""
    import jinja2

    from ..render.text import escape_md

    requirement, version, origin = houserules_requirement()
    values = {
        "site_name_yaml": json.dumps(name, ensure_ascii=False),
        "site_name_md": escape_md(name),
        "short_name_yaml": json.dumps(name, ensure_ascii=False) if len(name) <= SHORT_NAME else "",
        "requirement": requirement,
        "version": version,
        "origin": origin,
    }
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
    files: dict[str, bytes] = {}
    for path in sorted(p for p in STARTER.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        relative = path.relative_to(STARTER).as_posix()
        data = path.read_bytes()
        if relative.endswith(TEMPLATE):
            relative = relative.removesuffix(TEMPLATE)
            data = env.from_string(data.decode("utf-8")).render(values).encode("utf-8")
        files[RENAMED.get(relative, relative)] = data
    return files


def _target(folder: Path) -> bool:
    """Refuse a ``folder`` that is not new or empty; whether it exists (empty)."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise HouserulesError(f"{display_path(folder)} is not a folder — give a new or empty folder")
    if not folder.exists():
        return False
    try:
        inside = sorted(p.name for p in folder.iterdir())
    except OSError as exc:
        raise HouserulesError(f"cannot read {display_path(folder)}: {exc.strerror or exc}") from None
    if inside:
        shown = ", ".join(inside[:5]) + (", …" if len(inside) > 5 else "")
        raise HouserulesError(
            f"{display_path(folder)} is not empty ({shown}) — init starts a new knowledge base in a new or empty "
            "folder; to add a game to an existing one, run 'houserules new-game' there"
        )
    return True


def write_starter(folder: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` into ``folder`` (new or empty) whole, or nothing."""
    folder = Path(os.path.abspath(folder))
    exists = _target(folder)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-init-", dir=folder.parent))
    except OSError as exc:
        raise HouserulesError(f"cannot write beside {display_path(folder)}: {exc.strerror or exc}") from None
    moved: list[Path] = []
    try:
        staged = work / "kb"
        for relative, data in files.items():
            path = staged / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for made in [staged, *staged.rglob("*")]:
            made.chmod(0o755 if made.is_dir() else 0o644)
        if not exists:
            staged.rename(folder)  # one step: the whole folder appears, or none of it
        else:  # an empty folder (perhaps the working folder itself) keeps its identity: its new contents move in
            for child in sorted(staged.iterdir()):
                child.rename(folder / child.name)
                moved.append(folder / child.name)
    except BaseException as exc:
        for path in moved:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise HouserulesError(
                f"cannot write {display_path(folder)}: {exc.strerror or exc}; nothing was written"
            ) from None
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)


def init_command(parser: argparse.ArgumentParser) -> Runner:
    parser.add_argument("folder", type=Path, metavar="DIR", help="a new or empty folder for the knowledge base")
    parser.add_argument("--name", metavar="NAME", help="the site's name (default: the folder's name)")

    def run(args: argparse.Namespace) -> int:
        folder: Path = args.folder
        name = _site_name(args.name if args.name is not None else Path(os.path.abspath(folder)).name)
        files = starter_files(name)
        write_starter(folder, files)
        where = written_path(folder)
        shown = ", ".join(p for p in files if "/" not in p)
        print(f"wrote {where}/ ({name}): {shown}, content/, rules_data/")
        print(f"houserules is pinned as: {houserules_requirement()[0]} (requirements.txt)")
        print("Next (README.md):")
        print(f"  cd {where}")
        print("  make serve     # set up .venv/, build the site and serve it on http://127.0.0.1:8000/")
        print("  .venv/bin/houserules new-game SLUG --zh 名称 --en Name --code XX [--source FILE]")
        return 0

    return run
