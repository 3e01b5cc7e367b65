"""Broken and hostile input for ``cvagent analyze`` and ``cvagent chat -m`` (real
subprocesses; chat talks to the loopback server).

Every case: a clear one-line message (``cvagent: error: …`` plus at most a hint line) or
a normal run, the documented exit code (0 ok, 2 input error), no traceback, the input
file's bytes unchanged and nothing new next to it except chat's lock file.
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from cvagent_cli.document.document import ResumeDocument
from tests.conftest import SAMPLES
from tests.safety.helpers import (
    assert_no_traceback,
    assert_one_line_error,
    cli_env,
    listing,
    new_files,
    run_cli,
    sha,
)
from tests.support.openai_server import LoopbackServer, Reply, tool_calls

EN = (SAMPLES / "en_senior_backend.md").read_text(encoding="utf-8")
ZH = (SAMPLES / "zh_senior_frontend.md").read_text(encoding="utf-8")
CONVERT = "cvagent import"  # what to do with a document, named in the hint
RESAVE = "save it again as PDF or .docx"  # a document that cannot be read
FIVE_MB = 5 * 1024 * 1024


# ----------------------------------------------------------------------------- inputs


def _docx() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        archive.writestr(
            "word/document.xml",
            '<?xml version="1.0"?><w:document><w:body><w:p><w:r><w:t>Jane Doe</w:t></w:r></w:p></w:body></w:document>',
        )
    return buf.getvalue()


def _png() -> bytes:
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + b"IHDR"
        + header
        + b"\x90wS\xde"
        + b"\x00\x00\x00\x00IEND\xaeB`\x82"
    )


def _five_mb() -> bytes:
    """A real resume followed by a pasted 5 MB "Publications" section of paragraphs."""
    para = (
        "Worked on the payments platform with the team, improving reliability and reviewing designs. "
        * 22
    ).strip()
    head = EN + "\n## Publications\n\n"
    count = (FIVE_MB - len(head.encode())) // (len(para) + 2) + 1
    return (head + "".join(para + "\n\n" for _ in range(count))).encode("utf-8")


def _twenty_thousand_lines() -> bytes:
    bullets = "".join(
        f"- Reviewed pull request number {i} for the billing service\n" for i in range(20_000 - 6)
    )
    return ("# Jane Doe\n\njane@example.com\n\n## Experience\n\n" + bullets).encode("utf-8")


def _long_lines() -> bytes:
    long_line = "Built and operated services " * 40_000  # ~1.1 MB on one line
    return (
        "# Jane Doe\n\n## Summary\n\n"
        + long_line
        + "\n\n## Skills\n\n"
        + "Go, " * 50_000
        + "Python\n"
    ).encode("utf-8")


def _controls_few() -> bytes:
    text = EN.replace("## Summary", "## Sum\x07mary", 1).replace(
        "Backend engineer with", "Backend\x0b engineer\x1b[31m with", 1
    )
    return text.encode("utf-8")


def _controls_many() -> bytes:
    return (
        "# Jane\n\n" + "".join(f"line {i}\x01\x02\x03\x04\x05\x06\n" for i in range(400))
    ).encode("utf-8")


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], Path]  # builds the input inside a folder, returns the path to pass
    error: tuple[str, ...] | None = None  # words of the one-line message; None: works
    hint: str | None = None


def _file(name: str, data: bytes) -> Callable[[Path], Path]:
    def make(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    return make


def _folder(folder: Path) -> Path:
    path = folder / "resumes"
    path.mkdir()
    return path


CASES = [
    Case(
        "missing_path",
        lambda folder: folder / "no-such-resume.md",
        ("no-such-resume.md", "no such file"),
    ),
    Case("a_folder", _folder, ("resumes", "folder")),
    Case("empty_file", _file("empty.md", b""), ("empty.md", "empty")),
    Case("whitespace_only", _file("blank.md", b"  \n\t\n   \r\n"), ("blank.md", "whitespace")),
    Case(
        "binary_pdf",
        _file(
            "resume.pdf",
            b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n",
        ),
        ("resume.pdf", "PDF"),
        RESAVE,
    ),
    Case("binary_docx", _file("resume.docx", _docx()), ("resume.docx", "DOCX"), RESAVE),
    Case("binary_png", _file("resume.png", _png()), ("resume.png", "PNG"), "no OCR"),
    Case("gbk_gb18030_chinese", _file("gbk.md", ZH.encode("gbk"))),  # GBK bytes are GB18030 bytes
    Case("utf16_with_bom", _file("utf16.md", b"\xff\xfe" + EN.encode("utf-16-le"))),
    Case("crlf_line_endings", _file("crlf.md", EN.replace("\n", "\r\n").encode("utf-8"))),
    Case(  # analyze has a budget; chat reads it (its own test below)
        "five_megabytes",
        _file("big.md", _five_mb()),
        ("big.md", "cvagent analyzes resumes of up to 2 million characters"),
        "save it to a file of its own",
    ),
    Case("twenty_thousand_lines", _file("lines.md", _twenty_thousand_lines())),
    Case(
        "no_headings_at_all",
        _file(
            "plain.md",
            b"Jane Doe\njane@example.com\n\nI built billing systems at Acme for five years.\nPython, Go, SQL.\n",
        ),
    ),
    Case(
        "front_matter_only",
        _file(
            "fm.md", b"---\nname: Jane Doe\nemail: jane@example.com\ntitle: Backend Engineer\n---\n"
        ),
    ),
    Case("extremely_long_lines", _file("long.md", _long_lines())),
    Case("a_few_control_characters", _file("ctrl.md", _controls_few())),
    Case(
        "mostly_control_characters",
        _file("ctrl-bin.md", _controls_many()),
        ("ctrl-bin.md", "binary"),
        CONVERT,
    ),
]
IDS = [c.name for c in CASES]


@pytest.fixture
def server():
    with LoopbackServer() as srv:
        yield srv


def _prepare(case: Case, tmp_path: Path) -> tuple[Path, Path, set[str], str | None]:
    folder = tmp_path / "in"
    folder.mkdir()
    target = case.make(folder)
    before = listing(folder)
    digest = sha(target) if target.is_file() else None
    return folder, target, before, digest


def _assert_untouched(folder: Path, target: Path, before: set[str], digest: str | None) -> None:
    if digest is not None:
        assert sha(target) == digest, "the input file was modified"
    assert new_files(folder, before) == set(), "something was written next to the input"


# ----------------------------------------------------------------------------- analyze


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_analyze_broken_input_gives_clear_message_exit_code_and_writes_nothing(
    case, tmp_path, isolated_home
):
    folder, target, before, digest = _prepare(case, tmp_path)
    proc = run_cli(["analyze", str(target), "--json"], cli_env(isolated_home))
    if case.error is not None:
        assert_one_line_error(proc, 2, *case.error, hint=case.hint)
        assert proc.stdout == b""
    else:
        assert_no_traceback(proc)
        assert proc.returncode == 0, proc.stderr.decode()
        report = json.loads(proc.stdout)
        assert report["schema_version"] == 1
        assert 0 <= report["score"] <= 100
        assert report["source"].endswith(target.name)
    _assert_untouched(folder, target, before, digest)


# ----------------------------------------------------------------------------- chat -m


CHAT_CASES = [c for c in CASES if c.name != "five_megabytes"]  # its own test below


@pytest.mark.slow
@pytest.mark.parametrize("case", CHAT_CASES, ids=[c.name for c in CHAT_CASES])
def test_chat_message_on_broken_input_gives_clear_message_exit_code_and_writes_nothing(
    case, tmp_path, isolated_home, server
):
    folder, target, before, digest = _prepare(case, tmp_path)
    proc = run_cli(["chat", str(target), "-m", "hi"], cli_env(isolated_home, server.url))
    if case.error is not None:
        assert_one_line_error(proc, 2, *case.error, hint=case.hint)
        assert server.requests == [], "a broken input reached the model"
    else:
        assert_no_traceback(proc)
        assert proc.returncode == 0, proc.stderr.decode()
        assert proc.stdout.decode().strip() == "OK"
        assert server.requests, "no request reached the model"
        for body in server.requests:
            sent = len(json.dumps(body, ensure_ascii=False).encode("utf-8"))
            # the agent works from the outline: never the whole of a large resume
            assert sent < 64_000, (sent, target.stat().st_size)
    _assert_untouched(folder, target, before, digest)


@pytest.mark.slow
def test_chat_never_sends_a_five_megabyte_resume_to_the_model(tmp_path, isolated_home, server):
    resume = tmp_path / "big.md"
    resume.write_bytes(_five_mb())
    digest, before = sha(resume), listing(tmp_path)
    # the model reads the whole resume: the tool result must be capped too
    server.enqueue(
        tool_calls(("read_resume", {})),
        tool_calls(("read_resume", {"section": "Publications"})),
        Reply(text="Read it."),
    )
    proc = run_cli(
        ["chat", str(resume), "-m", "review my resume"], cli_env(isolated_home, server.url)
    )
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr.decode()
    sizes = [len(json.dumps(body, ensure_ascii=False).encode("utf-8")) for body in server.requests]
    assert len(sizes) == 3
    assert sizes[0] < 64_000, sizes  # the first request: the outline, not the file
    assert max(sizes) < 200_000, sizes  # whole-resume reads are truncated (5 MB file)
    tool_result = [m for m in server.requests[1]["messages"] if m["role"] == "tool"][-1]
    assert "truncated" in tool_result["content"]
    assert sha(resume) == digest and new_files(tmp_path, before) == set()


# ----------------------------------------------------------------------------- an edit keeps the format

VARIANTS = {
    "utf8_bom_crlf_0640": ("utf-8", b"\xef\xbb\xbf", EN, 0o640),
    "utf16le_bom_crlf_0604": ("utf-16-le", b"\xff\xfe", EN, 0o604),
    "gb18030_crlf_0600": ("gb18030", b"", ZH, 0o600),
}


def _first_bullet(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("- "))


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
def test_applied_edit_keeps_crlf_bom_encoding_and_permissions(
    variant, tmp_path, isolated_home, server
):
    encoding, bom, text, mode = VARIANTS[variant]
    text = text.replace("\n", "\r\n")
    resume = tmp_path / "resume.md"
    resume.write_bytes(bom + text.encode(encoding))
    os.chmod(resume, mode)
    old = _first_bullet(text)
    new = old + ("，并持续优化" if encoding == "gb18030" else ", working closely with the team")
    before = listing(tmp_path)
    server.enqueue(
        tool_calls(("edit_resume", {"old_text": old, "new_text": new, "reason": "clearer"})),
        Reply(text="Done."),
    )
    proc = run_cli(
        ["chat", str(resume), "-m", "polish the first bullet", "--yes"],
        cli_env(isolated_home, server.url),
    )
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr.decode()
    expected = bom + text.replace(old, new, 1).encode(encoding)
    assert resume.read_bytes() == expected  # only the bullet changed; BOM, CRLF and encoding kept
    assert os.stat(resume).st_mode & 0o777 == mode
    assert (
        b"\n" not in resume.read_bytes().decode(encoding).replace("\r\n", "").encode()
    )  # no bare LF crept in
    assert new_files(tmp_path, before) == set()


# ----------------------------------------------------------------------------- scaling and terminal safety


def _work(text: str) -> int:
    """Bytecodes executed inside cvagent_cli while parsing and analyzing ``text``: a
    deterministic measure of work (no clocks)."""
    import cvagent_cli
    from cvagent_cli.analysis.analyzer import analyze

    package = str(Path(cvagent_cli.__file__).parent)
    count = 0

    def local(frame, event, arg):
        nonlocal count
        if event == "opcode":
            count += 1
        return local

    def outer(frame, event, arg):
        if frame.f_code.co_filename.startswith(package):
            frame.f_trace_opcodes = True
            return local
        return None

    old = sys.gettrace()
    sys.settrace(outer)
    try:
        analyze(ResumeDocument.from_text(text))
    finally:
        sys.settrace(old)
    return count


@pytest.mark.slow
def test_analyze_work_grows_linearly_with_resume_size():
    """Many sections (concatenated resumes): parsing once scanned every section per paragraph."""
    small = _work((EN + "\n") * 4)
    large = _work((EN + "\n") * 32)  # 8x the input
    assert large < small * 8 * 1.5, f"8x input cost {large / small:.1f}x the work"


@pytest.mark.slow
def test_analyze_report_never_prints_terminal_escapes_from_the_resume(tmp_path, isolated_home):
    resume = tmp_path / "esc.md"
    resume.write_text(
        EN.replace("## Summary", "## Sum\x1b[2J\x1b]0;owned\x07mary", 1), encoding="utf-8"
    )
    proc = run_cli(["analyze", str(resume), "--all"], cli_env(isolated_home))
    assert proc.returncode == 0, proc.stderr.decode()
    assert "Sum" in proc.stdout.decode()  # the heading is reported …
    assert b"\x1b" not in proc.stdout + proc.stderr  # … without its escape sequences


@pytest.mark.slow
def test_chat_diff_never_prints_terminal_escapes_from_the_resume(tmp_path, isolated_home, server):
    resume = tmp_path / "esc.md"
    text = EN.replace("Backend engineer with", "Backend\x1b[2J\x1b]0;owned\x07 engineer with", 1)
    resume.write_text(text, encoding="utf-8")
    old = "Comfortable owning a service"
    server.enqueue(
        tool_calls(("edit_resume", {"old_text": old, "new_text": "Happy owning a service"})),
        Reply(text="Done."),
    )
    proc = run_cli(
        ["chat", str(resume), "-m", "polish my summary", "--yes"],
        cli_env(isolated_home, server.url),
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert "applied" in proc.stderr.decode()
    assert b"\x1b" not in proc.stderr
