/* The table phone's offline queue (templates/games/baska/_offline.html, issue 15).

   With this script the button form does not post the page: a saved deal goes into a queue kept in
   the browser's IndexedDB ("kolejka", it survives a reload and a closed browser) and is sent from
   there, in order, to rozdania.json with the idempotency key ("klucz") made here when it was saved,
   at once when the network is there, else when it returns (the online event, and a retry timer
   that waits longer after each failure). A repeat of a key stores nothing twice, so a send whose
   answer got lost is simply sent again.

   While a deal waits it is listed as "czeka na wysłanie" with values looked up in the engine's
   value table (tabela-wartosci.json, scoring/value_table.py), marked provisional: this script
   computes no value, it only builds the table's key from what the form chose, as the table's own
   description says (it knows no rule and no key format), and follows the table's walk of the bok
   rounds from the state the page gives after its rows, over the deals queued before. When the server
   refuses a deal (its number taken meanwhile by the referee or another phone, a correction of a
   row that changed, an invalid deal, a closed protocol, a missing PIN) sending stops at that deal and the scorer decides; nothing is overwritten or
   dropped without their choice. The service worker (table-sw.js, registered here) keeps the page
   and its files for a reload without the network. Served over plain HTTP (a hall's local server
   at http://192.168.x.x is not a secure context) there is no service worker: the open page still
   queues and sends, but a reload without the network shows the browser's error page; the queue
   stays in IndexedDB and is sent once the page is loaded with the network again
   (tests/browser/test_offline_plain_http.py).

   Without this script the page works by its forms as before. */
(function () {
  "use strict";
  var bar = document.getElementById("netbar");
  if (!bar || !window.indexedDB || !window.fetch) return;

  var SEATS = ["A", "B", "C", "D"];
  var KONTRA_LETTERS = {m: "young", s: "old", y: "young", o: "old"};
  var RETRY_FIRST = 2000, RETRY_MOST = 60000;
  var tableUrl = bar.dataset.tableUrl;
  var page = {
    version: Number(bar.dataset.version),
    rows: Number(bar.dataset.rows),
    totals: bar.dataset.totals.trim().split(/\s+/).map(Number),
    canEnter: bar.dataset.canEnter === "1",
    // the bok rounds' state before each row and after the last, where a 52:52 deal starts them
    bokStates: (bar.dataset.bokStates || "").split(/\s+/).filter(Boolean)
  };
  var form = document.getElementById("deal-form");
  var lineForm = document.getElementById("line-form");
  var waitingBox = document.getElementById("waiting");
  var dialog = document.getElementById("conflict");
  var items = [];          // this table's queue, in the order the deals were saved
  var online = navigator.onLine;
  var sending = false;
  var retryDelay = RETRY_FIRST, retryTimer = null;
  var valueTable = null;
  var reported = null;     // the waiting count last reported to kontakt.json
  var formTouched = false; // the scorer started the next deal: a reload would lose it
  var fixing = null;       // the queued deal whose refused version the form now holds

  // --- words -------------------------------------------------------------------------

  function word(name, params) {
    var node = document.querySelector('#offline-words [data-word="' + name + '"]');
    var text = node ? node.textContent : name;
    Object.keys(params || {}).forEach(function (key) { text = text.split("%(" + key + ")s").join(params[key]); });
    return text;
  }

  function signed(n) { return n > 0 ? "+" + n : n < 0 ? "\u2212" + -n : "0"; }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  // --- the queue in IndexedDB -------------------------------------------------------------

  var dbPromise = null;
  function db() {
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = indexedDB.open("baska-stolik", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore("deals", {keyPath: "key"}); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return dbPromise;
  }

  function store(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction("deals", mode);
        var result = work(tx.objectStore("deals"));
        tx.oncomplete = function () { resolve(result && result.result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function load() {
    return store("readonly", function (deals) { return deals.getAll(); }).then(function (all) {
      items = (all || []).filter(function (item) { return item.table === tableUrl; });
      items.sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  function save(item) { return store("readwrite", function (deals) { deals.put(item); }); }
  function forget(item) {
    items = items.filter(function (other) { return other.key !== item.key; });
    return store("readwrite", function (deals) { deals.delete(item.key); });
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function unsent() { return items.filter(function (item) { return item.state !== "stored"; }); }
  function blocked() { return items.filter(function (item) { return item.state === "blocked"; })[0]; }

  /* The protocol as this phone knows it: the page's rows and version, moved on by the deals
     stored since the page was rendered (a reload without the network shows an older page). */
  function knownVersion() {
    return items.reduce(function (most, item) { return item.state === "stored" ? Math.max(most, item.version) : most; }, page.version);
  }
  function nextNumber() {
    return items.reduce(function (most, item) { return item.replace ? most : Math.max(most, item.number); }, page.rows) + 1;
  }

  // --- the deal as the form chose it ------------------------------------------------------

  function dealOf(target) {
    var data = new FormData(target);
    var deal = {contract: data.get("full-contract") || "zwykla"};
    var old = data.getAll("full-old");
    if (old.length) deal.old = old;
    var kontras = [];
    (data.get("full-kontras") || "").toLowerCase().replace(/[\s,]/g, "").split("").forEach(function (letter) {
      if (!KONTRA_LETTERS[letter]) throw new Error(word("kontra-letter", {letter: letter}));
      kontras.push(KONTRA_LETTERS[letter]);
    });
    if (kontras.length) deal.kontras = kontras;
    var eyes = (data.get("full-old_eyes") || "").trim();
    if (eyes !== "") deal.old_eyes = Number(eyes);
    ["winner", "level", "misplay", "offence"].forEach(function (name) {
      var value = data.get("full-" + name);
      if (value) deal[name] = value;
    });
    ["tie", "laid_down", "bok_round", "cicha_na_dobiciu"].forEach(function (name) { if (data.get("full-" + name)) deal[name] = true; });
    return deal;
  }

  function words(list) { return (list || "").split(/\s+/).filter(Boolean); }
  var soloContracts = form ? words(form.dataset.solo) : [];
  var thrownContracts = form ? words(form.dataset.thrown) : [];

  /* The deal in the form's own words (the labels of the buttons chosen), as the waiting list and
     the conflict dialog show it beside the protocol's rows. */
  function describe(deal) {
    var solo = soloContracts.indexOf(deal.contract) >= 0;
    function label(name, value) {
      var input = form && form.querySelector('[name="full-' + name + '"][value="' + value + '"]');
      var span = input && input.parentNode.querySelector("span");
      if (!span) return value;
      var fitting = span.querySelector(solo ? ".solo-only" : ".pair-only");
      return (fitting || span).textContent.trim();
    }
    var parts = [label("contract", deal.contract) + (deal.old ? " " + deal.old.join("+") : "")];
    if (deal.kontras && deal.kontras.length) {
      parts.push("kontra " + deal.kontras.map(function (side) { return side === "old" ? "s" : "m"; }).join(""));
    }
    if (deal.old_eyes !== undefined) parts.push(deal.old_eyes + ":" + (104 - deal.old_eyes));
    if (deal.tie) parts.push("52:52");
    if (deal.winner) parts.push(label("winner", deal.winner) + (deal.level ? " " + label("level", deal.level) : ""));
    if (deal.misplay) parts.push("\u2717 " + deal.misplay);
    if (deal.laid_down) parts.push(label("laid_down", "on"));
    if (deal.bok_round) parts.push(label("bok_round", "on"));
    return parts.join(" \u00b7 ");
  }

  // --- provisional values: a look-up in the engine's value table ---------------------------

  /* The value table: the copy this phone kept (localStorage, so that a page without the network has
     it at once), refreshed from the server (or the service worker's copy) at each page load and
     asked again while missing. */
  var TABLE_KEPT = "baska-stolik-wartosci:" + tableUrl;
  var tableAsked = false;
  // a table kept before it carried its description ("lookup") and its bok rounds ("bok_walk") is asked again
  try { valueTable = JSON.parse(localStorage.getItem(TABLE_KEPT)); } catch (error) { valueTable = null; }
  if (valueTable && (!valueTable.lookup || !("bok_walk" in valueTable))) valueTable = null;
  function loadValueTable(again) {
    if ((valueTable && !again) || tableAsked) return;
    tableAsked = true;
    fetch(tableUrl + "tabela-wartosci.json", {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        var table = text && JSON.parse(text);
        if (!table || !table.values || !table.lookup) return;
        var shown = !!valueTable;
        valueTable = table;
        try { localStorage.setItem(TABLE_KEPT, text); } catch (error) { /* full: the service worker's copy remains */ }
        if (!shown) render();
      })
      .catch(function () { /* no table yet: waiting deals show no value until they are sent */ })
      .then(function () { tableAsked = false; });
  }

  /* JSON's found[key] (an object's own entry, a list's item), or null. */
  function entry(found, key) {
    if (found === null || typeof found !== "object" || key === null) return null;
    key = String(key);
    var own = Array.isArray(found) ? /^(0|[1-9][0-9]*)$/.test(key) : Object.prototype.hasOwnProperty.call(found, key);
    return own && found[key] !== undefined ? found[key] : null;
  }

  /* What one expression of the table's description ("lookup") gives for the deal, or null; the
     expressions are defined beside the table (scoring/value_table.py), and this script follows
     them without knowing what they say: the key's format and the rules it needs (how kontras
     count, which games are thrown) come with the table. */
  function follow(expression, deal) {
    var value, i;
    if (typeof expression === "string") return expression;
    if (!expression || typeof expression !== "object") return null;
    if ("field" in expression) {
      var order = expression.order;
      value = deal[expression.field];
      if (value === undefined || value === null || value === false) return null;
      if (!order) return value;
      if (!Array.isArray(value) || value.some(function (item) { return order.indexOf(item) < 0; })) return null;
      return value.slice().sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
    }
    if ("join" in expression) {
      var texts = [];
      for (i = 0; i < expression.join.length; i++) {
        value = follow(expression.join[i], deal);
        if (value === null) return null;
        texts = texts.concat(value);
      }
      return texts.join(expression["with"]);
    }
    if ("first" in expression) {
      for (i = 0; i < expression.first.length; i++) {
        value = follow(expression.first[i], deal);
        if (value !== null) return value;
      }
      return null;
    }
    if ("look" in expression) {
      var keys = expression.look.map(function (part) { return follow(part, deal); });
      if (keys.indexOf(null) >= 0) return null;
      var found = typeof expression["in"] === "string" ? valueTable[expression["in"]] : expression["in"];
      keys.forEach(function (key) { found = entry(found, key); });
      return follow(found, deal);
    }
    if ("walk" in expression) {
      var items = follow(expression.walk, deal);
      if (items === null) items = [];
      if (!Array.isArray(items)) return null;
      var state = expression.from;
      for (i = 0; i < items.length && state !== null; i++) state = entry(entry(expression.steps, state), items[i]);
      return state;
    }
    return null;
  }

  /* The deal as it is looked up when it is deal ``number``: where a 52:52 deal starts the bok
     rounds, the table's walk ("bok_walk") gives it the marks of the rounds' state before it, the
     server's state after the page's rows walked on over the queued deals before it; null where
     that state is not known. Elsewhere the deal's own fields say it. */
  function asLookedUp(deal, number) {
    var walk = valueTable.bok_walk;
    return walk ? marked(walk, deal, stateBefore(walk, number)) : deal;
  }
  function stateBefore(walk, number) {
    var state = page.bokStates[Math.min(number, page.rows + 1) - 1];
    items.filter(function (item) { return !item.replace && item.number > page.rows && item.number < number; })
      .sort(function (a, b) { return a.number - b.number; })
      .forEach(function (item) {
        var before = marked(walk, item.deal, state);
        state = before && entry(entry(walk.steps, state), follow(walk.step, before));
      });
    return state;
  }
  /* Whether the table's walk puts deal ``number`` in a bok round (the row shows it as the protocol does). */
  function inBokRound(number) {
    var walk = valueTable && valueTable.bok_walk;
    return !!(walk && entry(walk.marks, stateBefore(walk, number)));
  }
  function marked(walk, deal, state) {
    if (!entry(walk.steps, state)) return null;
    return Object.assign({}, deal, entry(walk.marks, state) || {});
  }

  /* The values the engine gave deal ``number`` in the value table, or null (not in the table: the
     server will say why); provisional until the server answers. */
  function provisional(deal, number) {
    if (!valueTable) { loadValueTable(); return null; }
    var lookup = valueTable.lookup;
    var parts = lookup.parts.map(function (part) { return part.value; });
    var looked = asLookedUp(deal, number);
    var found = looked && entry(valueTable.values, follow({join: parts, "with": lookup.separator}, looked));
    return found ? {A: found[0], B: found[1], C: found[2], D: found[3]} : null;
  }

  // --- what the page shows ----------------------------------------------------------------

  function setBar() {
    var waiting = unsent().length, state, text;
    if (blocked()) { state = "blocked"; text = word("blocked"); }
    else if (!online) { state = "offline"; text = word("offline"); }
    else if (sending && waiting) { state = "sending"; text = word("sending", {count: waiting}); }
    else { state = "online"; text = word("online"); }
    bar.hidden = false;
    bar.dataset.state = state;
    bar.querySelector(".state").textContent = text;
    bar.querySelector(".count").textContent = waiting ? word("waiting", {count: waiting}) : "";
  }

  function render() {
    setBar();
    var shown = items.filter(function (item) { return item.state !== "stored" || item.number > page.rows || item.replace; });
    var body = waitingBox.querySelector("tbody");
    body.textContent = "";
    var totals = page.totals.slice(), provisionalTotals = false;
    shown.forEach(function (item) {
      var values = item.state === "stored" ? item.values : provisional(item.deal, item.number);
      var sure = item.state === "stored";
      var what = el("td", {"class": "what"}, [item.words]);
      if (!sure && inBokRound(item.number)) {
        var badge = document.querySelector('#offline-words [data-word="bok"]');
        what.appendChild(document.createTextNode(" "));
        what.appendChild(el("span", {"class": "badge", title: badge.title}, [badge.textContent]));
      }
      what.appendChild(el("small", {"class": sure ? "" : "provisional"},
        [sure ? word("stored") : values ? word("provisional") : word("no-value")]));
      if (item.state === "blocked") {
        var decide = el("button", {type: "button", "class": "big", "data-decide": item.key}, [word("resolve")]);
        decide.addEventListener("click", function () { openDialog(item); });
        what.appendChild(decide);
      }
      var row = el("tr", {"class": item.state, "data-number": String(item.number)}, [el("td", {}, [String(item.number)]), what]);
      SEATS.forEach(function (seat, i) {
        if (values && !item.replace) totals[i] += values[seat];
        row.appendChild(el("td", {}, values ? [signed(values[seat])] : ["\u2026"]));
      });
      if (!sure) provisionalTotals = true;
      body.appendChild(row);
    });
    waitingBox.hidden = !shown.length;
    document.querySelectorAll(".players .player").forEach(function (box, i) {
      var total = box.querySelector(".total");
      var mark = box.querySelector(".provisional");
      if (!shown.length) { if (mark) mark.remove(); return; }
      total.textContent = signed(totals[i]);
      total.className = "total" + (totals[i] > 0 ? " pos" : totals[i] < 0 ? " neg" : "");
      if (provisionalTotals && !mark) box.appendChild(el("span", {"class": "provisional"}, [word("provisional")]));
      if (!provisionalTotals && mark) mark.remove();
    });
    var title = document.getElementById("entry-title");
    if (title && form && !fixing && !form.querySelector('[name="fixing"]')) {
      title.textContent = word("deal", {number: nextNumber()});
      form.querySelector('[name="number"]').value = nextNumber();
    }
  }

  function showValues(target, values) {
    target.textContent = "";
    if (!values) return;
    var box = el("div", {"class": "values"});
    SEATS.forEach(function (seat) {
      var cls = values[seat] > 0 ? "pos" : values[seat] < 0 ? "neg" : "";
      box.appendChild(el("div", {"class": "seat"}, [seat, el("b", {"class": cls}, [signed(values[seat])])]));
    });
    target.appendChild(box);
    target.appendChild(el("p", {"class": "provisional"}, [word("provisional")]));
  }

  // --- sending -------------------------------------------------------------------------------

  function csrfToken() {
    // a form's token; a finished protocol's page has no form left, but the page's own (hx-headers)
    var field = document.querySelector('[name="csrfmiddlewaretoken"]');
    if (field) return field.value;
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (error) { return ""; }
  }

  function post(path, body) {
    return fetch(tableUrl + path, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken(), "Accept": "application/json"},
      body: JSON.stringify(body)
    });
  }

  function setOnline(now) {
    if (online === now) return;
    online = now;
    if (now) { retryDelay = RETRY_FIRST; changedMeanwhile().then(report).then(send); }
    setBar();
  }

  function retryLater() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { retryTimer = null; send(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MOST);
  }

  /* Tell the server how many deals wait here, for the referee's control room: on reconnecting,
     while deals wait and cannot be sent, once more when the queue is empty again, and as a
     heartbeat (``beat``) every data-heartbeat-seconds while the page is open: a phone that loses
     the network cannot say so, but the control room sees its heartbeat go quiet. One request at
     a time: the deals are sent after it. */
  function report(beat) {
    var waiting = unsent().length;
    if (!online || (!waiting && !reported && !beat)) return Promise.resolve();
    return post("kontakt.json", {waiting: waiting, online: true}).then(function (response) {
      if (response.ok) reported = waiting;
    }).catch(function () { /* reported again at the next chance */ });
  }

  var heartbeatMs = Number(bar.dataset.heartbeatSeconds) * 1000;
  if (heartbeatMs > 0) setInterval(function () { report(true); }, heartbeatMs);

  function answerOf(response) {
    return response.json().catch(function () { return {}; }).then(function (data) {
      if (!data.status) data.status = response.status === 403 ? "pin_required" : "error";
      return {status: response.status, data: data};
    });
  }

  function send() {
    if (sending) return Promise.resolve();
    var next = unsent()[0];
    if (!next || blocked()) { setBar(); return report(); }
    sending = true;
    setBar();
    var base = next.replace ? next.base_version : knownVersion();
    var body = {key: next.key, number: next.number, deal: next.deal, base_version: base};
    if (next.replace) body.replace = true;
    return post("rozdania.json", body).then(answerOf, function () { return null; }).then(function (answer) {
      sending = false;
      if (answer === null) { setOnline(false); retryLater(); return; }
      online = true;
      if (answer.status >= 500) { retryLater(); setBar(); return report(); }
      retryDelay = RETRY_FIRST;
      if (answer.data.status === "stored") return stored(next, base, answer.data).then(send);
      next.state = "blocked";
      next.problem = answer.data;
      return save(next).then(function () { render(); openDialog(next); return report(); });
    });
  }

  function stored(item, base, answer) {
    item.state = "stored";
    item.values = answer.values;
    item.version = answer.version;
    delete item.problem;
    // The phone's own corrections queued after this deal saw the protocol before it: if nothing
    // else changed meanwhile, they follow it.
    if (!item.replace && answer.version === base + 1) {
      items.forEach(function (other) { if (other.replace && other.state !== "stored" && other.base_version === base) other.base_version = answer.version; });
    }
    return Promise.all(items.map(save)).then(function () {
      render();
      if (!unsent().length) return report().then(refresh);
    });
  }

  /* All sent: show the protocol as the server has it now, unless the scorer is typing the next deal. */
  function refresh() {
    if (formTouched || (dialog && dialog.open)) return;
    if (location.pathname === tableUrl) location.reload();
    else location.assign(tableUrl + "#entry");
  }

  // --- deciding a refused deal ------------------------------------------------------------------

  function serverWords(number) {
    // The referee's row in the protocol's own words, from the page as the server renders it now.
    return fetch(tableUrl, {credentials: "same-origin"}).then(function (response) { return response.text(); }).then(function (html) {
      var row = new DOMParser().parseFromString(html, "text/html").querySelector("#row-" + number + " td.what");
      return row ? document.importNode(row, true).childNodes : null;
    }).catch(function () { return null; });
  }

  function fillSide(side, content, values) {
    var what = dialog.querySelector("." + side + " .what");
    what.textContent = "";
    if (typeof content === "string") what.textContent = content;
    else Array.prototype.slice.call(content).forEach(function (node) { what.appendChild(node); });
    dialog.querySelector("." + side + " .vals").textContent = values ? SEATS.map(function (seat) { return seat + " " + signed(values[seat]); }).join(" \u00b7 ") : "";
  }

  function openDialog(item) {
    if (!dialog || !item.problem) return;
    var problem = item.problem, status = problem.status, server = problem.server;
    var choices = [];
    dialog.dataset.key = item.key;
    dialog.querySelector(".server").hidden = dialog.querySelector(".mine").hidden = true;
    var title, why = problem.message || (problem.error && problem.error.message) || "";
    if (status === "conflict" && server) {
      // Only the phone's correction of this very row may replace it; a new deal that merely
      // collides by number is stored as the next deal (or dropped), never over the row.
      var correcting = item.replace && problem.replace !== false;
      title = word(correcting ? "conflict" : "taken", {number: item.number});
      // "drop mine" only where the protocol holds this very deal (another phone sent it first):
      // a different deal is a real one, which a reflex tap must not lose
      choices = correcting ? ["theirs", "mine"] : sameDeal(item.deal, server.deal) ? ["renumber", "drop"] : ["renumber"];
      dialog.dataset.rows = problem.next - 1;
      dialog.querySelector('[data-choice="renumber"]').textContent = word("renumber", {number: problem.next});
      dialog.querySelector(".server").hidden = dialog.querySelector(".mine").hidden = false;
      fillSide("server", describe(server.deal), server.values);
      fillSide("mine", item.words, provisional(item.deal, item.number));
      serverWords(item.number).then(function (nodes) { if (nodes && dialog.dataset.key === item.key) fillSide("server", nodes, server.values); });
    } else if (status === "conflict") {
      title = word("moved", {number: item.number});
      choices = ["renumber", "drop"];
      dialog.querySelector(".mine").hidden = false;
      fillSide("mine", item.words, provisional(item.deal, item.number));
      dialog.querySelector('[data-choice="renumber"]').textContent = "\u2026";
      serverState().then(function (state) {
        if (!state) return;
        dialog.dataset.rows = state.rows.length;
        why = word("moved-why", {rows: state.rows.length}) + " " + (problem.message || "");
        dialog.querySelector(".why").textContent = why;
        dialog.querySelector('[data-choice="renumber"]').textContent = word("renumber", {number: state.rows.length + 1});
      });
    } else if (status === "invalid") {
      title = word("invalid", {number: item.number});
      choices = form ? ["fix", "drop"] : ["drop"];
      dialog.querySelector(".mine").hidden = false;
      fillSide("mine", item.words, null);
    } else if (status === "key_reused") {
      title = word("key-reused", {number: item.number});
      choices = ["drop", "close"];
    } else if (status === "closed") {
      title = word("closed");
      why = (problem.message ? problem.message + " " : "") + word("closed-why");
      choices = ["close"];
    } else if (status === "pin_required") {
      title = word("pin");
      why = word("pin-why");
      choices = ["pin", "close"];
    } else {
      title = word("blocked");
      choices = ["close"];
    }
    dialog.querySelector("#conflict-title").textContent = title;
    dialog.querySelector(".why").textContent = why;
    dialog.querySelectorAll("[data-choice]").forEach(function (button) {
      button.hidden = choices.indexOf(button.dataset.choice) < 0;
    });
    if (!dialog.open) dialog.showModal();
  }

  function serverState() {
    return fetch(tableUrl + "stan.json", {credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; });
  }

  function unblock(item) {
    item.state = "waiting";
    delete item.problem;
  }

  /* A deal of the phone's own queue dropped: the new deals after it move up one number, unless the
     protocol holds a row at its number (the same deal, stored by another phone): that number stays
     taken, and moving the next deal onto it walked it into the same collision. */
  function dropOwn(item) {
    var taken = item.problem && item.problem.status === "conflict" && item.problem.server;
    if (!item.replace && !taken) {
      items.forEach(function (other) { if (!other.replace && other.state !== "stored" && other.number > item.number) other.number -= 1; });
    }
    return forget(item);
  }

  /* A deal as the protocol records it, for comparing: its fields in one order, the old seats in
     seat order, absent and empty fields alike. */
  function canonical(deal) {
    return JSON.stringify(Object.keys(deal || {}).sort().filter(function (name) {
      var value = deal[name];
      return value !== null && value !== undefined && value !== false && value !== "" && !(Array.isArray(value) && !value.length);
    }).map(function (name) {
      return [name, name === "old" ? deal.old.slice().sort() : deal[name]];
    }));
  }

  function sameDeal(mine, theirs) {
    return canonical(mine) === canonical(theirs);
  }

  function choose(choice) {
    var item = items.filter(function (other) { return other.key === dialog.dataset.key; })[0];
    dialog.close();
    if (!item || choice === "close" || choice === "pin") return;
    var done;
    if (choice === "theirs") {
      done = forget(item);  // the protocol's row stays; the deals after it keep their numbers
    } else if (choice === "mine") {
      // Sent again as a correction of that row, under a new key, if the protocol is still as compared.
      var again = {key: newKey(), table: item.table, seq: item.seq, number: item.number, deal: item.deal,
        words: item.words, replace: true, base_version: item.problem.version, state: "waiting"};
      done = forget(item).then(function () { items.push(again); items.sort(function (a, b) { return a.seq - b.seq; }); return save(again); });
    } else if (choice === "renumber") {
      var rows = Number(dialog.dataset.rows);
      if (isNaN(rows)) return;
      var number = rows + 1;
      unsent().forEach(function (other) { if (!other.replace) { other.number = number; number += 1; } });
      unblock(item);
      done = Promise.all(items.map(save));
    } else if (choice === "drop") {
      done = dropOwn(item);
    } else if (choice === "fix") {
      fixing = item;
      fillForm(item.deal);
      document.getElementById("entry-title").textContent = word("fix-deal", {number: item.number});
      form.scrollIntoView();
      return;
    }
    done.then(function () { render(); send(); });
  }

  function fillForm(deal) {
    form.reset();
    function tick(name, value) {
      var input = form.querySelector('[name="full-' + name + '"][value="' + value + '"]');
      if (input) input.checked = true;
    }
    tick("contract", deal.contract);
    (deal.old || []).forEach(function (seat) { tick("old", seat); });
    form.querySelector('[name="full-kontras"]').value = (deal.kontras || []).map(function (side) { return side === "old" ? "s" : "m"; }).join("");
    form.querySelector('[name="full-old_eyes"]').value = deal.old_eyes === undefined ? "" : deal.old_eyes;
    ["winner", "level", "misplay"].forEach(function (name) { tick(name, deal[name] || ""); });
    var offence = form.querySelector('[name="full-offence"]');
    if (offence) offence.value = deal.offence || "";
    form.querySelector('[name="full-tie"]').checked = !!deal.tie;
    form.querySelector('[name="full-laid_down"]').checked = !!deal.laid_down;
    var bok = form.querySelector('[name="full-bok_round"]');  // only where the rules have the scorer mark bok rows
    if (bok) bok.checked = !!deal.bok_round;
    var dobicie = form.querySelector('[name="full-cicha_na_dobiciu"]');  // only where the rules treat its kontra apart
    if (dobicie) dobicie.checked = !!deal.cicha_na_dobiciu;
    if (deal.winner || deal.misplay || deal.offence || deal.laid_down) form.querySelector("details").open = true;
    contractChosen();
  }

  // --- the button form ------------------------------------------------------------------------

  /* A solo game's words ("rozgrywający", "wygrał/przegrał") or a pair game's; a thrown game is won. */
  function contractChosen() {
    var chosen = form.querySelector('[name="full-contract"]:checked');
    var contract = chosen ? chosen.value : "";
    form.classList.toggle("solo", soloContracts.indexOf(contract) >= 0);
    if (thrownContracts.indexOf(contract) >= 0 && !form.querySelector('[name="full-winner"]:checked:not([value=""])') &&
        !form.querySelector('[name="full-misplay"]:checked:not([value=""])')) {
      var won = form.querySelector('[name="full-winner"][value="old"]');
      if (won) { won.checked = true; form.querySelector("details").open = true; }
    }
  }

  function saveDeal(event) {
    if (event.submitter && event.submitter.hasAttribute("formaction")) {
      if (online && navigator.onLine) return;  // the preview by the server
      event.preventDefault();
      previewHere();
      return;
    }
    event.preventDefault();
    var deal;
    try { deal = dealOf(form); } catch (error) {
      form.querySelector("#preview-deal").textContent = error.message;
      return;
    }
    var editing = form.querySelector('[name="fixing"]');
    var item = {key: newKey(), table: tableUrl, seq: Date.now(), deal: deal, words: describe(deal), state: "waiting"};
    if (fixing) {
      item.seq = fixing.seq; item.number = fixing.number; item.replace = fixing.replace; item.base_version = fixing.base_version;
    } else if (editing) {
      item.number = Number(form.querySelector('[name="number"]').value);
      item.replace = true;
      item.base_version = knownVersion();
    } else {
      item.number = nextNumber();
    }
    var before = fixing ? forget(fixing) : Promise.resolve();
    fixing = null;
    // Cleared now, not once the phone has stored the deal: a quick scorer's taps on the next deal stay.
    if (!editing) clearForm();
    before.then(function () {
      items.push(item);
      items.sort(function (a, b) { return a.seq - b.seq; });
      return save(item);
    }).then(function () {
      if (editing) { location.assign(tableUrl + "#entry"); return; }  // back to the next deal (the shell, if offline)
      render();
      send();
      document.getElementById("entry").scrollIntoView();
    }, function () {
      // The browser keeps no queue (storage refused or full): the form posts the deal as without this script.
      items = items.filter(function (other) { return other !== item; });
      fillForm(deal);
      form.submit();
    });
  }

  function clearForm() {
    form.reset();
    formTouched = false;
    contractChosen();
    form.querySelector("#preview-deal").textContent = "";
    form.querySelector("details").open = false;
  }

  /* The provisional preview, shown once no finger is down: shown at once, it would move the save
     button away between the press (which ends the typing of the eyes) and the release. */
  var pressed = false, previewWaits = false;
  function previewSoon() {
    if (pressed) previewWaits = true;
    else previewHere();
  }
  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  document.addEventListener("pointerup", function () {
    pressed = false;
    if (previewWaits) setTimeout(function () { previewWaits = false; previewHere(); }, 0);
  }, true);

  function previewHere() {
    var target = form.querySelector("#preview-deal");
    var number = Number(form.querySelector('[name="number"]').value) || nextNumber();
    try { showValues(target, provisional(dealOf(form), number)); } catch (error) { target.textContent = error.message; }
  }

  function lineSaved(event) {
    if (event.submitter && event.submitter.hasAttribute("formaction")) return;
    var reason = !(online && navigator.onLine) ? "line-offline" : unsent().length ? "line-waiting" : null;
    if (!reason) return;
    event.preventDefault();
    var target = lineForm.querySelector("#preview-line");
    target.textContent = "";
    target.appendChild(el("p", {"class": "errorlist", role: "alert"}, [word(reason)]));
  }

  // --- what others changed while the phone was offline -----------------------------------------

  /* The rows of a protocol page in the protocol's own words (as the server's describer wrote them),
     by number, without the shorthand code. */
  function rowsOf(root) {
    var rows = {};
    root.querySelectorAll('tr[id^="row-"]').forEach(function (row) {
      var what = row.querySelector("td.what");
      if (!what) return;
      what = what.cloneNode(true);
      what.querySelectorAll(".deal-code, .badge").forEach(function (node) { node.remove(); });
      rows[row.id.slice(4)] = what.textContent.replace(/\s+/g, " ").trim();
    });
    return rows;
  }

  /* Kept for this browser tab until the scorer closes the note: a reload to the server's page
     (which shows the new totals) must not lose it. */
  var CHANGED_KEPT = "baska-stolik-zmiany:" + tableUrl;
  function changedLines() {
    try { return JSON.parse(sessionStorage.getItem(CHANGED_KEPT)) || []; } catch (error) { return []; }
  }
  function showChanged() {
    var box = document.getElementById("changed");
    if (!box) return;
    var lines = changedLines();
    var list = box.querySelector("ul");
    list.textContent = "";
    lines.forEach(function (line) { list.appendChild(el("li", {}, [line])); });
    box.hidden = !lines.length;
  }

  /* Back online: the rows this page shows compared with the server's, so that a correction or a
     deletion made meanwhile (by the referee or another phone) does not change the totals silently.
     The phone's own queued corrections are its scorer's news, not others'. */
  function changedMeanwhile() {
    var before = rowsOf(document);
    var own = items.filter(function (item) { return item.replace; }).map(function (item) { return String(item.number); });
    return fetch(tableUrl, {credentials: "same-origin"}).then(function (response) { return response.ok ? response.text() : null; }).then(function (html) {
      if (!html) return;
      var after = rowsOf(new DOMParser().parseFromString(html, "text/html"));
      var lines = Object.keys(before).filter(function (number) {
        return own.indexOf(number) < 0 && after[number] !== before[number];
      }).map(function (number) {
        if (number in after) return word("changed", {number: number, before: before[number], after: after[number]});
        return word("deleted", {number: number, before: before[number]});
      });
      if (!lines.length) return;
      try { sessionStorage.setItem(CHANGED_KEPT, JSON.stringify(changedLines().concat(lines))); } catch (error) { /* shown once */ }
      showChanged();
      if (!unsent().length) refresh();  // the page's totals are the old ones
    }).catch(function () { /* compared at the next reconnection */ });
  }

  // --- the service worker ----------------------------------------------------------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !bar.dataset.swUrl) return;
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(bar.dataset.swUrl).then(function () { return navigator.serviceWorker.ready; }).then(function (registration) {
      // The page and its files as this visit loaded them, for a reload without the network.
      var urls = [tableUrl + "tabela-wartosci.json"];
      document.querySelectorAll('link[rel="stylesheet"], script[src], link[rel="icon"]').forEach(function (node) { urls.push(node.href || node.src); });
      if (first) urls.push(location.pathname);
      registration.active.postMessage({type: "keep", urls: urls});
    }).catch(function () { /* no worker (e.g. plain http on a hall's server): the queue still works, a reload needs the network */ });
  }

  // --- start ----------------------------------------------------------------------------------

  window.addEventListener("online", function () { setOnline(true); });
  window.addEventListener("offline", function () { setOnline(false); });
  if (form) {
    form.addEventListener("submit", saveDeal);
    form.addEventListener("change", function (event) {
      formTouched = true;
      if (event.target.name === "full-contract") contractChosen();
    });
    form.addEventListener("htmx:sendError", previewSoon);
    form.addEventListener("htmx:beforeRequest", function (event) { if (!navigator.onLine) { event.preventDefault(); previewSoon(); } });
    contractChosen();
  }
  if (lineForm) lineForm.addEventListener("submit", lineSaved);
  var changedBox = document.getElementById("changed");
  if (changedBox) {
    changedBox.querySelector("button").addEventListener("click", function () {
      try { sessionStorage.removeItem(CHANGED_KEPT); } catch (error) { /* nothing kept */ }
      showChanged();
    });
    showChanged();
  }
  if (dialog) {
    dialog.addEventListener("click", function (event) {
      var button = event.target.closest("[data-choice]");
      if (button) choose(button.dataset.choice);
    });
  }

  load().then(function () {
    // Deals stored before this page was rendered are in its rows now.
    var shown = items.filter(function (item) { return item.state === "stored" && item.version <= page.version; });
    // A page rendered means a PIN grant again, a closed protocol may have been reopened, and an
    // unexpected answer may have been the server's passing trouble: try those once more.
    items.forEach(function (item) {
      if (item.state === "blocked" && ["pin_required", "closed", "error"].indexOf(item.problem.status) >= 0) unblock(item);
    });
    return Promise.all(shown.map(forget).concat(items.map(save)));
  }).then(function () {
    render();
    loadValueTable(true);
    registerWorker();
    // a heartbeat at once: a phone that loses the network in its first seconds is shown offline too
    report(true).then(send);
    // back after a deal saved by its shorthand line: the cursor in the line for the next one
    var line = lineForm && location.hash === "#line" ? lineForm.querySelector("#line") : null;
    if (line) line.focus();
  });
})();
