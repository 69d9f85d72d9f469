/* The projector (templates/public/projector.html) runs itself: it shows one page at a time, moving on
   every data-page-seconds, and asks data-pages-url for the pages every data-poll-seconds with the ETag
   it holds, so an unchanged screen costs the server a bodiless 304. New pages replace the old ones,
   staying on the page shown. When the server does not answer (restarting, the network gone) the
   pages shown stay and keep turning, a "connecting…" mark appears, and the next try waits longer each
   time, up to a minute; the first answer clears the mark. The clock is counted by hall.js.
   A page taller than the screen (long names wrapping onto a second line, a bye's "wolny los") is
   shown in a smaller type until all of it fits: everyone on it must be read, none below the edge. */
(function () {
  "use strict";
  var MAX_WAIT = 60000;
  var SMALLEST = 0.5;  // of the page's own type: still readable across a hall

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("projector");
    if (!root) return;
    var offline = document.querySelector("[data-offline]");
    var etag = root.dataset.etag || null;
    var pollMs = Number(root.dataset.pollSeconds) * 1000;
    var failures = 0;

    function pages() { return root.querySelectorAll("[data-page]"); }

    function shownKey() {
      var shown = root.querySelector("[data-page].shown");
      return shown ? shown.dataset.page : null;
    }

    function fit(page) {
      page.style.fontSize = "";
      var scale = 1;
      while (page.getBoundingClientRect().bottom > window.innerHeight && scale > SMALLEST) {
        scale = Math.round((scale - 0.05) * 100) / 100;
        page.style.fontSize = scale + "em";
      }
    }

    function show(index) {
      var list = pages();
      for (var i = 0; i < list.length; i++) list[i].classList.toggle("shown", i === index);
      if (list[index]) fit(list[index]);
    }

    function turn() {
      var list = pages(), key = shownKey(), at = -1;
      for (var i = 0; i < list.length; i++) if (list[i].dataset.page === key) at = i;
      if (list.length) show((at + 1) % list.length);
    }

    function replace(html) {
      var key = shownKey();
      var fresh = document.createElement("template");
      fresh.innerHTML = html;
      var incoming = fresh.content.querySelectorAll("[data-page]"), at = 0;
      for (var i = 0; i < incoming.length; i++) {
        incoming[i].classList.remove("shown");
        if (incoming[i].dataset.page === key) at = i;
      }
      root.replaceChildren(fresh.content);
      show(at);
    }

    function poll() {
      var headers = etag ? { "If-None-Match": etag } : {};
      // no-store: the 304 reaches this script instead of the browser's cache answering it
      fetch(root.dataset.pagesUrl, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (!response.ok) throw new Error("HTTP " + response.status);
          etag = response.headers.get("ETag");
          return response.text();
        })
        .then(function (html) {
          if (html !== null) replace(html);
          failures = 0;
          offline.hidden = true;
          window.setTimeout(poll, pollMs);
        })
        .catch(function () {
          failures += 1;
          offline.hidden = false;
          window.setTimeout(poll, Math.min(pollMs * Math.pow(2, failures - 1), MAX_WAIT));
        });
    }

    window.addEventListener("resize", function () {
      var shown = root.querySelector("[data-page].shown");
      if (shown) fit(shown);
    });
    var first = root.querySelector("[data-page].shown");
    if (first) fit(first);
    window.setInterval(turn, Number(root.dataset.pageSeconds) * 1000);
    window.setTimeout(poll, pollMs);
  });
})();
