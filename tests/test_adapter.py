"""The MkDocs and Material adapter (``houserules.adapter``): it keeps to MkDocs' public API, the worker's
protocol is one on both sides, and the live preview's server serves pages whose policy allows what it adds."""

from __future__ import annotations

import ast
import inspect
import io
import re
import threading
from pathlib import Path

import mkdocs
import pytest
from mkdocs.livereload import LiveReloadServer

from conftest import ROOT
from houserules.adapter import liveserver, protocol
from houserules.adapter.csp import add_policy

ADAPTER = ROOT / "tools" / "houserules" / "adapter"
WORKER = ROOT / "site_overrides" / protocol.WORKER_SCRIPT


# -- the worker's protocol ------------------------------------------------------------------------------------


def test_the_worker_speaks_the_protocol_of_the_python_side():
    source = WORKER.read_text(encoding="utf-8")
    numbers = dict(re.findall(r"\b(SETUP|READY|QUERY|RESULT) = (\d+)", source))
    assert {name: int(value) for name, value in numbers.items()} == {
        "SETUP": protocol.SETUP,
        "READY": protocol.READY,
        "QUERY": protocol.QUERY,
        "RESULT": protocol.RESULT,
    }
    assert f"config.{protocol.CONFIG_KEY}" in source
    assert re.search(r'folder = "([^"]+)/"', source).group(1) == protocol.SITE_FOLDER
    assert f'(own.path || "{protocol.SITE_FOLDER}")' in source


def test_materials_search_numbers_its_messages_the_same():
    """Material's ``SearchMessageType`` (a TypeScript enum, numbered in order), read from the source map of its
    pinned bundle."""
    import json

    theme = Path(inspect.getfile(__import__("material"))).parent / "templates" / "assets" / "javascripts"
    (source_map,) = theme.glob("bundle.*.min.js.map")
    sources = json.loads(source_map.read_text(encoding="utf-8"))
    (message,) = [
        text
        for name, text in zip(sources["sources"], sources["sourcesContent"])
        if name.endswith("integrations/search/worker/message/index.ts")
    ]
    members = re.search(r"enum SearchMessageType \{(.*?)\}", message, re.S).group(1)
    names = re.findall(r"^\s*([A-Z]+),?", re.sub(r"/\*.*?\*/", "", members), re.M)
    assert {name: number for number, name in enumerate(names)} == {
        "SETUP": protocol.SETUP,
        "READY": protocol.READY,
        "QUERY": protocol.QUERY,
        "RESULT": protocol.RESULT,
    }


# -- only public MkDocs API ------------------------------------------------------------------------------------


def _private_names(package: str) -> set[str]:
    """Every private name (``_x``, not ``__x__``) a package's modules define or set on an object."""
    root = Path(inspect.getfile(__import__(package))).parent
    names: set[str] = set()
    pattern = re.compile(r"(?:def |class |\.|^\s*)(_[A-Za-z0-9]\w*)\b(?!__)", re.M)
    for path in root.rglob("*.py"):
        names |= {n for n in pattern.findall(path.read_text(encoding="utf-8")) if not n.endswith("__")}
    return names


def _base_private_names(cls: type) -> set[str]:
    """The private names the modules of the MkDocs and Material classes above ``cls`` define or set on ``self``."""
    names: set[str] = set()
    for base in cls.__mro__[1:]:
        if base.__module__.split(".")[0] not in ("mkdocs", "material"):
            continue
        source = Path(inspect.getfile(base)).read_text(encoding="utf-8")  # its module: a class may be made by a call
        names |= set(re.findall(r"self\.(_[A-Za-z0-9]\w*)", source)) | set(re.findall(r"def (_[A-Za-z0-9]\w*)", source))
    return {n for n in names if not n.endswith("__")}


def private_uses(source: str, private: set[str], bases: dict[str, set[str]]) -> list[str]:
    """Where ``source`` uses a private name of MkDocs or Material: imports one, reads or sets one on an object
    (``server._rebuild_cond``), or defines or sets one in a class whose base has it (``bases``: class
    name → its bases' private names)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("mkdocs", "material"):
            found += [
                f"{node.lineno}: from {node.module} import {a.name}" for a in node.names if a.name.startswith("_")
            ]
        elif isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ClassDef) and node.name in bases:
            for inner in ast.walk(node):
                name = inner.name if isinstance(inner, ast.FunctionDef) else getattr(inner, "attr", None)
                if name in bases[node.name]:
                    found.append(f"{inner.lineno}: {node.name}.{name} overrides MkDocs' own")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def _adapter_classes() -> dict[str, set[str]]:
    import importlib

    classes: dict[str, set[str]] = {}
    for path in sorted(ADAPTER.glob("*.py")):
        module = importlib.import_module(
            f"houserules.adapter.{path.stem}" if path.stem != "__init__" else "houserules.adapter"
        )
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and cls.__module__ == module.__name__:
                classes[name] = _base_private_names(cls)
    return classes


def test_the_adapter_uses_no_private_name_of_mkdocs_or_material():
    private = _private_names("mkdocs") | _private_names("material")
    assert "_rebuild_cond" in private and "_inject_js_into_html" in private
    bases = _adapter_classes()
    assert "_register_event" in bases["HouserulesPlugin"]  # of BasePlugin's module (mkdocs/plugins.py)
    found = {
        path.name: uses
        for path in sorted(ADAPTER.rglob("*.py"))
        if (uses := private_uses(path.read_text(encoding="utf-8"), private, bases))
    }
    assert found == {}


def test_a_private_use_is_found():
    private = _private_names("mkdocs")
    source = (
        "from mkdocs.livereload import _serve_url\n"
        "class Server(LiveReloadServer):\n"
        "    def _inject_js_into_html(self, content, epoch):\n"
        "        return content\n"
        "def poke(server):\n"
        "    with server._rebuild_cond:\n"
        "        server._want_rebuild = True\n"
    )
    bases = {"Server": _base_private_names(type("Server", (LiveReloadServer,), {}))}
    assert private_uses(source, private, bases) == [
        "1: from mkdocs.livereload import _serve_url",
        "3: Server._inject_js_into_html overrides MkDocs' own",
        "6: ._rebuild_cond",
        "7: ._want_rebuild",
    ]


def test_mkdocs_is_the_pinned_version():
    """The adapter is tested against the MkDocs of pyproject.toml."""
    pinned = re.search(r'"mkdocs==([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8")).group(1)
    assert mkdocs.__version__ == pinned


# -- the live preview's server --------------------------------------------------------------------------------


def _get(server: LiveReloadServer, path: str) -> tuple[str, dict[str, str], bytes]:
    answer: list = []
    environ = {"PATH_INFO": path, "REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO()}
    body = server.get_app()(environ, lambda status, headers, exc_info=None: answer.extend([status, dict(headers)]))
    try:
        return answer[0], answer[1], b"".join(body)
    finally:
        if hasattr(body, "close"):
            body.close()


def test_a_served_page_has_a_policy_that_allows_the_reload_script(tmp_path):
    page = add_policy("<html><head><title>x</title><script>var a = 1</script></head><body><p>x</p></body></html>")
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    (tmp_path / "data.js").write_text("var b = 2", encoding="utf-8")
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    try:
        server.watch(str(tmp_path))  # a watched server adds its reload script to every page
        bare = _get(server, "/page.html")[2].decode("utf-8")
        assert "livereload(" in bare and add_policy(bare) != bare  # MkDocs' own: the policy forbids its script
        liveserver.serve_with_policy(server)
        liveserver.serve_with_policy(server)  # once is enough
        status, headers, body = _get(server, "/page.html")
        served = body.decode("utf-8")
        assert status == "200 OK" and "livereload(" in served
        assert add_policy(served) == served and served.count("Content-Security-Policy") == 1
        assert headers["Content-Length"] == str(len(body))
        assert _get(server, "/data.js")[2] == b"var b = 2"  # not a page: as it is
        assert _get(server, "/missing.html")[0] == "404 Not Found"
    finally:
        server.server_close()


def test_a_rebuild_request_rebuilds_through_the_servers_watch(tmp_path):
    built = threading.Event()
    calls: list[int] = []

    def builder() -> None:
        calls.append(1)
        built.set()

    (tmp_path / "site").mkdir()
    server = liveserver.open_server(builder, "127.0.0.1", 0, tmp_path / "site")
    requests = liveserver.RebuildRequests(server, tmp_path / "requests")
    requests.watch()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        assert not built.wait(1.0)  # nothing changed
        requests.ask()
        assert built.wait(10), "the request set off no rebuild"
    finally:
        server.shutdown(wait=True)
        thread.join(10)
    assert calls and server.server_port != 0


def test_a_taken_port_fails_before_any_build(tmp_path):
    first = liveserver.open_server(lambda: None, "127.0.0.1", 0, tmp_path)
    try:
        with pytest.raises(OSError):
            liveserver.open_server(lambda: None, "127.0.0.1", first.server_port, tmp_path)
    finally:
        first.server_close()


# -- compiled templates ----------------------------------------------------------------------------------------


def test_a_build_outside_the_live_preview_reuses_the_processes_compiled_templates():
    import jinja2

    from houserules.adapter.livepreview import COMPILED_TEMPLATES
    from houserules.adapter.plugin import HouserulesPlugin

    env = jinja2.Environment()
    assert HouserulesPlugin().on_env(env, None, None).bytecode_cache is COMPILED_TEMPLATES  # type: ignore[arg-type]


def test_compiled_templates_are_reused_until_their_source_changes(monkeypatch):
    import jinja2

    from houserules.adapter.livepreview import COMPILED_TEMPLATES

    cache = type(COMPILED_TEMPLATES)()  # a fresh memo of the same kind
    sources = {"page.html": "<p>{{ x }}</p>"}
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)

    def render() -> str:  # a new environment each time, as each MkDocs build makes one
        env = jinja2.Environment(loader=jinja2.DictLoader(sources), bytecode_cache=cache)
        return env.get_template("page.html").render(x=1)

    assert render() == "<p>1</p>" and compiled == ["page.html"]
    assert render() == "<p>1</p>" and compiled == ["page.html"], "the second build compiles nothing"
    sources["page.html"] = "<b>{{ x }}</b>"
    assert render() == "<b>1</b>" and compiled == ["page.html", "page.html"], "a changed source is compiled anew"
