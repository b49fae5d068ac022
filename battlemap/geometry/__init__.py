"""geometry layer."""
