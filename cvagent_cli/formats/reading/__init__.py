"""Reading documents other tools made (PDF, DOCX, HTML, text) into resume Markdown."""
