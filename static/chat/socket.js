// The conversation socket (CONTRACT §7): connect, reconnect with backoff, keep alive with ping/pong.
//
// The socket only notifies: the caller refetches the conversation on every (re)connect (``onOpen``)
// and on any gap in the event sequence, so the page always converges on the database.

/**
 * The keep-alive: a `ping` frame every `everyMs` while the socket is open, answered by a `pong` event.
 * Idle connections stay busy enough for proxies that close quiet ones, and a socket whose pong does
 * not come back within `withinMs` is dead whatever the browser thinks: it is closed (and reconnected).
 */
export function keepAlive({ everyMs, withinMs = 10_000 }) {
  return {
    timer: null,
    deadline: null,
    start(ws) {
      this.stop();
      this.timer = window.setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return;
        ws.send(JSON.stringify({ type: "ping" }));
        if (this.deadline === null) this.deadline = window.setTimeout(() => ws.close(), withinMs);
      }, everyMs);
    },
    answered() {
      window.clearTimeout(this.deadline);
      this.deadline = null;
    },
    stop() {
      window.clearInterval(this.timer);
      this.answered();
      this.timer = null;
    },
  };
}

export function socketUrl(conversationId, location = window.location) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/conversations/${encodeURIComponent(conversationId)}/`;
}

/**
 * Open the conversation's socket and keep it open. Callbacks: ``onEvent(event)`` for every parsed
 * event (pongs are handled here), ``onStatus(status, label)`` for the connection badge, ``onOpen()``
 * after each (re)connect, ``onClose(code)`` before a reconnect is planned; a 4401 goes to sign-in and
 * a 4404 stops reconnecting (``onGone()``).
 */
export function openSocket({ conversationId, pingSeconds = 25, onEvent, onStatus, onOpen, onClose, onGone }) {
  let socket = null;
  let backoff = 500;
  const alive = keepAlive({ everyMs: pingSeconds * 1000 });

  function connect() {
    onStatus?.("connecting", "Connecting…");
    socket = new WebSocket(socketUrl(conversationId));
    const ws = socket;
    ws.addEventListener("open", () => {
      alive.start(ws);
      backoff = 500;
      onStatus?.("open", "Live");
      onOpen?.();
    });
    ws.addEventListener("message", (message) => {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (event.type === "pong") alive.answered();
      onEvent(event);
    });
    ws.addEventListener("close", (close) => {
      alive.stop();
      socket = null;
      onClose?.(close.code);
      if (close.code === 4401) {
        window.location.assign(`/login/?next=${encodeURIComponent(window.location.pathname)}`);
        return;
      }
      if (close.code === 4404) {
        onStatus?.("closed", "Not found");
        onGone?.();
        return;
      }
      onStatus?.("closed", "Reconnecting…");
      window.setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 10_000);
    });
  }

  connect();
  return {
    isOpen: () => Boolean(socket && socket.readyState === WebSocket.OPEN),
    send(frame) {
      socket.send(JSON.stringify(frame));
    },
  };
}
