"""Capability packs: tool policies, the shipped packs, user overrides and error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli.agent.capabilities import (
    DEFAULT_OFF_TOOLS,
    TOOL_NAMES,
    Capability,
    ToolPolicy,
)
from cvagent_cli.agent.intent import Intent
from cvagent_cli.agent.pack_files import packaged_dir
from cvagent_cli.agent.registry import CapabilityRegistry
from cvagent_cli.agent.workflow import STAR_STAGES
from cvagent_cli.errors import ConfigError

ALL = list(TOOL_NAMES)
OFF = list(DEFAULT_OFF_TOOLS)

MINIMAL = """\
name: {name}
description: A test pack.
system_prompt_addendum: Be brief.
"""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CVAGENT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def user_packs(home: Path) -> Path:
    folder = home / "config" / "capabilities"
    folder.mkdir(parents=True)
    return folder


def write(folder: Path, filename: str, text: str) -> Path:
    path = folder / filename
    path.write_text(text, encoding="utf-8")
    return path


def load_error(folder: Path, filename: str, text: str) -> str:
    write(folder, filename, text)
    with pytest.raises(ConfigError) as info:
        CapabilityRegistry.load(folder, packaged=folder.parent / "no-packaged-packs")
    return str(info.value)


# -- ToolPolicy --------------------------------------------------------------------------


def test_empty_policy_allows_everything_but_default_off_tools_in_catalogue_order():
    assert ToolPolicy().resolve(ALL, OFF) == [t for t in ALL if t != "batch_edit_resume"]


def test_whitelist_gives_exactly_the_listed_tools_that_exist_in_catalogue_order():
    policy = ToolPolicy(whitelist=["terminate", "read_resume", "no_such_tool", "batch_edit_resume"])
    assert policy.resolve(ALL, OFF) == ["read_resume", "batch_edit_resume", "terminate"]


def test_enabled_switches_on_a_default_off_tool():
    assert "batch_edit_resume" in ToolPolicy(enabled=["batch_edit_resume"]).resolve(ALL, OFF)


def test_disabled_wins_over_enabled_and_whitelist():
    policy = ToolPolicy(
        enabled=["batch_edit_resume"], disabled=["batch_edit_resume", "edit_resume"]
    )
    assert "batch_edit_resume" not in policy.resolve(ALL, OFF)
    assert "edit_resume" not in policy.resolve(ALL, OFF)
    assert ToolPolicy(whitelist=["read_resume", "edit_resume"], disabled=["edit_resume"]).resolve(
        ALL
    ) == ["read_resume"]


def test_resolve_ignores_duplicates_in_the_catalogue():
    assert ToolPolicy().resolve(["a", "b", "a"]) == ["a", "b"]


@pytest.mark.parametrize(
    ("policy", "tool", "allowed"),
    [
        (ToolPolicy(), "edit_resume", True),
        (ToolPolicy(), "batch_edit_resume", False),
        (ToolPolicy(), "not_a_tool", False),
        (ToolPolicy(whitelist=["read_resume"]), "edit_resume", False),
        (ToolPolicy(whitelist=["read_resume"]), "read_resume", True),
        (ToolPolicy(enabled=["batch_edit_resume"]), "batch_edit_resume", True),
        (ToolPolicy(disabled=["terminate"]), "terminate", False),
    ],
)
def test_allows_is_checked_at_execution_time(policy: ToolPolicy, tool: str, allowed: bool):
    assert policy.allows(tool, ALL, OFF) is allowed


def test_policy_is_not_shared_between_instances():
    first, second = ToolPolicy(), ToolPolicy()
    first.disabled.append("edit_resume")
    assert second.disabled == []
    assert (
        Capability(name="a", description="d", system_prompt_addendum="p").tool_policy.disabled == []
    )


# -- shipped packs -----------------------------------------------------------------------


def test_packaged_packs_are_found_from_a_source_checkout():
    folder = packaged_dir()
    assert folder is not None
    assert {entry.name for entry in folder.iterdir()} >= {
        "base.yaml",
        "star.yaml",
        "optimizer.yaml",
        "tailor.yaml",
    }


def test_every_shipped_pack_validates_without_warnings():
    registry = CapabilityRegistry.load()
    assert registry.names() == ["base", "optimizer", "star", "tailor"]
    assert registry.warnings == []
    for capability in registry:
        assert capability.description and capability.system_prompt_addendum
        assert capability.source.endswith(f"{capability.name}.yaml")
        for key in capability.next_step_prompts:
            assert key in set(capability.stages) | {i.name for i in Intent} | {
                "DEFAULT",
                "BACKTRACK",
            }


def test_star_pack_has_the_guideagent_stages_and_no_batch_edits():
    star = CapabilityRegistry.load().get("star")
    assert star.stages == list(STAR_STAGES)
    assert set(star.next_step_prompts) >= set(STAR_STAGES)
    assert star.tools() == [
        "read_resume",
        "analyze_resume",
        "edit_resume",
        "use_capability",
        "update_progress",
        "terminate",
    ]
    assert not star.allows("batch_edit_resume")
    assert "ONE question" in star.system_prompt_addendum
    assert "STAR" in star.triggers and "帮我挖掘" in star.triggers


def test_only_the_optimizer_may_batch_edit():
    registry = CapabilityRegistry.load()
    assert [c.name for c in registry if c.allows("batch_edit_resume")] == ["optimizer"]
    assert "update_progress" in registry.get("optimizer").tools()


def test_tailor_is_keyword_filter_with_tools_to_read_and_edit():
    tailor = CapabilityRegistry.load().get("tailor")
    assert tailor.tools() == [
        "read_resume",
        "analyze_resume",
        "edit_resume",
        "use_capability",
        "terminate",
    ]
    assert "Keep" in tailor.system_prompt_addendum and "Add" in tailor.system_prompt_addendum


def test_every_pack_is_preceded_by_the_core_rules():
    # The rules every pack shares live in the core prompt, not repeated in each pack.
    from cvagent_cli.agent.prompts import BASE_PROMPT, language_rule

    assert "Never invent facts" in BASE_PROMPT and "{untrusted}" in BASE_PROMPT
    assert "Chinese" in language_rule("zh")
    base = CapabilityRegistry.load().get("base")
    assert base.next_step_prompt(Intent.QUESTION) is not None
    assert base.next_step_prompt(Intent.GREETING) is None


def test_next_step_prompt_takes_the_first_key_present():
    star = CapabilityRegistry.load().get("star")
    assert star.next_step_prompt(None, "nope", "drafting") == star.next_step_prompts["DRAFTING"]


def test_a_pack_without_next_step_prompts_falls_back_to_the_base_packs_wording(user_packs: Path):
    from cvagent_cli.agent.prompts import next_step_prompt

    write(user_packs, "bare.yaml", MINIMAL.format(name="bare"))
    registry = CapabilityRegistry.load()
    bare, base = registry.get("bare"), registry.get("base")
    for intent in Intent:
        got = next_step_prompt(
            bare, intent=intent.value, stage=None, backtracked=False, fallback=base
        )
        assert got == (base.next_step_prompts.get(intent.value) or ""), intent
    assert next_step_prompt(bare, intent="ANALYZE", stage=None, backtracked=False) == ""


def test_every_next_step_prompt_sent_comes_from_a_pack_file():
    """One source of next-step wording: the packs (cvagent keeps no copy of its own)."""
    from cvagent_cli.agent.prompts import next_step_prompt

    registry = CapabilityRegistry.load()
    written = {text for pack in registry for text in pack.next_step_prompts.values()}
    base = registry.get("base")
    for pack in registry:
        for stage in [None, *(pack.stages or [])]:
            for intent in Intent:
                for backtracked in (False, True):
                    got = next_step_prompt(
                        pack,
                        intent=intent.value,
                        stage=stage,
                        backtracked=backtracked,
                        fallback=base,
                    )
                    assert got == "" or got in written, (pack.name, stage, intent)


def test_source_is_not_part_of_the_serialised_pack():
    star = CapabilityRegistry.load().get("star")
    assert "source" not in star.model_dump()


# -- registry ----------------------------------------------------------------------------


def test_user_pack_overrides_a_packaged_one_by_name(user_packs: Path):
    path = write(user_packs, "my-star.yaml", MINIMAL.format(name="star") + "stages: [ASK, WRITE]\n")
    registry = CapabilityRegistry.load()
    star = registry.get("star")
    assert star.description == "A test pack."
    assert star.stages == ["ASK", "WRITE"]
    assert star.source == str(path)
    assert registry.names() == ["base", "optimizer", "star", "tailor"]


def test_user_pack_adds_a_new_pack(user_packs: Path):
    write(
        user_packs,
        "academic.yml",
        MINIMAL.format(name="academic") + "triggers: [publications, 论文]\n",
    )
    registry = CapabilityRegistry.load()
    assert "academic" in registry.names()
    assert registry.suggest_for("help me list my publications") == "academic"


def test_explicit_user_dir_replaces_the_config_dir(tmp_path: Path, user_packs: Path):
    write(user_packs, "ignored.yaml", MINIMAL.format(name="ignored"))
    other = tmp_path / "elsewhere"
    other.mkdir()
    write(other, "mine.yaml", MINIMAL.format(name="mine"))
    names = CapabilityRegistry.load(other).names()
    assert "mine" in names and "ignored" not in names


def test_missing_user_dir_is_fine():
    assert len(CapabilityRegistry.load()) == 4


def test_get_unknown_pack_lists_available_names_and_close_matches():
    registry = CapabilityRegistry.load()
    with pytest.raises(ConfigError) as info:
        registry.get("stra")
    message = str(info.value)
    assert "unknown capability pack 'stra'" in message
    assert "did you mean 'star'" in message
    assert "base, optimizer, star, tailor" in message


def test_get_is_case_insensitive():
    assert CapabilityRegistry.load().get(" STAR ").name == "star"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Use the STAR method on my Acme job", "star"),
        ("帮我挖掘一下这个项目的亮点", "star"),
        ("tell the story behind this project", "star"),
        ("Here is the JD for the role", "tailor"),
        ("根据这个岗位描述改一下简历", "tailor"),
        ("please optimize every section", "optimizer"),
        ("帮我逐条优化", "optimizer"),
        ("she is a star employee", None),  # lowercase "star" is not the method
        ("I know JDK and Java", None),
        ("hello", None),
        ("", None),
    ],
)
def test_suggest_for_uses_triggers(text: str, expected: str | None):
    assert CapabilityRegistry.load().suggest_for(text) == expected


# -- error messages ----------------------------------------------------------------------


def test_bad_type_names_file_field_and_expectation(user_packs: Path):
    text = MINIMAL.format(name="star") + "tool_policy:\n  whitelist: read_resume\n"
    message = load_error(user_packs, "star.yaml", text)
    assert (
        message
        == f"{user_packs / 'star.yaml'}: tool_policy.whitelist: expected a list of tool names, got a string"
    )


def test_packaged_file_is_named_relative_to_capabilities(tmp_path: Path):
    packaged = tmp_path / "capabilities"
    packaged.mkdir()
    write(
        packaged,
        "star.yaml",
        MINIMAL.format(name="star") + "tool_policy:\n  whitelist: read_resume\n",
    )
    with pytest.raises(ConfigError) as info:
        CapabilityRegistry.load(tmp_path / "none", packaged=packaged)
    assert (
        str(info.value)
        == "capabilities/star.yaml: tool_policy.whitelist: expected a list of tool names, got a string"
    )


def test_unknown_field_suggests_the_closest_one(user_packs: Path):
    message = load_error(
        user_packs, "x.yaml", MINIMAL.format(name="x") + "tool_polcy:\n  whitelist: []\n"
    )
    assert message.startswith(str(user_packs / "x.yaml"))
    assert "unknown field 'tool_polcy' (did you mean 'tool_policy'?)" in message


def test_unknown_nested_field_names_its_parent(user_packs: Path):
    message = load_error(
        user_packs, "x.yaml", MINIMAL.format(name="x") + "tool_policy:\n  whitelst: [read_resume]\n"
    )
    assert "x.yaml: tool_policy: unknown field 'whitelst' (did you mean 'whitelist'?)" in message


def test_invalid_yaml_reports_the_line(user_packs: Path):
    message = load_error(
        user_packs,
        "broken.yaml",
        "name: broken\ndescription: [unclosed\nsystem_prompt_addendum: x\n",
    )
    assert message.startswith(f"{user_packs / 'broken.yaml'}: invalid YAML at line 3, column 23:")
    assert "starts at line 2" in message


def test_invalid_indentation_reports_the_line(user_packs: Path):
    message = load_error(
        user_packs, "x.yaml", "name: x\ndescription: d\n  system_prompt_addendum: p\n"
    )
    assert message.startswith(f"{user_packs / 'x.yaml'}: invalid YAML at line 3")


def test_missing_required_field(user_packs: Path):
    message = load_error(user_packs, "x.yaml", "name: x\ndescription: d\n")
    assert "x.yaml: system_prompt_addendum: required field is missing" in message


def test_list_item_and_mapping_value_errors_point_at_the_item(user_packs: Path):
    text = (
        MINIMAL.format(name="x") + "triggers: [ok, [nested]]\nnext_step_prompts:\n  DRAFTING: 3\n"
    )
    message = load_error(user_packs, "x.yaml", text)
    assert "x.yaml: triggers[1]: expected a phrase (text), got a list" in message
    assert "x.yaml: next_step_prompts.DRAFTING: expected prompt text, got a number" in message


def test_temperature_out_of_range(user_packs: Path):
    message = load_error(
        user_packs, "x.yaml", MINIMAL.format(name="x") + "model_hints:\n  temperature: 7\n"
    )
    assert "x.yaml: model_hints.temperature: expected a number between 0 and 2, got 7" in message


def test_bad_name_is_explained(user_packs: Path):
    message = load_error(user_packs, "x.yaml", MINIMAL.format(name="My Pack"))
    assert "x.yaml: name: expected a short lowercase name" in message


def test_file_that_is_not_a_mapping(user_packs: Path):
    message = load_error(user_packs, "x.yaml", "- name: x\n")
    assert (
        message
        == f"{user_packs / 'x.yaml'}: expected a mapping with name, description, system_prompt_addendum …, got a list"
    )


def test_source_cannot_be_set_from_yaml(user_packs: Path):
    message = load_error(user_packs, "x.yaml", MINIMAL.format(name="x") + "source: /etc/passwd\n")
    assert "unknown field 'source'" in message


def test_duplicate_names_within_one_folder_are_an_error(user_packs: Path):
    write(user_packs, "a.yaml", MINIMAL.format(name="dup"))
    message = load_error(user_packs, "b.yaml", MINIMAL.format(name="dup"))
    assert "b.yaml: name: pack 'dup' is already defined in" in message
    assert "a.yaml" in message


def test_file_name_need_not_match_pack_name(user_packs: Path):
    write(user_packs, "whatever.yaml", MINIMAL.format(name="other"))
    assert "other" in CapabilityRegistry.load().names()


def test_every_problem_is_reported_at_once(user_packs: Path):
    write(user_packs, "a.yaml", "name: a\n")
    message = load_error(user_packs, "b.yaml", ": : :\n")
    assert message.startswith("invalid capability pack:")
    assert "a.yaml" in message and "b.yaml" in message


def test_unknown_tool_names_are_warnings_not_errors(user_packs: Path):
    write(
        user_packs,
        "x.yaml",
        MINIMAL.format(name="x") + "tool_policy:\n  whitelist: [read_resume, edit_resme]\n",
    )
    registry = CapabilityRegistry.load()
    assert registry.get("x").tools() == ["read_resume"]
    assert any(
        "x.yaml: tool_policy.whitelist: unknown tool 'edit_resme' (did you mean 'edit_resume'?)"
        in w
        for w in registry.warnings
    )


def test_unused_next_step_prompt_key_is_a_warning(user_packs: Path):
    write(user_packs, "x.yaml", MINIMAL.format(name="x") + "next_step_prompts:\n  DRAFT: hi\n")
    registry = CapabilityRegistry.load()
    assert any("next_step_prompts: 'DRAFT'" in w for w in registry.warnings)


def test_non_utf8_file_is_a_config_error(user_packs: Path):
    (user_packs / "x.yaml").write_bytes(b"name: \xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        CapabilityRegistry.load()
