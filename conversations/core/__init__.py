"""The pure core: plan schema, reducer, claim guard, idempotency keys. No Django import here."""
