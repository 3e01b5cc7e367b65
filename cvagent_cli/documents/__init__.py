"""Resumes in and out of other formats: export resume.md to HTML (PDF and DOCX follow)."""
