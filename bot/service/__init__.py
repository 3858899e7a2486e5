"""The table service (placeholder; the API summary follows with the service module)."""
