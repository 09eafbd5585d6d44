// The page shell's sidebar: the conversation drawer on phones, "new conversation", and the list of the
// user's conversations, which they can search (by name or anything said), rename and delete (softly:
// the server keeps the record, the user no longer sees it).

import { api } from "./api.js";
import { h, truncate } from "./dom.js";

function shortDate(date) {
  return date.toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    hour12: false });
}

/** One entry of the list, the same as the server renders it. */
export function conversationItem({ id, label, createdAt, current = false }) {
  const when = createdAt ? new Date(createdAt) : new Date();
  return h("li", { class: "conversation-item", "data-conversation-item": id },
    h("a", { href: `/c/${encodeURIComponent(id)}/`, "data-conversation": id, "aria-current": current ? "page" : null },
      h("span", { class: "conversation-label", "data-conversation-label": "", text: label }),
      h("time", { datetime: when.toISOString(), text: shortDate(when) })),
    h("button", { type: "button", class: "icon-button conversation-menu-button", "data-conversation-menu": "",
      "aria-expanded": "false", "aria-label": `Options for ${label}` }, h("span", { "aria-hidden": "true", text: "⋯" })));
}

/** Put a conversation at the top of the sidebar as the current one (the landing page's first message). */
export function addConversation({ id, label, root = document }) {
  const list = root.querySelector("[data-conversations]");
  if (!list) return;
  list.querySelector(".conversation-empty")?.remove();
  for (const link of list.querySelectorAll("[aria-current]")) link.removeAttribute("aria-current");
  list.prepend(conversationItem({ id, label: truncate(label.replace(/\s+/g, " "), 60), current: true }));
}

/**
 * Call a conversation by ``label`` in the sidebar (its first message, then the case it works on, as the server lists
 * it): never one the user named; with ``replacing``, only while that is its label.
 */
export function labelConversation({ id, label, replacing = null }) {
  const item = document.querySelector(`[data-conversation-item="${CSS.escape(id)}"]`);
  const node = item?.querySelector("[data-conversation-label]");
  if (!node || item.dataset.named || !label) return;
  if (replacing !== null && node.textContent !== replacing) return;
  node.textContent = truncate(label.replace(/\s+/g, " "), 60);
  item.querySelector("[data-conversation-menu]")?.setAttribute("aria-label", `Options for ${node.textContent}`);
}

function currentConversation() {
  return window.location.pathname.match(/^\/c\/([^/]+)\/$/)?.[1] ?? null;
}

function labelOf(item) {
  return item.querySelector("[data-conversation-label]")?.textContent ?? "";
}

function closeActions(item) {
  item.querySelector("[data-conversation-actions]")?.remove();
  item.querySelector("[data-conversation-menu]")?.setAttribute("aria-expanded", "false");
}

function showActions(item, ...children) {
  item.querySelector("[data-conversation-actions]")?.remove();
  const panel = h("div", { class: "conversation-actions", "data-conversation-actions": "" }, ...children);
  item.append(panel);
  item.querySelector("[data-conversation-menu]")?.setAttribute("aria-expanded", "true");
  return panel;
}

function menu(item) {
  const panel = showActions(item,
    h("button", { type: "button", class: "button button-secondary", "data-rename": "", onclick: () => rename(item) },
      "Rename"),
    h("button", { type: "button", class: "button button-danger", "data-delete": "", onclick: () => confirmDelete(item) },
      "Delete"));
  panel.querySelector("button").focus();
}

function rename(item) {
  const id = item.dataset.conversationItem;
  const input = h("input", { type: "text", class: "search-input", maxlength: "200", value: labelOf(item),
    "aria-label": "New name", "data-rename-input": "" });
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const form = h("form", { class: "rename-form", "data-rename-form": "" }, input,
    h("div", { class: "conversation-actions-row" },
      h("button", { type: "submit", class: "button button-primary" }, "Save"),
      h("button", { type: "button", class: "button button-secondary", onclick: () => cancel() }, "Cancel")),
    error);
  const cancel = () => {
    closeActions(item);
    item.querySelector("[data-conversation-menu]")?.focus();
  };
  form.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancel();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const saved = await api("PATCH", `/api/conversations/${encodeURIComponent(id)}`, { title: input.value });
      const label = saved.label ?? saved.title ?? input.value;
      item.querySelector("[data-conversation-label]").textContent = label || labelOf(item);
      item.dataset.named = saved.title ? "1" : ""; // a name of the user's: the case's title no longer replaces it
      item.querySelector("[data-conversation-menu]").setAttribute("aria-label", `Options for ${label}`);
      cancel();
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
    }
  });
  showActions(item, form);
  input.focus();
  input.select();
}

function confirmDelete(item) {
  const id = item.dataset.conversationItem;
  const error = h("p", { class: "form-error", role: "alert", hidden: true });
  const panel = showActions(item,
    h("p", { class: "conversation-actions-text", text: `Delete “${labelOf(item)}”? It leaves your list; `
      + "what was done in it stays on record." }),
    h("div", { class: "conversation-actions-row" },
      h("button", { type: "button", class: "button button-danger", "data-confirm-delete": "", onclick: async () => {
        try {
          await api("DELETE", `/api/conversations/${encodeURIComponent(id)}`);
        } catch (problem) {
          error.textContent = problem.message;
          error.hidden = false;
          return;
        }
        if (currentConversation() === id) {
          window.location.assign("/");
          return;
        }
        const next = item.nextElementSibling ?? item.previousElementSibling;
        item.remove();
        (next?.querySelector("a") ?? document.querySelector("[data-conversation-search]"))?.focus();
      } }, "Delete"),
      h("button", { type: "button", class: "button button-secondary", onclick: () => {
        closeActions(item);
        item.querySelector("[data-conversation-menu]")?.focus();
      } }, "Cancel")),
    error);
  panel.querySelector("[data-confirm-delete]").focus();
}

function setUpSearch(root, list) {
  const search = root.querySelector("[data-conversation-search]");
  const empty = root.querySelector("[data-search-empty]");
  if (!search) return;
  let timer = null;
  let asked = 0;
  search.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(async () => {
      const mine = ++asked;
      const query = search.value.trim();
      let found;
      try {
        found = await api("GET", `/api/conversations${query ? `?q=${encodeURIComponent(query)}` : ""}`);
      } catch {
        return; // the list stays as it was
      }
      if (mine !== asked) return; // a newer search is on its way
      const current = currentConversation();
      list.replaceChildren(...found.map((c) => conversationItem({ id: c.id, label: c.label ?? c.title ?? "New conversation",
        createdAt: c.created_at, current: c.id === current })));
      empty.hidden = found.length > 0 || !query;
      list.dataset.searched = query;
    }, 200);
  });
}

export function setUpSidebar(root = document) {
  const sidebar = root.querySelector("[data-sidebar]");
  const navToggle = root.querySelector("[data-nav-toggle]");
  navToggle?.addEventListener("click", () => {
    const open = sidebar.classList.toggle("is-open");
    navToggle.setAttribute("aria-expanded", String(open));
  });

  for (const button of root.querySelectorAll("[data-new-conversation]")) {
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

  const list = root.querySelector("[data-conversations]");
  if (!list) return;
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-conversation-menu]");
    if (!button) return;
    const item = button.closest("[data-conversation-item]");
    if (button.getAttribute("aria-expanded") === "true") closeActions(item);
    else menu(item);
  });
  setUpSearch(root, list);
}
