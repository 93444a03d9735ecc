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

  // Money in the edition's notation, as rules.format_money writes it: "15,025M" and "500K" (banking), "1500"
  // elsewhere: a million and more in M, less in K, decimals after a comma, no thousands separator.
  function money(amount) {
    if (!board || !board.km) return `${amount}${board && board.currency ? " " + board.currency : ""}`;
    const fmt = (v, unit, s) => (v / unit).toLocaleString("de-DE", { maximumFractionDigits: 6, useGrouping: false }) + s;
    const size = Math.abs(amount);
    const text = size >= 1e6 ? fmt(amount, 1e6, "M") : size > 0 ? fmt(amount, 1e3, "K") : "0";
    return `${text} €`;
  }

  // "Anna", "Anna und Ben", "Anna, Ben und Cem": as webui.games.names writes them.
  function names(who) {
    return who.length > 1 ? `${who.slice(0, -1).join(", ")} und ${who[who.length - 1]}` : who.join("");
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
      if (p.mortgaged) marks += " (Hypothek)";
      box.append(el("span", { class: `deed g-${info.group}${p.mortgaged ? " mortgaged" : ""}`,
                              title: board.groups[info.group] }, info.name + marks));
    }
    return box;
  }

  function renderStatus(s) {
    const problem = $("#problem");
    problem.hidden = !s.problem;
    // one cause per line (a missing part's causes, issue 30)
    problem.replaceChildren(...(s.problem ? `Achtung: ${s.problem}` : "").split("\n")
      .flatMap((line, i) => (i ? [document.createElement("br"), line] : [line])));
    const scores = $("#scores");
    scores.replaceChildren();
    if (!s.edition) {
      $("#title").textContent = "Bankleser: kein Spiel";
      scores.append(el("p", {}, "Noch kein Spiel. Am Gerät C gedrückt halten, um eines zu starten."));
      return;
    }
    $("#title").textContent = `${board.title} · ${s.mode_title}`;
    const houseRules = $("#houserules");
    const chosen = s.house_rule_titles || [];
    houseRules.hidden = chosen.length === 0;
    houseRules.textContent = chosen.length ? `Hausregeln: ${chosen.join(", ")}` +
      (s.pot !== undefined ? ` · Topf: ${money(s.pot)}` : "") : "";
    const winner = $("#winner");
    winner.hidden = !s.finished;
    const won = s.winners || [];
    winner.textContent = !s.finished ? ""
      : won.length > 1 ? `Spielende – Gleichstand: ${names(won)} gewinnen gemeinsam!`
      : `Spielende – ${won[0] || s.winner || "niemand"} gewinnt!`;
    const byName = Object.fromEntries(s.players.map((p) => [p.name, p]));
    if (s.mode !== "standard") {  // quick and timed games: the score table is the headline
      const table = el("table", { class: "scores" },
        el("tr", {}, el("th", {}, "#"), el("th", {}, "Spieler"), el("th", {}, "Vermögen"), el("th", {}, "Bargeld")));
      s.ranking.forEach((name, i) => {
        const p = byName[name];
        table.append(el("tr", {}, el("td", {}, String(i + 1)), el("td", {}, name + (p.bankrupt ? " (bankrott)" : "")),
          el("td", { class: "num" }, money(p.net_worth)), el("td", { class: "num" }, money(p.cash))));
      });
      scores.append(el("h2", {}, "Punktestand"), table);
    }
    for (const p of s.players) {  // seat order: a booking never moves a player on the page
      const name = p.name;
      const number = s.cards[name] ? `Karte ${s.cards[name]} · ` : "";
      const jail = p.jail_cards ? ` · Gefängnis frei: ${p.jail_cards}` : "";
      scores.append(el("div", { class: `player${p.bankrupt ? " out" : ""}`, "data-player": name },
        el("div", { class: "top" }, el("strong", {}, name + (p.bankrupt ? " – bankrott" : "")),
          el("span", { class: "cash" }, money(p.cash))),
        el("div", { class: "meta" }, `${number}Vermögen ${money(p.net_worth)}${jail}`),
        // The 10 % of a bankruptcy not yet paid (issue 19): the state leaves "debt" out when it is 0.
        ...(p.debt ? [el("div", { class: "debt" }, `Schuld bei der Bank: ${money(p.debt)}`)] : []),
        deedList(p)));
    }
    $("#log").replaceChildren(...s.log.slice(0, 12).map((e) => el("li", {}, e.text)));
    $("#chart").src = `/api/chart.svg?v=${s.version}`;
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
      clock.textContent = `Noch ${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
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
  async function post(url, data) {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" },
                                   body: JSON.stringify(data) });
    let body = {};
    try { body = await res.json(); } catch (e) { body = { ok: false, message: res.statusText }; }
    return body;
  }
  const say = (text) => { $("#msg").textContent = text; };

  async function refreshDoctor() {
    const checks = await (await fetch("/api/admin/doctor")).json();
    $("#doctor").replaceChildren(...checks.map((c) => el("li", {}, `${c.ok ? "✓" : "✗"} ${c.name}: ${c.detail}`
                                                             + (c.fix ? ` – ${c.fix}` : ""))));
  }

  async function refreshAdmin() {
    refreshDoctor();
    $("#run-doctor").onclick = refreshDoctor;
    const cards = (await (await fetch("/api/admin/cards")).json()).filter((c) => c.kind === "player");
    const players = $("#players");
    players.replaceChildren(el("legend", {}, "Spieler (Karten)"));
    const table = $("#cards");
    table.replaceChildren(el("tr", {}, el("th", {}, "Karte"), el("th", {}, "Name")));
    for (const card of cards) {
      players.append(el("label", {}, el("input", { type: "checkbox", value: card.name, name: "player" }),
                        ` ${card.number}: ${card.name}`));
      const input = el("input", { value: card.name, maxlength: "12", "aria-label": `Name Karte ${card.number}` });
      const save = el("button", { type: "button" }, "Umbenennen");
      save.onclick = async () => {
        const r = await post(`/api/cards/${card.uid}/name`, { name: input.value });
        say(r.ok ? "Name gespeichert" : r.message);
        refreshAdmin();
      };
      table.append(el("tr", {}, el("td", {}, String(card.number)), el("td", {}, input, save)));
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

  function admin() {
    const show = (on) => { $("#login").hidden = on; $("#admin").hidden = !on; if (on) refreshAdmin(); };
    fetch("/api/session").then((r) => r.json()).then((s) => { csrf = s.csrf; show(s.banker); });
    $("#login").onsubmit = async (ev) => {
      ev.preventDefault();
      // The phone's clock goes along: a Pi without network has none it can trust for the reports' times.
      const r = await post("/api/login", { pin: $("#pin").value, now: Date.now() });
      if (r.ok) { csrf = r.csrf; show(true); $("#clock-msg").textContent = `Uhrzeit der Berichte: ${r.clock}`; }
      else $("#login-msg").textContent = r.message;
    };
    $("#logout").onclick = async () => { await post("/api/logout", {}); csrf = null; show(false); };
    const send = async (cmd) => {
      let r = await post("/api/commands", cmd);
      // A running game is replaced only when the banker says so; Storno brings it back.
      if (!r.ok && r.code === "game_running" &&
          window.confirm("Ein Spiel läuft noch. Ersetzen? (Storno holt es zurück)")) {
        r = await post("/api/commands", { ...cmd, replace: true });
      }
      say(r.ok ? "Gebucht" : `Abgelehnt: ${r.message}`);
    };
    $("#undo").onclick = () => send({ op: "undo" });
    $("#end").onclick = () => send({ op: "end" });
    $("#raw").onsubmit = (ev) => {
      ev.preventDefault();
      let cmd; try { cmd = JSON.parse($("#cmd").value); } catch (e) { say("Kein gültiges JSON"); return; }
      send(cmd);
    };
    $("#newgame").onsubmit = (ev) => {
      ev.preventDefault();
      const players = [...document.querySelectorAll("input[name=player]:checked")].map((b) => b.value);
      const cmd = { op: "new_game", edition: $("#edition").value, mode: $("#mode").value, players };
      if (cmd.mode === "timed") cmd.minutes = Number($("#minutes").value);
      if (cmd.mode === "quick") {
        const deal = parseDeal($("#deal").value);
        if (deal === null) { say("Verteilung: je Zeile »Name: Feld, Feld, …«"); return; }
        if (Object.keys(deal).length) cmd.deal = deal;
        else cmd.seed = $("#seed").value === "" ? Math.floor(Math.random() * 2 ** 31) : Number($("#seed").value);
      }
      if ($("#speed").checked) cmd.speed_die = true;
      const rules = [...document.querySelectorAll("input[name=house_rule]:checked")].map((b) => b.value);
      if (rules.length) cmd.house_rules = rules;
      send(cmd);
    };
    $("#register").onsubmit = async (ev) => {
      ev.preventDefault();
      const kind = $("#kind").value;
      const data = { uid: $("#uid").value.trim().toLowerCase(), kind };
      if (kind === "deed") data.square = Number($("#square").value);
      const r = await post("/api/cards", data);
      say(r.ok ? "Karte angelernt" : r.message);
      refreshAdmin();
    };
  }

  // The virtual device ---------------------------------------------------------------------
  function device() {
    let sent = Promise.resolve();  // one press after the other: the device handles them in the order pressed
    const press = (url, data) => (sent = sent.then(() => fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) })).catch(() => {}));
    document.querySelectorAll("[data-key]").forEach((b) => { b.onclick = () => press("/api/sim/key", { key: b.dataset.key }); });
    document.querySelectorAll("[data-uid]").forEach((b) => { b.onclick = () => press("/api/sim/tap", { uid: b.dataset.uid }); });
    // The deed buttons name the squares as the running game's edition does (a new game of another edition, a
    // family's own, relabels them without a reload): looked at half a second after the screen changes.
    let edition = null, timer = null;
    const relabel = async () => {
      const s = await (await fetch("/api/state")).json();
      if (!s.edition || s.edition === edition) return;
      const board = await (await fetch(`/api/board?edition=${encodeURIComponent(s.edition)}`)).json();
      edition = s.edition;
      document.querySelectorAll("button.deed[data-square]").forEach((b) => {
        b.textContent = `${b.dataset.square} ${board.all_squares[Number(b.dataset.square)]}`;
      });
    };
    const frames = new EventSource("/api/sim/events");
    frames.onmessage = (ev) => {
      if (!timer) timer = setTimeout(() => { timer = null; relabel().catch(() => {}); }, 500);
      const frame = JSON.parse(ev.data);
      $("#oled").src = `/api/sim/display.png?seq=${frame.seq}`;
      $("#oled-text").textContent = frame.text;
      $("#oled").dataset.seq = frame.seq;
    };
  }

  return { status, admin, device };
})();
