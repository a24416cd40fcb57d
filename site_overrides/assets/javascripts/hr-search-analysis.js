/* houserules site search: the query analysis of the command-line search, in JavaScript.
 *
 * A line-by-line port of tools/houserules/search/analysis.py (folding, CJK bigrams, English
 * words, question phrases), whoosh.lang.porter (the stemmer: ported rather than taken
 * from a library because the stems must be Whoosh's, quirks included) and the query
 * correction of tools/houserules/search/index.py. The tables (traditional -> simplified, stop
 * words, patterns) come from the site index's head, written from the Python side, so
 * the two cannot drift; tests/test_search_parity.py (under Node) and tests/test_site_search.py
 * (in Chromium) run both on the same inputs.
 */
"use strict";

// eslint-disable-next-line no-unused-vars
var hrAnalysis = (function () {
  /* -- Porter stemmer: whoosh/lang/porter.py ------------------------------------------ */
  var STEP2 = {
    ational: "ate", tional: "tion", enci: "ence", anci: "ance", izer: "ize", bli: "ble",
    alli: "al", entli: "ent", eli: "e", ousli: "ous", ization: "ize", ation: "ate",
    ator: "ate", alism: "al", iveness: "ive", fulness: "ful", ousness: "ous", aliti: "al",
    iviti: "ive", biliti: "ble", logi: "log"
  };
  var STEP3 = { icate: "ic", ative: "", alize: "al", iciti: "ic", ical: "ic", ful: "", ness: "" };
  var C = "[^aeiouy]+", V = "[aeiou]+";
  // Python's re.match anchors at the start: every pattern here starts with ^.
  var mgr0 = new RegExp("^(" + C + ")?" + V + C);
  var meq1 = new RegExp("^(" + C + ")?" + V + C + "(" + V + ")?$");
  var mgr1 = new RegExp("^(" + C + ")?" + V + C + V + C);
  var sv = new RegExp("^(" + C + ")?[aeiouy]");
  var cv = new RegExp("^" + C + "[aeiouy][^aeiouwxy]$");
  var edIng = /^(.*)(ed|ing)$/;
  var atBlIz = /^(at|bl|iz)$/;
  var step1b = /^([^aeiouylsz])\1$/;
  var step2 = /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
  var step3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
  var step41 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
  var step42 = /^(.+?)(s|t)(ion)$/;
  var step5 = /^(.+?)e$/;

  function stem(w) {
    if (w.length < 3) return w;
    var firstIsY = w[0] === "y";
    if (firstIsY) w = "Y" + w.slice(1);
    var m, s;
    if (w.endsWith("s")) {
      if (w.endsWith("sses")) w = w.slice(0, -2);
      else if (w.endsWith("ies")) w = w.slice(0, -2);
      else if (w[w.length - 2] !== "s") w = w.slice(0, -1);
    }
    if (w.endsWith("eed")) {
      if (mgr0.test(w.slice(0, -3))) w = w.slice(0, -1);
    } else if ((m = edIng.exec(w))) {
      s = m[1];
      if (sv.test(s)) {
        w = s;
        if (atBlIz.test(w)) w += "e";
        else if (step1b.test(w)) w = w.slice(0, -1);
        else if (cv.test(w)) w += "e";
      }
    }
    if (w.endsWith("y")) {
      s = w.slice(0, -1);
      if (sv.test(s)) w = s + "i";
    }
    if ((m = step2.exec(w)) && mgr0.test(m[1])) w = m[1] + STEP2[m[2]];
    if ((m = step3.exec(w)) && mgr0.test(m[1])) w = m[1] + STEP3[m[2]];
    if ((m = step41.exec(w))) {
      if (mgr1.test(m[1])) w = m[1];
    } else if ((m = step42.exec(w))) {
      s = m[1] + m[2];
      if (mgr1.test(s)) w = s;
    }
    if ((m = step5.exec(w))) {
      s = m[1];
      if (mgr1.test(s) || (meq1.test(s) && !cv.test(s))) w = s;
    }
    if (w.endsWith("ll") && mgr1.test(w)) w = w.slice(0, -1);
    if (firstIsY) w = "y" + w.slice(1);
    return w;
  }

  /* Levenshtein distance of a and b, or limit + 1 when it is larger; with ``swaps``, a swap of two
   * neighbours is one edit (whoosh.support.levenshtein.damerau_levenshtein). */
  function distance(a, b, limit, swaps) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var twoago = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev.push(j);
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] && a[i - 1] !== b[j - 1]) {
          v = Math.min(v, twoago[j - 2] + 1);
        }
        cur.push(v);
        if (v < best) best = v;
      }
      if (best > limit) return limit + 1;
      twoago = prev;
      prev = cur;
    }
    return prev[b.length];
  }

  /* The analysis, given the tables of the index's head. */
  function make(head) {
    var t2s = new Map();
    var from = Array.from(head.t2s[0]), to = Array.from(head.t2s[1]);
    for (var i = 0; i < from.length; i++) t2s.set(from[i], to[i]);
    var stop = new Set(head.stop);
    var irregular = head.irregular || {};

    /* searchtext._stem: an English word's term (irregular past forms first: fell -> fall; a short
     * verb's doubled consonant before -ed, -ing undone: stabbing -> stab). */
    var DOUBLED = new RegExp("^(?:" + head.doubled + ")$");
    function termOf(word) {
      var term = stem(Object.prototype.hasOwnProperty.call(irregular, word) ? irregular[word] : word);
      if ((word.endsWith("ed") || word.endsWith("ing")) && DOUBLED.test(term)) return term.slice(0, -1);
      return term;
    }
    /* searchtext.word_form: the stem without a doubled last consonant ("stabbing" -> "stab"). */
    function wordForm(word) {
      var term = termOf(word), n = term.length;
      if (n > 2 && term[n - 1] === term[n - 2] && "aeiouylsz".indexOf(term[n - 1]) < 0) return term.slice(0, -1);
      return term;
    }
    var TOKEN = new RegExp(head.token, "gu");
    var QUESTION = new RegExp(head.question, "gu");
    var QUESTION_WORDS = new RegExp(head.questionWords, "gu");
    var FILLER = new RegExp(head.filler || "(?!)", "gu");  // searchtext.FILLER: 这个, 那种, 嗯: dropped, the words around join
    var QUESTION_WORD = new RegExp("^(?:" + head.questionWords + ")$", "u");  // searchtext.is_question_word
    /* searchtext.uncontracted: "dont" as the words of "don't" ("don t"). */
    var CONTRACTED = head.contracted || {};
    function uncontracted(words) {
      var out = [];
      words.forEach(function (word) {
        var parts = Object.prototype.hasOwnProperty.call(CONTRACTED, word) ? CONTRACTED[word].split(" ") : [word];
        parts.forEach(function (part) { out.push(part); });
      });
      return out;
    }
    var ASKS = new RegExp(head.asks, "u");
    var ASKING = new RegExp(head.asking || head.asks, "u");
    var PARTS = new RegExp(head.parts || "[?？;；。!！]+", "u");
    var COMMA_PARTS = head.commaParts ? new RegExp(head.commaParts, "u") : null;
    var PART_ASKER = new RegExp(head.partAsker || "(?!)", "u");
    var ENGLISH = /[a-z]+/g;
    var ALNUM = /^[a-z0-9]$/;
    // English words of the synonym tables: known words, never corrected into others (index.SearchIndex._said).
    var saidWords = new Set((head.synonyms || []).map(function (pair) { return pair[0]; })
      .filter(function (say) { return /^[\x00-\x7f]*$/.test(say) && say.indexOf(" ") < 0; }));
    // ... nor any form of the one-word ones (synonyms.said_word: "stabbing" is not "starting" misspelt).
    var saidStems = new Set();
    saidWords.forEach(function (say) { if (/^[a-z]+$/.test(say)) saidStems.add(wordForm(say)); });
    // ... and every English word of what players say ("sider" of "twenty-sider", "didn" of "didn't eat").
    (head.synonyms || []).forEach(function (pair) {
      if (/^[\x00-\x7f]*$/.test(pair[0])) (fold(pair[0]).match(ENGLISH) || []).forEach(function (w) { saidWords.add(w); });
    });

    /* searchtext.bounded: the first head.maxQuery characters (code points) of a query, less the part of a
       Latin word the bound cuts in two. */
    function bounded(text) {
      if (text.length <= head.maxQuery) return text;
      var out = "", n = 0, next = "";
      for (var ch of text) { if (n++ === head.maxQuery) { next = ch; break; } out += ch; }
      return /^[A-Za-z0-9]/.test(next) ? out.replace(/[A-Za-z0-9]+$/, "") : out;
    }

    /* chinese.reader_script: "zh-Hant" when the text holds more characters only Traditional Chinese writes
     * than only Simplified writes, else "zh" with a Chinese character, else "en" with a Latin letter, else "zh". */
    var simplifiedOnly = null;
    var HAN = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/u, LATIN = /[A-Za-z\uff21-\uff3a\uff41-\uff5a]/;
    function script(text) {
      if (simplifiedOnly === null) {
        simplifiedOnly = new Set();
        // chinese.SIMPLIFIED_ONLY: what the table folds into, but not what Traditional writes too (吃, 出, 回).
        var both = new Set(Array.from(head.bothScripts || ""));
        t2s.forEach(function (simple) { if (!t2s.has(simple) && !both.has(simple)) simplifiedOnly.add(simple); });
      }
      var traditional = 0, simplified = 0, han = false;
      for (var ch of text) {
        if (t2s.has(ch)) traditional++;
        else if (simplifiedOnly.has(ch)) simplified++;
        else if (HAN.test(ch)) han = true;
      }
      if (traditional > simplified) return "zh-Hant";
      if (traditional || simplified || han) return "zh";
      return LATIN.test(text) ? "en" : "zh";
    }

    /* searchtext.MEASURE_ONE: 哪一边 folded as 哪边; searchtext.CANTONESE: Cantonese read as written Chinese. */
    var MEASURE_ONE = new RegExp(head.measureOne || "(?!)", "gu");
    var CANTONESE = head.cantonese || {};
    var CANTONESE_WORDS = new RegExp(Object.keys(CANTONESE).sort(function (a, b) {
      return Array.from(b).length - Array.from(a).length;
    }).join("|") || "(?!)", "gu");
    function fold(text) {
      var out = "";
      for (var ch of text.normalize("NFKC").toLowerCase()) out += t2s.has(ch) ? t2s.get(ch) : ch;
      return out.replace(CANTONESE_WORDS, function (word) { return CANTONESE[word]; }).replace(MEASURE_ONE, "$1");
    }

    /* searchtext.aside_glosses: each English gloss inside a Chinese word (head.gloss) moved to the end. */
    var GLOSS = new RegExp(head.gloss || "(?!)", "gu");
    function asideGlosses(folded) {
      var glosses = [];
      var text = folded.replace(GLOSS, function (all, before, gloss) { glosses.push(gloss); return before; });
      return text + glosses.map(function (gloss) { return " (" + gloss + ")"; }).join("");
    }

    /* synonyms.cross_named: a folded Chinese query with the glossaries' English names it says (head.crossed, found
     * with head.crossPattern) written in Chinese, without the spaces around them. */
    var CROSSED = new Map((head.crossed || []).map(function (pair) { return [pair[0], pair[1]]; }));
    var CROSS = head.crossPattern ? new RegExp(head.crossPattern, "g") : null;
    var CHINESE = /[\u3400-\u9fff\uf900-\ufaff]/;
    function crossNamed(folded) {
      if (CROSS === null || !CHINESE.test(folded)) return folded;
      return folded.replace(CROSS, function (all, before, name) {
        return before + "\u0000" + CROSSED.get(name.split(/\s+/).join(" ")) + "\u0000";
      }).replace(/\s*\u0000\s*/g, "");
    }

    function pieces(run) {
      var chars = Array.from(run);
      if (run.charCodeAt(0) < 0x3400) return [run];
      if (chars.length === 1) return [run];
      var out = [];
      for (var k = 0; k + 1 < chars.length; k++) out.push(chars[k] + chars[k + 1]);
      return out;
    }

    /* searchtext.query_sequence: the terms of a query in order, repeats kept. */
    function querySequence(text) {
      var folded = fold(text).replace(FILLER, "").replace(QUESTION, " ").replace(QUESTION_WORDS, " ");
      var out = [];
      for (var match of folded.matchAll(TOKEN)) {
        for (var piece of pieces(match[0])) {
          if (stop.has(piece)) continue;
          out.push(/^[\x00-\x7f]*$/.test(piece) && !/^[0-9]+$/.test(piece) ? termOf(piece) : piece);
        }
      }
      return out;
    }

    /* searchtext.query_terms: the distinct terms of a query, in order. */
    function queryTerms(text) {
      return Array.from(new Set(querySequence(text)));
    }

    function exactKey(text) {
      return (fold(text).match(TOKEN) || []).join("");
    }

    function isQuestion(text) {
      return ASKS.test(fold(text));
    }

    /* searchtext.is_asking: a question a player tells (what a result shows first, whether a ruling answers it). */
    function isAsking(text) {
      return ASKING.test(fold(text));
    }

    /* searchtext.asked_parts: the questions of a message that asks several things (its sentences that ask), or []. */
    function askedParts(text) {
      // A comma before "how"/"what" asking again parts a sentence after a piece that asks (searchtext.COMMA_PARTS).
      var pieces = [];
      text.split(PARTS).forEach(function (sentence) {
        (COMMA_PARTS ? sentence.split(COMMA_PARTS) : [sentence]).forEach(function (piece, at) {
          if (at && !PART_ASKER.test(pieces[pieces.length - 1])) pieces[pieces.length - 1] += ", " + piece;
          else pieces.push(piece);
        });
      });
      var parts = pieces.map(function (part) { return part.trim(); }).filter(function (part) {
        return part && isAsking(part);
      });
      return parts.length > 1 ? parts : [];
    }

    /* searchtext.vague: a part of a message that says too little to be read alone (its Chinese terms all of common
     * one-character words, head.standalone; or at most one English term). */
    function vague(part) {
      var terms = Array.from(new Set(querySequence(part)));
      if (terms.some(function (term) { return /^[\x00-\x7f]*$/.test(term); })) return terms.length <= 1;
      return terms.every(function (term) {
        return Array.from(term).every(function (ch) { return STANDALONE.has(ch); });
      });
    }

    /* searchtext.as_typed: the query inside the quotes around it (searched as typed), or null. */
    function asTyped(text) {
      var t = text.trim();
      var pairs = head.quotes || [];
      for (var i = 0; i < pairs.length; i++) {
        var open = pairs[i][0], close = pairs[i][1];
        if (t.length > 2 && t.startsWith(open) && t.endsWith(close)) {
          var inner = t.slice(open.length, t.length - close.length);
          if (inner.indexOf(open) < 0 && inner.indexOf(close) < 0) return inner;
        }
      }
      return null;
    }

    /* The ASCII words of the folded query that correction may look up, with whether each is last. */
    function words(text) {
      var folded = fold(text), out = [];
      for (var m of folded.matchAll(ENGLISH)) {
        out.push({ word: m[0], last: isLastWord(folded, m.index, m.index + m[0].length) });
      }
      return out;
    }

    function isLastWord(folded, start, end) {
      return end === folded.length && (start === 0 || "0123456789".indexOf(folded[start - 1]) < 0);
    }

    /* searchtext.sound_key: an English word as it sounds, roughly (its first letter as typed, then
     * its consonants: managery and menagerie are both mngr). */
    function soundKey(word) {
      var rest = word.slice(1);
      head.sounds.forEach(function (pair) { rest = rest.split(pair[0]).join(pair[1]); });
      return word.slice(0, 1) + rest.replace(/[aeiouyhw]/g, "").replace(/(.)\1+/g, "$1");
    }

    /* searchtext.joined: a run of at most head.joinRun words split by single spaces ("cat a combs"),
     * the first at least head.joinFirst letters, joined when ``known(word)`` says the joined word
     * (at least head.joinMin letters) is indexed; the longest run first, never glued to a digit. */
    function joined(folded, known, named) {
      var found = Array.from(folded.matchAll(ENGLISH)), out = "", done = 0, i = 0;
      while (i < found.length) {
        var first = found[i], step = 1;
        if (first[0].length >= head.joinFirst && (first.index === 0 || "0123456789".indexOf(folded[first.index - 1]) < 0)) {
          for (var size = Math.min(head.joinRun, found.length - i); size > 1; size--) {
            var run = found.slice(i, i + size), last = run[size - 1], end = last.index + last[0].length;
            var word = run.map(function (m) { return m[0]; }).join(""), spaced = true;
            for (var k = 1; k < size; k++) {
              if (folded.slice(run[k - 1].index + run[k - 1][0].length, run[k].index) !== " ") spaced = false;
            }
            if (word.length >= head.joinMin && spaced && (end === folded.length || "0123456789".indexOf(folded[end]) < 0)
                && known(word) && !(named && named(folded.slice(first.index, end)))) {
              out += folded.slice(done, first.index) + word;
              done = end;
              step = size;
              break;
            }
          }
        }
        i += step;
      }
      return out + folded.slice(done);
    }

    /* search.index.SearchIndex.correct: ``lexicon(word)`` returns {known, complete(), suggest(maxdist)}. */
    /* ``named(run)`` (optional): whether a run of words as typed is a name, which is never joined ("dumb waiter"). */
    function correct(text, lexicon, named) {
      var typed = asTyped(text);
      if (typed !== null) return fold(typed);  // "searched as typed": nothing is corrected
      var folded = joined(fold(text), function (word) { return lexicon(word).known; }, named);
      return folded.replace(ENGLISH, function (word, start) {
        var lex = lexicon(word);
        if (lex.known || saidWords.has(word) || Object.prototype.hasOwnProperty.call(irregular, word)
            || saidStems.has(wordForm(word)) || QUESTION_WORD.test(word)) return word;
        if (word.length >= head.minCompleted && isLastWord(folded, start, start + word.length)) {
          var done = lex.complete();
          // A real English word is not a word being typed (index.SearchIndex.correct): not completed.
          if (done.length && (word.length < 4 || lex.common() !== true)) return done.join(" ");
        }
        if (word.length < head.minCorrected) return word;
        var found = lex.suggest(word.length < 7 ? 1 : 2);
        return found === null ? word : found;
      });
    }

    /* -- search.homophones: Chinese typed with the wrong homophone (魔题 for 魔梯) ----------- */
    var CJK_ONE = new RegExp("^(?:" + head.token + ")$", "u");
    function isCjk(ch) { return ch.codePointAt(0) >= 0x3400 && CJK_ONE.test(ch); }
    function masked(folded) {
      return Array.from(folded.replace(QUESTION, function (m) { return " ".repeat(m.length); }));
    }

    /* The distinct Chinese bigrams of a folded query, outside question phrases. */
    function cjkPairs(folded) {
      var chars = masked(folded), out = [];
      for (var i = 0; i + 1 < chars.length; i++) {
        if (isCjk(chars[i]) && isCjk(chars[i + 1]) && out.indexOf(chars[i] + chars[i + 1]) < 0) out.push(chars[i] + chars[i + 1]);
      }
      return out;
    }

    /* homophones.correct: ``known(bigram)``, ``candidates(key)`` (best first), ``reading`` a Map char -> syllable. */
    /* homophones.PRONOUNS: a bigram with one stays as typed; homophones.PLAY_VERBS: one after a word typed right stays. */
    var PRONOUNS = new Set(Array.from(head.pronouns || "这那哪谁啥咋怎几"));
    var PLAY_VERBS = new Set(Array.from(head.playVerbs || ""));
    /* homophones.STANDALONE: a bigram of two common one-character words is two words as typed (又是). */
    var STANDALONE = new Set(Array.from(head.standalone || ""));
    function correctHomophones(folded, known, candidates, reading) {
      var mask = masked(folded), chars = Array.from(folded), pairs = [], covered = [], i;
      for (i = 0; i + 1 < chars.length; i++) if (isCjk(mask[i]) && isCjk(mask[i + 1])) pairs.push(i);
      pairs.forEach(function (i) { if (known(chars[i] + chars[i + 1])) covered[i] = covered[i + 1] = true; });
      pairs.forEach(function (i) {
        var bigram = chars[i] + chars[i + 1];
        var a = reading.get(chars[i]), b = reading.get(chars[i + 1]);
        if (!a || !b || (covered[i] && covered[i + 1]) || known(bigram)) return;
        if (PRONOUNS.has(chars[i]) || PRONOUNS.has(chars[i + 1])) return;  // 这章 is not 着障, 谁管 not 水管
        if (STANDALONE.has(chars[i]) && STANDALONE.has(chars[i + 1])) return;  // 又是 is two words, not 优势
        var options = candidates(a + " " + b);
        if (options.indexOf("!" + bigram) >= 0) return;  // a real word, meant as typed (一刀, not 一道)
        if (options.some(function (o) { return o.split("/")[0] === bigram; })) return;  // a name's own bigram
        // A character of an indexed bigram stays: only the other one was mistyped (行动股 -> 行动骰).
        var kept = covered[i] ? 0 : covered[i + 1] ? 1 : -1;
        if (kept >= 0 && PLAY_VERBS.has(chars[i + 1 - kept])) return;  // 属性掷 is not 属性值
        // Both characters change only beside an indexed bigram ("模题坠毁"; 建意 alone is not 坚毅).
        var beside = (i > 0 && covered[i - 1]) || (i + 2 < chars.length && covered[i + 2]);
        var best = "", fewest = beside ? 3 : 2;
        options.forEach(function (candidate) {
          var c = Array.from(candidate);
          if (c[0] === "!" || (kept >= 0 && c[kept] !== chars[i + kept])) return;
          var changed = (c[0] !== chars[i] ? 1 : 0) + (c[1] !== chars[i + 1] ? 1 : 0);
          if (changed < fewest && makesName(chars, i, candidate)) { best = candidate; fewest = changed; }
        });
        if (best) {
          var c = Array.from(best);
          chars[i] = c[0]; chars[i + 1] = c[1];
          covered[i] = covered[i + 1] = true;
        }
      });
      return chars.join("");
    }

    /* homophones.makes_name: whether putting the candidate's bigram at chars[at..at+1] makes a name: a whole
     * name, or one of the longer names it is listed with ("束回/结束回合") then stands there, over it. */
    function makesName(chars, at, candidate) {
      var parts = candidate.split("/"), bigram = Array.from(parts[0]);
      if (parts.length === 1) return true;
      var text = chars.slice(0, at).concat(bigram, chars.slice(at + 2));
      for (var n = 1; n < parts.length; n++) {
        var name = Array.from(parts[n]);
        for (var start = Math.max(0, at + 2 - name.length); start <= at; start++) {
          var same = start + name.length <= text.length;
          for (var k = 0; same && k < name.length; k++) same = text[start + k] === name[k];
          if (same) return true;
        }
      }
      return false;
    }

    /* searchtext.synonyms_said: what the synonyms a query uses mean (head.synonyms: [say, means]). */
    /* English words count in any of their forms (synonyms.say_form: "stabbing" says "stab"). */
    var WORD = /[a-z0-9]+/g, sayForms = new Map();
    function sayForm(say) {
      if (!sayForms.has(say)) sayForms.set(say, (say.match(WORD) || []).map(wordForm).join(" "));
      return sayForms.get(say);
    }
    /* data.words.synonyms.OBJECTS: the object inside a phrasal verb ("patch her up"). */
    var OBJECTS = new Set(["it", "him", "her", "them", "me", "us", "you"]);
    function notObject(w) { return !OBJECTS.has(w); }
    /* The game of each pair (search.shards.synonym_tables): head.synonymGames counts the general
     * table's pairs (-1: every game's), then each game's, in the order of head.gameOf's numbers. */
    var pairGame = [];
    (head.synonymGames || [(head.synonyms || []).length]).forEach(function (count, block) {
      for (var k = 0; k < count; k++) pairGame.push(block - 1);
    });
    /* Each pair as said_scopes reads it, worked out once (synonyms._prepared): whether it is
     * English, its words' forms, and whether they may hold an object ("patch her up"). */
    var prepared = null;
    function preparedPairs() {
      if (prepared === null) {
        prepared = (head.synonyms || []).map(function (pair) {
          var ascii = /^[\x00-\x7f]*$/.test(pair[0]), form = ascii ? sayForm(pair[0]) : "";
          var split = ascii && form.indexOf(" ") >= 0 && (pair[0].match(WORD) || []).every(notObject);
          return { say: pair[0], means: pair[1], ascii: ascii, form: form, split: split, aspect: ascii ? [] : aspectForms(pair[0]) };
        });
      }
      return prepared;
    }
    /* synonyms.said_scopes: what the synonyms a query uses mean, each with the games whose tables
     * say it ([means, null] for the general table's: every game's; [means, [game, ...]]). */
    function saidScopes(text) {
      var folded = fold(text), found = [], at = new Map(), forms = null, loose = null, hits = [];
      // Else no pair is said with an aspect particle.
      var aspect = head.aspect.split("").some(function (particle) { return folded.indexOf(particle) >= 0; });
      preparedPairs().forEach(function (pair, index) {
        var say = pair.say, hit;
        if (pair.ascii) {
          if (forms === null) {
            var words = uncontracted(folded.match(WORD) || []);
            forms = " " + words.map(wordForm).join(" ") + " ";
            loose = " " + words.filter(notObject).map(wordForm).join(" ") + " ";
          }
          var form = pair.form;
          hit = (form !== "" && forms.indexOf(" " + form + " ") >= 0) || (pair.split && loose.indexOf(" " + form + " ") >= 0)
            || said(folded, say);
        } else hit = folded.indexOf(say) >= 0 || (aspect && pair.aspect.some(function (said) { return folded.indexOf(said) >= 0; }));
        if (hit) hits.push(index);
      });
      longest(hits).forEach(function (index) {
        var pair = preparedPairs()[index], game = pairGame[index], scope = game < 0 ? null : [game];
        if (!at.has(pair.means)) { at.set(pair.means, found.length); found.push([pair.means, scope]); return; }
        var prior = found[at.get(pair.means)];
        if (prior[1] === null || scope === null) prior[1] = null;
        else if (prior[1].indexOf(game) < 0) prior[1].push(game);
      });
      return found;
    }

    /* synonyms._longest: the pairs said (their indices, in order) but those said only inside a longer
     * one also said ("walk" in "walk up to", 塌了 in 地板塌了); synonyms._key is what is compared. */
    function longest(hits) {
      var keys = hits.map(function (index) {
        var pair = preparedPairs()[index];
        return pair.ascii ? (pair.form !== "" ? " " + pair.form + " " : "") : pair.say;
      });
      return hits.filter(function (index, k) {
        var key = keys[k];
        return key === "" || !keys.some(function (other) {
          return other !== key && (other[0] === " ") === (key[0] === " ") && other.indexOf(key) >= 0;
        });
      });
    }

    /* synonyms._aspect_said: a Chinese synonym said with an aspect particle after its first
     * character ("被砍了一刀" says 砍一刀; synonyms.ASPECT): the forms it may be said in. */
    function aspectForms(say) {
      var first = Array.from(say)[0] || "";
      if (/^[\x00-\x7f]*$/.test(first)) return [];
      var rest = say.slice(first.length);
      return head.aspect.split("").map(function (particle) { return first + particle + rest; });
    }

    /* synonyms._said: whether English ``say`` stands in ``folded`` as whole words. */
    function said(folded, say) {
      var start = folded.indexOf(say);
      while (start >= 0) {
        var end = start + say.length;
        if ((start === 0 || !ALNUM.test(folded[start - 1])) && (end === folded.length || !ALNUM.test(folded[end]))) return true;
        start = folded.indexOf(say, start + 1);
      }
      return false;
    }

    return {
      bounded: bounded,
      saidScopes: saidScopes,
      crossNamed: crossNamed,
      asideGlosses: asideGlosses,
      termOf: termOf,
      fold: fold, queryTerms: queryTerms, querySequence: querySequence, exactKey: exactKey, isQuestion: isQuestion,
      isAsking: isAsking, askedParts: askedParts, vague: vague, asTyped: asTyped, script: script,
      words: words, joined: joined, soundKey: soundKey, correct: correct, stem: stem, wordForm: wordForm, distance: distance,
      cjkPairs: cjkPairs, correctHomophones: correctHomophones
    };
  }

  return { make: make, stem: stem, distance: distance };
})();
