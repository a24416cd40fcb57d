/* houserules: copy-link buttons, links by code (go.html) and the offline app.

   - Copy-link buttons (entry pages, questions) copy the link by code, go.html#BH-A13 or
     go.html#BH-A13/must-run: it outlives a renamed page. With site_url set (Material then
     writes a canonical link) the public address is copied.
   - go.html resolves such a link: codes are case-insensitive, spaces, full-width characters
     and a missing hyphen are tolerated ("bh a13"); an unknown code shows the closest codes
     and a search link. The codes of one prefix load on demand from go/<prefix>.js.
   - On http(s), a built site registers its service worker (sw.js, see
     tools/houserules/site/offline.py), which keeps the whole site for offline use; when a
     newer version is waiting, a notice offers to reload. Nothing of this runs on file://. */
(function () {
  "use strict";

  var script = document.currentScript;
  var scriptSrc = script ? script.getAttribute("src") : null;
  // This file is assets/javascripts/houserules.js: the site root is two folders up.
  var ROOT = scriptSrc ? new URL("../../", new URL(scriptSrc, location.href)).href : new URL("./", location.href).href;
  var canonical = document.querySelector('link[rel="canonical"]');
  var SHARE_ROOT = canonical && scriptSrc ? new URL("../../", new URL(scriptSrc, canonical.href)).href : ROOT;

  /* -- copy-link buttons -------------------------------------------------------------------- */
  function linkFor(button) {
    var go = button.getAttribute("data-go");
    if (go) return SHARE_ROOT + "go.html#" + go;
    var anchor = button.getAttribute("data-anchor") || "";
    var url = location.href.split("#")[0];
    return anchor ? url + "#" + anchor : url;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // file:// and plain http: the clipboard API is not available there.
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.hr-copy") : null;
    if (!button) return;
    event.preventDefault();
    var link = linkFor(button);
    button.setAttribute("data-copied", link);
    copyText(link).then(function () {
      button.classList.add("hr-copied");
      setTimeout(function () { button.classList.remove("hr-copied"); }, 1500);
    }, function () { /* the link stays in data-copied; nothing else to do */ });
  });

  /* -- 纠错 · Report without a repository or a channel: copy the answer's citation ---------------- */
  // The citation names the page the reader is on (its public address when Material knows it) and the data
  // version, from version.js (written by every build; a script, so it loads from file:// too), fetched when a
  // citation is first opened: no page holds the version, so none changes with it.
  var dataVersion = null;
  function loadVersion() {
    if (dataVersion) return dataVersion;
    dataVersion = new Promise(function (resolve) {
      if (typeof window.houserulesDataVersion === "string") return resolve(window.houserulesDataVersion);
      var tag = document.createElement("script");
      tag.src = ROOT + "version.js";
      tag.onload = function () { resolve(typeof window.houserulesDataVersion === "string" ? window.houserulesDataVersion : ""); };
      tag.onerror = function () { resolve(""); };
      document.head.appendChild(tag);
    });
    return dataVersion;
  }
  function showVersion(details) {
    return loadVersion().then(function (version) {
      var slot = details.querySelector(".hr-data-version");
      if (version && slot) slot.textContent = version;
      return version;
    });
  }
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.matches && details.matches("details.hr-report") && details.open) showVersion(details);
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.hr-copy-cite") : null;
    if (!button) return;
    event.preventDefault();
    var page = button.getAttribute("data-page") || "";
    if (!/^https?:/.test(page)) {  // no public address at build time: the page the reader has open
      var anchor = button.getAttribute("data-anchor") || "";
      var here = (canonical ? canonical.href : location.href).split("#")[0];
      page = here + (anchor ? "#" + anchor : "");
    }
    showVersion(button.closest("details.hr-report") || document.createElement("details")).then(function (version) {
      var text = [button.getAttribute("data-head") || "", page, version ? "数据版本 · Data version " + version : ""]
        .filter(Boolean).join(" · ");
      button.setAttribute("data-copied", text);
      return copyText(text);
    }).then(function () {
      button.classList.add("hr-copied");
      setTimeout(function () { button.classList.remove("hr-copied"); }, 1500);
    }, function () { /* the citation stays shown beside the button, to select by hand */ });
  });

  /* -- 更新记录: find the version or date printed on a PDF's cover ---------------------------------- */
  // Each row of a PDF's versions and each data version carries the words it is found by (data-find: printed
  // versions, dates, times); what is typed is split at spaces and "·", and every word must be in them. Only the
  // page's own elements are shown and hidden: no network, from file:// too. ?v=… in the address fills the box.
  (function () {
    var box = document.getElementById("hr-version-filter");
    if (!box) return;
    var holder = box.closest(".hr-version-find");
    var status = document.getElementById("hr-version-found");
    var items = Array.prototype.slice.call(document.querySelectorAll("[data-find]"));
    var tables = Array.prototype.slice.call(document.querySelectorAll(".hr-pdf-versions"));
    holder.hidden = false;
    function apply() {
      var words = box.value.toLowerCase().split(/[\s\u00b7,;]+/).filter(Boolean);
      var found = 0;
      items.forEach(function (item) {
        var text = item.getAttribute("data-find") || "";
        var match = words.every(function (word) { return text.indexOf(word) >= 0; });
        item.hidden = !match;
        if (match && item.tagName === "TR") found += 1;
      });
      tables.forEach(function (table) { table.hidden = !table.querySelector("tr[data-find]:not([hidden])"); });
      // What is found is shown: a fold holding a row found, and the folded lists of a version found, open.
      // A PDF's fold of older versions that holds none found is hidden while the box holds words.
      Array.prototype.forEach.call(document.querySelectorAll("details.hr-fold"), function (fold) {
        var version = fold.closest(".hr-version");
        var holds = version ? !version.hidden : !!fold.querySelector("tr[data-find]:not([hidden])");
        if (words.length && holds) fold.open = true;
        if (!version) fold.hidden = words.length > 0 && !holds;
      });
      status.textContent = words.length
        ? "找到 " + found + " 个打印版本 · " + found + (found === 1 ? " printed version" : " printed versions") + " found"
        : "";
    }
    box.addEventListener("input", apply);
    var wanted = new URLSearchParams(location.search).get("v");
    if (wanted) { box.value = wanted; apply(); }
    // A link to a version (from a PDF's row, the feed, or from outside) opens it, and a link to a game's version
    // inside one (v-<game>-<hash>) opens the version holding it.
    function openTarget() {
      var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      for (var node = target; node; node = node.parentElement) {
        if (node.tagName === "DETAILS") node.open = true;
      }
    }
    window.addEventListener("hashchange", openTarget);
    openTarget();
  })();

  /* -- the search box: a notice past the length the search reads ------------------------------ */
  var MAX_QUERY = 300;  // search/analysis.py MAX_QUERY; the worker reads it from the index head
  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input.md-search__input")) return;
    var extra = box.value.length > MAX_QUERY ? Array.from(box.value).length - MAX_QUERY : 0;
    var notice = document.querySelector(".hr-search-notice");
    if (extra <= 0) { if (notice) notice.remove(); return; }
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "hr-search-notice";
      var where = document.querySelector(".md-search-result__meta");
      if (!where) return;
      where.parentNode.insertBefore(notice, where.nextSibling);
    }
    notice.textContent = "只搜索前 " + MAX_QUERY + " 个字符，其余 " + extra + " 个已忽略。 Only the first " + MAX_QUERY +
      " characters are searched; the other " + extra + " are ignored.";
  });

  /* -- links by code ------------------------------------------------------------------------ */
  // Lookup tables keyed by what a reader types: no prototype ("constructor", "__proto__" are no
  // codes), and own() for the tables the generated shards bring.
  var shards = Object.create(null);
  var waiting = Object.create(null);
  function own(table, key) {
    return table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
  }
  // The longest code or question read from go.html#…: the rest is ignored, with a notice (a
  // megabyte of hash once froze the page for the closest-code search). The same number as the
  // search's MAX_QUERY (tools/houserules/search/analysis.py; tests/test_query_bounds.py compares).
  var MAX_GO = 300;
  window.houserulesGoShard = function (prefix, codes) {
    shards[prefix] = codes;
    (waiting[prefix] || []).forEach(function (done) { done(codes); });
    delete waiting[prefix];
  };

  function loadShard(prefix, file) {
    return new Promise(function (resolve) {
      if (shards[prefix]) return resolve(shards[prefix]);
      if (waiting[prefix]) return waiting[prefix].push(resolve);
      waiting[prefix] = [resolve];
      var tag = document.createElement("script");
      tag.src = ROOT + file;
      tag.onerror = function () {
        (waiting[prefix] || []).forEach(function (done) { done(null); });
        delete waiting[prefix];
      };
      document.head.appendChild(tag);
    });
  }

  /* The first MAX_GO characters (code points) of ``text`` and how many were dropped. */
  function bounded(text) {
    if (text.length <= MAX_GO) return { text: text, dropped: 0 };
    var chars = Array.from(text);
    return { text: chars.slice(0, MAX_GO).join(""), dropped: Math.max(0, chars.length - MAX_GO) };
  }

  /* "bh a13 / Must Run" -> {code: "BH-A13", question: "must-run"} */
  function parseCode(text, prefixes) {
    var value = text.replace(/^#/, "");
    try { value = decodeURIComponent(value); } catch (error) { /* keep it as typed */ }
    if (value.normalize) value = value.normalize("NFKC");
    value = value.trim();
    var cut = value.search(/[\/#]/);
    var code = cut < 0 ? value : value.slice(0, cut);
    var question = cut < 0 ? "" : value.slice(cut + 1);
    code = code.toUpperCase().replace(/[\s_.·:\-\u2010-\u2015]+/g, "-").replace(/^-+|-+$/g, "");
    if (code.indexOf("-") < 0) {  // "BHA13": split after the longest known prefix
      var best = "";
      Object.keys(prefixes).forEach(function (prefix) {  // prefixes: a table without prototype
        if (code.indexOf(prefix) === 0 && code.length > prefix.length && prefix.length > best.length) best = prefix;
      });
      if (best) code = best + "-" + code.slice(best.length);
    }
    question = question.trim().toLowerCase().replace(/[\s_]+/g, "-").replace(/^-+|-+$/g, "");
    return { code: code, question: question };
  }

  /* A13, A013 and A-13 are one code. */
  function loose(suffix) {
    return suffix.replace(/-/g, "").replace(/([A-Z])0+(?=[0-9])/g, "$1");
  }

  function distance(a, b) {
    var row = [];
    for (var j = 0; j <= b.length; j++) row.push(j);
    for (var i = 1; i <= a.length; i++) {
      var previous = row[0];
      row[0] = i;
      for (var k = 1; k <= b.length; k++) {
        var current = row[k];
        row[k] = Math.min(row[k] + 1, row[k - 1] + 1, previous + (a[i - 1] === b[k - 1] ? 0 : 1));
        previous = current;
      }
    }
    return row[b.length];
  }

  function closest(items, wanted, count) {
    return items.map(function (item) { return { item: item, d: distance(wanted, item.key) }; })
      .sort(function (x, y) { return x.d - y.d || (x.item.key < y.item.key ? -1 : 1); })
      .slice(0, count).map(function (x) { return x.item; });
  }

  /* Resolve a typed or linked code: a promise of {status: "found", url} or of what to show instead. */
  function resolveCode(text, data) {
    var parsed = parseCode(text, data.prefixes);
    var prefix = parsed.code.split("-")[0];
    var info = own(data.prefixes, prefix);
    if (!parsed.code) return Promise.resolve({ status: "empty" });
    if (!info) {
      var known = Object.keys(data.prefixes).map(function (p) { return { key: p, prefix: p, games: data.prefixes[p].games }; });
      return Promise.resolve({ status: "unknown", code: parsed.code, prefixes: closest(known, prefix, 5) });
    }
    return loadShard(prefix, info.shard).then(function (codes) {
      if (!codes) return { status: "unknown", code: parsed.code, codes: [] };
      var suffix = parsed.code.slice(prefix.length + 1);
      var hit = own(codes, suffix);
      if (!hit) {
        var same = Object.keys(codes).filter(function (s) { return loose(s) === loose(suffix); });
        if (same.length === 1) { suffix = same[0]; hit = own(codes, suffix); }
      }
      var code = prefix + "-" + suffix;
      if (!hit) {
        var all = Object.keys(codes).map(function (s) { return { key: prefix + "-" + s, url: codes[s][0], title: codes[s][1] }; });
        return { status: "unknown", code: parsed.code, codes: closest(all, parsed.code, 5) };
      }
      var entry = { code: code, url: hit[0], title: hit[1], questions: hit[2] };
      if (!parsed.question) return { status: "found", code: code, url: hit[0] };
      var question = hit[2].indexOf(parsed.question) >= 0 ? parsed.question : own(hit[3], parsed.question);
      if (question) return { status: "found", code: code + "/" + question, url: hit[0] + "#" + question };
      return { status: "question", code: code, question: parsed.question, entry: entry };
    });
  }

  function element(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function bilingual(zh, en) {
    return [zh, " ", element("span", { lang: "en" }, [en])];
  }

  function showResult(box, result, data, typed) {
    var out = box.querySelector(".hr-go-result");
    var status = box.querySelector(".hr-go-status");
    out.textContent = "";
    var search = element("a", { href: ROOT + data.search + "?q=" + encodeURIComponent(typed), class: "hr-go-search" },
      bilingual("搜索“" + typed + "”", "Search for “" + typed + "”"));
    if (result.status === "question") {
      status.textContent = "";
      bilingual("条目 " + result.code + " 没有问题 " + result.question + "。",
        result.code + " has no question " + result.question + ".").forEach(function (n) {
        status.appendChild(typeof n === "string" ? document.createTextNode(n) : n);
      });
      var items = [element("li", {}, [element("a", { href: ROOT + result.entry.url }, [result.code + " · " + result.entry.title])])];
      result.entry.questions.forEach(function (q) {
        items.push(element("li", {}, [element("a", { href: ROOT + result.entry.url + "#" + q }, [result.code + "/" + q])]));
      });
      out.appendChild(element("ul", { class: "hr-go-list" }, items));
      out.appendChild(element("p", {}, [search]));
      return;
    }
    status.textContent = "";
    bilingual("没有代码为 " + result.code + " 的条目。", "No entry has the code " + result.code + ".").forEach(function (n) {
      status.appendChild(typeof n === "string" ? document.createTextNode(n) : n);
    });
    if (result.codes && result.codes.length) {
      out.appendChild(element("p", {}, bilingual("最接近的代码：", "Closest codes:")));
      out.appendChild(element("ul", { class: "hr-go-list" }, result.codes.map(function (c) {
        return element("li", {}, [element("a", { href: ROOT + c.url }, [c.key + " · " + c.title])]);
      })));
    }
    if (result.prefixes && result.prefixes.length) {
      out.appendChild(element("p", {}, bilingual("代码以游戏前缀开头：", "Codes start with a game's prefix:")));
      out.appendChild(element("ul", { class: "hr-go-list" }, result.prefixes.map(function (p) {
        return element("li", {}, [p.prefix + "-… "].concat(p.games.map(function (g) {
          return element("a", { href: ROOT + g.url }, [g.zh + " " + g.en]);
        })));
      })));
    }
    out.appendChild(element("p", {}, [search]));
  }

  /* The go page lists the code prefixes with their games: the script reads them from there. */
  function goData(box) {
    var data = { search: box.getAttribute("data-search") || "index.html", prefixes: Object.create(null) };
    Array.prototype.forEach.call(box.querySelectorAll(".hr-go-prefixes li[data-prefix]"), function (item) {
      data.prefixes[item.getAttribute("data-prefix")] = {
        shard: item.getAttribute("data-shard"),
        games: Array.prototype.map.call(item.querySelectorAll("a"), function (a) {
          return { zh: a.firstChild ? a.firstChild.textContent.trim() : a.textContent,
                   en: (a.querySelector("[lang=en]") || { textContent: "" }).textContent,
                   url: a.getAttribute("href") };
        })
      };
    });
    return data;
  }

  function goPage(box) {
    var data = goData(box);
    var input = box.querySelector("input[name=code]");
    function run() {
      var typed = location.hash.replace(/^#/, "");
      try { typed = decodeURIComponent(typed); } catch (error) { /* as typed */ }
      var cut = bounded(typed);
      typed = cut.text;
      if (!typed.trim()) return;
      input.value = typed;
      resolveCode(typed, data).then(function (result) {
        if (result.status === "found") location.replace(ROOT + result.url);
        else if (result.status !== "empty") showResult(box, result, data, typed.trim());
        if (cut.dropped && result.status !== "found") {
          box.querySelector(".hr-go-result").appendChild(element("p", { class: "hr-go-notice" }, bilingual(
            "只读了前 " + MAX_GO + " 个字符，其余 " + cut.dropped + " 个已忽略。",
            "Only the first " + MAX_GO + " characters were read; the other " + cut.dropped + " were ignored.")));
        }
      });
    }
    box.querySelector("form").addEventListener("submit", function (event) {
      event.preventDefault();
      var wanted = "#" + input.value.trim();
      if (location.hash === wanted) run(); else location.hash = wanted;
    });
    window.addEventListener("hashchange", run);
    window.houserulesGo = { resolve: function (text) { return resolveCode(bounded(text).text, data); } };
    run();
  }

  var goBox = document.getElementById("hr-go");
  if (goBox) goPage(goBox);

  /* -- the search box: any way text arrives, keyboard and screen readers -------------------- */
  /* Material's search box reads the query on keyup, which pasted, dictated, autofilled or
     IME-composed text never sends. Here the query goes to it once per change of the text, on
     `input` (not while an IME is still composing) and on `compositionend`, as one synthetic keyup;
     the real keyups are kept from it, so a query runs once per change, not once per key.
     Tab from the box goes to the first result, Tab and Shift+Tab stay among the box and its results
     while the dialog is open (with nothing typed, Tab closes it and moves on), Escape closes it and puts the focus back where it was, and the
     result count is a live region (site_overrides/partials/search.html). */
  function searchBox() {
    var toggle = document.getElementById("__search");
    var dialog = document.querySelector(".md-search[role=dialog]");
    var input = dialog && dialog.querySelector("input.md-search__input");
    if (!toggle || !input) return;
    var sent = null;
    var returnTo = null;

    function send() {
      if (input.value === sent) return;
      sent = input.value;
      var event = new KeyboardEvent("keyup", { bubbles: true, key: "Unidentified" });
      event.hrQuery = true;
      input.dispatchEvent(event);
    }
    input.addEventListener("input", function (event) {
      if (event.isComposing) return;  // compositionend sends the committed text
      send();
    });
    input.addEventListener("compositionend", send);
    input.form.addEventListener("reset", function () { sent = ""; });
    // Capture on the document runs before Material's listener on the box itself.
    document.addEventListener("keyup", function (event) {
      if (event.target === input && !event.hrQuery) {
        event.stopPropagation();
        if (!event.isComposing && event.keyCode !== 229) send();  // a value set by script, then a key
      }
    }, true);

    function results() {
      return Array.prototype.filter.call(dialog.querySelectorAll(
        ".hr-search-say a[href], .hr-search-say button, .md-search-result__list a[href], .md-search-result__list summary"),
        function (link) { return link.getClientRects().length > 0; });
    }

    /* What the worker says about the results (a hidden mark in the first result, hr-search-worker.js say()),
       shown above them: "showing results for … / search instead for …" after a correction (the button searches
       for the query in quotes: as typed), and for a told question no ruling answers exactly, that line and
       where to report it. Both languages, the reader's first. */
    var list = dialog.querySelector(".md-search-result__list");
    var SAID = {
      nothing: { zh: "不确定有条目正好回答这个问题 — 最接近的条目：", "zh-Hant": "不確定有條目正好回答這個問題 — 最接近的條目：",
                 en: "Not sure any ruling answers this exactly — closest entries:" },
      report: { zh: "报告缺少的裁定", "zh-Hant": "報告缺少的裁定", en: "Report a missing ruling" },
      showing: { zh: "显示的是“%s”的结果", "zh-Hant": "顯示的是“%s”的結果", en: "Showing results for “%s”" },
      instead: { zh: "改搜“%s”", "zh-Hant": "改搜“%s”", en: "Search instead for “%s”" },
      outside: { zh: "这里的规则没有收录：%s", "zh-Hant": "這裡的規則沒有收錄：%s", en: "Not covered by the rules here: %s" }
    };
    /* A sentence of SAID in both languages, the reader's first, each in its own span (%s: ``words``). */
    function said(key, lang, words) {
      function text(l) { return SAID[key][l].replace("%s", function () { return words || ""; }); }
      var zh = element("span", { lang: lang === "zh-Hant" ? "zh-Hant" : "zh-Hans" }, [text(lang === "zh-Hant" ? "zh-Hant" : "zh")]);
      var en = element("span", { lang: "en" }, [text("en")]);
      return lang === "en" ? [en, " · ", zh] : [zh, " · ", en];
    }
    /* The count above the results in the reader's language first, the number in both: "3 results · 3 个符合条件的结果";
       for a told question no ruling answers exactly, what the list is: the closest entries. */
    function countLine(count, lang, closest) {
      var one = count === "1", hant = lang === "zh-Hant";
      var en = closest ? count + " closest " + (one ? "entry" : "entries") : count + (one ? " result" : " results");
      var zh = closest ? "最接近的 " + count + (hant ? " 個條目" : " 个条目")
        : count + (hant ? " 個符合條件的結果" : " 个符合条件的结果");
      return lang === "en" ? en + " · " + zh : zh + " · " + en;
    }
    /* Material may draw the same results twice (the address's ?q= and the box's own query): a box saying the
       same is kept, so a tap on its button is never split between two copies (mousedown on one, mouseup on the next). */
    function showSaid() {
      var mark = list && list.querySelector(".hr-say");
      var meta = dialog.querySelector(".md-search-result__meta"), count = mark && meta && meta.textContent.match(/\d+/);
      if (count) {
        var counted = countLine(count[0], mark.getAttribute("data-lang") || "zh", mark.getAttribute("data-answered") === "false");
        if (meta.textContent !== counted) meta.textContent = counted;  // said once: a live region speaks each change
      }
      var box = dialog.querySelector(".hr-search-say");
      var key = mark ? ["lang", "searched", "typed", "answered", "outside", "report", "channel"].map(function (name) {
        return mark.getAttribute("data-" + name);
      }).join("\u0001") : null;
      if (box && key !== null && box.getAttribute("data-said") === key) return;
      if (box) box.remove();
      if (!mark) return;
      var lang = mark.getAttribute("data-lang") || "zh", parts = [];
      var searched = mark.getAttribute("data-searched"), typed = mark.getAttribute("data-typed");
      if (searched !== null && typed !== null) {
        var again = element("button", { type: "button", class: "hr-search-instead" }, said("instead", lang, typed));
        again.addEventListener("click", function () {
          input.value = "\"" + typed + "\"";
          input.focus();
          send();
        });
        parts.push(element("p", { class: "hr-search-corrected" }, said("showing", lang, searched).concat([" — ", again])));
      }
      if (mark.getAttribute("data-answered") === "false") {
        var outside = mark.getAttribute("data-outside");
        if (outside) parts.push(element("p", { class: "hr-search-outside" }, said("outside", lang, outside)));
        var line = element("p", { class: "hr-search-nothing" }, said("nothing", lang));
        var url = mark.getAttribute("data-report"), channel = mark.getAttribute("data-channel");
        if (channel && /^(https?:|mailto:)/i.test(channel)) url = channel;
        if (url && /^(https?:|mailto:)/i.test(url)) {
          line.appendChild(document.createTextNode(" "));
          line.appendChild(element("a", { href: url, class: "hr-search-report", rel: "noopener" }, said("report", lang)));
        } else if (channel) {
          line.appendChild(document.createTextNode(" "));
          line.appendChild(element("span", { class: "hr-search-report" }, said("report", lang).concat(["：" + channel])));
        }
        parts.push(line);
      }
      if (!parts.length) return;
      var where = dialog.querySelector(".md-search-result__meta");
      if (!where) return;
      box = element("div", { class: "hr-search-say", "data-said": key }, parts);
      where.parentNode.insertBefore(box, where.nextSibling);
    }
    if (list && "MutationObserver" in window) new MutationObserver(showSaid).observe(list, { childList: true });
    function visible(node) {
      return node && node !== document.body && document.contains(node) && node.getClientRects().length > 0;
    }
    function remember(node) {
      if (node && !dialog.contains(node) && node !== toggle && node !== document.body) returnTo = node;
    }
    dialog.addEventListener("focusin", function (event) { remember(event.relatedTarget); });
    function close() {
      if (toggle.checked) toggle.click();
      input.blur();
      var back = returnTo;
      returnTo = null;
      if (visible(back)) back.focus();
    }

    dialog.addEventListener("keydown", function (event) {
      // Escape from the box closes the dialog even before it shows open: Material opens it a moment after the
      // focus arrives (a debounced focus watch), and a quick typist's Escape can come first.
      if (event.key === "Escape" && (toggle.checked || event.target === input)) {
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      }
      if (!toggle.checked) return;
      if (event.key === "Tab") {
        // Material closes the dialog on Tab; keep the focus among the box and its results instead.
        event.stopPropagation();
        var stops = [input].concat(results());
        if (stops.length === 1 && !input.value) {
          // Nothing typed, nothing to reach: the dialog closes and Tab moves on through the page
          // (on a phone the box opens when Tab reaches it; it must not keep the focus).
          toggle.click();
          returnTo = null;
          return;
        }
        var at = stops.indexOf(document.activeElement);
        var next = at < 0 ? 0 : (at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length;
        event.preventDefault();
        stops[next].focus();
      } else if (event.key === "Shift" && event.target !== input) {
        event.stopPropagation();  // Material would move the focus back to the box
      }
    });

    // The home page's search button: one tap opens the dialog and focuses the box (and so opens a
    // phone's keyboard, which only a focus inside the tap's own handler does).
    Array.prototype.forEach.call(document.querySelectorAll("[data-hr-search-open]"), function (button) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        returnTo = button;
        if (!toggle.checked) toggle.click();
        input.focus();
      });
    });
  }

  searchBox();

  /* -- the offline app ---------------------------------------------------------------------- */
  function showUpdate(worker) {
    var ready = document.querySelector(".hr-offline-ready");
    if (ready) ready.remove();  // a newer version matters more than the first install's notice
    if (document.querySelector(".hr-update")) return;
    var button = element("button", { type: "button" }, ["重新载入 · Reload"]);
    var notice = element("div", { class: "hr-update", role: "status" }, [
      element("span", {}, bilingual("有新版本。", "A newer version is available.")), button]);
    button.addEventListener("click", function () {
      button.disabled = true;
      worker.postMessage({ type: "skip-waiting" });
    });
    document.body.appendChild(notice);
  }

  /* Once per site and browser: the first install finished, so the site now opens without a network. */
  var TOLD = "houserules offline told " + location.pathname.replace(/[^/]*$/, "");
  function showReady() {
    try {
      if (localStorage.getItem(TOLD)) return;
      localStorage.setItem(TOLD, "1");
    } catch (error) { return; }  // no storage (private mode): better silent than told on every page
    if (document.querySelector(".hr-update")) return;
    var button = element("button", { type: "button" }, ["知道了 · OK"]);
    var notice = element("div", { class: "hr-offline-ready", role: "status" }, [
      element("span", {}, bilingual("本站已保存到此设备，没有网络也能打开。",
        "Saved on this device: the site now opens without a network.")), button]);
    button.addEventListener("click", function () { notice.remove(); });
    document.body.appendChild(notice);
    // It says something the reader needs no action on: it goes by itself rather than cover the results, and at
    // once when the reader types (a filter box, the search): what they look for is never under it.
    function gone(event) {
      // Typing only: not the search's toggle (an input event of its checkbox) nor the theme's own events.
      if (event && (!event.isTrusted || typeof event.inputType !== "string")) return;
      notice.remove();
      document.removeEventListener("input", gone, true);
    }
    document.addEventListener("input", gone, true);
    setTimeout(gone, 10000);
  }

  function offline() {
    var meta = document.querySelector('meta[name="houserules:service-worker"]');
    if (!meta || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
    var url = new URL(meta.getAttribute("content"), location.href);
    var container = navigator.serviceWorker;
    var hadController = !!container.controller;
    var firstInstall = !hadController;
    container.addEventListener("controllerchange", function () {
      if (hadController) location.reload();  // the user asked for the new version (the first install reloads nothing)
      hadController = true;
    });
    container.register(url.href, { scope: new URL("./", url).href }).then(function (registration) {
      function watch(worker) {
        if (!worker) return;
        worker.addEventListener("statechange", function () {
          if (worker.state === "installed" && container.controller) showUpdate(worker);
          if (worker.state === "activated" && firstInstall) showReady();
        });
      }
      if (registration.waiting && container.controller) showUpdate(registration.waiting);
      watch(registration.installing);
      registration.addEventListener("updatefound", function () { watch(registration.installing); });
      registration.update().catch(function () { /* offline: try again on the next visit */ });
    }).catch(function () { /* no service worker (private mode, old browser): the site still works online */ });
  }

  /* -- 繁 · Traditional characters ---------------------------------------------------------------
     A reader who searched in Traditional characters (the worker's data-lang="zh-Hant") or chose 繁 in the header
     reads every page in Traditional characters: the page's text is converted here with the site's table
     (hr-hant.js, tools/houserules/site/hantpages.py: at each character the longest phrase of the table, else
     the character's own form; the build checks that this gives OpenCC's Taiwan standard and the reviewed
     regional terms for every text of the site). 简 in the header goes back to the page as written. */
  var SCRIPT = "houserules script";
  function chosenScript() {
    try { return localStorage.getItem(SCRIPT) || "zh"; } catch (e) { return "zh"; }
  }
  function chooseScript(script) {
    try { localStorage.setItem(SCRIPT, script); } catch (e) { /* private mode: this page only */ }
  }
  var HAN_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;
  /* traditional.convert */
  function hant(text, table) {
    return text.replace(HAN_RUN, function (run) {
      var out = "", i = 0;
      while (i < run.length) {
        var size = Math.min(table.longest, run.length - i);
        for (; size > 1; size--) {
          var phrase = table.phrases[run.substr(i, size)];
          if (typeof phrase === "string") { out += phrase; i += size; break; }
        }
        if (size > 1) continue;
        var char = run[i];
        out += typeof table.chars[char] === "string" ? table.chars[char] : char;
        i += 1;
      }
      return out;
    });
  }
  window.houserulesHantText = hant;  // for the tests: the same function the page uses
  var SKIP = { SCRIPT: 1, STYLE: 1, TEXTAREA: 1, TEMPLATE: 1 };
  var ATTRIBUTES = ["title", "aria-label", "placeholder", "alt"];
  function toTraditional(table) {
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeType === 1) {
        if (node.closest(".hr-script") || SKIP[node.tagName]) continue;
        ATTRIBUTES.forEach(function (name) {
          var value = node.getAttribute(name);
          if (value) node.setAttribute(name, hant(value, table));
        });
        var lang = node.getAttribute("lang");
        if (lang === "zh" || lang === "zh-Hans" || lang === "zh-CN") node.setAttribute("lang", "zh-Hant");
      } else if (!(node.parentNode && (SKIP[node.parentNode.tagName] || node.parentNode.closest(".hr-script")))) {
        var converted = hant(node.nodeValue, table);
        if (converted !== node.nodeValue) node.nodeValue = converted;
      }
    }
    document.title = hant(document.title, table);
    if (/^zh\b/.test(document.documentElement.lang)) document.documentElement.lang = "zh-Hant";
    document.documentElement.setAttribute("data-hr-script", "zh-Hant");
  }
  function withTable(then) {
    if (window.houserulesHant) return then(window.houserulesHant);
    var tag = document.createElement("script");
    tag.src = ROOT + "assets/javascripts/hr-hant.js";
    tag.onload = function () { if (window.houserulesHant) then(window.houserulesHant); };
    document.head.appendChild(tag);
  }
  function scriptButton() {
    var header = document.querySelector(".md-header__inner");
    if (!header) return;
    var old = header.querySelector(".hr-script");
    if (old) old.remove();
    var traditional = document.documentElement.getAttribute("data-hr-script") === "zh-Hant";
    var button = element("button", {
      type: "button",
      "class": "md-header__button hr-script",
      lang: traditional ? "zh-Hans" : "zh-Hant",
      "aria-label": traditional ? "简体中文 · Simplified Chinese" : "繁體中文 · Traditional Chinese",
      title: traditional ? "简体中文 · Simplified Chinese" : "繁體中文 · Traditional Chinese"
    }, [traditional ? "简" : "繁"]);
    button.addEventListener("click", function () {
      if (traditional) {
        chooseScript("zh");
        location.reload();  // the page as written
      } else {
        chooseScript("zh-Hant");
        withTable(function (table) { toTraditional(table); scriptButton(); });
      }
    });
    var search = header.querySelector('label[for="__search"]');
    header.insertBefore(button, search || null);
  }
  // A result followed from a search in Traditional characters: the pages read in Traditional characters from now on.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest(".md-search-result__list a[href]") : null;
    var mark = link && document.querySelector(".md-search-result__list .hr-say");
    if (mark && mark.getAttribute("data-lang") === "zh-Hant") chooseScript("zh-Hant");
  }, true);
  if (chosenScript() === "zh-Hant") {
    withTable(function (table) { toTraditional(table); scriptButton(); });
  }
  scriptButton();

  offline();
})();
