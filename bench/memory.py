"""6. Memory: peak RSS of offline analyze, and of a chat session after 30 turns.

Peak RSS is the child's own ``ru_maxrss`` from ``wait4`` (one process, not the
running maximum over all children), taken through a small launcher so the bench's own
size cannot leak into it (see ``common.run_rss``).  The chat session is ``cvagent chat sample.md
--yes`` in batch mode: the 30 lines of the bench script on stdin, answered by the
loopback :class:`script.ScriptServer` (litellm, HTTP, tools, edits applied).  The
reference is ``python -c "import litellm"``, measured the same way in the same rounds.
"""

from __future__ import annotations

from common import (
    LITELLM_IMPORT,
    PYTHON_BARE,
    Context,
    Figure,
    Sandbox,
    Stat,
    check_ok,
    find_cvagent,
    ratio,
    run_rss,
)
from script import TURNS, ScriptServer


def run(ctx: Context) -> list[Figure]:
    cvagent = find_cvagent()
    reps = ctx.reps(3, 1)
    analyze_rss, chat_rss, chat_wall, chat_requests, litellm_rss, bare_rss = [], [], [], [], [], []
    turns = TURNS if not ctx.quick else TURNS[:5]  # quick: a smoke check, not the figure
    stdin = "".join(turn.text + "\n" for turn in turns)
    with Sandbox() as sb, ScriptServer() as srv:
        env = sb.env()
        chat_env = sb.env(CVAGENT_MODEL="openai/test", CVAGENT_API_BASE=srv.url)
        for i in range(reps):
            if not ctx.quick:  # the reference costs a whole litellm import: not in a smoke run
                m = run_rss(LITELLM_IMPORT, env)
                check_ok(m, "python -c 'import litellm'")
                litellm_rss.append(m.maxrss_mb)
            m = run_rss(PYTHON_BARE, env)
            bare_rss.append(m.maxrss_mb)
            m = run_rss(cvagent + ["analyze", str(sb.resume(f"analyze-{i}.md"))], env)
            check_ok(m, "cvagent analyze")
            analyze_rss.append(m.maxrss_mb)
            before = len(srv.requests)
            m = run_rss(
                cvagent + ["chat", str(sb.resume(f"chat-{i}.md")), "--yes"],
                chat_env,
                stdin_text=stdin,
                timeout=600,
            )
            check_ok(m, "cvagent chat (30 turns on stdin)")
            answered = sum(
                1 for b in srv.requests[before:] if isinstance(b, dict) and b.get("tools")
            )
            if answered < len(turns):
                raise RuntimeError(
                    f"the chat session made only {answered} agent requests for {len(turns)} turns:\n"
                    + m.stderr[-1500:]
                )
            chat_rss.append(m.maxrss_mb)
            chat_wall.append(m.wall_s)
            chat_requests.append(len(srv.requests) - before)
            ctx.log(
                f"  round {i + 1}/{reps}: analyze {analyze_rss[-1]:.1f} MB, chat after {len(turns)} turns "
                f"{chat_rss[-1]:.1f} MB ({chat_requests[-1]} requests, {m.wall_s:.1f} s)"
            )
    ctx.details["memory"] = {
        "litellm_import_maxrss_mb": litellm_rss,
        "python_bare_maxrss_mb": bare_rss,
        "analyze_maxrss_mb": analyze_rss,
        "chat_maxrss_mb": chat_rss,
        "chat_wall_s": chat_wall,
        "chat_requests": chat_requests,
        "chat_turns": len(turns),
        "chat_command": f"cvagent chat sample.md --yes < {len(turns)} lines",
    }
    lit = Stat.of(litellm_rss) if litellm_rss else None
    ref_rss, ref = (lit.median, "import litellm") if lit else (None, "")
    a, c = Stat.of(analyze_rss), Stat.of(chat_rss)
    return [
        Figure(
            "rss_litellm",
            "reference: peak RSS of python -c 'import litellm'",
            "MB",
            lit,
            value_text="not measured (quick)" if lit is None else "",
            note=f"python -c pass: {Stat.of(bare_rss).median:.1f} MB (the launcher's floor is about that)",
        ),
        Figure(
            "rss_analyze",
            "peak RSS: cvagent analyze sample.md",
            "MB",
            a,
            ref,
            ref_rss,
            ratio(a.median, ref_rss),
        ),
        Figure(
            "rss_chat",
            f"peak RSS: cvagent chat after {len(turns)} turns",
            "MB",
            c,
            ref,
            ref_rss,
            ratio(c.median, ref_rss),
            note="batch mode, loopback model, litellm loaded",
        ),
    ]
