// Floe's web app: ARIA tabs that switch in place, and copy buttons. Everything works without
// this script too (tabs are links to ?tab=...), it only makes it quicker.
(function () {
  "use strict";

  function selectTab(tab, focus) {
    var list = tab.closest("[role=tablist]");
    list.querySelectorAll("[role=tab]").forEach(function (other) {
      var selected = other === tab;
      other.setAttribute("aria-selected", selected ? "true" : "false");
      other.tabIndex = selected ? 0 : -1;
      var panel = document.getElementById(other.getAttribute("aria-controls"));
      if (panel) { panel.hidden = !selected; }
    });
    if (focus) { tab.focus(); }
    var url = new URL(window.location.href);
    url.searchParams.set("tab", tab.id.replace(/^tab-/, ""));
    url.searchParams.delete("done");
    window.history.replaceState(null, "", url);
  }

  function initTabs(root) {
    root.querySelectorAll("[role=tablist]").forEach(function (list) {
      if (list.dataset.ready) { return; }
      list.dataset.ready = "1";
      var tabs = Array.prototype.slice.call(list.querySelectorAll("[role=tab]"));
      tabs.forEach(function (tab, index) {
        tab.addEventListener("click", function (event) {
          event.preventDefault();
          selectTab(tab, false);
        });
        tab.addEventListener("keydown", function (event) {
          var next = null;
          if (event.key === "ArrowRight") { next = tabs[(index + 1) % tabs.length]; }
          if (event.key === "ArrowLeft") { next = tabs[(index - 1 + tabs.length) % tabs.length]; }
          if (event.key === "Home") { next = tabs[0]; }
          if (event.key === "End") { next = tabs[tabs.length - 1]; }
          if (next) { event.preventDefault(); selectTab(next, true); }
        });
      });
    });
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand("copy");
    document.body.removeChild(area);
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (!button) { return; }
    var text = button.dataset.copy;
    if (text === undefined && button.dataset.copyFrom) {
      text = document.getElementById(button.dataset.copyFrom).textContent;
    }
    copyText(text).then(function () {
      button.textContent = "Copied";
      button.setAttribute("aria-live", "polite");
      window.setTimeout(function () { button.textContent = "Copy"; }, 2000);
    }, function () {
      button.textContent = "Select and copy";
    });
  });

  document.addEventListener("DOMContentLoaded", function () { initTabs(document); });
  document.addEventListener("htmx:load", function (event) { initTabs(event.target); });
})();
