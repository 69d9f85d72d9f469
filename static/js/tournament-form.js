// The tournament form: show only the settings of the game chosen ("Baśka only", "Preferans only").
// Without JavaScript both sections stay visible under their headings.
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
        var wanted = section.dataset.game === choice.value || section.querySelector(".errorlist");
        section.hidden = !wanted;
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
