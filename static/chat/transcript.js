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
      h("pre", { class: "read-json", text: JSON.stringify(request.args ?? {}, null, 2) }),
      result?.ok ? h("p", { class: "read-caption", text: "Result" }) : null,
      result?.ok ? h("pre", { class: "read-json", text: truncate(JSON.stringify(result.result, null, 2), 4000) })
        : null));
  });
  details.append(body);
  return details;
}

// ------------------------------------------------------------------------------ turns and blocks

export function workingNode(label) {
  return h("div", { class: "working", "data-working": "" },
    h("span", { class: "working-dots", "aria-hidden": "true" }, h("span"), h("span"), h("span")),
    h("span", { class: "working-label", text: label }));
}

export function blockNode(block, { interactions = new Map(), card = (i) => cardNode(i) } = {}) {
  if (block.kind === "interaction") {
    const interaction = interactions.get(block.interaction) ?? {
      id: block.interaction, kind: "confirmation", status: "unknown", prompt: block.text, options: [],
    };
    return h("div", { class: "block block-interaction", "data-block-kind": "interaction" }, card(interaction));
  }
  const label = { receipt: "Done", notice: "Notice" }[block.kind];
  // "confirm or decline the card above" is only true while one of its cards is still open
  const waitsFor = block.kind === "ask" ? block.interactions ?? [] : [];
  const answered = waitsFor.length > 0 && waitsFor.every((id) => {
    const known = interactions.get(id);
    return known && !cardIsOpen(known);
  });
  return h("div", {
    class: `block block-${block.kind}`, "data-block-kind": block.kind, "data-code": block.code ?? null,
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
export function createTranscript({ list, scroller, intro, chatColumn, store, card }) {
  function turnNode(turn) {
    const item = h("li", {
      class: `turn turn-${turn.status}`, "data-turn": turn.id, "data-turn-status": turn.status,
      "data-turn-kind": turn.kind ?? "message",
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
      assistant.append(h("p", { class: "queued", "data-queued": "", role: "status",
        text: "Waiting: this runs when the message before it is done." }));
    } else if (turn.status === "running") {
      const early = [...store.interactions.values()].filter((i) => i.turn === turn.id);
      for (const interaction of early) assistant.append(card(interaction));
      assistant.append(workingNode(turn.read_rounds?.length ? "Thinking…" : "Working…"));
    } else {
      const blocks = turn.reply?.blocks ?? [];
      assistant.append(h("div", { class: "reply", "data-reply": "" },
        blocks.map((block) => blockNode(block, { interactions: store.interactions, card }))));
    }
    item.append(assistant);
    return item;
  }

  // Wide screens scroll the transcript pane; narrow ones scroll the document (the case panel sits
  // under the chat), so "the bottom" is the bottom of the chat column there.
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
    const first = !list.childElementCount;
    const stick = first || nearBottom();
    list.replaceChildren(...store.order.map((id) => turnNode(store.turns.get(id))));
    renderPending();
    intro.hidden = store.order.length > 0 || Boolean(store.pending);
    keepScrolled(stick);
  }

  function renderTurn(id) {
    const turn = store.turns.get(id);
    if (!turn) return;
    const stick = nearBottom();
    const node = turnNode(turn);
    const existing = list.querySelector(`[data-turn="${CSS.escape(id)}"]`);
    if (existing) existing.replaceWith(node);
    else list.insertBefore(node, list.querySelector("[data-pending-turn]"));
    intro.hidden = true;
    keepScrolled(stick);
  }

  function renderPending() {
    list.querySelector("[data-pending-turn]")?.remove();
    if (!store.pending) return;
    list.append(h("li", { class: "turn turn-pending", "data-pending-turn": store.pending.clientId },
      h("div", { class: "message message-user" }, h("p", { class: "message-text", text: store.pending.text })),
      h("div", { class: "assistant" }, workingNode("Sending…"))));
    intro.hidden = true;
    keepScrolled(true); // the user just sent it: show it
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

  return { renderAll, renderTurn, renderPending, removePending, renderCards, refreshCardHints };
}
