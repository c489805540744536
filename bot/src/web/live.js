// Tavern's live tracker: the page works without this file (it reloads itself); with
// it, the server's events replace the tracker in place. The HTML comes from our own
// server, escaped there.
"use strict";
(function () {
  var tracker = document.getElementById("tracker");
  if (!tracker || !window.EventSource) {
    return;
  }
  var source = new EventSource(tracker.getAttribute("data-events"));
  source.addEventListener("tracker", function (event) {
    tracker.innerHTML = event.data;
    tracker.setAttribute("data-updated", String(Date.now()));
  });
})();
