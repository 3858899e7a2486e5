"""Discord cogs: thin adapters from slash commands and DMs to the table service."""
