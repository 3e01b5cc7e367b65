"""Resumes in and out of other formats: ``reading/`` imports PDF, DOCX, HTML and text,
``writing/`` exports PDF, DOCX and HTML, ``interchange/`` maps JSON Resume and rendercv
YAML both ways."""
