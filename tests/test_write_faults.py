"""Writing into a data folder under faults: all files or none, one writer at a time.

``l10n import``, ``stamp`` and ``new`` commit through one journal (``data/authoring/transaction.py``).
Here they are crashed at every step of a commit (in this process, the on-disk state a crash
leaves), killed with SIGKILL at each step and at random points (a real process, paused at a step by
``HOUSERULES_TEST_PAUSE_AT``), interrupted with SIGTERM and Ctrl-C, and run two at a time. After
the next command of any kind, every YAML file is either all as before or all as the import makes it.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from translate.storage import pypo, xliff2

from conftest import FIXTURES, HOUSERULES, run_cli
from houserules.data.authoring import transaction
from houserules.data.reading.load import load
from houserules.export.l10n_import import import_file

SOURCE_DATA = FIXTURES / "translators" / "data"


def make_data(tmp_path: Path, name: str = "data") -> Path:
    target = tmp_path / name
    shutil.copytree(SOURCE_DATA, target)
    return target


def snapshot(data: Path) -> dict[str, bytes]:
    """Every file of the data folder (hidden ones too: a leftover new file would show)."""
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


def leftovers(tmp_path: Path, data: Path) -> list[str]:
    """What a commit may leave beside or inside the data folder, but its lock."""
    beside = [p.name for p in tmp_path.iterdir() if p.name.startswith(f".{data.name}.") and p.suffix != ".lock"]
    inside = [str(p.relative_to(data)) for p in data.rglob(".*")]
    return beside + inside


def edited_xliff(tmp_path: Path, data: Path, texts: dict[str, str], name: str = "out.xlf") -> Path:
    """The XLIFF export of ``data`` with these targets changed (by XLIFF id), as a CAT tool saves it."""
    path = tmp_path / name
    assert run_cli("l10n", "export", "--data", str(data), "-o", str(path), cwd=tmp_path).returncode == 0
    store = xliff2.Xliff2File.parsestring(path.read_bytes())
    by_id = {u.getid(): u for u in store.units}
    for uid, text in texts.items():
        by_id[uid].target = text
    path.write_bytes(bytes(store))
    return path


#: Three files change: two entries and the glossary.
EDITS = {
    "demo:tower-crossing.title": "Going through the Tower",
    "demo:tower.summary": "A room with a barrier: crossing it takes a Might roll.",
    "demo:glossary.tower.note": "A room with a barrier.",
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The fixture's files before the import and after a clean one."""
    tmp = tmp_path_factory.mktemp("clean")
    data = make_data(tmp)
    before = snapshot(data)
    path = edited_xliff(tmp, data, EDITS)
    result = run_cli("l10n", "import", "--data", str(data), str(path), cwd=tmp)
    assert result.returncode == 0, result.stderr
    after = snapshot(data)
    assert after != before and len([k for k in after if after[k] != before[k]]) == 3
    return before, after


def all_old_or_all_new(data: Path, outcomes: tuple[dict[str, bytes], dict[str, bytes]]) -> str:
    now = snapshot(data)
    before, after = outcomes
    assert now in (before, after), [k for k in now if now[k] not in (before.get(k), after.get(k))]
    return "old" if now == before else "new"


# -- a crash at every step of a commit (in this process) ------------------------------------------------


class Crash(BaseException):
    """The process stops here: nothing after it runs, not even the clean-up a crash would not run."""


def import_crashing_at(tmp_path: Path, data: Path, path: Path, monkeypatch, step: int) -> list[str]:
    """Import ``path``, crashing before commit step ``step`` (0: no crash); the steps it went through."""
    steps: list[str] = []

    def point(name: str) -> None:
        steps.append(name)
        if len(steps) == step:
            raise Crash(name)

    with monkeypatch.context() as patch:
        patch.setattr(transaction, "fault_point", point)
        patch.setattr(transaction, "_roll_back", lambda root, planned: None)  # a crash cleans up nothing
        patch.chdir(tmp_path)
        try:
            with transaction.writing(data, "l10n import"):
                import_file(load(data).kb, data, path)
        except Crash:
            pass
    return steps


def test_a_crash_at_any_step_of_a_commit_leaves_all_old_or_all_new_after_the_next_command(
    tmp_path, monkeypatch, outcomes
):
    probe = make_data(tmp_path, "probe")
    steps = import_crashing_at(tmp_path, probe, edited_xliff(tmp_path, probe, EDITS, "probe.xlf"), monkeypatch, 0)
    assert steps == [
        "journal prepared",
        "write demo/entries/tower-crossing.yaml",
        "write demo/entries/tower.yaml",
        "write demo/glossary.yaml",
        "journal committed",
        "rename demo/entries/tower-crossing.yaml",
        "rename demo/entries/tower.yaml",
        "rename demo/glossary.yaml",
        "journal removed",
    ]
    seen = []
    for step, name in enumerate(steps, 1):
        folder = tmp_path / f"run{step}"
        folder.mkdir()
        data = make_data(folder)
        path = edited_xliff(folder, data, EDITS)
        import_crashing_at(folder, data, path, monkeypatch, step)
        committed = step > steps.index("journal committed") + 1
        # Before the commit point the new files are there, unused; after it some are in place, some not.
        assert (folder / ".data.journal").exists() or name == "journal prepared"
        result = run_cli("check", "--data", "data", cwd=folder)
        assert result.returncode == 0, result.stderr
        said = result.stderr.splitlines()
        if name == "journal prepared":
            assert said == []  # crashed before writing anything: nothing to undo
        elif committed:
            assert said == [
                f"houserules: finished an interrupted 'houserules l10n import' in {folder.resolve() / 'data'}: "
                "3 files put in place"
            ]
        else:
            assert said == [
                f"houserules: rolled back an interrupted 'houserules l10n import' in {folder.resolve() / 'data'}: "
                "none of its changes were written"
            ]
        seen.append(all_old_or_all_new(data, outcomes))
        assert seen[-1] == ("new" if committed else "old"), name
        assert leftovers(folder, data) == []
    assert seen == ["old"] * 5 + ["new"] * 4


@pytest.mark.parametrize("command", [["check"], ["search", "tower"], ["stamp", "demo:tower"], ["build", "-o", "s"]])
def test_every_command_finishes_an_interrupted_commit_first(tmp_path, monkeypatch, outcomes, command):
    """The next command of any kind puts the data right before it reads it (build: a check refusal is fine)."""
    data = make_data(tmp_path)
    path = edited_xliff(tmp_path, data, EDITS)
    import_crashing_at(tmp_path, data, path, monkeypatch, 7)  # committed, one of three files renamed
    monkeypatch.setattr("houserules.build.build_site", lambda kb, data_dir, target, **_: target)
    result = run_cli(*command[:1], "--data", "data", *command[1:], cwd=tmp_path)
    assert result.stderr.splitlines()[0] == (
        f"houserules: finished an interrupted 'houserules l10n import' in {tmp_path.resolve() / 'data'}: "
        "3 files put in place"
    )
    assert leftovers(tmp_path, data) == []
    if command[0] != "stamp":
        assert all_old_or_all_new(data, outcomes) == "new"


def test_a_journal_that_is_not_ours_is_refused_by_name(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    (tmp_path / ".data.journal").write_text(
        '{"houserules-journal": 1, "state": "committed", "command": "l10n import", '
        '"files": [{"path": "../outside.yaml", "mode": "replace", "sha256": "' + "0" * 64 + '"}]}',
        encoding="utf-8",
    )
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        "houserules check: .data.journal: it cannot be read: not a journal houserules wrote; look at it, then "
        "remove it (the data folder beside it is as the last command left it)\n",
    )
    assert snapshot(data) == before


def _nested_journal(tmp_path: Path) -> None:
    (tmp_path / ".data.journal").write_text("[" * 100_000, encoding="utf-8")


@pytest.mark.parametrize(
    "make, name, why",
    [
        (_nested_journal, ".data.journal", "it cannot be read"),
        (lambda tmp: (tmp / ".data.journal").mkdir(), ".data.journal", "it is not a regular file"),
        (lambda tmp: (tmp / ".data.journal.tmp").mkdir(), ".data.journal.tmp", "it is not a regular file"),
    ],
    ids=["deeply-nested-json", "journal-folder", "temporary-journal-folder"],
)
def test_a_leftover_journal_of_any_shape_is_refused_by_name(tmp_path, make, name, why):
    """Never a traceback: JSON nested past the recursion limit, a folder where the journal or its
    temporary file would be."""
    data = make_data(tmp_path)
    before = snapshot(data)
    make(tmp_path)
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        f"houserules check: {name}: {why}: not a journal houserules wrote; look at it, then remove it (the data "
        "folder beside it is as the last command left it)\n",
    )
    assert snapshot(data) == before


def test_a_prepared_journal_rolls_back_without_removing_a_folder_named_as_a_new_file(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    (tmp_path / ".data.journal").write_text(
        '{"houserules-journal": 1, "state": "prepared", "command": "l10n import", '
        '"files": [{"path": "demo/entries", "mode": "replace", "sha256": "' + "0" * 64 + '"}]}',
        encoding="utf-8",
    )
    (data / "demo" / ".entries.houserules-new").mkdir()
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.stderr.splitlines()[0] == (
        f"houserules: rolled back an interrupted 'houserules l10n import' in {tmp_path.resolve() / 'data'}: "
        "none of its changes were written"
    )
    assert (data / "demo" / ".entries.houserules-new").is_dir() and not (tmp_path / ".data.journal").exists()
    assert snapshot(data) == before


def test_a_committed_file_changed_since_is_not_put_in_place(tmp_path, monkeypatch, outcomes):
    """A journal's new file that is not what the journal says (edited, cut short) is never put in place."""
    data = make_data(tmp_path)
    path = edited_xliff(tmp_path, data, EDITS)
    import_crashing_at(tmp_path, data, path, monkeypatch, 6)  # committed, nothing renamed yet
    temp = data / "demo/entries/.tower.yaml.houserules-new"
    temp.write_bytes(temp.read_bytes()[:40])
    result = run_cli("check", "--data", "data", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        "houserules check: .data.journal: an interrupted 'houserules l10n import' cannot be finished: "
        "demo/entries/tower.yaml is not as it wrote it; look at it (git diff), then remove the journal\n"
    )
    assert (tmp_path / ".data.journal").exists()


# -- SIGKILL, SIGTERM and Ctrl-C in a real process -------------------------------------------------------


def start(tmp_path: Path, *args: str, pause: str = "") -> subprocess.Popen[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "HOUSERULES_TEST_PAUSE_AT": pause}
    return subprocess.Popen(
        [str(HOUSERULES), *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C as at a terminal, even where the test runner ignores SIGINT (a child inherits that).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def wait_for_step(process: subprocess.Popen[str], step: int) -> str:
    """The name of step ``step``, once the process stopped before it (it says so on stderr first)."""
    assert process.stderr is not None
    for line in process.stderr:
        if line.startswith(f"houserules-test: step {step} "):
            return line.split(" ", 3)[3].strip()
    raise AssertionError(f"the import ended before step {step}: {process.wait()}")


STEPS = 10  # check, journal prepared, 3 writes, journal committed, 3 renames, journal removed
COMMIT_POINT = 6


def kill_import_at(tmp_path: Path, step: int, sig: int, pause: str = "") -> tuple[Path, str, int]:
    data = make_data(tmp_path)
    path = edited_xliff(tmp_path, data, EDITS)
    process = start(tmp_path, "l10n", "import", "--data", "data", path.name, pause=pause or str(step))
    name = wait_for_step(process, step)
    process.send_signal(sig)
    process.communicate(timeout=120)
    return data, name, process.returncode


@pytest.mark.slow
def test_sigkill_at_each_step_leaves_all_old_or_all_new_after_the_next_command(tmp_path, outcomes):
    seen = {}
    for step in range(1, STEPS + 1):
        folder = tmp_path / f"kill{step}"
        folder.mkdir()
        data, name, code = kill_import_at(folder, step, signal.SIGKILL)
        assert code == -signal.SIGKILL
        assert run_cli("check", "--data", "data", cwd=folder).returncode == 0
        seen[name] = all_old_or_all_new(data, outcomes)
        assert leftovers(folder, data) == []
    assert list(seen.values()) == ["old"] * COMMIT_POINT + ["new"] * (STEPS - COMMIT_POINT)
    assert list(seen)[COMMIT_POINT - 1] == "journal committed"


@pytest.mark.slow
def test_sigkill_at_random_points_in_a_loop(tmp_path, outcomes):
    """Imports killed at a random step, or after a random time (anywhere: loading, checking, writing): 12 here,
    every step being killed in the test above; 60 in ``make fuzz`` (HYPOTHESIS_PROFILE=long)."""
    rng = random.Random(33)
    seen = []
    for run in range(60 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 12):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        if run % 3:
            data, _, code = kill_import_at(folder, rng.randint(1, STEPS), signal.SIGKILL)
        else:
            data = make_data(folder)
            path = edited_xliff(folder, data, EDITS)
            process = start(folder, "l10n", "import", "--data", "data", path.name)
            time.sleep(rng.uniform(0.0, 3.0))
            process.kill()
            process.communicate(timeout=120)
        assert run_cli("check", "--data", "data", cwd=folder).returncode == 0
        seen.append(all_old_or_all_new(data, outcomes))
        assert leftovers(folder, data) == []
    assert "old" in seen and "new" in seen


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "ctrl-c"])
@pytest.mark.parametrize("step", [1, 4], ids=["during-the-check", "while-writing"])
def test_an_interrupt_before_the_commit_point_leaves_everything_as_before(tmp_path, outcomes, sig, step):
    """No next command needed: the interrupted import removes what it wrote on its way out."""
    data, name, code = kill_import_at(tmp_path, step, sig)
    assert name == ("check" if step == 1 else "write demo/entries/tower.yaml")
    assert code == (143 if sig == signal.SIGTERM else 130)
    assert snapshot(data) == outcomes[0]
    assert leftovers(tmp_path, data) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "ctrl-c"])
def test_an_interrupt_after_the_commit_point_waits_until_every_file_is_in_place(tmp_path, outcomes, sig):
    data, name, code = kill_import_at(tmp_path, 8, sig, pause="8:1")
    assert name == "rename demo/entries/tower.yaml"
    assert code == (143 if sig == signal.SIGTERM else 130)
    assert snapshot(data) == outcomes[1]
    assert leftovers(tmp_path, data) == []


# -- two writers at once -----------------------------------------------------------------------------


def po_with(tmp_path: Path, data: Path, name: str, texts: dict[str, str]) -> Path:
    path = tmp_path / name
    assert (
        run_cli("l10n", "export", "--data", str(data), "--format", "po", "-o", str(path), cwd=tmp_path).returncode == 0
    )
    store = pypo.pofile.parsestring(path.read_bytes())
    for unit in store.units:
        if unit.getcontext() in texts:
            unit.target = texts[unit.getcontext()]
    path.write_bytes(bytes(store))
    return path


@pytest.mark.parametrize("runs", [1, pytest.param(5, marks=pytest.mark.slow)])
def test_two_imports_at_once_both_land_or_one_is_refused_loudly(tmp_path, runs):
    """Two files exported from the same data, each changing other texts, imported at once (five times, slow)."""
    for run in range(runs):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        data = make_data(folder)
        first = po_with(folder, data, "a.po", {"demo:tower/summary": "A room with a barrier."})
        second = po_with(folder, data, "b.po", {"demo:library/summary": "End your turn here: gain a mental trait."})
        runs = [start(folder, "l10n", "import", "--data", "data", p.name) for p in (first, second)]
        results = [(*p.communicate(timeout=300), p.returncode) for p in runs]
        kb = load(data).kb
        landed = [
            kb.entries["demo:tower"].summary.en == "A room with a barrier.",
            kb.entries["demo:library"].summary.en == "End your turn here: gain a mental trait.",
        ]
        for (_out, err, code), ok in zip(results, landed, strict=True):
            assert (code == 0) == ok, err  # refused (loudly) exactly when its change is not there
            if code:
                assert "is in use by houserules l10n import (pid" in err
        assert all(landed), results  # waiting for the lock, the second lands too


def test_two_imports_of_one_text_never_lose_one_silently(tmp_path):
    """Both change the same title: the first lands, the second is a conflict that names both texts."""
    data = make_data(tmp_path)
    first = po_with(tmp_path, data, "a.po", {"demo:tower/title": "The Tower"})
    second = po_with(tmp_path, data, "b.po", {"demo:tower/title": "Tower Room"})
    runs = [start(tmp_path, "l10n", "import", "--data", "data", p.name) for p in (first, second)]
    results = sorted((p.communicate(timeout=300), p.returncode)[::-1] for p in runs)
    results = [(code, *streams) for code, streams in results]
    (ok, out, _), (refused, _, err) = results
    assert (ok, refused) == (0, 1)
    title = load(data).kb.entries["demo:tower"].title.en
    loser = "Tower Room" if title == "The Tower" else "The Tower"
    line = next(line for line in err.splitlines() if "demo:tower/title" in line)
    assert line.endswith(
        f'demo:tower/title: conflict: the target in the data changed since the export — the data now: "{title}"; '
        f'this file: "{loser}" — keep the data\'s text (export again and translate in the new file), or import '
        "with --force to write this file's text over it"
    )


HOLD = textwrap.dedent(
    """
    import sys, time
    from houserules.data.authoring.transaction import folder_lock
    with folder_lock(sys.argv[1], shared=True, holder="houserules build"):
        print("held", flush=True)
        time.sleep(60)
    """
)


def test_a_writer_waits_a_bounded_time_then_names_the_command_holding_the_data(tmp_path, monkeypatch):
    data = make_data(tmp_path)
    before = snapshot(data)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(data)], stdout=subprocess.PIPE, text=True)
    with holder:
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            monkeypatch.setattr(transaction, "LOCK_WAIT", 1.5)
            monkeypatch.setattr(transaction, "_SAY_WAITING", 0.5)
            started = time.monotonic()
            result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
            assert time.monotonic() - started >= 1.5
        finally:
            holder.kill()
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"houserules: waiting for houserules build (pid {holder.pid}) to finish with data…\n"
        f"houserules stamp: data is in use by houserules build (pid {holder.pid}); wait for it to finish and "
        "run 'houserules stamp' again\n"
    )
    assert snapshot(data) == before
    # The waiting writer never wrote into the lock file (opening it truncates nothing).
    assert (tmp_path / ".data.lock").read_text(encoding="utf-8") == f"houserules build (pid {holder.pid})\n"


def test_a_link_at_the_data_lock_is_refused_and_its_target_kept(tmp_path):
    make_data(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    (tmp_path / ".data.lock").symlink_to(victim)
    result = run_cli("stamp", "--data", "data", "demo:tower", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        1,
        f"houserules stamp: cannot open the lock of data {tmp_path / '.data.lock'}: it is a symbolic link; "
        "remove it and run 'houserules stamp' again\n",
    )
    assert victim.read_text(encoding="utf-8") == "keep me"


# -- stamp and new commit the same way ---------------------------------------------------------------


def test_stamp_of_two_entries_writes_both_or_neither(tmp_path):
    data = make_data(tmp_path)
    before = snapshot(data)
    (data / "demo/entries/tower.yaml").chmod(0o444)
    result = run_cli("stamp", "--data", "data", "demo:tower-crossing", "demo:tower", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "houserules stamp: data/demo/entries/tower.yaml: the file is read-only; make it writable "
        "(chmod u+w data/demo/entries/tower.yaml) and stamp again, or leave it as it is\n"
    )
    assert snapshot(data) == before


def test_new_writes_its_entry_and_the_contents_both_or_neither(tmp_path, monkeypatch):
    data = make_data(tmp_path)
    before = snapshot(data)
    real = transaction._write_file

    def full_disk(path, payload, mode, gid=None):
        if path.name == ".game.yaml.houserules-new":
            raise OSError(28, "No space left on device", str(path))
        real(path, payload, mode, gid)

    monkeypatch.setattr(transaction, "_write_file", full_disk)
    result = run_cli("new", "--data", "data", "demo", "ruling", "--zh", "标题", "--en", "Title", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "houserules new: cannot write data/demo/game.yaml: the disk is full (no space left on device) — free some space "
        "and run 'houserules new' again (nothing was written)\n"
    )
    assert snapshot(data) == before
    assert leftovers(tmp_path, data) == []
