// The case panel: the conversation's active case as the server describes it (GET /api/cases/<id>, its
// ``panel``: fields, items with their positions, a total, what may be done next). It knows no domain: every
// word it shows about a case (its noun, the column headings, the "nothing yet" text) is the case kind's.

import { api } from "./api.js";
import { h } from "./dom.js";

let pageNoun = "case";

/** What the page calls a case before one is shown (the boot's ``caseNoun``). */
export function setCaseNoun(noun) {
  if (noun) pageNoun = noun;
}

function noCase(noun) {
  return `No ${noun} is active in this conversation yet. Mention one, or open a new ${noun}.`;
}

export function caseEmptyNode(message, noun = pageNoun) {
  return h("div", { class: "case-empty", "data-case-empty": "" },
    h("p", { class: "eyebrow", text: `Active ${noun}` }),
    h("p", { class: "muted", text: message ?? noCase(noun) }));
}

/** The panel's children for one case (the API's case detail with its ``panel``). */
export function caseNodes(detail) {
  const panel = detail.panel ?? {};
  const noun = panel.noun ?? pageNoun;
  const items = panel.items ?? [];
  const fields = panel.fields ?? [];
  const view = detail.view ?? {};
  const rows = items.map((item) => h("tr", { "data-case-item": item.ordinal },
    h("td", { class: "num", text: item.ordinal }),
    h("td", {},
      h("span", { class: "item-label", text: item.label }),
      item.meta ? h("span", { class: "item-meta", text: item.meta }) : null),
    h("td", { class: "num amount", text: item.value ?? "" })));
  return [
    h("div", { class: "case-head" },
      h("p", { class: "eyebrow", text: `Active ${noun}` }),
      h("h2", { class: "case-title", "data-case-title": "", text: detail.title }),
      h("div", { class: "case-meta" },
        h("span", { class: `status status-${detail.status}${panel.terminal ? " is-terminal" : ""}`,
          "data-case-status": detail.status, text: detail.status }),
        h("span", { class: "case-revision", "data-case-revision": detail.revision, text: `Revision ${detail.revision}` }))),
    fields.length
      ? h("dl", { class: "case-fields", "data-case-fields": "" },
        ...fields.flatMap((field) => [h("dt", { text: field.label }), h("dd", { "data-case-field": field.label, text: field.value })]))
      : null,
    items.length
      ? h("table", { class: "case-items", "data-case-items": "" },
        h("thead", {}, h("tr", {}, h("th", { class: "num", text: "#" }), h("th", { text: panel.item_heading ?? "" }),
          h("th", { class: "num", text: panel.value_heading ?? "" }))),
        h("tbody", {}, rows))
      : h("p", { class: "muted case-no-items", text: panel.empty ?? "Nothing here yet." }),
    panel.total
      ? h("div", { class: "case-total" },
        h("span", { text: panel.total_label ?? "" }),
        h("strong", { "data-case-total": panel.total, text: panel.total }))
      : null,
    view.next_steps ? h("p", { class: "case-next", text: view.next_steps }) : null,
    h("p", { class: "case-id" }, h("code", { text: detail.id })),
  ];
}

/** The panel element, kept in step with the active case; a late answer never overwrites a newer one. */
/** ``onTitle(title)``: told the title of each case the panel shows. */
export function createCasePanel(panel, { onTitle } = {}) {
  let activeCase = null;
  let request = 0;

  function renderEmpty(message) {
    panel.removeAttribute("data-case");
    panel.removeAttribute("data-case-kind");
    panel.setAttribute("aria-label", `Active ${pageNoun}`);
    panel.replaceChildren(caseEmptyNode(message));
  }

  function render(detail) {
    onTitle?.(detail.title);
    panel.dataset.case = detail.id;
    panel.dataset.caseKind = detail.kind;
    panel.dataset.caseStatus = detail.status;
    panel.dataset.caseRevision = String(detail.revision);
    panel.setAttribute("aria-label", `Active ${detail.panel?.noun ?? pageNoun}`);
    panel.replaceChildren(...caseNodes(detail).filter(Boolean));
  }

  async function refresh() {
    const caseId = activeCase;
    const mine = ++request;
    if (!caseId) {
      renderEmpty();
      return;
    }
    try {
      const detail = await api("GET", `/api/cases/${encodeURIComponent(caseId)}`);
      if (mine === request) render(detail);
    } catch (error) {
      if (mine === request) renderEmpty(error.status === 404 ? null : error.message);
    }
  }

  return {
    /** ``undefined`` leaves the panel as it is (the turn did not say). */
    setActiveCase(caseId, { refresh: now = true } = {}) {
      if (caseId === undefined) return;
      activeCase = caseId;
      if (now) refresh();
    },
    get activeCase() {
      return activeCase;
    },
    refresh,
  };
}
