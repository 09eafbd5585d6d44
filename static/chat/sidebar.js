// The page shell: the conversation drawer on phones and the "new conversation" buttons.

import { api } from "./api.js";

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
