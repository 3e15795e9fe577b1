"""A thinking upstream that insists on its reasoning state, as the real APIs do.

- Anthropic (``/v1/messages``): with ``thinking`` enabled, a request whose last assistant
  message holds a ``tool_use`` must start that message with the signed ``thinking`` block this
  upstream sent with that tool use, or it gets Anthropic's 400 ("Expected `thinking` or
  `redacted_thinking`, but found `tool_use`..."); a thinking block with a signature it did not
  issue gets 400 "Invalid `signature` in `thinking` block".
- Gemini (``/v1beta/models/{model}:generateContent`` and ``:streamGenerateContent``): every
  ``functionCall`` of the current turn must carry the ``thoughtSignature`` this upstream sent
  with it, or 400 ("Function call is missing a thought_signature").

The scenario is a tool loop of ``CALLS`` tool calls, then a text answer that quotes every tool
result. Each request's thinking mode is noted in ``ThinkingState.thinking``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson
from interlingua import decode_request, encode_response
from interlingua._losses import Ctx
from interlingua.generated.canonical import (
    Finish,
    FinishEvent,
    ReasoningDelta,
    ReasoningEnd,
    ReasoningPart,
    ReasoningStart,
    Response,
    StreamEnd,
    StreamStart,
    TextDelta,
    TextEnd,
    TextPart,
    TextStart,
    ToolCallDelta,
    ToolCallEnd,
    ToolCallPart,
    ToolCallStart,
    ToolResultPart,
    Usage,
    UsageEvent,
)
from interlingua.streams import stream_encoder
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response as HTTPResponse
from starlette.responses import StreamingResponse
from starlette.routing import Route

CALLS = 2  # tool calls before the answer: a three-turn loop

ANTHROPIC_400 = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
    "`tool_use`. When `thinking` is enabled, a final `assistant` message must start with a "
    "thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks)."
)
GEMINI_400 = "Function call is missing a thought_signature in functionCall parts."


@dataclass
class ThinkingState:
    signatures: set[str] = field(default_factory=set)  # every signature issued
    thinking: list[bool] = field(default_factory=list)  # per request: was thinking on
    refused: list[str] = field(default_factory=list)  # the 400 messages sent


def _anthropic_check(body: dict[str, Any], st: ThinkingState) -> str | None:
    if (body.get("thinking") or {}).get("type") != "enabled":
        return None
    msgs = body.get("messages") or []
    last = max((i for i, m in enumerate(msgs) if m["role"] == "assistant"), default=None)
    if last is None or type(msgs[last]["content"]) is not list:
        return None
    blocks = msgs[last]["content"]
    if not any(b.get("type") == "tool_use" for b in blocks):
        return None
    for b in blocks:
        if b.get("type") == "thinking" and b.get("signature") not in st.signatures:
            return "Invalid `signature` in `thinking` block"
    if blocks[0].get("type") not in ("thinking", "redacted_thinking"):
        return ANTHROPIC_400.format(i=last)
    return None


def _gemini_check(body: dict[str, Any], st: ThinkingState) -> str | None:
    contents = body.get("contents") or []
    start = 0
    for i, c in enumerate(contents):
        if c.get("role", "user") == "user" and any("text" in p for p in c.get("parts", [])):
            start = i + 1
    for c in contents[start:]:
        for p in c.get("parts", []):
            if "functionCall" in p and p.get("thoughtSignature") not in st.signatures:
                return GEMINI_400
    return None


def _plan(pid: str, req: Any, st: ThinkingState, thinking: bool) -> list[Any]:
    """The parts of the answer: reasoning (when on) and a tool call, or the final text."""
    results = [p for m in req.messages for p in m.parts if type(p) is ToolResultPart]
    if len(results) >= CALLS:
        said = [t.text for r in results for t in r.content if type(t) is TextPart]
        return [TextPart(text="Done: " + "; ".join(said))]
    n = len(results)
    sig = f"sig-{pid}-{n}-{uuid.uuid4().hex[:8]}"
    st.signatures.add(sig)
    call = ToolCallPart(
        id=f"toolu_{n}_{uuid.uuid4().hex[:8]}", name="lookup", arguments=f'{{"n":{n}}}'
    )
    if pid == "gemini":  # a thoughtSignature on the functionCall part itself
        return [ReasoningPart(text="", signature=sig, owner=pid, ext={"attach": "next"}), call]
    parts: list[Any] = []
    if thinking:
        parts.append(ReasoningPart(text=f"I need lookup {n}.", signature=sig, owner=pid))
    return [*parts, TextPart(text="Checking."), call]


def _events(parts: list[Any]) -> list[Any]:
    evs: list[Any] = [StreamStart(id="msg_think", model="thinker")]
    for i, p in enumerate(parts):
        k = f"k{i}"
        if type(p) is ReasoningPart:
            evs += [ReasoningStart(key=k)]
            evs += [ReasoningDelta(key=k, text=p.text)] if p.text else []
            evs += [ReasoningEnd(key=k, signature=p.signature, owner=p.owner)]
        elif type(p) is TextPart:
            evs += [TextStart(key=k), TextDelta(key=k, text=p.text), TextEnd(key=k)]
        else:
            evs += [ToolCallStart(key=k, id=p.id, name=p.name)]
            evs += [ToolCallDelta(key=k, arguments=p.arguments), ToolCallEnd(key=k)]
    done = "tool_calls" if type(parts[-1]) is ToolCallPart else "stop"
    return evs + [
        UsageEvent(usage=Usage(input_total=20, output_total=9)),
        FinishEvent(finish=Finish(unified=done)),
        StreamEnd(ending="completed"),
    ]


def create_thinking_app(st: ThinkingState) -> Starlette:
    def error(pid: str, message: str) -> HTTPResponse:
        st.refused.append(message)
        if pid == "gemini":
            body: Any = {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}
        else:
            body = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        return HTTPResponse(orjson.dumps(body), 400, media_type="application/json")

    def endpoint(pid: str) -> Any:
        async def ep(request: Request) -> HTTPResponse:
            body = orjson.loads(await request.body())
            if pid == "gemini":
                stream = request.path_params["target"].endswith(":streamGenerateContent")
                gc = body.get("generationConfig") or {}
                thinking = (gc.get("thinkingConfig") or {}).get("thinkingBudget") != 0
                problem = _gemini_check(body, st)
            else:
                stream = bool(body.get("stream"))
                thinking = (body.get("thinking") or {}).get("type") == "enabled"
                problem = _anthropic_check(body, st)
            st.thinking.append(thinking)
            if problem:
                return error(pid, problem)
            parts = _plan(pid, decode_request(body, pid), st, thinking)
            if stream and pid != "gemini":
                enc = stream_encoder(pid)
                chunks = [b for ev in _events(parts) for b in enc.feed(ev)] + list(enc.close())
                return StreamingResponse(iter(chunks), media_type="text/event-stream")
            done = "tool_calls" if type(parts[-1]) is ToolCallPart else "stop"
            resp = Response(
                id="msg_think",
                model="thinker",
                parts=parts,
                finish=Finish(unified=done),
                usage=Usage(input_total=20, output_total=9),
            )
            out = orjson.dumps(encode_response(resp, pid, Ctx("scripted", pid)))
            if stream:  # Gemini streams whole parts: the signature stays on its functionCall
                return StreamingResponse(
                    iter([b"data: " + out + b"\r\n\r\n"]), media_type="text/event-stream"
                )
            return HTTPResponse(out, media_type="application/json")

        return ep

    return Starlette(
        routes=[
            Route("/v1/messages", endpoint("anthropic_messages"), methods=["POST"]),
            Route("/v1beta/models/{target}", endpoint("gemini"), methods=["POST"]),
        ]
    )
