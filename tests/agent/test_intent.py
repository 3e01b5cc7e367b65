"""Intent classification before think(): heuristics (EN + ZH), the model classifier, language."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cvagent_cli.agent.intent import (
    Intent,
    IntentResult,
    build_classifier_messages,
    classify,
    classify_heuristic,
    classify_with_model,
    detect_language,
    extract_path,
    parse_label,
)
from cvagent_cli.errors import ContextWindowError, ModelError
from cvagent_cli.llm.types import ModelResponse

SECTIONS = ["Summary", "Experience", "Skills", "工作经历", "项目经历", "自我评价"]


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        # greetings and thanks, only when that is all the message says
        ("hi", Intent.GREETING),
        ("Hello!", Intent.GREETING),
        ("hey there", Intent.GREETING),
        ("你好", Intent.GREETING),
        ("您好呀～", Intent.GREETING),
        ("thanks!", Intent.THANKS),
        ("Thank you so much", Intent.THANKS),
        ("ok thanks", Intent.THANKS),
        ("谢谢", Intent.THANKS),
        ("好的，谢谢！", Intent.THANKS),
        # analysis
        ("analyze my resume", Intent.ANALYZE),
        ("Can you analyse my CV?", Intent.ANALYZE),
        ("what's wrong with my resume?", Intent.ANALYZE),
        ("please review my experience section", Intent.ANALYZE),
        ("帮我分析一下简历", Intent.ANALYZE),
        ("评分", Intent.ANALYZE),
        ("给我的简历打个分", Intent.ANALYZE),
        ("我的简历有什么问题？", Intent.ANALYZE),
        # edits
        ("optimize my experience section", Intent.EDIT),
        ("Rewrite the summary", Intent.EDIT),
        ("polish my bullets", Intent.EDIT),
        ("improve my summary", Intent.EDIT),
        ("make it more concise", Intent.EDIT),
        ("优化一下工作经历", Intent.EDIT),
        ("帮我改写项目经历", Intent.EDIT),
        ("润色一下自我评价", Intent.EDIT),
        ("用STAR法则帮我挖掘项目经历", Intent.EDIT),
        ("帮我把工作经历写得更有说服力", Intent.EDIT),
        ("让自我评价更专业一些", Intent.EDIT),
        ("加强一下项目经历的描述", Intent.EDIT),
        ("thanks, now rewrite my summary", Intent.EDIT),
        # tailoring
        ("tailor my resume to this JD", Intent.TAILOR),
        ("Here's the job description, match my resume to it", Intent.TAILOR),
        ("根据这个岗位优化简历", Intent.TAILOR),
        ("这是岗位描述：负责前端开发……", Intent.TAILOR),
        ("针对这个职位改一下", Intent.TAILOR),
        # undo
        ("undo", Intent.UNDO),
        ("Please undo that.", Intent.UNDO),
        ("revert the last change", Intent.UNDO),
        ("撤销", Intent.UNDO),
        ("撤销上一次修改", Intent.UNDO),
        # general career questions: answered without tools
        ("how should I negotiate salary?", Intent.QUESTION),
        ("How do I improve my interview skills?", Intent.QUESTION),
        ("Should I put a photo on a CV in Germany?", Intent.QUESTION),
        ("简历一般写几页？", Intent.QUESTION),
        ("面试有什么问题要准备？", Intent.QUESTION),
        ("怎么让面试官更有印象？", Intent.QUESTION),
    ],
)
def test_heuristic_intents(text: str, intent: Intent):
    result = classify_heuristic(text, SECTIONS)
    assert result is not None, text
    assert result.intent is intent, (text, result)
    assert result.source == "heuristic"
    assert 0.5 <= result.confidence <= 1.0


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("load ~/cv.md", "~/cv.md"),
        ("Open resume.md", "resume.md"),
        ("打开 resume.md", "resume.md"),
        ("打开resume.md", "resume.md"),
        ("加载简历 ~/docs/简历.md", "~/docs/简历.md"),
        ('open "~/My Documents/cv final.md"', "~/My Documents/cv final.md"),
        ("use './drafts/cv.markdown' instead", "./drafts/cv.markdown"),
        ("~/cv.md", "~/cv.md"),
        ("/home/ana/resume.txt", "/home/ana/resume.txt"),
        ("switch to cv-2024.md.", "cv-2024.md"),
        ("请加载 C:\\Users\\li\\简历.md", "C:\\Users\\li\\简历.md"),
    ],
)
def test_load_resume_extracts_the_typed_path(text: str, path: str):
    result = classify_heuristic(text)
    assert result is not None and result.intent is Intent.LOAD_RESUME, (text, result)
    assert result.path == path


@pytest.mark.parametrize(
    "text",
    [
        "I go to the gym",
        "open the pod bay doors",
        "load the dishwasher",
        "I wrote README.md files at my last job",
        "see https://example.com/resume.md",
        "the .md format is fine",
    ],
)
def test_no_load_resume_without_a_file_path_and_a_load_request(text: str):
    result = classify_heuristic(text)
    assert result is None or result.intent is not Intent.LOAD_RESUME


@pytest.mark.parametrize(
    "text",
    [
        "I go to the gym",
        "she is a star employee",
        "I know JDK well",
        "Is my summary too long?",
        "",
        "   ",
    ],
)
def test_heuristic_abstains_when_unsure(text: str):
    assert classify_heuristic(text, SECTIONS) is None


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("optimize my experience section", "Experience"),
        ("优化一下工作经历", "工作经历"),
        ("rewrite the summary", "Summary"),
        ("analyze my resume", None),
    ],
)
def test_heuristic_reports_the_section_the_message_names(text: str, section: str | None):
    result = classify_heuristic(text, SECTIONS)
    assert result is not None and result.section == section


def test_section_ids_with_slashes_match_their_last_part():
    result = classify_heuristic(
        "polish the acme corp entry", ["experience", "experience/acme-corp"]
    )
    assert result is not None and result.section == "experience/acme-corp"


def test_extract_path_ignores_urls_and_bare_extensions():
    assert extract_path("see https://example.com/cv.md") is None
    assert extract_path("what is .md?") is None
    assert extract_path("load 'cv.md'") == "cv.md"


# -- the model classifier ----------------------------------------------------------------


@dataclass
class Delta:
    text: str


@dataclass
class FakeClient:
    """Scripted ``stream()``: yields text deltas, then a final object with ``.content``."""

    def __init__(
        self, deltas: list[str], final: str | None = None, error: Exception | None = None
    ) -> None:
        self.deltas = deltas
        self.final = final
        self.error = error
        self.calls: list[tuple[list[dict], object]] = []

    def stream(self, messages, tools=None, **kwargs):
        self.calls.append((messages, tools))
        self.kwargs = kwargs
        for delta in self.deltas:
            yield Delta(delta)
        if self.error is not None:
            raise self.error
        content = self.final if self.final is not None else "".join(self.deltas)
        yield ModelResponse(content)


def test_model_label_from_final_content():
    client = FakeClient(["ED", "IT"], final="EDIT")
    result = classify_with_model(client, [], "make the second bullet punchier")
    assert (result.intent, result.confidence, result.source) == (Intent.EDIT, 0.8, "llm")
    assert result.response is not None and result.response.content == "EDIT"
    assert client.kwargs == {"retry": False}  # one short call: a label is not worth a backoff
    messages, tools = client.calls[0]
    assert tools is None
    assert messages[0]["role"] == "system" and "EDIT" in messages[0]["content"]
    assert "make the second bullet punchier" in messages[-1]["content"]


def test_model_label_from_joined_deltas_when_final_content_is_empty():
    result = classify_with_model(FakeClient(["tai", "lor"], final=None), [], "x")
    assert result.intent is Intent.TAILOR and result.source == "llm"


@pytest.mark.parametrize(
    ("answer", "intent"),
    [
        ("edit", Intent.EDIT),
        ("Label: ANALYZE.", Intent.ANALYZE),
        ('{"intent": "load_resume"}', Intent.LOAD_RESUME),
        ("The intent is QUESTION", Intent.QUESTION),
        ("**GREETING**", Intent.GREETING),
        ("load resume", Intent.LOAD_RESUME),
        ("UNKNOWN", Intent.UNKNOWN),
    ],
)
def test_parse_label_is_robust(answer: str, intent: Intent):
    parsed = parse_label(answer)
    assert parsed is not None and parsed[0] is intent


@pytest.mark.parametrize("answer", ["", "   ", "lorem ipsum dolor", "🤖🤖", "{not json"])
def test_garbage_answers_are_unknown_fallback(answer: str):
    result = classify_with_model(FakeClient([answer], final=answer), [], "hmm")
    assert (result.intent, result.confidence, result.source) == (Intent.UNKNOWN, 0.0, "fallback")


@pytest.mark.parametrize(
    "error",
    [ModelError("rate limited", retryable=True), ModelError("bad key"), ContextWindowError("long")],
)
def test_a_model_error_is_unknown_fallback(error: Exception):
    result = classify_with_model(FakeClient(["ED"], error=error), [], "hmm")
    assert result == IntentResult(Intent.UNKNOWN, 0.0, "fallback")


def test_a_bug_in_the_client_is_not_swallowed():
    with pytest.raises(RuntimeError, match="boom"):
        classify_with_model(FakeClient(["ED"], error=RuntimeError("boom")), [], "hmm")


def test_model_load_resume_gets_the_path():
    result = classify_with_model(
        FakeClient([], final="LOAD_RESUME"), [], "could you take a look at ~/Desktop/cv.md"
    )
    assert result.intent is Intent.LOAD_RESUME and result.path == "~/Desktop/cv.md"


def test_classifier_sees_only_the_last_five_user_and_assistant_messages():
    history = [{"role": "user", "content": f"message {i}"} for i in range(8)]
    history.insert(7, {"role": "tool", "content": "tool output", "tool_call_id": "c1"})
    messages = build_classifier_messages(history, "yes, 30%")
    prompt = messages[-1]["content"]
    assert "message 2" not in prompt and "message 4" in prompt and "message 7" in prompt
    assert "tool output" not in prompt


# -- classify ----------------------------------------------------------------------------


def test_classify_prefers_the_heuristic_and_never_calls_the_model():
    client = FakeClient([], final="EDIT")
    assert classify("hello", client=client).intent is Intent.GREETING
    assert client.calls == []


def test_classify_asks_the_model_when_heuristics_abstain():
    client = FakeClient([], final="EDIT")
    result = classify(
        "yes, about 30% faster",
        client=client,
        recent_messages=[{"role": "assistant", "content": "How much faster?"}],
    )
    assert result.intent is Intent.EDIT and result.source == "llm"
    assert "How much faster?" in client.calls[0][0][-1]["content"]


def test_classify_without_a_model_falls_back_to_unknown():
    result = classify("I go to the gym")
    assert result == IntentResult(Intent.UNKNOWN, 0.0, "fallback")


def test_general_question_is_question_or_unknown_without_a_model():
    assert classify("how should I negotiate salary?").intent in (Intent.QUESTION, Intent.UNKNOWN)


# -- language ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("帮我优化一下简历", "zh"),
        ("帮我优化 summary", "zh"),
        ("please rewrite the 工作经历 section", "en"),
        ("Rewrite my summary", "en"),
        ("", "en"),
        ("12345", "en"),
    ],
)
def test_detect_language(text: str, language: str):
    assert detect_language(text) == language


@pytest.mark.parametrize(
    "text",
    [
        "make my first work bullet stronger",
        "make the summary two lines",
        "now fix the dates",
        "fix the typos",
    ],
)
def test_everyday_edit_requests_need_no_classifier_round_trip(text):
    result = classify_heuristic(text)
    assert result is not None and result.intent is Intent.EDIT
