"""The tools the model may call, and ``ToolCollection``, which validates their arguments
and applies the capability pack's tool policy."""
