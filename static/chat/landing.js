// The landing page (``/``): a composer ready to type. The first message creates the conversation
// (POST /api/conversations), the page becomes that conversation (its URL, its sidebar entry, its
// socket) and the message is sent into it as its first turn.

import { api } from "./api.js";
import { checkMessage } from "./composer.js";
import { startConversation } from "./conversation.js";
import { addConversation } from "./sidebar.js";

export function startLanding({ boot, composer, root = document }) {
  let starting = false;
  composer.setOnSend(async (raw) => {
    const { text, problem } = checkMessage(raw, boot.maxMessageChars);
    if (problem === "empty" || starting) return;
    if (problem) {
      composer.showError(problem);
      return;
    }
    starting = true;
    composer.setBusy(true);
    let conversation;
    try {
      conversation = await api("POST", "/api/conversations", {});
    } catch (error) {
      starting = false;
      composer.setBusy(false);
      composer.showError(error.message);
      return;
    }
    window.history.replaceState(null, "", `/c/${encodeURIComponent(conversation.id)}/`);
    addConversation({ id: conversation.id, label: text, root });
    root.querySelector("[data-connection]")?.removeAttribute("hidden");
    root.querySelector("[data-case-panel]")?.setAttribute("aria-label", `Active ${boot.caseNoun ?? "case"}`);
    const chat = startConversation({ conversationId: conversation.id, boot: { ...boot, conversation: conversation.id },
      composer, root });
    await chat.whenLive();
    composer.setBusy(false);
    chat.send(text);
  });
}
