"""The ecosystem formats: JSON Resume and rendercv YAML, both ways; ``resume_data`` maps
the document's entries (``document.entries``) onto their fields."""
