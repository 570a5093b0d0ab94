// wordgames serve: small progressive enhancements; every form works without this script.
(function () {
  "use strict";
  var t0 = performance.now();
  document.querySelectorAll("form.trial").forEach(function (form) {
    form.addEventListener("submit", function () {
      // client-side response time (the server measures its own too)
      form.querySelectorAll("input.crt").forEach(function (el) {
        el.value = String(Math.round(performance.now() - t0));
      });
      // one submission per page: a double click sends nothing twice (the server also dedupes)
      setTimeout(function () {
        document.querySelectorAll("form.trial button").forEach(function (b) { b.disabled = true; });
      }, 0);
    });
  });
  // Codenames receiver: clicking a word fills the next empty pick, clicking again clears it
  var form = document.querySelector("form[data-picks]");
  if (!form) { return; }
  var selects = Array.prototype.slice.call(form.querySelectorAll("select[name^=pick]"));
  function refresh() {
    var chosen = selects.map(function (s) { return s.value; });
    form.querySelectorAll("button.word").forEach(function (b) {
      var i = chosen.indexOf(b.dataset.word);
      b.classList.toggle("picked", i >= 0);
      b.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      b.textContent = b.dataset.word + (i >= 0 ? " (" + (i + 1) + ")" : "");
    });
  }
  form.querySelectorAll("button.word").forEach(function (b) {
    b.addEventListener("click", function () {
      var w = b.dataset.word;
      var at = selects.findIndex(function (s) { return s.value === w; });
      if (at >= 0) { selects[at].value = ""; }
      else {
        var free = selects.find(function (s) { return !s.value; });
        if (free) { free.value = w; }
      }
      refresh();
    });
  });
  selects.forEach(function (s) { s.addEventListener("change", refresh); });
  refresh();
})();
