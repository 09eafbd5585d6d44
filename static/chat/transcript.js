// The transcript: one list item per turn (the user's message or click, the live read rounds, the
// reply blocks and cards), rendered from the store. Every text that came from a user or a model is
// set with textContent, never as HTML.

import { cardNode } from "./cards.js";
import { h, plural, truncate } from "./dom.js";
import { cardIsOpen } from "./store.js";

// ------------------------------------------------------------------------------ read rounds

export function argsSummary(args) {
  // opaque ids are long and alike: the summary shows their start, the details show them whole
  const shown = (v) => (typeof v === "string" ? v.replace(/^([a-z]{3}_[A-Z0-9]{4})[A-Z0-9]{6,}$/, "$1…")
    : JSON.stringify(v));
  const parts = Object.entries(args ?? {}).map(([k, v]) => `${k}: ${shown(v)}`);
  return truncate(parts.join(", "), 60);
}

export function resultSummary(tool, result) {
  if (!result.ok) return `error: ${result.error}`;
  const r = result.result;
  if (r === null || r === undefined) return "nothing";
  if (typeof r !== "object") return truncate(String(r), 60);
  if (Array.isArray(r)) return plural(r.length, "result");
  if (typeof r.id === "string" && r.title && r.status) {
    // a case as its kind projects it: title, status, and its total when it has one
    const total = r.total !== undefined ? `${r.total} ${r.currency ?? ""}`.trim() : null;
    return truncate([r.title, r.status, total].filter(Boolean).join(" · "), 80);
  }
  if (Array.isArray(r.cases)) {
    const titles = r.cases.slice(0, 3).map((c) => c.title).join(", ");
    return truncate(`${plural(r.cases.length, "case")}${titles ? `: ${titles}` : ""}`, 80);
  }
  if (Array.isArray(r.sections)) {
    const first = r.sections[0];
    const name = first && (first.title ?? first.heading ?? first.id);
    return truncate(`${plural(r.sections.length, "section")}${name ? `: ${name}` : ""}`, 80);
  }
  if (r.rate && r.from && r.to) return `1 ${r.from} = ${r.rate} ${r.to}${r.converted ? ` (${r.converted} ${r.to})` : ""}`;
  if (r.result !== undefined && r.expression !== undefined) return truncate(`${r.expression} = ${r.result}`, 60);
  if (r.result !== undefined) return truncate(`= ${r.result}`, 60);
  if (typeof r.summary === "string") return truncate(r.summary, 80);
  return truncate(Object.keys(r).slice(0, 4).join(", "), 60);
}

/** A lookup's JSON: it may scroll, so a keyboard can reach it (focusable, named). */
function jsonBlock(text, label) {
  return h("pre", { class: "read-json", tabindex: "0", role: "region", "aria-label": label, text });
}

export function readRoundNode(turnId, round, openRounds = new Set()) {
  const key = `${turnId}:${round.round}`;
  const results = round.results ?? [];
  const requests = round.requests ?? [];
  const details = h("details", {
    class: `read-round read-round-${round.status}`, "data-read-round": round.round, "data-status": round.status,
    open: openRounds.has(key),
  });
  details.addEventListener("toggle", () => {
    if (details.open) openRounds.add(key);
    else openRounds.delete(key);
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
      jsonBlock(JSON.stringify(request.args ?? {}, null, 2), `Arguments of ${request.tool}`),
      result?.ok ? h("p", { class: "read-caption", text: "Result" }) : null,
      result?.ok ? jsonBlock(truncate(JSON.stringify(result.result, null, 2), 4000), `Result of ${request.tool}`)
        : null));
  });
  details.append(body);
  return details;
}

// ------------------------------------------------------------------------------ turns and blocks

export function workingNode(label, extra = null) {
  return h("div", { class: "working", "data-working": "" },
    h("span", { class: "working-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
    h("span", { class: "working-label", text: label }), extra);
}

/**
 * "Stop waiting" on a message turn whose model is still working (``onStop(turn)``); once asked, what the
 * server answered: stopping before anything changes, or too late (it is being carried out and will finish).
 */
export function stopNode(turn, onStop) {
  if (turn.stop_requested || turn.stopping) {
    return h("span", { class: "stop-note", "data-stop-note": "stopping", role: "status",
      text: "Stopping: nothing will be changed." });
  }
  if (turn.stopRefused) {
    return h("span", { class: "stop-note", "data-stop-note": "finishing", role: "status", text: turn.stopRefused });
  }
  return h("button", { type: "button", class: "link-button stop-button", "data-stop-turn": turn.id,
    onclick: () => onStop(turn) }, "Stop waiting");
}

/** "Stop" on a message waiting in the server's queue: it is withdrawn and never runs (``onStop(turn)``). */
export function withdrawNode(turn, onStop) {
  if (turn.stopping) {
    return h("span", { class: "stop-note", "data-stop-note": "withdrawing", role: "status", text: "Withdrawing…" });
  }
  return h("button", { type: "button", class: "link-button stop-button", "data-stop-turn": turn.id,
    "aria-label": "Stop this message", onclick: () => onStop(turn) }, "Stop");
}

// notices that say back what the user asked for (a take-back, a hold, a correction, an undo): not warnings
const ACKNOWLEDGED = new Set(["retracted", "held_by_constraint", "corrected", "undone", "stopped", "withdrawn"]);

export function blockNode(block, { interactions = new Map(), card = (i) => cardNode(i) } = {}) {
  if (block.kind === "interaction") {
    const interaction = interactions.get(block.interaction) ?? {
      id: block.interaction, kind: "confirmation", status: "unknown", prompt: block.text, options: [],
    };
    return h("div", { class: "block block-interaction", "data-block-kind": "interaction" }, card(interaction));
  }
  const acknowledged = block.kind === "notice" && ACKNOWLEDGED.has(block.code);
  const label = acknowledged ? "Noted" : { receipt: "Done", notice: "Notice" }[block.kind];
  // "confirm or decline the card above" is only true while one of its cards is still open
  const waitsFor = block.kind === "ask" ? block.interactions ?? [] : [];
  const answered = waitsFor.length > 0 && waitsFor.every((id) => {
    const known = interactions.get(id);
    return known && !cardIsOpen(known);
  });
  return h("div", {
    class: `block block-${block.kind}${acknowledged ? " block-ack" : ""}`, "data-block-kind": block.kind, "data-code": block.code ?? null,
    "data-event": block.event ?? null, hidden: answered || null,
  },
  label ? h("span", { class: "block-label", text: label }) : null,
  h("p", { class: "block-text", text: block.text }));
}

export function clickNode(turn, interactions) {
  const interaction = interactions.get(turn.interaction);
  const option = interaction?.options?.find((o) => o.id === turn.option);
  const label = option?.label ?? turn.option ?? "an option";
  return h("div", { class: "message message-click", "data-click": turn.option ?? "" },
    h("span", { class: "click-label" }, "You chose ", h("strong", { text: label })));
}

/**
 * The transcript of one conversation. ``card(interaction, options)`` draws a card (the page gives it
 * its click handler).
 */
export function createTranscript({ list, scroller, intro, chatColumn, store, card, onStop = null, onUnsend = null }) {
  function turnNode(turn) {
    const item = h("li", {
      class: `turn turn-${turn.status}${turn.withdrawn ? " turn-withdrawn" : ""}`, "data-turn": turn.id,
      "data-turn-status": turn.status, "data-turn-kind": turn.kind ?? "message", "data-withdrawn": turn.withdrawn ? "" : null,
    });
    if (turn.kind === "click") {
      item.append(clickNode(turn, store.interactions));
    } else {
      item.append(h("div", { class: "message message-user" },
        h("p", { class: "message-text", "data-user-message": "", text: turn.text })));
    }
    const assistant = h("div", { class: "assistant" });
    if (turn.read_rounds?.length) {
      assistant.append(h("div", { class: "read-rounds", "data-read-rounds": "" },
        turn.read_rounds.map((round) => readRoundNode(turn.id, round, store.openRounds))));
    }
    if (turn.status === "queued") {
      assistant.append(h("div", { class: "queued-row" },
        h("p", { class: "queued", "data-queued": "", role: "status",
          text: "Waiting: this runs when the message before it is done." }),
        onStop && turn.kind !== "click" ? withdrawNode(turn, onStop) : null));
    } else if (turn.status === "running") {
      const early = [...store.interactions.values()].filter((i) => i.turn === turn.id);
      for (const interaction of early) assistant.append(card(interaction));
      const stoppable = onStop && turn.kind !== "click";
      assistant.append(workingNode(turn.read_rounds?.length ? "Thinking…" : "Working…",
        stoppable ? stopNode(turn, onStop) : null));
    } else {
      const blocks = turn.reply?.blocks ?? [];
      assistant.append(h("div", { class: "reply", "data-reply": "" },
        blocks.map((block) => blockNode(block, { interactions: store.interactions, card }))));
    }
    item.append(assistant);
    return item;
  }

  // Scrolling. Wide screens scroll the transcript pane; narrow ones scroll the document (the case
  // panel sits under the chat and the composer sticks to the bottom), so "the bottom" is the bottom
  // of the chat column there. Whether to follow new content is decided by where the reader left the
  // view (``pinned``, kept up to date on every scroll), never measured in the middle of a render or an
  // animation; programmatic scrolls are instant, so no half-finished smooth scroll is taken for the
  // reader's choice. A ResizeObserver follows content that grows after it was drawn, and a change
  // between the two layouts (a window resized from desktop to phone) restores the newest turn, or the
  // turn the reader was looking at, instead of jumping to the top.
  const view = { pinned: true, anchor: null, layout: null };

  function paneScrolls() {
    return getComputedStyle(scroller).overflowY !== "visible";
  }

  function viewportHeight() {
    return window.visualViewport?.height ?? window.innerHeight;
  }

  function distanceFromBottom() {
    if (paneScrolls()) return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    return chatColumn.getBoundingClientRect().bottom - viewportHeight();
  }

  function viewTop() {
    if (paneScrolls()) return scroller.getBoundingClientRect().top;
    return document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
  }

  /** The first turn whose end is below the top of the view, and how far its top is from that top. */
  function topTurn() {
    const top = viewTop();
    for (const item of list.children) {
      const rect = item.getBoundingClientRect();
      if (rect.bottom > top + 1) return { id: item.dataset.turn ?? null, offset: rect.top - top };
    }
    return null;
  }

  function layoutNow() {
    return paneScrolls() ? "pane" : "page";
  }

  function remember() {
    if (layoutNow() !== view.layout) return; // the layout just changed: the resize handler restores
    view.pinned = distanceFromBottom() < 120;
    view.anchor = view.pinned ? null : topTurn();
  }

  function scrollToNewest() {
    if (paneScrolls()) {
      scroller.scrollTo({ top: scroller.scrollHeight, behavior: "instant" });
      return;
    }
    window.scrollBy({ top: chatColumn.getBoundingClientRect().bottom - viewportHeight(), behavior: "instant" });
    // the composer sticks to the bottom of what is visible: the transcript must end above it
    const composer = chatColumn.querySelector("[data-composer]");
    const overlap = list.getBoundingClientRect().bottom + 8 - (composer?.getBoundingClientRect().top ?? Infinity);
    if (overlap > 0) window.scrollBy({ top: overlap, behavior: "instant" });
  }

  function restore() {
    if (view.pinned || !view.anchor?.id) {
      scrollToNewest();
      return;
    }
    const item = list.querySelector(`[data-turn="${CSS.escape(view.anchor.id)}"]`);
    if (!item) return;
    const delta = item.getBoundingClientRect().top - viewTop() - view.anchor.offset;
    if (paneScrolls()) scroller.scrollBy({ top: delta, behavior: "instant" });
    else window.scrollBy({ top: delta, behavior: "instant" });
  }

  function keepScrolled() {
    if (view.pinned) scrollToNewest();
  }

  view.layout = layoutNow();
  scroller.addEventListener("scroll", remember, { passive: true });
  window.addEventListener("scroll", remember, { passive: true });
  window.addEventListener("resize", () => {
    const layout = layoutNow();
    if (layout !== view.layout) {
      view.layout = layout;
      restore();
    } else {
      keepScrolled();
    }
  });
  new ResizeObserver(() => keepScrolled()).observe(list);

  function renderAll() {
    if (!list.childElementCount) view.pinned = true; // a conversation opens at its newest turn
    list.replaceChildren(...store.order.map((id) => turnNode(store.turns.get(id))));
    renderPending();
    intro.hidden = store.order.length > 0 || Boolean(store.pending) || store.outbox.length > 0;
    keepScrolled();
  }

  function renderTurn(id) {
    const turn = store.turns.get(id);
    if (!turn) return;
    const node = turnNode(turn);
    const existing = list.querySelector(`[data-turn="${CSS.escape(id)}"]`);
    if (existing) existing.replaceWith(node);
    else list.insertBefore(node, list.querySelector("[data-pending-turn], [data-outbox-turn]"));
    intro.hidden = true;
    keepScrolled();
  }

  /** A message typed while the one before it was still in flight: shown waiting, sent once that one is acknowledged. */
  function outboxNode(message) {
    const note = store.outboxHeld
      ? "Not sent yet: the message before it did not go through. Send that one again, or stop this one."
      : "Waiting to send: it goes as soon as the message before it is received.";
    return h("li", { class: "turn turn-pending turn-outbox", "data-outbox-turn": message.clientId,
      "data-outbox-held": store.outboxHeld ? "" : null },
    h("div", { class: "message message-user" }, h("p", { class: "message-text", "data-user-message": "", text: message.text })),
    h("div", { class: "assistant" }, h("div", { class: "queued-row" },
      h("p", { class: "queued", "data-queued": "", role: "status", text: note }),
      onUnsend ? h("button", { type: "button", class: "link-button stop-button", "data-unsend": message.clientId,
        "aria-label": "Stop this message", onclick: () => onUnsend(message.clientId) }, "Stop") : null)));
  }

  /** The message in flight and the ones waiting behind it, after the turns. */
  function renderPending() {
    for (const node of list.querySelectorAll("[data-pending-turn], [data-outbox-turn]")) node.remove();
    if (!store.pending && !store.outbox.length) return;
    if (store.pending) {
      list.append(h("li", { class: "turn turn-pending", "data-pending-turn": store.pending.clientId },
        h("div", { class: "message message-user" }, h("p", { class: "message-text", text: store.pending.text })),
        h("div", { class: "assistant" }, workingNode("Sending…"))));
    }
    list.append(...store.outbox.map(outboxNode));
    intro.hidden = true;
    view.pinned = true; // the user just sent it: show it, and what answers it
    scrollToNewest();
  }

  function removePending() {
    list.querySelector("[data-pending-turn]")?.remove();
  }

  /** Redraw a card wherever it is shown, and the click turns that name its options. */
  function renderCards(interactionId, options = {}) {
    const interaction = store.interactions.get(interactionId);
    if (!interaction) return;
    for (const node of list.querySelectorAll(`[data-interaction="${CSS.escape(interactionId)}"]`)) {
      node.replaceWith(card(interaction, options));
    }
    for (const turn of store.turns.values()) {
      if (turn.kind === "click" && turn.interaction === interactionId) {
        list.querySelector(`[data-turn="${CSS.escape(turn.id)}"] [data-click]`)?.replaceWith(clickNode(turn, store.interactions));
      }
    }
  }

  /** Every turn whose "confirm or decline the card above" waited for this card, shown as it now stands. */
  function refreshCardHints(interactionId) {
    for (const [id, turn] of store.turns) {
      const asks = (turn.reply?.blocks ?? []).filter((b) => b.kind === "ask" && (b.interactions ?? []).includes(interactionId));
      if (asks.length) renderTurn(id);
    }
  }

  return { renderAll, renderTurn, renderPending, removePending, renderCards, refreshCardHints, scrollToNewest };
}
