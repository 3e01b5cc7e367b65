"""cvagent: a terminal copilot that makes your Markdown resume better."""

import logging

__version__ = "0.1.0"

# Records of cvagent's loggers go to the debug log when one is asked for (debuglog.py),
# and nowhere otherwise: never to the terminal through Python's last-resort handler.
logging.getLogger(__name__).addHandler(logging.NullHandler())
