// The page shell: the conversation drawer on phones and the "new conversation" buttons.

import { api } from "./api.js";
import { h, truncate } from "./dom.js";

/** Put a conversation at the top of the sidebar as the current one (the landing page's first message). */
export function addConversation({ id, label, root = document }) {
  const list = root.querySelector("[data-conversations]");
  if (!list) return;
  list.querySelector(".conversation-empty")?.remove();
  for (const link of list.querySelectorAll("[aria-current]")) link.removeAttribute("aria-current");
  const now = new Date();
  list.prepend(h("li", {},
    h("a", { href: `/c/${encodeURIComponent(id)}/`, "data-conversation": id, "aria-current": "page" },
      h("span", { class: "conversation-label", "data-conversation-label": "", text: truncate(label.replace(/\s+/g, " "), 60) }),
      h("time", { datetime: now.toISOString(), text: now.toLocaleString(undefined, {
        day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hour12: false }) }))));
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
}
