// Turnframe chat page: the entry module (no build step). It reads the boot data and wires the
// modules under static/chat/: the sidebar, the composer, and either the landing page (a composer
// ready to type; the first message creates the conversation) or an open conversation with its
// socket, transcript, cards and case panel (chat/conversation.js ties them together).

import { setCaseNoun } from "./chat/case-panel.js";
import { createComposer } from "./chat/composer.js";
import { startConversation } from "./chat/conversation.js";
import { startLanding } from "./chat/landing.js";
import { setUpSidebar } from "./chat/sidebar.js";

const boot = JSON.parse(document.getElementById("turnframe-boot").textContent);
const $ = (selector) => document.querySelector(selector);
setCaseNoun(boot.caseNoun);

setUpSidebar();
const composer = createComposer({
  form: $("[data-composer]"), input: $("[data-input]"), sendButton: $("[data-send]"),
  errorLine: $("[data-composer-error]"), counter: $("[data-count]"), maxChars: boot.maxMessageChars,
});
for (const chip of document.querySelectorAll("[data-suggestion]")) {
  chip.addEventListener("click", () => {
    composer.fill(chip.textContent);
    composer.focus();
  });
}
if (boot.conversation) startConversation({ conversationId: boot.conversation, boot, composer });
else startLanding({ boot, composer });
