"""The players\x27 window: a projector-safe view of the encounter."""
