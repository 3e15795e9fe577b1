"""`make demo`: the seed tool loop (examples/tool_loop/, from the seed 004 article) translated
from each protocol into every supported protocol, with the losses each translation reports.

Each loop is: 1 request, 2 the tool-call response, 3 the request carrying the tool result,
4 the final answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import interlingua

HERE = Path(__file__).parent / "tool_loop"
STEPS = ("1_request", "2_response", "3_request", "4_response")


def summary(body: dict, kind: str) -> str:
    """A one-line view of what matters in a tool loop: roles, tool ids, arguments, text."""
    if kind == "request":
        bits = []
        for key in ("system", "instructions", "systemInstruction"):
            if key in body:
                bits.append(key)
        for c in body.get("contents", []):  # Gemini
            bits.append(_gemini(c))
        for m in body.get("messages", []):
            bits.append(_message(m))
        inp = body.get("input")  # OpenAI Responses: a string or a list of items
        if isinstance(inp, str):
            bits.append(f"user: text({len(inp)} chars)")
        for item in inp if isinstance(inp, list) else []:
            bits.append(_item(item))
        return " | ".join(bits)
    if "output" in body:
        return " | ".join(_item(i) for i in body["output"])
    if "candidates" in body:
        return _gemini(body["candidates"][0].get("content", {}))
    return _message(
        body.get("choices", [{}])[0].get("message", body) if "choices" in body else body
    )


def _gemini(c: dict) -> str:
    """One Gemini content: role and parts (text, functionCall, functionResponse)."""
    out = []
    for p in c.get("parts", []):
        if "functionCall" in p:
            fc = p["functionCall"]
            out.append(
                f"functionCall {fc.get('id', '(no id)')} {fc['name']}{json.dumps(fc.get('args', {}))}"
            )
        elif "functionResponse" in p:
            fr = p["functionResponse"]
            out.append(f"functionResponse {fr.get('id', '(no id)')} {fr['name']}")
        elif "text" in p:
            out.append(f"text({len(p['text'])} chars)")
    return f"{c.get('role', '?')}: " + ", ".join(out)


def _item(i: dict) -> str:
    """One OpenAI Responses item (a message, function_call, function_call_output ...)."""
    t = i.get("type", "message")
    if t == "function_call":
        item = f" (item {i['id']})" if i.get("id") else ""
        return f"function_call {i['call_id']} {i['name']}{i['arguments']}{item}"
    if t == "function_call_output":
        return f"function_call_output for {i['call_id']}"
    if t == "message":
        return _message(i)
    return str(t)


def _message(m: dict) -> str:
    role = m.get("role", "?")
    content = m.get("content")
    out = []
    if isinstance(content, str):
        out.append(f"text({len(content)} chars)")
    for b in content if isinstance(content, list) else []:
        t = b.get("type")
        if t == "tool_use":
            out.append(f"tool_use {b['id']} {b['name']}{json.dumps(b['input'])}")
        elif t == "tool_result":
            out.append(f"tool_result {b['tool_use_id']}")
        else:
            out.append(str(t))
    for c in m.get("tool_calls") or []:
        out.append(f"tool_call {c['id']} {c['function']['name']}{c['function']['arguments']}")
    if m.get("tool_call_id"):
        out.append(f"for {m['tool_call_id']}")
    return f"{role}: " + ", ".join(out)


def main() -> int:
    protocols = interlingua.available()
    print(f"protocols: {', '.join(protocols)}\n")
    for source in protocols:
        for target in protocols:
            print(f"=== {source} -> {target}")
            for step in STEPS:
                path = HERE / f"{source}.{step}.json"
                if not path.exists():
                    continue
                kind = step.split("_", 1)[1]
                fn = (
                    interlingua.translate_request
                    if kind == "request"
                    else interlingua.translate_response
                )
                result = fn(path.read_bytes(), source=source, target=target)
                print(f"  {step:11} {summary(result.body, kind)}")
                for loss in result.losses:
                    print(f"              loss: {loss}")
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
