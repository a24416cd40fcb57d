/* houserules service worker, written into the site by houserules build (tools/houserules/site/offline.py).

   After the first visit it keeps every file of the site listed in offline.json (pages, assets,
   the search index) in one cache per version, and the PDFs under print/ once they are opened.
   A new build is a new version: it installs beside the old one (copying the files whose hash
   did not change, fetching the others), waits until a page asks for it (the reload notice of
   houserules.js), then deletes the old cache. Nothing is fetched from anywhere but the site. */
"use strict";

var VERSION = /*VERSION*/{};
var LIST = "offline.json";
var REVISIONS = "__houserules-revisions";
var ON_REQUEST = /^print\/[^/]+\.pdf$/;
var PARALLEL = 6;
var SCOPE = new URL(self.registration.scope);
var PREFIX = "houserules " + SCOPE.pathname + " ";
var CACHE = PREFIX + VERSION.data + " " + VERSION.build;

function key(path) {
  return new URL(path, SCOPE).href;
}

/* The newest other cache of this site that finished installing, with the file hashes it holds. */
function previous() {
  return caches.keys().then(function (names) {
    var others = names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; }).reverse();
    return others.reduce(function (found, name) {
      return found.then(function (done) {
        if (done) return done;
        return caches.open(name).then(function (cache) {
          return cache.match(key(REVISIONS)).then(function (stored) {
            return stored ? stored.json().then(function (files) { return { cache: cache, files: files }; }) : null;
          });
        });
      });
    }, Promise.resolve(null));
  });
}

function fetchInto(cache, path) {
  return fetch(key(path), { cache: "no-cache", credentials: "same-origin" }).then(function (response) {
    if (!response.ok) throw new Error("houserules offline: " + path + " answered " + response.status);
    return cache.put(key(path), response);
  });
}

function precache() {
  return fetch(key(LIST), { cache: "no-store" }).then(function (response) {
    if (!response.ok) throw new Error("houserules offline: no " + LIST);
    return response.json();
  }).then(function (list) {
    if (list.build !== VERSION.build) throw new Error("houserules offline: the site changed while installing");
    return Promise.all([caches.open(CACHE), previous()]).then(function (opened) {
      var cache = opened[0], old = opened[1];
      var paths = Object.keys(list.files);
      function one(path) {
        return cache.match(key(path)).then(function (have) {
          if (have) return null;  // an install that stopped half-way and is tried again
          if (!old || old.files[path] !== list.files[path]) return fetchInto(cache, path);
          return old.cache.match(key(path)).then(function (same) {
            return same ? cache.put(key(path), same) : fetchInto(cache, path);
          });
        });
      }
      var next = 0;
      function worker() {
        if (next >= paths.length) return Promise.resolve();
        var path = paths[next++];
        return one(path).then(worker);
      }
      var workers = [];
      for (var i = 0; i < PARALLEL; i++) workers.push(worker());
      return Promise.all(workers).then(function () {
        // Last: a cache holding its revisions is complete, and the next version may copy from it.
        return cache.put(key(REVISIONS), new Response(JSON.stringify(list.files), {
          headers: { "Content-Type": "application/json" } }));
      });
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(precache());
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX) === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "skip-waiting") self.skipWaiting();
  if (data.type === "version" && event.source) event.source.postMessage({ type: "version", version: VERSION });
});

/* A PDF that was never opened online is not in the cache: say so, and how to keep it, instead of 404. */
var NOT_SAVED = "<!doctype html><html lang=\"zh\"><head><meta charset=\"utf-8\">" +
  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>尚未离线保存 · Not saved offline yet</title>" +
  "<style>body{font:1.1rem/1.6 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem}</style></head><body>" +
  "<h1>尚未离线保存</h1><p class=\"hr-not-saved\">这个 PDF 还没有保存到此设备：请在联网时打开一次，之后没有网络也能打开。</p>" +
  "<p lang=\"en\">Not saved offline yet — open it once online, and it opens without a network after that.</p>" +
  "<p><code>FILE</code> · <a href=\"index.html\">打印版 · Printed FAQ</a></p></body></html>";

function notSaved(path) {
  var name = path.slice(path.lastIndexOf("/") + 1).replace(/[^A-Za-z0-9._-]/g, "");
  return new Response(NOT_SAVED.replace("FILE", name), { status: 503, statusText: "Not saved offline", headers: {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" } });
}

function respond(request, path) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(key(path), { ignoreSearch: true }).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (response) {
        if (response.ok && ON_REQUEST.test(path)) {
          return cache.put(key(path), response.clone()).then(function () { return response; });
        }
        return response;
      }, function (error) {
        if (request.mode !== "navigate") throw error;
        if (ON_REQUEST.test(path)) return notSaved(path);
        return cache.match(key("404.html")).then(function (missing) {
          if (missing) return missing;
          throw error;
        });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== SCOPE.origin || url.pathname.indexOf(SCOPE.pathname) !== 0) return;
  var path = url.pathname.slice(SCOPE.pathname.length);
  if (path === "" || path.slice(-1) === "/") path += "index.html";
  if (path === "sw.js" || path === LIST) return;
  event.respondWith(respond(request, path));
});
