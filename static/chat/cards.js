// Interaction cards (SPEC §17): a confirmation or a selection, drawn from the interaction's own state.
// A click sends only the interaction id and the option id (I7); what the option does is the server's.
// A confirmation of an act with editable arguments (``commands[].editable_fields``) lets the person change
// them before confirming: the changed values go along as ``edits`` and the server judges them again.

import { h } from "./dom.js";

const CARD_REASON = {
  resolving: "Working on it…",
  declined: "Declined: nothing was changed.",
  stale: "The case changed after this card was made, so it can no longer be confirmed. Nothing was run.",
  superseded: "A newer card replaced this one; it can no longer be answered.",
  expired: "This card expired, so nothing was changed. Ask again to get a new one.",
  unknown: "This card is no longer available.",
};

const CARD_STATUS = {
  pending: "Waiting for you", resolving: "Working", resolved: "Done", declined: "Declined", stale: "Out of date",
  superseded: "Replaced", expired: "Expired", unknown: "Closed",
};

export function cardStatus(interaction) {
  if (interaction.status === "resolved" && interaction.kind === "confirmation") return "Confirmed";
  if (interaction.status === "resolved") return "Chosen";
  return CARD_STATUS[interaction.status] ?? interaction.status;
}

export function cardReason(interaction) {
  if (interaction.status === "pending") return "";
  if (interaction.status === "resolved") {
    const option = interaction.options?.find((o) => o.id === interaction.chosen_option);
    if (interaction.kind === "confirmation") return "Confirmed.";
    return option ? `You chose “${option.label}”.` : "Answered.";
  }
  return CARD_REASON[interaction.status] ?? CARD_REASON.unknown;
}

export function cardTitle(interaction) {
  return interaction.kind === "selection" ? "Which one?" : "Confirmation needed";
}

/** "draft · 302.50 EUR": what a selection card says beside a candidate's title (its status, then the
 *  summary its case kind gives: ``CaseKindDefinition.card_detail``). */
export function optionDetail(option) {
  const detail = option.detail ?? {};
  return [detail.status, detail.summary].filter(Boolean).join(" · ");
}

const FIELD_LABEL = { amount: "Amount", date: "Date" };

/** The one command of a confirmation whose arguments the person may change (null: none, or several). */
export function editableCommand(interaction) {
  if (interaction.kind !== "confirmation") return null;
  const editable = (interaction.commands ?? []).filter((c) => (c.editable_fields ?? []).some((f) => c.args?.[f] != null));
  return editable.length === 1 ? editable[0] : null;
}

function editsNode(command) {
  const fields = h("div", { class: "card-edits", "data-card-edits": "" },
    h("p", { class: "card-edits-hint", text: "You can change these before confirming:" }));
  for (const name of command.editable_fields) {
    const value = command.args?.[name];
    if (value == null) continue;
    const id = `edit-${command.id}-${name}`;
    fields.append(h("label", { class: "card-edit", for: id },
      h("span", { class: "card-edit-label", text: FIELD_LABEL[name] ?? name.replace(/_/g, " ") }),
      h("input", {
        id, class: "card-edit-input", "data-edit-field": name, "data-original": String(value), value: String(value),
        type: name === "date" ? "date" : "text", inputmode: name === "amount" ? "decimal" : null,
        autocomplete: "off", size: name === "amount" ? 10 : null,
      })));
  }
  return fields;
}

/** The fields the person changed in ``card`` (null: none). */
function editsOf(card) {
  const edits = {};
  for (const input of card.querySelectorAll("[data-edit-field]")) {
    const value = input.value.trim();
    if (value !== input.dataset.original) edits[input.dataset.editField] = value;
  }
  return Object.keys(edits).length ? edits : null;
}

/**
 * The card's question. Several commands ("Please confirm: Add …; Add ….") are listed one per line, so each can be
 * checked on its own; the words are the server's, unchanged.
 */
function promptNode(interaction) {
  const prompt = interaction.prompt ?? "";
  const count = (interaction.commands ?? []).length;
  const m = count > 1 ? /^([^:]+):\s([\s\S]+?)\.?$/.exec(prompt) : null;
  const parts = m ? m[2].split("; ") : [];
  if (!m || parts.length !== count) return h("p", { class: "card-prompt", text: prompt });
  return h("div", { class: "card-prompt" }, h("p", { class: "card-prompt-head", text: `${m[1]}:` }),
    h("ul", { class: "card-commands", "data-card-commands": "" }, parts.map((part) => h("li", { text: part }))));
}

/**
 * A card. ``onAnswer(interactionId, optionId, edits)`` is called by its buttons (``edits``: the changed
 * editable fields, with Confirm only); ``error`` is shown under it
 * (a refused click). An out-of-date card offers "Ask again" when ``onAskAgain(interaction)`` is given
 * (the page sends the message that drew it once more, against the case as it is now).
 */
export function cardNode(interaction, { error, onAnswer, onAskAgain } = {}) {
  const open = interaction.status === "pending";
  const title = cardTitle(interaction);
  const card = h("section", {
    class: `card card-${interaction.kind} card-status-${interaction.status}`,
    "data-interaction": interaction.id, "data-interaction-kind": interaction.kind,
    "data-status": interaction.status, "aria-label": title,
  });
  card.append(h("header", { class: "card-head" },
    h("span", { class: "card-title", text: title }),
    h("span", { class: "card-status", "data-card-status": "", text: cardStatus(interaction) })));
  card.append(promptNode(interaction));
  const editable = open ? editableCommand(interaction) : null;
  if (editable) card.append(editsNode(editable));
  const actions = h("div", { class: "card-actions" });
  for (const option of interaction.options ?? []) {
    const primary = interaction.kind === "confirmation" ? option.id === "confirm" : option.id !== "none";
    const chosen = interaction.chosen_option === option.id;
    const detail = optionDetail(option);
    actions.append(h("button", {
      type: "button",
      class: `button ${primary ? "button-primary" : "button-secondary"}${chosen ? " is-chosen" : ""}${detail ? " has-detail" : ""}`,
      "data-option": option.id, disabled: !open, "aria-pressed": chosen ? "true" : null,
      onclick: () => onAnswer?.(interaction.id, option.id, option.id === "confirm" ? editsOf(card) : null),
    }, h("span", { class: "option-label", text: option.label }),
    detail ? h("span", { class: "option-detail", "data-option-detail": "", text: detail }) : null));
  }
  card.append(actions);
  const reason = error ?? cardReason(interaction);
  if (reason) {
    card.append(h("p", { class: `card-reason ${error ? "is-error" : ""}`, "data-card-reason": interaction.status,
      role: error ? "alert" : null, text: reason }));
  }
  if ((interaction.status === "stale" || interaction.status === "expired") && onAskAgain) {
    card.append(h("div", { class: "card-actions" }, h("button", {
      type: "button", class: "button button-primary", "data-ask-again": "",
      onclick: () => onAskAgain(interaction),
    }, "Ask again")));
  }
  return card;
}
