"""The terminal: the only user of rich and prompt-toolkit (the REPL and its slash
commands, prompts and confirmations, streamed Markdown and diffs, the analyzer report,
JSON Lines output, the editor launcher)."""
