"""Part rows selected on encode by the canonical field they need (``when``) on the tiny spec:
the generated ``encode_<kind>`` tries them in order; where every row of the kind has ``when``
(Gemini's inlineData for data, fileData for a URL), a part with none of those fields (another
provider's file id) is dropped and reported instead of written without its required field;
where the last row has none, it takes everything else. The generated codec is executed."""

from __future__ import annotations

import inspect
from pathlib import Path

from interlingua._losses import Ctx

from tests.test_codegen_generate import canonical_of, generate
from tests.tiny_spec import CANONICAL, PROTOCOL

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


def test_a_part_no_row_can_write_is_dropped_and_reported(tmp_path: Path) -> None:
    codec = generate(tmp_path, WITH_IMAGES, IMAGE_CANONICAL)
    image = canonical_of(codec).ImagePart
    ctx = Ctx("other", "tiny_v2")
    assert codec.encode_part(image(data="QUJD"), "p[0]", ctx) == {"type": "image", "data": "QUJD"}
    assert codec.encode_part(image(url="https://x/a.png"), "p[1]", ctx) == {
        "type": "image_url",
        "url": "https://x/a.png",
    }
    assert ctx.losses == []
    assert codec.encode_part(image(file_id="file-7"), "p[2]", ctx) is None
    [loss] = ctx.losses
    assert (loss.path, loss.what, loss.feature) == ("p[2]", "ImagePart dropped", "image")
    assert loss.why == "neither data nor url: tiny_v2 lossy: no file ids"


def test_without_when_the_last_row_takes_the_rest(tmp_path: Path) -> None:
    codec = generate(tmp_path, WITH_IMAGES.replace(LAST_WHEN, ""), IMAGE_CANONICAL)
    image = canonical_of(codec).ImagePart
    ctx = Ctx("other", "tiny_v2")
    assert codec.encode_part(image(url="u"), "p", ctx) == {"type": "image_url", "url": "u"}
    assert codec.encode_part(image(data="QUJD"), "p", ctx) == {"type": "image", "data": "QUJD"}
    assert ctx.losses == []
    assert "dropped" not in inspect.getsource(codec.encode_image)  # no such step compiled
