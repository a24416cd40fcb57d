"""What the site's search worker (``site_overrides/assets/javascripts/hr-search-worker.js``) and the
Python side agree on: Material's worker messages and where the worker finds the index.

Material's search box talks to a worker with numbered messages (its
``integrations/search/worker``): the page sends :data:`SETUP` with Material's search
configuration and the worker answers :data:`READY`; each query is a :data:`QUERY`,
answered by a :data:`RESULT`. The configuration comes from Material's own index file
(``search/search_index.json``), in which the build names our index under
:data:`CONFIG_KEY` (:func:`houserules.adapter.searchhandoff.point_material_index`).
``tests/test_adapter.py`` reads these values out of the worker's source.
"""

from __future__ import annotations

#: Material's worker messages: SETUP → READY, QUERY → RESULT.
SETUP, READY, QUERY, RESULT = 0, 1, 2, 3

#: The worker script, relative to the site (``site_overrides/main.html`` hands it to Material).
WORKER_SCRIPT = "assets/javascripts/hr-search-worker.js"

#: Where the site's search index goes, relative to the site (the worker's default too).
SITE_FOLDER = "search/hr"

#: The key of Material's search configuration under which the worker finds the index's
#: ``version`` (added to every file's address, so a new index is never read from a cache)
#: and ``path`` (:data:`SITE_FOLDER`).
CONFIG_KEY = "houserules"

#: Material's index, which the theme reads and hands to the worker with :data:`SETUP`.
MATERIAL_INDEX = "search/search_index.json"
