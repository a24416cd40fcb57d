"""Text analysis for the command-line search: one tokenizer for Chinese and English.

Chinese runs become overlapping character bigrams (a lone character stays a
unigram), other text becomes lowercased, stemmed English words. Both sides of
the search (the index and the query) fold traditional characters to simplified
ones and full-width forms to ASCII first, so ``塔樓`` finds ``塔楼``.

Measured against jieba (see ``benchmarks/search_bench.py``): equal or better
hit rates on the judged queries, and no dictionary to load, which keeps a cold
``houserules search`` fast.

No search engine here: the index's Whoosh analyzer (:func:`houserules.search.analysis.analyzer`) is
built from these functions, and a test holds it to :func:`query_sequence` and :func:`index_terms`.
The stems are Porter's as Whoosh implements them (``whoosh.lang.porter``, one standalone module
with no import of the engine), because the index and the site's worker (which ports them) must agree
to the letter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache

from whoosh.lang.porter import stem

from . import chinese

#: The English words no search term is made of (Whoosh's list, so the index and queries agree: a test compares them).
STOP_WORDS = frozenset(
    "a an and are as at be by can for from have if in is it may not of on or tbd that the this to us we when will"
    " with yet you your".split()
)

#: Traditional → simplified, one character at a time (OpenCC's table, :mod:`.chinese`).
T2S = chinese.T2S
#: 这/那/哪/每 with 一 before a measure word say the same as without it (哪一边 is 哪边, 这一回合 这回合): both are
#: folded to the shorter form, so "停在里面算哪边" finds "算在哪一边" (一 of 一定, 一起 stays: no measure word follows).
MEASURE_ONE = re.compile("([这那哪每])一(?=[边侧个次层回轮张格间种步只位块面方页章局])")

#: Cantonese as a Hong Kong player types it, read as the written Chinese of the texts (keys in folded form, after
#: the Traditional → Simplified table: 係咪 is 系咪 here). Words and characters written Chinese does not use, or only
#: in these phrases: 係 alone (关系) and 點 alone (点数) stay; 落 and 停 only in 落去, 停低.
CANTONESE = {
    "系唔系": "是不是",
    "系咪": "是不是",
    "可唔可以": "可不可以",
    "使唔使": "用不用",
    "会唔会": "会不会",
    "有冇": "有没有",
    "得唔得": "行不行",
    "点算": "怎么办",
    "点样": "怎样",
    "点解": "为什么",
    "点计": "怎么算",
    "会点": "会怎样",
    "几多": "多少",
    "边个": "谁",
    "边度": "哪里",
    "乜嘢": "什么",
    "咩嘢": "什么",
    "而家": "现在",
    "呢个": "这个",
    "呢度": "这里",
    "呢间": "这间",
    "呢张": "这张",
    "𠮶度": "那里",
    "𠮶啲": "那些",
    "佢哋": "他们",
    "我哋": "我们",
    "你哋": "你们",
    "咁样": "这样",
    "落去": "下去",
    "停低": "停下",
    "唔": "不",
    "喺": "在",
    "嘅": "的",
    "咗": "了",
    "嚟": "来",
    "冇": "没有",
    "佢": "他",
    "哋": "们",
    "啲": "些",
    "𠮶": "那",
    "乜": "什么",
    "咩": "什么",
    "仲": "还",
    "攞": "拿",
    "畀": "给",
    "俾": "给",
    "睇": "看",
    "揾": "找",
    "咁": "这么",
    "嘢": "东西",
}
_CANTONESE = re.compile("|".join(sorted(CANTONESE, key=len, reverse=True)))

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
TOKEN = re.compile(rf"[{_CJK}]+|[a-z0-9]+")
_ENGLISH = re.compile(r"[a-z]+")
#: Question phrases carry no topic: a query splits at them so no bigram spans one
#: ("电梯坠毁会怎样" searches 电梯/梯坠/坠毁/毁会, not 会怎/怎样; "Grit 是干嘛的" searches grit alone).
# The final particles only where a clause ends (吧 of 吧台 is a word).
QUESTION = re.compile(
    "为什么|怎么办|怎么样|能不能|可不可以|怎么|怎样|什么|如何|是否|能否|可以|是?干(?:嘛|啥)的?|咋办|咋整|咋回事|咋|啥"
    "|(?:吗|呢|吧)(?![\u3400-\u9fff])"
)
#: The auxiliaries a phone's keyboard types with "n't" and no apostrophe ("dont", "doesnt"): the query drops both
#: that word and the stub "n't" leaves of it ("doesn" of "doesn't"), and reads it as with the apostrophe
#: (:data:`CONTRACTED`).
_NEGATED = ("do", "does", "did", "is", "are", "was", "were", "have", "has", "had", "could", "would", "should")
#: English question words, pronouns, auxiliaries and fillers carry no topic either ("frightened
#: condition what does it do" searches frighten/condit; "my friend already passed the roll, is there
#: any point" keeps friend/pass/roll/point), nor do the words that ask for a comparison ("the
#: difference between a trick and an item" is about tricks and items) or how a thing works ("how do
#: saves work" asks about saves), nor do the fillers of a story told ("so then my mouse just
#: got scared" is about being scared; "free actions like sharing" is about sharing, "the rest of my
#: movement" about moving, not resting), nor does a letter left of a contraction (I'm, can't).
#: Queries only: the index keeps every word.
QUESTION_WORDS = re.compile(
    r"\b(?:what|whats|how|why|where|which|who|whom|whose|do|does|did|done|doing|i|im|ive|id|ill|me|my|mine"
    r"|we|weve|our|ours|you|youre|youve|your|yours|he|hes|him|his|she|shes|her|they|theyre|theyve|them|their|its"
    r"|this|these|those|that|thats|there|theres"
    r"|should|would|could|shall|might|must|was|were|been|being|has|had|have|having|am"
    r"|difference|differences|different|between|work|works|working"
    r"|some|any|anything|something|someone|somebody|anyone|anybody|everyone|everybody"
    r"|happen|happens|happened|happening|then|just|really|actually|also|even|so|okay|ok|well|please|anyway|maybe|already|very|too|quite"
    r"|like|lol|basically|literally|kinda|sorta|um|uh|rest\s+of"
    r"|cant|cannot|wont|mustn|" + "|".join(f"{word}nt|{word}n" for word in _NEGATED) + r"|[b-z])\b"
)


def is_question_word(word: str) -> bool:
    """Whether a folded English word is one a query drops (:data:`QUESTION_WORDS`), which is never corrected into
    an indexed word: "doesnt", typed without its apostrophe, is not the "doesn" of "doesn't".

    >>> is_question_word("doesnt"), is_question_word("youre"), is_question_word("door")
    (True, True, False)
    """
    return QUESTION_WORDS.fullmatch(word) is not None


#: Contractions typed without their apostrophe, as a phone's keyboard leaves them: the words of the
#: apostrophe's fold ("don't" folds to the words "don t"), so a synonym said "don't know what to do" is
#: said by "dont know what to do" too. Not "wont", "cant" or "ill", which are words of their own.
CONTRACTED = {f"{word}nt": f"{word}n t" for word in _NEGATED} | {
    "im": "i m",
    "ive": "i ve",
    "youre": "you re",
    "theyre": "they re",
    "whats": "what s",
    "thats": "that s",
}


def uncontracted(words: list[str]) -> list[str]:
    """``words`` with each contraction typed without its apostrophe as the words of the one with it.

    >>> uncontracted(["we", "dont", "know", "whats", "next"])
    ['we', 'don', 't', 'know', 'what', 's', 'next']
    """
    return [part for word in words for part in CONTRACTED.get(word, word).split(" ")]


#: A name (title or alias) is matched as a run of at most this many query terms.
MAX_NAME_TERMS = 6


#: A query that asks something (rather than naming a thing) wants the ruling that answers it.
ASKS = re.compile(
    r"[?？]|为什么|怎么|怎样|什么|如何|是否|能否|能不能|可以|可不可以|会不会|吗|呢|几次|多少"
    r"|\b(?:what|how|when|why|can|does|do|is|are|should|may)\b"
)


#: A question a player tells, for what a result shows first and whether a ruling answers it: what
#: :data:`ASKS` reads as a question, and the other ways a question is put (几块, 多久, 哪, 谁, 啥, 咋, 干嘛,
#: 是不是, A还是B, 要不要, 有没有, 抽不抽, a clause ending in 不, or in 码 or 嘛 where a phone's dictation or
#: pinyin wrote 吗 ("还能走码"; not 页码, 号码, 密码); "whats", "who", "which", "where", "am i").
#: Not for ranking: preferring answers for these too ranked two judged queries lower (search-eval).
ASKING = re.compile(
    ASKS.pattern + "|几|多久|多远|多长|哪|谁|啥|咋|干嘛|是不是|还是|要不要|有没有|([\u4e00-\u9fff])不\\1"
    "|不(?![\u3400-\u9fff])|(?:(?<![页号密编代数条])码|嘛)(?=[\\s.。!！]*$)|\\b(?:whats|where|which|who|am|will|would|could)\\b"
)


#: What a player says between words that adds nothing to them: a demonstrative with its measure word ("疾跑这个行动" is
#: the scurry action) and a spoken filler (嗯, 呃). A query drops it and its neighbours read on as one run.
FILLER = re.compile("[这那](?:个|种)|[嗯呃]+")

#: The longest query analysed, in characters (code points): the rest of a longer one is ignored
#: (the command line says so). Without a bound a 10,000-character query of junk took seconds,
#: in the terminal and in the browser's worker, which reads the same bound from the index head.
MAX_QUERY = 300
#: A Latin word or number the bound cuts in two ("…from the roo|m"): its part is left out, never completed or
#: corrected into a word the player did not finish typing.
_CUT_WORD = re.compile("[A-Za-z0-9]+$")
#: An English gloss a player puts in brackets inside a Chinese word ("恢复（recover）行动", folded: "恢复(recover)行动").
GLOSS = re.compile("([\u3400-\u9fff])\\(\\s*([a-z][a-z0-9 '-]*?)\\s*\\)(?=[\u3400-\u9fff])")


def aside_glosses(folded: str) -> str:
    """A folded query with each English gloss inside a Chinese word (:data:`GLOSS`) moved to its end, so the word reads
    whole ("恢复行动", a topic no source covers) and the gloss still counts.

    >>> aside_glosses("恢复(recover)行动具体能干嘛"), aside_glosses("scheme(计谋)要占包吗")
    ('恢复行动具体能干嘛 (recover)', 'scheme(计谋)要占包吗')
    """
    glosses: list[str] = []

    def aside(match: re.Match[str]) -> str:
        glosses.append(match.group(2))
        return match.group(1)

    return GLOSS.sub(aside, folded) + "".join(f" ({gloss})" for gloss in glosses)


def bounded(text: str) -> str:
    """The part of a query that is analysed: its first :data:`MAX_QUERY` characters, less the part of a
    Latin word the bound cuts in two (:data:`_CUT_WORD`).

    >>> len(bounded("塔" * 10_000)), bounded("魔梯"), bounded("x" * (MAX_QUERY - 3) + " room")[-3:]
    (300, '魔梯', 'xx ')
    """
    head = text[:MAX_QUERY]
    if len(text) > MAX_QUERY and _CUT_WORD.match(text[MAX_QUERY]):
        head = _CUT_WORD.sub("", head)
    return head


def is_question(text: str) -> bool:
    """Whether a query reads as a question.

    >>> is_question("电梯坠毁会怎样"), is_question("what happens at 0 hp"), is_question("魔梯")
    (True, True, False)
    """
    return bool(ASKS.search(fold(text)))


#: The quotes around a query to be searched as typed (no typo or homophone correction), pair by pair.
QUOTES = (('"', '"'), ("\u201c", "\u201d"), ("\u300c", "\u300d"), ("\uff02", "\uff02"))


def as_typed(text: str) -> str | None:
    """The query inside the quotes around it, to be searched as typed (None: not quoted). What "search
    instead for" asks for when a correction was made.

    >>> as_typed('"elevatr crash"'), as_typed(" “回合结束会怎样” "), as_typed('elevatr "crash"'), as_typed('""')
    ('elevatr crash', '回合结束会怎样', None, None)
    """
    text = text.strip()
    for opening, closing in QUOTES:
        if len(text) > 2 and text.startswith(opening) and text.endswith(closing):
            inner = text[len(opening) : -len(closing)]
            if opening not in inner and closing not in inner:
                return inner
    return None


#: English words that open a question after "and" ("…, and does the traitor roll too?").
PART_OPENERS: tuple[str, ...] = ("what", "how", "does", "do", "did", "can", "could", "is", "are", "who", "whose")
PART_OPENERS += ("when", "where", "why", "which", "will", "would", "should", "must", "may", "if")


def _either_case(word: str) -> str:
    """``word`` with its first letter in either case: the site's worker compiles :data:`PARTS` without flags."""
    return f"[{word[0]}{word[0].upper()}]{word[1:]}"


#: Where a message that asks several things parts them: the end of a sentence, or "and" (also, plus) before a word
#: that opens a question ("what's a round, and how long is a fight"). A comma alone does not part one ("I'm in the
#: Chasm, can I attack him" asks one thing), nor an "and" inside a question ("a round and a turn").
PARTS = re.compile(
    r"[?？;；。!！]+|(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])|,?\s+(?:"
    + "|".join(map(_either_case, ("and", "also", "plus")))
    + r")\s+(?=(?:"
    + "|".join(map(_either_case, PART_OPENERS))
    + r")\b)"
)


#: A comma before "how" or "what" asking again parts a sentence ("how long is a turn, how long is a watch"), after a
#: piece that already asks with a question word (:data:`PART_ASKER`), not after a clause that sets the scene ("in
#: Catan when someone rolls a 7, how many do I discard").
COMMA_PARTS = re.compile(
    r",\s+(?=(?:" + "|".join(map(_either_case, ("how", "what"))) + r")\s+(?:is|are|long|many|much|does|do|can)\b)"
)
PART_ASKER = re.compile(
    r"\b(?:" + "|".join(map(_either_case, ("what", "how", "who", "which", "where", "why"))) + r")\b"
)


def asked_parts(text: str) -> list[str]:
    """The questions of a message that asks several things (its sentences that ask, :func:`is_asking`); none when
    it asks one thing or nothing.

    >>> asked_parts("煤导槽能停在上面吗？能从地下室爬回去吗"), asked_parts("我在陵墓里。能攻击对面的人吗？")
    (['煤导槽能停在上面吗', '能从地下室爬回去吗'], [])
    >>> asked_parts("野外一更能走多远 过小溪要多久"), asked_parts("魔梯 坠毁怎么办")  # dictated: a space between sentences
    (['野外一更能走多远', '过小溪要多久'], [])
    >>> asked_parts("what's a round and a turn, and how long is a fight"), asked_parts("I fell and can I climb back?")
    (["what's a round and a turn", 'how long is a fight'], [])
    >>> asked_parts("what does the Study give, how many times can I use it"), asked_parts("in a current, what is it")
    (['what does the Study give', 'how many times can I use it'], [])
    """
    pieces: list[str] = []
    for sentence in PARTS.split(text):
        for at, piece in enumerate(COMMA_PARTS.split(sentence)):
            if at and not PART_ASKER.search(pieces[-1]):
                pieces[-1] += ", " + piece
            else:
                pieces.append(piece)
    parts = [part.strip() for part in pieces if part.strip() and is_asking(part)]
    return parts if len(parts) > 1 else []


#: One-character words jieba's dictionary has seen at least :data:`STANDALONE_FREQUENCY` times (又, 是, 也, 没, 过…):
#: a bigram of two is two words as typed ("又是怎么决定", never 优势), and a part of a message made of them only says
#: too little to be read alone (:func:`vague`). The test suite reads the dictionary again to keep this list its own.
STANDALONE = frozenset(
    "一上下不与个中为之也了于人从他以会但你使便做其内再出到前却去又只可后向和在地多大她好如它对将小就已年并很得想我或所才把新日时是更最月有来没用由的看着等给而能被要见让说走起过还这道那都里高"
)
STANDALONE_FREQUENCY = 50_000


def vague(part: str) -> bool:
    """Whether a part of a message says too little to be searched alone ("没过会怎样", "what if I fail"): its Chinese
    terms are all made of common one-character words (:data:`STANDALONE`), or it has at most one English term. Such a
    part is about the entry the message is about ("…要过个力量豁免 没过会怎样" asks what failing that save does, not
    an opposed save).

    >>> vague("没过会怎样"), vague("what if I fail"), vague("红线可以跨吗"), vague("how long is a fight")
    (True, True, False, False)
    """
    terms = set(query_sequence(part))
    if any(term.isascii() for term in terms):
        return len(terms) <= 1
    return all(STANDALONE.issuperset(term) for term in terms)


def is_asking(text: str) -> bool:
    """Whether a query is a question a player tells (:data:`ASKING`), so that its answer leads.

    >>> is_asking("进新房间先抽卡还是先看房间上的字"), is_asking("一回合能用两个能力不"), is_asking("电梯"), is_asking("elevator crash")
    (True, True, False, False)
    >>> is_asking("剩下的速度不够了，还能走码"), is_asking("沙漏 页码"), is_asking("能攻击嘛")
    (True, False, True)
    """
    return bool(ASKING.search(fold(text)))


def fold(text: str) -> str:
    """The form both index and query are compared in: NFKC, lowercase, simplified, Cantonese as written Chinese
    (:data:`CANTONESE`), 哪一边 as 哪边 (:data:`MEASURE_ONE`).

    >>> fold("Ｍystic 電梯"), fold("停在哪一邊？一定要嗎"), fold("舞廳仲未翻出嚟，我喺Gallery可唔可以跳落去？")
    ('mystic 电梯', '停在哪边?一定要吗', '舞厅还未翻出来,我在gallery可不可以跳下去?')
    """
    folded = unicodedata.normalize("NFKC", text).lower().translate(T2S)
    return MEASURE_ONE.sub(r"\1", _CANTONESE.sub(lambda match: CANTONESE[match.group()], folded))


def exact_key(text: str) -> str:
    """A string reduced to letters, digits and CJK, for exact title and code matches.

    >>> exact_key("BH-A13"), exact_key(" Mystic  Elevator? "), exact_key("魔梯！")
    ('bha13', 'mysticelevator', '魔梯')
    """
    return "".join(TOKEN.findall(fold(text)))


def is_last_word(folded: str, start: int, end: int) -> bool:
    """Whether the ASCII word at ``folded[start:end]`` is what the query ends with (still being
    typed), not part of a code such as ``a13``.

    >>> is_last_word("mystic eleva", 7, 12), is_last_word("eleva ", 0, 5), is_last_word("2e", 1, 2)
    (True, False, False)
    """
    return end == len(folded) and (start == 0 or folded[start - 1] not in "0123456789")


#: A word split by spaces as it was heard or dictated ("cat a combs", "dumb waiter") is joined back
#: when the joined word is indexed: a run of at most ``JOIN_RUN`` words, the first at least
#: ``JOIN_FIRST`` letters long (the site has loaded its letter's words), the joined word at least ``JOIN_MIN``.
JOIN_RUN = 3
JOIN_FIRST = 3
JOIN_MIN = 7
_DIGITS = "0123456789"


def joined(folded: str, known: Callable[[str], bool], named: Callable[[str], bool] = lambda run: False) -> str:
    """A folded query with each run of English words split by single spaces joined into one word when
    ``known`` says the joined word is indexed (the longest run first, left to right; never a word
    glued to a digit, as in a code), unless ``named`` says the run as typed is a name already ("dumb waiter",
    an alias, stays).

    >>> joined("my zombies are in the cat a combs, what now", {"catacombs"}.__contains__)
    'my zombies are in the catacombs, what now'
    >>> joined("the dumb waiter", {"dumbwaiter"}.__contains__), joined("a b c", lambda w: True)
    ('the dumbwaiter', 'a b c')
    """
    found = list(_ENGLISH.finditer(folded))
    parts, done, i = [], 0, 0
    while i < len(found):
        first = found[i]
        step = 1
        if len(first.group()) >= JOIN_FIRST and (first.start() == 0 or folded[first.start() - 1] not in _DIGITS):
            for size in range(min(JOIN_RUN, len(found) - i), 1, -1):
                run = found[i : i + size]
                end = run[-1].end()
                word = "".join(m.group() for m in run)
                if (
                    len(word) >= JOIN_MIN
                    and all(folded[a.end() : b.start()] == " " for a, b in zip(run, run[1:]))
                    and (end == len(folded) or folded[end] not in _DIGITS)
                    and known(word)
                    and not named(folded[first.start() : end])
                ):
                    parts += [folded[done : first.start()], word]
                    done, step = end, size
                    break
        i += step
    return "".join(parts) + folded[done:]


#: How a word sounds, roughly (:func:`sound_key`): the spellings of one sound made one, then the
#: vowels and the silent letters dropped and doubled letters made single.
SOUNDS = (("ph", "f"), ("ck", "k"), ("c", "k"), ("q", "k"), ("z", "s"))
_UNSOUNDED = re.compile(r"[aeiouyhw]")
_DOUBLED_LETTER = re.compile(r"(.)\1+")
#: A word spelt as it sounds is corrected only into a word whose sound key has at least this many
#: consonants after the first letter (fewer match too many words).
SOUND_MIN = 3


def sound_key(word: str) -> str:
    """An English word as it sounds, roughly: its first letter as typed, then its consonants (a word
    spelt by ear, "managery", has the key of the word meant, menagerie: ``mngr``).

    >>> sound_key("managery"), sound_key("menagerie"), sound_key("phantom"), sound_key("chapple")
    ('mngr', 'mngr', 'pntm', 'cpl')
    """
    rest = word[1:]
    for spelt, sound in SOUNDS:
        rest = rest.replace(spelt, sound)
    return word[:1] + _DOUBLED_LETTER.sub(r"\1", _UNSOUNDED.sub("", rest))


def english_words(text: str) -> list[str]:
    """The lowercased English words of a text (before stemming), for spelling correction."""
    return _ENGLISH.findall(fold(text))


def pieces(run: str, index: bool) -> list[str]:
    """The terms of one run of :data:`TOKEN`: a Chinese run's bigrams (and its characters when ``index``:
    unigrams in the index let a one-character query find longer words), else the run itself.

    >>> pieces("魔梯坠", index=False), pieces("魔梯", index=True), pieces("crash", index=False)
    (['魔梯', '梯坠'], ['魔', '梯', '魔梯'], ['crash'])
    """
    if not ("\u3400" <= run[0]):
        return [run]
    if len(run) == 1:
        return [run]
    bigrams = [run[i : i + 2] for i in range(len(run) - 1)]
    return list(run) + bigrams if index else bigrams


#: Irregular past forms the stemmer cannot reach ("my friend fell through" asks about falling),
#: on both sides of the search. Forms that are words of their own (left, saw, wound, stuck) are not here.
IRREGULAR = {
    **dict.fromkeys(["fell", "fallen"], "fall"),
    **dict.fromkeys(["took", "taken"], "take"),
    **dict.fromkeys(["got", "gotten"], "get"),
    **dict.fromkeys(["broke", "broken"], "break"),
    **dict.fromkeys(["began", "begun"], "begin"),
    **dict.fromkeys(["gave", "given"], "give"),
    **dict.fromkeys(["drew", "drawn"], "draw"),
    **dict.fromkeys(["threw", "thrown"], "throw"),
    **dict.fromkeys(["rode", "ridden"], "ride"),
    **dict.fromkeys(["chose", "chosen"], "choose"),
    **dict.fromkeys(["stole", "stolen"], "steal"),
    **dict.fromkeys(["ate", "eaten"], "eat"),
    **dict.fromkeys(["flew", "flown"], "fly"),
    **dict.fromkeys(["froze", "frozen"], "freeze"),
    **dict.fromkeys(["wore", "worn"], "wear"),
    **dict.fromkeys(["wrote", "written"], "write"),
    "ran": "run",
    "came": "come",
    "lost": "lose",
    "caught": "catch",
    "fought": "fight",
    "fled": "flee",
    "found": "find",
    "held": "hold",
    "kept": "keep",
    "made": "make",
    "paid": "pay",
    "sat": "sit",
    "stood": "stand",
    "struck": "strike",
    "swept": "sweep",
    "hid": "hide",
    "dealt": "deal",
    "brought": "bring",
    "bought": "buy",
    "told": "tell",
    "slept": "sleep",
    "spent": "spend",
    "won": "win",
    "shot": "shoot",
    "led": "lead",
    "sank": "sink",
    "dug": "dig",
}


#: A short verb's doubled last consonant before -ed or -ing, as the stemmer leaves it ("stabb" of
#: "stabbing", "dropp" of "dropped"): one vowel after the first consonants, then the pair.
DOUBLED = re.compile(r"[^aeiou]+[aeiou]([bdfgkmnprtv])\1")


@lru_cache(maxsize=50_000)
def _stem(word: str) -> str:
    """A word's term: Porter's stem (of its verb for an irregular past form), a short verb's doubled
    consonant undone ("stabbing", "stabbed" and "stab" are one term, as "dropped" and "drop"; "added"
    stays "add").

    >>> _stem("stabbing"), _stem("dropped"), _stem("hitting"), _stem("added"), _stem("fell")
    ('stab', 'drop', 'hit', 'add', 'fall')
    """
    term: str = stem(IRREGULAR.get(word, word))
    if word.endswith(("ed", "ing")) and DOUBLED.fullmatch(term):
        return term[:-1]
    return term


def word_form(word: str) -> str:
    """An English word's stem without a doubled last consonant, as Porter's rule would have it
    (the stemmer keeps "stabb" for "stabbing"): what one-word synonyms are compared in.

    >>> word_form("stabbing"), word_form("stab"), word_form("grabbed"), word_form("falling")
    ('stab', 'stab', 'grab', 'fall')
    """
    term = _stem(word)
    if len(term) > 2 and term[-1] == term[-2] and term[-1] not in "aeiouylsz":
        return term[:-1]
    return term


def term(token: str) -> str:
    """The search term of one token: an English word's stem (:func:`_stem`), a number or Chinese as it is."""
    return _stem(token) if token.isascii() and not token.isdigit() else token


def tokens(text: str, query: bool) -> Iterator[str]:
    """A text's tokens before stop words and stems: folded (for a query, its question phrases and words dropped
    first), a Chinese run in :func:`pieces`. What the index's analyzer, :func:`query_sequence` and
    :func:`index_terms` are made of.

    >>> list(tokens("魔梯会怎样 The Elevators", query=True)), list(tokens("疾跑这个行动", query=True))
    (['魔梯', '梯会', 'the', 'elevators'], ['疾跑', '跑行', '行动'])
    """
    text = fold(text)
    if query:
        text = QUESTION_WORDS.sub(" ", QUESTION.sub(" ", FILLER.sub("", text)))
    for match in TOKEN.finditer(text):
        yield from pieces(match.group(0), index=not query)


def query_sequence(text: str) -> list[str]:
    """The terms of a query in order, repeats kept (names are found as runs of them): question phrases and
    words dropped, Chinese runs as bigrams, stop words left out, English words stemmed.

    >>> query_sequence("how does the mystic elevator move")
    ['mystic', 'elev', 'move']
    """
    return [term(piece) for piece in tokens(text, query=True) if piece not in STOP_WORDS]


def name_key(text: str) -> str:
    """What a title or alias is matched as: its query terms, space-separated (:func:`key_of`).

    >>> name_key("Mystic Elevator"), name_key("魔梯"), name_key("枪")
    ('mystic elev', '魔梯', '')
    """
    return key_of(query_sequence(text))


def key_of(terms: list[str]) -> str:
    """A name's key from its terms: space-separated, "" when it has none or is one Chinese character, which names
    too little to stand for a thing."""
    if len(terms) == 1 and len(terms[0]) == 1 and not terms[0].isascii():
        return ""
    return " ".join(terms)


def named_spans(sequence: list[str], known: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """The runs ``(start, end, key)`` of a query's terms that ``known`` says are names, at most
    :data:`MAX_NAME_TERMS` terms long."""
    found = []
    for start in range(len(sequence)):
        for end in range(start + 1, min(len(sequence), start + MAX_NAME_TERMS) + 1):
            key = " ".join(sequence[start:end])
            if known(key):
                found.append((start, end, key))
    return found


def index_terms(text: str) -> set[str]:
    """The distinct terms the index makes of a text (as the index's analyzer does: the check reads every
    entry's short texts with it).

    >>> sorted(index_terms("魔梯 The Elevators"))
    ['elev', '梯', '魔', '魔梯']
    """
    return {term(piece) for piece in tokens(text, query=False) if piece not in STOP_WORDS}


def query_terms(text: str) -> list[str]:
    """The distinct terms of a query, in order.

    >>> query_terms("电梯坠毁会怎样")
    ['电梯', '梯坠', '坠毁', '毁会']
    >>> query_terms("The elevators CRASH")
    ['elev', 'crash']
    """
    return list(dict.fromkeys(query_sequence(text)))
