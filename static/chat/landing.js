// The landing page (``/``): a composer ready to type. The first message creates the conversation
// (POST /api/conversations), the page becomes that conversation (its URL, its sidebar entry, its
// socket) and the message is sent into it as its first turn.

import { api } from "./api.js";
import { checkMessage } from "./composer.js";
import { startConversation } from "./conversation.js";
import { addConversation } from "./sidebar.js";

export function startLanding({ boot, composer, root = document }) {
  let typed = null; // while the conversation is being created: the messages typed, in order
  composer.setOnSend(async (raw) => {
    const { text, problem } = checkMessage(raw, boot.maxMessageChars);
    if (problem === "empty") return;
    if (problem) {
      composer.showError(problem);
      return;
    }
    if (typed) { // not dropped: sent after the first, in order, once the conversation is there
      typed.push(text);
      composer.clear();
      return;
    }
    typed = [text];
    composer.clear();
    let conversation;
    try {
      conversation = await api("POST", "/api/conversations", {});
    } catch (error) {
      composer.fill(typed.join("\n"), { onlyIfEmpty: true });
      typed = null;
      composer.showError(error.message);
      return;
    }
    window.history.replaceState(null, "", `/c/${encodeURIComponent(conversation.id)}/`);
    addConversation({ id: conversation.id, label: text, root });
    root.querySelector("[data-connection]")?.removeAttribute("hidden");
    root.querySelector("[data-case-panel]")?.setAttribute("aria-label", `Active ${boot.caseNoun ?? "case"}`);
    // the conversation shows them waiting at once and sends them, in order, once its socket is live
    startConversation({ conversationId: conversation.id, boot: { ...boot, conversation: conversation.id },
      composer, root, queued: typed });
  });
}
