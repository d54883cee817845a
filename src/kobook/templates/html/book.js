/* kobook's reading aids: no framework, nothing fetched.  The page works without it. */
(function () {
  "use strict";
  var root = document.documentElement;
  var words = JSON.parse(root.getAttribute("data-words") || "{}");

  /* The theme: the reader's system setting until the ◐ button picks one, remembered. */
  var button = document.querySelector("button.theme-toggle");
  if (button) {
    button.addEventListener("click", function () {
      var dark = root.dataset.theme
        ? root.dataset.theme === "dark"
        : window.matchMedia("(prefers-color-scheme: dark)").matches;
      root.dataset.theme = dark ? "light" : "dark";
      try { localStorage.setItem("kobook-theme", root.dataset.theme); } catch (e) { /* private mode */ }
    });
  }

  /* A copy button on each code block (the text as written, without line numbers). */
  function copyText(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text, done); });
    } else {
      fallback(text, done);
    }
  }
  function fallback(text, done) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { if (document.execCommand("copy")) { done(); } } catch (e) { /* nothing to do */ }
    document.body.removeChild(area);
  }
  document.querySelectorAll("article pre").forEach(function (pre) {
    var holder = pre.parentElement && pre.parentElement.classList.contains("sourceCode")
      ? pre.parentElement : pre;
    if (holder.querySelector("button.copy-code")) { return; }
    var copy = document.createElement("button");
    copy.type = "button";
    copy.className = "copy-code";
    copy.textContent = words.copy || "Copy";
    copy.setAttribute("aria-label", words.copy || "Copy");
    copy.addEventListener("click", function () {
      var code = pre.querySelector("code") || pre;
      copyText(code.textContent, function () {
        copy.textContent = words.copied || "Copied";
        setTimeout(function () { copy.textContent = words.copy || "Copy"; }, 1500);
      });
    });
    holder.insertBefore(copy, holder.firstChild);
  });

  /* On this page: the chapter's sections, the one on screen marked as it scrolls. */
  var list = document.querySelector("nav.page-toc ol");
  if (list) {
    var headings = Array.prototype.slice.call(document.querySelectorAll("article h2[id], article h3[id]"));
    var links = {};
    headings.forEach(function (heading) {
      var item = document.createElement("li");
      item.className = "level-" + heading.tagName.charAt(1);
      var link = document.createElement("a");
      link.href = "#" + encodeURIComponent(heading.id);
      var title = heading.cloneNode(true);
      title.querySelectorAll("a.anchor, .footnote-ref").forEach(function (n) { n.remove(); });
      link.textContent = title.textContent.trim();
      item.appendChild(link);
      list.appendChild(item);
      links[heading.id] = link;
    });
    if (!headings.length) { list.parentElement.hidden = true; }
    var mark = function () {
      var current = null;
      headings.forEach(function (heading) {
        if (heading.getBoundingClientRect().top < window.innerHeight * 0.25) { current = heading; }
      });
      current = current || headings[0];
      Object.keys(links).forEach(function (id) {
        links[id].classList.toggle("active", current !== undefined && current.id === id);
      });
    };
    window.addEventListener("scroll", mark, { passive: true });
    window.addEventListener("resize", mark);
    mark();
  }
})();
