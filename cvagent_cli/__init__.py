"""cvagent: a terminal copilot that makes your Markdown resume better."""

__version__ = "0.1.0"
