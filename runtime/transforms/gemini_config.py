"""gemini_config: the request settings of Google Gemini around the contents.

- ``tools``: entries of ``functionDeclarations`` (function tools through the generated tool rows;
  ``parametersJsonSchema`` is what we emit, ``parameters`` — the OpenAPI subset — is accepted and
  converted to JSON Schema for other protocols: the tool_schema_openapi row) and hosted tools
  (``googleSearch``, ``codeExecution``, ``urlContext`` ...) carried only between Gemini endpoints
  (tools.hosted_entry);
  snake_case keys (``function_declarations``) are recased before (the snake_case_keys row);
- ``toolConfig.functionCallingConfig``: through the tool_choice rule its rows compile to (mode
  AUTO / ANY / NONE, ``allowedFunctionNames``: one name with ANY is a named tool choice);
- ``generationConfig``: the sampling, response_format and reasoning rows are generated; this
  keeps an empty one for Gemini; its other keys ride in ext;
- ``model``: not a body field (it is in the URL) but some clients send it; kept for Gemini.
"""

from __future__ import annotations

from typing import Any

from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import Request, Tool
from ._base import Codec, Transform
from .tools import hosted_entry

__all__ = ["GEMINI_CONFIG"]


# ---------------------------------------------------------------- tools


def _decode_tools(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    tools = w.get("tools")
    if tools is not None:
        if type(tools) is dict:  # a single Tool object instead of a list (seen in the wild)
            tools = [tools]
            req.hints = {**(req.hints or {}), "tools_object": True}
        for i, entry in enumerate(expect_list(tools, "tools")):
            entry = expect_dict(entry, f"tools[{i}]")
            for key, value in entry.items():
                if key != "functionDeclarations":
                    req.tools.append(Tool(name=key, kind=key, ext={key: value}, hints={"entry": i}))
                    continue
                for j, decl in enumerate(expect_list(value, f"tools[{i}].{key}")):
                    t = codec.decode_tool(decl, f"tools[{i}].{key}[{j}]", ctx)
                    t.hints = {**(t.hints or {}), "entry": i}  # its tools[] item
                    req.tools.append(t)
    codec.decode_tool_choice(w, req, ctx)  # toolConfig.functionCallingConfig: its rule rows


def _encode_tools(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    entries: dict[Any, dict[str, Any]] = {}  # tools[] items, by the source's item index
    for i, t in enumerate(req.tools):
        path = f"tools[{i}]"
        h = (t.hints or {}) if ctx.same else {}
        if t.kind != "function":
            if (hosted := hosted_entry(t, path, ctx)) is not None:
                entries.setdefault(h.get("entry", ("hosted", i)), {}).update(hosted)
            continue
        decl = codec.encode_tool(t, path, ctx)
        entry = entries.setdefault(h.get("entry", "functions"), {})
        entry.setdefault("functionDeclarations", []).append(decl)
    if entries:
        items = list(entries.values())
        one = ctx.same and (req.hints or {}).get("tools_object") and len(items) == 1
        out["tools"] = items[0] if one else items
    codec.encode_tool_choice(req, out, ctx)  # toolConfig.functionCallingConfig: its rule rows


# ---------------------------------------------------------------- generationConfig


def _decode_generation(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    if "model" in w:
        req.model = expect_str(w["model"], "model")
        req.hints = {**(req.hints or {}), "model_in_body": True}
    gc = w.get("generationConfig")
    if gc is None:
        return
    gc = expect_dict(gc, "generationConfig")
    if not gc:
        req.hints = {**(req.hints or {}), "generation_config_empty": True}


def _encode_generation(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    hints = (req.hints or {}) if ctx.same else {}  # the model is in the URL (http rows)
    if hints.get("model_in_body") and req.model is not None:
        out["model"] = req.model
    if hints.get("generation_config_empty"):
        out.setdefault("generationConfig", {})


def _decode(w: dict[str, Any], req: Request, codec: Codec, ctx: Ctx) -> None:
    _decode_tools(w, req, codec, ctx)
    _decode_generation(w, req, codec, ctx)


def _encode(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    _encode_tools(req, out, codec, ctx)
    _encode_generation(req, out, codec, ctx)


GEMINI_CONFIG = Transform(
    name="gemini_config",
    doc=__doc__ or "",
    request_keys=frozenset({"tools", "toolConfig", "generationConfig", "model"}),
    decode_request=_decode,
    encode_request=_encode,
)
