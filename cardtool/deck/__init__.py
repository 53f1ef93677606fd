"""Game-neutral deck handling: YAML with positions, schemas, manifests, loading."""
