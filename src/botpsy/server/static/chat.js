// botpsy web chat: streams agent events from /assistant, shows each tool call as what it
// is for (the raw call and result folded under "Details"), the answer in words, asks the
// user to confirm or reject pending side effects, and shows the audit log.
// No framework and no build step. Every piece of text is set with textContent:
// tool results carry third-party text (mail bodies, files) and must never become HTML.
"use strict";

const state = { session: null, key: sessionStorage.getItem("botpsy-key") || "", calls: new Map(),
                bubble: null, busy: false };
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function headers(json) {
  const h = json ? { "Content-Type": "application/json" } : {};
  if (state.key) h.Authorization = "Bearer " + state.key;
  return h;
}

async function errorText(response) {
  try {
    const body = await response.json();
    return (body.error && body.error.message) || response.statusText;
  } catch (_) {
    return response.status + " " + response.statusText;
  }
}

function showError(text) {
  $("error").textContent = text;
  $("error").hidden = !text;
}

async function api(method, path, body) {
  const response = await fetch(path, { method, headers: headers(body !== undefined),
                                       body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 401) $("key-box").hidden = false;
  if (!response.ok) throw new Error(await errorText(response));
  return response;
}

// Read a text/event-stream body and call onEvent with each JSON data payload.
async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split("\n").filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, "")).join("\n");
      if (data) onEvent(JSON.parse(data));
    }
  }
}

function scrollDown() { $("log").scrollTop = $("log").scrollHeight; }

function add(node) {
  const hint = $("log").querySelector(".hint");
  if (hint) hint.remove();
  $("log").appendChild(node);
  scrollDown();
  return node;
}

function clip(text, limit) {
  return text.length <= limit ? text : text.slice(0, limit - 1) + "\u2026";
}

function describe(call) {
  const args = Object.entries(call.arguments || {})
    .map(([k, v]) => k + "=" + JSON.stringify(v)).join(", ");
  return call.name + "(" + args + ")";
}

// "tool:read_email:call_ab12" -> "read_email(email_id=3)" when the call was seen here.
function describeSource(source) {
  const parts = source.split(":");
  if (parts[0] === "tool" && parts.length >= 3) {
    const call = state.calls.get(parts.slice(2).join(":"));
    return call ? "output of " + describe(call) : "output of " + parts[1];
  }
  return source;
}

function sentenceCase(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A tool call as a person reads it: what it is for ("Look at your calendar"), its state,
// and, folded away, the raw call and result.
function toolCard(call, action) {
  const card = el("div", "card");
  card.dataset.callId = call.id;
  const raw = el("details", "raw");
  raw.append(el("summary", "", "Details"), el("code", "", describe(call)));
  card.append(el("span", "badge", "proposed"), el("span", "what", sentenceCase(action || call.name)), raw);
  return add(card);
}

function cardFor(step) {
  return $("log").querySelector('.card[data-call-id="' + CSS.escape(step.call.id) + '"]')
    || toolCard(step.call);
}

function onDecision(step) {
  const card = cardFor(step);
  card.className = "card " + step.decision;
  card.querySelector(".badge").textContent = step.decision.replace(/_/g, " ");
  if (step.reason) card.title = step.reason;
}

function onResult(step) {
  onDecision(step);
  if (!step.result) return;
  const raw = cardFor(step).querySelector(".raw");
  const text = step.result.ok ? step.result.content : "Error: " + (step.result.error || "");
  raw.appendChild(el("div", "result", text));
}

function assistantBubble() {
  if (!state.bubble) state.bubble = add(el("div", "msg assistant streaming", ""));
  return state.bubble;
}

function onFinal(result) {
  const bubble = assistantBubble();
  bubble.textContent = result.final_text;
  bubble.classList.remove("streaming");
  state.bubble = null;
  for (const item of result.pending || []) pendingCard(item);
  if (!$("audit").hidden) loadAudit();
}

function pendingCard(item) {
  const box = el("div", "pending");
  box.dataset.callId = item.call.id;
  box.appendChild(el("h3", "", sentenceCase(item.action || "run " + item.call.name) + "?"));
  box.appendChild(el("code", "", describe(item.call)));
  if (item.request.target) box.appendChild(el("p", "target", "Acts on: " + item.request.target));
  const reasons = el("ul");
  for (const reason of item.request.reasons || []) reasons.appendChild(el("li", "", reason));
  box.appendChild(reasons);
  const taint = item.request.taint || {};
  if (taint.tainted && (taint.sources || []).length) {
    // the items read, in words ("read_email: email 4 from ..."), when the agent knows them
    const read = (taint.read || []).length ? taint.read : taint.sources.map(describeSource);
    box.appendChild(el("p", "taint", "Proposed after reading untrusted content: "
      + read.join("; ")
      + ". That content may contain instructions from someone else."));
  }
  const actions = el("div", "actions");
  const yes = el("button", "confirm", "Confirm");
  const no = el("button", "reject", "Reject");
  yes.type = no.type = "button";
  yes.addEventListener("click", () => decide(item.call.id, "confirm", box));
  no.addEventListener("click", () => decide(item.call.id, "reject", box));
  actions.append(yes, no);
  box.appendChild(actions);
  add(box);
}

function handle(event) {
  switch (event.type) {
    case "token": {
      const bubble = assistantBubble();
      bubble.textContent += event.text;
      scrollDown();
      break;
    }
    case "call":
      state.calls.set(event.call.id, event.call);
      state.bubble = null;
      toolCard(event.call, event.action);
      break;
    case "decision": onDecision(event.step); break;
    case "result": onResult(event.step); break;
    case "final": onFinal(event.result); break;
    case "decision_recorded": {
      const box = $("log").querySelector('.pending[data-call-id="' + CSS.escape(event.call_id) + '"]');
      if (box) {
        box.querySelector(".actions").replaceChildren(
          el("span", "outcome", event.approved ? "Confirmed" : "Rejected"));
      }
      break;
    }
    case "error": showError(event.error.message); break;
    default: break;
  }
}

async function stream(path, body) {
  setBusy(true);
  showError("");
  try {
    const response = await api("POST", path, body);
    await readEvents(response, handle);
  } catch (err) {
    showError(err.message);
  } finally {
    if (state.bubble) state.bubble.classList.remove("streaming");
    state.bubble = null;
    setBusy(false);
  }
}

function setBusy(busy) {
  state.busy = busy;
  $("send").disabled = busy;
  for (const b of document.querySelectorAll(".pending button")) b.disabled = busy;
}

async function ensureSession() {
  if (!state.session) {
    const response = await api("POST", "/assistant/sessions", {});
    state.session = (await response.json()).id;
  }
  return state.session;
}

async function send(text) {
  add(el("div", "msg user", text));
  try {
    const id = await ensureSession();
    await stream("/assistant/sessions/" + id + "/messages", { text });
  } catch (err) {
    showError(err.message);
  }
}

async function decide(callId, action, box) {
  for (const b of box.querySelectorAll("button")) b.disabled = true;
  await stream("/assistant/sessions/" + state.session + "/pending/"
               + encodeURIComponent(callId) + "/" + action, { call_id: callId });
}

async function loadAudit() {
  try {
    const query = state.session ? "?session_id=" + encodeURIComponent(state.session) : "";
    const entries = await (await api("GET", "/assistant/audit" + query)).json();
    const rows = entries.reverse().map((entry) => {
      const row = el("tr");
      const time = new Date(entry.ts).toLocaleTimeString();
      const details = el("td");
      if (entry.reason) details.appendChild(el("div", "", entry.reason));
      if (entry.result_summary) details.appendChild(el("div", "muted", clip(entry.result_summary, 160)));
      if ((entry.taint_sources || []).length) {
        details.appendChild(el("div", "after", "after: " + entry.taint_sources.map(describeSource).join(", ")));
      }
      row.append(el("td", "", time), el("td", "", entry.tool),
                 el("td", "decision " + entry.decision, entry.decision.replace(/_/g, " ")), details);
      return row;
    });
    $("audit-rows").replaceChildren(...rows);
  } catch (err) {
    showError(err.message);
  }
}

async function init() {
  $("api-key").value = state.key;
  $("api-key").addEventListener("change", (e) => {
    state.key = e.target.value;
    sessionStorage.setItem("botpsy-key", state.key);
  });
  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("input").value.trim();
    if (!text || state.busy) return;
    $("input").value = "";
    send(text);
  });
  $("input").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("composer").requestSubmit(); }
  });
  $("new-chat").addEventListener("click", () => {
    state.session = null;
    state.calls.clear();
    $("log").replaceChildren(el("p", "hint", "New conversation."));
    if (!$("audit").hidden) loadAudit();
  });
  $("show-audit").addEventListener("click", () => {
    const open = $("audit").hidden;
    $("audit").hidden = !open;
    $("show-audit").setAttribute("aria-expanded", String(open));
    if (open) loadAudit();
  });
  $("refresh-audit").addEventListener("click", loadAudit);
  try {
    const config = await (await fetch("/page-config")).json();
    if (config.needs_key) $("key-box").hidden = false;
    const health = await (await fetch("/health")).json();
    $("model").textContent = "model: " + health.model;
  } catch (err) {
    $("model").textContent = "server unreachable";
  }
}

init();
