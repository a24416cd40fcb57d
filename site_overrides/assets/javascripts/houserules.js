/* houserules: copy-link buttons on entry pages and questions.
   A button's data-anchor names the question (empty: the page itself); the link copied is
   the page's own address with that anchor, so a shared link lands on the answer. */
(function () {
  "use strict";

  function linkFor(anchor) {
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
    var link = linkFor(button.getAttribute("data-anchor") || "");
    copyText(link).then(function () {
      button.classList.add("hr-copied");
      button.setAttribute("data-copied", link);
      setTimeout(function () { button.classList.remove("hr-copied"); }, 1500);
    });
  });
})();
