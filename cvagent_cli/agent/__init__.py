"""The chat agent: the tool-calling loop, the resume agent on it, the chat session the
REPL drives (built in ``compose``), memory and history, intent, request building,
capability packs and typed events.  It never prints."""
