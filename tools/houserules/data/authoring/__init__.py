"""Authoring: a new entry's file, id, code and section; stamping; text changed in place."""
