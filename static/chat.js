// Turnframe chat page: one ES module, no build step.
//
// The page renders what the server persisted (GET /api/conversations/<id>) and keeps it live with
// the conversation socket (CONTRACT §7). The socket only notifies: on every (re)connect and on any
// gap in the event sequence the page refetches the conversation, so it always converges on the
// database. Every text that came from a user or a model is set with textContent, never as HTML.
// A card click sends only the interaction id and the option id (I7).

const boot = JSON.parse(document.getElementById("turnframe-boot").textContent);

// ------------------------------------------------------------------------------------ helpers

/** Build an element. Children that are strings become text nodes (never HTML). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function truncate(text, max) {
  const s = String(text ?? "");
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function newId(prefix) {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function csrfToken() {
  const cookie = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";
}

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  let response;
  try {
    response = await fetch(path, {
      method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network_error", "The server could not be reached. Check your connection.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401) {
    window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
  }
  if (!response.ok) {
    throw new ApiError(response.status, data?.code ?? `http_${response.status}`,
      data?.message ?? `The server answered ${response.status}.`);
  }
  return data;
}

// ------------------------------------------------------------------------------------ the shell

const sidebar = document.querySelector("[data-sidebar]");
const navToggle = document.querySelector("[data-nav-toggle]");
navToggle?.addEventListener("click", () => {
  const open = sidebar.classList.toggle("is-open");
  navToggle.setAttribute("aria-expanded", String(open));
});

for (const button of document.querySelectorAll("[data-new-conversation]")) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const conversation = await api("POST", "/api/conversations", {});
      window.location.assign(`/c/${encodeURIComponent(conversation.id)}/`);
    } catch (error) {
      button.disabled = false;
      window.alert(error.message);
    }
  });
}

if (boot.conversation) startChat(boot.conversation);

// ------------------------------------------------------------------------------------ the chat

function startChat(conversationId) {
  const transcript = document.querySelector("[data-transcript]");
  const scroller = document.querySelector("[data-scroll]");
  const intro = document.querySelector("[data-intro]");
  const composer = document.querySelector("[data-composer]");
  const input = document.querySelector("[data-input]");
  const sendButton = document.querySelector("[data-send]");
  const composerError = document.querySelector("[data-composer-error]");
  const counter = document.querySelector("[data-count]");
  const connection = document.querySelector("[data-connection]");
  const casePanel = document.querySelector("[data-case-panel]");

  const RANK = { queued: -1, running: 0, completed: 1, failed: 1 };
  const CARD_RANK = { pending: 0, resolving: 1 }; // every other status is final (2)

  const state = {
    turns: new Map(), // id -> turn (a partial one while it runs)
    order: [], // turn ids, in conversation order
    interactions: new Map(), // id -> latest interaction we know
    openRounds: new Set(), // "<turn>:<round>" of the read rounds the user expanded
    pending: null, // {clientId, text, viaSocket, orphaned}: a message sent, its turn not yet seen
    unsure: null, // {clientId, text}: a message that may have been lost with its socket
    activeCase: null,
    caseRequest: 0,
    lastSeq: 0,
    loaded: false,
  };

  // ---------------------------------------------------------------- state updates

  function upsertTurn(turn, { authoritative }) {
    const known = state.turns.get(turn.id);
    if (!known) {
      state.turns.set(turn.id, turn);
      state.order.push(turn.id);
    } else if (authoritative && (RANK[turn.status] ?? 0) >= (RANK[known.status] ?? 0)) {
      state.turns.set(turn.id, turn);
    }
    for (const interaction of turn.interactions ?? []) upsertInteraction(interaction);
    if (state.pending && turn.client_message_id === state.pending.clientId) clearPending();
  }

  function upsertInteraction(interaction) {
    const known = state.interactions.get(interaction.id);
    const rank = (s) => CARD_RANK[s] ?? 2;
    if (!known || rank(interaction.status) >= rank(known.status)) {
      state.interactions.set(interaction.id, interaction);
    }
  }

  function partialTurn(id, text) {
    return {
      id, text: text ?? "", kind: text ? "message" : "click", status: "running",
      read_rounds: [], reply: { blocks: [] }, interactions: [],
    };
  }

  // ---------------------------------------------------------------- socket events

  function onEvent(event) {
    if (event.type === "error") {
      onSocketError(event);
      return;
    }
    if (typeof event.seq === "number") {
      if (state.lastSeq && event.seq > state.lastSeq + 1) scheduleLoad(); // we missed something
      state.lastSeq = Math.max(state.lastSeq, event.seq);
    }
    switch (event.type) {
      case "turn.queued": {
        // sent while another message of this conversation runs: kept by the server, runs next, in order
        if (!state.turns.has(event.turn)) {
          upsertTurn({ ...partialTurn(event.turn, event.text), status: "queued" }, { authoritative: false });
        }
        if (state.pending && event.text && event.text === state.pending.text) clearPending();
        renderTurn(event.turn);
        break;
      }
      case "turn.started": {
        const isNew = !state.turns.has(event.turn);
        if (isNew) upsertTurn(partialTurn(event.turn, event.text), { authoritative: false });
        if (!isNew && state.turns.get(event.turn).status === "queued") state.turns.get(event.turn).status = "running";
        // turn.started carries no client id: a new turn with the text we sent is ours
        if (isNew && state.pending && event.text && event.text === state.pending.text) clearPending();
        renderTurn(event.turn);
        if (state.order.length === 1 && event.text) labelConversation(event.text);
        break;
      }
      case "read_round": {
        if (!state.turns.has(event.turn)) upsertTurn(partialTurn(event.turn, null), { authoritative: false });
        const turn = state.turns.get(event.turn);
        if (turn.status === "running") {
          const rounds = (turn.read_rounds ?? []).filter((r) => r.round !== event.round);
          rounds.push({
            round: event.round, status: event.status, requests: event.requests,
            results: event.results, error: event.error ?? null,
          });
          rounds.sort((a, b) => a.round - b.round);
          turn.read_rounds = rounds;
          renderTurn(turn.id);
        }
        break;
      }
      case "interaction.pending":
      case "interaction.resolved": {
        upsertInteraction(event.interaction);
        const owner = event.interaction.turn;
        if (owner && state.turns.get(owner)?.status === "running") renderTurn(owner);
        renderCards(event.interaction.id);
        refreshCardHints(event.interaction.id);
        break;
      }
      case "pong":
        keepAlive.answered();
        break;
      case "turn.completed":
      case "turn.failed": {
        upsertTurn(event.turn, { authoritative: true });
        renderTurn(event.turn.id);
        if (state.order.indexOf(event.turn.id) === 0 && event.turn.text) labelConversation(event.turn.text);
        for (const interaction of event.turn.interactions ?? []) renderCards(interaction.id);
        setActiveCase(event.turn.active_case, { refresh: true });
        break;
      }
      default:
        break; // an event type this page does not know: the next load shows its effect
    }
  }

  function onSocketError(event) {
    if (event.client_message_id && state.pending?.clientId === event.client_message_id) {
      if (!input.value.trim()) input.value = state.pending.text;
      clearPending();
      autosize();
    }
    if (event.interaction) {
      cardFailed(event.interaction, event.code, event.message);
      return;
    }
    showComposerError(event.message || "That did not work.");
  }

  // ---------------------------------------------------------------- loading (and catch-up)

  let loading = null;
  let loadAgain = false;

  function scheduleLoad() {
    if (loading) {
      loadAgain = true;
      return loading;
    }
    loading = (async () => {
      try {
        do {
          loadAgain = false;
          await load();
        } while (loadAgain);
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  async function load() {
    let conversation;
    try {
      conversation = await api("GET", `/api/conversations/${encodeURIComponent(conversationId)}`);
    } catch (error) {
      if (error.status === 404) showComposerError("This conversation does not exist any more.");
      else showComposerError(error.message);
      return;
    }
    const order = conversation.turns.map((t) => t.id);
    for (const turn of conversation.turns) upsertTurn(turn, { authoritative: true });
    for (const interaction of conversation.pending_interactions ?? []) upsertInteraction(interaction);
    // the server's order first, then anything the socket told us about that the fetch predates
    state.order = [...order, ...state.order.filter((id) => !order.includes(id))];
    state.loaded = true;
    if (state.pending?.orphaned) { // sent on a socket that closed, and the server has no turn for it
      state.unsure = { text: state.pending.text, clientId: state.pending.clientId };
      if (!input.value.trim()) input.value = state.pending.text;
      clearPending();
      autosize();
      showComposerError("The connection dropped before your message was answered. Please send it again.");
    }
    renderAll();
    setActiveCase(conversation.active_case, { refresh: true });
  }

  // ---------------------------------------------------------------- the socket

  let socket = null;
  let backoff = 500;

  // The keep-alive: a `ping` frame every PING_EVERY_MS while the socket is open, answered by a `pong`
  // event. Idle connections stay busy enough for proxies that close quiet ones, and a socket whose
  // pong does not come back within PONG_WITHIN_MS is dead whatever the browser thinks: close it and
  // reconnect (the catch-up load then fetches what was missed).
  const PING_EVERY_MS = (boot.wsPingSeconds || 25) * 1000;
  const PONG_WITHIN_MS = 10_000;
  const keepAlive = {
    timer: null,
    deadline: null,
    start(ws) {
      this.stop();
      this.timer = window.setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(JSON.stringify({ type: "ping" }));
        if (this.deadline === null) this.deadline = window.setTimeout(() => ws.close(), PONG_WITHIN_MS);
      }, PING_EVERY_MS);
    },
    answered() {
      window.clearTimeout(this.deadline);
      this.deadline = null;
    },
    stop() {
      window.clearInterval(this.timer);
      this.answered();
      this.timer = null;
    },
  };

  function connect() {
    setConnection("connecting", "Connecting…");
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${window.location.host}/ws/conversations/${encodeURIComponent(conversationId)}/`);
    const ws = socket;
    socket.addEventListener("open", () => {
      keepAlive.start(ws);
      backoff = 500;
      setConnection("open", "Live");
      scheduleLoad(); // catch up on whatever happened while we were away
    });
    socket.addEventListener("message", (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      onEvent(event);
    });
    socket.addEventListener("close", (close) => {
      keepAlive.stop();
      socket = null;
      if (state.pending?.viaSocket) state.pending.orphaned = true; // settled by the catch-up load
      if (close.code === 4401) {
        window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
        return;
      }
      if (close.code === 4404) {
        setConnection("closed", "Not found");
        showComposerError("This conversation does not exist any more.");
        return;
      }
      setConnection("closed", "Reconnecting…");
      window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 10_000);
    });
  }

  function setConnection(status, label) {
    if (!connection) return;
    connection.dataset.connection = status;
    connection.querySelector("[data-connection-label]").textContent = label;
  }

  function socketOpen() {
    return socket && socket.readyState === WebSocket.OPEN;
  }

  // ---------------------------------------------------------------- sending a message

  function autosize() {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
    const length = input.value.length;
    const limit = boot.maxMessageChars;
    counter.textContent = length > limit * 0.8 ? `· ${length} / ${limit}` : "";
    counter.classList.toggle("is-over", length > limit);
  }

  input.addEventListener("input", () => {
    autosize();
    hideComposerError();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });
  composer.addEventListener("submit", (event) => {
    event.preventDefault();
    send(input.value);
  });
  for (const chip of document.querySelectorAll("[data-suggestion]")) {
    chip.addEventListener("click", () => {
      input.value = chip.textContent;
      autosize();
      input.focus();
    });
  }

  async function send(raw) {
    const text = raw.trim();
    if (!text || state.pending) return;
    if (text.length > boot.maxMessageChars) {
      showComposerError(`A message may be at most ${boot.maxMessageChars} characters.`);
      return;
    }
    hideComposerError();
    // resending the text of a message the connection may have lost reuses its id: the server
    // answers a repeated client_message_id with the recorded turn instead of running it twice
    const clientId = state.unsure?.text === text ? state.unsure.clientId : newId("msg");
    state.unsure = null;
    state.pending = { clientId, text, viaSocket: false, orphaned: false };
    input.value = "";
    autosize();
    renderPending();
    if (socketOpen()) {
      state.pending.viaSocket = true;
      socket.send(JSON.stringify({ type: "message", text, client_message_id: clientId }));
      return;
    }
    try { // no socket right now: the same turn over HTTP
      const turn = await api("POST", `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
        { text, client_message_id: clientId });
      upsertTurn(turn, { authoritative: true });
      renderTurn(turn.id);
      setActiveCase(turn.active_case, { refresh: true });
    } catch (error) {
      if (state.pending?.clientId === clientId) {
        input.value = text;
        clearPending();
        autosize();
      }
      showComposerError(error.message);
    }
  }

  function clearPending() {
    state.pending = null;
    transcript.querySelector("[data-pending-turn]")?.remove();
    sendButton.disabled = false;
  }

  function showComposerError(message) {
    composerError.textContent = message;
    composerError.hidden = false;
  }

  function hideComposerError() {
    composerError.hidden = true;
    composerError.textContent = "";
  }

  // ---------------------------------------------------------------- answering a card

  async function answer(interactionId, optionId) {
    const known = state.interactions.get(interactionId);
    if (!known || known.status !== "pending") return;
    state.interactions.set(interactionId, { ...known, status: "resolving", chosen_option: optionId });
    renderCards(interactionId);
    try {
      const result = await api("POST", `/api/interactions/${encodeURIComponent(interactionId)}/respond`,
        { option: optionId, client_response_id: newId("click") });
      upsertInteraction(result.interaction);
      upsertTurn(result.turn, { authoritative: true });
      renderTurn(result.turn.id);
      renderCards(interactionId);
      setActiveCase(result.turn.active_case ?? known.case, { refresh: true });
    } catch (error) {
      cardFailed(interactionId, error.code, error.message);
    }
  }

  async function cardFailed(interactionId, code, message) {
    const known = state.interactions.get(interactionId);
    if (known?.status === "resolving") state.interactions.set(interactionId, { ...known, status: "pending" });
    try { // the server knows best what became of the card
      const fresh = await api("GET", `/api/interactions/${encodeURIComponent(interactionId)}`);
      state.interactions.set(interactionId, fresh);
    } catch {
      if (known && code === "interaction_stale") state.interactions.set(interactionId, { ...known, status: "stale" });
    }
    renderCards(interactionId, { error: state.interactions.get(interactionId)?.status === "pending" ? message : null });
  }

  // ---------------------------------------------------------------- rendering

  // Wide screens scroll the transcript pane; narrow ones scroll the document (the case panel sits
  // under the chat), so "the bottom" is the bottom of the chat column there.
  const chatColumn = document.querySelector("[data-chat]");

  function paneScrolls() {
    return getComputedStyle(scroller).overflowY !== "visible";
  }

  function nearBottom() {
    if (paneScrolls()) return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
    return chatColumn.getBoundingClientRect().bottom - window.innerHeight < 160;
  }

  function keepScrolled(wasNearBottom) {
    if (!wasNearBottom) return;
    if (paneScrolls()) {
      scroller.scrollTop = scroller.scrollHeight;
    } else {
      const bottom = chatColumn.getBoundingClientRect().bottom + window.scrollY;
      window.scrollTo({ top: Math.max(0, bottom - window.innerHeight), behavior: "auto" });
    }
  }

  function renderAll() {
    const first = !transcript.childElementCount;
    const stick = first || nearBottom();
    transcript.replaceChildren(...state.order.map((id) => turnNode(state.turns.get(id))));
    renderPending();
    intro.hidden = state.order.length > 0 || Boolean(state.pending);
    keepScrolled(stick);
  }

  function renderTurn(id) {
    const turn = state.turns.get(id);
    if (!turn) return;
    const stick = nearBottom();
    const node = turnNode(turn);
    const existing = transcript.querySelector(`[data-turn="${CSS.escape(id)}"]`);
    if (existing) existing.replaceWith(node);
    else transcript.insertBefore(node, transcript.querySelector("[data-pending-turn]"));
    intro.hidden = true;
    keepScrolled(stick);
  }

  function renderPending() {
    transcript.querySelector("[data-pending-turn]")?.remove();
    sendButton.disabled = Boolean(state.pending);
    if (!state.pending) return;
    transcript.append(h("li", { class: "turn turn-pending", "data-pending-turn": state.pending.clientId },
      h("div", { class: "message message-user" }, h("p", { class: "message-text", text: state.pending.text })),
      h("div", { class: "assistant" }, workingNode("Sending…"))));
    intro.hidden = true;
    keepScrolled(true); // the user just sent it: show it
  }

  function workingNode(label) {
    return h("div", { class: "working", "data-working": "" },
      h("span", { class: "working-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
      h("span", { class: "working-label", text: label }));
  }

  function turnNode(turn) {
    const item = h("li", {
      class: `turn turn-${turn.status}`, "data-turn": turn.id, "data-turn-status": turn.status,
      "data-turn-kind": turn.kind ?? "message",
    });
    if (turn.kind === "click") {
      item.append(clickNode(turn));
    } else {
      item.append(h("div", { class: "message message-user" },
        h("p", { class: "message-text", "data-user-message": "", text: turn.text })));
    }
    const assistant = h("div", { class: "assistant" });
    if (turn.read_rounds?.length) {
      assistant.append(h("div", { class: "read-rounds", "data-read-rounds": "" },
        turn.read_rounds.map((round) => readRoundNode(turn.id, round))));
    }
    if (turn.status === "queued") {
      assistant.append(h("p", { class: "queued", "data-queued": "", role: "status",
        text: "Waiting: this runs when the message before it is done." }));
    } else if (turn.status === "running") {
      const early = [...state.interactions.values()].filter((i) => i.turn === turn.id);
      for (const interaction of early) assistant.append(cardNode(interaction));
      assistant.append(workingNode(turn.read_rounds?.length ? "Thinking…" : "Working…"));
    } else {
      const blocks = turn.reply?.blocks ?? [];
      assistant.append(h("div", { class: "reply", "data-reply": "" }, blocks.map(blockNode)));
    }
    item.append(assistant);
    return item;
  }

  function clickNode(turn) {
    const interaction = state.interactions.get(turn.interaction);
    const option = interaction?.options?.find((o) => o.id === turn.option);
    const label = option?.label ?? turn.option ?? "an option";
    return h("div", { class: "message message-click", "data-click": turn.option ?? "" },
      h("span", { class: "click-label" }, "You chose ", h("strong", { text: label })));
  }

  function refreshCardHints(interactionId) {
    // every turn whose "confirm or decline the card above" waited for this card: shown again as it now stands
    for (const [id, turn] of state.turns) {
      const asks = (turn.reply?.blocks ?? []).filter((b) => b.kind === "ask" && (b.interactions ?? []).includes(interactionId));
      if (asks.length) renderTurn(id);
    }
  }

  function blockNode(block) {
    if (block.kind === "interaction") {
      const interaction = state.interactions.get(block.interaction) ?? {
        id: block.interaction, kind: "confirmation", status: "unknown", prompt: block.text, options: [],
      };
      return h("div", { class: "block block-interaction", "data-block-kind": "interaction" }, cardNode(interaction));
    }
    const label = { receipt: "Done", notice: "Notice" }[block.kind];
    // "confirm or decline the card above" is only true while one of its cards is still open
    const waitsFor = block.kind === "ask" ? block.interactions ?? [] : [];
    const answered = waitsFor.length > 0 && waitsFor.every((id) => {
      const status = state.interactions.get(id)?.status;
      return status && status !== "pending" && status !== "resolving";
    });
    return h("div", {
      class: `block block-${block.kind}`, "data-block-kind": block.kind, "data-code": block.code ?? null,
      "data-event": block.event ?? null, hidden: answered || null,
    },
    label ? h("span", { class: "block-label", text: label }) : null,
    h("p", { class: "block-text", text: block.text }));
  }

  // ---- read rounds

  function readRoundNode(turnId, round) {
    const key = `${turnId}:${round.round}`;
    const results = round.results ?? [];
    const requests = round.requests ?? [];
    const details = h("details", {
      class: `read-round read-round-${round.status}`, "data-read-round": round.round, "data-status": round.status,
      open: state.openRounds.has(key),
    });
    details.addEventListener("toggle", () => {
      if (details.open) state.openRounds.add(key);
      else state.openRounds.delete(key);
    });
    const calls = requests.map((request, i) => h("span", { class: "read-call" },
      h("code", { class: "read-tool", text: request.tool }),
      h("span", { class: "read-args", text: argsSummary(request.args) }),
      h("span", { class: `read-result ${results[i]?.ok === false ? "is-error" : ""}`,
        text: results[i] ? `→ ${resultSummary(request.tool, results[i])}` : "" })));
    details.append(h("summary", { class: "read-summary" },
      h("span", { class: "read-badge", text: round.status === "ok" ? `Lookup ${round.round}` : "Rejected" }),
      h("span", { class: "read-calls" }, calls.length ? calls : h("span", { text: "no calls" }))));
    const body = h("div", { class: "read-body" });
    if (round.error) body.append(h("p", { class: "read-error", text: round.error }));
    requests.forEach((request, i) => {
      const result = results[i];
      body.append(h("div", { class: "read-item" },
        h("div", { class: "read-item-head" },
          h("code", { class: "read-tool", text: request.tool }),
          h("span", { class: `read-status ${result?.ok === false ? "is-error" : ""}`,
            text: result ? (result.ok ? "ok" : `error · ${result.error}`) : "not run" })),
        h("p", { class: "read-caption", text: "Arguments" }),
        h("pre", { class: "read-json", text: JSON.stringify(request.args ?? {}, null, 2) }),
        result?.ok ? h("p", { class: "read-caption", text: "Result" }) : null,
        result?.ok ? h("pre", { class: "read-json", text: truncate(JSON.stringify(result.result, null, 2), 4000) })
          : null));
    });
    details.append(body);
    return details;
  }

  function argsSummary(args) {
    // opaque ids are long and alike: the summary shows their start, the details show them whole
    const shown = (v) => (typeof v === "string" ? v.replace(/^([a-z]{3}_[A-Z0-9]{4})[A-Z0-9]{6,}$/, "$1…")
      : JSON.stringify(v));
    const parts = Object.entries(args ?? {}).map(([k, v]) => `${k}: ${shown(v)}`);
    return truncate(parts.join(", "), 60);
  }

  function resultSummary(tool, result) {
    if (!result.ok) return `error: ${result.error}`;
    const r = result.result;
    if (r === null || r === undefined) return "nothing";
    if (typeof r !== "object") return truncate(String(r), 60);
    if (Array.isArray(r)) return plural(r.length, "result");
    if (tool === "get_case" || (r.title && r.status && r.lines)) {
      return truncate(`${r.title} · ${r.status} · ${plural(r.line_count ?? r.lines.length, "line")} · ${r.total} ${r.currency ?? ""}`, 80);
    }
    if (Array.isArray(r.cases)) {
      const titles = r.cases.slice(0, 3).map((c) => c.title).join(", ");
      return truncate(`${plural(r.cases.length, "claim")}${titles ? `: ${titles}` : ""}`, 80);
    }
    if (Array.isArray(r.sections)) {
      const first = r.sections[0];
      const name = first && (first.title ?? first.heading ?? first.id);
      return truncate(`${plural(r.sections.length, "policy section")}${name ? `: ${name}` : ""}`, 80);
    }
    if (r.rate && r.from && r.to) return `1 ${r.from} = ${r.rate} ${r.to}${r.converted ? ` (${r.converted} ${r.to})` : ""}`;
    if (r.result !== undefined && r.expression !== undefined) return truncate(`${r.expression} = ${r.result}`, 60);
    if (r.result !== undefined) return truncate(`= ${r.result}`, 60);
    if (typeof r.summary === "string") return truncate(r.summary, 80);
    return truncate(Object.keys(r).slice(0, 4).join(", "), 60);
  }

  // ---- cards

  const CARD_REASON = {
    resolving: "Working on it…",
    declined: "Declined: nothing was changed.",
    stale: "The claim changed after this card was made, so it can no longer be confirmed. Nothing was run.",
    superseded: "A newer card replaced this one; it can no longer be answered.",
    expired: "This card expired; it can no longer be answered.",
    unknown: "This card is no longer available.",
  };

  const CARD_STATUS = {
    pending: "Waiting for you", resolving: "Working", resolved: "Done", declined: "Declined", stale: "Out of date",
    superseded: "Replaced", expired: "Expired", unknown: "Closed",
  };

  function cardStatus(interaction) {
    if (interaction.status === "resolved" && interaction.kind === "confirmation") return "Confirmed";
    if (interaction.status === "resolved") return "Chosen";
    return CARD_STATUS[interaction.status] ?? interaction.status;
  }

  function cardReason(interaction) {
    if (interaction.status === "pending") return "";
    if (interaction.status === "resolved") {
      const option = interaction.options?.find((o) => o.id === interaction.chosen_option);
      if (interaction.kind === "confirmation") return "Confirmed.";
      return option ? `You chose “${option.label}”.` : "Answered.";
    }
    return CARD_REASON[interaction.status] ?? CARD_REASON.unknown;
  }

  function cardNode(interaction, { error } = {}) {
    const open = interaction.status === "pending";
    const title = interaction.kind === "selection" ? "Which claim?" : "Confirmation needed";
    const card = h("section", {
      class: `card card-${interaction.kind} card-status-${interaction.status}`,
      "data-interaction": interaction.id, "data-interaction-kind": interaction.kind,
      "data-status": interaction.status, "aria-label": title,
    });
    card.append(h("header", { class: "card-head" },
      h("span", { class: "card-title", text: title }),
      h("span", { class: "card-status", "data-card-status": "", text: cardStatus(interaction) })));
    card.append(h("p", { class: "card-prompt", text: interaction.prompt ?? "" }));
    const actions = h("div", { class: "card-actions" });
    for (const option of interaction.options ?? []) {
      const primary = interaction.kind === "confirmation" ? option.id === "confirm" : option.id !== "none";
      const chosen = interaction.chosen_option === option.id;
      actions.append(h("button", {
        type: "button", class: `button ${primary ? "button-primary" : "button-secondary"}${chosen ? " is-chosen" : ""}`,
        "data-option": option.id, disabled: !open, "aria-pressed": chosen ? "true" : null,
        onclick: () => answer(interaction.id, option.id),
      }, option.label));
    }
    card.append(actions);
    const reason = error ?? cardReason(interaction);
    if (reason) {
      card.append(h("p", { class: `card-reason ${error ? "is-error" : ""}`, "data-card-reason": interaction.status,
        role: error ? "alert" : null, text: reason }));
    }
    return card;
  }

  function renderCards(interactionId, options = {}) {
    const interaction = state.interactions.get(interactionId);
    if (!interaction) return;
    for (const node of transcript.querySelectorAll(`[data-interaction="${CSS.escape(interactionId)}"]`)) {
      node.replaceWith(cardNode(interaction, options));
    }
    // click turns show the chosen option's label, known once the card is
    for (const turn of state.turns.values()) {
      if (turn.kind === "click" && turn.interaction === interactionId) {
        transcript.querySelector(`[data-turn="${CSS.escape(turn.id)}"] [data-click]`)?.replaceWith(clickNode(turn));
      }
    }
  }

  // ---- the sidebar label of a new conversation

  function labelConversation(text) {
    const label = document.querySelector(`[data-conversation="${CSS.escape(conversationId)}"] [data-conversation-label]`);
    if (label && label.textContent === "New conversation") label.textContent = truncate(text.replace(/\s+/g, " "), 60);
  }

  // ---------------------------------------------------------------- the case panel

  function setActiveCase(caseId, { refresh }) {
    if (caseId === undefined) return;
    state.activeCase = caseId;
    if (refresh) refreshCase();
  }

  async function refreshCase() {
    const caseId = state.activeCase;
    const request = ++state.caseRequest;
    if (!caseId) {
      renderCaseEmpty();
      return;
    }
    try {
      const claim = await api("GET", `/api/cases/${encodeURIComponent(caseId)}`);
      if (request === state.caseRequest) renderCase(claim);
    } catch (error) {
      if (request === state.caseRequest) renderCaseEmpty(error.status === 404 ? null : error.message);
    }
  }

  function renderCaseEmpty(message) {
    casePanel.removeAttribute("data-case");
    casePanel.replaceChildren(h("div", { class: "case-empty", "data-case-empty": "" },
      h("p", { class: "eyebrow", text: "Active claim" }),
      h("p", { class: "muted", text: message ?? "No claim is active in this conversation yet. Mention one, or open a new claim." })));
  }

  function renderCase(claim) {
    const view = claim.view ?? {};
    const state_ = claim.state ?? {};
    const currency = view.currency ?? state_.currency ?? "";
    const lines = view.lines ?? (state_.lines ?? []).map((line, i) => ({ ordinal: i + 1, ...line }));
    casePanel.dataset.case = claim.id;
    casePanel.dataset.caseStatus = claim.status;
    casePanel.dataset.caseRevision = String(claim.revision);
    const rows = lines.map((line) => h("tr", { "data-case-line": line.ordinal },
      h("td", { class: "num", text: line.ordinal }),
      h("td", {},
        h("span", { class: "line-merchant", text: line.merchant || line.category }),
        h("span", { class: "line-meta", text: [line.date, line.merchant ? line.category : null].filter(Boolean).join(" · ") })),
      h("td", { class: "num amount", text: line.amount })));
    casePanel.replaceChildren(
      h("div", { class: "case-head" },
        h("p", { class: "eyebrow", text: "Active claim" }),
        h("h2", { class: "case-title", "data-case-title": "", text: claim.title }),
        h("div", { class: "case-meta" },
          h("span", { class: `status status-${claim.status}`, "data-case-status": claim.status, text: claim.status }),
          h("span", { class: "case-revision", "data-case-revision": claim.revision, text: `Revision ${claim.revision}` }),
          currency ? h("span", { class: "case-currency", text: currency }) : null)),
      lines.length
        ? h("table", { class: "case-lines", "data-case-lines": "" },
          h("thead", {}, h("tr", {}, h("th", { class: "num", text: "#" }), h("th", { text: "Expense" }),
            h("th", { class: "num", text: "Amount" }))),
          h("tbody", {}, rows))
        : h("p", { class: "muted case-no-lines", text: "No lines yet." }),
      h("div", { class: "case-total" },
        h("span", { text: "Total" }),
        h("strong", { "data-case-total": view.total ?? "", text: `${view.total ?? "—"} ${currency}`.trim() })),
      view.next_steps ? h("p", { class: "case-next", text: view.next_steps }) : null,
      h("p", { class: "case-id" }, h("code", { text: claim.id })));
  }

  // ---------------------------------------------------------------- go

  autosize();
  scheduleLoad();
  connect();
}
