/* The site's search worker (site_overrides/assets/javascripts/hr-search-worker.js) run under Node,
 * for tests/test_search_parity.py: the same code the browser runs, with fetch and importScripts
 * reading the files of a built site from disk.
 *
 * stdin: {"site": folder holding assets/javascripts/ and search/hr/, "config": the worker's
 *         SETUP config, "stem": [words], "rank": [texts], "analyse": [texts], "corrected": [texts]}
 * stdout: {"stem": [stems], "rank": [{hits, corrected, terms, asks, answered, lang, searched, items}],
 *          "analyse": [{corrected, terms, asks, answered, lang, searched}], "corrected": [texts as searched]}
 */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const { fileURLToPath, pathToFileURL } = require("url");

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const worker = path.join(job.site, "assets", "javascripts", "hr-search-worker.js");

function fileOf(url) {
  return fileURLToPath(url.split("?")[0]);
}

globalThis.self = globalThis;
globalThis.location = { href: pathToFileURL(worker).href };
globalThis.importScripts = (src) => vm.runInThisContext(fs.readFileSync(fileOf(src), "utf8"), { filename: fileOf(src) });
globalThis.fetch = async (url) => {
  const file = fileOf(url);
  const ok = fs.existsSync(file);
  return { ok, text: async () => fs.readFileSync(file, "utf8") };
};
globalThis.postMessage = () => {};
globalThis.addEventListener = () => {};

importScripts(pathToFileURL(worker).href);

(async () => {
  await self.hrSearch.setup(job.config);
  const out = { stem: self.hrSearch.stem(job.stem || []), rank: [] };
  for (const text of job.rank || []) {
    out.rank.push(await self.hrSearch.rank(text));
  }
  out.corrected = await self.hrSearch.corrected(job.corrected || []);
  out.analyse = [];
  for (const text of job.analyse || []) {
    out.analyse.push(await self.hrSearch.analyse(text));
  }
  process.stdout.write(JSON.stringify(out));
})().catch((err) => {
  console.error(err && err.stack ? err.stack : String(err));
  process.exit(1);
});
