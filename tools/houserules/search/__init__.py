"""Search: one analysis (CJK bigrams, English stems, traditional → simplified) for the command line and the site.

``analysis`` tokenizes; ``index`` builds, caches and queries the Whoosh index of the CLI;
``site`` exports that index's scores as the site's sharded browser index; ``evaluate``
scores both on the judged queries.
"""
