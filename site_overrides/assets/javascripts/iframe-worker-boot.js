/* iframe-worker 1.0.4 (https://github.com/squidfunk/iframe-worker), MIT licence, (c) 2020-2022 Martin Donath.
   The globals a worker script expects, inside the hidden frame that stands in for a Worker on file://
   (formerly an inline script written by iframe-worker-shim.js). */
"use strict";
(function () {
  var boot = document.currentScript;
  var worker = boot.getAttribute("data-worker");
  self.postMessage = function (message, origin) { parent.postMessage(message, origin || "*"); };
  self.importScripts = function () {
    var urls = Array.prototype.slice.call(arguments);
    return urls.reduce(function (done, url) {
      return done.then(function () {
        return new Promise(function (resolve) {
          var script = document.createElement("script");
          script.src = url;
          script.onload = resolve;
          document.body.appendChild(script);
        });
      });
    }, Promise.resolve());
  };
  addEventListener("error", function (event) {
    parent.dispatchEvent(new ErrorEvent("error", { filename: worker, error: event.error }));
  });
  // The worker script must be the frame's first script with a src: workers find their own URL that way.
  var script = document.createElement("script");
  script.src = boot.getAttribute("data-src");
  boot.remove();
  document.body.appendChild(script);
})();
