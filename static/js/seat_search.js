/* The seating filter of the tournament page (templates/public/tournament.html), a file of its own so
   the page, kept ready for every visitor, needs no per-response nonce. */
// Filter the seating list as the player types; every word must match, with or without
// Polish letters ("kakol" finds Kąkol), as players.models.search_key compares on the server.
(function () {
  var input = document.getElementById("seat-search");
  if (!input) return;
  var none = document.getElementById("seat-none");
  // ł has no Unicode decomposition (its stroke is not a combining mark): replaced by hand
  function plain(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ł/g, "l");
  }
  var rows = Array.prototype.map.call(document.querySelectorAll("#seating li"), function (row) {
    return { row: row, name: plain(row.dataset.name) };
  });
  input.addEventListener("input", function () {
    var words = plain(input.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (entry) {
      var match = words.every(function (w) { return entry.name.indexOf(w) !== -1; });
      entry.row.hidden = !match;
      if (match) shown += 1;
    });
    none.hidden = shown > 0;
  });
})();
