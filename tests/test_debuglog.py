"""The debug log (``cvagent --verbose``, ``CVAGENT_DEBUG=1``): what a bug report needs, in
a capped file in the state directory, never on the terminal, never with a secret."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from cvagent_cli import debuglog
from cvagent_cli.cli.app import app, command_words
from cvagent_cli.llm.gateway import LiteLLMGateway
from cvagent_cli.llm.retry import RetryPolicy
from cvagent_cli.settings import Settings, load_settings
from cvagent_cli.store.atomic import atomic_write_bytes
from tests.conftest import SAMPLES
from tests.support.openai_server import LoopbackServer, Reply, status

pytestmark = [
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning:litellm.*"),
]

FAKE_KEY = "sk-debuglog-test-key-1234567890abcdef"
SAMPLE = str(SAMPLES / "en_new_grad.md")
WORDS = command_words(typer.main.get_command(app))
runner = CliRunner()


@pytest.fixture(autouse=True)
def closed_log():
    yield
    debuglog.stop()  # the handler is process-wide: no test leaves it to the next


def read_log() -> str:
    path = debuglog.log_path()
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_without_verbose_there_is_no_log_and_nothing_is_said(capfd):
    result = runner.invoke(app, ["analyze", SAMPLE])
    assert result.exit_code == 0, result.output
    assert not debuglog.log_path().exists()
    assert "debug log" not in result.output
    # and a cvagent record never reaches the terminal through Python's last resort
    logging.getLogger("cvagent_cli.somewhere").warning("not for the terminal")
    out, err = capfd.readouterr()
    assert "not for the terminal" not in out + err


def test_verbose_writes_version_platform_and_command_to_the_state_dir(isolated_home: Path):
    result = runner.invoke(app, ["--verbose", "analyze", SAMPLE])
    assert result.exit_code == 0, result.output
    path = debuglog.log_path()
    assert path == isolated_home / "state" / "debug.log"
    text = read_log()
    assert "cvagent 0.1.0, Python " in text and "command: " in text
    assert "wrote" not in text  # analyze writes no file
    # the terminal gets the path, once, and no record
    assert result.output.count(str(path)) == 1
    assert "DEBUG" not in result.output


def test_short_flag_and_environment_variable_turn_it_on(monkeypatch):
    assert runner.invoke(app, ["-v", "analyze", SAMPLE]).exit_code == 0
    assert "command: " in read_log()
    debuglog.stop()
    debuglog.log_path().unlink()
    monkeypatch.setenv("CVAGENT_DEBUG", "0")
    assert runner.invoke(app, ["analyze", SAMPLE]).exit_code == 0
    assert not debuglog.log_path().exists()
    monkeypatch.setenv("CVAGENT_DEBUG", "1")
    result = runner.invoke(app, ["analyze", SAMPLE])
    assert result.exit_code == 0
    assert "command: " in read_log()
    assert "debug log" not in result.output  # asked for in the environment: no word said


def test_settings_are_logged_without_secrets(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    monkeypatch.setenv("CVAGENT_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("CVAGENT_API_BASE", "http://user:hunter22@127.0.0.1:9/v1")
    debuglog.start(verbose=True)
    load_settings()
    logging.getLogger("cvagent_cli.test").debug("the key is %s", FAKE_KEY)
    text = read_log()
    assert "model='openai/gpt-4o-mini' (env)" in text
    assert "max_steps=10 (default)" in text
    assert FAKE_KEY not in text and FAKE_KEY[:16] not in text
    assert "hunter22" not in text
    assert "the key is" in text and "[REDACTED]" in text


def gateway(server: LoopbackServer, monkeypatch) -> LiteLLMGateway:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    return LiteLLMGateway(
        Settings(model="openai/gpt-4o-mini", api_base=server.url, timeout=10),
        RetryPolicy(max_retries=0, sleep=lambda _: None, rng=lambda: 0.5),
    )


def test_a_model_call_is_logged_with_model_duration_and_tokens(server, monkeypatch):
    debuglog.start(verbose=True)
    server.enqueue(Reply(text="Quantify it.", usage=(1200, 34)))
    list(gateway(server, monkeypatch).stream([{"role": "user", "content": "review"}]))
    line = next(ln for ln in read_log().splitlines() if "model call:" in ln)
    assert "openai/gpt-4o-mini" in line and "1 messages" in line
    assert "1200 prompt tokens" in line and "34 completion tokens" in line
    assert " s, " in line  # the duration
    assert FAKE_KEY not in read_log()


def test_a_failed_model_call_is_logged_with_its_error(server, monkeypatch):
    from cvagent_cli.errors import ModelError

    debuglog.start(verbose=True)
    server.enqueue(status(401))
    with pytest.raises(ModelError):
        list(gateway(server, monkeypatch).stream([{"role": "user", "content": "review"}]))
    line = next(ln for ln in read_log().splitlines() if "model call failed:" in ln)
    assert "openai/gpt-4o-mini, attempt 1" in line and "authentication failed" in line
    assert FAKE_KEY not in read_log()


def test_tool_calls_are_logged_by_name_and_outcome_not_by_content(resume: Path):
    from cvagent_cli.document.document import ResumeDocument
    from cvagent_cli.tools.agent_tools import default_tools
    from cvagent_cli.tools.base import ToolContext
    from cvagent_cli.workspace import Workspace

    debuglog.start(verbose=True)
    tools = default_tools()
    ctx = ToolContext(Workspace(ResumeDocument.from_path(resume)))
    tools.execute("read_resume", '{"section": "Summary"}', ctx)
    tools.execute("read_resume", '{"section": "experience"}', ctx)
    tools.execute("no_such_tool", "{}", ctx)
    text = read_log()
    assert "tool call: read_resume, 22 characters of arguments: ok, " in text
    assert "tool call: no_such_tool, 2 characters of arguments: failed, " in text
    assert "Summary" not in text  # arguments are counted, not copied
    # nor the words of the resume that a tool's summary names (sections, employers)
    assert "summary" not in text.lower() and "experience" not in text.lower()


def test_file_writes_are_logged(tmp_path: Path):
    debuglog.start(verbose=True)
    target = tmp_path / "out.md"
    atomic_write_bytes(target, b"# A\n")
    assert f"wrote {target} (4 bytes)" in read_log()


def test_the_log_is_capped_at_two_files(monkeypatch):
    monkeypatch.setattr(debuglog, "MAX_BYTES", 2000)
    debuglog.start(verbose=True)
    log = logging.getLogger("cvagent_cli.test")
    for i in range(200):
        log.debug("record %d %s", i, "x" * 50)
    path = debuglog.log_path()
    files = sorted(path.parent.glob("debug.log*"))
    assert [f.name for f in files] == ["debug.log", "debug.log.1"]
    assert all(f.stat().st_size <= 2000 for f in files)
    assert "record 199" in path.read_text(encoding="utf-8")


def test_an_unwritable_state_dir_costs_the_log_not_the_command(isolated_home: Path):
    (isolated_home / "state").write_text("a file where the folder should be", encoding="utf-8")
    result = runner.invoke(app, ["--verbose", "analyze", SAMPLE])
    assert result.exit_code == 0, result.output
    assert "debug log" not in result.output


def test_help_names_the_option_and_the_variable():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    assert "--verbose" in result.output and "CVAGENT_DEBUG=1" in result.output


def test_what_the_user_typed_never_reaches_the_log(monkeypatch):
    typed = "my phone is 555-0142 and my SSN is 078-05-1120"
    monkeypatch.setattr(
        "sys.argv", ["/venv/bin/cvagent", "--verbose", "chat", SAMPLE, "-m", typed, "--yes"]
    )
    debuglog.start(verbose=True, command_words=WORDS)
    text = read_log()
    line = next(ln for ln in text.splitlines() if "command: " in ln)
    assert line.endswith(f"command: cvagent --verbose chat {SAMPLE} -m <46 chars> --yes")
    assert "555-0142" not in text and "078-05-1120" not in text


@pytest.mark.parametrize(
    ("argv", "logged"),
    [
        (["cvagent", "--message=quit my job", "chat"], "cvagent --message=<11 chars> chat"),
        (["cvagent", "chat", "-", "--model", "gpt-4o"], "cvagent chat - --model gpt-4o"),
        (["cvagent", "log", "search", "salary"], "cvagent log <6 chars> <6 chars>"),
        (["cvagent", "log", "status"], "cvagent log status"),
        (["cvagent", "config", "show"], "cvagent config show"),
        (["cvagent", "chat", "no/such/file.md"], "cvagent chat <15 chars>"),
    ],
)
def test_the_command_line_keeps_settings_and_paths_and_counts_text(argv, logged):
    assert debuglog.describe_command(argv, WORDS) == logged


def test_the_command_words_are_the_apps_commands():
    assert {"analyze", "chat", "export", "import", "doctor", "config", "log", "on", "off"} <= WORDS
    assert not {"search", "prune", "list"} & WORDS  # not commands: typed text, counted


def test_the_logged_command_line_keeps_the_apps_command_words(monkeypatch):
    monkeypatch.setattr("sys.argv", ["/venv/bin/cvagent", "--verbose", "log", "status"])
    result = CliRunner().invoke(app, ["--verbose", "log", "status"])
    assert result.exit_code == 0, result.output
    assert "command: cvagent --verbose log status" in read_log()


def test_the_log_is_private_like_every_state_file(monkeypatch):
    path = debuglog.log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("from an older version\n", encoding="utf-8")
    path.chmod(0o644)
    monkeypatch.setattr(debuglog, "MAX_BYTES", 500)
    debuglog.start(verbose=True)
    for i in range(30):
        logging.getLogger("cvagent_cli.test").debug("record %d %s", i, "x" * 40)
    files = sorted(path.parent.glob("debug.log*"))
    assert len(files) == 2
    assert all(f.stat().st_mode & 0o777 == 0o600 for f in files)
