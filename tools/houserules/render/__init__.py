"""Turning entries into output: text to safe HTML, ``[[ref]]`` links, URLs and the entry's blocks.

Every output (site pages, the printed FAQ, the terminal) renders entries through
this package, so they agree on what an entry shows and what its text means.
"""
