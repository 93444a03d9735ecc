// The edition form (/admin/ausgaben): the form's values into the edition's data, the rules' checks beside each
// field (POST /api/admin/editions/check), saving, and uploading a file. Banker only: the session's CSRF token.
// Every text comes from the page (#edition-words, in the page's language); the checks come said by the server.
"use strict";
(() => {
  const $ = (s) => document.querySelector(s);
  const words = JSON.parse(($("#edition-words") || { textContent: "{}" }).textContent);
  const say = (key, values = {}) => (words[key] || key).replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
  const msg = (text) => { const m = $("#msg"); if (m) m.textContent = text; };
  let csrf = "";
  const ready = fetch("/api/session").then((r) => r.json()).then((s) => { csrf = s.csrf || ""; });

  async function post(url, body) {
    await ready;
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
                                   body: JSON.stringify(body) });
    try { return await res.json(); } catch (e) { return { ok: false, message: res.statusText }; }
  }

  // Saving asks first when it would replace an edition (the server's question, in the page's language);
  // "Cancel" replaces nothing.
  async function save(body) {
    let answer = await post("/api/admin/editions", body);
    if (answer.question) {
      if (!window.confirm(answer.question)) return { ok: false, cancelled: true };
      answer = await post("/api/admin/editions", { ...body, replace: true });
    }
    return answer;
  }

  // The file's own bytes, as base64: the server reads them as it reads every file (a Latin-1 file's umlauts
  // too); the browser's file.text() would read them as UTF-8 and lose them first.
  async function bytes64(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }

  // A refusal without problems (the server's "too large", a lost session) is shown as the server said it.
  const told = (answer, otherwise) => (answer.message && !(answer.problems || []).length ? answer.message : otherwise);

  // Numbers and rents go as typed: the server reads them as the page's language writes them ("1.500" in German).
  function value(input) {
    const raw = input.value.trim();
    if (input.hasAttribute("data-list")) return raw;
    if (input.hasAttribute("data-number")) return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    return input.value;
  }

  function formData() {
    const data = JSON.parse($("#edition-data").textContent);
    for (const input of document.querySelectorAll("[data-path]")) {
      const path = input.dataset.path.split(".");
      if (input.hasAttribute("data-optional") && !input.value.trim()) {  // left empty: not given (a short name)
        const table = path.slice(0, -1).reduce((t, part) => (t ? t[part] : t), data);
        if (table) delete table[path[path.length - 1]];
        continue;
      }
      let table = data;
      for (const part of path.slice(0, -1)) table = table[part] = table[part] || {};
      table[path[path.length - 1]] = value(input);
    }
    return data;
  }

  // Each problem beside its field, on a line of its own (a deed's several fields stay apart), and in the list;
  // a note (a warning) is drawn as a note, not as an error.
  function show(answer, list) {
    for (const el of document.querySelectorAll("[data-check]")) el.replaceChildren();
    list.replaceChildren();
    const notes = (answer.warnings || []).map((w) => ({ ...w, note: true, text: say("editions.page.note", { problem: w.text }),
                                                       message: say("editions.page.note", { problem: w.message }) }));
    for (const p of [...(answer.problems || []), ...notes]) {
      let path = p.path, spot = null;
      while (path && !(spot = document.querySelector(`[data-check="${path}"]`))) path = path.split(".").slice(0, -1).join(".");
      if (spot) {
        const line = document.createElement("span");
        line.className = p.note ? "note" : "problem";
        line.textContent = p.message;
        spot.append(line);
      }
      const li = document.createElement("li");
      li.className = p.note ? "note" : "problem";
      li.textContent = p.text;
      list.append(li);
    }
  }

  const form = $("#edition-form");
  if (form) {
    let timer = null;
    form.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(async () => show(await post("/api/admin/editions/check", { data: formData() }), $("#form-problems")), 400);
    });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const was = JSON.parse($("#edition-data").textContent).was;
      const answer = await save({ data: formData(), ...(was ? { was } : {}) });
      if (answer.cancelled) { msg(say("editions.page.not_replaced")); return; }
      show(answer, $("#form-problems"));
      msg(answer.ok ? say("editions.page.saved_next_game", { key: answer.key })
                    : told(answer, say("editions.page.not_saved_form")));
    });
  }

  const upload = $("#upload");
  if (upload) {
    upload.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = $("#upload-file").files[0];
      if (!file) { msg(say("editions.page.choose_file")); return; }
      // A file over the editions' limit says that limit, measured here: sent, one over about 48 KB would meet the
      // web's own 64 KB first (as base64) and be told only "request too large".
      const most = Number($("#upload-file").dataset.most);
      if (file.size > most) {
        const said = say("editions.problem.too_big", { size: Math.floor(most / 1024) });
        show({ problems: [{ path: "", message: said, text: said }] }, $("#upload-problems"));
        msg(say("editions.page.not_saved_file", { file: file.name }));
        return;
      }
      const answer = await save({ file: await bytes64(file) });
      if (answer.cancelled) { msg(say("editions.page.not_replaced")); return; }
      show(answer, $("#upload-problems"));
      msg(answer.ok ? say("editions.page.saved", { key: answer.key })
                    : told(answer, say("editions.page.not_saved_file", { file: file.name })));
      if (answer.ok) setTimeout(() => location.reload(), 800);
    });
  }

  // Delete and bring back: each button names its file; a deletion is asked first (it is kept all the same).
  for (const button of document.querySelectorAll("[data-delete]")) {
    button.addEventListener("click", async () => {
      const file = button.dataset.delete;
      if (!window.confirm(say("editions.page.delete_ask", { file }))) return;
      const answer = await post("/api/admin/editions/delete", { file });
      msg(answer.ok ? say("editions.page.deleted", { file }) : told(answer, (answer.problems || [{}])[0].text || ""));
      if (answer.ok) setTimeout(() => location.reload(), 800);
    });
  }
  for (const button of document.querySelectorAll("[data-restore]")) {
    button.addEventListener("click", async () => {
      const answer = await post("/api/admin/editions/restore", { name: button.dataset.restore });
      msg(answer.ok ? say("editions.page.restored", { file: answer.file })
                    : told(answer, (answer.problems || [{}])[0].text || ""));
      if (answer.ok) setTimeout(() => location.reload(), 800);
    });
  }
})();
