"""The search's text analysis (:mod:`houserules.data.searchtext`, where ``houserules check`` can
use it too: the synonym tables are checked against the words the search indexes)."""

from __future__ import annotations

from ..data.searchtext import (  # noqa: F401 - re-exported for the search and the site's tables
    _ASKS,
    _QUESTION,
    _QUESTION_WORDS,
    _T2S,
    _TOKEN,
    IRREGULAR,
    MAX_NAME_TERMS,
    MAX_QUERY,
    EnglishStemFilter,
    MixedTokenizer,
    analyzer,
    bounded,
    english_words,
    exact_key,
    fold,
    is_last_word,
    is_question,
    name_key,
    named_spans,
    query_sequence,
    query_terms,
)
from ..data.synonyms import synonym_pairs, synonyms_said  # noqa: F401 - re-exported
