"""The search's text analysis: :mod:`houserules.text.searchtext` (where ``houserules check`` can use it
too: the synonym tables are checked against the words the search indexes), and the analyzer Whoosh
indexes with, made of its functions. Whoosh pickles the analyzer into the index schema, so this module
must stay importable and cheap.
"""

from __future__ import annotations

from collections.abc import Iterator

from whoosh.analysis import Composable, Filter, StopFilter, Token, Tokenizer

from ..data.words.synonyms import (
    Crossing,
    cross_named,
    cross_pattern,
    crossed_names,
    said_scopes,
    said_word,
    synonym_pairs,
    synonyms_said,
)
from ..text import searchtext
from ..text.english import common_words, is_common
from ..text.querynames import longest_spans, name_terms, outside_spans
from ..text.searchtext import (
    ASKING,
    ASKS,
    CANTONESE,
    COMMA_PARTS,
    CONTRACTED,
    DOUBLED,
    FILLER,
    GLOSS,
    IRREGULAR,
    JOIN_FIRST,
    JOIN_MIN,
    JOIN_RUN,
    MAX_NAME_TERMS,
    MAX_QUERY,
    MEASURE_ONE,
    PART_ASKER,
    PARTS,
    QUESTION,
    QUESTION_WORDS,
    QUOTES,
    SOUND_MIN,
    SOUNDS,
    STANDALONE,
    STANDALONE_FREQUENCY,
    STOP_WORDS,
    T2S,
    TOKEN,
    as_typed,
    aside_glosses,
    asked_parts,
    bounded,
    english_words,
    exact_key,
    fold,
    index_terms,
    is_asking,
    is_last_word,
    is_question,
    is_question_word,
    joined,
    named_spans,
    query_terms,
    sound_key,
    vague,
    word_form,
)

# Re-exported for the search and the site's tables (the patterns and tables in capitals are what
# search/shards.py writes out for the browser's query analysis).
__all__ = [
    "ASKS",
    "ASKING",
    "QUESTION",
    "QUESTION_WORDS",
    "CONTRACTED",
    "T2S",
    "TOKEN",
    "STOP_WORDS",
    "QUOTES",
    "as_typed",
    "asked_parts",
    "vague",
    "PARTS",
    "COMMA_PARTS",
    "PART_ASKER",
    "IRREGULAR",
    "JOIN_FIRST",
    "JOIN_MIN",
    "JOIN_RUN",
    "DOUBLED",
    "FILLER",
    "MAX_NAME_TERMS",
    "MAX_QUERY",
    "MEASURE_ONE",
    "STANDALONE",
    "STANDALONE_FREQUENCY",
    "CANTONESE",
    "GLOSS",
    "aside_glosses",
    "EnglishStemFilter",
    "MixedTokenizer",
    "analyzer",
    "bounded",
    "english_words",
    "exact_key",
    "fold",
    "is_question_word",
    "index_terms",
    "is_last_word",
    "is_asking",
    "is_question",
    "joined",
    "name_key",
    "named_spans",
    "query_sequence",
    "query_terms",
    "sound_key",
    "SOUND_MIN",
    "SOUNDS",
    "said_word",
    "synonym_pairs",
    "word_form",
    "longest_spans",
    "outside_spans",
    "name_terms",
    "synonyms_said",
    "said_scopes",
    "crossed_names",
    "Crossing",
    "cross_named",
    "cross_pattern",
    "common_words",
    "is_common",
]


class MixedTokenizer(Tokenizer):
    """Chinese runs → bigrams (and unigrams when indexing); other text → ASCII words."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        pos = start_pos
        for piece in searchtext.tokens(value, query=mode == "query"):
            token.text = piece
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = pos
                pos += 1
            yield token


class EnglishStemFilter(Filter):
    """Porter-stems ASCII words and leaves Chinese tokens alone."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        for token in tokens:
            token.text = searchtext.term(token.text)
            yield token


def analyzer() -> Composable:
    """The analyzer of every searchable field: :func:`~houserules.text.searchtext.query_sequence` in query
    mode, :func:`~houserules.text.searchtext.index_terms` (with positions) when indexing."""
    return MixedTokenizer() | StopFilter(stoplist=STOP_WORDS, minsize=1) | EnglishStemFilter()


_ANALYZER = analyzer()


def query_sequence(text: str, analyze: Composable | None = None) -> list[str]:
    """The terms of a query in order, as ``analyze`` reads it: the index's own analyzer (None, or one equal to
    :func:`analyzer`) reads as :func:`~houserules.text.searchtext.query_sequence` does, without Whoosh's
    per-token machinery; another (a benchmark's jieba) through Whoosh."""
    if analyze is None or analyze == _ANALYZER:
        return searchtext.query_sequence(text)
    return [token.text for token in analyze(text, mode="query")]


def name_key(text: str, analyze: Composable | None = None) -> str:
    """:func:`~houserules.text.searchtext.name_key`, as ``analyze`` reads (:func:`query_sequence`)."""
    return searchtext.key_of(query_sequence(text, analyze))
