"""The printed FAQ: print HTML from the entries' blocks, laid out as PDFs by WeasyPrint."""
