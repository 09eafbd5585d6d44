// One live conversation: the page renders what the server persisted (GET /api/conversations/<id>) and
// keeps it live with the conversation socket (CONTRACT §7). On every (re)connect and on any gap in the
// event sequence the page refetches the conversation, so it always converges on the database.
// A card click sends only the interaction id and the option id (I7).

import { api } from "./api.js";
import { cardNode } from "./cards.js";
import { createCasePanel } from "./case-panel.js";
import { labelConversation } from "./sidebar.js";
import { checkMessage } from "./composer.js";
import { newId } from "./dom.js";
import { openSocket } from "./socket.js";
import { createStore, partialTurn } from "./store.js";
import { createTranscript } from "./transcript.js";

/**
 * ``composer`` is the page's composer (chat/composer.js); from now on it sends into this conversation.
 * ``queued``: messages typed before the conversation existed (the landing page): sent in order once the
 * socket is live.
 */
export function startConversation({ conversationId, boot, composer, root = document, queued = [] }) {
  const $ = (selector) => root.querySelector(selector);
  const store = createStore();
  const askedWith = new Map(); // interaction id -> the words that drew it, as an expired card's answer gave them
  const connection = $("[data-connection]");
  // the sidebar calls a new conversation after its first message, then after the case it works on (unless the
  // user named it: the sidebar item says so)
  const firstLabel = (text) => labelConversation({ id: conversationId, label: text, replacing: "New conversation" });
  const panel = createCasePanel($("[data-case-panel]"), {
    onTitle: (title) => labelConversation({ id: conversationId, label: title }),
  });
  // every active claim a turn reported, counted: a load that was asked before one of them never puts back the older one
  // (a turn completed while the page's first load was on its way showed "no claim is active")
  let caseReports = 0;
  const casePanel = {
    setActiveCase(caseId) {
      caseReports += 1;
      panel.setActiveCase(caseId);
    },
  };
  const card = (interaction, options = {}) => cardNode(interaction, {
    ...options, onAnswer: answer, onAskAgain: originalText(interaction) ? askAgain : null,
  });
  const transcript = createTranscript({
    list: $("[data-transcript]"), scroller: $("[data-scroll]"), intro: $("[data-intro]"), chatColumn: $("[data-chat]"),
    store, card, onStop: stopWaiting, onUnsend: unsend,
  });
  composer.setOnSend(send);

  // ---------------------------------------------------------------- socket events

  function upsertTurn(turn, options) {
    if (store.upsertTurn(turn, options)) acknowledged();
  }

  function onEvent(event) {
    if (event.type === "error") {
      onSocketError(event);
      return;
    }
    if (typeof event.seq === "number") {
      if (store.lastSeq && event.seq > store.lastSeq + 1) scheduleLoad(); // we missed something
      store.lastSeq = Math.max(store.lastSeq, event.seq);
    }
    switch (event.type) {
      case "turn.queued": {
        // sent while another message of this conversation runs: kept by the server, runs next, in order
        if (!store.turns.has(event.turn)) {
          upsertTurn({ ...partialTurn(event.turn, event.text), status: "queued" }, { authoritative: false });
        }
        if (store.pending && event.text && event.text === store.pending.text) acknowledged();
        transcript.renderTurn(event.turn);
        break;
      }
      case "turn.started": {
        const isNew = !store.turns.has(event.turn);
        if (isNew) upsertTurn(partialTurn(event.turn, event.text), { authoritative: false });
        if (!isNew && store.turns.get(event.turn).status === "queued") {
          const known = store.turns.get(event.turn);
          known.status = "running";
          known.stopping = false; // a withdrawal asked for meanwhile: the server's answer says what became of it
        }
        // turn.started carries no client id: a new turn with the text we sent is ours
        if (isNew && store.pending && event.text && event.text === store.pending.text) acknowledged();
        transcript.renderTurn(event.turn);
        if (store.order.length === 1 && event.text) firstLabel(event.text);
        break;
      }
      case "read_round": {
        if (!store.turns.has(event.turn)) upsertTurn(partialTurn(event.turn, null), { authoritative: false });
        const turn = store.turns.get(event.turn);
        if (turn.status === "running") {
          const rounds = (turn.read_rounds ?? []).filter((r) => r.round !== event.round);
          rounds.push({
            round: event.round, status: event.status, requests: event.requests,
            results: event.results, error: event.error ?? null,
          });
          rounds.sort((a, b) => a.round - b.round);
          turn.read_rounds = rounds;
          transcript.renderTurn(turn.id);
        }
        break;
      }
      case "interaction.pending":
      case "interaction.resolved": {
        store.upsertInteraction(event.interaction);
        const owner = event.interaction.turn;
        if (owner && store.turns.get(owner)?.status === "running") transcript.renderTurn(owner);
        transcript.renderCards(event.interaction.id);
        transcript.refreshCardHints(event.interaction.id);
        break;
      }
      case "turn.completed":
      case "turn.failed": {
        upsertTurn(event.turn, { authoritative: true });
        transcript.renderTurn(event.turn.id);
        if (store.order.indexOf(event.turn.id) === 0 && event.turn.text) firstLabel(event.turn.text);
        for (const interaction of event.turn.interactions ?? []) transcript.renderCards(interaction.id);
        casePanel.setActiveCase(event.turn.active_case);
        break;
      }
      default:
        break; // pong, or an event type this page does not know: the next load shows its effect
    }
  }

  function onSocketError(event) {
    if (event.client_message_id && store.pending?.clientId === event.client_message_id) {
      composer.fill(store.pending.text, { onlyIfEmpty: true });
      notSent();
    }
    if (event.interaction) {
      cardFailed(event.interaction, event.code, event.message, event.ask_again);
      return;
    }
    composer.showError(event.message || "That did not work.");
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
    const reportsBefore = caseReports;
    let conversation;
    try {
      conversation = await api("GET", `/api/conversations/${encodeURIComponent(conversationId)}`);
    } catch (error) {
      if (error.status === 404) composer.showError("This conversation does not exist any more.");
      else composer.showError(error.message);
      return;
    }
    const order = conversation.turns.map((t) => t.id);
    for (const turn of conversation.turns) upsertTurn(turn, { authoritative: true });
    for (const interaction of conversation.pending_interactions ?? []) store.upsertInteraction(interaction);
    // the server's order first, then anything the socket told us about that the fetch predates
    store.order = [...order, ...store.order.filter((id) => !order.includes(id))];
    store.loaded = true;
    if (store.pending?.orphaned) { // sent on a socket that closed, and the server has no turn for it
      store.unsure = { text: store.pending.text, clientId: store.pending.clientId };
      composer.fill(store.pending.text, { onlyIfEmpty: true });
      notSent();
      composer.showError("The connection dropped before your message was answered. Please send it again.");
    }
    transcript.renderAll();
    if (caseReports === reportsBefore) casePanel.setActiveCase(conversation.active_case);
  }

  // ---------------------------------------------------------------- the socket

  let markLive;
  const live = new Promise((resolve) => {
    markLive = resolve;
  });
  const socket = openSocket({
    conversationId,
    pingSeconds: boot.wsPingSeconds || 25,
    onEvent,
    onOpen() {
      markLive();
      scheduleLoad(); // catch up on whatever happened while we were away
    },
    onStatus: setConnection,
    onClose() {
      if (store.pending?.viaSocket) store.pending.orphaned = true; // settled by the catch-up load
    },
    onGone: () => composer.showError("This conversation does not exist any more."),
  });

  function setConnection(status, label) {
    if (!connection) return;
    connection.dataset.connection = status;
    connection.querySelector("[data-connection-label]").textContent = label;
  }

  // ---------------------------------------------------------------- sending a message

  // One message is in flight at a time (``store.pending``, until its turn is seen: acknowledged). One typed
  // meanwhile is not dropped: it waits in ``store.outbox``, shown as waiting, and is sent when the one before
  // it is acknowledged, in the order typed. The server then keeps the order (its queue).
  let holding = false; // until the socket is live (a conversation just created from the landing page)

  function send(raw) {
    const { text, problem } = checkMessage(raw, boot.maxMessageChars);
    if (problem === "empty") return;
    if (problem) {
      composer.showError(problem);
      return;
    }
    composer.hideError();
    // resending the text of a message the connection may have lost reuses its id: the server
    // answers a repeated client_message_id with the recorded turn instead of running it twice
    const clientId = store.unsure?.text === text ? store.unsure.clientId : newId("msg");
    store.unsure = null;
    composer.clear();
    if (store.pending || holding) {
      store.outbox.push({ clientId, text });
      transcript.renderPending();
      return;
    }
    dispatch(text, clientId);
  }

  async function dispatch(text, clientId) {
    store.pending = { clientId, text, viaSocket: false, orphaned: false };
    store.outboxHeld = false;
    transcript.renderPending();
    if (socket.isOpen()) {
      store.pending.viaSocket = true;
      socket.send({ type: "message", text, client_message_id: clientId });
      return;
    }
    try { // no socket right now: the same turn over HTTP
      const turn = await api("POST", `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
        { text, client_message_id: clientId });
      upsertTurn(turn, { authoritative: true });
      transcript.renderTurn(turn.id);
      casePanel.setActiveCase(turn.active_case);
    } catch (error) {
      if (store.pending?.clientId === clientId) {
        composer.fill(text);
        notSent();
      }
      composer.showError(error.message);
    }
  }

  /** The message in flight has its turn: the next one waiting goes. */
  function acknowledged() {
    clearPending();
    sendNext();
  }

  function sendNext() {
    if (store.pending || holding || !store.outbox.length) return;
    const next = store.outbox.shift();
    dispatch(next.text, next.clientId);
  }

  /** The message in flight did not go through (it is back in the composer): the ones behind it wait for it. */
  function notSent() {
    clearPending();
    store.outboxHeld = store.outbox.length > 0;
    transcript.renderPending();
  }

  /** "Stop" on a message still waiting in the page: it is not sent. */
  function unsend(clientId) {
    store.outbox = store.outbox.filter((m) => m.clientId !== clientId);
    if (!store.outbox.length) store.outboxHeld = false;
    transcript.renderPending();
    composer.focus();
  }

  function clearPending() {
    store.pending = null;
    transcript.removePending();
  }

  // ---------------------------------------------------------------- stop waiting for a slow model

  /**
   * The server decides: a message still waiting in its queue is withdrawn and never runs; a turn still
   * waiting on the model ends before anything changes; later, it finishes.
   */
  async function stopWaiting(turn) {
    const asked = store.turns.get(turn.id);
    if (asked?.status === "queued") {
      asked.stopping = true;
      transcript.renderTurn(turn.id);
    }
    let answer;
    try {
      answer = await api("POST", `/api/turns/${encodeURIComponent(turn.id)}/stop`);
    } catch (error) {
      if (asked) asked.stopping = false;
      transcript.renderTurn(turn.id);
      composer.showError(error.message);
      return;
    }
    if (store.turns.get(turn.id)?.status === "queued" || answer.withdrawn) {
      upsertTurn(answer.turn, { authoritative: true }); // withdrawn, or it had started meanwhile
    }
    const known = store.turns.get(turn.id);
    if (known && known.status === "running") {
      known.stopping = Boolean(answer.stopped);
      known.stopRefused = answer.stopped ? null : answer.message;
    }
    transcript.renderTurn(turn.id);
    composer.focus();
  }

  // ---------------------------------------------------------------- answering a card

  async function answer(interactionId, optionId, edits = null) {
    const known = store.interactions.get(interactionId);
    if (!known || known.status !== "pending") return;
    store.interactions.set(interactionId, { ...known, status: "resolving", chosen_option: optionId });
    transcript.renderCards(interactionId);
    composer.focus(); // the card's buttons are gone (disabled): the next useful place is the composer
    try {
      const result = await api("POST", `/api/interactions/${encodeURIComponent(interactionId)}/respond`,
        { option: optionId, client_response_id: newId("click"), ...(edits ? { edits } : {}) });
      store.upsertInteraction(result.interaction);
      upsertTurn(result.turn, { authoritative: true });
      transcript.renderTurn(result.turn.id);
      transcript.renderCards(interactionId);
      casePanel.setActiveCase(result.turn.active_case ?? known.case);
    } catch (error) {
      cardFailed(interactionId, error.code, error.message, error.body?.ask_again);
    }
  }

  /** ``askAgain``: the words that drew the card, as the server gives them with ``interaction_expired``. */
  async function cardFailed(interactionId, code, message, askAgain) {
    if (askAgain) askedWith.set(interactionId, askAgain);
    const known = store.interactions.get(interactionId);
    if (known?.status === "resolving") store.interactions.set(interactionId, { ...known, status: "pending" });
    try { // the server knows best what became of the card
      const fresh = await api("GET", `/api/interactions/${encodeURIComponent(interactionId)}`);
      store.interactions.set(interactionId, fresh);
    } catch {
      if (known && code === "interaction_stale") store.interactions.set(interactionId, { ...known, status: "stale" });
      if (known && code === "interaction_expired") store.interactions.set(interactionId, { ...known, status: "expired" });
    }
    transcript.renderCards(interactionId,
      { error: store.interactions.get(interactionId)?.status === "pending" ? message : null });
  }

  /** The message that drew a card (through the clicks in between: a selection's confirmation card). */
  function originalText(interaction) {
    let turn = store.turnOf(interaction);
    for (let hops = 0; turn?.kind === "click" && hops < 10; hops += 1) {
      turn = store.turnOf(store.interactions.get(turn.interaction) ?? { id: turn.interaction });
    }
    return (turn?.kind === "click" ? null : turn?.text) || askedWith.get(interaction.id) || null;
  }

  /** "Ask again" on an out-of-date card: the same words, sent as a new message about the case as it is now. */
  function askAgain(interaction) {
    const text = originalText(interaction);
    if (!text) return;
    composer.focus();
    send(text);
  }

  composer.autosize();
  scheduleLoad();
  if (queued.length) {
    holding = true;
    store.outbox.push(...queued.map((text) => ({ clientId: newId("msg"), text })));
    transcript.renderPending();
    Promise.race([live, new Promise((resolve) => window.setTimeout(resolve, 3000))]).then(() => {
      holding = false;
      sendNext();
    });
  }
  return {
    store,
    send,
    /** Resolves once the socket is open (so a turn's live events are seen), or after ``ms`` at the latest. */
    whenLive: (ms = 3000) => Promise.race([live, new Promise((resolve) => window.setTimeout(resolve, ms))]),
  };
}
