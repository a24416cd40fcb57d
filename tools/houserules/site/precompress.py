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

import gzip
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli

#: The files worth compressing: text. Images, fonts and PDFs are compressed already.
SUFFIXES = frozenset(
    {".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".txt", ".webmanifest", ".xlf", ".po", ".tbx", ".csv"}
)
#: Smaller files fit in a packet or two either way.
MIN_BYTES = 1024
#: A copy is kept only when it is at most this share of the file.
MAX_RATIO = 0.9
GZIP_LEVEL = 9
BROTLI_QUALITY = 8
ENCODINGS = (".gz", ".br")


def gzipped(data: bytes) -> bytes:
    """``data`` gzipped with no time or name in its header, so a build that changes nothing writes the same bytes.

    >>> gzip.decompress(gzipped(b"abc" * 100)) == b"abc" * 100 and gzipped(b"x") == gzipped(b"x")
    True
    """
    return gzip.compress(data, GZIP_LEVEL, mtime=0)


def brotlied(data: bytes) -> bytes:
    """``data`` compressed with Brotli for text.

    >>> brotli.decompress(brotlied("规则".encode() * 100)) == "规则".encode() * 100
    True
    """
    return bytes(brotli.compress(data, mode=brotli.MODE_TEXT, quality=BROTLI_QUALITY))


def compressible(site_dir: Path) -> list[Path]:
    """The files of ``site_dir`` to write copies of, in a stable order: text files of :data:`MIN_BYTES` or more."""
    found = []
    for folder, dirs, names in os.walk(site_dir):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder, name)
            if path.suffix in SUFFIXES and not path.is_symlink() and path.stat().st_size >= MIN_BYTES:
                found.append(path)
    return found


def _write_copies(path: Path) -> int:
    """Write ``path``'s copies that save enough and are not in the folder already; return how many."""
    data = path.read_bytes()
    written = 0
    for suffix, compress in ((".gz", gzipped), (".br", brotlied)):
        target = path.with_name(path.name + suffix)
        if target.exists():  # one the site brings itself (MkDocs' sitemap.xml.gz)
            continue
        copy = compress(data)
        if len(copy) <= MAX_RATIO * len(data):
            target.write_bytes(copy)
            written += 1
    return written


def write_compressed(site_dir: Path, workers: int | None = None) -> int:
    """Write the ``.gz`` and ``.br`` copies of every compressible file of the built ``site_dir``; return how many.

    Both compressors let go of Python's lock while they work, so threads use every core.
    """
    files = compressible(site_dir)
    with ThreadPoolExecutor(max_workers=workers or min(4, os.cpu_count() or 1)) as pool:
        return sum(pool.map(_write_copies, files))
