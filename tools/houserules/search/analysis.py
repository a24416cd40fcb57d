"""The search's text analysis (:mod:`houserules.data.words.searchtext`, where ``houserules check`` can
use it too: the synonym tables are checked against the words the search indexes)."""

from __future__ import annotations

from ..data.words.english import common_words, is_common
from ..data.words.querynames import longest_spans, name_terms
from ..data.words.searchtext import (
    ASKS,
    DOUBLED,
    IRREGULAR,
    JOIN_FIRST,
    JOIN_MIN,
    JOIN_RUN,
    MAX_NAME_TERMS,
    MAX_QUERY,
    QUESTION,
    QUESTION_WORDS,
    T2S,
    TOKEN,
    EnglishStemFilter,
    MixedTokenizer,
    analyzer,
    bounded,
    english_words,
    exact_key,
    fold,
    index_terms,
    is_last_word,
    is_question,
    joined,
    name_key,
    named_spans,
    query_sequence,
    query_terms,
    word_form,
)
from ..data.words.synonyms import said_scopes, said_word, synonym_pairs, synonyms_said

# Re-exported for the search and the site's tables (the patterns and tables in capitals are what
# search/shards.py writes out for the browser's query analysis).
__all__ = [
    "ASKS",
    "QUESTION",
    "QUESTION_WORDS",
    "T2S",
    "TOKEN",
    "IRREGULAR",
    "JOIN_FIRST",
    "JOIN_MIN",
    "JOIN_RUN",
    "DOUBLED",
    "MAX_NAME_TERMS",
    "MAX_QUERY",
    "EnglishStemFilter",
    "MixedTokenizer",
    "analyzer",
    "bounded",
    "english_words",
    "exact_key",
    "fold",
    "index_terms",
    "is_last_word",
    "is_question",
    "joined",
    "name_key",
    "named_spans",
    "query_sequence",
    "query_terms",
    "said_word",
    "synonym_pairs",
    "word_form",
    "longest_spans",
    "name_terms",
    "synonyms_said",
    "said_scopes",
    "common_words",
    "is_common",
]
