/* houserules site search: a search worker for Material for MkDocs that ranks like `houserules search`.
 *
 * It speaks Material's worker protocol (SETUP -> READY, QUERY -> RESULT; see Material's
 * integrations/search/worker), so the theme's search box, result list, keyboard navigation
 * and accessibility stay as they are. The message numbers, the index's folder and the key of
 * Material's search config that names it are tools/houserules/adapter/protocol.py's
 * (tests/test_adapter.py compares); tools/houserules/adapter/searchhandoff.py writes them into
 * Material's index. The index is the CLI's: search/hr/ holds, for every
 * term, the score Whoosh gives each document (tools/houserules/search/shards.py), so this worker
 * only analyses the query as the CLI does (hr-search-analysis.js) and adds the scores up.
 * That is why there is no search library here: a library would rank by its own formula.
 *
 * Files are loaded on demand, a few per query: the head once, one term shard per query
 * term, one words file per letter to correct or complete, one record chunk per entry shown.
 * Opened from file://, Material runs this script in an iframe (iframe-worker shim): there,
 * files load as script tags; in a real worker, with fetch.
 */
"use strict";

(function () {
  var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3;
  var LIMIT = 10;   // results shown: each may need a record chunk of its own
  var ACROSS = 3;   // ranking.ACROSS: the first hit may show a question of another of the first this many entries
  var inFrame = typeof document !== "undefined";
  var here = inFrame && document.currentScript ? document.currentScript.src : self.location.href;
  var root = new URL("../../", here);          // assets/javascripts/ -> the site
  var version = "", folder = "search/hr/";
  var loaded = new Map();                      // name -> Promise of data
  var pending = new Map();                     // name -> resolve (script-tag loading)
  var head = null, analysis = null, entryOf = null, firstDoc = null, report = null;
  var latest = 0;

  /* Every index file is `hrSearch.put(name, data);`: a script tag runs it, fetch parses it. */
  self.hrSearch = {
    put: function (name, data) {
      var done = pending.get(name);
      if (done) { pending.delete(name); done(data); }
    }
  };

  function url(path) {
    return new URL(path + (version ? "?v=" + version : ""), root).href;
  }

  var loadedNow = new Map();                   // name -> data, once loaded
  function load(name) {
    if (loaded.has(name)) return loaded.get(name);
    var promise = inFrame ? loadScript(name) : loadFetch(name);
    promise.then(function (data) { loadedNow.set(name, data); }, function () { loaded.delete(name); });
    loaded.set(name, promise);
    return promise;
  }

  function loadScript(name) {
    return new Promise(function (resolve, reject) {
      pending.set(name, resolve);
      var script = document.createElement("script");
      script.src = url(folder + name + ".js");
      script.onerror = function () { pending.delete(name); reject(new Error("cannot load " + name)); };
      document.head.appendChild(script);
    });
  }

  function loadFetch(name) {
    return fetch(url(folder + name + ".js")).then(function (response) {
      if (!response.ok) throw new Error("cannot load " + name);
      return response.text();
    }).then(function (text) {
      // hrSearch.put("name",DATA);\n
      return JSON.parse(text.slice(text.indexOf(",") + 1, text.lastIndexOf(")")));
    });
  }

  var analysisLoaded = null;
  function loadAnalysis() {
    if (analysisLoaded) return analysisLoaded;
    var src = new URL("hr-search-analysis.js" + (version ? "?v=" + version : ""), here).href;
    if (!inFrame) { importScripts(src); return (analysisLoaded = Promise.resolve()); }
    analysisLoaded = new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = reject;
      document.head.appendChild(script);
    });
    return analysisLoaded;
  }

  function setup(config) {
    var own = (config && config.houserules) || {};
    version = own.version || "";
    folder = (own.path || "search/hr") + "/";
    report = own.report || report;
    // The head's fetch first: in a worker the analysis loads with importScripts, which blocks until it has run,
    // so the head downloads meanwhile instead of after it (a round trip less before the first results).
    var headLoaded = load("head");
    return Promise.all([loadAnalysis(), headLoaded]).then(function (parts) {
      head = parts[1];
      analysis = hrAnalysis.make(head);
      entryOf = new Int32Array(head.docs);
      firstDoc = [];
      var doc = 0;
      head.groups.forEach(function (size, entry) {
        firstDoc.push(doc);
        for (var k = 0; k < size; k++) entryOf[doc++] = entry;
      });
    });
  }

  /* FNV-1a over UTF-16 code units: search.shards.fnv1a. */
  function shardOf(term) {
    var h = 0x811c9dc5;
    for (var i = 0; i < term.length; i++) {
      h ^= term.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h % head.shards;
  }

  function wordsOf(letter) {
    if (head.letters.indexOf(letter) < 0) return Promise.resolve(null);
    return load("w/" + letter).then(function (flat) {
      if (flat.lookup) return flat;
      var half = flat.length / 2, map = new Map();
      for (var i = 0; i < half; i++) map.set(flat[i], flat[half + i]);
      flat.lookup = map;
      return flat;
    });
  }

  /* A letter's common English words the index lacks (search.shards._english), as a Set. */
  function englishOf(letter) {
    if ((head.englishLetters || []).indexOf(letter) < 0) return Promise.resolve(new Set());
    return load("e/" + letter).then(function (list) {
      if (!list.set) list.set = new Set(list);
      return list.set;
    });
  }

  /* What search.index.SearchIndex.correct asks the index about a word. ``english`` maps a letter to
   * its common English words once loaded; a suggestion for a word of a letter not loaded yet adds
   * the letter to ``needed`` (rank loads it and corrects again). */
  function lexicon(tables, english, needed) {
    return function (word) {
      var flat = tables.get(word[0]);
      var map = flat ? flat.lookup : new Map();
      var half = flat ? flat.length / 2 : 0;
      return {
        known: map.has(word),
        /* Whether the word is a common English word the index lacks (search.shards._english): null until its
         * letter's list is loaded (the letter is added to ``needed``; rank corrects again once it is). */
        common: function () {
          if (!english.has(word[0])) { needed.add(word[0]); return null; }
          return english.get(word[0]).has(word);
        },
        complete: function () {
          var found = [];
          for (var i = 0; i < half; i++) if (flat[i].startsWith(word)) found.push(flat[i]);
          found.sort(function (a, b) { return map.get(b) - map.get(a) || (a < b ? -1 : a > b ? 1 : 0); });
          // One form of each word (search.index.SearchIndex.complete): "eleva" is "elevator", not both forms.
          var forms = new Set();
          found = found.filter(function (w) { var f = analysis.wordForm(w); if (forms.has(f)) return false; forms.add(f); return true; });
          return found.slice(0, head.completions);
        },
        suggest: function (maxdist) {
          // search.index.SearchIndex.suggest: within maxdist edits after the first letter (a swap
          // of two letters one edit, and at most maxdist + 1 without swaps); the fewest edits win,
          // then a word the typo left a letter out of, then the most frequent, then the
          // alphabetically last.
          var best = null, bestKey = null, rest = word.slice(1);
          // search.index.SearchIndex._closest: keep the candidate that ranks above the best so far.
          function consider(candidate, edits) {
            var key = [-edits, candidate.length > word.length ? 1 : 0, map.get(candidate) || 1];
            var order = 0;
            for (var k = 0; bestKey !== null && order === 0 && k < key.length; k++) order = key[k] - bestKey[k];
            if (best === null || order > 0 || (order === 0 && candidate > best)) { best = candidate; bestKey = key; }
          }
          for (var i = 0; i < half; i++) {
            var candidate = flat[i];
            if (candidate === word || analysis.distance(candidate.slice(1), rest, maxdist + 1) > maxdist + 1) continue;
            var edits = analysis.distance(candidate.slice(1), rest, maxdist, true);
            if (edits <= maxdist) consider(candidate, edits);
          }
          // search.index.SearchIndex.sounds_like: none that close, then a word that sounds like it.
          var sound = best === null ? analysis.soundKey(word) : "";
          for (var j = 0; sound.length > head.soundMin && j < half; j++) {
            var other = flat[j];
            if (other !== word && analysis.soundKey(other) === sound) consider(other, analysis.distance(other.slice(1), rest, Infinity, true));
          }
          // A real English word the index lacks stays as typed (index.SearchIndex.correct).
          if (best !== null) {
            if (!english.has(word[0])) needed.add(word[0]);
            else if (english.get(word[0]).has(word)) return null;
          }
          return best;
        }
      };
    };
  }

  function fnv1a(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h;
  }

  var readings = null;
  function readingsOf(table) {
    if (readings) return readings;
    readings = new Map();
    Object.keys(table).forEach(function (syllable) {
      for (var ch of table[syllable]) readings.set(ch, syllable);
    });
    return readings;
  }

  function owns(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  /* search.index.SearchIndex.homophones: null when every Chinese bigram of the folded query is
   * indexed (the usual case: nothing more loads), else a function correcting a folded text.
   * Only then load the characters' pinyin (py/chars) and the indexed bigrams of the keys (py/N). */
  function homophoneFix(folded) {
    var pairs = analysis.cjkPairs(folded);
    if (!pairs.length || !head.pinyinShards) return Promise.resolve(null);
    return Promise.all(pairs.map(function (b) { return load("t/" + shardOf(b)); })).then(function (parts) {
      var inShards = new Set(pairs.filter(function (b, i) { return owns(parts[i], b); }));
      if (inShards.size === pairs.length) return null;
      return load("py/chars").then(function (table) {
        var reading = readingsOf(table);
        var keyOf = function (b) {
          var c = Array.from(b), x = reading.get(c[0]), y = reading.get(c[1]);
          return x && y ? x + " " + y : null;
        };
        var keys = Array.from(new Set(pairs.map(keyOf).filter(Boolean)));
        return Promise.all(keys.map(function (k) { return load("py/" + (fnv1a(k) % head.pinyinShards)); })).then(function (shards) {
          var byKey = new Map();
          keys.forEach(function (k, i) { byKey.set(k, owns(shards[i], k) ? shards[i][k] : []); });
          // Only the typed bigrams are asked about (a replaced character is never read again).
          var known = function (b) { return inShards.has(b); };
          var candidates = function (k) { return byKey.get(k) || []; };
          return function (text) { return analysis.correctHomophones(text, known, candidates, reading); };
        });
      });
    });
  }

  /* The query as corrected (its English words, then, with ``fix``, its Chinese homophones): {corrected, fix}. */
  function correction(text) {
    var words = analysis.words(text).filter(function (w) { return w.word.length >= Math.min(head.minCompleted, head.minCorrected); });
    var letters = Array.from(new Set(words.map(function (w) { return w.word[0]; })));
    // The terms as typed start loading at once; correction only adds the shards of words it changes.
    var early = analysis.queryTerms(text), typedKey = analysis.exactKey(text);
    if (typedKey) early.push(head.exact + typedKey, head.exactAlias + typedKey);
    var earlyShards = Promise.all(early.map(function (term) { return load("t/" + shardOf(term)); }));
    var fixing = analysis.asTyped(text) === null ? homophoneFix(analysis.fold(text)) : Promise.resolve(null);
    // Words split by spaces are joined before correction, unless the run as typed is a name (the names that
    // begin with a term are in its shard, loaded above): the shards of a spaced run's first words are needed.
    var spaced = /[a-z]{3,} [a-z]/.test(analysis.fold(text)) ? earlyShards : Promise.resolve(null);
    return Promise.all([Promise.all(letters.map(wordsOf)), fixing, spaced]).then(function (loaded) {
      var flats = loaded[0], fix = loaded[1];
      var tables = new Map();
      letters.forEach(function (letter, i) { if (flats[i]) tables.set(letter, flats[i]); });
      var english = new Map(), needed = new Set();
      var corrected = analysis.correct(text, lexicon(tables, english, needed), namedRun);
      return (needed.size ? Promise.all(Array.from(needed).map(function (letter) {
        return englishOf(letter).then(function (set) { english.set(letter, set); });
      })).then(function () { return analysis.correct(text, lexicon(tables, english, needed), namedRun); })
        : Promise.resolve(corrected)).then(function (corrected) { return { corrected: corrected, fix: fix }; });
    });
  }

  /* The ranked hits of a query: [{entry, doc, score}], one per entry, best first. A game the query names keeps
   * that game's documents, and the rest of its words are searched (withoutGameName). */
  function rank(text) {
    var parts = analysis.askedParts(text);
    if (parts.length < 2) return rankOne(text).then(function (found) { return unansweredLead(answerFirstSwap(found)); });
    // A message that asks several things: each part ranked alone too, so a hit shows each part's answer (byParts),
    // without the name of a game it says (the boost a named game gives every one of its documents would make any of
    // them seem to answer a part that says little more than the name: "鼠鼠骑士是怎么个玩法？").
    var each = parts.map(function (part) { return rankOne(withoutGameName(part).text); });
    return Promise.all([rankOne(text)].concat(each)).then(function (all) {
      parts.forEach(function (part, i) { all[i + 1].vague = analysis.vague(part); });
      coverFirst(all[0].hits, all.slice(1));
      partsLead(all[0], all.slice(1));
      byParts(answerFirstSwap(all[0]), all.slice(1));
      return unansweredLead(all[0]);
    });
  }

  /* index.SearchIndex.find: when what leads is a question the sources here do not answer (head.unanswered, its
   * document), no ruling answers. */
  function unansweredLead(found) {
    var first = found.hits[0];
    if (found.answered && first && first.question && head.unanswered.indexOf(firstDoc[first.entry] + first.question) >= 0) {
      found.answered = false;
    }
    return found;
  }

  function rankOne(text) {
    var named = withoutGameName(text);
    return correction(named.text).then(function (done) {
      return scoreCorrected(named.text, done.corrected, done.fix, named.game);
    });
  }

  /* ranking.by_parts: each part's best question of a hit's entry (scored for that part alone); the question the whole
   * message leads with stays when it is one of them (else the first part's leads), and the first other part's best
   * is shown below it (none: alsoQuestion chooses). Nothing changes when fewer than two parts matched a question. */
  function byParts(found, parts) {
    found.hits.forEach(function (hit) {
      if (!hit.question) return;
      var bests = [];
      parts.forEach(function (part) {
        var best = bestQuestion(hit.entry, part.valueOf, 0);
        if (best[0]) bests.push(best[0]);
      });
      if (bests.length < 2) return;
      var shown = bests.indexOf(hit.question) >= 0 ? hit.question : bests[0];
      var next = bests.filter(function (q) { return q !== shown; })[0];
      hit.question = shown;
      hit.also = next || alsoQuestion(hit.entry, found.valueOf, shown);
    });
    across(found.hits, parts);
    further(found.hits, parts);
  }

  /* ranking.parts_lead: a hit of a told message of several parts whose whole reading shows the entry leads with the
   * first part's best question when two parts' best questions (two in all) each score at least head.leadShare of
   * that part's score of the entry's own document. */
  function partsLead(found, parts) {
    if (!analysis.isAsking(found.text)) return;
    found.hits.forEach(function (hit) {
      if (hit.question) return;
      var shown = [];
      parts.forEach(function (part) {
        var best = bestQuestion(hit.entry, part.valueOf, 0);
        var own = part.valueOf.get(firstDoc[hit.entry]) || 0;
        if (best[0] && best[1] >= head.leadShare * own && shown.indexOf(best[0]) < 0) shown.push(best[0]);
      });
      if (shown.length > 1) { hit.question = shown[0]; hit.lead = "question"; }
    });
  }

  /* hits.cover_first, ranking.covering: the entry among the first ACROSS of the first hit's game whose questions answer
   * the most parts (a part's best question there scores at least head.leadShare of its best anywhere) comes first,
   * when it scores at least head.coverShare of the first. */
  function coverFirst(hits, parts) {
    var game = [];
    hits.slice(0, ACROSS).forEach(function (hit, k) { if (head.gameOf[hit.entry] === head.gameOf[hits[0].entry]) game.push(k); });
    if (parts.length < 2 || game.length < 2) return;
    var tops = parts.map(function (part) { return Math.max(0, partTop(part.valueOf)[1]); });
    var counts = game.map(function (k) {
      return parts.filter(function (part, p) {
        return tops[p] > 0 && bestQuestion(hits[k].entry, part.valueOf, 0)[1] >= head.leadShare * tops[p];
      }).length;
    });
    var chosen = 0;
    for (var c = 1; c < game.length; c++) {
      if (counts[c] > counts[chosen] && hits[game[c]].score >= head.coverShare * hits[0].score) chosen = c;
    }
    if (chosen) hits.unshift(hits.splice(game[chosen], 1)[0]);
  }

  /* A part's best document and its score (ties: the lower document), [-1, 0] when it matched none. */
  function partTop(valueOf) {
    var top = -1, topValue = 0;
    valueOf.forEach(function (v, d) { if (top < 0 || v > topValue || (v === topValue && d < top)) { top = d; topValue = v; } });
    return [top, topValue];
  }

  /* ranking.further: a message that asks head.furtherParts things or more; below the first hit's two answers, the
   * answer of the first part neither answers (one of them scores at least head.leadShare of the part's best question
   * in the first ACROSS entries of its game and each part's own best entry of the game): that best question, or the
   * first hit's own best for the part when it scores at least head.furtherOwn of it (none when that is shown). */
  function further(hits, parts) {
    var first = hits[0];
    if (!first || !first.question || parts.length < head.furtherParts) return;
    var shown = [firstDoc[first.entry] + first.question];
    if (first.also) shown.push(firstDoc[first.alsoEntry !== undefined ? first.alsoEntry : first.entry] + first.also);
    // The first ACROSS entries of its game, then each part's own best entry of the game (by number) not among them.
    var entries = hits.slice(0, ACROSS).filter(function (hit) { return head.gameOf[hit.entry] === head.gameOf[first.entry]; })
      .map(function (hit) { return hit.entry; });
    var extra = [];
    parts.forEach(function (part) {
      var top = partTop(part.valueOf)[0];
      var entry = top < 0 ? -1 : entryOf[top];
      if (top >= 0 && head.gameOf[entry] === head.gameOf[first.entry] && entries.indexOf(entry) < 0 && extra.indexOf(entry) < 0) {
        extra.push(entry);
      }
    });
    entries = entries.concat(extra.sort(function (a, b) { return firstDoc[a] - firstDoc[b]; }));
    for (var p = 0; p < parts.length; p++) {
      var part = parts[p], top = null, own = 0, mine = null;
      shown.forEach(function (doc) { own = Math.max(own, part.valueOf.get(doc) || 0); });
      entries.forEach(function (entry, k) {
        var best = bestQuestion(entry, part.valueOf, 0);
        if (!best[0]) return;
        if (k === 0) mine = best;
        if (!top || best[1] > top.value) top = { value: best[1], entry: entry, question: best[0] };
      });
      if (!top || own >= head.leadShare * top.value) continue;
      // A part that says too little to be read alone (searchtext.vague) is answered by the first hit's own best only.
      if (mine && (part.vague || mine[1] >= head.furtherOwn * top.value)) {
        if (shown.indexOf(firstDoc[first.entry] + mine[0]) >= 0) continue;
        top = { value: mine[1], entry: first.entry, question: mine[0] };
      } else if (part.vague) continue;
      first.more = top.question;
      if (top.entry !== first.entry) first.moreEntry = top.entry;
      return;
    }
  }

  /* ranking.across: the first hit shows, below its own answer, the question of another of the first ACROSS entries
   * that answers the part of the message its entry leaves: a part the first hit answers when its best question there
   * scores at least head.leadShare of the part's best question in those entries (ties: the earlier hit, then the
   * lower number). Nothing changes unless the first hit answers one part, nor when the question it shows below its
   * answer is its best for a part it answers, unless its leading question is there only as its best for a part it
   * leaves, under head.weakLead of another entry's question for that part, which scores at least as the kept answer
   * does for its own: then the answer below leads and the other entry's goes below it. */
  function across(hits, parts) {
    var first = hits[0];
    if (!first || !first.question) return;
    var answersOne = false, left = null, kept = false, keptScore = 0, swap = null, answering = [];
    parts.forEach(function (part) {
      var top = null, own = 0, ownQuestion = 0;
      hits.slice(0, ACROSS).forEach(function (hit, k) {
        if (head.gameOf[hit.entry] !== head.gameOf[first.entry]) return;  // a message asks about one game
        var best = bestQuestion(hit.entry, part.valueOf, 0);
        if (!best[0]) return;
        if (k === 0) { own = best[1]; ownQuestion = best[0]; }
        if (!top || best[1] > top.value) top = { value: best[1], entry: hit.entry, question: best[0] };
      });
      if (!top) return;
      if (own >= head.leadShare * top.value) {
        answersOne = true;
        answering.push(ownQuestion);
        if (first.also && ownQuestion === first.also) { kept = true; keptScore = Math.max(keptScore, own); }
      } else {
        if (ownQuestion && ownQuestion === first.question && own < head.weakLead * top.value && !swap) swap = top;
        if (!left) left = top;
      }
    });
    if (!answersOne || !left) return;
    if (kept) {
      if (!swap || swap.value < keptScore || answering.indexOf(first.question) >= 0) return;
      first.question = first.also;  // the kept answer leads, the other entry's answer below it
      left = swap;
    }
    first.also = left.question;
    first.alsoEntry = left.entry;
  }

  /* query.QueryReader.without_game_name: the query without the name of the one game it names, and that game
   * (an index into the games); the query as it is and null when it names none or two, or holds only the name. */
  var gameTexts = null;
  function withoutGameName(text) {
    if (!gameTexts) {
      gameTexts = (head.gameNameTexts || []).map(function (pair) {
        var escaped = pair[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        var latin = /^[\x00-\x7f]*$/.test(pair[0]);
        return { pattern: new RegExp(latin ? "(?<![a-z0-9])" + escaped + "(?![a-z0-9])" : escaped, "gi"), game: pair[1] };
      });
    }
    var game = null, rest = text;
    for (var i = 0; i < gameTexts.length; i++) {  // longest first: 鼠鼠骑士 before 鼠骑士
      var named = gameTexts[i];
      named.pattern.lastIndex = 0;
      if (!named.pattern.test(rest)) continue;
      if (game !== null && named.game !== game) return { text: text, game: null };
      game = named.game;
      named.pattern.lastIndex = 0;
      rest = rest.replace(named.pattern, " ");
    }
    if (game === null) {  // "Mouse Ritter", "Betrayl": a Latin name typed or heard a letter or two off
      var misspelt = misspeltGame(text);
      rest = misspelt.text;
      game = misspelt.game;
    }
    // query.QueryReader.searchable: a term or an exact key left besides the name.
    if (game === null || !(analysis.querySequence(rest).length || analysis.exactKey(rest))) return { text: text, game: null };
    return { text: rest, game: game };
  }

  /* query.misspelt_game: the query without a game's Latin name at most one edit off (two for a name of 8 letters
   * or more), never shorter than the name by more than a letter; the game, else null (none, or two games). */
  function misspeltGame(text) {
    var words = Array.from(text.matchAll(/[A-Za-z]+/g)).map(function (m) {
      return { start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase() };
    });
    var found = null;
    var names = (head.gameNameTexts || []).filter(function (pair) { return /^[\x00-\x7f]*$/.test(pair[0]); });
    for (var n = 0; n < names.length; n++) {
      var key = (names[n][0].toLowerCase().match(/[A-Za-z]+/g) || []).join(""), game = names[n][1];
      if (key.length < head.misspeltMin) continue;
      var limit = key.length < 8 ? 1 : 2, size = names[n][0].split(/\s+/).filter(Boolean).length;
      var alphabet = new Set(key);
      for (var first = 0; first < words.length; first++) {
        for (var count = Math.max(1, size - 1); count < size + 2; count++) {
          var run = words.slice(first, first + count);
          if (run.length < count) break;
          var letters = run.map(function (w) { return w.word; }).join("");
          if (key.length - 1 <= letters.length && letters.length <= key.length + limit &&
              nearAlphabets(new Set(letters), alphabet, limit) && edits(letters, key, limit) <= limit) {
            if (found !== null && found.game !== game) return { text: text, game: null };
            found = { start: run[0].start, end: run[run.length - 1].end, game: game };
          }
        }
      }
    }
    if (found === null) return { text: text, game: null };
    return { text: text.slice(0, found.start) + " " + text.slice(found.end), game: found.game };
  }

  /* query.near_alphabets: whether two words of these letters may be within limit edits (each letter one lacks takes
   * an edit of its own). */
  function nearAlphabets(a, b, limit) {
    var onlyA = 0, onlyB = 0;
    a.forEach(function (c) { if (!b.has(c)) onlyA++; });
    b.forEach(function (c) { if (!a.has(c)) onlyB++; });
    return onlyA <= limit && onlyB <= limit;
  }

  /* query._edits: Levenshtein distance (limit + 1 once it is past limit). */
  function edits(a, b, limit) {
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var current = [i];
      for (var k = 1; k <= b.length; k++) {
        current.push(Math.min(previous[k] + 1, current[k - 1] + 1, previous[k - 1] + (a[i - 1] !== b[k - 1] ? 1 : 0)));
      }
      if (Math.min.apply(null, current) > limit) return limit + 1;
      previous = current;
    }
    return previous[b.length];
  }

  /* index.SearchIndex.correct's ``named``: whether a run of words as typed is a name (searchtext.name_key of the
   * run is a name of the shard of its first term; the shard was loaded with the query's terms, else it is not). */
  function namedRun(run) {
    var key = analysis.querySequence(run);
    if (!key.length) return false;
    var name = key.join(" "), first = "t/" + shardOf(key[0]);
    var shard = loadedNow.get(first), names = shard && shard[head.names + key[0]];
    return !!names && Object.prototype.hasOwnProperty.call(names, name);
  }

  /* The ranked hits of a query, its English words corrected, its homophones not yet (``fix``). */
  function scoreCorrected(text, corrected, fix, namedGame) {
    if (fix) corrected = fix(corrected);
    // A Chinese question saying a thing's English name ("Menagerie 要怎么触发") asks as if it said the Chinese one,
    // and says the synonyms of either; an English gloss inside a Chinese word goes to the end ("恢复(recover)行动").
    var crossed = analysis.crossNamed(analysis.asideGlosses(corrected));
    var said = analysis.saidScopes(text + "\n" + crossed);
    var sequence = analysis.querySequence([crossed].concat(said.map(function (s) { return s[0]; })).join(" "));
    var own = analysis.querySequence(crossed);  // the words said, without what their synonyms mean
    var scoped = scopedTerms(own, said);
    var terms = Array.from(new Set(sequence));
    var typed = analysis.asTyped(text);
    // index.SearchIndex.exact_key: the query as corrected ("eleva" names the Elevator as "elevator" does).
    var key = analysis.exactKey(typed !== null ? typed : corrected);
    if (key) terms = terms.concat([head.exact + key, head.exactAlias + key]);
    var shards = Array.from(new Set(terms.map(shardOf)));
    return Promise.all(shards.map(function (n) { return load("t/" + n); })).then(function (parts) {
      var byShard = new Map();
      shards.forEach(function (n, i) { byShard.set(n, parts[i]); });
      return score(text, terms, byShard, corrected, sequence, scoped, namedGame, own);
    });
  }

  /* index.SearchIndex.expanded: the terms the query gains only through games' synonyms (a Map
   * term -> Set of games), looked up in those games' documents only. */
  function scopedTerms(own, said) {
    var everywhere = new Set(own), scoped = new Map();
    said.forEach(function (s) {
      analysis.querySequence(s[0]).forEach(function (term) {
        if (s[1] === null) { everywhere.add(term); return; }
        if (!scoped.has(term)) scoped.set(term, new Set());
        s[1].forEach(function (game) { scoped.get(term).add(game); });
      });
    });
    everywhere.forEach(function (term) { scoped.delete(term); });
    return scoped;
  }

  /* The game of a document (an index into the index's games). */
  function gameOfDoc(doc) { return head.gameOf[entryOf[doc]]; }

  /* query.QueryReader.plan: what the query asks, read once (the QueryPlan's fields): its terms (and the exact keys),
   * the terms of games' synonyms with their games, the terms of the names it says, the documents it names and those
   * about what it names, the game it names, whether it is a question. */
  function planOf(text, terms, byShard, sequence, scoped, said, own) {
    var outside = outsideNames(own, byShard, scoped);  // the words said, not what their synonyms mean
    return {
      terms: terms,
      scoped: scoped,
      nameTerms: nameTerms(sequence, byShard, scoped),
      names: namedDocs(sequence, byShard, head.names, scoped),
      about: namedDocs(sequence, byShard, head.about, scoped),
      namedGame: said !== null && said !== undefined ? said : gameNamed(sequence),
      question: analysis.isQuestion(text),
      outside: Array.from(new Set(outside.map(function (span) { return span[2]; }))),
      // QueryReader.named with outside: the entries it names by a name no part of those ("the search action" names
      // no search cards).
      beside: outside.length ? namedDocs(own, byShard, head.names, scoped, outside) : new Set()
    };
  }

  /* QueryReader.outside: the runs [start, end, key] of the names of what no entry answers that the query says
   * (head.outside: a topic no source covers, another game), each not held by a name of an entry or a game at least
   * as long (querynames.outside_spans). */
  function outsideNames(sequence, byShard, scoped) {
    var outside = head.outside || {}, said = [], covered = [];
    sequence.forEach(function (first, start) {
      for (var end = start + 1; end <= Math.min(sequence.length, start + head.maxNameTerms); end++) {
        var key = sequence.slice(start, end).join(" ");
        if (Object.prototype.hasOwnProperty.call(outside, key)) said.push([start, end, key]);
      }
    });
    if (!said.length) return said;
    eachName(sequence, byShard, scoped, function (start, end) { covered.push([start, end]); });
    said.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    return said.filter(function (span) {
      return !covered.some(function (c) { return c[0] <= span[0] && span[1] <= c[1] && c[1] - c[0] >= span[1] - span[0]; });
    });
  }

  /* rank.rank, step for step: every document the plan matches, as {doc, entry, score, share}, unordered. A
   * document's score is the sum over the query's terms of its (boosted) score for each, a name's term at
   * head.nameTermsShare, a term of games' synonyms in their documents only; times its coordination (the rarity
   * weight of the query's terms it holds over that of every term found); plus the exact keys; then the boosts:
   * named (else about), the query's game, and for a question the answers and the questions. A query naming one game
   * keeps that game's documents, when any of them matched. */
  function rankPlan(plan, byShard) {
    var scores = new Map(), weights = new Map(), total = 0, games = new Map(), matched = [];
    // A game's synonym counts only when the query is not about another game: one it names, or the one game of
    // every entry it names.
    var namedGames = new Set();
    plan.names.forEach(function (doc) { namedGames.add(gameOfDoc(doc)); });
    var saidGame = plan.namedGame !== null ? plan.namedGame : namedGames.size === 1 ? namedGames.values().next().value : null;
    plan.terms.forEach(function (term) {
      if (term[0] === head.exact || term[0] === head.exactAlias) return;  // the exact keys: below
      var shard = byShard.get(shardOf(term));
      if (!Object.prototype.hasOwnProperty.call(shard, term)) return;
      var list = shard[term], share = plan.nameTerms.has(term) ? head.nameTermsShare : 1;
      var only = plan.scoped.get(term), half = list.length / 2, doc = 0, docs = [], of = new Set();
      if (only !== undefined && saidGame !== null && !only.has(saidGame)) return;
      for (var i = 0; i < half; i++) {
        doc += list[i];
        if (only === undefined || only.has(gameOfDoc(doc))) docs.push(i, doc);
      }
      if (!docs.length) return;
      matched.push(term);
      // Its rarity everywhere: a game's synonym's documents in every game, any other term's where it scores.
      var weight = Math.log(1 + head.docs / half);
      for (var k = 0; k < docs.length; k += 2) {
        doc = docs[k + 1];
        scores.set(doc, (scores.get(doc) || 0) + list[half + docs[k]] * share);
        weights.set(doc, (weights.get(doc) || 0) + weight);
        of.add(gameOfDoc(doc));
      }
      total += weight;
      if (only !== undefined) return;  // a game's synonym says nothing about which game the query is about
      if (of.size === 1) {
        var alone = of.values().next().value;
        games.set(alone, (games.get(alone) || 0) + 1);
      }
    });
    plan.terms.forEach(function (term) {  // the exact keys: a whole code, title or alias
      if (term[0] !== head.exact && term[0] !== head.exactAlias) return;
      var shard = byShard.get(shardOf(term));
      if (!Object.prototype.hasOwnProperty.call(shard, term)) return;
      var list = shard[term], half = list.length / 2, doc = 0;
      for (var i = 0; i < half; i++) {
        doc += list[i];
        scores.set(doc, (scores.get(doc) || 0) + list[half + i]);
      }
    });
    // A player who says the game asks about it: only its documents, when any matched (as --game would).
    var namedGame = plan.namedGame;
    if (namedGame !== null) {
      var ofNamed = false;
      scores.forEach(function (value, doc) { if (gameOfDoc(doc) === namedGame) ofNamed = true; });
      if (ofNamed) scores.forEach(function (value, doc) { if (gameOfDoc(doc) !== namedGame) scores.delete(doc); });
    }
    var game = namedGame !== null ? namedGame : favouredGame(games);
    var found = [];
    scores.forEach(function (value, doc) {
      var share = total ? (weights.get(doc) || 0) / total : 1;
      var entry = entryOf[doc];
      value = value * share;
      if (plan.names.has(doc)) value += head.nameBoost;
      else if (plan.about.has(doc)) value += head.aboutBoost;
      if (game !== null && head.gameOf[entry] === game) value += head.gameBoost;
      if (plan.question) {
        if (head.answers[entry]) value += head.questionBoost;
        if (doc !== firstDoc[entry]) value += head.questionDocBoost;
      }
      found.push({ doc: doc, entry: entry, score: value, share: share });
    });
    return { found: found, matched: matched, game: game };
  }

  /* index.SearchIndex.find: the plan ranked (rankPlan), folded into one hit per entry with the question that leads,
   * whether a ruling answers a told question, and the glossary's terms. */
  function score(text, terms, byShard, corrected, sequence, scoped, said, own) {
    var terms2 = new Map();
    terms.forEach(function (term) {
      var within = byShard.get(shardOf(term)), key = head.glossary + term;
      if (head.glossaryDocs && Object.prototype.hasOwnProperty.call(within, key)) addUp(terms2, within[key]);
    });
    var plan = planOf(text, terms, byShard, sequence, scoped, said, own);
    var done = rankPlan(plan, byShard), ranked = done.found, matched = done.matched, asks = plan.question;
    var asked = done.game;  // the game the query names, else the one its words belong to (rank.Ranked.game)
    ranked.sort(function (a, b) { return b.score - a.score || a.doc - b.doc; });
    var valueOf = new Map();
    ranked.forEach(function (r) { valueOf.set(r.doc, r.score); });
    var asking = analysis.isAsking(text);
    var seen = new Set(), hits = [];
    for (var i = 0; i < ranked.length && hits.length < LIMIT; i++) {
      var hit = ranked[i];
      if (seen.has(hit.entry)) continue;
      seen.add(hit.entry);
      // ranking.leading: the entry's best question leads when the query asks and it scores at least
      // head.leadShare of the entry's own document; a keyword query shows the entry.
      hit.question = asking ? leadingQuestion(hit.entry, valueOf) : 0;
      hit.lead = hit.question ? "question" : null;
      hit.also = hit.question ? alsoQuestion(hit.entry, valueOf, hit.question) : 0;
      hits.push(hit);
    }
    // ranking.answered: for a told question, whether the first hit answers it at all.
    var answered = null, outside = [];
    if (asking) {
      var distinct = Array.from(new Set(sequence));
      var known = distinct.length ? distinct.filter(function (term) {
        var shard = byShard.get(shardOf(term));
        return !!shard && Object.prototype.hasOwnProperty.call(shard, term);
      }).length / distinct.length : 0;
      var first = hits.length ? hits[0].score / head.scale : 0, second = hits.length > 1 ? hits[1].score / head.scale : 0;
      answered = !hits.length || !known ? false : second <= 0 ? first > 0 : first * known * (first / second) >= head.answered;
      // index.SearchIndex.said_outside: what the question names that no entry answers (another game, a topic no
      // source covers of the game the question's words belong to, or of any game unless the question names the
      // first hit too), when that is what it asks.
      if (hits.length && plan.outside.length) {
        var game = gameOfDoc(hits[0].doc), script = analysis.script(text);
        plan.outside.forEach(function (key) {
          var n = head.outside[key];
          // Named by a word inside a topic of its own game ("search" of "the search action"), it is not what is asked.
          var named = (n[1] === game ? plan.beside : plan.names).has(hits[0].doc);
          if (n[1] !== -1 && !(n[1] === asked && asked !== game) && named) return;
          var label = script === "zh-Hant" ? n[2] : n[0];
          if (outside.indexOf(label) < 0) outside.push(label);
        });
        if (outside.length) answered = false;
      }
    }
    var glossary = [];
    terms2.forEach(function (value, doc) { glossary.push({ doc: doc, score: value }); });
    glossary.sort(function (a, b) { return b.score - a.score || a.doc - b.doc; });
    glossary = glossary.slice(0, head.glossaryShown || 0);
    return { text: text, hits: hits, glossary: glossary, terms: matched, allTerms: terms, asks: asks, corrected: corrected, plan: plan,
             answered: answered, outside: outside, lang: analysis.script(text), searched: searchedFor(text, corrected),
             valueOf: valueOf };
  }

  /* ranking.answer_first: an answer before an overview (the order shown, after coverFirst; whether a ruling answers
   * read the scores). */
  function answerFirstSwap(found) {
    var hits = found.hits;
    if (analysis.isAsking(found.text) && hits.length > 1 && answerFirst(hits[0], hits[1], found.plan)) {
      var overview = hits[0];
      hits[0] = hits[1];
      hits[1] = overview;
    }
    return found;
  }

  /* ranking.answer_first: whether the second hit of a told question comes first: the first shows its entry, the second
   * a question of the same game that scores at least head.answerFirst of the first, and the query does not name the
   * first hit's entry without naming the second's. */
  function answerFirst(first, second, plan) {
    if (first.question || !second.question || gameOfDoc(first.doc) !== gameOfDoc(second.doc)) return false;
    if (plan.names.has(first.doc) && !plan.names.has(second.doc)) return false;
    return second.score >= head.answerFirst * first.score;
  }

  /* The entry's best-scoring matched question but ``skip`` (ties: the earlier): [its number from 1, its score],
   * or [0, 0] when none matched. */
  function bestQuestion(entry, valueOf, skip) {
    var start = firstDoc[entry], size = head.groups[entry], best = 0, bestValue = 0;
    for (var d = start + 1; d < start + size; d++) {
      if (d - start === skip || !valueOf.has(d)) continue;
      var v = valueOf.get(d);
      if (!best || v > bestValue) { best = d - start; bestValue = v; }
    }
    return [best, bestValue];
  }

  /* ranking.leading: the number of the entry's question that leads, or 0: the best matched question when it
   * scores at least head.leadShare of the entry's own document. */
  function leadingQuestion(entry, valueOf) {
    var found = bestQuestion(entry, valueOf, 0);
    return found[0] && found[1] >= head.leadShare * (valueOf.get(firstDoc[entry]) || 0) ? found[0] : 0;
  }

  /* ranking.also: the number of the entry's question shown below the leading one (``lead``), or 0: the best
   * other matched question when it scores at least head.alsoShare of the lead. */
  function alsoQuestion(entry, valueOf, lead) {
    var found = bestQuestion(entry, valueOf, lead);
    return found[0] && found[1] >= head.alsoShare * valueOf.get(firstDoc[entry] + lead) ? found[0] : 0;
  }

  /* index.SearchIndex.searched_for: the words searched for when a correction changed the query (spaces
   * tidied), else null; a query in quotes is searched as typed. */
  function searchedFor(text, corrected) {
    if (analysis.asTyped(text) !== null || corrected === analysis.fold(text)) return null;
    return corrected.split(/\s+/).filter(Boolean).join(" ");
  }

  /* query.QueryReader.named_game: the game a run of the query's terms names (one of its names or aliases), or
   * null when it names none or several. */
  function gameNamed(sequence) {
    var named = head.gameNamed || {}, games = new Set();
    for (var start = 0; start < sequence.length; start++) {
      for (var end = start + 1; end <= Math.min(sequence.length, start + head.maxNameTerms); end++) {
        var key = sequence.slice(start, end).join(" ");
        if (Object.prototype.hasOwnProperty.call(named, key)) games.add(named[key]);
      }
    }
    return games.size === 1 ? games.values().next().value : null;
  }

  /* index.favoured_game: the game with the most query terms found in its documents alone. */
  function favouredGame(specific) {
    var best = null, bestCount = 0, tie = false;
    specific.forEach(function (count, game) {
      if (count > bestCount) { best = game; bestCount = count; tie = false; }
      else if (count === bestCount) tie = true;
    });
    return tie ? null : best;
  }

  /* The runs of the query's terms that are a game's name or an entry's (a name with terms of games' synonyms, of
   * those games' entries: scopedDocs), as each(start, end): what name_terms and outside read as names. */
  function eachName(sequence, byShard, scoped, each) {
    if (!gameNames) gameNames = new Set(head.gameNames || []);
    sequence.forEach(function (first, start) {
      for (var end = start + 1; end <= Math.min(sequence.length, start + head.maxNameTerms); end++) {
        if (gameNames.has(sequence.slice(start, end).join(" "))) each(start, end);
      }
    });
    sequence.forEach(function (first, start) {
      var shard = byShard.get(shardOf(first)), key = head.names + first;
      if (!shard || !Object.prototype.hasOwnProperty.call(shard, key)) return;
      Object.keys(shard[key]).forEach(function (name) {
        var length = name.split(" ").length;
        if (length > head.maxNameTerms || start + length > sequence.length) return;
        if (sequence.slice(start, start + length).join(" ") !== name) return;
        if (scopedDocs(name, shard[key][name], scoped).length) each(start, start + length);
      });
    });
  }

  /* index.SearchIndex.name_terms: the terms of the runs of the query that are names, an entry's or
   * a game's (none when every term is one: the query then asks nothing besides the names). */
  var gameNames = null, commonTerms = null;
  function nameTerms(sequence, byShard, scoped) {
    var found = new Set();
    // A run with terms of games' synonyms makes only those name terms (querynames.name_terms).
    eachName(sequence, byShard, scoped, function (start, end) {
      var run = sequence.slice(start, end);
      var some = run.some(function (t) { return scoped.has(t); });
      run.forEach(function (t) { if (!some || scoped.has(t)) found.add(t); });
    });
    // ... nor when the others are all words the long texts use everywhere (head.commonTerms: "mouse").
    if (!commonTerms) commonTerms = new Set(head.commonTerms || []);
    return sequence.every(function (term) { return found.has(term) || commonTerms.has(term); }) ? new Set() : found;
  }

  /* index.SearchIndex.named: the documents of the entries whose title or alias is a run of the
   * query's terms, not inside a longer one (the names that begin with a term are stored with the term, under ^term), or
   * with prefix head.about, of the entries that refer to them (@term). */
  function namedDocs(sequence, byShard, prefix, scoped, topicSpans) {
    var spans = [];
    sequence.forEach(function (first, start) {
      var shard = byShard.get(shardOf(first)), key = prefix + first;
      if (!shard || !Object.prototype.hasOwnProperty.call(shard, key)) return;
      var names = shard[key];
      Object.keys(names).forEach(function (name) {
        var length = name.split(" ").length;
        if (length > head.maxNameTerms || start + length > sequence.length) return;
        if (sequence.slice(start, start + length).join(" ") !== name) return;
        var docs = scopedDocs(name, names[name], scoped);
        if (docs.length) spans.push({ start: start, end: start + length, docs: docs });
      });
    });
    // searchtext.longest_spans: a name inside a longer one the query says names nothing; with topics no entry
    // answers (QueryReader.named's outside), neither does a name that is part of one of them.
    var docs = new Set(), topics = (topicSpans || []).map(function (span) { return " " + span[2] + " "; });
    spans.forEach(function (span) {
      var inside = spans.some(function (other) {
        return other !== span && other.start <= span.start && span.end <= other.end &&
          (other.end - other.start) > (span.end - span.start);
      });
      var name = " " + sequence.slice(span.start, span.end).join(" ") + " ";
      if (inside || topics.some(function (topic) { return topic.indexOf(name) >= 0; })) return;
      span.docs.forEach(function (doc) { docs.add(doc); });
    });
    return docs;
  }

  /* index.SearchIndex._scoped_names: the documents of a name (its delta-coded list) of the games
   * all its terms of games' synonyms belong to (every game's when it has none). */
  function scopedDocs(name, list, scoped) {
    var games = null, docs = [];
    name.split(" ").forEach(function (term) {
      if (!scoped.has(term)) return;
      var own = scoped.get(term);
      games = games === null ? new Set(own) : new Set(Array.from(games).filter(function (g) { return own.has(g); }));
    });
    for (var i = 0, doc = 0; i < list.length; i++) {
      doc += list[i];
      if (games === null || games.has(gameOfDoc(doc))) docs.push(doc);
    }
    return docs;
  }

  function addUp(scores, list) {
    var half = list.length / 2, doc = 0;
    for (var i = 0; i < half; i++) {
      doc += list[i];
      scores.set(doc, (scores.get(doc) || 0) + list[half + i]);
    }
  }

  /* -- results in Material's shape ----------------------------------------------------- */

  function escape(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  var CJK = /^[\u3400-\u9fff\uf900-\ufaff]$/;
  var WORD = /^[a-z0-9]$/;

  /* Text as HTML with <mark> around what the query matched: a matched term's characters
   * (a Chinese bigram or character) or a whole English word whose stem was matched. */
  function highlight(text, wanted) {
    var chars = Array.from(String(text));
    var folded = chars.map(function (c) { var f = analysis.fold(c); return Array.from(f).length === 1 ? f : ""; });
    var mask = new Uint8Array(chars.length);
    for (var i = 0; i < chars.length; i++) {
      if (!CJK.test(folded[i])) continue;
      if (wanted.has(folded[i])) mask[i] = 1;
      if (i + 1 < chars.length && CJK.test(folded[i + 1]) && wanted.has(folded[i] + folded[i + 1])) mask[i] = mask[i + 1] = 1;
    }
    for (i = 0; i < chars.length; i++) {
      if (!WORD.test(folded[i])) continue;
      var j = i;
      while (j < chars.length && WORD.test(folded[j])) j++;
      var word = folded.slice(i, j).join("");
      if (word.length > 1 && (wanted.has(word) || wanted.has(analysis.termOf(word)))) mask.fill(1, i, j);
      i = j - 1;
    }
    var html = "", open = false;
    for (i = 0; i < chars.length; i++) {
      if (mask[i] && !open) { html += "<mark>"; open = true; }
      if (!mask[i] && open) { html += "</mark>"; open = false; }
      html += escape(chars[i]);
    }
    return open ? html + "</mark>" : html;
  }

  /* What Material passes on to the page opened (?h=...) to highlight there. */
  function pageTerms(text, wanted) {
    var terms = Object.create(null);  // keyed by the query's words: "constructor" is one
    wanted.forEach(function (term) { if (CJK.test(Array.from(term)[0])) terms[term] = true; });
    (analysis.fold(text).match(/[a-z0-9]+/g) || []).forEach(function (word) {
      if (word.length > 1 && (wanted.has(word) || wanted.has(analysis.termOf(word)))) terms[word] = true;
    });
    return terms;
  }

  /* Both languages, the reader's first (the query's language and script: found.lang), each in its own span. */
  function both(zh, en, words, lang) {
    var chinese = '<span class="hr-zh" lang="' + (lang === "zh-Hant" ? "zh-Hant" : "zh-Hans") + '">' + highlight(zh, words) + "</span>";
    var english = en && en !== zh ? '<span class="hr-en" lang="en">' + highlight(en, words) + "</span>" : "";
    if (!english) return chinese;
    return lang === "en" ? english + ' <span class="hr-then">' + chinese + "</span>"
                         : chinese + ' <span class="hr-then">' + english + "</span>";
  }

  /* One language: the reader's (the entry's one-line answer below a question's answer). */
  function one(zh, en, words, lang) {
    return lang === "en" && en ? '<span class="hr-en" lang="en">' + highlight(en, words) + "</span>"
      : '<span class="hr-zh" lang="' + (lang === "zh-Hant" ? "zh-Hant" : "zh-Hans") + '">' + highlight(zh, words) + "</span>";
  }

  /* What houserules.js says above the results (a hidden mark in the first result): the query's language,
   * whether a ruling answers a told question, the words searched for after a correction, where to report. */
  function say(found, text) {
    var attrs = ' data-lang="' + found.lang + '"';
    if (found.answered === false) attrs += ' data-answered="false"';
    if (found.outside && found.outside.length) attrs += ' data-outside="' + escape(found.outside.join("、")) + '"';
    if (found.searched !== null) attrs += ' data-searched="' + escape(found.searched) + '" data-typed="' + escape(text.trim()) + '"';
    if (found.answered === false && report && report.url) {
      attrs += ' data-report="' + escape(report.url.split(report.mark).join(encodeURIComponent(text.trim()))) + '"';
    } else if (found.answered === false && report && report.channel) {
      attrs += ' data-channel="' + escape(report.channel) + '"';
    }
    return '<span class="hr-say" hidden' + attrs + "></span>";
  }

  var ASKED = { zh: "问", "zh-Hant": "問", en: "Q" };
  var GLOSSARY = { zh: "术语表", "zh-Hant": "術語表" };

  /* The game a result belongs to (an index into the head's games), beside its code: its name in the reader's
   * language and script first, the other language after it (head.gameTitles: Chinese, English, Traditional). */
  function gameName(game, lang) {
    var names = (head.gameTitles || [])[game];
    if (!names) return "";
    var zh = '<span lang="' + (lang === "zh-Hant" ? "zh-Hant" : "zh-Hans") + '">' + escape(lang === "zh-Hant" ? names[2] : names[0]) + "</span>";
    var en = names[1] && names[1] !== names[0] ? '<span lang="en">' + escape(names[1]) + "</span>" : "";
    var shown = !en ? zh : lang === "en" ? en + ' <span class="hr-game-then">' + zh + "</span>" : zh + ' <span class="hr-game-then">' + en + "</span>";
    return ' <span class="hr-game">' + shown + "</span>";
  }

  function render(found, text) {
    var lang = found.lang, records = lang === "zh-Hant" ? "rt/" : "r/";
    var entries = found.hits.map(function (h) { return h.entry; }).concat(found.hits.filter(function (h) {
      return h.alsoEntry !== undefined; }).map(function (h) { return h.alsoEntry; }), found.hits.filter(function (h) {
      return h.moreEntry !== undefined; }).map(function (h) { return h.moreEntry; }));
    var chunks = Array.from(new Set(entries.map(function (entry) { return records + Math.floor(entry / head.chunk); })
      .concat(found.glossary.map(function (g) { return "g/" + Math.floor(g.doc / head.glossaryChunk); }))));
    return Promise.all(chunks.map(load)).then(function (parts) {
      var byChunk = new Map();
      chunks.forEach(function (n, i) { byChunk.set(n, parts[i]); });
      var words = new Set(found.terms);
      // The words as searched (after a correction: "eleva" highlights "elevator" on the page opened).
      var terms = pageTerms(found.searched !== null ? found.searched : text, words);
      var mark = say(found, text);
      var items = found.hits.map(function (hit, n) {
        var group = byChunk.get(records + Math.floor(hit.entry / head.chunk))[hit.entry % head.chunk];
        var e = group[0];   // code, title zh, title en, summary zh, summary en, url, id
        var title = '<span class="hr-code">' + escape(e[0]) + "</span>" + gameName(head.gameOf[hit.entry], lang)
          + ' <span class="hr-title">' + both(e[1], e[2], words, lang) + "</span>";
        var score = hit.score / head.scale, said = n === 0 ? mark : "";
        if (!hit.question) {
          return [{ location: e[5], title: title, text: both(e[3], e[4], words, lang) + said, score: score, terms: terms, ref: e[6] }];
        }
        // The question that answers the query leads: its answer first, the entry's one-line answer below in the
        // reader's language. Both documents link the question's anchor, so the result's title opens it too
        // (Material makes the last document the result's heading when every document has an anchor).
        var q = group[hit.question];   // id, question zh, question en, answer zh, answer en
        var anchor = e[5] + "#" + q[0];
        // The entry's next question when it scores close (ranking.also), in the reader's language, below the answer;
        // another entry's (ranking.across) with that entry's code.
        var other = hit.alsoEntry !== undefined
          ? byChunk.get(records + Math.floor(hit.alsoEntry / head.chunk))[hit.alsoEntry % head.chunk] : null;
        var a = hit.also ? (other || group)[hit.also] : null;
        // A further part's answer (ranking.further), of this entry or another.
        var moreGroup = hit.moreEntry !== undefined
          ? byChunk.get(records + Math.floor(hit.moreEntry / head.chunk))[hit.moreEntry % head.chunk] : group;
        var m = hit.more ? moreGroup[hit.more] : null;
        // Another entry's answer is a document of its own, and so is every answer after it (the order they answer).
        var own = [a && !other ? a : null, m && !other && moreGroup === group ? m : null];
        var next = own.map(function (x) {
          return x ? ' <span class="hr-also"><span class="hr-q">' + ASKED[lang] + "</span> "
            + one(x[1], x[2], words, lang) + " " + one(x[3], x[4], words, lang) + "</span>" : "";
        }).join("");
        var apart = [a && !own[0] ? [a, other] : null, m && !own[1] ? [m, moreGroup] : null].filter(Boolean);
        // The entry's one-line answer closes the first document, unless another entry's answer follows as a
        // document of its own: then the answers stand together and the one-line answer is left out (Material
        // would show it between them).
        var summary = apart.length ? "" : ' <span class="hr-sum">' + one(e[3], e[4], words, lang) + "</span>";
        var docs = [
          { location: anchor, title: '<span class="hr-q">' + ASKED[lang] + "</span> " + both(q[1], q[2], words, lang),
            text: both(q[3], q[4], words, lang) + next + summary + said,
            score: score, terms: terms, ref: e[6], also: a ? a[0] : null, alsoRef: other ? other[0][6] : null,
            more: m ? m[0] : null, moreRef: m && moreGroup !== group ? moreGroup[0][6] : null }
        ];
        // Another entry's question is a link of its own, to its own page and anchor, named by that entry's code and
        // title, so a reader who taps it lands on the answer just read.
        apart.forEach(function (pair) {
          var x = pair[0], from = pair[1][0];
          docs.push({ location: from[5] + "#" + x[0],
            title: '<span class="hr-q">' + ASKED[lang] + "</span> " + one(x[1], x[2], words, lang),
            text: one(x[3], x[4], words, lang) + ' <span class="hr-also-from"><span class="hr-code">' + escape(from[0])
              + "</span> " + one(from[1], from[2], words, lang) + "</span>",
            score: score, terms: terms, ref: from[6] });
        });
        docs.push({ location: anchor, title: title, text: "", score: score, terms: terms, ref: e[6] });
        return docs;
      });
      // Glossary terms (for translators) come after the entries, never between them.
      found.glossary.forEach(function (g) {
        var t = byChunk.get("g/" + Math.floor(g.doc / head.glossaryChunk))[g.doc % head.glossaryChunk];
        var score = g.score / head.scale;
        items.push([
          { location: t[4].split("#")[0], title: '<span class="hr-code">' + GLOSSARY[lang === "zh-Hant" ? "zh-Hant" : "zh"] + '</span> <span class="hr-then"><span class="hr-en" lang="en">Glossary</span></span>'
              + gameName(t[5], lang),
            text: "", score: score, terms: terms },
          { location: t[4], title: both(t[0], t[1], words, lang), text: both(t[2], t[3], words, lang), score: score, terms: terms }
        ]);
      });
      var result = { items: items };
      var completion = lastCompletion(text, found.corrected);
      if (completion) result.suggest = [completion];
      return result;
    });
  }

  /* The word the last, unfinished word was completed to (Material shows it in the box). */
  function lastCompletion(text, corrected) {
    var typed = text.match(/[A-Za-z]+$/);
    var done = corrected.match(/([a-z]+(?: [a-z]+)*)$/);
    if (!typed || !done) return null;
    var first = done[1].split(" ").find(function (w) { return w.startsWith(typed[0].toLowerCase()); });
    return first && first !== typed[0].toLowerCase() ? first : null;
  }

  function query(text, id) {
    text = analysis.bounded(text);  // the analysis reads the first head.maxQuery characters only
    if (!text.trim()) return Promise.resolve({ items: [] });
    return rank(text).then(function (found) {
      if (id !== latest) return null;
      return render(found, text);
    });
  }

  var ready = null;
  // Opened from file://, Material sends SETUP only when the search opens; this script runs
  // at page load, so the head and the analysis load meanwhile (the same files SETUP asks for).
  if (inFrame) setup({}).catch(function () { loaded.clear(); analysisLoaded = null; });

  /* One setup per configuration (its index version and folder): a second asking for the same gets the first. */
  var setting = null, settingKey = null;
  function setupOnce(config) {
    var own = (config && config.houserules) || {};
    var key = JSON.stringify([own.version || "", own.path || ""]);
    if (setting === null || key !== settingKey) {
      var attempt;
      try { attempt = setup(config); } catch (err) { attempt = Promise.reject(err); }
      setting = attempt;
      settingKey = key;
      attempt.catch(function () { if (setting === attempt) setting = null; });  // the next SETUP tries again
    }
    return setting;
  }
  // Over http(s) the page starts this worker before the theme's bundle has loaded (main.html): the worker reads
  // the theme's search_index.json for its configuration itself, as the bundle will, and loads the head and the
  // analysis at once, so they are in when the bundle sends SETUP and the first query (a first visit on a slow
  // phone waits a round trip or two less).
  if (!inFrame && /^https?:$/.test(self.location.protocol || "")) {
    fetch(new URL("search/search_index.json", root).href).then(function (response) {
      if (!response.ok) throw new Error("cannot load search_index.json");
      return response.json();
    }).then(function (index) { return setupOnce(index.config); }).catch(function () {});  // SETUP tries again
  }

  addEventListener("message", function (ev) {
    var message = ev.data;
    if (message.type === SETUP) {
      ready = setupOnce(message.data && message.data.config).then(function () {
        postMessage({ type: READY });
      });
      ready.catch(function (err) { console.error("houserules search:", err); });
    } else if (message.type === QUERY) {
      var id = ++latest;
      (ready || Promise.reject(new Error("no setup"))).then(function () {
        return query(message.data, id);
      }).then(function (result) {
        if (result && id === latest) postMessage({ type: RESULT, data: result });
      }).catch(function (err) { console.error("houserules search:", err); });
    }
  });

  /* For tests and `houserules search-eval --site`: the same steps without the user interface. */
  self.hrSearch.setup = function (config) {
    ready = setup(config);
    return ready;
  };
  /* How ``rank`` read a text: as corrected, its terms, whether it asks a question, and its plan (planOf: the
   * seam where tests compare it with query.QueryReader.plan, sets as sorted lists). */
  function readingOf(found) {
    function sorted(set) { return Array.from(set).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; }); }
    var plan = found.plan ? {
      terms: sorted(found.plan.terms), nameTerms: sorted(found.plan.nameTerms), names: sorted(found.plan.names),
      about: sorted(found.plan.about), namedGame: found.plan.namedGame, question: found.plan.question,
      outside: found.plan.outside, beside: sorted(found.plan.beside),
      scoped: sorted(found.plan.scoped.keys()).map(function (t) { return [t, sorted(found.plan.scoped.get(t))]; })
    } : null;
    return { corrected: found.corrected, terms: found.allTerms, asks: found.asks, answered: found.answered,
             outside: found.outside, lang: found.lang, searched: found.searched, plan: plan };
  }
  self.hrSearch.rank = function (text) {
    return ready.then(function () { text = analysis.bounded(text); return rank(text); }).then(function (found) {
      return render(found, text).then(function (result) {
        return Object.assign(readingOf(found), {
          hits: found.hits.map(function (hit, i) {
            var item = result.items[i];
            return { id: item[0].ref, url: item[0].location, score: hit.score / head.scale, lead: hit.lead,
                     also: item[0].also || null, alsoRef: item[0].alsoRef || null,
                     more: item[0].more || null, moreRef: item[0].moreRef || null };
          }),
          answered: found.answered, outside: found.outside, lang: found.lang, searched: found.searched,
          items: result.items
        });
      });
    });
  };
  /* The same ranking's reading of a text, without the results' texts. */
  self.hrSearch.analyse = function (text) {
    return ready.then(function () { return rank(analysis.bounded(text)); }).then(readingOf);
  };
  /* The text each of ``texts`` is searched as (corrected as rank corrects it), without ranking: for tests. */
  self.hrSearch.corrected = function (texts) {
    var out = [];
    return ready.then(function () {
      return texts.reduce(function (done, text) {
        return done.then(function () {
          return correction(analysis.bounded(text)).then(function (c) { out.push(c.fix ? c.fix(c.corrected) : c.corrected); });
        });
      }, Promise.resolve());
    }).then(function () { return out; });
  };
  self.hrSearch.stem = function (words) {
    return words.map(function (w) { return hrAnalysis.stem(w); });
  };
})();
