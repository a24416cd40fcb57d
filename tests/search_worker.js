/* The site's search worker (site_overrides/assets/javascripts/hr-search-worker.js) run under Node,
 * for tests/test_search_parity.py: the same code the browser runs, with fetch and importScripts
 * reading the files of a built site from disk.
 *
 * One process answers a module's jobs, one per line, as the browser's worker answers a page's queries:
 * the worker is loaded and set up once, for the site and config of the first job (every job names the same).
 * stdin, a line per job: {"site": folder holding assets/javascripts/ and search/hr/, "config": the worker's
 *         SETUP config, "stem": [words], "rank": [texts], "analyse": [texts], "corrected": [texts]}
 * stdout, a line per job: {"stem": [stems], "rank": [{hits, corrected, terms, asks, answered, lang, searched, items}],
 *          "analyse": [{corrected, terms, asks, answered, lang, searched}], "corrected": [texts as searched]}
 */
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const vm = require("vm");
const { fileURLToPath, pathToFileURL } = require("url");

function fileOf(url) {
  return fileURLToPath(url.split("?")[0]);
}

let ready = null; // the worker's setup, started by the first job: {site, config, done}

function load(job) {
  const worker = path.join(job.site, "assets", "javascripts", "hr-search-worker.js");
  globalThis.self = globalThis;
  globalThis.location = { href: pathToFileURL(worker).href };
  globalThis.importScripts = (src) =>
    vm.runInThisContext(fs.readFileSync(fileOf(src), "utf8"), { filename: fileOf(src) });
  globalThis.fetch = async (url) => {
    const file = fileOf(url);
    const ok = fs.existsSync(file);
    return { ok, text: async () => fs.readFileSync(file, "utf8") };
  };
  globalThis.postMessage = () => {};
  globalThis.addEventListener = () => {};
  importScripts(pathToFileURL(worker).href);
  return { site: job.site, config: JSON.stringify(job.config), done: self.hrSearch.setup(job.config) };
}

async function answer(job) {
  if (ready === null) ready = load(job);
  if (job.site !== ready.site || JSON.stringify(job.config) !== ready.config) {
    throw new Error("every job of one process names the site and config of the first");
  }
  await ready.done;
  const out = { stem: self.hrSearch.stem(job.stem || []), rank: [] };
  for (const text of job.rank || []) {
    out.rank.push(await self.hrSearch.rank(text));
  }
  out.corrected = await self.hrSearch.corrected(job.corrected || []);
  out.analyse = [];
  for (const text of job.analyse || []) {
    out.analyse.push(await self.hrSearch.analyse(text));
  }
  return out;
}

// The jobs one after another, in their order: each answered whole before the next starts.
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  if (!line.trim()) return;
  queue = queue
    .then(() => answer(JSON.parse(line)))
    .then((out) => process.stdout.write(JSON.stringify(out) + "\n"))
    .catch((err) => {
      console.error(err && err.stack ? err.stack : String(err));
      process.exit(1);
    });
});
