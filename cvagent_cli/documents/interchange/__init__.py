"""The ecosystem formats: JSON Resume and rendercv YAML, both ways, through one reading
of the resume's entries (resume_data)."""
