// What the page knows about one conversation: turns in order, the latest state of each card, the
// message in flight. Plain data and merge rules only (a later status never goes back to an earlier one).

const RANK = { queued: -1, running: 0, completed: 1, failed: 1 };
const CARD_RANK = { pending: 0, resolving: 1 }; // every other status is final (2)

export function createStore() {
  return {
    turns: new Map(), // id -> turn (a partial one while it runs)
    order: [], // turn ids, in conversation order
    interactions: new Map(), // id -> latest interaction we know
    openRounds: new Set(), // "<turn>:<round>" of the read rounds the user expanded
    pending: null, // {clientId, text, viaSocket, orphaned}: a message sent, its turn not yet seen
    // messages typed while another was still in flight: sent one at a time, in order, each once the one
    // before it is acknowledged (its turn seen); ``outboxHeld`` when the one before did not go through
    outbox: [], // [{clientId, text}]
    outboxHeld: false,
    unsure: null, // {clientId, text}: a message that may have been lost with its socket
    activeCase: null,
    lastSeq: 0,
    loaded: false,

    /** Merge a turn; returns true when it is the turn of the message in flight. */
    upsertTurn(turn, { authoritative }) {
      const known = this.turns.get(turn.id);
      if (!known) {
        this.turns.set(turn.id, turn);
        this.order.push(turn.id);
      } else if (authoritative && (RANK[turn.status] ?? 0) >= (RANK[known.status] ?? 0)) {
        this.turns.set(turn.id, turn);
      }
      for (const interaction of turn.interactions ?? []) this.upsertInteraction(interaction);
      return Boolean(this.pending && turn.client_message_id === this.pending.clientId);
    },

    upsertInteraction(interaction) {
      const known = this.interactions.get(interaction.id);
      const rank = (s) => CARD_RANK[s] ?? 2;
      if (!known || rank(interaction.status) >= rank(known.status)) {
        this.interactions.set(interaction.id, interaction);
      }
    },

    /** The turn that drew a card (its message text is what "ask again" sends). */
    turnOf(interaction) {
      if (interaction?.turn && this.turns.has(interaction.turn)) return this.turns.get(interaction.turn);
      for (const turn of this.turns.values()) {
        if ((turn.interactions ?? []).some((i) => i.id === interaction?.id)) return turn;
      }
      return null;
    },
  };
}

export function partialTurn(id, text) {
  return {
    id, text: text ?? "", kind: text ? "message" : "click", status: "running",
    read_rounds: [], reply: { blocks: [] }, interactions: [],
  };
}

export function cardIsOpen(interaction) {
  return interaction?.status === "pending" || interaction?.status === "resolving";
}
