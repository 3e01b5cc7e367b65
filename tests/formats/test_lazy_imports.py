import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a fresh interpreter


def test_cli_start_up_imports_no_document_library() -> None:
    code = (
        "import sys, cvagent_cli.cli.app; "
        "print([m for m in ('docx', 'typst', 'pdfplumber', 'rapidocr_onnxruntime', 'onnxruntime', 'pypdfium2') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
