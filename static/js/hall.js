/* The control room's clock (templates/hall/_clock.html): counts down to data-ends-at, or up from
   data-counts-from, on the server's time (the page's data-server-now gives this browser's offset),
   switches the warnings at 10 and 5 minutes and at zero asks the server for the room at once, which
   then offers the organiser to stop the tables still playing. A poll answered with the ETag already
   shown (the browser turns the server's 304 into its cached copy) is not swapped again. */
(function () {
  "use strict";
  var MINUTE = 60000;
  var offset = 0; // the server's clock minus this browser's
  var shownEtag = null;
  var askedAt = 0;

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function text(ms, down) {
    var s = Math.max(0, down ? Math.ceil(ms / 1000) : Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  function phaseOf(left) {
    if (left <= 0) return "over";
    if (left <= 5 * MINUTE) return "five";
    if (left <= 10 * MINUTE) return "ten";
    return "running";
  }

  function tick() {
    var clock = document.querySelector("[data-clock]");
    if (!clock) return;
    var now = Date.now() + offset;
    var time = clock.querySelector("[data-clock-time]");
    if (clock.dataset.countsFrom) {
      time.textContent = text(now - Number(clock.dataset.countsFrom), false);
      return;
    }
    if (!clock.dataset.endsAt) return;
    var left = Number(clock.dataset.endsAt) - now;
    time.textContent = text(left, true);
    var phase = phaseOf(left);
    if (phase === clock.dataset.phase) return;
    if (phase !== "running") {
      clock.classList.remove("phase-" + clock.dataset.phase);
      clock.classList.add("phase-" + phase);
      clock.dataset.phase = phase;
      clock.querySelector("[data-clock-text]").textContent = clock.dataset["text" + phase[0].toUpperCase() + phase.slice(1)];
    }
    var room = document.getElementById("room");
    if (phase === "over" && room && window.htmx && Date.now() - askedAt > 2000) {
      askedAt = Date.now();
      window.htmx.trigger(room, "hall-refresh");
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    // the control room's #room, or the projector's (templates/public/projector.html), which counts the same clock
    var served = document.querySelector("[data-server-now]");
    if (served) offset = Number(served.dataset.serverNow) - Date.now();
    tick();
    window.setInterval(tick, 250);
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var etag = event.detail.xhr.getResponseHeader("ETag");
    if (etag && etag === shownEtag) event.detail.shouldSwap = false;
    shownEtag = etag;
  });

  document.addEventListener("htmx:afterSettle", tick);
})();
