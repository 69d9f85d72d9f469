/* The table phone's service worker (registered by table-offline.js, served by
   league/results/table/service_worker.py under turnieje/<slug>/stolik/, so it controls that tournament's
   table pages and nothing else).

   It keeps the page shell for a reload without the network: the last protocol page it saw of each
   table (only a page that carries the offline bar, never the PIN form), the CSS and scripts, and
   the value table. Pages are asked of the network first (a slow hall Wi-Fi gets a few seconds),
   files are answered from the store and refreshed behind. It never answers a POST: the deals go
   to the server from the page's own queue. */
"use strict";

var STORE = "baska-stolik-1";
var NETWORK_WAIT = 4000;
var TABLE_PAGE = /^(.*\/stolik\/\d+\/\d+\/)/;

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("baska-stolik-") === 0 && name !== STORE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function isShell(response) {
  return response.clone().text().then(function (html) { return html.indexOf("data-offline-shell") >= 0; });
}

function pageKey(url) {
  var parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

/* Keep a page only if it is the protocol page with its offline bar (a PIN form is not a shell). */
function keepPage(store, url, response) {
  if (!response.ok || response.type !== "basic") return Promise.resolve();
  return isShell(response).then(function (shell) { if (shell) return store.put(pageKey(url), response); });
}

function withTimeout(promise, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("timeout")); }, ms);
    promise.then(function (value) { clearTimeout(timer); resolve(value); }, function (error) { clearTimeout(timer); reject(error); });
  });
}

function offlinePage(request) {
  return caches.open(STORE).then(function (store) {
    return store.match(pageKey(request.url)).then(function (found) {
      var table = TABLE_PAGE.exec(new URL(request.url).pathname);
      if (found || !table) return found;
      return store.match(new URL(request.url).origin + table[1]);  // a fix page never seen: the table's page
    });
  }).then(function (found) {
    return found || new Response("Brak sieci / No network", {status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}});
  });
}

function page(event) {
  var request = event.request;
  var fetched = fetch(request);
  return withTimeout(fetched, NETWORK_WAIT).then(function (response) {
    // The copy is taken now, before the page reads the body: a body once read cannot be copied.
    var copy = response.clone();
    event.waitUntil(caches.open(STORE).then(function (store) { return keepPage(store, request.url, copy); }));
    return response;
  }, function () { return offlinePage(request); });
}

function file(event) {
  var request = event.request;
  return caches.open(STORE).then(function (store) {
    return store.match(request, {ignoreSearch: false}).then(function (kept) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") return store.put(request, response.clone()).then(function () { return response; });
        return response;
      });
      if (kept) { event.waitUntil(fresh.catch(function () {})); return kept; }
      return fresh;
    });
  });
}

/* The value table changes only with the rules: the network's answer when there is one, else the kept one. */
function valueTable(event) {
  var request = event.request;
  return caches.open(STORE).then(function (store) {
    return fetch(request).then(function (response) {
      if (response.ok) return store.put(request, response.clone()).then(function () { return response; });
      return response;
    }, function () {
      return store.match(request).then(function (kept) { return kept || Response.error(); });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.slice(-21) === "/tabela-wartosci.json") event.respondWith(valueTable(event));
  else if (["style", "script", "font", "image"].indexOf(request.destination) >= 0) event.respondWith(file(event));
});

/* The page lists what it loaded before this worker controlled it (its first visit). */
self.addEventListener("message", function (event) {
  if (!event.data || event.data.type !== "keep") return;
  event.waitUntil(caches.open(STORE).then(function (store) {
    return Promise.all(event.data.urls.map(function (url) {
      var absolute = new URL(url, self.location.origin).href;
      if (new URL(absolute).origin !== self.location.origin) return null;
      return store.match(absolute).then(function (kept) {
        if (kept) return null;
        return fetch(absolute, {credentials: "same-origin"}).then(function (response) {
          if (TABLE_PAGE.test(new URL(absolute).pathname) && absolute.slice(-5) !== ".json") return keepPage(store, absolute, response);
          if (response.ok) return store.put(absolute, response);
          return null;
        }).catch(function () { return null; });
      });
    }));
  }));
});
