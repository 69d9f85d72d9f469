// The tournament form: show only the settings of the game chosen ("Baśka only", "Preferans only"),
// and post only those: a hidden section is disabled, so another game's fields send nothing.
// Without JavaScript every section stays visible under its heading.
(function () {
  "use strict";

  function init() {
    var choice = document.getElementById("id_game");
    if (!choice) {
      return;
    }
    var sections = document.querySelectorAll("fieldset[data-game]");

    function show() {
      sections.forEach(function (section) {
        // a section with an error stays in sight whatever the game, so the error can be read
        var games = section.dataset.game.split(" ");
        var wanted = games.indexOf(choice.value) !== -1 || section.querySelector(".errorlist");
        section.hidden = !wanted;
        section.disabled = !wanted;
      });
    }

    choice.addEventListener("change", show);
    show();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
