"""``classic``: the default look."""

from cvagent_cli.documents.writing.templates import Template

TEMPLATE = Template("classic", "the default look")
