"""Running MkDocs: its configuration with the houserules plugin given the checked knowledge base, the strict
build of ``houserules build`` and the live preview's builds.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..data.reading.model import KnowledgeBase
from ..errors import HouserulesError
from ..site.publishing import environment_urls

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

    from ..site.reuse import PageReuse
    from .plugin import HouserulesPlugin


def quiet_jieba() -> None:
    """Material's search segments Chinese with jieba, which logs its dictionary loading on stderr."""
    import jieba

    jieba.setLogLevel(logging.WARNING)


def plugin_of(config: MkDocsConfig) -> HouserulesPlugin:
    """The houserules plugin of an MkDocs configuration."""
    from .plugin import HouserulesPlugin

    plugin = config.plugins["houserules"]
    assert isinstance(plugin, HouserulesPlugin), "mkdocs.yml lists the houserules plugin"
    return plugin


def mkdocs_config(kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path, **options: Any) -> MkDocsConfig:
    """MkDocs' configuration of the site (strict), with the houserules plugin given the checked knowledge base."""
    from mkdocs.config import load_config

    config = load_config(str(config_file), site_dir=str(site_dir), strict=True, **options)
    plugin_of(config).use(kb, data_dir)
    return config


def mkdocs_build(
    kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path, reuse: PageReuse | None = None
) -> None:
    """Run MkDocs (strict) on ``kb``, checked from ``data_dir``, into ``site_dir``; with ``reuse`` (the previous
    build of the target), MkDocs' dirty build renders only the pages that changed, the others taken from it."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    environment_urls()  # a wrong address in the environment is one clear message, before MkDocs runs
    quiet_jieba()
    config = load_config(str(config_file), site_dir=str(site_dir), strict=True)
    plugin_of(config).use(kb, data_dir, reuse)
    logger = logging.getLogger("mkdocs.commands.build")
    logger.addFilter(not_the_dirty_warning)
    try:
        build(config, dirty=reuse is not None)
    except MkDocsException as exc:
        raise HouserulesError(f"the site build failed: {exc}") from None
    except SystemExit as exc:  # mkdocs aborts strict builds this way
        raise HouserulesError(f"the site build failed (MkDocs exit {exc.code}); see the warnings above") from None
    finally:
        logger.removeFilter(not_the_dirty_warning)


def configured_site_url(config_file: Path | None) -> str | None:
    """The site's public address: ``$HOUSERULES_SITE_URL``, else ``site_url`` of mkdocs.yml (``config_file``;
    None: there is none), if set (the PDF then carries QR codes to the entry pages)."""
    from mkdocs.utils.yaml import yaml_load

    if environment_urls().get("site_url"):
        return environment_urls()["site_url"]
    if config_file is None:
        return None
    with open(config_file, encoding="utf-8") as handle:
        return yaml_load(handle).get("site_url") or None


def preview_config(
    kb: KnowledgeBase, data_dir: Path, site_dir: Path, config_file: Path, site_url: str | None
) -> MkDocsConfig:
    """MkDocs' configuration of a live preview's build of ``kb`` into ``site_dir`` (its plugin: :func:`plugin_of`)."""
    config = mkdocs_config(kb, data_dir, site_dir, config_file)
    plugin_of(config).config.offline = False  # a preview's pages never come from a cache
    if site_url:
        config.site_url = site_url
    return config


def preview_build(config: MkDocsConfig, *, fresh: bool) -> None:
    """One build of a live preview (``config``: :func:`preview_config`): only the pages that changed since its
    last build (the plugin keeps it) are rendered again, all of them when ``fresh``. Raises what the build
    raised (the next build is then a full one).
    """
    from mkdocs.commands.build import build

    plugin = plugin_of(config)
    dirty = plugin.live(config, fresh=fresh)
    try:
        build(config, serve_url=config.site_url, dirty=dirty)
    except BaseException:
        if plugin.preview is not None:
            plugin.preview.reset()
        raise


def not_the_dirty_warning(record: logging.LogRecord) -> bool:
    """A filter of MkDocs' build log: MkDocs warns that a dirty build may leave the navigation stale; the
    preview renders every page again when the navigation changes, and in strict mode the warning
    would abort the build."""
    return not record.getMessage().startswith("A 'dirty' build is being performed")
