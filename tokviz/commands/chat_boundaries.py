"""``tokviz chat --turns`` and ``tokviz chat --injection``: a conversation's boundaries, printed."""

from __future__ import annotations


def _pieces(encoder, ids) -> str:
    from tokviz.core.display import visible_piece

    return " │ ".join(visible_piece(encoder.token_bytes(i).decode("utf-8", "replace")) for i in ids) or "(none)"


def print_turns(encoder, messages, template: str, *, add_generation_prompt: bool, as_json: bool) -> None:
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.boundaries.chat_turns import prefix_stability
    from tokviz.core.chat import BUILTIN_TEMPLATES

    turns = prefix_stability(encoder, messages, template, add_generation_prompt=add_generation_prompt)
    if as_json:
        name = template if template in BUILTIN_TEMPLATES else "model's chat_template"
        print_json({"encoder": encoder.name, "template": name,
                    "turns": [t.as_json() for t in turns]})
        return
    lines = [f"{encoder.name} · prompt of turn n against turn n+1"]
    for t in turns:
        if t.error is not None:
            lines.append(f"turn {t.turn}: not rendered: {t.error}")
        elif t.stable:
            lines.append(f"turn {t.turn}: stable, all {t.common} tokens reused")
        else:
            lines.append(f"turn {t.turn}: {t.common} of {len(t.earlier.encoding)} tokens reused; {t.reason}: "
                         f"{_pieces(encoder, t.before)}  →  {_pieces(encoder, t.after)}")
    print_text("\n".join(lines) + "\n")


def print_injection(encoder, messages, template: str, *, add_generation_prompt: bool, as_json: bool) -> None:
    from tokviz.commands.encode import render_tokens
    from tokviz.commands.output import print_json, print_text
    from tokviz.core.boundaries.chat_turns import injection

    found = injection(encoder, messages, template, add_generation_prompt=add_generation_prompt)
    if as_json:
        print_json({"encoder": encoder.name, **found.as_json()})
        return
    lines = [f"safe ({len(found.safe.encoding)} tokens: special-token strings in contents are text)",
             render_tokens(found.safe.encoding, color=False), "",
             f"parsed ({len(found.unsafe.encoding)} tokens: as a pipeline that parses specials in content)",
             render_tokens(found.unsafe.encoding, color=False), ""]
    if found.injected:
        tokens = found.unsafe.encoding.tokens
        lines += [f"injected: {tokens[k].bytes.decode('utf-8', 'replace')} (id {tokens[k].id}) from message {m} "
                  f"({found.unsafe.messages[m].role})" for k, m in found.injected]
    else:
        lines.append("no message content holds a special token of this encoder")
    print_text("\n".join(lines) + "\n")
