// The case panel: the conversation's active claim as the server projects it (GET /api/cases/<id>).

import { api } from "./api.js";
import { h } from "./dom.js";

const NO_CASE = "No claim is active in this conversation yet. Mention one, or open a new claim.";

export function caseEmptyNode(message) {
  return h("div", { class: "case-empty", "data-case-empty": "" },
    h("p", { class: "eyebrow", text: "Active claim" }),
    h("p", { class: "muted", text: message ?? NO_CASE }));
}

/** The panel's children for one claim (the API's case detail with its ``view``). */
export function caseNodes(claim) {
  const view = claim.view ?? {};
  const state = claim.state ?? {};
  const currency = view.currency ?? state.currency ?? "";
  const lines = view.lines ?? (state.lines ?? []).map((line, i) => ({ ordinal: i + 1, ...line }));
  const rows = lines.map((line) => h("tr", { "data-case-line": line.ordinal },
    h("td", { class: "num", text: line.ordinal }),
    h("td", {},
      h("span", { class: "line-merchant", text: line.merchant || line.category }),
      h("span", { class: "line-meta", text: [line.date, line.merchant ? line.category : null].filter(Boolean).join(" · ") })),
    h("td", { class: "num amount", text: line.amount })));
  return [
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
    h("p", { class: "case-id" }, h("code", { text: claim.id })),
  ];
}

/** The panel element, kept in step with the active case; a late answer never overwrites a newer one. */
export function createCasePanel(panel) {
  let activeCase = null;
  let request = 0;

  function renderEmpty(message) {
    panel.removeAttribute("data-case");
    panel.replaceChildren(caseEmptyNode(message));
  }

  function render(claim) {
    panel.dataset.case = claim.id;
    panel.dataset.caseStatus = claim.status;
    panel.dataset.caseRevision = String(claim.revision);
    panel.replaceChildren(...caseNodes(claim).filter(Boolean));
  }

  async function refresh() {
    const caseId = activeCase;
    const mine = ++request;
    if (!caseId) {
      renderEmpty();
      return;
    }
    try {
      const claim = await api("GET", `/api/cases/${encodeURIComponent(caseId)}`);
      if (mine === request) render(claim);
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
