"""Writing the resume as PDF (typst), DOCX and HTML, from one reading of its layout."""
