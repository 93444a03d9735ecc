// Bankleser's pages: the status page (live), the banker's admin, the virtual device.
// Plain JavaScript, served by the appliance itself: the table has no internet.
"use strict";
const Bank = (() => {
  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const child of children) node.append(child);
    return node;
  };
  let board = null;

  // Every text a person reads comes from the page: the server renders the catalogue's messages in the page's
  // language into <script id="words"> (webui/language.py); the script only fills in their {values}.
  const WORDS = JSON.parse(document.getElementById("words").textContent);
  const t = (key, values = {}) => (WORDS[key] ?? key).replace(/\{(\w+)\}/g, (m, name) => (
    name in values ? String(values[name]) : m));

  // Money as words.money writes it on the pages: "15,025M" and "500K" (banking: a million and more in M, less in
  // K, decimals after the language's decimal sign), elsewhere grouped by thousands with the language's separator
  // ("1,500", "1.500"); the currency where the language puts it ("£1,500", "1.500 €", "4723 Ringe").
  function money(amount) {
    let text;
    if (!board || !board.km) {
      text = (amount < 0 ? "-" : "") + String(Math.abs(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, t("number.group"));
    } else {
      const fmt = (v, unit, s) => (v / unit).toLocaleString("en-US", { maximumFractionDigits: 6, useGrouping: false })
        .replace(".", t("number.decimal")) + s;
      const size = Math.abs(amount);
      text = size >= 1e6 ? fmt(amount, 1e6, "M") : size > 0 ? fmt(amount, 1e3, "K") : "0";
    }
    const unit = board && board.currency;
    if (!unit) return text;
    return /\p{L}/u.test(unit) ? t("reports.money.word", { amount: text, unit })
      : t("reports.money.symbol", { amount: text, unit });
  }

  // "Anna", "Anna und Ben", "Anna, Ben und Cem": as words' list.last says them.
  function names(who) {
    return who.length > 1 ? t("list.last", { head: who.slice(0, -1).join(t("list.separator")), last: who[who.length - 1] })
      : who.join("");
  }

  // A page that follows the appliance's language (no language of its own pinned on this phone) is drawn again in
  // the one the banker chose, as soon as the live state names it.
  function followLanguage(s) {
    const root = document.documentElement;
    if (s.language && s.language !== root.lang && !root.hasAttribute("data-pinned")) window.location.reload();
  }

  // A page without a live stream of its own (the games, a report, the Bestenliste) listens for the language only.
  function follow() {
    const live = new EventSource("/api/events");
    live.addEventListener("state", (ev) => followLanguage(JSON.parse(ev.data)));
  }

  async function loadBoard(edition) {
    if (!edition || (board && board.edition === edition)) return;
    board = await (await fetch(`/api/board?edition=${edition}`)).json();
  }

  function deedList(player) {
    const box = el("div", { class: "deeds" });
    const order = board.group_order;  // grouped by colour in board order, stations and utilities last
    const sorted = [...player.properties].sort((a, b) =>
      order.indexOf(board.squares[a.square].group) - order.indexOf(board.squares[b.square].group) || a.square - b.square);
    for (const p of sorted) {
      const info = board.squares[p.square];
      let marks = p.hotel ? ` ${board.hotel}` : p.houses ? ` ${"⌂".repeat(p.houses)}` : "";
      if (p.mortgaged) marks += t("pages.js.mortgaged");
      box.append(el("span", { class: `deed g-${info.group}${p.mortgaged ? " mortgaged" : ""}`,
                              title: board.groups[info.group] }, info.name + marks));
    }
    return box;
  }

  function renderStatus(s) {
    const problem = $("#problem");
    problem.hidden = !s.problem;
    // one cause per line (a missing part's causes)
    problem.replaceChildren(...(s.problem ? t("pages.js.attention", { problem: s.problem }) : "").split("\n")
      .flatMap((line, i) => (i ? [document.createElement("br"), line] : [line])));
    const scores = $("#scores");
    scores.replaceChildren();
    if (!s.edition) {
      $("#title").textContent = t("pages.js.no_game");
      // No game: a banker's phone starts one on its own page (the new-game form), the device by holding C.
      scores.append(el("p", {}, t("pages.js.no_game_hint")),
                    el("p", {}, el("a", { href: "/admin#newgame" }, t("pages.js.no_game_link"))));
      return;
    }
    // The kind of game and the house rules from their codes, said in this page's language (a phone may read
    // another than the appliance's); a quick game by the edition's own word for it.
    const mode = s.mode === "quick" && board.quick_name ? board.quick_name : t(`pages.mode.${s.mode}`);
    $("#title").textContent = t("pages.js.title", { edition: board.title,
                                                     mode: s.speed_die ? t("pages.js.speed_die", { mode }) : mode });
    const houseRules = $("#houserules");
    const chosen = (s.house_rules || []).map((rule) => t(`pages.house_rule.${rule}`));
    houseRules.hidden = chosen.length === 0;
    houseRules.textContent = chosen.length ? t("pages.js.house_rules", { rules: chosen.join(t("list.separator")) }) +
      (s.pot !== undefined ? t("pages.js.pot", { amount: money(s.pot) }) : "") : "";
    const winner = $("#winner");
    winner.hidden = !s.finished;
    const won = s.winners || [];
    winner.textContent = !s.finished ? ""
      : won.length > 1 ? t("pages.js.tie", { names: names(won) })
      : t("pages.js.wins", { name: won[0] || s.winner || t("pages.js.nobody") });
    const byName = Object.fromEntries(s.players.map((p) => [p.name, p]));
    if (s.mode !== "standard") {  // quick and timed games: the score table is the headline
      const table = el("table", { class: "scores" },
        el("tr", {}, el("th", {}, t("pages.js.rank")), el("th", {}, t("pages.js.player")), el("th", {}, t("pages.js.worth")),
           el("th", {}, t("pages.js.cash"))));
      s.ranking.forEach((name, i) => {
        const p = byName[name];
        table.append(el("tr", {}, el("td", {}, String(i + 1)), el("td", {}, p.bankrupt ? t("pages.js.bankrupt_tag", { name }) : name),
          el("td", { class: "num" }, money(p.net_worth)), el("td", { class: "num" }, money(p.cash))));
      });
      scores.append(el("h2", {}, t("pages.js.score")), table);
    }
    for (const p of s.players) {  // seat order: a booking never moves a player on the page
      const name = p.name;
      const number = s.cards[name] ? t("pages.js.card_number", { number: s.cards[name] }) : "";
      const jail = p.jail_cards ? t("pages.js.jail_cards", { n: p.jail_cards }) : "";
      scores.append(el("div", { class: `player${p.bankrupt ? " out" : ""}`, "data-player": name },
        el("div", { class: "top" }, el("strong", {}, p.bankrupt ? t("pages.js.bankrupt", { name }) : name),
          el("span", { class: "cash" }, money(p.cash))),
        el("div", { class: "meta" }, number + t("pages.js.worth_of", { amount: money(p.net_worth) }) + jail),
        // The 10 % of a bankruptcy not yet paid: the state leaves "debt" out when it is 0.
        ...(p.debt ? [el("div", { class: "debt" }, t("pages.js.debt", { amount: money(p.debt) }))] : []),
        deedList(p)));
    }
    $("#log").replaceChildren(...s.log.slice(0, 12).map((e) => el("li", {}, e.text)));
    // Cached an hour per URL: the page's language is part of it, as the chart's words are (a phone switched to
    // another language at the same version must not keep the old chart).
    $("#chart").src = `/api/chart.svg?v=${s.version}&lang=${document.documentElement.lang}`;
    tick(s);
  }

  let clockTimer = null;
  function tick(s) {
    const clock = $("#clock");
    clearInterval(clockTimer);
    if (s.remaining === undefined || s.remaining === null || s.finished) { clock.hidden = true; return; }
    // The appliance's play clock, counted down from when this state arrived: the phone's own clock
    // never decides the end (the appliance books it and sends the result).
    const received = performance.now();
    const show = () => {
      const left = Math.max(0, Math.round(s.remaining - (performance.now() - received) / 1000));
      const h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, sec = left % 60;
      clock.textContent = t("pages.js.left", { time: `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` });
    };
    clock.hidden = false;
    show();
    clockTimer = setInterval(show, 1000);
  }

  let newest = -1;
  async function apply(s) {
    // States can overtake each other while a board loads: never draw an older one over a newer one.
    if (s.version < newest) return;
    newest = s.version;
    followLanguage(s);
    await loadBoard(s.edition);
    if (s.version === newest) renderStatus(s);
  }

  // Live updates by Server-Sent Events; when the stream drops, poll until it is back.
  function status() {
    let poller = null;
    // Versions start again when the appliance restarts: a new stream connection starts the count anew.
    const poll = async () => { try { await apply(await (await fetch("/api/state")).json()); } catch (e) { /* offline */ } };
    const connect = () => {
      const source = new EventSource("/api/events");
      source.addEventListener("state", (ev) => { $("#live").classList.add("on"); apply(JSON.parse(ev.data)); });
      source.onopen = () => { clearInterval(poller); poller = null; newest = -1; };
      source.onerror = () => {
        $("#live").classList.remove("on");
        if (!poller) poller = setInterval(poll, 3000);
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
      };
    };
    poll();
    connect();
  }

  // The banker's admin ---------------------------------------------------------------------
  let csrf = null;
  // This page's own new session (a login, the first PIN): setting the PIN ends every session, this page's old one
  // too, and the live stream may say so before the answer with the new one has arrived. The stream's "am I still
  // the banker?" waits for that answer, and a "no" about a session this page has since replaced is not news.
  let renewing = Promise.resolve();
  let sessions = 0;
  const renew = (pending) => {
    renewing = pending.then(() => {}, () => {});
    return pending.then((r) => { if (r.ok) sessions += 1; return r; });
  };
  async function post(url, data) {
    let res;
    try {
      res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" },
                               body: JSON.stringify(data) });
    } catch (e) {  // the answer never came: the booking may have been made; the same id makes a retry safe
      return { ok: false, lost: true, message: t("pages.js.offline") };
    }
    let body = {};
    try { body = await res.json(); } catch (e) { body = { ok: false, message: res.statusText }; }
    return body;
  }
  const say = (text) => { $("#msg").textContent = text; };

  // Exactly once, by the form. Each form has its id from the moment it is shown, kept in this tab for that form
  // (across a double tap, Back, a reload, a lost answer, however much was booked meanwhile): the same booking sent
  // from it again is answered as a repeat. A different booking from the same form is a new one, with a new id; the
  // same booking meant once more is asked for clearly ("Noch einmal buchen") and gets a new id then.
  let newestSeq = null;  // the log's newest entry, as the live state last said
  const newId = () => "web-" + Array.from(crypto.getRandomValues(new Uint8Array(12)),
                                           (b) => b.toString(16).padStart(2, "0")).join("");
  const store = (name) => {
    try { return JSON.parse(sessionStorage.getItem(name) || "{}"); } catch (e) { return {}; }
  };
  const keep = (name, map) => {
    const keys = Object.keys(map);
    for (const k of keys.slice(0, Math.max(0, keys.length - 50))) delete map[k];
    try { sessionStorage.setItem(name, JSON.stringify(map)); } catch (e) { /* private mode: this page only */ }
  };
  // What a booking is, without what only confirms it (the preview's digest) or names it (its id).
  const what = (cmd) => JSON.stringify(Object.fromEntries(Object.entries(cmd).filter(([k]) => k !== "expect" && k !== "id")));
  const FORMS = "bank.forms";
  // The form's id for ``cmd``: its own while it books that; a new one for another booking, or when asked ``again``.
  function idFor(form, cmd, { again = false } = {}) {
    const forms = store(FORMS);
    const rec = forms[form];
    if (!again && rec && (rec.what === what(cmd) || rec.what === null)) {
      if (rec.what === null) { rec.what = what(cmd); keep(FORMS, forms); }
      return rec.id;
    }
    forms[form] = { id: newId(), what: what(cmd) };
    keep(FORMS, forms);
    return forms[form].id;
  }
  // A form shown gets its id at once (a reload of it finds the one it had).
  function shown(form) {
    const forms = store(FORMS);
    if (!forms[form]) { forms[form] = { id: newId(), what: null }; keep(FORMS, forms); }
  }
  // A booking meant again each time (a new game): its id only guards a double tap and a lost answer.
  function forget(form) { const forms = store(FORMS); delete forms[form]; keep(FORMS, forms); }

  // Requests in flight and the last touch on the forms: no form is redrawn under a pending tap.
  let inFlight = 0, lastTouch = 0, lastInput = 0;
  const QUIET_MS = 700;
  document.addEventListener("pointerdown", () => { lastTouch = Date.now(); }, true);
  function whenQuiet(fn) {
    const wait = Math.max(inFlight ? 150 : 0, lastTouch + QUIET_MS - Date.now());
    if (wait > 0) { setTimeout(() => whenQuiet(fn), wait); return; }
    fn();
  }
  // A button drawn in answer to a tap takes taps only once that tap's fingers are off it (a double tap's second
  // tap never lands on what the first one's answer drew).
  function armed(button) {
    button.disabled = true;
    setTimeout(() => { button.disabled = false; }, QUIET_MS);
    return button;
  }

  // The button is held while the answer is awaited: a second tap meets a disabled button, and the page says so.
  async function held(button, work) {
    if (button.disabled) return;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    inFlight += 1;
    try { await work(); } finally { inFlight -= 1; button.disabled = false; button.removeAttribute("aria-busy"); }
  }

  // One booking, with the id of the form it comes from; the answer (and the balances it changed) goes to the live
  // region beside the button, in place of anything there.
  async function book(cmd, region, opts = {}) {
    const form = opts.form || "raw";
    const id = opts.id || idFor(form, cmd);
    region.replaceChildren(t("pages.js.sending"));
    region.setAttribute("aria-busy", "true");
    const answer = await post("/api/banker/book", { ...cmd, id });
    if (answer.ok && answer.edition) await loadBoard(answer.edition);  // the balances in their own game's money
    region.removeAttribute("aria-busy");
    showAnswer(region, answer, cmd, { ...opts, form });
    return answer;
  }

  // "Noch einmal buchen": the same booking once more is a new form with a new id, asked for clearly; its answer
  // replaces the question, so a second tap finds nothing to book.
  function askAgain(region, cmd, opts) {
    const id = idFor(opts.form, cmd, { again: true });
    const yes = armed(el("button", { type: "button", "data-again-yes": "" }, t("pages.js.again_yes")));
    const no = el("button", { type: "button", "data-cancel": "" }, t("pages.js.cancel"));
    const question = el("p", { class: "ask", tabindex: "-1" },
                        t("pages.js.again_ask", { text: opts.text || what(cmd) }));
    region.replaceChildren(question, yes, no);
    question.focus({ preventScroll: true });
    no.scrollIntoView({ block: "nearest" });
    no.onclick = () => region.replaceChildren();
    yes.onclick = () => held(yes, async () => {
      const r = await book(cmd, region, { ...opts, id });
      if (opts.after) opts.after(r);
    });
  }

  function showAnswer(region, r, cmd, opts = {}) {
    region.replaceChildren();
    if (r.ok && r.duplicate) {
      region.append(t("pages.js.duplicate"));
      const again = el("button", { type: "button", "data-again": "" }, t("pages.js.again"));
      again.onclick = () => askAgain(region, cmd, opts);
      region.append(again);
      return;
    }
    if (r.ok) {
      const moved = Object.entries(r.balances || {}).map(([name, cash]) => `${name}: ${money(cash)}`).join(" · ");
      region.append(t("pages.js.booked", { text: r.text }), ...(moved ? [el("br"), moved] : []));
      return;
    }
    region.append(r.lost ? r.message : t("pages.js.refused", { message: r.message }));
  }

  async function refreshDoctor() {
    const checks = await (await fetch("/api/admin/doctor")).json();
    $("#doctor").replaceChildren(...checks.map((c) => el("li", {}, `${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`
                                                             + (c.fix ? ` – ${c.fix}` : ""))));
  }

  async function refreshAdmin() {
    refreshDoctor();
    $("#run-doctor").onclick = refreshDoctor;
    refreshForms();
    const cards = (await (await fetch("/api/admin/cards")).json()).filter((c) => c.kind === "player");
    const players = $("#players");
    players.replaceChildren(el("legend", {}, t("pages.js.players_legend")));
    const table = $("#cards");
    table.replaceChildren(el("tr", {}, el("th", {}, t("pages.js.card")), el("th", {}, t("pages.js.name"))));
    for (const card of cards) {
      players.append(el("label", { class: "check" }, el("input", { type: "checkbox", value: card.name, name: "player" }),
                        ` ${card.number}: ${card.name}`));
      // No maxlength: a name too long is refused with its limit, not cut without a word.
      const input = el("input", { value: card.name, "aria-label": t("pages.js.rename_label", { number: card.number }),
                                  autocomplete: "off" });
      const save = el("button", { type: "button" }, t("pages.js.rename"));
      save.onclick = () => held(save, async () => {
        const r = await post(`/api/cards/${card.uid}/name`, { name: input.value });
        $("#cards-msg").textContent = r.ok ? t("pages.js.name_saved") : r.message;
        if (r.ok) refreshAdmin();
      });
      table.append(el("tr", {}, el("td", {}, String(card.number)), el("td", { class: "rename" }, input, save)));
    }
  }

  // "Anna: 1, 3, 39" a line → {"Anna": [1, 3, 39]}; null when a line is not of that form (the rules check the rest).
  function parseDeal(text) {
    const deal = {};
    for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
      const m = line.match(/^([^:]+):\s*([\d\s,]*)$/);
      if (!m) return null;
      deal[m[1].trim()] = m[2].split(",").map((v) => v.trim()).filter(Boolean).map(Number);
    }
    return deal;
  }

  // A phone's keyboard writes “ ” „ ‘ ’ where JSON needs ": read as meant when the text is no JSON as it stands.
  function parseCommand(text) {
    try { return JSON.parse(text); } catch (e) { /* try the typographic quotes */ }
    try { return JSON.parse(text.replace(/[“”„‟″‘’‚‛′«»]/g, '"')); } catch (e) { return undefined; }
  }

  // The booking forms: generated from the rules' legal options, as the device's menus --------------
  const LISTS = new Set(["a_gives.squares", "b_gives.squares", "lift"]);

  function fieldControl(f, data, form) {
    if (f.kind === "select") {
      const select = el("select", { name: f.name });
      for (const o of f.options) {
        select.append(el("option", { value: String(o.value), ...(o.flags ? { "data-flags": o.flags.join(" ") } : {}) },
                         o.label));
      }
      return el("label", {}, `${f.label} `, select);
    }
    if (f.kind === "money" || f.kind === "number") {
      const km = f.kind === "money" && data.km;
      const id = `f-${form.dataset.op}-${f.name.replace(".", "-")}`;
      const input = el("input", { id, name: f.name, inputmode: km ? "decimal" : "numeric", autocomplete: "off",
                                  enterkeyhint: "done", ...(km ? { placeholder: t("pages.js.amount_example") } : {}) });
      const row = el("span", { class: "amount" }, input);
      if (km) {  // the device's K and M keys: the phone's number pad has no letters
        for (const unit of ["K", "M"]) {
          const b = el("button", { type: "button", class: "unit", "aria-label": t("pages.js.unit_label", { field: f.label, unit }) }, unit);
          b.onclick = () => { input.value = input.value.replace(/[KM]$/i, "") + unit; input.focus(); };
          row.append(b);
        }
      }
      return el("div", { class: "field" }, el("label", { for: id }, f.label), row);
    }
    if (f.kind === "check") {
      return el("label", { class: "check" }, el("input", { type: "checkbox", name: f.name, value: "1" }), ` ${f.label}`);
    }
    const box = el("fieldset", {}, el("legend", {}, f.label));  // multi
    for (const o of f.options) {
      box.append(el("label", { class: "check", ...(o.owner ? { "data-owner": o.owner } : {}) },
                    el("input", { type: "checkbox", name: f.name, value: String(o.value) }), ` ${o.label}`));
    }
    return box;
  }

  // Fields shown only for some choices: the throw for a utility, the hotel's "back into houses", the partner's deeds.
  function updateShown(form, data) {
    for (const wrap of form.querySelectorAll("[data-when]")) {
      const [name, flag] = wrap.dataset.when.split(" ");
      const chosen = form.elements[name] && form.elements[name].selectedOptions
        ? form.elements[name].selectedOptions[0] : null;
      const on = !!chosen && (chosen.dataset.flags || "").split(" ").includes(flag);
      wrap.hidden = !on;
      wrap.querySelectorAll("input, select").forEach((c) => { c.disabled = !on; });
    }
    const partner = form.elements.b ? form.elements.b.value : null;
    if (partner === null) return;
    for (const label of form.querySelectorAll("[data-owner]")) {
      const on = label.dataset.owner === data.player || label.dataset.owner === partner;
      label.hidden = !on;
      label.querySelector("input").disabled = !on;
    }
  }

  function collect(form, spec) {
    const raw = { op: spec.op };
    const data = new FormData(form);
    for (const key of new Set(data.keys())) raw[key] = LISTS.has(key) ? data.getAll(key) : data.get(key);
    return raw;
  }

  function bookingForm(spec, data) {
    const form = el("form", { "data-op": spec.op, novalidate: "" });
    const key = `${data.player}|${spec.op}`;  // this form's id is kept in the tab under this name
    shown(key);
    // The player chosen first, under the command's own field (``player``, a transfer's ``from``, a trade's ``a``).
    form.append(el("select", { name: spec.who, hidden: "" }, el("option", { value: data.player }, data.player)));
    for (const f of spec.fields) {
      const control = fieldControl(f, data, form);
      if (f.when) control.dataset.when = f.when.join(" ");
      form.append(control);
    }
    const submit = el("button", { class: "submit" }, spec.confirm ? t("pages.js.next") : t("pages.js.book"));
    const preview = el("div", { class: "preview", role: "status", "aria-live": "polite" });
    const answer = el("p", { class: "answer", role: "status", "aria-live": "polite" });
    form.append(submit, preview, answer);
    form.addEventListener("change", () => { updateShown(form, data); preview.replaceChildren(); });
    const text = { value: "" };
    const done = (r) => { if (!r.lost && r.code !== "changed") { preview.replaceChildren(); refreshForms(spec.op, answer); } };
    // The rules' preview, and the confirmation it asks for (as the device's OK); ``changed``: the state moved
    // under the one shown, and the rules' new preview takes its place, to be confirmed afresh.
    const confirmation = (p, changed) => {
      text.value = p.text;
      const ok = el("button", { type: "button", "data-confirm": "" }, t("pages.js.book"));
      const no = el("button", { type: "button" }, t("pages.js.cancel"));
      no.onclick = () => preview.replaceChildren();
      ok.onclick = () => held(ok, async () => {
        const r = await book(p.command, answer, { form: key, text: text.value, after: done });
        if (r.code === "changed" && r.preview && r.preview.ok) confirmation(r.preview, true);
        else if (r.code === "changed") preview.replaceChildren();
        done(r);
      });
      const says = el("p", { class: "says", tabindex: "-1" }, ...(changed ? [t("pages.js.changed"), el("br")] : []),
                      p.text, ...(p.note ? [el("br"), p.note] : []));
      preview.replaceChildren(says, changed ? armed(ok) : ok, no);
      if (changed) answer.replaceChildren();
      says.focus({ preventScroll: true });  // read out; the thumb's way to its buttons in view
      no.scrollIntoView({ block: "nearest" });
    };
    form.onsubmit = (ev) => {
      ev.preventDefault();
      held(submit, async () => {
        preview.replaceChildren();
        answer.replaceChildren(t("pages.js.sending"));
        // A form booked at once says which choices it showed: changed since, it books nothing.
        const p = await post("/api/banker/preview", { ...collect(form, spec), ...(spec.confirm ? {} : { form: spec.version }) });
        if (!p.ok) { showAnswer(answer, p); if (p.code === "changed") refreshForms(spec.op, answer); return; }
        answer.replaceChildren();
        // A lost answer keeps the confirmation: tapped again, it sends the same id (one booking).
        if (!p.confirm) { done(await book(p.command, answer, { form: key, text: p.text, after: done })); return; }
        confirmation(p, false);
      });
    };
    updateShown(form, data);
    return form;
  }

  // The forms as the rules open them now for the chosen player; an answer just given stays beside its button.
  // Drawn only once nothing is in flight and no finger was on the page for a moment: never under a pending tap.
  // Not at all when the banker began another booking meanwhile (what they typed stays; a stale form is caught by
  // the rules: a preview is of the state now, a one-step form says which choices it showed); ``force``: a new player.
  // An answer overtaken by a newer question is never drawn.
  let asked = 0;
  function refreshForms(keepOpen, answer, { force = false } = {}) {
    const since = Date.now();
    return new Promise((resolve) => whenQuiet(async () => {
      const open = document.querySelector("#forms .preview button, #forms .answer button");  // a question asked
      if (!force && (lastInput > since || open)) { resolve(); return; }
      const mine = ++asked;
      const ask = async (player) => (await fetch(`/api/banker/legal?player=${encodeURIComponent(player)}`)).json();
      let data = await ask($("#book-player").value || "");
      if (!data.player && data.players && data.players.length) data = await ask(data.players[0]);  // player first
      // Typed while the answer was on its way, or overtaken: what the banker typed stays, the newer answer wins.
      if (mine !== asked || (!force && lastInput > since)) { resolve(); return; }
      render(data, keepOpen, answer);
      resolve();
    }));
  }

  let formsTouched = false;  // something typed or chosen in a form: a booking elsewhere does not redraw it
  let drawnFor = null;  // the player whose forms are drawn: an answer stays with the player it belongs to
  function render(data, keepOpen, answer) {
    formsTouched = false;
    const forms = $("#forms");
    forms.inert = false;
    forms.removeAttribute("aria-busy");
    const samePlayer = drawnFor === data.player;
    drawnFor = data.player;
    const select = $("#book-player");
    select.replaceChildren(...(data.players || []).map((n) => el("option", { value: n }, n)));
    if (data.player) select.value = data.player;
    $("#book-msg").textContent = data.message || (data.forms && data.forms.length ? "" : t("pages.js.nothing_to_book"));
    const before = [...document.querySelectorAll("#forms details.booking")];
    const typed = samePlayer ? [] : before.map((d) => d.querySelector("form")).filter(Boolean)
      .map((f) => ({ op: f.dataset.op, values: typedIn(f) })).filter((f) => f.values.length);
    const open = keepOpen || before.filter((d) => d.open).map((d) => d.dataset.op)[0];
    if (!answer && samePlayer) {  // redrawn for a booking made elsewhere: the open form's last answer stays
      const shown = before.find((d) => d.open && d.dataset.op === open);
      answer = shown ? shown.querySelector(".answer") : null;
    }
    const boxes = (data.forms || []).map((spec) => {
      const box = el("details", { class: "booking", "data-op": spec.op }, el("summary", {}, spec.label),
                     bookingForm(spec, data));
      if (spec.op === open) {
        box.open = true;
        if (answer) box.querySelector(".answer").replaceChildren(...answer.childNodes);
      }
      return box;
    });
    // A booking that closed its own form (the pot taken, the last card used): its answer stays where it was.
    const gone = before.findIndex((d) => d.dataset.op === keepOpen);
    if (answer && gone >= 0 && !boxes.some((b) => b.dataset.op === keepOpen)) {
      boxes.splice(Math.min(gone, boxes.length), 0, el("details", { class: "booking", "data-op": keepOpen, open: "" },
        before[gone].querySelector("summary").cloneNode(true),
        el("p", { class: "answer", role: "status", "aria-live": "polite" }, ...answer.childNodes)));
    }
    $("#forms").replaceChildren(...boxes);
    if (!samePlayer && typed.length) carry(typed, data);
  }

  // What the banker typed or chose in a form: its controls' names and values, the player's own (hidden) aside.
  function typedIn(form) {
    const found = [];
    for (const c of form.elements) {
      if (!c.name || c.hidden || c.disabled) continue;
      if (c.type === "checkbox") { if (c.checked) found.push({ name: c.name, value: c.value, check: true }); }
      else if (c.tagName === "SELECT") { if (c.selectedIndex > 0) found.push({ name: c.name, value: c.value }); }
      else if (c.value.trim()) found.push({ name: c.name, value: c.value });
    }
    return found;
  }

  // A player switch: what was typed goes into the new player's same form where that form and the choice exist
  // (an amount typed before the right player was picked); whatever has no place there is dropped, and said so.
  function carry(typed, data) {
    let dropped = false, kept = false;
    for (const { op, values } of typed) {
      const form = document.querySelector(`#forms form[data-op="${op}"]`);
      let here = false;
      for (const v of values) {
        const c = !form ? null : v.check ? [...form.querySelectorAll("input[type=checkbox]")]
          .find((i) => i.name === v.name && i.value === v.value) : form.elements[v.name];
        const fits = c && !(c instanceof RadioNodeList) && (c.tagName !== "SELECT"
          || [...c.options].some((o) => o.value === v.value));
        if (!fits) { dropped = true; continue; }
        if (v.check) c.checked = true; else c.value = v.value;
        kept = here = true;
      }
      if (here) form.dispatchEvent(new Event("change", { bubbles: true }));  // its dependent fields follow
    }
    if (kept) formsTouched = true;
    if (dropped) $("#book-msg").textContent = [data.dropped, $("#book-msg").textContent].filter(Boolean).join(" ");
  }

  // The live stream: the newest booking (for the ids above), and a logout on any phone ends this page's admin too.
  function watch(show) {
    let epoch = null;
    const seen = async (s) => {
      followLanguage(s);
      const seq = s.log && s.log.length ? s.log[0].seq : null;
      // Booked elsewhere (the device, another phone): the forms follow what the rules now open, unless the
      // banker is filling one in here.
      const redraw = seq !== newestSeq && newestSeq !== null && !formsTouched && !$("#admin").hidden
        && !document.querySelector("#forms .preview button") && !document.activeElement.matches("#forms input, #forms select, #forms textarea");
      newestSeq = seq;
      if (redraw) refreshForms();
      if ($("#end")) $("#end").hidden = !(s.mode === "timed" && !s.finished);  // only a timed game ends early
      await loadBoard(s.edition);
      if (epoch !== null && s.session_epoch !== epoch) {
        await renewing;
        const asked = sessions;
        const session = await (await fetch("/api/session")).json();
        if (!session.banker && asked === sessions) {
          csrf = null;
          show(false);
          $("#login-msg").textContent = t("pages.js.logged_out");
        }
      }
      epoch = s.session_epoch;
    };
    fetch("/api/state").then((r) => r.json()).then(seen).catch(() => {});
    const source = new EventSource("/api/events");
    source.addEventListener("state", (ev) => seen(JSON.parse(ev.data)));
  }

  function admin() {
    // Logged in with the device's one-time code: only the form that sets the PIN until there is one.
    const pinFirst = (on) => { $("#set-pin").hidden = !on; $("#code-login").hidden = true; $("#login").hidden = on; };
    const show = (on) => {
      $("#login").hidden = on; $("#admin").hidden = !on; $("#set-pin").hidden = true;
      if (on) { $("#code-login").hidden = true; refreshAdmin(); }
    };
    fetch("/api/session").then((r) => r.json()).then((s) => {
      csrf = s.csrf;
      if (s.banker && s.pin_first) pinFirst(true); else show(s.banker);
    });
    watch(show);
    $("#login").onsubmit = async (ev) => {
      ev.preventDefault();
      // The phone's clock goes along: a Pi without network has none it can trust for the reports' times.
      const r = await renew(post("/api/login", { pin: $("#pin").value, now: Date.now() }));
      if (r.ok) {
        csrf = r.csrf; show(true); $("#login-msg").textContent = "";
        $("#clock-msg").textContent = t("pages.js.report_clock", { clock: r.clock });
      } else $("#login-msg").textContent = r.message;
    };
    $("#code-login").onsubmit = async (ev) => {
      ev.preventDefault();
      const r = await renew(post("/api/login", { code: $("#code").value.trim(), now: Date.now() }));
      $("#code").value = "";  // it works once either way
      if (r.ok) { csrf = r.csrf; pinFirst(true); $("#new-pin").focus(); }
      else $("#code-login .msg").textContent = r.message;
    };
    $("#set-pin").onsubmit = async (ev) => {
      ev.preventDefault();
      const r = await renew(post("/api/pin", { pin: $("#new-pin").value }));
      if (r.ok) { csrf = r.csrf; $("#new-pin").value = ""; show(true); }
      else $("#set-pin .msg").textContent = r.message;
    };
    $("#logout").onclick = async () => { await post("/api/logout", {}); csrf = null; show(false); };
    // Another player: the forms shown are the previous player's until the new ones come, so none takes a tap;
    // the same player chosen again draws nothing (what was typed stays).
    $("#book-player").onchange = () => {
      if ($("#book-player").value === drawnFor) return;
      const forms = $("#forms");
      forms.inert = true;
      forms.setAttribute("aria-busy", "true");
      refreshForms(undefined, undefined, { force: true });
    };
    for (const kind of ["input", "change"]) {
      $("#forms").addEventListener(kind, () => { formsTouched = true; lastInput = Date.now(); });
    }
    const gameAnswer = $("#game .answer");
    const ask = $("#undo-ask");
    // Storno asks first and names the booking it takes back; the undo names it too, so two taps undo one.
    $("#undo").onclick = () => held($("#undo"), async () => {
      const last = await (await fetch("/api/banker/undo")).json();
      if (last.number === null) { ask.hidden = true; gameAnswer.textContent = t("pages.js.nothing_to_undo"); return; }
      ask.querySelector("p").textContent = t("pages.js.undo_of", { text: last.text });
      ask.dataset.of = last.number;
      ask.hidden = false;
      gameAnswer.textContent = "";
      ask.querySelector("p").focus();  // the question is read out, and a thumb finds its answer below it
    });
    // The question answered, its buttons hide under the thumb: the focus goes back to "Storno …", not to <body>
    // (a screen reader keeps its place; the answer beside it is read out as a live region).
    const closeAsk = () => { ask.hidden = true; $("#undo").focus({ preventScroll: true }); };
    ask.querySelector("[data-cancel]").onclick = closeAsk;
    const confirmUndo = ask.querySelector("[data-confirm]");
    confirmUndo.onclick = () => held(confirmUndo, async () => {
      await book({ op: "undo", of: Number(ask.dataset.of) }, gameAnswer, { form: "undo" });
      closeAsk();
      refreshForms();
    });
    $("#end").onclick = () => held($("#end"), async () => { await book({ op: "end" }, gameAnswer, { form: "end" }); refreshForms(); });
    // The minutes only for a timed game: a standard game has none to ask for.
    const timed = () => { $("#minutes-label").hidden = $("#mode").value !== "timed"; };
    $("#mode").addEventListener("change", timed);
    timed();
    const raw = $("#raw");
    raw.onsubmit = (ev) => {
      ev.preventDefault();
      const region = raw.querySelector(".answer");
      held(raw.querySelector("button"), async () => {
        const cmd = parseCommand($("#cmd").value);
        if (cmd === undefined || cmd === null || typeof cmd !== "object" || Array.isArray(cmd)) {
          region.textContent = t("pages.js.bad_json");
          return;
        }
        await book(cmd, region, { form: "raw", after: () => refreshForms() });
        refreshForms();
      });
    };
    $("#newgame").onsubmit = (ev) => {
      ev.preventDefault();
      const button = $("#newgame button");
      const players = [...document.querySelectorAll("input[name=player]:checked")].map((b) => b.value);
      const cmd = { op: "new_game", edition: $("#edition").value, mode: $("#mode").value, players };
      if (cmd.mode === "timed") cmd.minutes = Number($("#minutes").value);
      if (cmd.mode === "quick") {
        const deal = parseDeal($("#deal").value);
        if (deal === null) { say(t("pages.js.deal_form")); return; }
        if (Object.keys(deal).length) cmd.deal = deal;
        else cmd.seed = $("#seed").value === "" ? Math.floor(Math.random() * 2 ** 31) : Number($("#seed").value);
      }
      if ($("#speed").checked) cmd.speed_die = true;
      const rules = [...document.querySelectorAll("input[name=house_rule]:checked")].map((b) => b.value);
      if (rules.length) cmd.house_rules = rules;
      held(button, async () => {
        // A new game is meant each time it is asked for (a running one is replaced only when the banker says so):
        // its id guards a double tap and a lost answer, not a second game asked for on purpose.
        const send = async (c) => {
          const r = await post("/api/banker/book", { ...c, id: idFor("new_game", c) });
          if (!r.lost) forget("new_game");
          return r;
        };
        let r = await send(cmd);
        if (!r.ok && r.code === "game_running" &&
            window.confirm(t("pages.js.replace_game"))) {
          r = await send({ ...cmd, replace: true });
        }
        say(r.ok ? t("pages.js.done") : r.lost ? r.message : t("pages.js.refused", { message: r.message }));
        refreshForms();
      });
    };
    // The appliance's language: the OLED at once, and every open page that follows it reloads in it
    // when the live state names it (this one too).
    $("#language-form").onsubmit = (ev) => {
      ev.preventDefault();
      const region = $("#language-form .answer");
      held($("#language-form button"), async () => {
        const r = await post("/api/admin/language", { language: $("#language").value });
        region.textContent = r.ok ? t("pages.js.language_saved") : r.lost ? r.message : t("pages.js.refused", { message: r.message });
      });
    };
    $("#register").onsubmit = (ev) => {
      ev.preventDefault();
      held($("#register button"), async () => {
        const kind = $("#kind").value;
        const data = { uid: $("#uid").value.trim().toLowerCase(), kind };
        if (kind === "deed") data.square = Number($("#square").value);
        const r = await post("/api/cards", data);
        $("#cards-msg").textContent = r.ok ? t("pages.js.card_learned") : r.message;
        refreshAdmin();
      });
    };
  }

  // The virtual device ---------------------------------------------------------------------
  function device() {
    let sent = Promise.resolve();  // one press after the other: the device handles them in the order pressed
    const press = (url, data) => (sent = sent.then(() => fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) })).catch(() => {}));
    document.querySelectorAll("[data-key]").forEach((b) => { b.onclick = () => press("/api/sim/key", { key: b.dataset.key }); });
    const tap = (b) => { b.onclick = () => press("/api/sim/tap", { uid: b.dataset.uid }); return b; };
    document.querySelectorAll("[data-uid]").forEach(tap);
    const button = (kind, uid, label, square) => {
      const b = document.createElement("button");
      b.className = `tap ${kind}`;
      b.dataset.uid = uid;
      if (square !== undefined) b.dataset.square = square;
      b.textContent = label;
      return tap(b);
    };
    // Every card the device knows, the six and those learned since, the deeds as the running game names them.
    const cards = (c) => {
      $("#players").replaceChildren(...Object.entries(c.players).map(([uid, name], i) => button("player", uid, `${i + 1} ${name}`)));
      $("#deeds").replaceChildren(...Object.entries(c.deeds).sort((a, b) => a[1] - b[1])
        .map(([uid, sq]) => button("deed", uid, `${sq} ${c.names[sq]}`, sq)));
    };
    // The buzzer's tunes in words (a refusal's low tone must be perceived), and the status LED.
    const TONES = new Set(["refused", "done", "card", "new_game", "end", "key"]);
    const toneWords = (tone) => (TONES.has(tone) ? t(`pages.js.tone.${tone}`) : tone);
    let tones = null, faded = 0;
    const signals = (frame) => {
      if (tones !== null && frame.tones > tones) {
        const tone = $("#tone");
        tone.textContent = t("pages.js.tone", { tone: toneWords(frame.tone) });
        tone.className = `tone fresh ${frame.tone}`;
        clearTimeout(faded);
        faded = setTimeout(() => tone.classList.remove("fresh"), 1500);
      }
      tones = frame.tones;
      $("#led").classList.toggle("on", !!frame.led);
      $("#led").setAttribute("aria-label", frame.led ? t("pages.js.led_on") : t("pages.js.led_off"));
    };
    // The deed buttons name the squares as the running game's edition does (a new game of another edition, a
    // family's own, relabels them without a reload): looked at half a second after the screen changes.
    let edition = null, timer = null;
    const relabel = async () => {
      const s = await (await fetch("/api/state")).json();
      followLanguage(s);
      if (!s.edition || s.edition === edition) return;
      const board = await (await fetch(`/api/board?edition=${encodeURIComponent(s.edition)}`)).json();
      edition = s.edition;
      document.querySelectorAll("button.deed[data-square]").forEach((b) => {
        b.textContent = `${b.dataset.square} ${board.all_squares[Number(b.dataset.square)]}`;
      });
    };
    follow();  // the banker's choice of language, even with the screen unchanged
    const frames = new EventSource("/api/sim/events");
    frames.onmessage = (ev) => {
      if (!timer) timer = setTimeout(() => { timer = null; relabel().catch(() => {}); }, 500);
      const frame = JSON.parse(ev.data);
      $("#oled").src = `/api/sim/display.png?seq=${frame.seq}`;
      $("#oled-text").textContent = frame.text;
      $("#oled").dataset.seq = frame.seq;
      if (frame.tones !== undefined) signals(frame);
      if (frame.cards) cards(frame.cards);
    };
  }

  return { status, admin, device, follow };
})();
