"""A tiny spec (a canonical model and one protocol, `tiny_v2`) for the codegen's own tests: small
enough to read whole, complete enough that the generated codec imports and runs."""

from __future__ import annotations

from pathlib import Path

from codegen.load import SpecError, load_spec

CANONICAL = """\
version: 1
effort_budgets: {low: 1024, high: 8192}
effort_default: low
effort_unknown: high
transforms: {tiny_messages: {compiled: tools}}
features:
  - {id: text, title: Text}
  - {id: sampling, title: Sampling}
  - {id: native_parts, title: Native parts}
enums:
  - {name: Role, values: [user, assistant]}
  - {name: FinishReason, values: [stop, length, other]}
  - {name: ToolChoiceMode, values: [auto, none]}
  - name: ErrorType
    values:
      - {value: invalid_request, status: 400, generic: true}
      - {value: api_error, status: 500, generic: true}
types:
  - name: Request
    fields:
      - {name: model, type: "str | None"}
      - {name: messages, type: "list[Message]", factory: list}
      - {name: tools, type: "list[Tool]", factory: list}
      - {name: temperature, type: "float | None", feature: sampling}
      - {name: max_tokens, type: "int | None", feature: sampling}
      - {name: user, type: "str | None", feature: sampling}
      - {name: source, type: "str", default: "''"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
  - name: Message
    fields:
      - {name: role, type: "str"}
      - {name: parts, type: "list[Part]", factory: list}
  - name: Tool
    fields:
      - {name: name, type: "str"}
      - {name: description, type: "str | None"}
      - {name: parameters, type: "dict[str, Any] | None"}
      - {name: kind, type: "str", default: "'function'"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
  - name: TextPart
    part: text
    feature: text
    fields:
      - {name: text, type: "str"}
      - {name: ext, type: "dict[str, Any] | None"}
  - name: NativePart
    part: native
    feature: native_parts
    fields:
      - {name: type, type: "str"}
      - {name: data, type: "dict[str, Any]"}
      - {name: owner, type: "str"}
  - name: Usage
    fields:
      - {name: input_total, type: "int", default: "0"}
      - {name: input_cache_read, type: "int", default: "0"}
      - {name: input_cache_write, type: "int", default: "0"}
      - {name: output_total, type: "int", default: "0"}
      - {name: output_reasoning, type: "int", default: "0"}
      - {name: raw, type: "dict[str, Any] | None"}
  - name: Finish
    fields:
      - {name: unified, type: "str"}
      - {name: raw, type: "str | None"}
  - name: Response
    fields:
      - {name: id, type: "str | None"}
      - {name: model, type: "str | None"}
      - {name: parts, type: "list[Part]", factory: list}
      - {name: finish, type: "Finish | None"}
      - {name: usage, type: "Usage | None"}
      - {name: source, type: "str", default: "''"}
      - {name: ext, type: "dict[str, Any] | None"}
      - {name: hints, type: "dict[str, Any] | None"}
  - name: StreamStart
    event: start
    fields: [{name: id, type: "str | None"}]
"""

PROTOCOL = """\
id: tiny_v2
title: Tiny v2
endpoint: POST /v2/chat
flags:
  system_placement: in_messages
  system_messages_in_turns: true
  tool_results: tool_messages
  tool_calls: message_field
  parallel_flag: none
  usage_input_includes_cache: true
  sse_event_names: true
http:
  base_path: /v2
  inbound_paths: [/v2/chat]
  upstream_path: /chat
  auth: {header: authorization, scheme: Bearer}
request_fields:
  - {c: model, w: model, required: true}
  - {c: temperature, w: options.temperature, type: number, feature: sampling}
  - {c: max_tokens, w: max_tokens, type: int, feature: sampling}
response_fields:
  - {c: id, w: id}
  - {c: model, w: model}
parts:
  - part: text
    feature: text
    match: {type: text}
    fields:
      - {c: text, w: text, required: true}
tool_fields:
  - {c: name, w: name, required: true}
  - {c: description, w: description}
  - {c: parameters, w: parameters, type: object}
finish_reasons:
  - {unified: stop, raw: COMPLETE}
  - {unified: length, raw: MAX_TOKENS}
enum_defaults:
  finish_reasons: {decode: other, encode: COMPLETE}
tool_choice:
  - {unified: auto, raw: AUTO}
  - {unified: none, raw: NONE}
errors:
  - {unified: invalid_request, raw: bad_request, status: 400}
  - {unified: api_error, raw: internal, status: 500}
error_shape: {type_path: type, message_path: message}
roles:
  - {unified: user, raw: user}
  - {unified: assistant, raw: chatbot}
usage_path: usage
usage_fields:
  - {c: input, w: tokens.input_tokens, type: int}
  - {c: output_total, w: tokens.output_tokens, type: int}
stream_events:
  - {wire: message-start, emits: [start]}
transforms: [tiny_messages]
support:
  text: {level: full}
  sampling: {level: lossy, note: "no top_p; user is dropped"}
  native_parts: {level: unsupported}
"""


def write_spec(root: Path, canonical: str = CANONICAL, protocol: str = PROTOCOL) -> Path:
    """Write the tiny spec (or an edited copy) as root/spec; returns that folder."""
    spec = root / "spec"
    (spec / "protocols").mkdir(parents=True, exist_ok=True)
    (spec / "canonical.yaml").write_text(canonical, encoding="utf-8")
    (spec / "protocols" / "tiny_v2.yaml").write_text(protocol, encoding="utf-8")
    return spec


def refusal(root: Path, canonical: str, protocol: str, marker: str) -> str:
    """Load a tiny spec codegen must refuse; its error, checked to start with the protocol
    file and the line holding ``marker`` (file, line and row)."""
    spec = write_spec(root, canonical, protocol)
    try:
        load_spec(spec)
    except SpecError as e:
        msg = str(e)
    else:
        raise AssertionError("the spec loaded")
    line = protocol[: protocol.index(marker)].count("\n") + 1
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    return msg
