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

  /* The phone's table of contents: a drawer behind the ☰ button.  A link taken, Escape,
     or a tap outside closes it; Escape gives the focus back to the button. */
  var drawerButton = document.querySelector("button.nav-button");
  var drawer = document.getElementById("sidebar");
  function setDrawer(open, focus) {
    document.body.classList.toggle("nav-open", open);
    drawerButton.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && focus) {
      var link = drawer.querySelector("li.current a") || drawer.querySelector("a");
      if (link) { link.focus(); }
    } else if (!open && focus) {
      drawerButton.focus();
    }
  }
  if (drawerButton && drawer) {
    drawerButton.addEventListener("click", function () {
      setDrawer(!document.body.classList.contains("nav-open"), true);
    });
    drawer.addEventListener("click", function (event) {
      if (event.target.closest("a")) { setDrawer(false, false); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && document.body.classList.contains("nav-open")) {
        setDrawer(false, true);
      }
    });
    document.addEventListener("click", function (event) {
      if (document.body.classList.contains("nav-open")
          && !event.target.closest("#sidebar") && !event.target.closest("button.nav-button")) {
        setDrawer(false, false);
      }
    });
  }

  /* ← and → turn to the previous and next chapter, as in mdBook (not while typing, and
     not when a modifier means something else). */
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) { return; }
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)
      || document.activeElement.isContentEditable;
    if (typing || document.body.classList.contains("nav-open")) { return; }
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : "";
    var link = rel && document.querySelector('.pager a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); location.href = link.href; }
  });

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
  function copyButtons() {
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
  }

  /* On this page: the chapter's sections, the one on screen marked as it scrolls. */
  var list = document.querySelector("nav.page-toc ol");
  var headings = [], links = {};
  function pageToc() {
    if (!list) { return; }
    while (list.firstChild) { list.removeChild(list.firstChild); }
    headings = Array.prototype.slice.call(document.querySelectorAll("article h2[id], article h3[id]"));
    links = {};
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
    list.parentElement.hidden = !headings.length;
    markSection();
  }
  function markSection() {
    var current = null;
    headings.forEach(function (heading) {
      if (heading.getBoundingClientRect().top < window.innerHeight * 0.25) { current = heading; }
    });
    current = current || headings[0];
    Object.keys(links).forEach(function (id) {
      links[id].classList.toggle("active", current !== undefined && current.id === id);
    });
  }
  if (list) {
    window.addEventListener("scroll", markSection, { passive: true });
    window.addEventListener("resize", markSection);
  }

  /* Search: Pagefind's index in search/, loaded on first use.  Pagefind matches each
     word as the start of indexed words (모델 finds 모델을); the query loses its Korean
     particles first (모델을 finds 모델), with the table korean/particles.py writes. */
  var box = document.querySelector("input.search-box");
  var panel = document.querySelector("div.search-results");
  if (box && panel) {
    var engine = null;
    var endings = [];
    var load = function () {
      if (!engine) {
        var base = new URL("search/", document.baseURI);
        engine = location.protocol === "file:"
          ? fromDisk(new URL("disk/", base))
          : Promise.all([
            import(new URL("pagefind.js", base).href),
            fetch(new URL("particles.json", base)).then(function (r) { return r.ok ? r.json() : []; })
          ]).then(function (loaded) { endings = loaded[1]; return loaded[0]; });
        engine.catch(function () { /* shown when a query is typed */ });
      }
      return engine;
    };
    /* From disk (file://, a release zip) a browser runs no Pagefind: the same words are
       in search/disk/ as scripts (write/html/diskindex.py), added one by one as a query
       needs them, and searched here the way Pagefind searches. */
    var fromDisk = function (base) {
      var data = { index: null, shards: {}, texts: {} };
      var added = {};
      window.kobookSearch = {
        index: function (value) { data.index = value; },
        shard: function (n, value) { data.shards[n] = value; },
        text: function (n, value) { data.texts[n] = value; }
      };
      var add = function (name) {
        if (!added[name]) {
          added[name] = new Promise(function (resolve, reject) {
            var tag = document.createElement("script");
            tag.src = new URL(name, base).href;
            tag.onload = resolve;
            tag.onerror = function () { reject(new Error("failed")); };
            document.head.appendChild(tag);
          });
        }
        return added[name];
      };
      var cut = function (text) {
        return text.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu) || [];
      };
      var keyOf = function (word) { return /^[\x00-\x7f]/.test(word) ? word.slice(0, 2) : word.charAt(0); };
      var bucket = function (key) {
        var hash = 0x811c9dc5;
        for (var i = 0; i < key.length; i++) {
          hash ^= key.charCodeAt(i);
          hash = Math.imul(hash, 0x01000193) >>> 0;
        }
        return hash % data.index.buckets;
      };
      /* The sections holding a word that begins with ``term``. */
      var holding = function (term) {
        var key = keyOf(term);
        var keys = data.index.keys.filter(function (k) {
          return key.length < 2 && /^[\x00-\x7f]/.test(term) ? k.indexOf(key) === 0 : k === key;
        });
        var files = {};
        keys.forEach(function (k) { files[bucket(k)] = true; });
        return Promise.all(Object.keys(files).map(function (n) { return add("t-" + n + ".js"); }))
          .then(function () {
            var found = {};
            Object.keys(files).forEach(function (n) {
              var shard = data.shards[n] || {};
              Object.keys(shard).forEach(function (word) {
                if (word.indexOf(term) === 0) { shard[word].forEach(function (s) { found[s] = true; }); }
              });
            });
            return found;
          });
      };
      var escapeText = function (text) {
        return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      };
      /* About 200 characters around the first word a term begins, those words marked. */
      var excerptOf = function (text, terms) {
        var lower = text.toLowerCase(), at = -1;
        terms.forEach(function (term) {
          var re = new RegExp("(^|[^\\p{L}\\p{N}_])" + term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "u");
          var hit = lower.search(re);
          if (hit >= 0 && (at < 0 || hit < at)) { at = hit; }
        });
        var start = Math.max(0, at - 60), piece = text.slice(start, start + 200);
        return (start > 0 ? "… " : "") + piece.replace(/[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*|[^\p{L}\p{N}_]+/gu, function (part) {
          var low = part.toLowerCase();
          var hit = terms.some(function (term) { return low.indexOf(term) === 0; });
          return hit ? "<mark>" + escapeText(part) + "</mark>" : escapeText(part);
        });
      };
      var search = function (query) {
        var terms = cut(query);
        return Promise.all(terms.map(holding)).then(function (sets) {
          var pages = {};
          sets.forEach(function (set, t) {
            Object.keys(set).forEach(function (s) {
              var page = data.index.sections[s][0];
              var entry = pages[page] = pages[page] || { terms: {}, sections: {}, hits: 0 };
              entry.terms[t] = true;
              entry.sections[s] = (entry.sections[s] || 0) + 1;
              entry.hits += 1;
            });
          });
          var chosen = Object.keys(pages).filter(function (p) {
            return Object.keys(pages[p].terms).length === terms.length;
          }).sort(function (a, b) { return pages[b].hits - pages[a].hits || a - b; });
          return { results: chosen.map(function (p) {
            return { data: function () {
              var sections = Object.keys(pages[p].sections)
                .sort(function (a, b) { return pages[p].sections[b] - pages[p].sections[a] || a - b; })
                .slice(0, 3);
              return Promise.all(sections.map(function (s) { return add("s-" + s + ".js"); }))
                .then(function () {
                  var page = data.index.pages[p];
                  return {
                    url: page[0],
                    meta: { title: page[1] },
                    excerpt: excerptOf(data.texts[sections[0]] || "", terms),
                    sub_results: sections.map(function (s) {
                      var section = data.index.sections[s];
                      return {
                        url: page[0] + (section[1] ? "#" + encodeURIComponent(section[1]) : ""),
                        title: section[2] || page[1],
                        excerpt: excerptOf(data.texts[s] || "", terms)
                      };
                    })
                  };
                });
            } };
          }) };
        });
      };
      return add("index.js").then(function () {
        endings = data.index.endings || [];
        return { search: search };
      });
    };
    var stem = function (word) {
      for (var i = 0; i < endings.length; i++) {
        var ending = endings[i][0], after = endings[i][1];
        if (word.length <= ending.length || word.slice(-ending.length) !== ending) { continue; }
        var rest = word.slice(0, -ending.length), last = rest.charCodeAt(rest.length - 1);
        if (last >= 0xAC00 && last <= 0xD7A3) {
          var final = (last - 0xAC00) % 28;
          if (rest.length < 2 || after.indexOf(final === 0 ? "V" : final === 8 ? "L" : "C") < 0) { continue; }
        } else if (!/[0-9A-Za-z]$/.test(rest)) { continue; }
        return rest;
      }
      return word;
    };
    /* Pagefind falls back to the longest prefix it has indexed: a word the book does not
       hold (그래디언트를 in a book without it) would find every page with 그….  A page
       counts only when each query word begins a word Pagefind marked in it. */
    var marked = function (page) {
      var found = [];
      [page].concat(page.sub_results || []).forEach(function (part) {
        (part.excerpt || "").replace(/<mark>([^<]*)<\/mark>/g, function (_, word) {
          found.push(word.toLowerCase());
          return "";
        });
      });
      return found;
    };
    var holds = function (page, terms) {
      var marks = marked(page);
      return terms.every(function (term) {
        var wanted = term.toLowerCase();
        return marks.some(function (mark) { return mark.indexOf(wanted) === 0; });
      });
    };
    var pageHref = function (url) {
      var parsed = new URL(url, "http://site/");
      return parsed.pathname.split("/").pop() + parsed.hash;
    };
    /* Pagefind's excerpt is HTML: only its text and <mark> reach the page. */
    var excerpt = function (markup) {
      var holder = document.createElement("p");
      holder.className = "search-excerpt";
      var parsed = new DOMParser().parseFromString("<body>" + markup, "text/html").body;
      parsed.childNodes.forEach(function (node) {
        if (node.nodeName === "MARK") {
          var mark = document.createElement("mark");
          mark.textContent = node.textContent;
          holder.appendChild(mark);
        } else {
          holder.appendChild(document.createTextNode(node.textContent));
        }
      });
      return holder;
    };
    var link = function (className, href, text) {
      var a = document.createElement("a");
      a.className = className;
      a.href = href;
      a.textContent = text;
      return a;
    };
    var say = function (query, text) {
      var p = document.createElement("p");
      p.className = "search-note";
      p.textContent = text;
      panel.replaceChildren(p);
      panel.dataset.query = query;
      panel.hidden = false;
    };
    var show = function (query, pages) {
      if (!pages.length) { say(query, words.none || "No results"); return; }
      var list = document.createElement("ol");
      pages.forEach(function (page) {
        var item = document.createElement("li");
        var href = pageHref(page.url);
        item.appendChild(link("search-chapter", href, page.meta.title || href));
        var sections = (page.sub_results || []).slice(0, 3);
        if (!sections.length) { item.appendChild(excerpt(page.excerpt)); }
        sections.forEach(function (section) {
          var target = pageHref(section.url);
          if (target !== href && section.title !== page.meta.title) {
            item.appendChild(link("search-section", target, section.title));
          }
          item.appendChild(excerpt(section.excerpt));
        });
        list.appendChild(item);
      });
      panel.replaceChildren(list);
      panel.dataset.query = query;
      panel.hidden = false;
    };
    var asked = 0;
    var run = function () {
      var query = box.value.trim();
      var ask = ++asked;
      if (!query) { panel.hidden = true; panel.replaceChildren(); return; }
      var terms = [];
      load().then(function (pagefind) {
        terms = query.split(/\s+/).map(stem);
        return pagefind.search(terms.join(" ")).then(function (found) {
          return Promise.all(found.results.slice(0, 20).map(function (r) { return r.data(); }));
        });
      }).then(function (pages) {
        if (ask === asked) { show(query, pages.filter(function (p) { return holds(p, terms); }).slice(0, 10)); }
      }, function (error) {
        if (ask === asked) { say(query, words.failed); }
      });
    };
    var timer = null;
    box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 150); });
    box.addEventListener("focus", function () { load(); if (box.value.trim()) { panel.hidden = false; } });
    box.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { box.value = ""; run(); box.blur(); }
      if (event.key === "Enter") {
        var first = panel.querySelector("a");
        if (first) { location.href = first.href; }
      }
      if (event.key === "ArrowDown") {
        var top = panel.querySelector("a");
        if (top) { event.preventDefault(); top.focus(); }
      }
    });
    /* ↑ and ↓ move through the results; ↑ from the first goes back to the box. */
    panel.addEventListener("keydown", function (event) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") { return; }
      var links = Array.prototype.slice.call(panel.querySelectorAll("a"));
      var at = links.indexOf(document.activeElement);
      if (at < 0) { return; }
      event.preventDefault();
      var next = event.key === "ArrowDown" ? Math.min(at + 1, links.length - 1) : at - 1;
      if (next < 0) { box.focus(); } else { links[next].focus(); }
    });
    panel.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { panel.hidden = true; box.focus(); }
    });
    document.addEventListener("keydown", function (event) {
      var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        box.focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (!event.target.closest(".search")) { panel.hidden = true; }
    });
  }

  /* Content tabs (MkDocs "=== 탭"): each .tab's label becomes a button; one tab shows at a
     time.  Without the script every tab is shown under its label, as in print. */
  function tabsets() {
    document.querySelectorAll("div.tabset").forEach(function (set, setIndex) {
      var tabs = Array.prototype.filter.call(set.children, function (c) {
        return c.classList.contains("tab");
      });
      if (tabs.length < 2 || set.classList.contains("tabbed")) { return; }
      var bar = document.createElement("div");
      bar.className = "tab-bar";
      bar.setAttribute("role", "tablist");
      var buttons = tabs.map(function (tab, index) {
        var label = tab.querySelector(":scope > .tab-title");
        var b = document.createElement("button");
        b.type = "button";
        b.setAttribute("role", "tab");
        b.id = "tabset-" + setIndex + "-" + index;
        b.textContent = label ? label.textContent.trim() : String(index + 1);
        tab.setAttribute("role", "tabpanel");
        tab.setAttribute("aria-labelledby", b.id);
        bar.appendChild(b);
        return b;
      });
      function show(chosen) {
        tabs.forEach(function (tab, index) {
          var on = index === chosen;
          tab.hidden = !on;
          buttons[index].setAttribute("aria-selected", on ? "true" : "false");
          buttons[index].tabIndex = on ? 0 : -1;
        });
      }
      buttons.forEach(function (b, index) {
        b.addEventListener("click", function () { show(index); });
        b.addEventListener("keydown", function (event) {
          var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
          if (!step) { return; }
          var next = (index + step + tabs.length) % tabs.length;
          show(next);
          buttons[next].focus();
        });
      });
      set.classList.add("tabbed");
      set.insertBefore(bar, set.firstChild);
      show(0);
    });
  }

  /* A footnote shows beside its number on hover or keyboard focus, as in Quarto and
     distill: the reader need not jump to the end of the page and back.  The note's own
     text, without its back-link; Escape or leaving closes it. */
  var preview = null, closing = null;
  function closeNote() {
    clearTimeout(closing);
    if (preview) {
      preview.owner.removeAttribute("aria-describedby");
      preview.remove();
      preview = null;
    }
  }
  function openNote(ref) {
    var id = decodeURIComponent((ref.getAttribute("href") || "").slice(1));
    var note = id ? document.getElementById(id) : null;
    if (!note || (preview && preview.owner === ref)) { clearTimeout(closing); return; }
    closeNote();
    preview = document.createElement("div");
    preview.className = "footnote-preview";
    preview.id = "footnote-preview";
    preview.setAttribute("role", "tooltip");
    preview.owner = ref;
    var copy = note.cloneNode(true);
    copy.querySelectorAll(".footnote-back").forEach(function (n) { n.remove(); });
    copy.querySelectorAll("[id]").forEach(function (n) { n.removeAttribute("id"); });
    while (copy.firstChild) { preview.appendChild(copy.firstChild); }
    preview.addEventListener("mouseenter", function () { clearTimeout(closing); });
    preview.addEventListener("mouseleave", function () { closing = setTimeout(closeNote, 250); });
    document.body.appendChild(preview);
    var box = ref.getBoundingClientRect();
    var left = Math.min(Math.max(8, box.left - 16), window.innerWidth - preview.offsetWidth - 8);
    var below = box.bottom + 6 + preview.offsetHeight < window.innerHeight;
    preview.style.left = (left + window.scrollX) + "px";
    preview.style.top = ((below ? box.bottom + 6 : box.top - 6 - preview.offsetHeight) + window.scrollY) + "px";
    ref.setAttribute("aria-describedby", preview.id);
  }
  function footnoteRefs() {
    document.querySelectorAll("article a.footnote-ref").forEach(function (ref) {
      ref.addEventListener("mouseenter", function () { openNote(ref); });
      ref.addEventListener("focus", function () { openNote(ref); });
      ref.addEventListener("mouseleave", function () { closing = setTimeout(closeNote, 250); });
      ref.addEventListener("blur", closeNote);
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && preview) { closeNote(); }
  });

  /* A code block, table or equation wider than the screen scrolls: the keyboard must
     reach it to scroll it (WCAG 2.1.1), so it joins the tab order while, and only while,
     it overflows. */
  function markScrollable() {
    document.querySelectorAll("article pre, article table, article span.math-display")
      .forEach(function (box) {
        if (box.scrollWidth > box.clientWidth + 1) {
          if (!box.hasAttribute("tabindex")) { box.setAttribute("tabindex", "0"); }
        } else if (box.getAttribute("tabindex") === "0") {
          box.removeAttribute("tabindex");
        }
      });
  }
  window.addEventListener("resize", markScrollable);

  /* What the chapter's text needs, made once here and again each time kobook preview puts
     a new text of the chapter in place without reloading the page (its "kobook:content"
     event): the listeners above, on the page itself, stay. */
  function enhance() {
    copyButtons();
    pageToc();
    tabsets();
    footnoteRefs();
    markScrollable();
  }
  enhance();
  document.addEventListener("kobook:content", function () {
    closeNote();
    enhance();
  });
})();
