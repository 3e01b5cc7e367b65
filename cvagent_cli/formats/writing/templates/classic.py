"""``classic``: the default look."""

from cvagent_cli.formats.writing.templates import Template

TEMPLATE = Template("classic", "the default look")
