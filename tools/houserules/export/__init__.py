"""Machine exports: the JSON API of the site and ``houserules export`` (CSV and JSON tables)."""

from .api import EXPORT_VERSION, entries_json, entry_record
from .safewrite import OUTPUT_OPTION, check_output, copy_output, open_output, spreadsheet_safe, to_csv, write_output
from .tables import FORMATS, TABLES, check_format, export, rows

__all__ = [
    "EXPORT_VERSION",
    "OUTPUT_OPTION",
    "FORMATS",
    "TABLES",
    "entries_json",
    "check_format",
    "entry_record",
    "export",
    "rows",
    "spreadsheet_safe",
    "to_csv",
    "check_output",
    "copy_output",
    "open_output",
    "write_output",
]
