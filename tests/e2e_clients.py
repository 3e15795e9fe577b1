"""Real clients through the gateway: ``make e2e-clients`` (not in CI: it needs npm).

Claude Code, Codex and Gemini CLI (installed locally under build/e2e-clients by the make target)
each run once through the gateway, against a local scripted upstream of another protocol:

| client      | speaks             | upstream           |
|-------------|--------------------|--------------------|
| Claude Code | anthropic_messages | openai_chat        |
| Codex       | openai_responses   | anthropic_messages |
| Gemini CLI  | gemini             | openai_chat        |

The upstream answers a request that offers a file-reading tool (Read, read_file, exec_command,
Bash) with a call to it on a file holding a random marker, and a request that carries the tool's
result with a text answer quoting it. A client passes when it ran the tool, sent the result back
(the upstream saw the marker in a tool result) and printed the final answer.

``python -m tests.e2e_clients [--bin DIR] [--only NAME ...]``; exits 1 when a client fails.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from interlingua import decode_request, encode_response
from interlingua._losses import Ctx
from interlingua.generated.canonical import (
    Finish,
    Response,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response as HTTPResponse
from starlette.responses import StreamingResponse
from starlette.routing import Route

from tests.gateway_upstream import PATHS, ServerThread, _encode_stream, _events

ROOT = Path(__file__).resolve().parents[1]
DONE = "E2E_DONE"


@dataclass
class Client:
    name: str
    binary: str
    inbound: str
    upstream: str


CLIENTS = [
    Client("claude-code", "claude", "anthropic_messages", "openai_chat"),
    Client("codex", "codex", "openai_responses", "anthropic_messages"),
    Client("gemini-cli", "gemini", "gemini", "openai_chat"),
]


@dataclass
class Script:
    """What the upstream saw: the tools it called and the results that came back."""

    path: Path
    marker: str
    calls: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    requests: int = 0

    def tool_args(self, name: str) -> dict[str, Any] | None:
        p = str(self.path)
        return {
            "Read": {"file_path": p},
            "read_file": {"file_path": p},
            "exec_command": {"cmd": f"cat {p}"},
            "Bash": {"command": f"cat {p}", "description": "Read the marker file"},
        }.get(name)


def _text(parts: list[Any]) -> str:
    out = []
    for p in parts:
        if type(p) is TextPart:
            out.append(p.text)
        elif type(p) is ToolResultPart:
            out.append(_text(p.content))
    return "".join(out)


def upstream_app(script: Script) -> Starlette:
    async def handle(request: Request, pid: str) -> HTTPResponse:
        script.requests += 1
        body = orjson.loads(await request.body())
        req = decode_request(body, pid)
        target = request.path_params.get("target")
        stream = target.endswith(":streamGenerateContent") if target else bool(req.stream)
        results = [p for m in req.messages for p in m.parts if type(p) is ToolResultPart]
        parts: list[Any]
        if results:
            text = _text([results[-1]])
            script.results.append(text)
            parts, finish = [TextPart(text=f"{DONE}: the file says {text.strip()[:200]}")], "stop"
        else:
            offered = [t.name for t in req.tools]
            name = next(
                (n for n in ("Read", "read_file", "exec_command", "Bash") if n in offered), None
            )
            args = script.tool_args(name) if name else None
            if name is None or args is None or not req.messages:
                parts, finish = [TextPart(text=DONE)], "stop"  # titles, checks, summaries
            else:
                script.calls.append(name)
                call = ToolCallPart(
                    id=f"call_{uuid.uuid4().hex[:12]}", name=name, arguments=json.dumps(args)
                )
                parts, finish = [TextPart(text="Reading the file."), call], "tool_calls"
        model = req.model or "e2e-model"
        if stream:
            chunks = _encode_stream(pid, _events(parts, finish, model))
            return StreamingResponse(iter(chunks), media_type="text/event-stream")
        resp = Response(
            id="msg_e2e",
            model=model,
            parts=parts,
            finish=Finish(unified=finish),
            usage=Usage(input_total=10, output_total=5),
        )
        out = encode_response(resp, pid, Ctx("scripted", pid))
        return HTTPResponse(orjson.dumps(out), media_type="application/json")

    def endpoint(pid: str) -> Any:
        async def ep(request: Request) -> HTTPResponse:
            return await handle(request, pid)

        return ep

    routes = [Route(path, endpoint(pid), methods=["POST"]) for pid in PATHS for path in PATHS[pid]]
    return Starlette(routes=routes)


def command(
    client: Client, bindir: Path, gateway: str, home: Path, prompt: str
) -> tuple[list[str], dict[str, str]]:
    exe = str(bindir / client.binary)
    env = {
        "PATH": f"{bindir}:{os.environ.get('PATH', '')}",
        "HOME": str(home),
        "TERM": "dumb",
        "NO_COLOR": "1",
        "CI": "1",
    }
    if client.name == "claude-code":
        env |= {
            "ANTHROPIC_BASE_URL": gateway,
            "ANTHROPIC_API_KEY": "e2e-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        return [exe, "-p", prompt, "--allowedTools", "Read,Bash(cat:*)"], env
    if client.name == "codex":
        codex_home = home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        (codex_home / "config.toml").write_text(
            'model = "gpt-5"\nmodel_provider = "local"\n'
            "[model_providers.local]\n"
            f'name = "local"\nbase_url = "{gateway}/v1"\n'
            'wire_api = "responses"\nenv_key = "LOCAL_KEY"\n'
            "[analytics]\nenabled = false\n"
        )
        env |= {"CODEX_HOME": str(codex_home), "LOCAL_KEY": "e2e-key"}
        return [exe, "exec", "--skip-git-repo-check", prompt], env
    gemini_dir = home / ".gemini"
    gemini_dir.mkdir(parents=True, exist_ok=True)
    (gemini_dir / "settings.json").write_text(
        json.dumps(
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            }
        )
    )
    env |= {
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GOOGLE_GEMINI_BASE_URL": gateway,
        "GEMINI_API_KEY": "e2e-key",
    }
    return [exe, "-m", "gemini-2.5-pro", "-p", prompt], env


def run_client(client: Client, bindir: Path, timeout: float) -> tuple[bool, str]:
    from interlingua.gateway.app import create_app
    from interlingua.gateway.config import load_config

    if not (bindir / client.binary).exists():
        return False, f"{bindir / client.binary} is not installed"
    with tempfile.TemporaryDirectory(prefix=f"e2e-{client.name}-") as tmp:
        work = Path(tmp) / "work"
        home = Path(tmp) / "home"
        work.mkdir()
        home.mkdir()
        marker = f"E2E_MARKER_{uuid.uuid4().hex[:10]}"
        target = work / "hello.txt"
        target.write_text(marker + "\n")
        script = Script(target, marker)
        upstream = ServerThread(upstream_app(script))
        upstream.start()
        suffix = "/v1beta" if client.upstream == "gemini" else "/v1"
        cfg = load_config(
            data={
                "upstreams": [
                    {
                        "name": "scripted",
                        "protocol": client.upstream,
                        "base_url": upstream.url + suffix,
                    }
                ]
            }
        )
        gateway = ServerThread(create_app(cfg))
        gateway.start()
        try:
            argv, env = command(
                client,
                bindir,
                gateway.url,
                home,
                "Read the file hello.txt and tell me what it says.",
            )
            try:
                proc = subprocess.run(
                    argv,
                    cwd=work,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=timeout,
                    stdin=subprocess.DEVNULL,
                )
                out, err, rc = proc.stdout, proc.stderr, proc.returncode
            except subprocess.TimeoutExpired as e:
                out = (
                    (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
                )
                err = (
                    (e.stderr or b"").decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
                )
                rc = -1
        finally:
            gateway.stop()
            upstream.stop()
    ok_tool = any(marker in r for r in script.results)
    ok_answer = DONE in out and marker in out
    detail = (
        f"exit {rc}; requests {script.requests}; tool calls {script.calls}; "
        f"marker in a tool result: {ok_tool}; final answer printed: {ok_answer}"
    )
    if not (ok_tool and ok_answer and rc == 0):
        detail += f"\n--- stdout ---\n{out[-2000:]}\n--- stderr ---\n{err[-3000:]}"
    return ok_tool and ok_answer and rc == 0, detail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.e2e_clients", description=__doc__)
    ap.add_argument("--bin", default=str(ROOT / "build" / "e2e-clients" / "node_modules" / ".bin"))
    ap.add_argument("--only", nargs="*", choices=[c.name for c in CLIENTS])
    ap.add_argument("--timeout", type=float, default=180)
    args = ap.parse_args(argv)
    if shutil.which("node") is None:
        print("e2e-clients: node is not installed", file=sys.stderr)
        return 2
    failed = 0
    for client in CLIENTS:
        if args.only and client.name not in args.only:
            continue
        ok, detail = run_client(client, Path(args.bin), args.timeout)
        failed += not ok
        print(
            f"{'PASS' if ok else 'FAIL'} {client.name}: {client.inbound} -> {client.upstream}: {detail}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
