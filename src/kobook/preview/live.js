// kobook preview: reload the page when its build changed, show build errors over it,
// list the typography findings of this page.  Served as /__kobook/live.js to the pages
// of `kobook preview` only (the built site never loads it).  Messages quote the book's
// sources, so the DOM is built with textContent only (no HTML parsing of messages).
(function () {
  "use strict";
  if (window.__kobookLive || !window.EventSource) return;
  window.__kobookLive = true;

  var here = currentPage();
  var scrollKey = "kobook-scroll:" + here;
  var root = null;
  var parts = {};
  var lost = false;

  restoreScroll();

  function currentPage() {
    var path = location.pathname;
    try { path = decodeURIComponent(path); } catch (e) { /* keep it encoded */ }
    path = path.replace(/^\/+/, "");
    if (path === "" || path.charAt(path.length - 1) === "/") path += "index.html";
    return path;
  }

  function restoreScroll() {
    var saved = null;
    try { saved = sessionStorage.getItem(scrollKey); sessionStorage.removeItem(scrollKey); }
    catch (e) { return; }
    if (saved === null) return;
    var go = function () { window.scrollTo(0, parseFloat(saved) || 0); };
    if (document.readyState === "complete") go(); else window.addEventListener("load", go);
  }

  function reload() {
    try { sessionStorage.setItem(scrollKey, String(window.scrollY)); } catch (e) { /* private mode */ }
    location.reload();
  }

  // This page changed, or a file it may use (a style sheet, an image): reload.
  function concernsThisPage(pages) {
    if (!pages || !pages.length) return false;
    for (var i = 0; i < pages.length; i++) {
      if (pages[i] === here || !/\.html$/.test(pages[i])) return true;
    }
    return false;
  }

  // Only pages changed (no style sheet, script or image): a chapter's new text can be put
  // in place of the old one without reloading the page (update).
  function onlyPages(pages) {
    for (var i = 0; i < pages.length; i++) {
      if (!/\.html$/.test(pages[i])) return false;
    }
    return true;
  }

  // The page's new version put in place: the chapter's text (its <article>), the table of
  // contents and the pager, when nothing else of the page changed (its <head>, the book's
  // title, the language, the break setting); else, or when anything fails, a reload.
  // Faster than a reload (no new page to lay out, no style sheet or script to ask for
  // again), and the reader keeps the scroll position, the focus and the search box.
  // book.js hears "kobook:content" and sets up the new text (copy buttons, tabs, notes).
  var fetching = false;
  var again = false;
  // The <head> as the page came (this script runs before book.js, which may add to it).
  var served = withoutTitle(document.head);
  function update() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(location.pathname, { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (text) {
        if (!put(new DOMParser().parseFromString(text, "text/html"))) reload();
      })
      .catch(function () { reload(); })
      .then(function () {
        fetching = false;
        if (again) { again = false; update(); }
      });
  }

  function withoutTitle(head) {
    var copy = head.cloneNode(true);
    copy.querySelectorAll("title").forEach(function (n) { n.remove(); });
    return copy;
  }

  function same(a, b, name) {
    return a.getAttribute(name) === b.getAttribute(name);
  }

  function put(doc) {
    var old = document.querySelectorAll("main article");
    var fresh = doc.querySelectorAll("main article");
    if (old.length !== 1 || fresh.length !== 1) return false;
    var html = document.documentElement, next = doc.documentElement;
    if (!same(html, next, "lang") || !same(html, next, "data-words")) return false;
    if (document.body.classList.contains("break-syllables")
        !== doc.body.classList.contains("break-syllables")) return false;
    var title = document.querySelector(".topbar-title");
    var newTitle = doc.querySelector(".topbar-title");
    if (!title || !newTitle || !title.isEqualNode(newTitle)) return false;
    if (!withoutTitle(doc.head).isEqualNode(served)) return false;
    var parts = ["#sidebar", "main nav.pager"];
    for (var i = 0; i < parts.length; i++) {
      if (!document.querySelector(parts[i]) !== !doc.querySelector(parts[i])) return false;
    }
    fresh[0].querySelectorAll("script").forEach(function (n) { n.remove(); });
    old[0].replaceWith(document.importNode(fresh[0], true));
    parts.forEach(function (selector) {
      var mine = document.querySelector(selector), theirs = doc.querySelector(selector);
      if (!mine) return;
      clear(mine);
      for (var node = theirs.firstChild; node; node = node.nextSibling) {
        mine.appendChild(document.importNode(node, true));
      }
    });
    document.title = doc.title;
    document.dispatchEvent(new CustomEvent("kobook:content"));
    return true;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // One shadow root keeps the book's styles and ours apart.
  function ui() {
    if (root) return root;
    var host = document.createElement("kobook-live");
    document.documentElement.appendChild(host);
    root = host.attachShadow ? host.attachShadow({ mode: "open" }) : host;
    var sheet = el("link");
    sheet.rel = "stylesheet";
    sheet.href = "/__kobook/live.css";
    root.appendChild(sheet);
    return root;
  }

  function part(name, tag) {
    if (!parts[name]) {
      parts[name] = el(tag || "div", name);
      parts[name].hidden = true;
      ui().appendChild(parts[name]);
      if (name === "findings") {  // open or closed, it stays so across reloads
        parts[name].addEventListener("toggle", function () {
          remember("kobook-findings-open", parts[name].open ? "1" : "0");
        });
      }
    }
    return parts[name];
  }

  function remembered(key) {
    try { return sessionStorage.getItem(key); } catch (e) { return null; }
  }

  function remember(key, value) {
    try { sessionStorage.setItem(key, value); } catch (e) { /* private mode */ }
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function showError(error) {
    var overlay = part("overlay");
    clear(overlay);
    if (!error) { overlay.hidden = true; return; }
    var box = el("div", "box");
    box.setAttribute("role", "alert");
    var close = el("button", "close", "×");
    close.title = "닫기 (다음 빌드에서 다시 나타남)";
    close.addEventListener("click", function () { overlay.hidden = true; });
    box.appendChild(close);
    box.appendChild(el("p", "title", "빌드 오류 — 마지막으로 성공한 빌드를 보여 주는 중"));
    box.appendChild(el("pre", "error", error.text));
    if (error.hint) box.appendChild(el("p", "hint", "→ " + error.hint));
    box.appendChild(el("p", "note", "파일을 고쳐 저장하면 이 창은 저절로 사라진다."));
    overlay.appendChild(box);
    overlay.hidden = false;
  }

  function showFindings(findings) {
    var list = [].concat((findings && findings[here]) || [], (findings && findings[""]) || []);
    var panel = part("findings", "details");
    clear(panel);
    if (!list.length) { panel.hidden = true; return; }
    panel.appendChild(el("summary", "", "타이포그래피 " + list.length + "건"));
    panel.open = remembered("kobook-findings-open") === "1";
    var items = el("ul");
    var limit = Math.min(list.length, 100);
    for (var i = 0; i < limit; i++) {
      var item = el("li", list[i].severity || "", list[i].text);
      if (list[i].hint) item.appendChild(el("span", "hint", "→ " + list[i].hint));
      items.appendChild(item);
    }
    if (list.length > limit) items.appendChild(el("li", "more", "… " + (list.length - limit) + "건 더 (kobook check)"));
    panel.appendChild(items);
    panel.hidden = false;
  }

  function showPdf(pdf) {
    var note = part("pdf");
    clear(note);
    if (!pdf) { note.hidden = true; return; }
    var link = el("a", "", "PDF: " + pdf);
    link.href = "/" + pdf;
    link.target = "_blank";
    note.appendChild(link);
    note.hidden = false;
  }

  function showStatus(status) {
    showError(status.error);
    showFindings(status.findings);
    showPdf(status.pdf);
  }

  function data(event) {
    try { return JSON.parse(event.data); } catch (e) { return {}; }
  }

  var source = new EventSource("/__kobook/events");
  source.addEventListener("reload", function (event) {
    var pages = data(event).pages;
    if (!concernsThisPage(pages)) return;
    if (onlyPages(pages) && window.fetch && window.DOMParser) update(); else reload();
  });
  source.addEventListener("status", function (event) { showStatus(data(event)); });
  source.addEventListener("pdf", function (event) {
    var pdf = data(event).pdf;
    showPdf(pdf);
    if (pdf) part("pdf").classList.add("fresh");
  });
  // The server went away (restarted, or the preview was stopped): when it is back, the
  // pages may have changed in between, so reload once.
  source.addEventListener("error", function () { lost = true; });
  source.addEventListener("open", function () { if (lost) reload(); });
})();
