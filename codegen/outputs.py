"""Every file `make generate` writes, as {relative path: text}."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from .canonical_model import CanonicalSpec
from .compat import render_compat
from .dialect_stream import link_stream
from .dialects import DialectSpec
from .embed_model import EmbedCanonical, EmbedProtocol
from .embed_render import render_embed_canonical, render_embed_codec, render_embed_compat
from .load import Spec
from .render import env, header, render_canonical, render_codec
from .spec_model import ProtocolSpec
from .spec_types import render_spec_types
from .stream_render import stream_view
from .wire_models import render_wire_models


def _schema_json() -> str:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "interlingua spec",
        "description": "Schemas of spec/canonical.yaml, spec/protocols/*.yaml and spec/dialects/*.yaml "
        "(make generate).",
        "$defs": {
            "canonical": CanonicalSpec.model_json_schema(),
            "protocol": ProtocolSpec.model_json_schema(),
            "embeddings_canonical": EmbedCanonical.model_json_schema(),
            "embeddings_protocol": EmbedProtocol.model_json_schema(),
            "dialect": DialectSpec.model_json_schema(),
        },
    }
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def render_stream(
    p: ProtocolSpec, source: str, base: tuple[str, dict[str, str]] | None = None
) -> tuple[str, dict[str, str]]:
    """The stream module and its reader names (``base``: a dialect's base protocol's; the
    dialect imports what it leaves as it is, ``dialect_stream.link_stream``)."""
    assert p.stream is not None
    view = stream_view(
        p.stream, source, p.flags.sse_event_names, base[1] if base else None,
        p.flags.foreign_reasoning,
    )  # fmt: skip
    rd = p.reasoning_details
    owners = {o.format: (o.owner, o.signature_in) for o in rd.owners} if rd else {}
    tpl = env().get_template("stream.py.j2")
    text = tpl.render(
        header=header(source),
        title=p.title,
        source=source,
        pid=p.id,
        v=view,
        owners=owners,
        formats={o.owner: o.format for o in rd.owners} if rd else {},
        unknown_owner=rd.unknown_owner if rd else "",
    )
    if base is not None:
        text = link_stream(base[0], text, f"{p.id}_stream")
    return text, view["reader_names"]


def link_codec(base: str, text: str, base_id: str) -> str:
    """A dialect's codec module importing from its base protocol's codec what its rows leave as
    it is (``link_stream``); its ``__all__`` names everything imported too, so the runtime finds
    the whole codec interface on the dialect's module (and ruff keeps the imports)."""
    linked = link_stream(base, text, f"{base_id}_codec", keep=frozenset({"__all__", "_CODEC"}))
    tree = ast.parse(linked)
    taken = [
        a.asname or a.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == f"{base_id}_codec"
        for a in node.names
    ]
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
            own = ast.literal_eval(node.value)
            lines = linked.splitlines(keepends=True)
            names = [*own, *sorted(set(taken) - set(own))]
            lines[node.lineno - 1 : node.end_lineno] = [f"__all__ = {names!r}\n"]
            return "".join(lines)
    raise AssertionError("a codec module without __all__")  # the template always writes one


def render_registry(spec: Spec) -> str:
    """generated/registry.py: the protocol ids, the dialects (base protocol, module stem, title)
    and the embeddings protocols, with the one each chat protocol's upstreams serve; the
    reasoning flags the envelope reads across protocols."""
    e = spec.embeddings
    eids = [p.id for p in e.protocols] if e is not None else []
    rides = {u: p.id for p in e.protocols for u in p.upstreams} if e is not None else {}
    dialects = {d.name: (d.protocol.id, d.module, d.spec.title) for d in spec.dialects}
    enveloped = tuple(p.id for p in spec.protocols if p.flags.enveloped_reasoning)
    in_ids = next((p.id for p in spec.protocols if p.flags.call_id_signatures), None)
    stateful = next((p.id for p in spec.protocols if p.flags.server_state), None)
    return (
        header("spec/")
        + '"""The ids spec/ defines: protocols, dialects, embeddings protocols."""\n\n'
        + f"PROTOCOLS = {tuple(p.id for p in spec.protocols)!r}\n"
        + "# dialect name -> (base protocol, module stem, title)\n"
        + f"DIALECTS: dict[str, tuple[str, str, str]] = {dialects!r}\n"
        + f"EMBEDDINGS_PROTOCOLS = {tuple(eids)!r}\n"
        + "# chat protocol -> the embeddings protocol its upstreams serve (row `upstreams`)\n"
        + f"EMBEDDINGS_OF: dict[str, str] = {rides!r}\n"
        + "# the protocols whose reasoning state the envelope carries (flags.enveloped_reasoning)\n"
        + f"ENVELOPED_REASONING = frozenset({enveloped!r})\n"
        + "# the protocol whose call signatures ride in call ids (flags.call_id_signatures)\n"
        + f"CALL_ID_SIGNATURES: str | None = {in_ids!r}\n"
        + "# the protocol whose server-side conversation state the gateway keeps (flags.server_state)\n"
        + f"SERVER_STATE: str | None = {stateful!r}\n"
    )


def render_all(spec: Spec, root: Path) -> dict[str, str]:
    def rel(p: Path) -> str:
        return str(p.relative_to(root))

    out: dict[str, str] = {}
    streams: dict[str, tuple[str, dict[str, str]]] = {}  # protocol -> its stream, reader names
    out["generated/__init__.py"] = header("spec/") + '"""Code generated from spec/."""\n'
    out["generated/canonical.py"] = render_canonical(spec, rel(spec.sources["canonical"]))
    out["generated/spec_types.py"] = render_spec_types(header("codegen/spec_model.py"))
    for p in spec.protocols:
        src = rel(spec.sources[p.id])
        out[f"generated/{p.id}_codec.py"] = render_codec(spec, p, src)
        out[f"generated/{p.id}_models.py"] = render_wire_models(p, src)
        if p.stream is not None:
            streams[p.id] = render_stream(p, src)
            out[f"generated/{p.id}_stream.py"] = streams[p.id][0]
    for d in spec.dialects:
        src = rel(d.path)
        base_codec = out[f"generated/{d.protocol.id}_codec.py"]
        codec = render_codec(spec, d.protocol, src, d.name)
        out[f"generated/{d.module}_codec.py"] = link_codec(base_codec, codec, d.protocol.id)
        if d.protocol.stream is not None:
            base = streams.get(d.protocol.id)
            out[f"generated/{d.module}_stream.py"] = render_stream(d.protocol, src, base)[0]
    out["generated/registry.py"] = render_registry(spec)
    out["docs/compatibility.md"] = render_compat(spec)
    if spec.embeddings is not None:  # spec/embeddings: its canonical model, codecs, matrix
        e = spec.embeddings
        out["generated/embeddings_canonical.py"] = render_embed_canonical(
            e, rel(e.sources["canonical"])
        )
        for ep in e.protocols:
            out[f"generated/{ep.id}_codec.py"] = render_embed_codec(ep, rel(e.sources[ep.id]))
        out["docs/compatibility.md"] += render_embed_compat(e)
    out["spec/.schema.json"] = _schema_json()
    return out
