"""The resume as a document: the Markdown model (blocks, tree, headings, inline), the
words it is read with (kinds, dates, person, phones, basics) and text edits."""
