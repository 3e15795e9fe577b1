"""Part rows selected on encode by the canonical field they need (``when``) on the tiny spec:
the generated ``encode_<kind>`` tries them in order; where every row of the kind has ``when``
(Gemini's inlineData for data, fileData for a URL), a part with none of those fields (another
provider's file id) is dropped and reported instead of written without its required field;
a row may name several fields (any of them selects it: Chat's image_url takes a URL or data);
where the last row has none, it takes everything else. The generated codec is executed; a
`when` naming no field of the part is refused with file, line and row."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from interlingua._losses import Ctx

from codegen.load import SpecError, load_spec
from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL, write_spec

IMAGE_CANONICAL = CANONICAL.replace(
    "  - {id: native_parts, title: Native parts}\n",
    "  - {id: native_parts, title: Native parts}\n  - {id: image, title: Images}\n",
).replace(
    "  - name: NativePart\n",
    """  - name: ImagePart
    part: image
    feature: image
    fields:
      - {name: data, type: "str | None"}
      - {name: url, type: "str | None"}
      - {name: file_id, type: "str | None"}
  - name: NativePart
""",
)

LAST_WHEN = "    when: url\n"
IMAGE_ROWS = f"""\
  - part: image
    feature: image
    match: {{type: image}}
    when: data
    fields:
      - {{c: data, w: data, required: true}}
  - part: image
    feature: image
    match: {{type: image_url}}
{LAST_WHEN}    fields:
      - {{c: url, w: url, required: true}}
tool_fields:
"""
WITH_IMAGES = PROTOCOL.replace("tool_fields:\n", IMAGE_ROWS).replace(
    "  text: {level: full}\n",
    '  text: {level: full}\n  image: {level: lossy, note: "no file ids"}\n',
)


ANY_OF = "    when: [url, data]\n"
ONE_ROW = f"""\
  - part: image
    feature: image
    match: {{type: image_url}}
{ANY_OF}    fields:
      - {{c: url, w: url}}
      - {{c: data, w: data}}
tool_fields:
"""


@pytest.mark.parametrize(
    ("rows", "data_type", "whens"),
    [
        (IMAGE_ROWS, "image", "data nor url"),  # a row for each field
        (ONE_ROW, "image_url", "url nor data"),  # one row needing any of two (Chat's image_url)
    ],
)
def test_a_part_no_row_can_write_is_dropped_and_reported(
    tmp_path: Path, rows: str, data_type: str, whens: str
) -> None:
    codec = generate(tmp_path, WITH_IMAGES.replace(IMAGE_ROWS, rows), IMAGE_CANONICAL)
    image = canonical_of(codec).ImagePart
    ctx = Ctx("other", "tiny_v2")
    assert codec.encode_part(image(data="QUJD"), "p[0]", ctx) == {"type": data_type, "data": "QUJD"}
    assert codec.encode_part(image(url="https://x/a.png"), "p[1]", ctx) == {
        "type": "image_url",
        "url": "https://x/a.png",
    }
    assert ctx.losses == []
    assert codec.encode_part(image(file_id="file-7"), "p[2]", ctx) is None
    [loss] = ctx.losses
    assert (loss.path, loss.what, loss.feature) == ("p[2]", "ImagePart dropped", "image")
    assert loss.why == f"neither {whens}: tiny_v2 lossy: no file ids"


def test_without_when_the_last_row_takes_the_rest(tmp_path: Path) -> None:
    codec = generate(tmp_path, WITH_IMAGES.replace(LAST_WHEN, ""), IMAGE_CANONICAL)
    image = canonical_of(codec).ImagePart
    ctx = Ctx("other", "tiny_v2")
    assert codec.encode_part(image(url="u"), "p", ctx) == {"type": "image_url", "url": "u"}
    assert codec.encode_part(image(data="QUJD"), "p", ctx) == {"type": "image", "data": "QUJD"}
    assert ctx.losses == []
    assert "dropped" not in inspect.getsource(codec.encode_image)  # no such step compiled


def test_a_when_naming_no_field_is_refused(tmp_path: Path) -> None:
    protocol = WITH_IMAGES.replace(IMAGE_ROWS, ONE_ROW.replace(ANY_OF, "    when: [url, blob]\n"))
    spec = write_spec(tmp_path, IMAGE_CANONICAL, protocol)
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    line = protocol[: protocol.index("    when: [url, blob]")].count("\n") + 1
    msg = str(info.value)
    assert msg.startswith(f"{spec / 'protocols/tiny_v2.yaml'}:{line}: "), msg
    assert "ImagePart has no field 'blob'" in msg


@pytest.mark.parametrize("target", ["openai_chat", "cohere_v2"])
def test_an_image_given_by_a_file_id_only_is_dropped_not_written_without_a_url(
    target: str,
) -> None:
    import interlingua

    body = {
        "model": "gpt-4.1",
        "input": [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "What is in this picture?"},
                    {"type": "input_image", "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL"},
                ],
            }
        ],
    }
    t = interlingua.translate_request(body, source="openai_responses", target=target)
    assert t.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "What is in this picture?"}]}
    ]
    [lost] = [lo for lo in t.losses if lo.feature == "image"]
    assert (lost.path, lost.what) == ("messages[0].content[1]", "ImagePart dropped")
    assert lost.why.startswith(f"neither url nor data: {target} lossy:")
