// Turnframe chat page: the entry module (no build step). It reads the boot data and wires the
// modules under static/chat/: the sidebar, and for an open conversation its socket, transcript,
// cards, case panel and composer (chat/conversation.js ties them together).

import { startConversation } from "./chat/conversation.js";
import { setUpSidebar } from "./chat/sidebar.js";

const boot = JSON.parse(document.getElementById("turnframe-boot").textContent);

setUpSidebar();
if (boot.conversation) startConversation({ conversationId: boot.conversation, boot });
