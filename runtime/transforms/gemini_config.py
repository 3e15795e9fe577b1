"""gemini_config: the request settings of Google Gemini around the contents.

- ``tools``: entries of ``functionDeclarations`` (function tools through the generated tool rows;
  ``parametersJsonSchema`` is what we emit, ``parameters`` — the OpenAPI subset — is accepted and
  converted to JSON Schema for other protocols) and hosted tools (``googleSearch``,
  ``codeExecution``, ``urlContext`` ...) carried only between Gemini endpoints;
- ``toolConfig.functionCallingConfig``: mode AUTO / ANY / NONE (VALIDATED decodes as auto) and
  ``allowedFunctionNames`` (one name with ANY is a named tool choice);
- ``generationConfig``: the sampling, response_format and reasoning rows are generated; this
  keeps an empty one for Gemini; its other keys ride in ext;
- ``model``: not a body field (it is in the URL) but some clients send it; kept for Gemini.
"""

from __future__ import annotations

from typing import Any

from .._errors import brief
from .._losses import Ctx
from .._wire import expect_dict, expect_list, expect_str
from ..generated.canonical import Request, Tool
from ._base import Codec, Transform
from ._util import drop_hosted_tool
from .gemini_contents import _camel
from .structured import openapi_to_json_schema
from .tool_choice import no_parallel_switch

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
                ck = _camel(key)
                if ck != "functionDeclarations":
                    req.tools.append(Tool(name=ck, kind=ck, ext={key: value}, hints={"entry": i}))
                    continue
                for j, decl in enumerate(expect_list(value, f"tools[{i}].{key}")):
                    path = f"tools[{i}].{key}[{j}]"
                    decl = expect_dict(decl, path)
                    norm = {_camel(k): v for k, v in decl.items()}
                    hints: dict[str, Any] = {"entry": i, "key": key}
                    if norm.keys() != decl.keys():
                        hints["snake"] = True
                    openapi = "parameters" in norm and "parametersJsonSchema" not in norm
                    if openapi:
                        norm["parametersJsonSchema"] = norm.pop("parameters")
                        hints["schema_key"] = "parameters"
                    t = codec.decode_tool(norm, path, ctx)
                    if openapi and t.parameters is not None:
                        hints["openapi"] = t.parameters
                        t.parameters = openapi_to_json_schema(t.parameters)
                    t.hints = hints
                    req.tools.append(t)
    tc = w.get("toolConfig")
    if tc is None:
        return
    tc = expect_dict(tc, "toolConfig")
    req.hints = {**(req.hints or {}), "tool_config": tc}
    fcc = tc.get("functionCallingConfig")
    if fcc is None:
        for k in tc.keys() if not ctx.same else ():
            ctx.loss(
                f"toolConfig.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions"
            )
        return
    fcc = expect_dict(fcc, "toolConfig.functionCallingConfig")
    raw = fcc.get("mode")
    if raw is not None:
        raw = expect_str(raw, "toolConfig.functionCallingConfig.mode")
    mode = codec.TOOL_CHOICE_DECODE.get(raw, "auto") if raw is not None else "auto"
    names = fcc.get("allowedFunctionNames")
    if names is not None:
        names = [
            expect_str(n, f"toolConfig.functionCallingConfig.allowedFunctionNames[{k}]")
            for k, n in enumerate(expect_list(names, "toolConfig.functionCallingConfig.x"))
        ]
    from ..generated.canonical import ToolChoice

    if mode == "required" and names and len(names) == 1:
        req.tool_choice = ToolChoice(mode="tool", name=names[0])
    else:
        req.tool_choice = ToolChoice(mode=mode)
    if not ctx.same:  # what only Gemini can carry, reported once, on decode
        if names and req.tool_choice.mode != "tool":
            ctx.loss(
                "toolConfig.functionCallingConfig.allowedFunctionNames",
                f"restriction to {len(names)} functions dropped",
                f"{ctx.target} names at most one forced tool",
                "tool_choice",
            )
        if raw is not None and codec.TOOL_CHOICE_ENCODE.get(mode) != raw:
            ctx.loss(
                "toolConfig.functionCallingConfig.mode",
                f"mode {brief(raw)} sent as {mode!r}",
                f"{ctx.target} has no such mode",
                "tool_choice",
            )
    for k in tc.keys() - {"functionCallingConfig"} if not ctx.same else ():
        ctx.loss(f"toolConfig.{k}", f"{k} dropped", f"{ctx.target} has no equivalent", "extensions")


def _encode_tools(req: Request, out: dict[str, Any], codec: Codec, ctx: Ctx) -> None:
    entries: list[dict[str, Any]] = []
    by_entry: dict[Any, dict[str, Any]] = {}
    for i, t in enumerate(req.tools):
        path = f"tools[{i}]"
        h = (t.hints or {}) if ctx.same else {}
        if t.kind != "function":
            if ctx.same and t.ext is not None:
                e = by_entry.get(h.get("entry"))
                if e is None:
                    e = {}
                    by_entry[h.get("entry", ("hosted", i))] = e
                    entries.append(e)
                e.update(t.ext)
            else:
                drop_hosted_tool(t, path, ctx)
            continue
        decl = codec.encode_tool(t, path, ctx)
        if h.get("schema_key") == "parameters":
            decl.pop("parametersJsonSchema", None)
            decl["parameters"] = h.get("openapi", t.parameters)
        if h.get("snake"):
            decl = {
                "".join("_" + c.lower() if c.isupper() else c for c in k): v
                for k, v in decl.items()
            }
        key = h.get("key", "functionDeclarations")
        e = by_entry.get(h.get("entry", "functions"))
        if e is None:
            e = {}
            by_entry[h.get("entry", "functions")] = e
            entries.append(e)
        e.setdefault(key, []).append(decl)
    if entries:
        out["tools"] = (
            entries[0]
            if ctx.same and (req.hints or {}).get("tools_object") and len(entries) == 1
            else entries
        )
    no_parallel_switch(req, ctx)  # flags.parallel_flag: none
    raw_tc = (req.hints or {}).get("tool_config") if ctx.same else None
    tc = req.tool_choice
    if raw_tc is not None:
        out["toolConfig"] = raw_tc  # the source's own object: mode and names decoded above
        return
    if tc is None:
        return
    fcc: dict[str, Any] = {"mode": codec.TOOL_CHOICE_ENCODE[tc.mode]}
    if tc.mode == "tool" and tc.name is not None:
        fcc["allowedFunctionNames"] = [tc.name]
    out["toolConfig"] = {"functionCallingConfig": fcc}


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
    hints = req.hints or {}
    if req.model is not None:
        if ctx.same and hints.get("model_in_body"):
            out["model"] = req.model
        else:
            out.pop("model", None)
    gc: dict[str, Any] = out.get("generationConfig") or {}
    if gc or (ctx.same and hints.get("generation_config_empty")):
        out["generationConfig"] = gc


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
