"""Versions and history: the data's version, past versions from git, what a save changed, source-text hashes."""
