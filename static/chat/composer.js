// The composer: a textarea that grows with its text, Enter to send (Shift+Enter for a new line), a
// character count near the limit, and one line for errors. It knows nothing of turns: ``onSend(text)``
// decides what sending means (the landing page creates a conversation, a conversation sends a turn),
// and can be handed over with ``setOnSend``.

export function createComposer({ form, input, sendButton, errorLine, counter, maxChars, onSend }) {
  function autosize() {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 200)}px`;
    const length = input.value.length;
    counter.textContent = length > maxChars * 0.8 ? `· ${length} / ${maxChars}` : "";
    counter.classList.toggle("is-over", length > maxChars);
  }

  function showError(message) {
    errorLine.textContent = message;
    errorLine.hidden = false;
  }

  function hideError() {
    errorLine.hidden = true;
    errorLine.textContent = "";
  }

  input.addEventListener("input", () => {
    autosize();
    hideError();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSend?.(input.value);
  });

  return {
    setOnSend(fn) {
      onSend = fn;
    },
    autosize,
    showError,
    hideError,
    get value() {
      return input.value;
    },
    /** Put text in the box (a suggestion, or a message that must be sent again), ready to edit. */
    fill(text, { onlyIfEmpty = false } = {}) {
      if (onlyIfEmpty && input.value.trim()) return;
      input.value = text;
      autosize();
    },
    clear() {
      input.value = "";
      autosize();
    },
    setBusy(busy) {
      sendButton.disabled = busy;
    },
    focus() {
      input.focus({ preventScroll: true });
    },
  };
}

/** Whether a message may be sent: not empty, not over the limit (the reason when it may not). */
export function checkMessage(raw, maxChars) {
  const text = String(raw ?? "").trim();
  if (!text) return { text, problem: "empty" };
  if (text.length > maxChars) return { text, problem: `A message may be at most ${maxChars} characters.` };
  return { text, problem: null };
}
