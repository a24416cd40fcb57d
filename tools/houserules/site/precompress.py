"""Compressed copies of the site's text files, ``X.gz`` and ``X.br`` beside each ``X``, for hosts that send them.

GitLab Pages, nginx (``gzip_static``, ``brotli_static``) and Caddy (``file_server { precompressed }``) answer a
browser that accepts gzip or Brotli with such a copy instead of the file: a first visit loads fewer bytes, and the
host spends no time compressing. GitHub Pages compresses by itself and never sends them. A full build writes the
copies last, once every file is in place, so each copy is of the file beside it (the build then swaps the whole
folder in: no copy outlives its file); the live preview, in a folder of its own, writes none.

The levels trade a little size for build time, which matters at scale: gzip's best level costs little, while
Brotli's best (11) takes about 40 times as long as level 8 for a tenth fewer bytes.
"""

from __future__ import annotations

import os
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import brotli

#: The files worth compressing: text. Images, fonts and PDFs are compressed already.
SUFFIXES = frozenset(
    {".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".txt", ".webmanifest", ".xlf", ".po", ".tbx", ".csv"}
)
#: Folders left as they are: the translators' downloads (XLIFF, PO, TBX, CSV for desktop tools), fetched now and
#: then, not on a visit, and half the site's text at scale (at 5,000 entries their copies would add 151 MB of 283).
SKIPPED_FOLDERS = ("translate/downloads/",)
#: Smaller files fit in a packet or two either way.
MIN_BYTES = 1024
#: A copy is kept only when it is at most this share of the file.
MAX_RATIO = 0.9
GZIP_LEVEL = 9
BROTLI_QUALITY = 8


def compressible(site_dir: Path) -> list[Path]:
    """The files of ``site_dir`` to write copies of, in a stable order: text files of :data:`MIN_BYTES` or more,
    outside :data:`SKIPPED_FOLDERS`."""
    found = []
    for folder, dirs, names in os.walk(site_dir):
        here = Path(folder).relative_to(site_dir)
        dirs[:] = sorted(d for d in dirs if not f"{(here / d).as_posix()}/".startswith(SKIPPED_FOLDERS))
        for name in sorted(names):
            path = Path(folder, name)
            if path.suffix in SUFFIXES and not path.is_symlink() and path.stat().st_size >= MIN_BYTES:
                found.append(path)
    return found


#: Files are compressed this many bytes at a time, so a large download costs a chunk of memory, not its size.
CHUNK = 1 << 20


def _gzip_stream() -> Any:
    """A gzip stream fed a chunk at a time (zlib's, with the gzip header: no time, no name, so a build that changes
    nothing writes the same bytes), in :class:`brotli.Compressor`'s terms (``process``, ``finish``).

    >>> import gzip
    >>> stream = _gzip_stream()
    >>> gzip.decompress(stream.process(b"abc" * 100) + stream.finish()) == b"abc" * 100
    True
    """
    stream = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)  # 16 + 15: a gzip member, the largest window
    return SimpleNamespace(process=stream.compress, finish=stream.flush)


def _write_copies(path: Path) -> int:
    """Write ``path``'s copies that save enough and are not in the folder already; return how many."""
    size = path.stat().st_size
    written = 0
    for suffix, compressor in ((".gz", _gzip_stream), (".br", _brotli_stream)):
        target = path.with_name(path.name + suffix)
        if target.exists():  # one the site brings itself (MkDocs' sitemap.xml.gz)
            continue
        stream = compressor()
        with path.open("rb") as source, target.open("wb") as copy:
            while chunk := source.read(CHUNK):
                copy.write(stream.process(chunk))
            copy.write(stream.finish())
        if target.stat().st_size <= MAX_RATIO * size:
            written += 1
        else:
            target.unlink()
    return written


def _brotli_stream() -> brotli.Compressor:
    """A Brotli stream for text, fed a chunk at a time.

    >>> stream = _brotli_stream()
    >>> brotli.decompress(stream.process("规则".encode() * 100) + stream.finish()) == "规则".encode() * 100
    True
    """
    return brotli.Compressor(mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY)


def write_compressed(site_dir: Path, workers: int | None = None) -> int:
    """Write the ``.gz`` and ``.br`` copies of every compressible file of the built ``site_dir``; return how many.

    Both compressors let go of Python's lock while they work, so threads use every core.
    """
    files = compressible(site_dir)
    with ThreadPoolExecutor(max_workers=workers or min(4, os.cpu_count() or 1)) as pool:
        return sum(pool.map(_write_copies, files))
